//===- IRAttributes.cpp - plait.ir attributes -----------------------------===//
//
// Attributes, like types, are uniqued values of their context: built without
// the context lock, parsed under it (parsing may load a dialect). Dense
// elements read back into NumPy without a copy: the array views the context's
// storage and keeps the context alive.
//
//===----------------------------------------------------------------------===//
#include "IRBindings.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

using namespace nanobind::literals;

using namespace plait;
using namespace plait::python;

namespace {

struct PyBoolAttr : PyAttribute {};
struct PyIntegerAttr : PyAttribute {};
struct PyFloatAttr : PyAttribute {};
struct PyStringAttr : PyAttribute {};
struct PyTypeAttr : PyAttribute {};
struct PyUnitAttr : PyAttribute {};
struct PyArrayAttr : PyAttribute {};
struct PyDictAttr : PyAttribute {};
struct PySymbolRefAttr : PyAttribute {};
struct PyFlatSymbolRefAttr : PyAttribute {};
struct PyStridedLayoutAttr : PyAttribute {};
struct PyDenseElementsAttr : PyAttribute {};
struct PyDenseBoolArrayAttr : PyAttribute {};
struct PyDenseI8ArrayAttr : PyAttribute {};
struct PyDenseI16ArrayAttr : PyAttribute {};
struct PyDenseF32ArrayAttr : PyAttribute {};
struct PyDenseI32ArrayAttr : PyAttribute {};
struct PyDenseI64ArrayAttr : PyAttribute {};
struct PyDenseF64ArrayAttr : PyAttribute {};
struct PyDenseIntElementsAttr : PyDenseElementsAttr {};
struct PyDenseFPElementsAttr : PyDenseElementsAttr {};

struct PyNamedAttribute {
  nb::object pyContext;
  std::string name;
  mlir::Attribute attribute;
};

template <typename T> T make(nb::object pyContext, mlir::Attribute attribute) {
  T value;
  value.pyContext = std::move(pyContext);
  value.attribute = attribute;
  return value;
}

std::string printed(mlir::Attribute attribute) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attribute.print(os);
  return os.str();
}

mlir::MLIRContext *mlirContextOf(const nb::object &pyContext) {
  return &nativeContext(pyContext).getMLIRContext();
}

template <typename PyT, typename T, typename Class> void bindKind(Class &cls, const char *name) {
  cls.def(
         "__init__",
         [name](PyT *self, const PyAttribute &other) {
           if (!other.attribute.isa<T>())
             throw nb::value_error(("Cannot cast attribute to " + std::string(name) + " (from " +
                                    printed(other.attribute) + ")")
                                       .c_str());
           new (self) PyT(make<PyT>(other.pyContext, other.attribute));
         },
         nb::arg("cast_from_attr"))
      .def_static(
          "isinstance",
          [](nb::handle other) {
            return nb::isinstance<PyAttribute>(other) &&
                   nb::cast<PyAttribute &>(other).attribute.isa<T>();
          },
          nb::arg("other"));
}

/// A Python int for an integer of `type` (signless reads as signed).
nb::object toPythonInt(const llvm::APInt &value, mlir::Type type) {
  bool isUnsigned = type.isUnsignedInteger();
  if (value.getBitWidth() <= 64)
    return isUnsigned ? nb::int_(value.getZExtValue()) : nb::int_(value.getSExtValue());
  llvm::SmallString<64> text;
  value.toString(text, 10, /*Signed=*/!isUnsigned);
  return nb::steal(PyLong_FromString(text.c_str(), nullptr, 10));
}

/// An APInt of `type`'s width from a Python int; OverflowError when it does
/// not fit (signless integers accept the signed and the unsigned range).
llvm::APInt fromPythonInt(nb::handle value, mlir::Type type) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
    throw nb::type_error("expected an int");
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  auto shifted = [](unsigned bits) {
    return nb::steal(PyNumber_Lshift(nb::int_(1).ptr(), nb::int_(bits).ptr()));
  };
  nb::object bound = shifted(width);
  nb::object half = width ? shifted(width - 1) : nb::int_(0);
  nb::object lower =
      type.isUnsignedInteger() ? nb::object(nb::int_(0)) : nb::steal(PyNumber_Negative(half.ptr()));
  nb::object upper = type.isSignedInteger() || type.isIndex() ? half : bound;
  if (PyObject_RichCompareBool(value.ptr(), lower.ptr(), Py_LT) == 1 ||
      PyObject_RichCompareBool(value.ptr(), upper.ptr(), Py_GE) == 1) {
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    os << type;
    std::string message =
        "integer " + nb::cast<std::string>(nb::str(value)) + " does not fit in " + os.str();
    PyErr_SetString(PyExc_OverflowError, message.c_str());
    throw nb::python_error();
  }
  nb::object wrapped = nb::steal(PyNumber_Remainder(value.ptr(), bound.ptr()));
  std::string digits = nb::cast<std::string>(nb::str(wrapped));
  return llvm::APInt(std::max(width, 1u), digits, 10);
}

