//===- PassManager.h - pass pipelines over plait modules --------*- C++ -*-===//
//
// Wraps mlir::PassManager. run() holds the context lock for the whole pipeline
// and is meant to be called detached from the interpreter; callback passes
// (Python-defined ones) are invoked on whichever thread MLIR runs them and
// must acquire the GIL themselves.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_PASS_PASSMANAGER_H
#define PLAIT_PASS_PASSMANAGER_H

#include "plait/IR/Module.h"

#include <functional>
#include <memory>
#include <string>

namespace plait {

/// A pass implemented outside the core (in Python). Returns true on success;
/// on failure fills `errorMessage`, which becomes an error diagnostic on the
/// operation. Must not throw.
using CallbackPassFn =
    std::function<bool(const OperationRef &op, std::string &errorMessage)>;

class PassManager {
public:
  /// `anchor` is the operation name the pipeline runs on.
  PassManager(std::shared_ptr<Context> context,
              const std::string &anchor = "builtin.module");
  ~PassManager();

  /// Parses "anchor(pass,pass{opt=1},...)". Throws InvalidArgumentError with
  /// MLIR's explanation (naming the unknown pass or bad option).
  static std::unique_ptr<PassManager> parse(std::shared_ptr<Context> context,
                                            const std::string &pipeline);

  /// Appends "pass,pass{...},nested.op(pass)" (no anchor). Throws
  /// InvalidArgumentError.
  void addPipeline(const std::string &pipeline);
  /// Appends a callback pass run on the anchor operation.
  void addCallbackPass(const std::string &name, CallbackPassFn callback);

  void enableIRPrinting();
  void enableVerifier(bool enabled);
  void enableTiming();

  /// Runs the pipeline on `op` (which must be an anchor operation of this
  /// pass manager's context). Throws MlirError with the error diagnostics on
  /// failure, InvalidArgumentError when `op` belongs to another context.
  /// Handles into the module made before the run become invalid.
  void run(const OperationRef &op);

  const std::shared_ptr<Context> &getContext() const { return context; }
  std::string str();

  struct Impl; // public so that the pass implementation can name it

private:
  std::shared_ptr<Context> context;
  std::unique_ptr<Impl> impl;
};

} // namespace plait

#endif // PLAIT_PASS_PASSMANAGER_H
