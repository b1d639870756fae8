//===- IRTypes.cpp - plait.ir types ---------------------------------------===//
//
// Types are uniqued, immutable values of their context: building them needs
// no context lock (user contexts unique with their own locks); parsing does,
// because it may load a dialect.
//
//===----------------------------------------------------------------------===//
#include "IRBindings.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

using namespace plait;
using namespace plait::python;

namespace {

struct PyIntegerType : PyType {};
struct PyIndexType : PyType {};
struct PyF16Type : PyType {};
struct PyBF16Type : PyType {};
struct PyF32Type : PyType {};
struct PyF64Type : PyType {};
struct PyNoneType : PyType {};
struct PyComplexType : PyType {};
struct PyFunctionType : PyType {};
struct PyTupleType : PyType {};
struct PyShapedType : PyType {};
struct PyRankedTensorType : PyShapedType {};
struct PyUnrankedTensorType : PyShapedType {};
struct PyMemRefType : PyShapedType {};
struct PyUnrankedMemRefType : PyShapedType {};
struct PyVectorType : PyShapedType {};

template <typename T> T make(nb::object pyContext, mlir::Type type) {
  T value;
  value.pyContext = std::move(pyContext);
  value.type = type;
  return value;
}

std::string printed(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}

mlir::MLIRContext *mlirContextOf(const nb::object &context) {
  return &nativeContext(resolveContext(context)).getMLIRContext();
}

/// Casting constructor and isinstance() of a type class for MLIR class `T`.
template <typename PyT, typename T, typename Class> void bindKind(Class &cls, const char *name) {
  cls.def(
         "__init__",
         [name](PyT *self, const PyType &other) {
           if (!other.type.isa<T>())
             throw nb::value_error(("Cannot cast type to " + std::string(name) + " (from " +
                                    printed(other.type) + ")")
                                       .c_str());
           new (self) PyT(make<PyT>(other.pyContext, other.type));
         },
         nb::arg("cast_from_type"))
      .def_static(
          "isinstance",
          [](nb::handle other) {
            return nb::isinstance<PyType>(other) && nb::cast<PyType &>(other).type.isa<T>();
          },
          nb::arg("other"));
}

std::vector<int64_t> shapeOf(mlir::ShapedType type) {
  if (!type.hasRank())
    throw nb::value_error("the type has no rank");
  auto shape = type.getShape();
  return std::vector<int64_t>(shape.begin(), shape.end());
}

void checkShape(const std::vector<int64_t> &shape) {
  for (int64_t size : shape)
    if (size < 0 && !mlir::ShapedType::isDynamic(size))
      throw nb::value_error("dimension sizes must be non-negative or "
                            "ShapedType.get_dynamic_size()");
}

} // namespace

