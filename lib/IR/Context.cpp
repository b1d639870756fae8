//===- Context.cpp - an MLIR context with a lock and diagnostics ----------===//
#include "plait/IR/Context.h"
#include "plait/IR/MLIRUtils.h"
#include "plait/IR/Module.h"
#include "InterfaceModelTable.h"
#include "plait/IR/Registration.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "plait/Support/LLVMCompat.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace plait {
namespace {

std::atomic<int64_t> liveContexts{0};

/// Every live Context by its MLIRContext, for callbacks that MLIR hands only
/// the MLIRContext.
std::mutex contextsByMLIRMutex;
std::unordered_map<mlir::MLIRContext *, Context *> &contextsByMLIR() {
  static auto *contexts = new std::unordered_map<mlir::MLIRContext *, Context *>();
  return *contexts;
}

/// Contexts this thread holds the lock of, or runs a callback for. Short: a
/// thread rarely works on more than one or two contexts at once.
thread_local std::vector<Context *> heldContexts;

bool threadHolds(Context *context) {
  return std::find(heldContexts.begin(), heldContexts.end(), context) !=
         heldContexts.end();
}

void popHeld(Context *context) {
  auto it = std::find(heldContexts.rbegin(), heldContexts.rend(), context);
  if (it != heldContexts.rend())
    heldContexts.erase(std::next(it).base());
}

/// One worker pool for every context: per-context pools would multiply threads
/// by the number of live contexts. Never destroyed, so that contexts released
/// during interpreter shutdown can still use it.
compat::ThreadPool &sharedThreadPool() {
  static compat::ThreadPool *pool = new compat::ThreadPool();
  return *pool;
}

} // namespace

std::string locationToString(mlir::Location location) {
  if (auto file = location.dyn_cast<mlir::FileLineColLoc>())
    return file.getFilename().str() + ":" + std::to_string(file.getLine()) +
           ":" + std::to_string(file.getColumn());
  if (auto name = location.dyn_cast<mlir::NameLoc>()) {
    if (name.getChildLoc().isa<mlir::UnknownLoc>())
      return name.getName().str();
    return name.getName().str() + " at " + locationToString(name.getChildLoc());
  }
  if (location.isa<mlir::UnknownLoc>())
    return "unknown";
  std::string text;
  llvm::raw_string_ostream os(text);
  location.print(os);
  os.flush();
  return text;
}

static DiagnosticSeverity toSeverity(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return DiagnosticSeverity::Error;
  case mlir::DiagnosticSeverity::Warning:
    return DiagnosticSeverity::Warning;
  case mlir::DiagnosticSeverity::Note:
    return DiagnosticSeverity::Note;
  case mlir::DiagnosticSeverity::Remark:
    return DiagnosticSeverity::Remark;
  }
  return DiagnosticSeverity::Error;
}

DiagnosticInfo toDiagnosticInfo(const mlir::Diagnostic &diagnostic) {
  DiagnosticInfo info;
  info.severity = toSeverity(diagnostic.getSeverity());
  info.message = diagnostic.str();
  info.location = locationToString(diagnostic.getLocation());
  for (const mlir::Diagnostic &note : diagnostic.getNotes())
    info.notes.push_back(toDiagnosticInfo(note));
  return info;
}

std::shared_ptr<Context> Context::create(bool internal) {
  return std::shared_ptr<Context>(new Context(internal));
}

Context::Context(bool internal)
    : mlirContext(std::make_unique<mlir::MLIRContext>(getDialectRegistry(),
                                                      mlir::MLIRContext::Threading::DISABLED)),
      handleTable(std::make_unique<HandleTable>()),
      interfaceModels(std::make_unique<InterfaceModelTable>()), internal(internal) {
  {
    std::lock_guard<std::mutex> lock(contextsByMLIRMutex);
    contextsByMLIR()[mlirContext.get()] = this;
  }
  ensurePassesRegistered();
  // plait.jit's own contexts serve one compilation at a time, of a handful of
  // functions: without threading, uniquing types and attributes takes no
  // locks and passes spawn no tasks (a small function compiles ~0.5 ms
  // faster). Compilations of different threads still run in parallel.
  if (!internal)
    mlirContext->setThreadPool(sharedThreadPool());
  mlirContext->getDiagEngine().registerHandler(
      [this](mlir::Diagnostic &diagnostic) -> mlir::LogicalResult {
        return mlir::success(handleDiagnostic(toDiagnosticInfo(diagnostic)));
      });
  if (!internal)
    ++liveContexts;
}

