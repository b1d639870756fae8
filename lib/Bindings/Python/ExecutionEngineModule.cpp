//===- ExecutionEngineModule.cpp - plait.execution_engine glue ------------===//
//
// Converts Python arguments to native values by the function's signature while
// attached, calls detached, converts results back. Array arguments are passed
// zero-copy through the buffer protocol; the buffers stay pinned for the call.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include "plait/ExecutionEngine/ExecutionEngine.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdlib>
#include <deque>
#include <cstring>

using namespace plait;
using namespace plait::python;

namespace {

struct PyExecutionEngine {
  std::unique_ptr<ExecutionEngine> engine;
};

/// Py_buffer views released on scope exit (with the GIL held).
class PinnedBuffers {
public:
  ~PinnedBuffers() {
    for (Py_buffer &view : views)
      PyBuffer_Release(&view);
  }
  Py_buffer &add() {
    views.emplace_back();
    return views.back();
  }
  void popFailed() { views.pop_back(); }

private:
  std::deque<Py_buffer> views; // stable addresses
};

std::string argumentName(const std::string &function, size_t index) {
  return "argument " + std::to_string(index + 1) + " of " + function + "()";
}

std::string typeName(nb::handle object) {
  return nb::cast<std::string>(
      nb::handle(reinterpret_cast<PyObject *>(Py_TYPE(object.ptr())))
          .attr("__name__"));
}

/// Element kind and width from a struct-module format character and item size.
bool formatMatches(const ValueType &type, const char *format, Py_ssize_t itemSize) {
  std::string f = format ? format : "B";
  if (!f.empty() && std::strchr("@=<>!", f[0]))
    f.erase(0, 1);
  if (f.size() != 1)
    return false;
  char c = f[0];
  switch (type.elementKind) {
  case ValueType::Kind::Float64:
    return c == 'd';
  case ValueType::Kind::Float32:
    return c == 'f';
  case ValueType::Kind::Bool:
    return c == '?';
  case ValueType::Kind::Index:
    return std::strchr("lLqQ", c) && itemSize == 8;
  case ValueType::Kind::Integer:
    return std::strchr("bBhHiIlLqQ", c) && itemSize * 8 == type.elementBitWidth;
  default:
    return false;
  }
}

const char *dtypeName(const ValueType &type) {
  switch (type.elementKind) {
  case ValueType::Kind::Float64:
    return "float64";
  case ValueType::Kind::Float32:
    return "float32";
  case ValueType::Kind::Bool:
    return "bool";
  case ValueType::Kind::Index:
    return "int64";
  default:
    switch (type.elementBitWidth) {
    case 8:
      return "int8";
    case 16:
      return "int16";
    case 32:
      return "int32";
    default:
      return "int64";
    }
  }
}

MemRefValue toMemRef(nb::handle object, const ValueType &type,
                     const std::string &what, PinnedBuffers &pins) {
  if (!PyObject_CheckBuffer(object.ptr()))
    throw nb::type_error((what + " must be an array of " + dtypeName(type) +
                          " (for " + type.text + "), not " + typeName(object))
                             .c_str());
  Py_buffer &view = pins.add();
  if (PyObject_GetBuffer(object.ptr(), &view, PyBUF_RECORDS) != 0) {
    pins.popFailed();
    PyErr_Clear();
    throw nb::value_error(
        (what + " must be a writable buffer with strides (" + type.text + ")")
            .c_str());
  }
  if (!formatMatches(type, view.format, view.itemsize))
    throw nb::type_error((what + " must have dtype " + dtypeName(type) +
                          " (for " + type.text + "), got format '" +
                          (view.format ? view.format : "B") + "'")
                             .c_str());
  if (view.ndim != type.rank())
    throw nb::type_error((what + " must have " + std::to_string(type.rank()) +
                          " dimensions (for " + type.text + "), got " +
                          std::to_string(view.ndim))
                             .c_str());
  MemRefValue memref;
  memref.allocated = memref.aligned = view.buf;
  for (int d = 0; d < view.ndim; ++d) {
    int64_t size = view.shape[d];
    if (type.shape[d] != ValueType::kDynamic && type.shape[d] != size)
      throw nb::type_error((what + " has size " + std::to_string(size) +
                            " in dimension " + std::to_string(d) + ", but " +
                            type.text + " needs " +
                            std::to_string(type.shape[d]))
                               .c_str());
    if (view.strides[d] % view.itemsize != 0)
      throw nb::value_error(
          (what + " has a stride that is not a multiple of its item size")
              .c_str());
    memref.sizes.push_back(size);
    memref.strides.push_back(view.strides[d] / view.itemsize);
  }
  return memref;
}

Value toValue(nb::handle object, const ValueType &type, const std::string &what,
              PinnedBuffers &pins) {
  Value value;
  PyObject *o = object.ptr();
  switch (type.kind) {
  case ValueType::Kind::Bool:
    if (PyBool_Check(o)) {
      value.integer = o == Py_True;
      return value;
    }
    if (PyLong_Check(o)) {
      long v = PyLong_AsLong(o);
      if (v == 0 || v == 1) {
        value.integer = v;
        return value;
      }
    }
    PyErr_Clear();
    throw nb::type_error((what + " must be a bool (for i1), not " + typeName(object)).c_str());
  case ValueType::Kind::Integer:
  case ValueType::Kind::Index:
  case ValueType::Kind::Pointer: {
    if (PyFloat_Check(o) || !PyIndex_Check(o))
      throw nb::type_error((what + " must be an int (for " + type.text +
                            "), not " + typeName(object))
                               .c_str());
    nb::object index = nb::steal(PyNumber_Index(o));
    if (!index.is_valid())
      throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    unsigned width = type.kind == ValueType::Kind::Integer ? type.bitWidth : 64;
    if (overflow > 0 && width == 64) {
      // Signless: the unsigned reading of 64 bits is accepted too.
      unsigned long long u = PyLong_AsUnsignedLongLong(index.ptr());
      if (!PyErr_Occurred()) {
        value.integer = static_cast<int64_t>(u);
        return value;
      }
      PyErr_Clear();
    }
    bool fits = overflow == 0;
    if (fits && width < 64)
      fits = v >= -(1LL << (width - 1)) && v < (1LL << width);
    if (!fits)
      throw std::overflow_error(what + " does not fit in " + type.text);
    value.integer = v;
    return value;
  }
  case ValueType::Kind::Float32:
  case ValueType::Kind::Float64: {
    if (!PyFloat_Check(o) && !PyLong_Check(o) &&
        !nb::hasattr(object, "__float__"))
      throw nb::type_error((what + " must be a float (for " + type.text +
                            "), not " + typeName(object))
                               .c_str());
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
      throw nb::python_error();
    value.floating = v;
    return value;
  }
  case ValueType::Kind::MemRef:
    value.memref = toMemRef(object, type, what, pins);
    return value;
  case ValueType::Kind::Unsupported:
    break;
  }
  throw nb::type_error(
      (what + " has type " + type.text + ", which invoke() cannot pass").c_str());
}

nb::dlpack::dtype elementDtype(const ValueType &type) {
  switch (type.elementKind) {
  case ValueType::Kind::Float64:
    return nb::dtype<double>();
  case ValueType::Kind::Float32:
    return nb::dtype<float>();
  case ValueType::Kind::Bool:
    return nb::dtype<bool>();
  case ValueType::Kind::Index:
    return nb::dtype<int64_t>();
  default:
    switch (type.elementBitWidth) {
    case 8:
      return nb::dtype<int8_t>();
    case 16:
      return nb::dtype<int16_t>();
    case 32:
      return nb::dtype<int32_t>();
    default:
      return nb::dtype<int64_t>();
    }
  }
}

/// A memref result as a NumPy array. Memory the compiled code allocated is
/// owned by the array (freed when it dies); a view of an argument keeps that
/// argument alive; a constant global (MLIR marks it with 0xdeadbeef) is copied.
nb::object fromMemRef(const MemRefValue &memref, const ValueType &type,
                      const std::vector<Value> &argValues,
                      const std::vector<ValueType> &argTypes, nb::args args) {
  nb::object owner;
  bool copy = false;
  for (size_t i = 0; i < argTypes.size() && !owner.is_valid(); ++i)
    if (argTypes[i].kind == ValueType::Kind::MemRef &&
        argValues[i].memref.allocated == memref.allocated)
      owner = nb::borrow(args[i]);
  if (!owner.is_valid()) {
    if (reinterpret_cast<uintptr_t>(memref.allocated) == 0xdeadbeef) {
      copy = true;
      owner = nb::none();
    } else {
      owner = nb::capsule(memref.allocated,
                          [](void *p) noexcept { std::free(p); });
    }
  }
  std::vector<size_t> shape(memref.sizes.begin(), memref.sizes.end());
  char *data = static_cast<char *>(memref.aligned) +
               memref.offset * static_cast<int64_t>(type.elementByteSize());
  nb::ndarray<nb::numpy> array(data, shape.size(), shape.data(), owner,
                               memref.strides.data(), elementDtype(type));
  nb::object result = nb::cast(array, nb::rv_policy::reference);
  return copy ? result.attr("copy")() : result;
}

nb::object fromValue(const Value &value, const ValueType &type) {
  switch (type.kind) {
  case ValueType::Kind::Bool:
    return nb::bool_(value.integer != 0);
  case ValueType::Kind::Pointer:
    return nb::steal(PyLong_FromUnsignedLongLong(static_cast<uint64_t>(value.integer)));
  case ValueType::Kind::Float32:
  case ValueType::Kind::Float64:
    return nb::float_(value.floating);
  default:
    return nb::int_(value.integer);
  }
}

} // namespace

