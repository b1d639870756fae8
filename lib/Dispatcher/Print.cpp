//===- Print.cpp - print() of compiled code, through the interpreter ------===//
//
// Compiled code describes a print() call in words (docs/design/print.md):
// a descriptor of its values' types, then the values. This builds the
// Python objects (CPython's and NumPy's own formatting then applies) and
// calls builtins.print with the interpreter attached, so the output goes
// through sys.stdout in order with the program's own.
//
//===----------------------------------------------------------------------===//
#include "Print.h"

#include "Dicts.h"
#include "Results.h"

#include "plait/Dispatcher/Dispatcher.h"
#include "plait/Frontend/DType.h"
#include "plait/Runtime/Print.h"

#include <Python.h>

#include <string>

namespace plait::dispatch::detail {

namespace {

/// The exception the last failed print of this thread raised (owned).
thread_local PyObject *pendingType = nullptr;
thread_local PyObject *pendingValue = nullptr;
thread_local PyObject *pendingTraceback = nullptr;

void dropPending() {
  Py_CLEAR(pendingType);
  Py_CLEAR(pendingValue);
  Py_CLEAR(pendingTraceback);
}

/// Reads a descriptor and the value words after it.
class Reader {
public:
  explicit Reader(const int64_t *words)
      : length(static_cast<size_t>(words[0])), text(reinterpret_cast<const char *>(words + 1)),
        values(words + 1 + (length + 7) / 8) {}

  bool done() const { return at >= length; }
  char next() { return at < length ? text[at++] : '\0'; }
  char peek() const { return at < length ? text[at] : '\0'; }
  int64_t word() { return *values++; }
  const int64_t *wordsAt() const { return values; }
  void skipWords(size_t n) { values += n; }

  size_t number(char terminator) {
    size_t value = 0;
    for (char c; (c = next()) != terminator && c;)
      value = value * 10 + static_cast<size_t>(c - '0');
    return value;
  }

  /// A string constant's text ("s<length>:<bytes>", the 's' read).
  PyObject *string() {
    size_t n = number(':');
    PyObject *made = PyUnicode_DecodeUTF8(text + at, static_cast<Py_ssize_t>(n), "replace");
    at += n;
    return made;
  }

  /// The Python value of the next item.
  PyObject *value() {
    switch (char kind = next()) {
    case 'i':
      return number(frontend::Type::integer());
    case 'b':
      return number(frontend::Type::boolean());
    case 'f':
      return number(frontend::Type::floating());
    case 'c':
      return number(frontend::Type::complex());
    case 'n':
      Py_RETURN_NONE;
    case 's':
      return string();
    case 'N':
      return numpyScalar(next());
    case 'a':
      return array(next());
    case 'L':
      return list();
    case 'S': // a str computed when the code ran: its box
      return pythonStr(reinterpret_cast<const int64_t *>(word()));
    case 'D':
      return dict();
    case '(':
      return tuple();
    case 'j':
      return formatted();
    default:
      PyErr_Format(PyExc_RuntimeError, "internal: print() descriptor item '%c'", kind);
      return nullptr;
    }
  }

private:
  /// A number of `type` in the words a result of that type takes (the low
  /// bytes of a word hold a narrow one), boxed as results are.
  PyObject *number(const frontend::Type &type) {
    ResultOwners none{nullptr, nullptr, nullptr, 0, {}}; // (no arrays)
    return boxResult(type, values, /*cast=*/0, none);
  }

  PyObject *numpyScalar(char code) {
    const frontend::DTypeInfo *dtype = frontend::dtypeOfDispatchCode(code);
    if (!dtype) {
      PyErr_SetString(PyExc_RuntimeError, "internal: print() of an unknown dtype");
      return nullptr;
    }
    return number(frontend::Type::numpy(dtype->dtype));
  }

  PyObject *array(char code) {
    const frontend::DTypeInfo *dtype = frontend::dtypeOfDispatchCode(code);
    int ndim = next() - '0';
    if (!dtype || ndim < 0 || ndim > 8) {
      PyErr_SetString(PyExc_RuntimeError, "internal: print() of an unknown array type");
      return nullptr;
    }
    char *data = reinterpret_cast<char *>(word());
    const int64_t *layout = wordsAt();
    skipWords(2 * static_cast<size_t>(ndim));
    return borrowedArray(dtype->dtype, ndim, data, layout);
  }

  /// The type of a list's items or a dict's keys or values (Bottom for
  /// `n`: never typed, so there are none); false for an unknown one.
  bool scalarKind(frontend::Type &type) {
    return parseItemKind(std::string_view(text, length), at, type);
  }

  PyObject *list() {
    frontend::Type item;
    if (!scalarKind(item)) {
      PyErr_SetString(PyExc_RuntimeError, "internal: print() of a list of an unknown dtype");
      return nullptr;
    }
    return pythonList(frontend::Type::list(item), reinterpret_cast<const int64_t *>(word()),
                      /*owners=*/nullptr);
  }

