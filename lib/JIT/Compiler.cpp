//===- Compiler.cpp - snapshot to executor, detached ----------------------===//
#include "plait/JIT/Compiler.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/IR/Context.h"
#include "plait/IR/MLIRUtils.h"
#include "plait/JIT/EntryABI.h"
#include "plait/JIT/LLVMOptimizer.h"
#include "plait/Passes/Passes.h"
#include "plait/Support/LLVMCompat.h"
#include "plait/Support/Rendezvous.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>

namespace plait::jit {
namespace {

/// Set PLAIT_VERIFY_EACH_PASS=1 to verify the IR after every MLIR pass (the
/// tests do): a pass that breaks the IR is then named. Otherwise the IR is
/// verified after emission and once more before translation to LLVM IR.
bool verifyEachPass() {
  static const bool verify = [] {
    const char *text = std::getenv("PLAIT_VERIFY_EACH_PASS");
    return text && *text && std::string(text) != "0";
  }();
  return verify;
}

/// The MLIR pass managers of a compilation, built once per pooled context
/// and reused: building them (the canonicalizer gathers every dialect's
/// patterns when it is initialised) costs about as much as running them on a
/// small function.
struct Pipelines {
  explicit Pipelines(mlir::MLIRContext &context)
      : optimize(&context), standard(&context), cleanUp(&context), lower(&context) {
    // Inlining first: plait's passes then see callees' loops and checks
    // inside their callers. Without the inliner's own canonicalizer run on
    // each function: the next pass canonicalizes the whole module once.
    optimize.addPass(mlir::createInlinerPass({}, [](mlir::OpPassManager &) {}));
    optimize.addPass(mlir::createCanonicalizerPass());
    optimize.addPass(mlir::createCSEPass());
    dialect::buildOptimizePipeline(optimize);
    dialect::buildLowerToStandardPipeline(standard);
    cleanUp.addPass(mlir::createCanonicalizerPass());
    cleanUp.addPass(mlir::createCSEPass());
    buildLowerToLLVMPipeline(lower, /*genericAllocation=*/true);
    for (mlir::PassManager *pm : {&optimize, &standard, &cleanUp, &lower})
      pm->enableVerifier(verifyEachPass());
  }

  mlir::PassManager optimize, standard, cleanUp, lower;
};

/// Compilations borrow contexts from a pool so they never contend on one
/// context and do not pay for a fresh context each time. A context is retired
/// after a number of uses to bound what it accumulates (uniqued locations).
class ContextPool {
public:
  static ContextPool &get() {
    static ContextPool *pool = new ContextPool();
    return *pool;
  }

  struct Lease {
    std::shared_ptr<Context> context;
    int uses;
    std::unique_ptr<Pipelines> pipelines; // made on first use

    Pipelines &getPipelines() {
      if (!pipelines)
        pipelines = std::make_unique<Pipelines>(context->getMLIRContext());
      return *pipelines;
    }
  };

  Lease acquire() {
    {
      std::lock_guard<std::mutex> guard(mutex);
      if (!idle.empty()) {
        Lease lease = std::move(idle.back());
        idle.pop_back();
        return lease;
      }
    }
    return {Context::create(/*internal=*/true), 0, nullptr};
  }