Context::~Context() {
  destroyBuried();
  {
    std::lock_guard<std::mutex> lock(contextsByMLIRMutex);
    contextsByMLIR().erase(mlirContext.get());
  }
  mlirContext.reset();
  if (!internal)
    --liveContexts;
}

void Context::destroyBuried() {
  std::vector<mlir::Operation *> buried;
  {
    std::lock_guard<std::mutex> lock(handleTable->mutex);
    if (handleTable->graveyard.empty())
      return;
    buried.swap(handleTable->graveyard);
  }
  // Uses between the buried operations go first, so that no use outlives the
  // value it refers to whatever the order of destruction.
  for (mlir::Operation *op : buried)
    op->dropAllReferences();
  for (mlir::Operation *op : buried)
    op->destroy();
}

Context &Context::fromMLIR(mlir::MLIRContext *context) {
  std::lock_guard<std::mutex> lock(contextsByMLIRMutex);
  return *contextsByMLIR().at(context);
}

int64_t Context::liveCount() { return liveContexts.load(); }

bool Context::handleDiagnostic(const DiagnosticInfo &diagnostic) {
  std::vector<std::shared_ptr<DiagnosticCallback>> callbacks;
  {
    std::lock_guard<std::mutex> guard(captureMutex);
    if (diagnostic.severity == DiagnosticSeverity::Error && activeCapture &&
        !emitErrorDiagnostics.load()) {
      activeCapture->captured.push_back(diagnostic);
      return true;
    }
    // Most recently attached first, as MLIR's own handler stack does.
    for (auto it = handlers.rbegin(); it != handlers.rend(); ++it)
      callbacks.push_back(it->callback);
  }
  // Diagnostics are only emitted by operations holding the context lock; the
  // handler runs on their behalf.
  // They may read IR but not change it: native code may be walking it.
  CallbackScope scope(*this);
  CallbackRestrictions restrictions = CallbackRestrictions::readOnly();
  for (const std::shared_ptr<DiagnosticCallback> &callback : callbacks)
    if ((*callback)(diagnostic))
      return true;
  return false;
}

uint64_t Context::attachDiagnosticHandler(DiagnosticCallback callback) {
  std::lock_guard<std::mutex> guard(captureMutex);
  uint64_t id = nextHandlerId++;
  handlers.push_back(
      {id, std::make_shared<DiagnosticCallback>(std::move(callback))});
  return id;
}

bool Context::detachDiagnosticHandler(uint64_t id) {
  std::shared_ptr<DiagnosticCallback> removed; // destroyed after unlocking
  std::lock_guard<std::mutex> guard(captureMutex);
  auto it = std::find_if(handlers.begin(), handlers.end(),
                         [&](const HandlerEntry &entry) { return entry.id == id; });
  if (it == handlers.end())
    return false;
  removed = std::move(it->callback);
  handlers.erase(it);
  return true;
}

bool Context::isHeldByThisThread() { return threadHolds(this); }

Context::Guard::Guard(Context &context) : context(context) {
  owns = !threadHolds(&context);
  if (owns) {
    context.irMutex.lock();
    heldContexts.push_back(&context);
    context.destroyBuried();
  }
}

Context::Guard::~Guard() {
  if (owns) {
    popHeld(&context);
    context.irMutex.unlock();
  }
}

Context::CallbackScope::CallbackScope(Context &context) : context(context) {
  heldContexts.push_back(&context);
}

Context::CallbackScope::~CallbackScope() { popHeld(&context); }

Context::Capture::Capture(Context &context) : context(context) {
  std::lock_guard<std::mutex> guard(context.captureMutex);
  previous = context.activeCapture;
  context.activeCapture = this;
}

Context::Capture::~Capture() {
  std::lock_guard<std::mutex> guard(context.captureMutex);
  context.activeCapture = previous;
}

std::vector<DiagnosticInfo> Context::Capture::take() {
  std::lock_guard<std::mutex> guard(context.captureMutex);
  return std::move(captured);
}

void Context::Capture::fail(const std::string &message) {
  throw MlirError(message, take());
}

} // namespace plait
