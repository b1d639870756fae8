//===- Error.h - plait's error values ---------------------------*- C++ -*-===//
//
// Errors crossing the core's public API are C++ exceptions of the types below.
// They never travel through LLVM/MLIR frames (LLVM is built without exception
// support): every callback that MLIR invokes catches everything first. The
// Python bindings translate each type to one Python exception class.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_ERROR_H
#define PLAIT_SUPPORT_ERROR_H

#include <stdexcept>
#include <string>
#include <vector>

namespace plait {

enum class DiagnosticSeverity { Error, Warning, Note, Remark };

const char *toString(DiagnosticSeverity severity);

/// A diagnostic copied out of MLIR: plain values, valid on any thread and after
/// the context is gone.
struct DiagnosticInfo {
  DiagnosticSeverity severity = DiagnosticSeverity::Error;
  std::string message;
  /// "file:line:col" for file locations, MLIR's printed form otherwise.
  std::string location;
  std::vector<DiagnosticInfo> notes;

  /// "error: file:1:2: message" followed by indented notes.
  std::string str() const;
};

/// A failed MLIR operation (parse, verify, pass pipeline, translation) with the
/// error diagnostics emitted while it ran. Becomes plait.ir.MLIRError.
class MlirError : public std::runtime_error {
public:
  MlirError(std::string message, std::vector<DiagnosticInfo> diagnostics);
  const std::string &message() const { return messageText; }
  const std::vector<DiagnosticInfo> &diagnostics() const { return diags; }

private:
  std::string messageText;
  std::vector<DiagnosticInfo> diags;
};

/// A bad value given by the caller (unknown pass, bad option). ValueError.
class InvalidArgumentError : public std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A value of the wrong type or count for a native signature. TypeError.
class TypeMismatchError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A name that is not there (unknown function in an engine). KeyError.
class NotFoundError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A file that cannot be written. OSError.
class FileError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A position outside what is there (inserting after a terminator).
/// IndexError.
class OutOfRangeError : public std::out_of_range {
  using std::out_of_range::out_of_range;
};

/// A handle whose IR was erased or rewritten. RuntimeError.
class InvalidHandleError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace plait

#endif // PLAIT_SUPPORT_ERROR_H