  void release(Lease lease) {
    if (++lease.uses >= kMaxUses)
      return; // dropped: its memory goes with it
    std::lock_guard<std::mutex> guard(mutex);
    if (idle.size() < kMaxIdle)
      idle.push_back(std::move(lease));
  }

private:
  static constexpr int kMaxUses = 256;
  static constexpr size_t kMaxIdle = 16;
  std::mutex mutex; // guards `idle`; a leaf lock held for a push or a pop
  std::vector<Lease> idle;
};

std::atomic<uint64_t> nextModuleId{1};

// Process-wide counters (relaxed: they are statistics, not synchronisation).
std::atomic<int64_t> compilations{0};
std::atomic<int64_t> liveExecutors{0};
std::atomic<int64_t> liveCodeBytes{0};
std::atomic<int64_t> compileNanoseconds{0};

// The compile rendezvous test hook. `hookMutex` guards the four values; it
// is a leaf lock held only to copy them.
std::mutex hookMutex;
std::string hookBarrier;
std::string hookExitBarrier;
unsigned hookParticipants = 0;
double hookTimeout = 0;

/// The hook as one compilation saw it when it started: it meets the entry
/// barrier then and the exit barrier when it ends, even if the hook has been
/// cleared meanwhile (a test may clear it to let a later compilation pass).
struct CompileHook {
  std::string barrier, exitBarrier;
  unsigned participants = 0;
  double timeout = 0;

  static CompileHook current() {
    std::lock_guard<std::mutex> guard(hookMutex);
    return {hookBarrier, hookExitBarrier, hookParticipants, hookTimeout};
  }
  void meet(bool atExit) const {
    const std::string &id = atExit ? exitBarrier : barrier;
    if (!participants || id.empty())
      return;
    RendezvousOutcome outcome = rendezvous(id, participants, timeout);
    if (!outcome.met)
      throw std::runtime_error("compile rendezvous: " + outcome.error);
  }
};

/// The error table plait-lower-raise wrote: status k is entry k - 1.
std::vector<frontend::ErrorSite> errorTable(mlir::ModuleOp module) {
  std::vector<frontend::ErrorSite> errors;
  if (auto table = module->getAttrOfType<mlir::ArrayAttr>(dialect::kErrorTableAttrName))
    for (mlir::Attribute entry : table) {
      auto triple = entry.cast<mlir::ArrayAttr>();
      errors.push_back({triple[0].cast<mlir::StringAttr>().str(),
                        triple[1].cast<mlir::StringAttr>().str(),
                        triple[2].cast<mlir::StringAttr>().str()});
    }
  return errors;
}

} // namespace

int32_t speculationStatusOf(const std::vector<frontend::ErrorSite> &errors) {
  for (size_t i = 0; i < errors.size(); ++i)
    if (errors[i].exception == dialect::kSpeculationFailedException)
      return static_cast<int32_t>(i + 1);
  return 0;
}

namespace {

/// Splits a compilation's time into named phases; a phase named twice
/// accumulates (printing the stages happens between the others).
class PhaseClock {
public:
  explicit PhaseClock(std::vector<std::pair<std::string, double>> &phases)
      : phases(phases), last(std::chrono::steady_clock::now()) {}

  /// Charges the time since the previous lap to `phase`.
  void lap(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last).count();
    last = now;
    for (auto &[name, total] : phases)
      if (name == phase) {
        total += seconds;
        return;
      }
    phases.emplace_back(phase, seconds);
  }

private:
  std::vector<std::pair<std::string, double>> &phases;
  std::chrono::steady_clock::time_point last;
};

std::string print(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return os.str();
}

} // namespace

Executor::Executor() { liveExecutors.fetch_add(1, std::memory_order_relaxed); }

Executor::~Executor() {
  liveExecutors.fetch_sub(1, std::memory_order_relaxed);
  if (code)
    liveCodeBytes.fetch_sub(static_cast<int64_t>(code->codeBytes()),
                            std::memory_order_relaxed);
}

CompilerStats compilerStats() {
  CompilerStats stats;
  stats.compilations = compilations.load(std::memory_order_relaxed);
  stats.liveExecutors = liveExecutors.load(std::memory_order_relaxed);
  stats.codeBytes = liveCodeBytes.load(std::memory_order_relaxed);
  stats.compileSeconds = compileNanoseconds.load(std::memory_order_relaxed) * 1e-9;
  return stats;
}