mlir::Type elementTypeOf(mlir::MLIRContext *context, char kind, size_t itemSize, bool signless) {
  auto integer = [&](mlir::IntegerType::SignednessSemantics semantics) {
    return mlir::IntegerType::get(context, 8 * itemSize,
                                  signless ? mlir::IntegerType::Signless : semantics);
  };
  switch (kind) {
  case 'b':
    return mlir::IntegerType::get(context, 1);
  case 'i':
    return integer(mlir::IntegerType::Signed);
  case 'u':
    return integer(mlir::IntegerType::Unsigned);
  case 'f':
    if (itemSize == 2)
      return mlir::FloatType::getF16(context);
    if (itemSize == 4)
      return mlir::FloatType::getF32(context);
    if (itemSize == 8)
      return mlir::FloatType::getF64(context);
    break;
  case 'c':
    if (itemSize == 8)
      return mlir::ComplexType::get(mlir::FloatType::getF32(context));
    if (itemSize == 16)
      return mlir::ComplexType::get(mlir::FloatType::getF64(context));
    break;
  }
  return {};
}

/// The DLPack dtype of `type`'s storage in a dense elements attribute.
std::optional<nb::dlpack::dtype> storageDtypeOf(mlir::Type type) {
  auto make = [](nb::dlpack::dtype_code code, unsigned bits) {
    nb::dlpack::dtype dtype;
    dtype.code = static_cast<uint8_t>(code);
    dtype.bits = static_cast<uint8_t>(bits);
    dtype.lanes = 1;
    return dtype;
  };
  if (auto integer = type.dyn_cast<mlir::IntegerType>()) {
    unsigned width = integer.getWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return std::nullopt;
    return make(integer.isUnsigned() ? nb::dlpack::dtype_code::UInt : nb::dlpack::dtype_code::Int,
                width);
  }
  if (type.isIndex())
    return make(nb::dlpack::dtype_code::Int, 64);
  if (type.isF16() || type.isF32() || type.isF64())
    return make(nb::dlpack::dtype_code::Float, type.getIntOrFloatBitWidth());
  if (auto complex = type.dyn_cast<mlir::ComplexType>())
    if (complex.getElementType().isF32() || complex.getElementType().isF64())
      return make(nb::dlpack::dtype_code::Complex,
                  2 * complex.getElementType().getIntOrFloatBitWidth());
  return std::nullopt;
}

nb::object denseToNumPy(const PyAttribute &attr) {
  auto dense = attr.attribute.cast<mlir::DenseElementsAttr>();
  mlir::ShapedType type = dense.getType();
  nb::module_ numpy = nb::module_::import_("numpy");
  std::vector<size_t> shape(type.getShape().begin(), type.getShape().end());
  nb::object shapeTuple = nb::steal(PySequence_Tuple(nb::cast(shape).ptr()));
  if (type.getElementType().isInteger(1)) { // stored one bit per element
    nb::list values;
    for (bool value : dense.getValues<bool>())
      values.append(nb::bool_(value));
    return numpy.attr("array")(values, "dtype"_a = "bool").attr("reshape")(shapeTuple);
  }
  std::optional<nb::dlpack::dtype> dtype = storageDtypeOf(type.getElementType());
  if (!dtype)
    throw nb::type_error("this element type has no NumPy dtype");
  llvm::ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) { // one element stored for all
    size_t one = 1;
    nb::ndarray<nb::numpy, nb::ro> element(raw.data(), 1, &one, attr.pyContext, nullptr, *dtype);
    nb::object scalar = nb::cast(element)[nb::int_(0)];
    return numpy.attr("full")(shapeTuple, scalar, "dtype"_a = scalar.attr("dtype"));
  }
  // A read-only view of the context's storage; it keeps the context alive.
  nb::ndarray<nb::numpy, nb::ro> view(raw.data(), shape.size(), shape.data(), attr.pyContext,
                                      nullptr, *dtype);
  return nb::cast(view);
}