namespace plait::python {

void populateExecutionEngine(nb::module_ &m) {
  nb::class_<PyExecutionEngine>(m, "ExecutionEngine")
      .def(
          "__init__",
          [](PyExecutionEngine *self, nb::handle module, unsigned optLevel,
             std::vector<std::string> sharedLibs, nb::object pipeline) {
            if (!nb::isinstance<PyModule>(module))
              throw nb::type_error("ExecutionEngine() takes a plait.ir.Module");
            std::shared_ptr<Module> native = nb::cast<PyModule &>(module).module;
            ExecutionEngine::Options options;
            options.optLevel = optLevel;
            options.sharedLibs = std::move(sharedLibs);
            if (!pipeline.is_none())
              options.pipeline = nb::cast<std::string>(pipeline);
            auto engine = detached(
                [&] { return ExecutionEngine::create(native, options); });
            new (self) PyExecutionEngine{std::move(engine)};
          },
          nb::arg("module"), nb::arg("opt_level") = 2,
          nb::arg("shared_libs") = std::vector<std::string>(),
          nb::arg("pipeline") = nb::none(),
          "Compiles `module` (after running `pipeline` on a copy, if given).")
      .def(
          "invoke",
          [](PyExecutionEngine &self, const std::string &name,
             nb::args args) -> nb::object {
            const FunctionSignature &signature =
                self.engine->getSignature(name);
            if (args.size() != signature.arguments.size())
              throw nb::type_error(
                  (name + "() takes " +
                   std::to_string(signature.arguments.size()) +
                   " arguments but " + std::to_string(args.size()) +
                   " were given")
                      .c_str());
            PinnedBuffers pins;
            std::vector<Value> values;
            for (size_t i = 0; i < args.size(); ++i)
              values.push_back(toValue(args[i], signature.arguments[i],
                                       argumentName(name, i), pins));
            // Detached: compiled code may loop for a long time.
            std::vector<Value> results =
                detached([&] { return self.engine->invoke(name, values); });
            std::vector<nb::object> converted;
            for (size_t i = 0; i < results.size(); ++i) {
              const ValueType &type = signature.results[i];
              converted.push_back(
                  type.kind == ValueType::Kind::MemRef
                      ? fromMemRef(results[i].memref, type, values,
                                   signature.arguments, args)
                      : fromValue(results[i], type));
            }
            if (converted.empty())
              return nb::none();
            if (converted.size() == 1)
              return converted[0];
            nb::list list;
            for (nb::object &o : converted)
              list.append(o);
            return nb::tuple(list);
          },
          nb::arg("name"), nb::arg("args"),
          "Calls function `name`; arrays are passed zero-copy.")
      .def(
          "lookup",
          [](PyExecutionEngine &self, const std::string &name) {
            return detached([&] { return self.engine->lookup(name); });
          },
          "Address of the compiled symbol `name`.")
      .def_prop_ro("functions",
                   [](PyExecutionEngine &self) {
                     return self.engine->functionNames();
                   })
      .def(
          "dump_to_object_file",
          [](PyExecutionEngine &self, nb::handle path) {
            std::string fsPath = nb::cast<std::string>(
                nb::module_::import_("os").attr("fspath")(path));
            detached([&] { self.engine->dumpToObjectFile(fsPath); });
          },
          nb::arg("path"));
}

} // namespace plait::python