void setCompileRendezvous(const std::string &barrierId, unsigned participants,
                          double timeoutSeconds, const std::string &exitBarrierId) {
  std::lock_guard<std::mutex> guard(hookMutex);
  hookBarrier = barrierId;
  hookExitBarrier = exitBarrierId;
  hookParticipants = participants;
  hookTimeout = timeoutSeconds;
}

void Executor::call(void **slots) const {
  reinterpret_cast<void (*)(void **)>(entry)(slots);
}

bool Executor::setFallback(std::shared_ptr<const Executor> other) const {
  std::lock_guard<std::mutex> guard(fallbackMutex);
  if (fallbackOwner)
    return false;
  fallbackOwner = std::move(other);
  fallbackCode.store(fallbackOwner.get(), std::memory_order_release);
  return true;
}

/// Adds `void <name>_packed(void **slots)` calling `<name>` with the values
/// the slots point to and storing its result through the last slot: one
/// native signature for any mix of scalars and memref descriptors. The
/// wrapper is the module's only export: every other definition becomes
/// internal, and the entry is inlined into it before LLVM's pipeline runs, so
/// that LLVM optimises and generates code for the function body once.
static void addPackedWrapper(llvm::Module &module, const std::string &name) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &global : module.globals())
    if (!global.isDeclaration())
      global.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::Function *callee = module.getFunction(name);
  if (!callee)
    throw std::runtime_error("internal error: no entry function " + name);
  callee->addFnAttr(llvm::Attribute::AlwaysInline);
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer}, false);
  auto *packed = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                        name + "_packed", module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", packed));
  llvm::Value *slots = packed->getArg(0);
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &parameter : callee->args()) {
    llvm::Value *at = b.CreateConstGEP1_64(pointer, slots, parameter.getArgNo());
    arguments.push_back(b.CreateLoad(parameter.getType(), b.CreateLoad(pointer, at)));
  }
  llvm::CallInst *result = b.CreateCall(callee, arguments);
  llvm::Value *at = b.CreateConstGEP1_64(pointer, slots, callee->arg_size());
  b.CreateStore(result, b.CreateLoad(pointer, at));
  b.CreateRetVoid();
  // Inlined here rather than by LLVM's inliner, which would first run the
  // whole simplification pipeline on the entry and then again on the
  // wrapper. Only when the entry is the module's one function: with other
  // functions (recursive ones, which MLIR does not inline) LLVM's inliner
  // optimises the calls better in the entry's context (fib: 1.8x faster).
  auto defined = llvm::count_if(module, [](llvm::Function &f) { return !f.isDeclaration(); });
  if (defined != 2 || !callee->hasOneUse())
    return;
  llvm::InlineFunctionInfo inlining;
  if (llvm::InlineFunction(*result, inlining).isSuccess() && callee->use_empty())
    callee->eraseFromParent();
}

std::string Executor::assembly() const {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseIR(
      llvm::MemoryBufferRef(llvmText, "executor"), diagnostic, context);
  if (!module)
    return "; cannot re-read the LLVM IR: " + diagnostic.getMessage().str();
  llvm::SmallString<4096> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  llvm::TargetMachine &machine = SharedJIT::threadTargetMachine();
  if (machine.addPassesToEmitFile(pm, os, nullptr, compat::kAssemblyFile))
    return "; the target cannot emit assembly";
  pm.run(*module);
  return std::string(text.str());
}

