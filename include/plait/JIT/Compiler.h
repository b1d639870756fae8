//===- Compiler.h - snapshot to executor, detached --------------*- C++ -*-===//
//
// The whole of a plait.jit compilation after the snapshot: typing and MLIR
// emission (on a pooled context), plait's and upstream passes, LLVM
// optimisation, code generation into the shared JIT. Touches no Python, so
// the bindings run it with the GIL released; different compilations run in
// parallel (no global compiler lock).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_COMPILER_H
#define PLAIT_JIT_COMPILER_H

#include "plait/Frontend/Frontend.h"
#include "plait/JIT/SharedJIT.h"

#include <memory>
#include <string>
#include <vector>

namespace plait::jit {

struct CompileRequest {
  std::string snapshot; // "(Program ...)"
  int entryFunction = 0;
  std::vector<frontend::Type> argumentTypes;
  frontend::CompileOptions options;
  unsigned optLevel = 2;
};

/// Native code for one (function, argument types): immutable once built.
struct Executor {
  /// int32_t entry(args memref descriptor..., results memref descriptor...)
  void *entry = nullptr;
  std::shared_ptr<SharedJIT::Code> code;
  frontend::EmittedModule info;
  std::string mlirText;          // as emitted
  std::string optimizedMlirText; // after plait's and upstream MLIR passes
  std::string llvmText;          // optimised LLVM IR
  double compileSeconds = 0;

  /// Calls the entry with 64-bit slots (see frontend::emitModule).
  int32_t call(int64_t *args, int64_t *results) const;
  /// Machine code as assembly text, generated on demand from llvmText.
  std::string assembly() const;
};

/// Throws frontend::CompileError for user errors, MlirError or
/// std::runtime_error for internal failures.
std::shared_ptr<Executor> compile(const CompileRequest &request);

/// Parses "int64", "float64", "bool", "int32", "float32", "int", "float".
frontend::Type parseTypeName(const std::string &name, bool &narrow);

} // namespace plait::jit

#endif // PLAIT_JIT_COMPILER_H