namespace plait::python {

mlir::Type toType(const nb::handle &object) {
  if (!nb::isinstance<PyType>(object))
    throw nb::type_error("expected a plait.ir.Type");
  return nb::cast<PyType &>(object).type;
}

nb::object wrapType(const nb::object &pyContext, mlir::Type type) {
  if (type.isa<mlir::IntegerType>())
    return nb::cast(make<PyIntegerType>(pyContext, type));
  if (type.isa<mlir::IndexType>())
    return nb::cast(make<PyIndexType>(pyContext, type));
  if (type.isF16())
    return nb::cast(make<PyF16Type>(pyContext, type));
  if (type.isBF16())
    return nb::cast(make<PyBF16Type>(pyContext, type));
  if (type.isF32())
    return nb::cast(make<PyF32Type>(pyContext, type));
  if (type.isF64())
    return nb::cast(make<PyF64Type>(pyContext, type));
  if (type.isa<mlir::NoneType>())
    return nb::cast(make<PyNoneType>(pyContext, type));
  if (type.isa<mlir::ComplexType>())
    return nb::cast(make<PyComplexType>(pyContext, type));
  if (type.isa<mlir::FunctionType>())
    return nb::cast(make<PyFunctionType>(pyContext, type));
  if (type.isa<mlir::TupleType>())
    return nb::cast(make<PyTupleType>(pyContext, type));
  if (type.isa<mlir::RankedTensorType>())
    return nb::cast(make<PyRankedTensorType>(pyContext, type));
  if (type.isa<mlir::UnrankedTensorType>())
    return nb::cast(make<PyUnrankedTensorType>(pyContext, type));
  if (type.isa<mlir::MemRefType>())
    return nb::cast(make<PyMemRefType>(pyContext, type));
  if (type.isa<mlir::UnrankedMemRefType>())
    return nb::cast(make<PyUnrankedMemRefType>(pyContext, type));
  if (type.isa<mlir::VectorType>())
    return nb::cast(make<PyVectorType>(pyContext, type));
  return nb::cast(make<PyType>(pyContext, type));
}

void populateIRTypes(nb::module_ &m) {
  nb::class_<PyType>(m, "Type", "An MLIR type.")
      .def(
          "__init__",
          [](PyType *self, const PyType &other) {
            new (self) PyType(make<PyType>(other.pyContext, other.type));
          },
          nb::arg("cast_from_type"))
      .def_static(
          "parse",
          [](const std::string &text, nb::object context) {
            nb::object pyContext = resolveContext(context);
            Context &native = nativeContext(pyContext);
            mlir::Type type = detached([&] {
              Context::Guard guard(native);
              Context::Capture capture(native);
              mlir::Type parsed = mlir::parseType(text, &native.getMLIRContext());
              if (!parsed)
                capture.fail("Unable to parse type: '" + text + "'");
              return parsed;
            });
            return wrapType(pyContext, type);
          },
          nb::arg("asm"), nb::arg("context") = nb::none())
      .def_prop_ro("context", [](PyType &t) { return t.pyContext; })
      .def_prop_ro("typeid",
                   [](PyType &t) {
                     return reinterpret_cast<uintptr_t>(t.type.getTypeID().getAsOpaquePointer());
                   })
      .def("__eq__",
           [](PyType &a, nb::handle b) {
             return nb::isinstance<PyType>(b) && a.type == nb::cast<PyType &>(b).type;
           })
      .def("__hash__",
           [](PyType &t) { return std::hash<const void *>()(t.type.getAsOpaquePointer()); })
      .def("__str__", [](PyType &t) { return printed(t.type); })
      .def("__repr__", [](nb::handle self) {
        std::string name = nb::cast<std::string>(
            nb::handle(reinterpret_cast<PyObject *>(Py_TYPE(self.ptr()))).attr("__name__"));
        return name + "(" + printed(nb::cast<PyType &>(self).type) + ")";
      });

  auto integer = nb::class_<PyIntegerType, PyType>(m, "IntegerType");
  bindKind<PyIntegerType, mlir::IntegerType>(integer, "IntegerType");
  integer
      .def_static(
          "get_signless",
          [](unsigned width, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyIntegerType>(pyContext,
                                       mlir::IntegerType::get(mlirContextOf(pyContext), width));
          },
          nb::arg("width"), nb::arg("context") = nb::none())
      .def_static(
          "get_signed",
          [](unsigned width, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyIntegerType>(
                pyContext,
                mlir::IntegerType::get(mlirContextOf(pyContext), width, mlir::IntegerType::Signed));
          },
          nb::arg("width"), nb::arg("context") = nb::none())
      .def_static(
          "get_unsigned",
          [](unsigned width, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return make<PyIntegerType>(pyContext,
                                       mlir::IntegerType::get(mlirContextOf(pyContext), width,
                                                              mlir::IntegerType::Unsigned));
          },
          nb::arg("width"), nb::arg("context") = nb::none())
      .def_prop_ro("width",
                   [](PyIntegerType &t) { return t.type.cast<mlir::IntegerType>().getWidth(); })
      .def_prop_ro("is_signless", [](PyIntegerType &t) { return t.type.isSignlessInteger(); })
      .def_prop_ro("is_signed", [](PyIntegerType &t) { return t.type.isSignedInteger(); })
      .def_prop_ro("is_unsigned", [](PyIntegerType &t) { return t.type.isUnsignedInteger(); });

#define PLAIT_SIMPLE_TYPE(PyT, MlirT, Name, Get)                                                   \
  {                                                                                                \
    auto cls = nb::class_<PyT, PyType>(m, Name);                                                   \
    bindKind<PyT, MlirT>(cls, Name);                                                               \
    cls.def_static(                                                                                \
        "get",                                                                                     \
        [](nb::object context) {                                                                   \
          nb::object pyContext = resolveContext(context);                                          \
          mlir::MLIRContext *ctx = mlirContextOf(pyContext);                                       \
          return make<PyT>(pyContext, Get);                                                        \
        },                                                                                         \
        nb::arg("context") = nb::none());                                                          \
  }
  PLAIT_SIMPLE_TYPE(PyIndexType, mlir::IndexType, "IndexType", mlir::IndexType::get(ctx))
  PLAIT_SIMPLE_TYPE(PyF16Type, mlir::Float16Type, "F16Type", mlir::FloatType::getF16(ctx))
  PLAIT_SIMPLE_TYPE(PyBF16Type, mlir::BFloat16Type, "BF16Type", mlir::FloatType::getBF16(ctx))
  PLAIT_SIMPLE_TYPE(PyF32Type, mlir::Float32Type, "F32Type", mlir::FloatType::getF32(ctx))
  PLAIT_SIMPLE_TYPE(PyF64Type, mlir::Float64Type, "F64Type", mlir::FloatType::getF64(ctx))
  PLAIT_SIMPLE_TYPE(PyNoneType, mlir::NoneType, "NoneType", mlir::NoneType::get(ctx))
#undef PLAIT_SIMPLE_TYPE

  auto complex = nb::class_<PyComplexType, PyType>(m, "ComplexType");
  bindKind<PyComplexType, mlir::ComplexType>(complex, "ComplexType");
  complex
      .def_static(
          "get",
          [](const PyType &element) {
            if (!element.type.isa<mlir::IntegerType, mlir::FloatType>())
              throw nb::value_error("invalid element type for ComplexType: "
                                    "expected an integer or float type");
            return make<PyComplexType>(element.pyContext, mlir::ComplexType::get(element.type));
          },
          nb::arg("element_type"))
      .def_prop_ro("element_type", [](PyComplexType &t) {
        return wrapType(t.pyContext, t.type.cast<mlir::ComplexType>().getElementType());
      });

  auto function = nb::class_<PyFunctionType, PyType>(m, "FunctionType");
  bindKind<PyFunctionType, mlir::FunctionType>(function, "FunctionType");
  function
      .def_static(
          "get",
          [](nb::sequence inputs, nb::sequence results, nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::vector<mlir::Type> in, out;
            for (nb::handle item : inputs)
              in.push_back(toType(item));
            for (nb::handle item : results)
              out.push_back(toType(item));
            for (mlir::Type type : in)
              requireContext(pyContext, type);
            for (mlir::Type type : out)
              requireContext(pyContext, type);
            return make<PyFunctionType>(pyContext,
                                        mlir::FunctionType::get(mlirContextOf(pyContext), in, out));
          },
          nb::arg("inputs"), nb::arg("results"), nb::arg("context") = nb::none())
      .def_prop_ro("inputs",
                   [](PyFunctionType &t) {
                     nb::list result;
                     for (mlir::Type input : t.type.cast<mlir::FunctionType>().getInputs())
                       result.append(wrapType(t.pyContext, input));
                     return result;
                   })
      .def_prop_ro("results", [](PyFunctionType &t) {
        nb::list result;
        for (mlir::Type output : t.type.cast<mlir::FunctionType>().getResults())
          result.append(wrapType(t.pyContext, output));
        return result;
      });

  auto tuple = nb::class_<PyTupleType, PyType>(m, "TupleType");
  bindKind<PyTupleType, mlir::TupleType>(tuple, "TupleType");
  tuple
      .def_static(
          "get_tuple",
          [](nb::sequence elements, nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::vector<mlir::Type> types;
            for (nb::handle item : elements) {
              types.push_back(toType(item));
              requireContext(pyContext, types.back());
            }
            return make<PyTupleType>(pyContext,
                                     mlir::TupleType::get(mlirContextOf(pyContext), types));
          },
          nb::arg("elements"), nb::arg("context") = nb::none())
      .def_prop_ro("num_types",
                   [](PyTupleType &t) { return t.type.cast<mlir::TupleType>().size(); })
      .def("get_type", [](PyTupleType &t, size_t position) {
        auto types = t.type.cast<mlir::TupleType>().getTypes();
        if (position >= types.size())
          throw nb::index_error("tuple position out of range");
        return wrapType(t.pyContext, types[position]);
      });

  auto shaped = nb::class_<PyShapedType, PyType>(m, "ShapedType");
  bindKind<PyShapedType, mlir::ShapedType>(shaped, "ShapedType");
  shaped
      .def_prop_ro("element_type",
                   [](PyShapedType &t) {
                     return wrapType(t.pyContext, t.type.cast<mlir::ShapedType>().getElementType());
                   })
      .def_prop_ro("has_rank",
                   [](PyShapedType &t) { return t.type.cast<mlir::ShapedType>().hasRank(); })
      .def_prop_ro("rank",
                   [](PyShapedType &t) { return shapeOf(t.type.cast<mlir::ShapedType>()).size(); })
      .def_prop_ro("has_static_shape",
                   [](PyShapedType &t) { return t.type.cast<mlir::ShapedType>().hasStaticShape(); })
      .def_prop_ro("shape",
                   [](PyShapedType &t) { return shapeOf(t.type.cast<mlir::ShapedType>()); })
      .def("is_dynamic_dim",
           [](PyShapedType &t, size_t dim) {
             std::vector<int64_t> shape = shapeOf(t.type.cast<mlir::ShapedType>());
             if (dim >= shape.size())
               throw nb::index_error("dimension out of range");
             return mlir::ShapedType::isDynamic(shape[dim]);
           })
      .def("get_dim_size",
           [](PyShapedType &t, size_t dim) {
             std::vector<int64_t> shape = shapeOf(t.type.cast<mlir::ShapedType>());
             if (dim >= shape.size())
               throw nb::index_error("dimension out of range");
             return shape[dim];
           })
      .def_static("get_dynamic_size", [] { return mlir::ShapedType::kDynamic; })
      .def_static("is_dynamic_size", [](int64_t size) { return mlir::ShapedType::isDynamic(size); })
      .def_static("get_dynamic_stride_or_offset", [] { return mlir::ShapedType::kDynamic; })
      .def("is_dynamic_stride_or_offset",
           [](PyShapedType &, int64_t value) { return mlir::ShapedType::isDynamic(value); });

  auto ranked = nb::class_<PyRankedTensorType, PyShapedType>(m, "RankedTensorType");
  bindKind<PyRankedTensorType, mlir::RankedTensorType>(ranked, "RankedTensorType");
  ranked
      .def_static(
          "get",
          [](std::vector<int64_t> shape, const PyType &element, nb::object encoding, nb::object) {
            checkShape(shape);
            if (!mlir::TensorType::isValidElementType(element.type))
              throw nb::value_error("invalid element type for a tensor");
            mlir::Attribute encodingAttr =
                encoding.is_none() ? mlir::Attribute() : toAttribute(encoding);
            if (encodingAttr)
              requireContext(element.pyContext, encodingAttr);
            return make<PyRankedTensorType>(
                element.pyContext, mlir::RankedTensorType::get(shape, element.type, encodingAttr));
          },
          nb::arg("shape"), nb::arg("element_type"), nb::arg("encoding") = nb::none(),
          nb::arg("loc") = nb::none())
      .def_prop_ro("encoding", [](PyRankedTensorType &t) -> nb::object {
        mlir::Attribute encoding = t.type.cast<mlir::RankedTensorType>().getEncoding();
        if (!encoding)
          return nb::none();
        return wrapAttribute(t.pyContext, encoding);
      });

  auto unrankedTensor = nb::class_<PyUnrankedTensorType, PyShapedType>(m, "UnrankedTensorType");
  bindKind<PyUnrankedTensorType, mlir::UnrankedTensorType>(unrankedTensor, "UnrankedTensorType");
  unrankedTensor.def_static(
      "get",
      [](const PyType &element, nb::object) {
        return make<PyUnrankedTensorType>(element.pyContext,
                                          mlir::UnrankedTensorType::get(element.type));
      },
      nb::arg("element_type"), nb::arg("loc") = nb::none());

  auto memref = nb::class_<PyMemRefType, PyShapedType>(m, "MemRefType");
  bindKind<PyMemRefType, mlir::MemRefType>(memref, "MemRefType");
  memref
      .def_static(
          "get",
          [](std::vector<int64_t> shape, const PyType &element, nb::object layout,
             nb::object memorySpace, nb::object) {
            checkShape(shape);
            if (!mlir::BaseMemRefType::isValidElementType(element.type))
              throw nb::value_error("invalid element type for a memref");
            mlir::MemRefLayoutAttrInterface layoutAttr;
            if (!layout.is_none()) {
              layoutAttr = toAttribute(layout).dyn_cast<mlir::MemRefLayoutAttrInterface>();
              if (!layoutAttr)
                throw nb::value_error("layout must be a memref layout "
                                      "attribute (e.g. strided<...>)");
            }
            mlir::Attribute space =
                memorySpace.is_none() ? mlir::Attribute() : toAttribute(memorySpace);
            if (layoutAttr)
              requireContext(element.pyContext, mlir::Attribute(layoutAttr));
            if (space)
              requireContext(element.pyContext, space);
            return make<PyMemRefType>(
                element.pyContext, mlir::MemRefType::get(shape, element.type, layoutAttr, space));
          },
          nb::arg("shape"), nb::arg("element_type"), nb::arg("layout") = nb::none(),
          nb::arg("memory_space") = nb::none(), nb::arg("loc") = nb::none())
      .def_prop_ro("layout",
                   [](PyMemRefType &t) {
                     return wrapAttribute(t.pyContext, t.type.cast<mlir::MemRefType>().getLayout());
                   })
      .def_prop_ro("memory_space", [](PyMemRefType &t) -> nb::object {
        mlir::Attribute space = t.type.cast<mlir::MemRefType>().getMemorySpace();
        if (!space)
          return nb::none();
        return wrapAttribute(t.pyContext, space);
      });

  auto unrankedMemref = nb::class_<PyUnrankedMemRefType, PyShapedType>(m, "UnrankedMemRefType");
  bindKind<PyUnrankedMemRefType, mlir::UnrankedMemRefType>(unrankedMemref, "UnrankedMemRefType");
  unrankedMemref.def_prop_ro("memory_space", [](PyUnrankedMemRefType &t) -> nb::object {
    mlir::Attribute space = t.type.cast<mlir::UnrankedMemRefType>().getMemorySpace();
    if (!space)
      return nb::none();
    return wrapAttribute(t.pyContext, space);
  });
  unrankedMemref.def_static(
      "get",
      [](const PyType &element, nb::object memorySpace, nb::object) {
        mlir::Attribute space =
            memorySpace.is_none() ? mlir::Attribute() : toAttribute(memorySpace);
        return make<PyUnrankedMemRefType>(element.pyContext,
                                          mlir::UnrankedMemRefType::get(element.type, space));
      },
      nb::arg("element_type"), nb::arg("memory_space") = nb::none(), nb::arg("loc") = nb::none());

  auto vector = nb::class_<PyVectorType, PyShapedType>(m, "VectorType");
  bindKind<PyVectorType, mlir::VectorType>(vector, "VectorType");
  vector.def_static(
      "get",
      [](std::vector<int64_t> shape, const PyType &element, nb::object) {
        if (shape.empty())
          throw nb::value_error("a vector type needs at least one dimension");
        for (int64_t size : shape)
          if (size <= 0)
            throw nb::value_error("vector dimensions must be positive");
        if (!element.type.isa<mlir::IntegerType, mlir::IndexType, mlir::FloatType>())
          throw nb::value_error("invalid element type for VectorType");
        return make<PyVectorType>(element.pyContext, mlir::VectorType::get(shape, element.type));
      },
      nb::arg("shape"), nb::arg("element_type"), nb::arg("loc") = nb::none());
}

} // namespace plait::python
