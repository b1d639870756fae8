//===- SharedJIT.cpp - the process-wide ORC JIT of plait.jit --------------===//
#include "plait/JIT/SharedJIT.h"
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Support/LLVMCompat.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

namespace plait {

struct SharedJIT::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

struct SharedJIT::Code::Impl {
  llvm::orc::LLJIT *jit;
  llvm::orc::ResourceTrackerSP tracker;
  /// load()'s own JITDylib, removed with the code (null: the main one).
  llvm::orc::JITDylib *ownDylib = nullptr;
};

SharedJIT::Code::~Code() {
  if (impl && impl->tracker)
    llvm::consumeError(impl->tracker->remove());
  if (impl && impl->ownDylib)
    llvm::consumeError(impl->jit->getExecutionSession().removeJITDylib(*impl->ownDylib));
}

void *SharedJIT::Code::lookup(const std::string &symbol) const {
  auto address = impl->jit->lookup(impl->tracker->getJITDylib(), symbol);
  if (!address)
    throw std::runtime_error("symbol '" + symbol + "' not found in the JIT: " +
                             llvm::toString(address.takeError()));
  return address->toPtr<void *>();
}

static void setOptionUnlessGiven(llvm::StringRef name, llvm::StringRef value) {
  llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
  auto found = options.find(name);
  if (found != options.end() && found->second->getNumOccurrences() == 0)
    (void)found->second->addOccurrence(0, name, value);
}

/// The most micro-ops' worth of copies runtime unrolling makes (below).
constexpr unsigned kRuntimeUnrollingMicroOps = 32;

/// LLVM 16 options: three that cost compile time for no gain on plait's
/// code (docs/design/compile-time.md), two for faster code. Options are
/// process-wide: set once, before the first compilation, and only where no
/// one set them on the command line.
static void setCompileTimeOptions() {
  auto set = setOptionUnlessGiven;
  // One InstCombine iteration per run, as LLVM 17 does by default: the later
  // runs in the pipeline pick up what one iteration leaves.
  set("instcombine-max-iterations", "1");
  // No trip counts by simulating up to 100 iterations: tried on every exit
  // SCEV cannot analyse, such as a checked int operation's overflow flag,
  // and recomputed by each loop pass.
  set("scalar-evolution-max-iterations", "0");
  // An instruction that writes part of an xmm register (int-to-float
  // conversions) waits for the register's last writer. LLVM 16 picks the
  // register idle the longest, but does not see calls clobber registers:
  // in a loop calling cos it picked one cos writes, chaining iterations
  // (1.6x slower). A dependency-breaking xor before every such write costs
  // nothing (a zero idiom); this clearance asks for it always.
  set("undef-reg-clearance", "1073741824");
  // Selects stay conditional moves: LLVM's x86 back end turns those in a
  // loop into branches where its model, which takes branches as perfectly
  // predicted, finds the loop shorter. Conditions that depend on the data
  // are often unpredictable: a bit-by-bit CRC over random bytes ran 2.7
  // times slower as branches (26 ns a byte, against 10). The bench's
  // kernels ran the same either way; np.histogram, whose corrections are
  // rarely taken, 5% slower.
  set("x86-cmov-converter", "false");
  // LLVM unrolls loops whose trip count is known only at run time on CPUs
  // whose scheduling model has a loop buffer, while the copies fit it: 512
  // micro-ops on Zen 3, none on Zen 2. Copies of larger bodies gained
  // nothing measurable in the bench and npbench and doubled the compile
  // time of stencils (npbench's vadv: 3.8 s, 2.9 s with this cap); small
  // bodies keep it (a prime sieve's strided stores run 17% faster).
  if (auto host = llvm::orc::JITTargetMachineBuilder::detectHost()) {
    if (auto machine = host->createTargetMachine()) {
      unsigned buffer = (*machine)->getMCSubtargetInfo()->getSchedModel().LoopMicroOpBufferSize;
      if (buffer > kRuntimeUnrollingMicroOps)
        set("partial-unrolling-threshold", std::to_string(kRuntimeUnrollingMicroOps));
    } else {
      llvm::consumeError(machine.takeError()); // the JIT reports it when it makes its own
    }
  } else {
    llvm::consumeError(host.takeError());
  }
}

/// Python ints are int64, but most fit 32 bits: an int64 division whose
/// operands both do runs as a 32-bit one, after a test of their high bits
/// (LLVM's idivq-to-divl; LLVM 16 sets it for most Intel CPUs, not for
/// AMD's). A trial-division prime count ran 13% faster on Zen 3, as fast
/// as Numba's; a division of large operands pays the test.
static void divideSmallIntsIn32Bits(llvm::orc::JITTargetMachineBuilder &builder) {
  if (builder.getTargetTriple().getArch() == llvm::Triple::x86_64)
    builder.getFeatures().AddFeature("idivq-to-divl");
}

static void initializeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    setCompileTimeOptions();
  });
}