  PyObject *dict() {
    frontend::Type key, value;
    if (!scalarKind(key) || !scalarKind(value)) {
      PyErr_SetString(PyExc_RuntimeError, "internal: print() of a dict of an unknown dtype");
      return nullptr;
    }
    return pythonDict(frontend::Type::dict(key, value), reinterpret_cast<const int64_t *>(word()),
                      /*owners=*/nullptr);
  }

  PyObject *tuple() {
    PyObject *items = PyList_New(0);
    while (items && peek() != ')' && !done()) {
      PyObject *item = value();
      if (!item || PyList_Append(items, item) < 0) {
        Py_XDECREF(item);
        Py_CLEAR(items);
        break;
      }
      Py_DECREF(item);
    }
    next(); // ')'
    if (!items)
      return nullptr;
    PyObject *made = PyList_AsTuple(items);
    Py_DECREF(items);
    return made;
  }

  /// An f-string: literal parts, and values with a conversion and a spec.
  PyObject *formatted() {
    size_t parts = number(':');
    PyObject *pieces = PyList_New(0);
    for (size_t k = 0; pieces && k < parts; ++k) {
      PyObject *piece = nullptr;
      if (next() == 's') {
        piece = string();
      } else {
        char conversion = next();
        next(); // 's': the spec
        PyObject *spec = string();
        PyObject *item = spec ? value() : nullptr;
        PyObject *converted = !item               ? nullptr
                              : conversion == 'r' ? PyObject_Repr(item)
                              : conversion == 's' ? PyObject_Str(item)
                              : conversion == 'a' ? PyObject_ASCII(item)
                                                  : Py_NewRef(item);
        piece = converted ? PyObject_Format(converted, spec) : nullptr;
        Py_XDECREF(converted);
        Py_XDECREF(item);
        Py_XDECREF(spec);
      }
      if (!piece || PyList_Append(pieces, piece) < 0)
        Py_CLEAR(pieces);
      Py_XDECREF(piece);
    }
    if (!pieces)
      return nullptr;
    PyObject *empty = PyUnicode_FromString("");
    PyObject *joined = empty ? PyUnicode_Join(empty, pieces) : nullptr;
    Py_XDECREF(empty);
    Py_DECREF(pieces);
    return joined;
  }

  size_t length;
  const char *text;
  const int64_t *values;
  size_t at = 0;
};

/// print(*items, sep=..., end=..., file=..., flush=...) of the call
/// `words` describe.
bool print(const int64_t *words) {
  Reader reader(words);
  char stream = reader.next();
  bool flush = stream == '1' || stream == 'E';
  // (The stream as it is now: a redirection of sys.stderr is followed.)
  PyObject *file = stream == 'e' || stream == 'E' ? PySys_GetObject("stderr") : Py_None;
  if (!file)
    file = Py_None;               // (no sys.stderr: print's own error)
  PyObject *sep = reader.value(); // a str, or None for print's default
  PyObject *end = sep ? reader.value() : nullptr;
  PyObject *items = end ? PyList_New(0) : nullptr;
  while (items && !reader.done()) {
    PyObject *item = reader.value();
    if (!item || PyList_Append(items, item) < 0)
      Py_CLEAR(items);
    Py_XDECREF(item);
  }
  PyObject *arguments = items ? PyList_AsTuple(items) : nullptr;
  PyObject *keywords = arguments ? Py_BuildValue("{sOsOsOsO}", "sep", sep, "end", end, "file", file,
                                                 "flush", flush ? Py_True : Py_False)
                                 : nullptr;
  PyObject *builtins = keywords ? PyImport_ImportModule("builtins") : nullptr;
  PyObject *printer = builtins ? PyObject_GetAttrString(builtins, "print") : nullptr;
  PyObject *result = printer ? PyObject_Call(printer, arguments, keywords) : nullptr;
  Py_XDECREF(result);
  Py_XDECREF(printer);
  Py_XDECREF(builtins);
  Py_XDECREF(keywords);
  Py_XDECREF(arguments);
  Py_XDECREF(items);
  Py_XDECREF(end);
  Py_XDECREF(sep);
  return result != nullptr;
}

} // namespace

int32_t printFromCompiledCode(const int64_t *words) {
  PyGILState_STATE attached = PyGILState_Ensure();
  bool printed = print(words);
  if (!printed) {
    // (A print that succeeds keeps an earlier failure: a finally clause
    // may print before re-raising it.)
    dropPending();
    PyErr_Fetch(&pendingType, &pendingValue, &pendingTraceback);
    // Without the frames print ran (NumPy's repr): they may hold the
    // arrays that view compiled code's memory, which does not outlive the
    // call. The dispatcher adds the compiled frames.
    PyErr_NormalizeException(&pendingType, &pendingValue, &pendingTraceback);
    Py_CLEAR(pendingTraceback);
    if (pendingValue)
      PyException_SetTraceback(pendingValue, Py_None);
  }
  PyGILState_Release(attached);
  return printed ? 0 : 1;
}

bool restoreCallbackError() {
  if (!pendingType)
    return false;
  PyErr_Restore(pendingType, pendingValue, pendingTraceback);
  pendingType = pendingValue = pendingTraceback = nullptr;
  return true;
}

} // namespace plait::dispatch::detail

void plait::dispatch::installPrintHandler() { setPrintHandler(&detail::printFromCompiledCode); }