nb::object elementToPython(const PyAttribute &attr, size_t index) {
  auto dense = attr.attribute.cast<mlir::DenseElementsAttr>();
  if (index >= static_cast<size_t>(dense.getNumElements()))
    throw nb::index_error("element index out of range");
  mlir::Type element = dense.getElementType();
  if (element.isa<mlir::IntegerType, mlir::IndexType>()) {
    llvm::APInt value = dense.getValues<llvm::APInt>()[index];
    if (value.getBitWidth() == 1) // i1 reads as 0/1, as upstream
      return nb::int_(value.getZExtValue());
    return toPythonInt(value, element);
  }
  if (element.isa<mlir::FloatType>())
    return nb::float_(dense.getValues<llvm::APFloat>()[index].convertToDouble());
  return wrapAttribute(attr.pyContext, dense.getValues<mlir::Attribute>()[index]);
}

/// DenseI32ArrayAttr and friends: `array<i32: 1, 2>`, a plain list of values.
template <typename PyT, typename T, typename Element>
void bindDenseArray(nb::module_ &m, const char *name) {
  auto cls = nb::class_<PyT, PyAttribute>(m, name);
  bindKind<PyT, T>(cls, name);
  cls.def_static(
         "get",
         [](std::vector<Element> values, nb::object context) {
           nb::object pyContext = resolveContext(context);
           return make<PyT>(pyContext,
                            T::get(mlirContextOf(pyContext),
                                   llvm::SmallVector<Element>(values.begin(), values.end())));
         },
         nb::arg("values"), nb::arg("context") = nb::none())
      .def("__len__", [](PyT &a) { return a.attribute.template cast<T>().size(); })
      .def("__getitem__",
           [](PyT &a, Py_ssize_t index) {
             llvm::ArrayRef<Element> values = a.attribute.template cast<T>().asArrayRef();
             if (index < 0)
               index += values.size();
             if (index < 0 || static_cast<size_t>(index) >= values.size())
               throw nb::index_error("index out of range");
             return values[index];
           })
      .def("__iter__", [](PyT &a) {
        llvm::ArrayRef<Element> values = a.attribute.template cast<T>().asArrayRef();
        return nb::iter(nb::cast(std::vector<Element>(values.begin(), values.end())));
      });
}

} // namespace