namespace {
/// Skips X86DomainReassignment, which on AVX-512 machines moves chains of
/// scalar mask arithmetic into mask registers. Its search for such chains
/// grows faster than a function's size: in a 60-line stencil of whole-array
/// statements (17,700 instructions after optimisation) it took 1.5 of the
/// 2.9 s of code generation, and the stencil ran no slower without it.
/// Modules of usual sizes keep it (a few percent of their code generation).
class SkipDomainReassignment final : public llvm::OptPassGate {
public:
  /// Modules of more instructions than this are code-generated without it.
  static constexpr unsigned kLargeModule = 6000;

  bool isEnabled() const override { return true; }
  bool shouldRunPass(const llvm::StringRef pass, llvm::StringRef) PLAIT_PASS_GATE_CONST override {
    return pass != "X86 Domain Reassignment Pass";
  }
};

/// What a thread needs to generate code: a TargetMachine (not safe for
/// concurrent code generation) and the legacy pass manager of its code
/// generator. Both are built once per thread: building the pass manager
/// costs a tenth of a small function's compilation. LLVM's AsmPrinter
/// and MC streamer reset themselves after each module (`doFinalization`)
/// to run again on the next one; the object is written into `object`,
/// which each run hands over and leaves empty.
struct ThreadCodeGenerator {
  std::unique_ptr<llvm::TargetMachine> machine;
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream objectStream{object};
  std::unique_ptr<llvm::legacy::PassManager> passes;

  static ThreadCodeGenerator &get() {
    thread_local ThreadCodeGenerator generator;
    return generator;
  }

  llvm::TargetMachine &targetMachine() {
    if (!machine) {
      initializeTarget();
      auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
      if (!builder)
        throw std::runtime_error(llvm::toString(builder.takeError()));
      builder->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
      divideSmallIntsIn32Bits(*builder);
      auto created = builder->createTargetMachine();
      if (!created)
        throw std::runtime_error(llvm::toString(created.takeError()));
      machine = std::move(*created);
    }
    return *machine;
  }

  /// The relocatable object of `module`.
  std::unique_ptr<llvm::MemoryBuffer> generate(llvm::Module &module) {
    if (!passes) {
      auto built = std::make_unique<llvm::legacy::PassManager>();
      llvm::MCContext *context = nullptr;
      if (targetMachine().addPassesToEmitMC(*built, context, objectStream))
        throw std::runtime_error("code generation failed: the target cannot emit objects");
      passes = std::move(built);
    }
    object.clear();
    // The gate belongs to the module's own context: other threads'
    // compilations are unaffected.
    static SkipDomainReassignment skipDomainReassignment;
    if (module.getInstructionCount() > SkipDomainReassignment::kLargeModule)
      module.getContext().setOptPassGate(skipDomainReassignment);
    passes->run(module);
    return std::make_unique<llvm::SmallVectorMemoryBuffer>(
        std::move(object), module.getModuleIdentifier() + "-jitted-objectbuffer",
        /*RequiresNullTerminator=*/false);
  }
};
} // namespace