std::shared_ptr<Executor> compile(const CompileRequest &request) {
  auto start = std::chrono::steady_clock::now();
  compilations.fetch_add(1, std::memory_order_relaxed);
  struct Timer {
    std::chrono::steady_clock::time_point start;
    ~Timer() {
      compileNanoseconds.fetch_add(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::steady_clock::now() - start).count(),
          std::memory_order_relaxed);
    }
  } timer{start};
  CompileHook hook = CompileHook::current();
  hook.meet(/*atExit=*/false);
  auto executor = std::make_shared<Executor>();
  PhaseClock clock(executor->phaseSeconds);
  frontend::Program program = frontend::parseProgram(request.snapshot);
  uint64_t id = nextModuleId.fetch_add(1);

  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule;
  ContextPool::Lease lease = ContextPool::get().acquire();
  {
    Context &context = *lease.context;
    Context::Guard guard(context);
    Context::Capture capture(context);
    mlir::MLIRContext &mlirContext = context.getMLIRContext();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::ModuleOp::create(mlir::UnknownLoc::get(&mlirContext));
    executor->info = frontend::emitModule(*module, program, request.entryFunction,
                                          request.argumentTypes, request.options, id);
    if (mlir::failed(mlir::verify(*module)))
      capture.fail("internal error: plait emitted invalid MLIR:\n" +
                   print(*module));
    clock.lap("typing and emission");
    // Prints the module into `text` when the request keeps the stages.
    auto keep = [&](std::string &text) {
      if (!request.keepStages)
        return;
      text = print(*module);
      clock.lap("printing stages");
    };
    keep(executor->plaitText);

    Pipelines &pipelines = lease.getPipelines();
    if (mlir::failed(pipelines.optimize.run(*module)))
      capture.fail("internal error: plait's optimisations failed");
    clock.lap("plait passes");
    keep(executor->optimizedPlaitText);

    if (mlir::failed(pipelines.standard.run(*module)))
      capture.fail("internal error: lowering the plait dialect failed");
    clock.lap("lowering to MLIR");
    keep(executor->mlirText);
    executor->info.errors = errorTable(*module);
    executor->info.speculationStatus = speculationStatusOf(executor->info.errors);
    executor->packedSlots = abi::packedSlots(executor->info.argumentTypes);
    executor->resultWords = abi::resultWords(executor->info.resultType);

    if (mlir::failed(pipelines.cleanUp.run(*module)))
      capture.fail("internal error: MLIR optimisation failed");
    clock.lap("lowering to MLIR");
    keep(executor->optimizedMlirText);

    if (mlir::failed(pipelines.lower.run(*module)))
      capture.fail("internal error: lowering to the LLVM dialect failed");
    if (!verifyEachPass() && mlir::failed(mlir::verify(*module)))
      capture.fail("internal error: plait's passes produced invalid MLIR "
                   "(set PLAIT_VERIFY_EACH_PASS=1 to find the pass)");
    llvmModule = mlir::translateModuleToLLVMIR(*module, *llvmContext);
    if (!llvmModule)
      capture.fail("internal error: translation to LLVM IR failed");
    addPackedWrapper(*llvmModule, executor->info.entrySymbol);
    clock.lap("lowering to LLVM IR");
  }
  ContextPool::get().release(std::move(lease));

  // LLVM only from here: no context lock held.
  llvm::TargetMachine &machine = SharedJIT::threadTargetMachine();
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple().str());
  if (llvm::Error error = optimizeModule(*llvmModule, request.optLevel, machine))
    throw std::runtime_error("LLVM optimisation failed: " +
                             llvm::toString(std::move(error)));
  clock.lap("LLVM optimisation");
  if (request.keepStages) {
    llvm::raw_string_ostream os(executor->llvmText);
    llvmModule->print(os, nullptr);
    clock.lap("printing stages");
  }
  std::string packedSymbol = executor->info.entrySymbol + "_packed";
  executor->code = SharedJIT::get().add(
      std::move(llvmModule), std::move(llvmContext), packedSymbol,
      [&] { clock.lap("code generation"); }, request.keepObject ? &executor->objectCode : nullptr);
  executor->entry = executor->code->lookup(packedSymbol);
  clock.lap("linking");
  liveCodeBytes.fetch_add(static_cast<int64_t>(executor->code->codeBytes()),
                          std::memory_order_relaxed);
  executor->compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  hook.meet(/*atExit=*/true);
  return executor;
}

} // namespace plait::jit