namespace plait::python {

mlir::Attribute toAttribute(const nb::handle &object) {
  if (!nb::isinstance<PyAttribute>(object))
    throw nb::type_error("expected a plait.ir.Attribute");
  return nb::cast<PyAttribute &>(object).attribute;
}

nb::object wrapAttribute(const nb::object &pyContext, mlir::Attribute attr) {
  if (attr.isa<mlir::BoolAttr>())
    return nb::cast(make<PyBoolAttr>(pyContext, attr));
  if (attr.isa<mlir::IntegerAttr>())
    return nb::cast(make<PyIntegerAttr>(pyContext, attr));
  if (attr.isa<mlir::FloatAttr>())
    return nb::cast(make<PyFloatAttr>(pyContext, attr));
  if (attr.isa<mlir::StringAttr>())
    return nb::cast(make<PyStringAttr>(pyContext, attr));
  if (attr.isa<mlir::TypeAttr>())
    return nb::cast(make<PyTypeAttr>(pyContext, attr));
  if (attr.isa<mlir::UnitAttr>())
    return nb::cast(make<PyUnitAttr>(pyContext, attr));
  if (attr.isa<mlir::ArrayAttr>())
    return nb::cast(make<PyArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DictionaryAttr>())
    return nb::cast(make<PyDictAttr>(pyContext, attr));
  if (attr.isa<mlir::FlatSymbolRefAttr>())
    return nb::cast(make<PyFlatSymbolRefAttr>(pyContext, attr));
  if (attr.isa<mlir::SymbolRefAttr>())
    return nb::cast(make<PySymbolRefAttr>(pyContext, attr));
  if (attr.isa<mlir::StridedLayoutAttr>())
    return nb::cast(make<PyStridedLayoutAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseBoolArrayAttr>())
    return nb::cast(make<PyDenseBoolArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseI8ArrayAttr>())
    return nb::cast(make<PyDenseI8ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseI16ArrayAttr>())
    return nb::cast(make<PyDenseI16ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseF32ArrayAttr>())
    return nb::cast(make<PyDenseF32ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseI32ArrayAttr>())
    return nb::cast(make<PyDenseI32ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseI64ArrayAttr>())
    return nb::cast(make<PyDenseI64ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseF64ArrayAttr>())
    return nb::cast(make<PyDenseF64ArrayAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseIntElementsAttr>())
    return nb::cast(make<PyDenseIntElementsAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseFPElementsAttr>())
    return nb::cast(make<PyDenseFPElementsAttr>(pyContext, attr));
  if (attr.isa<mlir::DenseElementsAttr>())
    return nb::cast(make<PyDenseElementsAttr>(pyContext, attr));
  return nb::cast(make<PyAttribute>(pyContext, attr));
}

void populateIRAttributes(nb::module_ &m) {
  nb::class_<PyAttribute>(m, "Attribute", "An MLIR attribute.")
      .def(
          "__init__",
          [](PyAttribute *self, const PyAttribute &other) {
            new (self) PyAttribute(make<PyAttribute>(other.pyContext, other.attribute));
          },
          nb::arg("cast_from_attr"))
      .def_static(
          "parse",
          [](const std::string &text, nb::object context) {
            nb::object pyContext = resolveContext(context);
            Context &native = nativeContext(pyContext);
            mlir::Attribute attribute = detached([&] {
              Context::Guard guard(native);
              Context::Capture capture(native);
              mlir::Attribute parsed = mlir::parseAttribute(text, &native.getMLIRContext());
              if (!parsed)
                capture.fail("Unable to parse attribute: '" + text + "'");
              return parsed;
            });
            return wrapAttribute(pyContext, attribute);
          },
          nb::arg("asm"), nb::arg("context") = nb::none())
      .def_prop_ro("context", [](PyAttribute &a) { return a.pyContext; })
      .def_prop_ro("type",
                   [](PyAttribute &a) -> nb::object {
                     auto typed = a.attribute.dyn_cast<mlir::TypedAttr>();
                     if (!typed)
                       return nb::none();
                     return wrapType(a.pyContext, typed.getType());
                   })
      .def("__eq__",
           [](PyAttribute &a, nb::handle b) {
             return nb::isinstance<PyAttribute>(b) &&
                    a.attribute == nb::cast<PyAttribute &>(b).attribute;
           })
      .def("__hash__",
           [](PyAttribute &a) {
             return std::hash<const void *>()(a.attribute.getAsOpaquePointer());
           })
      .def("__str__", [](PyAttribute &a) { return printed(a.attribute); })
      .def("__repr__", [](nb::handle self) {
        std::string name = nb::cast<std::string>(
            nb::handle(reinterpret_cast<PyObject *>(Py_TYPE(self.ptr()))).attr("__name__"));
        return name + "(" + printed(nb::cast<PyAttribute &>(self).attribute) + ")";
      });

  nb::class_<PyNamedAttribute>(m, "NamedAttribute")
      .def_ro("name", &PyNamedAttribute::name)
      .def_prop_ro("attr",
                   [](PyNamedAttribute &n) { return wrapAttribute(n.pyContext, n.attribute); })
      .def("__repr__", [](PyNamedAttribute &n) {
        return "NamedAttribute(" + n.name + "=" + printed(n.attribute) + ")";
      });

  auto boolean = nb::class_<PyBoolAttr, PyAttribute>(m, "BoolAttr");
  bindKind<PyBoolAttr, mlir::BoolAttr>(boolean, "BoolAttr");
  boolean
      .def_static(
          "get",
          [](bool value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyBoolAttr>(pyContext,
                                    mlir::BoolAttr::get(mlirContextOf(pyContext), value));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_prop_ro("value",
                   [](PyBoolAttr &a) { return a.attribute.cast<mlir::BoolAttr>().getValue(); });

  auto integer = nb::class_<PyIntegerAttr, PyAttribute>(m, "IntegerAttr");
  bindKind<PyIntegerAttr, mlir::IntegerAttr>(integer, "IntegerAttr");
  integer
      .def_static(
          "get",
          [](const PyType &type, nb::handle value) {
            if (!type.type.isa<mlir::IntegerType, mlir::IndexType>())
              throw nb::value_error("IntegerAttr needs an integer or index type");
            return make<PyIntegerAttr>(
                type.pyContext, mlir::IntegerAttr::get(type.type, fromPythonInt(value, type.type)));
          },
          nb::arg("type"), nb::arg("value"))
      .def_prop_ro("value",
                   [](PyIntegerAttr &a) {
                     auto attr = a.attribute.cast<mlir::IntegerAttr>();
                     return toPythonInt(attr.getValue(), attr.getType());
                   })
      .def("__int__", [](PyIntegerAttr &a) {
        auto attr = a.attribute.cast<mlir::IntegerAttr>();
        return toPythonInt(attr.getValue(), attr.getType());
      });

  auto floating = nb::class_<PyFloatAttr, PyAttribute>(m, "FloatAttr");
  bindKind<PyFloatAttr, mlir::FloatAttr>(floating, "FloatAttr");
  floating
      .def_static(
          "get",
          [](const PyType &type, double value, nb::object) {
            if (!type.type.isa<mlir::FloatType>())
              throw nb::value_error("FloatAttr needs a float type");
            return make<PyFloatAttr>(type.pyContext, mlir::FloatAttr::get(type.type, value));
          },
          nb::arg("type"), nb::arg("value"), nb::arg("loc") = nb::none())
      .def_static(
          "get_f32",
          [](double value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyFloatAttr>(
                pyContext,
                mlir::FloatAttr::get(mlir::FloatType::getF32(mlirContextOf(pyContext)), value));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_static(
          "get_f64",
          [](double value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyFloatAttr>(
                pyContext,
                mlir::FloatAttr::get(mlir::FloatType::getF64(mlirContextOf(pyContext)), value));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_prop_ro(
          "value",
          [](PyFloatAttr &a) { return a.attribute.cast<mlir::FloatAttr>().getValueAsDouble(); })
      .def("__float__",
           [](PyFloatAttr &a) { return a.attribute.cast<mlir::FloatAttr>().getValueAsDouble(); });

  auto string = nb::class_<PyStringAttr, PyAttribute>(m, "StringAttr");
  bindKind<PyStringAttr, mlir::StringAttr>(string, "StringAttr");
  string
      .def_static(
          "get",
          [](const std::string &value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyStringAttr>(pyContext,
                                      mlir::StringAttr::get(mlirContextOf(pyContext), value));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_static(
          "get_typed",
          [](const PyType &type, const std::string &value) {
            return make<PyStringAttr>(type.pyContext, mlir::StringAttr::get(value, type.type));
          },
          nb::arg("type"), nb::arg("value"))
      .def_prop_ro(
          "value",
          [](PyStringAttr &a) { return a.attribute.cast<mlir::StringAttr>().getValue().str(); })
      .def_prop_ro("value_bytes", [](PyStringAttr &a) {
        llvm::StringRef value = a.attribute.cast<mlir::StringAttr>().getValue();
        return nb::bytes(value.data(), value.size());
      });

  auto typeAttr = nb::class_<PyTypeAttr, PyAttribute>(m, "TypeAttr");
  bindKind<PyTypeAttr, mlir::TypeAttr>(typeAttr, "TypeAttr");
  typeAttr
      .def_static(
          "get",
          [](const PyType &type, nb::object) {
            return make<PyTypeAttr>(type.pyContext, mlir::TypeAttr::get(type.type));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_prop_ro("value", [](PyTypeAttr &a) {
        return wrapType(a.pyContext, a.attribute.cast<mlir::TypeAttr>().getValue());
      });

  auto unit = nb::class_<PyUnitAttr, PyAttribute>(m, "UnitAttr");
  bindKind<PyUnitAttr, mlir::UnitAttr>(unit, "UnitAttr");
  unit.def_static(
      "get",
      [](nb::object context) {
        nb::object pyContext = resolveContext(context);
        return make<PyUnitAttr>(pyContext, mlir::UnitAttr::get(mlirContextOf(pyContext)));
      },
      nb::arg("context") = nb::none());

  auto array = nb::class_<PyArrayAttr, PyAttribute>(m, "ArrayAttr");
  bindKind<PyArrayAttr, mlir::ArrayAttr>(array, "ArrayAttr");
  array
      .def_static(
          "get",
          [](nb::sequence attributes, nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::vector<mlir::Attribute> elements;
            for (nb::handle item : attributes) {
              elements.push_back(toAttribute(item));
              requireContext(pyContext, elements.back());
            }
            return make<PyArrayAttr>(pyContext,
                                     mlir::ArrayAttr::get(mlirContextOf(pyContext), elements));
          },
          nb::arg("attributes"), nb::arg("context") = nb::none())
      .def("__len__", [](PyArrayAttr &a) { return a.attribute.cast<mlir::ArrayAttr>().size(); })
      .def("__getitem__",
           [](PyArrayAttr &a, Py_ssize_t index) {
             auto attr = a.attribute.cast<mlir::ArrayAttr>();
             if (index < 0)
               index += attr.size();
             if (index < 0 || static_cast<size_t>(index) >= attr.size())
               throw nb::index_error("ArrayAttr index out of range");
             return wrapAttribute(a.pyContext, attr[index]);
           })
      .def("__iter__",
           [](PyArrayAttr &a) {
             nb::list items;
             for (mlir::Attribute element : a.attribute.cast<mlir::ArrayAttr>())
               items.append(wrapAttribute(a.pyContext, element));
             return nb::iter(items);
           })
      .def("__add__", [](PyArrayAttr &a, nb::sequence more) {
        std::vector<mlir::Attribute> elements(a.attribute.cast<mlir::ArrayAttr>().begin(),
                                              a.attribute.cast<mlir::ArrayAttr>().end());
        for (nb::handle item : more)
          elements.push_back(toAttribute(item));
        return make<PyArrayAttr>(a.pyContext,
                                 mlir::ArrayAttr::get(mlirContextOf(a.pyContext), elements));
      });

  auto dict = nb::class_<PyDictAttr, PyAttribute>(m, "DictAttr");
  bindKind<PyDictAttr, mlir::DictionaryAttr>(dict, "DictAttr");
  dict.def_static(
          "get",
          [](nb::object value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            mlir::MLIRContext *mlirContext = mlirContextOf(pyContext);
            std::vector<mlir::NamedAttribute> entries;
            if (!value.is_none())
              for (auto [key, item] : nb::cast<nb::dict>(value)) {
                entries.emplace_back(mlir::StringAttr::get(mlirContext, nb::cast<std::string>(key)),
                                     toAttribute(item));
                requireContext(pyContext, entries.back().getValue());
              }
            return make<PyDictAttr>(pyContext, mlir::DictionaryAttr::get(mlirContext, entries));
          },
          nb::arg("value") = nb::none(), nb::arg("context") = nb::none())
      .def("__len__", [](PyDictAttr &a) { return a.attribute.cast<mlir::DictionaryAttr>().size(); })
      .def("__contains__",
           [](PyDictAttr &a, const std::string &name) {
             return static_cast<bool>(a.attribute.cast<mlir::DictionaryAttr>().get(name));
           })
      .def("__getitem__", [](PyDictAttr &a, nb::handle key) -> nb::object {
        auto attr = a.attribute.cast<mlir::DictionaryAttr>();
        if (nb::isinstance<nb::str>(key)) {
          mlir::Attribute found = attr.get(nb::cast<std::string>(key));
          if (!found)
            throw nb::key_error(nb::cast<std::string>(key).c_str());
          return wrapAttribute(a.pyContext, found);
        }
        Py_ssize_t index = nb::cast<Py_ssize_t>(key);
        if (index < 0)
          index += attr.size();
        if (index < 0 || static_cast<size_t>(index) >= attr.size())
          throw nb::index_error("DictAttr index out of range");
        mlir::NamedAttribute entry = attr.getValue()[index];
        return nb::cast(PyNamedAttribute{a.pyContext, entry.getName().str(), entry.getValue()});
      });

  auto symbolRef = nb::class_<PySymbolRefAttr, PyAttribute>(m, "SymbolRefAttr");
  bindKind<PySymbolRefAttr, mlir::SymbolRefAttr>(symbolRef, "SymbolRefAttr");
  symbolRef
      .def_static(
          "get",
          [](std::vector<std::string> symbols, nb::object context) {
            nb::object pyContext = resolveContext(context);
            if (symbols.empty())
              throw nb::value_error("SymbolRefAttr needs at least one symbol");
            mlir::MLIRContext *mlirContext = mlirContextOf(pyContext);
            std::vector<mlir::FlatSymbolRefAttr> nested;
            for (size_t i = 1; i < symbols.size(); ++i)
              nested.push_back(mlir::FlatSymbolRefAttr::get(mlirContext, symbols[i]));
            return make<PySymbolRefAttr>(
                pyContext,
                mlir::SymbolRefAttr::get(mlir::StringAttr::get(mlirContext, symbols[0]), nested));
          },
          nb::arg("symbols"), nb::arg("context") = nb::none())
      .def_prop_ro("value", [](PySymbolRefAttr &a) {
        auto attr = a.attribute.cast<mlir::SymbolRefAttr>();
        std::vector<std::string> symbols{attr.getRootReference().str()};
        for (mlir::FlatSymbolRefAttr nested : attr.getNestedReferences())
          symbols.push_back(nested.getValue().str());
        return symbols;
      });

  auto flatSymbolRef = nb::class_<PyFlatSymbolRefAttr, PyAttribute>(m, "FlatSymbolRefAttr");
  bindKind<PyFlatSymbolRefAttr, mlir::FlatSymbolRefAttr>(flatSymbolRef, "FlatSymbolRefAttr");
  flatSymbolRef
      .def_static(
          "get",
          [](const std::string &value, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyFlatSymbolRefAttr>(
                pyContext, mlir::FlatSymbolRefAttr::get(mlirContextOf(pyContext), value));
          },
          nb::arg("value"), nb::arg("context") = nb::none())
      .def_prop_ro("value", [](PyFlatSymbolRefAttr &a) {
        return a.attribute.cast<mlir::FlatSymbolRefAttr>().getValue().str();
      });

  auto strided = nb::class_<PyStridedLayoutAttr, PyAttribute>(m, "StridedLayoutAttr");
  bindKind<PyStridedLayoutAttr, mlir::StridedLayoutAttr>(strided, "StridedLayoutAttr");
  strided
      .def_static(
          "get",
          [](int64_t offset, std::vector<int64_t> strides, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyStridedLayoutAttr>(
                pyContext, mlir::StridedLayoutAttr::get(mlirContextOf(pyContext), offset, strides));
          },
          nb::arg("offset"), nb::arg("strides"), nb::arg("context") = nb::none())
      .def_prop_ro("offset",
                   [](PyStridedLayoutAttr &a) {
                     return a.attribute.cast<mlir::StridedLayoutAttr>().getOffset();
                   })
      .def_prop_ro("strides", [](PyStridedLayoutAttr &a) {
        auto strides = a.attribute.cast<mlir::StridedLayoutAttr>().getStrides();
        return std::vector<int64_t>(strides.begin(), strides.end());
      });

  bindDenseArray<PyDenseBoolArrayAttr, mlir::DenseBoolArrayAttr, bool>(m, "DenseBoolArrayAttr");
  bindDenseArray<PyDenseI8ArrayAttr, mlir::DenseI8ArrayAttr, int8_t>(m, "DenseI8ArrayAttr");
  bindDenseArray<PyDenseI16ArrayAttr, mlir::DenseI16ArrayAttr, int16_t>(m, "DenseI16ArrayAttr");
  bindDenseArray<PyDenseF32ArrayAttr, mlir::DenseF32ArrayAttr, float>(m, "DenseF32ArrayAttr");
  bindDenseArray<PyDenseI32ArrayAttr, mlir::DenseI32ArrayAttr, int32_t>(m, "DenseI32ArrayAttr");
  bindDenseArray<PyDenseI64ArrayAttr, mlir::DenseI64ArrayAttr, int64_t>(m, "DenseI64ArrayAttr");
  bindDenseArray<PyDenseF64ArrayAttr, mlir::DenseF64ArrayAttr, double>(m, "DenseF64ArrayAttr");

  auto dense = nb::class_<PyDenseElementsAttr, PyAttribute>(m, "DenseElementsAttr");
  bindKind<PyDenseElementsAttr, mlir::DenseElementsAttr>(dense, "DenseElementsAttr");
  dense
      .def_static(
          "get",
          [](nb::handle array, bool signless, nb::object type, nb::object shape,
             nb::object context) {
            nb::object pyContext = resolveContext(context);
            mlir::MLIRContext *mlirContext = mlirContextOf(pyContext);
            nb::module_ numpy = nb::module_::import_("numpy");
            // asarray keeps 0-d arrays 0-d (ascontiguousarray makes them 1-d).
            nb::object contiguous = numpy.attr("asarray")(array, "order"_a = "C");
            nb::object dtype = contiguous.attr("dtype");
            char kind = nb::cast<std::string>(dtype.attr("kind"))[0];
            size_t itemSize = nb::cast<size_t>(dtype.attr("itemsize"));
            mlir::Type element = type.is_none()
                                     ? elementTypeOf(mlirContext, kind, itemSize, signless)
                                     : toType(type);
            if (!element)
              throw nb::value_error(
                  ("unsupported array dtype: " + nb::cast<std::string>(nb::str(dtype))).c_str());
            std::vector<int64_t> dims =
                shape.is_none() ? nb::cast<std::vector<int64_t>>(contiguous.attr("shape"))
                                : nb::cast<std::vector<int64_t>>(shape);
            auto shaped = mlir::RankedTensorType::get(dims, element);
            int64_t count = nb::cast<int64_t>(contiguous.attr("size"));
            if (shaped.getNumElements() != count)
              throw nb::value_error("the shape does not match the array's size");
            if (kind == 'b' || element.isInteger(1)) {
              std::vector<int> bytes = nb::cast<std::vector<int>>(
                  contiguous.attr("astype")("bool").attr("ravel")().attr("astype")("int8").attr(
                      "tolist")());
              llvm::SmallVector<bool> values(bytes.begin(), bytes.end());
              return wrapAttribute(pyContext, mlir::DenseElementsAttr::get(shaped, values));
            }
            nb::bytes raw = nb::cast<nb::bytes>(contiguous.attr("tobytes")());
            bool splat = false;
            llvm::ArrayRef<char> buffer(static_cast<const char *>(raw.data()), raw.size());
            if (!mlir::DenseElementsAttr::isValidRawBuffer(shaped, buffer, splat) ||
                static_cast<size_t>(count) * itemSize != raw.size())
              throw nb::value_error("the array's element size does not match "
                                    "the element type");
            return wrapAttribute(pyContext,
                                 mlir::DenseElementsAttr::getFromRawBuffer(shaped, buffer));
          },
          nb::arg("array"), nb::arg("signless") = true, nb::arg("type") = nb::none(),
          nb::arg("shape") = nb::none(), nb::arg("context") = nb::none(),
          "A dense tensor attribute with the contents of a NumPy array (or "
          "anything numpy.asarray accepts).")
      .def_static(
          "get_splat",
          [](const PyType &shapedType, const PyAttribute &element) {
            auto shaped = shapedType.type.dyn_cast<mlir::ShapedType>();
            if (!shaped || !shaped.hasStaticShape())
              throw nb::value_error("get_splat needs a statically shaped type");
            auto typed = element.attribute.dyn_cast<mlir::TypedAttr>();
            if (!typed || typed.getType() != shaped.getElementType())
              throw nb::value_error("the element attribute's type must be the "
                                    "shaped type's element type");
            return wrapAttribute(shapedType.pyContext,
                                 mlir::DenseElementsAttr::get(shaped, element.attribute));
          },
          nb::arg("shaped_type"), nb::arg("element_attr"))
      .def_prop_ro("is_splat",
                   [](PyDenseElementsAttr &a) {
                     return a.attribute.cast<mlir::DenseElementsAttr>().isSplat();
                   })
      .def("__len__",
           [](PyDenseElementsAttr &a) {
             return a.attribute.cast<mlir::DenseElementsAttr>().getNumElements();
           })
      .def(
          "__array__",
          [](PyDenseElementsAttr &a, nb::object dtype, nb::object copy) {
            nb::object array = denseToNumPy(a);
            if (!dtype.is_none())
              array = array.attr("astype")(dtype);
            return array;
          },
          nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none(),
          "The elements as a NumPy array: a read-only view of the context's "
          "storage (no copy) unless the attribute is a splat or of i1.");

  auto denseInt =
      nb::class_<PyDenseIntElementsAttr, PyDenseElementsAttr>(m, "DenseIntElementsAttr");
  bindKind<PyDenseIntElementsAttr, mlir::DenseIntElementsAttr>(denseInt, "DenseIntElementsAttr");
  denseInt.def("__getitem__",
               [](PyDenseIntElementsAttr &a, size_t index) { return elementToPython(a, index); });
  auto denseFloat =
      nb::class_<PyDenseFPElementsAttr, PyDenseElementsAttr>(m, "DenseFPElementsAttr");
  bindKind<PyDenseFPElementsAttr, mlir::DenseFPElementsAttr>(denseFloat, "DenseFPElementsAttr");
  denseFloat.def("__getitem__",
                 [](PyDenseFPElementsAttr &a, size_t index) { return elementToPython(a, index); });
}

} // namespace plait::python