llvm::TargetMachine &SharedJIT::threadTargetMachine() {
  return ThreadCodeGenerator::get().targetMachine();
}

SharedJIT::SharedJIT() : impl(std::make_unique<Impl>()) {
  initializeTarget();
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    throw std::runtime_error("cannot create the JIT: " +
                             llvm::toString(jit.takeError()));
  impl->jit = std::move(*jit);
  llvm::orc::JITDylib &main = impl->jit->getMainJITDylib();
  char prefix = impl->jit->getDataLayout().getGlobalPrefix();
  main.addGenerator(llvm::cantFail(
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix)));
  llvm::orc::SymbolMap runtime;
  llvm::orc::MangleAndInterner mangle(impl->jit->getExecutionSession(),
                                      impl->jit->getDataLayout());
  for (const auto &[name, address] : getRuntimeSymbols())
    runtime[mangle(name)] = compat::makeExportedSymbol(address);
  llvm::cantFail(main.define(llvm::orc::absoluteSymbols(std::move(runtime))));
}

SharedJIT &SharedJIT::get() {
  // Never destroyed: executors may outlive static destruction order.
  static SharedJIT *instance = new SharedJIT();
  return *instance;
}

std::shared_ptr<SharedJIT::Code> SharedJIT::add(std::unique_ptr<llvm::Module> module,
                                                std::unique_ptr<llvm::LLVMContext> context,
                                                const std::string &entrySymbol,
                                                const std::function<void()> &generated,
                                                std::string *objectCopy) {
  // Code generation on this thread with its own TargetMachine, so that
  // compilations of different threads run in parallel.
  std::unique_ptr<llvm::MemoryBuffer> object = ThreadCodeGenerator::get().generate(*module);
  if (generated)
    generated();
  if (objectCopy)
    objectCopy->assign(object->getBufferStart(), object->getBufferSize());
  (void)context; // the module (and its context) are no longer needed
  return link(std::move(object), impl->jit->getMainJITDylib(), /*ownDylib=*/false, entrySymbol);
}

std::shared_ptr<SharedJIT::Code> SharedJIT::link(std::unique_ptr<llvm::MemoryBuffer> object,
                                                 llvm::orc::JITDylib &dylib, bool ownDylib,
                                                 const std::string &entrySymbol) {
  auto code = std::make_shared<Code>();
  code->bytes = object->getBufferSize();
  code->impl = std::make_unique<Code::Impl>();
  code->impl->jit = impl->jit.get();
  code->impl->ownDylib = ownDylib ? &dylib : nullptr;
  code->impl->tracker = dylib.createResourceTracker();
  if (llvm::Error error = impl->jit->addObjectFile(code->impl->tracker, std::move(object)))
    throw std::runtime_error("cannot add code to the JIT: " + llvm::toString(std::move(error)));
  code->lookup(entrySymbol); // links now: missing symbols fail here
  return code;
}

std::shared_ptr<SharedJIT::Code> SharedJIT::load(const std::string &object,
                                                 const std::string &entrySymbol) {
  static std::atomic<uint64_t> loads{0};
  llvm::orc::ExecutionSession &session = impl->jit->getExecutionSession();
  auto dylib = session.createJITDylib("plait-cached-" + std::to_string(++loads));
  if (!dylib)
    throw std::runtime_error("cannot load cached code: " + llvm::toString(dylib.takeError()));
  // The runtime's symbols and the process's are found through the main one.
  dylib->addToLinkOrder(impl->jit->getMainJITDylib());
  return link(llvm::MemoryBuffer::getMemBufferCopy(object, "plait-cached-object"), *dylib,
              /*ownDylib=*/true, entrySymbol);
}

} // namespace plait
