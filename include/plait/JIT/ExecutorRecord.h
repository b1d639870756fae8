//===- ExecutorRecord.h - an executor as bytes, for the disk cache -*- C++ -*-===//
//
// cache=True keeps compiled functions on disk: an executor's machine code (a
// relocatable object) with what the dispatcher needs to call it (entry
// symbol, argument and result types, error table, flags, ABI sizes). The
// record is plain bytes; the Python side adds the key, checksum and atomic
// file handling (python/plait/_cache.py).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_EXECUTORRECORD_H
#define PLAIT_JIT_EXECUTORRECORD_H

#include "plait/JIT/Compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace plait::jit {

/// The record of an executor compiled with CompileRequest::keepObject.
/// Throws std::invalid_argument if it kept no object code.
std::string executorRecord(const Executor &executor);

/// An executor from a record made by this build of plait on this CPU (the
/// caller's key ensures both); its code is linked into the shared JIT.
/// Throws std::invalid_argument for a malformed record.
std::shared_ptr<Executor> loadExecutorRecord(const std::string &record);

/// The machine plait generates code for.
struct HostTarget {
  std::string llvmVersion;
  std::string triple;
  std::string cpu;
  std::vector<std::string> features; // enabled ones, sorted
};
HostTarget hostTarget();

/// What besides the source decides the machine code: plait's record
/// format, LLVM's version, the host CPU and its features.
std::string codeFingerprint();

} // namespace plait::jit

#endif // PLAIT_JIT_EXECUTORRECORD_H
