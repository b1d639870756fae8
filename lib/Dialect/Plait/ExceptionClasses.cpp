//===- ExceptionClasses.cpp - which exception classes derive from which ---===//
#include "plait/Dialect/Plait/ExceptionClasses.h"

#include "llvm/ADT/StringMap.h"

namespace plait::dialect {

namespace {

/// Each built-in exception class's base, as CPython defines them (its
/// aliases, such as IOError, are OSError itself), and the classes plait's
/// compiled library raises that are not built in.
const llvm::StringMap<llvm::StringRef> &builtinBases() {
  static const llvm::StringMap<llvm::StringRef> bases = {
      // What Python code compiled code calls raised (print() to a closed
      // stdout; the frontend's kCallbackException): its class is known only
      // then, so `except Exception:` catches it, `except ValueError:` not.
      {"<callback>", "Exception"},
      {"ArithmeticError", "Exception"},
      {"AssertionError", "Exception"},
      {"AttributeError", "Exception"},
      {"BaseExceptionGroup", "BaseException"},
      {"BlockingIOError", "OSError"},
      {"BrokenPipeError", "ConnectionError"},
      {"BufferError", "Exception"},
      {"BytesWarning", "Warning"},
      {"ChildProcessError", "OSError"},
      {"ConnectionAbortedError", "ConnectionError"},
      {"ConnectionError", "OSError"},
      {"ConnectionRefusedError", "ConnectionError"},
      {"ConnectionResetError", "ConnectionError"},
      {"DeprecationWarning", "Warning"},
      {"EOFError", "Exception"},
      {"EncodingWarning", "Warning"},
      {"Exception", "BaseException"},
      {"ExceptionGroup", "BaseExceptionGroup"},
      {"FileExistsError", "OSError"},
      {"FileNotFoundError", "OSError"},
      {"FloatingPointError", "ArithmeticError"},
      {"FutureWarning", "Warning"},
      {"GeneratorExit", "BaseException"},
      {"ImportError", "Exception"},
      {"ImportWarning", "Warning"},
      {"IndentationError", "SyntaxError"},
      {"IndexError", "LookupError"},
      {"InterruptedError", "OSError"},
      {"IsADirectoryError", "OSError"},
      {"KeyError", "LookupError"},
      {"KeyboardInterrupt", "BaseException"},
      {"LookupError", "Exception"},
      {"MemoryError", "Exception"},
      {"ModuleNotFoundError", "ImportError"},
      {"NameError", "Exception"},
      {"NotADirectoryError", "OSError"},
      {"NotImplementedError", "RuntimeError"},
      {"OSError", "Exception"},
      {"OverflowError", "ArithmeticError"},
      {"PendingDeprecationWarning", "Warning"},
      {"PermissionError", "OSError"},
      {"ProcessLookupError", "OSError"},
      {"PythonFinalizationError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"ReferenceError", "Exception"},
      {"ResourceWarning", "Warning"},
      {"RuntimeError", "Exception"},
      {"RuntimeWarning", "Warning"},
      {"StopAsyncIteration", "Exception"},
      {"StopIteration", "Exception"},
      {"SyntaxError", "Exception"},
      {"SyntaxWarning", "Warning"},
      {"SystemError", "Exception"},
      {"SystemExit", "BaseException"},
      {"TabError", "IndentationError"},
      {"TimeoutError", "OSError"},
      {"TypeError", "Exception"},
      {"UnboundLocalError", "NameError"},
      {"UnicodeDecodeError", "UnicodeError"},
      {"UnicodeEncodeError", "UnicodeError"},
      {"UnicodeError", "ValueError"},
      {"UnicodeTranslateError", "UnicodeError"},
      {"UnicodeWarning", "Warning"},
      {"UserWarning", "Warning"},
      {"ValueError", "Exception"},
      {"Warning", "Exception"},
      {"ZeroDivisionError", "ArithmeticError"},
      // NumPy's, raised by plait's np.linalg.
      {"numpy.linalg.LinAlgError", "ValueError"},
  };
  return bases;
}

} // namespace

bool isExceptionSubclass(llvm::StringRef raised, llvm::StringRef handled,
                         mlir::DictionaryAttr bases) {
  if (raised == handled)
    return true;
  if (bases)
    if (auto listed = bases.getAs<mlir::ArrayAttr>(raised)) {
      for (mlir::Attribute base : listed)
        if (base.cast<mlir::StringAttr>().getValue() == handled)
          return true;
      return false;
    }
  const auto &table = builtinBases();
  for (auto found = table.find(raised); found != table.end(); found = table.find(found->second))
    if (found->second == handled)
      return true;
  return false;
}

} // namespace plait::dialect
