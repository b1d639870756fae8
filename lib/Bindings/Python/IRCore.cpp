//===- IRCore.cpp - plait.ir operations, blocks, values, builders ---------===//
//
// Glue only: Python arguments become handles and MLIR values while attached,
// then the PlaitIR calls run detached (they take the context lock).
//
//===----------------------------------------------------------------------===//
#include "IRBindings.h"

#include "plait/IR/Symbols.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

using namespace plait;
using namespace plait::python;

namespace {

/// This thread's `with Location(...)` and `with InsertionPoint(...)` stacks:
/// strong references, balanced by __enter__/__exit__.
thread_local std::vector<PyObject *> locationStack;
thread_local std::vector<PyObject *> insertionPointStack;

/// OPERATION_NAME -> OpView subclass, filled by plait.dialects' registration.
/// Owned by the module (`_operation_classes`), so that interpreter shutdown
/// releases the classes and what their methods' globals hold.
PyObject *operationClassesDict = nullptr;

nb::dict operationClasses() {
  return nb::borrow<nb::dict>(operationClassesDict);
}

size_t checkedIndex(Py_ssize_t index, size_t size) {
  if (index < 0)
    index += static_cast<Py_ssize_t>(size);
  if (index < 0 || static_cast<size_t>(index) >= size)
    throw nb::index_error("index out of range");
  return static_cast<size_t>(index);
}

/// `sequence[key]` for an int or a slice (a list then) over `size` items.
template <typename ItemFn> nb::object indexOrSlice(nb::handle key, size_t size, ItemFn item) {
  if (PySlice_Check(key.ptr())) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key.ptr(), &start, &stop, &step) < 0)
      throw nb::python_error();
    Py_ssize_t count = PySlice_AdjustIndices(static_cast<Py_ssize_t>(size), &start, &stop, step);
    nb::list result;
    for (Py_ssize_t i = 0; i < count; ++i)
      result.append(item(static_cast<size_t>(start + i * step)));
    return result;
  }
  return item(checkedIndex(nb::cast<Py_ssize_t>(key), size));
}

void pushStack(std::vector<PyObject *> &stack, nb::handle self) {
  stack.push_back(self.inc_ref().ptr());
}

void popStack(std::vector<PyObject *> &stack, nb::handle self, const char *what) {
  if (stack.empty() || stack.back() != self.ptr())
    throw std::runtime_error(std::string(what) + ".__exit__ does not match the current one");
  stack.pop_back();
  self.dec_ref();
}

std::vector<mlir::Type> toTypes(const nb::handle &sequence) {
  std::vector<mlir::Type> types;
  if (sequence.is_none())
    return types;
  for (nb::handle item : sequence)
    types.push_back(toType(item));
  return types;
}

std::vector<mlir::Location> argumentLocations(const nb::handle &locs, size_t count,
                                              const nb::object &pyContext) {
  std::vector<mlir::Location> locations;
  if (locs.is_none()) {
    if (count == 0)
      return locations;
    // The current Location, else unknown (as upstream).
    mlir::Location location =
        locationStack.empty()
            ? mlir::Location(mlir::UnknownLoc::get(&nativeContext(pyContext).getMLIRContext()))
            : resolveLocation(nb::none()).location;
    locations.assign(count, location);
    return locations;
  }
  for (nb::handle item : locs)
    locations.push_back(nb::cast<PyLocation &>(item).location);
  if (locations.size() != count)
    throw nb::value_error("arg_locs must have one location per argument type");
  return locations;
}

nb::list wrapOperations(const nb::object &pyContext, std::vector<OperationRef> refs) {
  nb::list result;
  for (OperationRef &ref : refs)
    result.append(wrapOperation(pyContext, std::move(ref)));
  return result;
}

nb::list wrapValues(const nb::object &pyContext, std::vector<ValueRef> refs) {
  nb::list result;
  for (ValueRef &ref : refs)
    result.append(wrapValue(pyContext, std::move(ref)));
  return result;
}

PyOperation &operationOf(const nb::handle &object) {
  if (nb::isinstance<PyOperation>(object))
    return nb::cast<PyOperation &>(object);
  throw nb::type_error("expected a plait.ir.Operation or OpView");
}

InsertionPoint toInsertionPoint(const PyInsertionPoint &ip) {
  InsertionPoint result{nb::cast<PyBlock &>(ip.block).ref, std::nullopt};
  if (!ip.before.is_none())
    result.before = nb::cast<PyOperation &>(ip.before).ref;
  return result;
}

/// The live lists of an operation's operands and results, and of a block's
/// arguments and operations (read anew on each access).
/// Lists of values: `owner` is the Operation (operands, results) or the Block
/// (arguments); both Python objects carry `pyContext`.
struct PyOperandList {
  nb::object owner;
};
struct PyResultList {
  nb::object owner;
};
struct PyArgumentList {
  nb::object owner;
};
struct PyOperationList {
  nb::object block;
};
struct PyBlockList {
  nb::object region;
};
struct PyOpOperand {
  nb::object owner;
  unsigned operandNumber;
};

struct PySymbolTable {
  nb::object operation;
};

struct PyAttributeMap {
  nb::object pyContext;
  OperationRef ref;
};

/// An attribute from what `op.attributes[name] = value` accepts: an
/// Attribute, or a bool, int (i64), float (f64) or str.
mlir::Attribute attributeFromPython(mlir::MLIRContext *context, const nb::handle &object) {
  if (nb::isinstance<PyAttribute>(object))
    return toAttribute(object);
  if (PyBool_Check(object.ptr()))
    return mlir::BoolAttr::get(context, object.ptr() == Py_True);
  if (PyLong_Check(object.ptr())) {
    int overflow = 0;
    long long integer = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow)
      throw nb::value_error("integer attribute values must fit in 64 bits "
                            "(use IntegerAttr.get for other widths)");
    return mlir::IntegerAttr::get(mlir::IntegerType::get(context, 64), integer);
  }
  if (PyFloat_Check(object.ptr()))
    return mlir::FloatAttr::get(mlir::Float64Type::get(context), PyFloat_AsDouble(object.ptr()));
  if (nb::isinstance<nb::str>(object))
    return mlir::StringAttr::get(context, nb::cast<std::string>(object));
  throw nb::type_error("attribute values must be a plait.ir.Attribute, bool, "
                       "int, float or str");
}

struct PyOpResult : PyValue {};
struct PyBlockArgument : PyValue {};

/// InferTypeOpInterface(cls_or_name): the interface of a registered op.
struct PyInferTypeOpInterface {
  std::string name;
};

std::vector<ValueRef> operandsOf(PyOperandList &list) {
  PyOperation &op = nb::cast<PyOperation &>(list.owner);
  return detached([&] { return op.ref.operands(); });
}
std::vector<ValueRef> resultsOf(PyResultList &list) {
  PyOperation &op = nb::cast<PyOperation &>(list.owner);
  return detached([&] { return op.ref.results(); });
}
std::vector<ValueRef> argumentsOf(PyArgumentList &list) {
  PyBlock &b = nb::cast<PyBlock &>(list.owner);
  return detached([&] { return b.ref.arguments(); });
}

nb::list typesOf(const nb::object &pyContext, const std::vector<ValueRef> &values) {
  std::vector<mlir::Type> types = detached([&] {
    std::vector<mlir::Type> result;
    for (const ValueRef &value : values)
      result.push_back(value.type());
    return result;
  });
  nb::list list;
  for (mlir::Type type : types)
    list.append(wrapType(pyContext, type));
  return list;
}

/// A live list of values (read anew on each access) with `__len__`,
/// `__getitem__` (ints and slices), `__iter__` and `.types`.
template <typename List, typename ValuesOf>
nb::class_<List> bindValueList(nb::module_ &m, const char *name, ValuesOf valuesOf) {
  auto contextOf = [](List &l) { return nb::object(l.owner.attr("context")); };
  return nb::class_<List>(m, name)
      .def("__len__", [valuesOf](List &l) { return valuesOf(l).size(); })
      .def("__getitem__",
           [valuesOf, contextOf](List &l, nb::handle key) {
             std::vector<ValueRef> values = valuesOf(l);
             nb::object pyContext = contextOf(l);
             return indexOrSlice(key, values.size(),
                                 [&](size_t i) { return wrapValue(pyContext, values[i]); });
           })
      .def("__iter__", [valuesOf, contextOf](
                           List &l) { return nb::iter(wrapValues(contextOf(l), valuesOf(l))); })
      .def_prop_ro("types",
                   [valuesOf, contextOf](List &l) { return typesOf(contextOf(l), valuesOf(l)); });
}

} // namespace

namespace plait::python {

nb::object wrapOperation(const nb::object &pyContext, OperationRef ref) {
  nb::object operation = nb::cast(PyOperation{pyContext, ref});
  std::string name = detached([&] { return ref.name(); });
  nb::dict classes = operationClasses();
  nb::str key(name.c_str(), name.size());
  if (!classes.contains(key))
    return operation;
  nb::handle cls = classes[key];
  nb::object view = cls.attr("__new__")(cls);
  nb::type<PyOperation>().attr("__init__")(view, operation);
  return view;
}

nb::object wrapValue(const nb::object &pyContext, ValueRef ref) {
  bool isArgument = detached([&] { return ref.isBlockArgument(); });
  if (isArgument)
    return nb::cast(PyBlockArgument{{pyContext, std::move(ref)}});
  return nb::cast(PyOpResult{{pyContext, std::move(ref)}});
}

nb::object wrapLocation(const nb::object &pyContext, mlir::Location location) {
  return nb::cast(PyLocation{pyContext, location});
}

PyLocation &resolveLocation(const nb::handle &loc) {
  if (!loc.is_none())
    return nb::cast<PyLocation &>(loc);
  if (locationStack.empty())
    throw nb::value_error("no loc given and no current Location: pass loc=... "
                          "or use `with plait.ir.Location.unknown():`");
  return nb::cast<PyLocation &>(nb::handle(locationStack.back()));
}

std::optional<InsertionPoint> resolveInsertionPoint(const nb::handle &ip) {
  if (!ip.is_none())
    return toInsertionPoint(nb::cast<PyInsertionPoint &>(ip));
  if (insertionPointStack.empty())
    return std::nullopt;
  return toInsertionPoint(nb::cast<PyInsertionPoint &>(nb::handle(insertionPointStack.back())));
}

ValueRef toValue(const nb::handle &object) {
  if (nb::isinstance<PyValue>(object))
    return nb::cast<PyValue &>(object).ref;
  if (nb::isinstance<PyOperation>(object)) {
    std::vector<ValueRef> results =
        detached([&] { return nb::cast<PyOperation &>(object).ref.results(); });
    if (results.size() != 1)
      throw nb::value_error("an operation used as a value must have exactly "
                            "one result");
    return results.front();
  }
  throw nb::type_error("expected a plait.ir.Value (or a one-result operation)");
}

void populateIRCore(nb::module_ &m) {
  nb::dict classes;
  m.attr("_operation_classes") = classes;
  operationClassesDict = classes.ptr();
  m.def(
      "_register_operation_class",
      [](const std::string &name, nb::handle cls, bool replace) {
        nb::dict classes = operationClasses();
        nb::str key(name.c_str(), name.size());
        if (classes.contains(key) && !replace)
          throw std::runtime_error("an OpView class is already registered for "
                                   "'" +
                                   name + "'");
        classes[key] = cls;
      },
      nb::arg("name"), nb::arg("cls"), nb::arg("replace") = false,
      "Internal: makes `cls` the OpView class of operations named `name`.");

  //===--------------------------------------------------------------------===//
  // Location
  //===--------------------------------------------------------------------===//
  nb::class_<PyLocation>(m, "Location", "A source location (MLIR Location).")
      .def_static(
          "unknown",
          [](nb::object context) {
            nb::object pyContext = resolveContext(context);
            return PyLocation{pyContext,
                              mlir::UnknownLoc::get(&nativeContext(pyContext).getMLIRContext())};
          },
          nb::arg("context") = nb::none())
      .def_static(
          "file",
          [](const std::string &filename, unsigned line, unsigned column, nb::object context) {
            nb::object pyContext = resolveContext(context);
            return PyLocation{pyContext,
                              mlir::FileLineColLoc::get(&nativeContext(pyContext).getMLIRContext(),
                                                        filename, line, column)};
          },
          nb::arg("filename"), nb::arg("line"), nb::arg("col"), nb::arg("context") = nb::none())
      .def_static(
          "name",
          [](const std::string &name, nb::object childLoc, nb::object context) {
            nb::object pyContext = resolveContext(context);
            mlir::MLIRContext *mlirContext = &nativeContext(pyContext).getMLIRContext();
            mlir::Location child = childLoc.is_none()
                                       ? mlir::Location(mlir::UnknownLoc::get(mlirContext))
                                       : nb::cast<PyLocation &>(childLoc).location;
            requireContext(pyContext, child);
            return PyLocation{pyContext,
                              mlir::NameLoc::get(mlir::StringAttr::get(mlirContext, name), child)};
          },
          nb::arg("name"), nb::arg("childLoc") = nb::none(), nb::arg("context") = nb::none())
      .def_static(
          "fused",
          [](nb::sequence locations, nb::object metadata, nb::object context) {
            nb::object pyContext = resolveContext(context);
            mlir::MLIRContext *mlirContext = &nativeContext(pyContext).getMLIRContext();
            std::vector<mlir::Location> parts;
            for (nb::handle item : locations) {
              parts.push_back(nb::cast<PyLocation &>(item).location);
              requireContext(pyContext, parts.back());
            }
            mlir::Attribute meta = metadata.is_none() ? mlir::Attribute() : toAttribute(metadata);
            // The simplifying builder: one location is itself, none is unknown.
            return PyLocation{pyContext, mlir::FusedLoc::get(parts, meta, mlirContext)};
          },
          nb::arg("locations"), nb::arg("metadata") = nb::none(), nb::arg("context") = nb::none())
      .def_static(
          "callsite",
          [](const PyLocation &callee, nb::sequence frames, nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::vector<mlir::Location> callers;
            requireContext(pyContext, callee.location);
            for (nb::handle item : frames) {
              callers.push_back(nb::cast<PyLocation &>(item).location);
              requireContext(pyContext, callers.back());
            }
            if (callers.empty())
              throw nb::value_error("callsite needs at least one frame");
            mlir::Location result = callers.back();
            for (auto it = callers.rbegin() + 1; it != callers.rend(); ++it)
              result = mlir::CallSiteLoc::get(*it, result);
            return PyLocation{pyContext, mlir::CallSiteLoc::get(callee.location, result)};
          },
          nb::arg("callee"), nb::arg("frames"), nb::arg("context") = nb::none())
      .def_prop_ro_static("current",
                          [](nb::handle) -> nb::object {
                            if (locationStack.empty())
                              throw nb::value_error("no current Location");
                            return nb::borrow(locationStack.back());
                          })
      .def_prop_ro("context", [](PyLocation &l) { return l.pyContext; })
      .def("__enter__",
           [](nb::handle self) {
             PyLocation &location = nb::cast<PyLocation &>(self);
             location.pyContext.attr("__enter__")();
             pushStack(locationStack, self);
             return nb::borrow(self);
           })
      .def("__exit__",
           [](nb::handle self, nb::args) {
             popStack(locationStack, self, "Location");
             nb::cast<PyLocation &>(self).pyContext.attr("__exit__")(nb::none(), nb::none(),
                                                                     nb::none());
           })
      .def("__eq__",
           [](const PyLocation &a, nb::handle b) {
             return nb::isinstance<PyLocation>(b) &&
                    a.location == nb::cast<PyLocation &>(b).location;
           })
      .def("__hash__",
           [](const PyLocation &l) {
             return std::hash<const void *>()(l.location.getAsOpaquePointer());
           })
      .def("__str__",
           [](const PyLocation &l) {
             std::string text;
             llvm::raw_string_ostream os(text);
             l.location.print(os);
             return os.str();
           })
      .def("__repr__", [](const PyLocation &l) {
        std::string text;
        llvm::raw_string_ostream os(text);
        l.location.print(os);
        return os.str();
      });

  //===--------------------------------------------------------------------===//
  // InsertionPoint
  //===--------------------------------------------------------------------===//
  nb::class_<PyInsertionPoint>(m, "InsertionPoint", "Where new operations go.")
      .def(
          "__init__",
          [](PyInsertionPoint *self, nb::object target) {
            if (nb::isinstance<PyBlock>(target)) {
              new (self) PyInsertionPoint{target, nb::none()};
              return;
            }
            PyOperation &op = operationOf(target);
            std::optional<BlockRef> block = detached([&] { return op.ref.block(); });
            if (!block)
              throw nb::value_error("the operation is not in a block");
            nb::object operation = nb::cast(PyOperation{op.pyContext, op.ref});
            new (self)
                PyInsertionPoint{nb::cast(PyBlock{op.pyContext, std::move(*block)}), operation};
          },
          nb::arg("target"),
          "InsertionPoint(block): at the block's end; InsertionPoint(op): "
          "right before op.")
      .def_static("at_block_begin",
                  [](nb::object block) {
                    PyBlock &b = nb::cast<PyBlock &>(block);
                    std::vector<OperationRef> ops = detached([&] { return b.ref.operations(); });
                    if (ops.empty())
                      return PyInsertionPoint{block, nb::none()};
                    return PyInsertionPoint{block, nb::cast(PyOperation{b.pyContext, ops.front()})};
                  })
      .def_static("at_block_terminator",
                  [](nb::object block) {
                    PyBlock &b = nb::cast<PyBlock &>(block);
                    std::optional<OperationRef> terminator =
                        detached([&] { return b.ref.terminator(); });
                    if (!terminator)
                      throw nb::value_error("Block has no terminator");
                    return PyInsertionPoint{block, nb::cast(PyOperation{b.pyContext, *terminator})};
                  })
      .def_prop_ro_static("current",
                          [](nb::handle) -> nb::object {
                            if (insertionPointStack.empty())
                              throw nb::value_error("no current InsertionPoint");
                            return nb::borrow(insertionPointStack.back());
                          })
      .def_prop_ro("block", [](PyInsertionPoint &ip) { return ip.block; })
      .def_prop_ro("ref_operation", [](PyInsertionPoint &ip) { return ip.before; })
      .def(
          "insert",
          [](PyInsertionPoint &ip, nb::handle operation) {
            PyOperation &op = operationOf(operation);
            InsertionPoint target = toInsertionPoint(ip);
            detached([&] { insertOperation(target, op.ref); });
          },
          nb::arg("operation"), "Inserts an operation that is in no block yet.")
      .def("__enter__",
           [](nb::handle self) {
             pushStack(insertionPointStack, self);
             return nb::borrow(self);
           })
      .def("__exit__", [](nb::handle self, nb::args) {
        popStack(insertionPointStack, self, "InsertionPoint");
      });

  //===--------------------------------------------------------------------===//
  // Operation
  //===--------------------------------------------------------------------===//
  nb::class_<PyAttributeMap>(m, "OpAttributeMap")
      .def("__len__",
           [](PyAttributeMap &a) { return detached([&] { return a.ref.attributes(); }).size(); })
      .def("__getitem__",
           [](PyAttributeMap &a, const std::string &name) {
             for (auto &[key, value] : detached([&] { return a.ref.attributes(); }))
               if (key == name)
                 return wrapAttribute(a.pyContext, value);
             throw nb::key_error(name.c_str());
           })
      .def("__contains__",
           [](PyAttributeMap &a, const std::string &name) {
             for (auto &entry : detached([&] { return a.ref.attributes(); }))
               if (entry.first == name)
                 return true;
             return false;
           })
      .def("__setitem__",
           [](PyAttributeMap &a, const std::string &name, nb::handle value) {
             mlir::Attribute attribute =
                 attributeFromPython(&a.ref.getContext().getMLIRContext(), value);
             detached([&] { a.ref.setAttribute(name, attribute); });
           })
      .def("__delitem__",
           [](PyAttributeMap &a, const std::string &name) {
             if (!detached([&] { return a.ref.removeAttribute(name); }))
               throw nb::key_error(name.c_str());
           })
      .def("keys",
           [](PyAttributeMap &a) {
             nb::list keys;
             for (auto &entry : detached([&] { return a.ref.attributes(); }))
               keys.append(nb::str(entry.first.c_str()));
             return keys;
           })
      .def("__iter__", [](nb::handle self) { return nb::iter(self.attr("keys")()); })
      .def("values",
           [](PyAttributeMap &a) {
             nb::list values;
             for (auto &entry : detached([&] { return a.ref.attributes(); }))
               values.append(wrapAttribute(a.pyContext, entry.second));
             return values;
           })
      .def("items", [](PyAttributeMap &a) {
        nb::list items;
        for (auto &[key, value] : detached([&] { return a.ref.attributes(); }))
          items.append(nb::make_tuple(nb::str(key.c_str()), wrapAttribute(a.pyContext, value)));
        return items;
      });

  nb::class_<PyOperation>(m, "Operation",
                          "A handle to an operation; OpView classes of "
                          "plait.dialects derive from it.")
      .def(
          "__init__",
          [](PyOperation *self, const PyOperation &other) {
            new (self) PyOperation{other.pyContext, other.ref};
          },
          nb::arg("operation"), "Another handle to the same operation.")
      .def_static(
          "create",
          [](const std::string &name, nb::object results, nb::object operands,
             nb::object attributes, nb::object successors, unsigned regions, nb::object loc,
             nb::object ip) {
            PyLocation &location = resolveLocation(loc);
            OperationSpec spec;
            spec.name = name;
            spec.resultTypes = toTypes(results);
            if (!operands.is_none())
              for (nb::handle operand : operands)
                spec.operands.push_back(toValue(operand));
            if (!attributes.is_none())
              for (auto [key, value] : nb::cast<nb::dict>(attributes)) {
                if (!nb::isinstance<nb::str>(key))
                  throw nb::type_error("attribute names must be str");
                spec.attributes.emplace_back(nb::cast<std::string>(key), toAttribute(value));
              }
            if (!successors.is_none())
              for (nb::handle successor : successors)
                spec.successors.push_back(nb::cast<PyBlock &>(successor).ref);
            spec.numRegions = regions;
            std::optional<InsertionPoint> insertionPoint = resolveInsertionPoint(ip);
            std::shared_ptr<Context> context = unwrapContext(location.pyContext).context;
            OperationRef created = detached(
                [&] { return createOperation(context, spec, location.location, insertionPoint); });
            return nb::cast(PyOperation{location.pyContext, created});
          },
          nb::arg("name"), nb::arg("results") = nb::none(), nb::arg("operands") = nb::none(),
          nb::arg("attributes") = nb::none(), nb::arg("successors") = nb::none(),
          nb::arg("regions") = 0, nb::arg("loc") = nb::none(), nb::arg("ip") = nb::none(),
          "Creates an operation at the current (or given) InsertionPoint, or "
          "in no block when there is none.")
      .def_prop_ro("operation",
                   [](PyOperation &o) {
                     return PyOperation{o.pyContext, o.ref};
                   })
      .def_prop_ro("opview", [](PyOperation &o) { return wrapOperation(o.pyContext, o.ref); })
      .def_prop_ro("context", [](PyOperation &o) { return o.pyContext; })
      .def_prop_ro("name", [](PyOperation &o) { return detached([&] { return o.ref.name(); }); })
      .def_prop_ro("location",
                   [](PyOperation &o) {
                     return PyLocation{o.pyContext, detached([&] { return o.ref.location(); })};
                   })
      .def_prop_ro("attributes",
                   [](PyOperation &o) {
                     detached([&] { o.ref.name(); }); // validity check
                     return PyAttributeMap{o.pyContext, o.ref};
                   })
      .def_prop_ro("operands", [](nb::handle self) { return PyOperandList{nb::borrow(self)}; })
      .def_prop_ro("results", [](nb::handle self) { return PyResultList{nb::borrow(self)}; })
      .def_prop_ro("result",
                   [](PyOperation &o) {
                     std::vector<ValueRef> results = detached([&] { return o.ref.results(); });
                     if (results.size() != 1)
                       throw nb::value_error(("Cannot call .result on operation " +
                                              detached([&] { return o.ref.name(); }) +
                                              " which has " + std::to_string(results.size()) +
                                              " results")
                                                 .c_str());
                     return wrapValue(o.pyContext, results.front());
                   })
      .def_prop_ro("regions",
                   [](PyOperation &o) {
                     nb::list result;
                     for (RegionRef &r : detached([&] { return o.ref.regions(); }))
                       result.append(nb::cast(PyRegion{o.pyContext, std::move(r)}));
                     return result;
                   })
      .def_prop_ro("successors",
                   [](PyOperation &o) {
                     nb::list result;
                     for (BlockRef &b : detached([&] { return o.ref.successors(); }))
                       result.append(nb::cast(PyBlock{o.pyContext, std::move(b)}));
                     return result;
                   })
      .def_prop_ro("parent",
                   [](PyOperation &o) -> nb::object {
                     std::optional<OperationRef> parent = detached([&] { return o.ref.parent(); });
                     if (!parent)
                       return nb::none();
                     // A plain Operation, as upstream (`.parent.name` is the
                     // operation's name even for a func.func).
                     return nb::cast(PyOperation{o.pyContext, *parent});
                   })
      .def_prop_ro("block",
                   [](PyOperation &o) -> nb::object {
                     std::optional<BlockRef> block = detached([&] { return o.ref.block(); });
                     if (!block)
                       return nb::none();
                     return nb::cast(PyBlock{o.pyContext, *block});
                   })
      .def_prop_ro("is_valid", [](PyOperation &o) { return o.ref.isValid(); })
      .def_prop_ro(
          "attached",
          [](PyOperation &o) { return detached([&] { return o.ref.block(); }).has_value(); })
      .def(
          "erase", [](PyOperation &o) { detached([&] { o.ref.erase(); }); },
          "Erases the operation; its handles and those of everything in it "
          "become invalid.")
      .def(
          "move_before",
          [](PyOperation &o, nb::handle other) {
            OperationRef anchor = operationOf(other).ref;
            detached([&] { o.ref.moveBefore(anchor); });
          },
          nb::arg("other"))
      .def(
          "move_after",
          [](PyOperation &o, nb::handle other) {
            OperationRef anchor = operationOf(other).ref;
            detached([&] { o.ref.moveAfter(anchor); });
          },
          nb::arg("other"))
      .def("detach_from_parent",
           [](nb::handle self) {
             PyOperation &o = nb::cast<PyOperation &>(self);
             detached([&] { o.ref.detachFromParent(); });
             return nb::borrow(self);
           })
      .def(
          "clone",
          [](PyOperation &o, nb::object ip) {
            OperationRef copy = detached([&] { return o.ref.clone(); });
            std::optional<InsertionPoint> insertionPoint = resolveInsertionPoint(ip);
            if (insertionPoint)
              detached([&] { insertOperation(*insertionPoint, copy); });
            return wrapOperation(o.pyContext, copy);
          },
          nb::arg("ip") = nb::none(), "A deep copy, at the current (or given) InsertionPoint.")
      .def(
          "walk",
          [](PyOperation &o, nb::callable callback) {
            // Collected first, so that the callback runs without the lock.
            // Plain Operations, as upstream: `.name` is always the op's name.
            nb::list ops;
            for (OperationRef &ref : detached([&] { return o.ref.walk(); }))
              ops.append(nb::cast(PyOperation{o.pyContext, std::move(ref)}));
            for (nb::handle op : ops)
              callback(op);
          },
          "Calls `callback(op)` on this operation and every nested one, in "
          "pre-order.")
      .def("verify",
           [](PyOperation &o) {
             detached([&] { o.ref.verify(); });
             return true;
           })
      .def("emit_error",
           [](PyOperation &o, const std::string &message) {
             detached([&] { o.ref.emitError(message); });
           })
      .def("emit_warning",
           [](PyOperation &o, const std::string &message) {
             detached([&] { o.ref.emitWarning(message); });
           })
      .def("emit_remark",
           [](PyOperation &o, const std::string &message) {
             detached([&] { o.ref.emitRemark(message); });
           })
      .def(
          "get_asm",
          [](PyOperation &o, bool generic, bool debugInfo, std::optional<int64_t> limit,
             bool binary) -> nb::object {
            std::string text =
                detached([&] { return o.ref.str(generic, debugInfo, limit.value_or(-1)); });
            if (binary)
              return nb::bytes(text.data(), text.size());
            return nb::str(text.c_str(), text.size());
          },
          nb::arg("print_generic_op_form") = false, nb::arg("enable_debug_info") = false,
          nb::arg("large_elements_limit") = nb::none(), nb::arg("binary") = false)
      .def("__str__", [](PyOperation &o) { return detached([&] { return o.ref.str(); }); })
      .def("__eq__",
           [](PyOperation &a, nb::handle b) {
             return nb::isinstance<PyOperation>(b) && a.ref == nb::cast<PyOperation &>(b).ref;
           })
      .def("__hash__", [](PyOperation &o) { return std::hash<const void *>()(o.ref.identity()); })
      .def("__repr__", [](PyOperation &o) {
        if (!o.ref.isValid())
          return std::string("<plait.ir.Operation (invalidated)>");
        return "<plait.ir.Operation " + detached([&] { return o.ref.name(); }) + ">";
      });

  bindValueList<PyOperandList>(m, "OpOperandList", operandsOf)
      .def("__setitem__", [](PyOperandList &l, Py_ssize_t index, nb::handle value) {
        PyOperation &op = nb::cast<PyOperation &>(l.owner);
        size_t i = checkedIndex(index, operandsOf(l).size());
        ValueRef replacement = toValue(value);
        detached([&] { op.ref.setOperand(i, replacement); });
      });
  bindValueList<PyResultList>(m, "OpResultList", resultsOf);

  //===--------------------------------------------------------------------===//
  // Region and Block
  //===--------------------------------------------------------------------===//
  nb::class_<PyRegion>(m, "Region")
      .def_prop_ro("blocks", [](nb::handle self) { return PyBlockList{nb::borrow(self)}; })
      .def_prop_ro("owner",
                   [](PyRegion &r) { return wrapOperation(r.pyContext, r.ref.getOwner()); })
      .def_prop_ro("context", [](PyRegion &r) { return r.pyContext; })
      .def("__iter__", [](nb::handle self) { return nb::iter(self.attr("blocks")); })
      .def("__eq__", [](PyRegion &a, nb::handle b) {
        if (!nb::isinstance<PyRegion>(b))
          return false;
        PyRegion &other = nb::cast<PyRegion &>(b);
        return a.ref.getOwner() == other.ref.getOwner() && a.ref.getIndex() == other.ref.getIndex();
      });

  nb::class_<PyBlockList>(m, "BlockList")
      .def("__len__",
           [](PyBlockList &l) {
             PyRegion &r = nb::cast<PyRegion &>(l.region);
             return detached([&] { return r.ref.blocks(); }).size();
           })
      .def("__getitem__",
           [](PyBlockList &l, nb::handle key) {
             PyRegion &r = nb::cast<PyRegion &>(l.region);
             std::vector<BlockRef> blocks = detached([&] { return r.ref.blocks(); });
             return indexOrSlice(key, blocks.size(), [&](size_t i) {
               return nb::cast(PyBlock{r.pyContext, blocks[i]});
             });
           })
      .def("__iter__",
           [](PyBlockList &l) {
             PyRegion &r = nb::cast<PyRegion &>(l.region);
             nb::list result;
             for (BlockRef &b : detached([&] { return r.ref.blocks(); }))
               result.append(nb::cast(PyBlock{r.pyContext, std::move(b)}));
             return nb::iter(result);
           })
      .def(
          "append",
          [](PyBlockList &l, nb::args types, nb::object argLocs) {
            PyRegion &r = nb::cast<PyRegion &>(l.region);
            std::vector<mlir::Type> argTypes = toTypes(types);
            std::vector<mlir::Location> locations =
                argumentLocations(argLocs, argTypes.size(), r.pyContext);
            return PyBlock{r.pyContext,
                           detached([&] { return r.ref.appendBlock(argTypes, locations); })};
          },
          nb::arg("types"), nb::kw_only(), nb::arg("arg_locs") = nb::none(),
          "Appends a block with arguments of the given types.");

  // Block.create_before / create_after(*types, arg_locs=None).
  auto createNextTo = [](bool after) {
    return [after](PyBlock &b, nb::args types, nb::object argLocs) {
      std::vector<mlir::Type> argTypes = toTypes(types);
      std::vector<mlir::Location> locations =
          argumentLocations(argLocs, argTypes.size(), b.pyContext);
      return PyBlock{b.pyContext,
                     detached([&] { return b.ref.createNextTo(argTypes, locations, after); })};
    };
  };
  nb::class_<PyBlock>(m, "Block")
      .def_static(
          "create_at_start",
          [](nb::handle parent, nb::object argTypes, nb::object argLocs) {
            PyRegion &r = nb::cast<PyRegion &>(parent);
            std::vector<mlir::Type> types = toTypes(argTypes);
            std::vector<mlir::Location> locations =
                argumentLocations(argLocs, types.size(), r.pyContext);
            return PyBlock{r.pyContext, detached([&] {
                             std::vector<BlockRef> blocks = r.ref.blocks();
                             if (blocks.empty())
                               return r.ref.appendBlock(types, locations);
                             return blocks.front().createNextTo(types, locations, /*after=*/false);
                           })};
          },
          nb::arg("parent"), nb::arg("arg_types") = nb::list(), nb::arg("arg_locs") = nb::none())
      .def_prop_ro("operations", [](nb::handle self) { return PyOperationList{nb::borrow(self)}; })
      .def_prop_ro("arguments", [](nb::handle self) { return PyArgumentList{nb::borrow(self)}; })
      .def_prop_ro("num_arguments",
                   [](PyBlock &b) { return detached([&] { return b.ref.arguments(); }).size(); })
      .def(
          "add_argument",
          [](PyBlock &b, nb::handle type, nb::handle loc) {
            mlir::Type argType = toType(type);
            mlir::Location location = resolveLocation(loc).location;
            return wrapValue(b.pyContext,
                             detached([&] { return b.ref.addArgument(argType, location); }));
          },
          nb::arg("type"), nb::arg("loc") = nb::none())
      .def_prop_ro("owner", [](PyBlock &b) { return wrapOperation(b.pyContext, b.ref.getOwner()); })
      .def_prop_ro("region",
                   [](PyBlock &b) {
                     return PyRegion{b.pyContext, detached([&] { return b.ref.region(); })};
                   })
      .def_prop_ro("context", [](PyBlock &b) { return b.pyContext; })
      .def("create_before", createNextTo(/*after=*/false), nb::arg("types"), nb::kw_only(),
           nb::arg("arg_locs") = nb::none())
      .def("create_after", createNextTo(/*after=*/true), nb::arg("types"), nb::kw_only(),
           nb::arg("arg_locs") = nb::none())
      .def(
          "append_to",
          [](PyBlock &b, nb::handle region) {
            RegionRef target = nb::cast<PyRegion &>(region).ref;
            b.ref = detached([&] { return b.ref.appendTo(target); });
          },
          nb::arg("region"),
          "Moves the block to the end of `region`. This handle follows it; "
          "other handles to the block made before become invalid.")
      .def("__iter__", [](nb::handle self) { return nb::iter(self.attr("operations")); })
      .def("__eq__",
           [](PyBlock &a, nb::handle b) {
             return nb::isinstance<PyBlock>(b) &&
                    a.ref.identity() == nb::cast<PyBlock &>(b).ref.identity();
           })
      .def("__hash__", [](PyBlock &b) { return std::hash<const void *>()(b.ref.identity()); })
      .def("__str__", [](PyBlock &b) { return detached([&] { return b.ref.str(); }); });

  nb::class_<PyOperationList>(m, "OperationList")
      .def("__len__",
           [](PyOperationList &l) {
             PyBlock &b = nb::cast<PyBlock &>(l.block);
             return detached([&] { return b.ref.operations(); }).size();
           })
      .def("__getitem__",
           [](PyOperationList &l, nb::handle key) {
             PyBlock &b = nb::cast<PyBlock &>(l.block);
             std::vector<OperationRef> ops = detached([&] { return b.ref.operations(); });
             return indexOrSlice(key, ops.size(),
                                 [&](size_t i) { return wrapOperation(b.pyContext, ops[i]); });
           })
      .def("__iter__", [](PyOperationList &l) {
        PyBlock &b = nb::cast<PyBlock &>(l.block);
        return nb::iter(wrapOperations(b.pyContext, detached([&] { return b.ref.operations(); })));
      });

  bindValueList<PyArgumentList>(m, "BlockArgumentList", argumentsOf);

  //===--------------------------------------------------------------------===//
  // Values
  //===--------------------------------------------------------------------===//
  nb::class_<PyValue>(m, "Value", "An operation result or block argument.")
      .def(
          "__init__",
          [](PyValue *self, const PyValue &other) {
            new (self) PyValue{other.pyContext, other.ref};
          },
          nb::arg("value"))
      .def_prop_ro("context", [](PyValue &v) { return v.pyContext; })
      .def_prop_ro(
          "type",
          [](PyValue &v) { return wrapType(v.pyContext, detached([&] { return v.ref.type(); })); })
      .def(
          "set_type",
          [](PyValue &v, nb::handle type) {
            mlir::Type newType = toType(type);
            detached([&] { v.ref.setType(newType); });
          },
          nb::arg("type"))
      .def_prop_ro("owner",
                   [](PyValue &v) -> nb::object {
                     std::optional<BlockRef> block = detached([&] { return v.ref.ownerBlock(); });
                     if (block)
                       return nb::cast(PyBlock{v.pyContext, *block});
                     return wrapOperation(v.pyContext, v.ref.getOwner());
                   })
      .def_prop_ro(
          "uses",
          [](PyValue &v) {
            nb::list result;
            for (auto &[user, number] : detached([&] { return v.ref.uses(); }))
              result.append(nb::cast(PyOpOperand{wrapOperation(v.pyContext, user), number}));
            return nb::iter(result);
          })
      .def(
          "replace_all_uses_with",
          [](PyValue &v, nb::handle with) {
            ValueRef replacement = toValue(with);
            detached([&] { v.ref.replaceAllUsesWith(replacement); });
          },
          nb::arg("with_"))
      .def("__str__", [](PyValue &v) { return detached([&] { return v.ref.str(); }); })
      .def("__repr__",
           [](PyValue &v) { return "Value(" + detached([&] { return v.ref.str(); }) + ")"; })
      .def("__eq__",
           [](PyValue &a, nb::handle b) {
             return nb::isinstance<PyValue>(b) &&
                    a.ref.identity() == nb::cast<PyValue &>(b).ref.identity();
           })
      .def("__hash__", [](PyValue &v) { return std::hash<const void *>()(v.ref.identity()); });

  auto castValue = [](nb::handle value, bool wantArgument) {
    PyValue &v = nb::cast<PyValue &>(value);
    if (detached([&] { return v.ref.isBlockArgument(); }) != wantArgument)
      throw nb::value_error(wantArgument ? "the value is not a block argument"
                                         : "the value is not an op result");
    return v;
  };
  auto isResult = [](nb::handle value, bool wantArgument) {
    return nb::isinstance<PyValue>(value) &&
           detached([&] { return nb::cast<PyValue &>(value).ref.isBlockArgument(); }) ==
               wantArgument;
  };
  nb::class_<PyOpResult, PyValue>(m, "OpResult")
      .def_static("isinstance", [isResult](nb::handle value) { return isResult(value, false); })
      .def("__init__",
           [castValue](PyOpResult *self, nb::handle value) {
             new (self) PyOpResult{castValue(value, false)};
           })
      .def_prop_ro("result_number",
                   [](PyOpResult &v) { return detached([&] { return v.ref.number(); }); });
  nb::class_<PyBlockArgument, PyValue>(m, "BlockArgument")
      .def_static("isinstance", [isResult](nb::handle value) { return isResult(value, true); })
      .def("__init__",
           [castValue](PyBlockArgument *self, nb::handle value) {
             new (self) PyBlockArgument{castValue(value, true)};
           })
      .def_prop_ro("arg_number",
                   [](PyBlockArgument &v) { return detached([&] { return v.ref.number(); }); });

  nb::class_<PyOpOperand>(m, "OpOperand")
      .def_prop_ro("owner", [](PyOpOperand &u) { return u.owner; })
      .def_prop_ro("operand_number", [](PyOpOperand &u) { return u.operandNumber; });

  //===--------------------------------------------------------------------===//
  // SymbolTable
  //===--------------------------------------------------------------------===//
  nb::class_<PySymbolTable>(m, "SymbolTable")
      .def("__init__",
           [](PySymbolTable *self, nb::handle operation) {
             PyOperation &op = operationOf(operation);
             new (self) PySymbolTable{nb::cast(PyOperation{op.pyContext, op.ref})};
           })
      .def("__getitem__",
           [](PySymbolTable &t, const std::string &name) {
             PyOperation &table = nb::cast<PyOperation &>(t.operation);
             std::optional<OperationRef> found =
                 detached([&] { return lookupSymbol(table.ref, name); });
             if (!found)
               throw nb::key_error(name.c_str());
             return wrapOperation(table.pyContext, *found);
           })
      .def("__contains__",
           [](PySymbolTable &t, const std::string &name) {
             PyOperation &table = nb::cast<PyOperation &>(t.operation);
             return detached([&] { return lookupSymbol(table.ref, name); }).has_value();
           })
      .def(
          "insert",
          [](PySymbolTable &t, nb::handle operation) {
            PyOperation &table = nb::cast<PyOperation &>(t.operation);
            PyOperation &symbol = operationOf(operation);
            std::string name = detached([&] { return insertSymbol(table.ref, symbol.ref); });
            return wrapAttribute(
                table.pyContext,
                mlir::StringAttr::get(&table.ref.getContext().getMLIRContext(), name));
          },
          "Moves a symbol into the table (renamed when its name is taken); "
          "returns its name as a StringAttr.")
      .def("erase",
           [](PySymbolTable &, nb::handle operation) {
             PyOperation &symbol = operationOf(operation);
             detached([&] { symbol.ref.erase(); });
           })
      .def("__delitem__",
           [](PySymbolTable &t, const std::string &name) {
             PyOperation &table = nb::cast<PyOperation &>(t.operation);
             std::optional<OperationRef> found =
                 detached([&] { return lookupSymbol(table.ref, name); });
             if (!found)
               throw nb::key_error(name.c_str());
             detached([&] { found->erase(); });
           })
      .def_static("get_symbol_name",
                  [](nb::handle operation) {
                    return nb::handle(operation).attr(
                        "attributes")[mlir::SymbolTable::getSymbolAttrName().data()];
                  })
      .def_static("set_symbol_name",
                  [](nb::handle operation, nb::handle name) {
                    nb::handle(operation).attr(
                        "attributes")[mlir::SymbolTable::getSymbolAttrName().data()] = name;
                  })
      .def_static("get_visibility",
                  [](nb::handle operation) -> nb::object {
                    nb::object attributes = operation.attr("attributes");
                    const char *key = mlir::SymbolTable::getVisibilityAttrName().data();
                    if (!nb::cast<bool>(attributes.attr("__contains__")(key)))
                      return nb::none();
                    return attributes[key];
                  })
      .def_static("set_visibility", [](nb::handle operation, nb::handle visibility) {
        std::string value = nb::cast<std::string>(nb::isinstance<nb::str>(visibility)
                                                      ? nb::borrow(visibility)
                                                      : nb::object(visibility.attr("value")));
        if (value != "public" && value != "private" && value != "nested")
          throw nb::value_error("visibility must be 'public', "
                                "'private' or 'nested'");
        nb::handle(operation).attr(
            "attributes")[mlir::SymbolTable::getVisibilityAttrName().data()] =
            nb::str(value.c_str());
      });

  //===--------------------------------------------------------------------===//
  // InferTypeOpInterface
  //===--------------------------------------------------------------------===//
  nb::class_<PyInferTypeOpInterface>(m, "InferTypeOpInterface")
      .def("__init__",
           [](PyInferTypeOpInterface *self, nb::handle target) {
             std::string name = nb::isinstance<nb::str>(target) ? nb::cast<std::string>(target)
                                : nb::isinstance<PyOperation>(target)
                                    ? nb::cast<std::string>(target.attr("name"))
                                    : nb::cast<std::string>(target.attr("OPERATION_NAME"));
             new (self) PyInferTypeOpInterface{name};
           })
      .def(
          "inferReturnTypes",
          [](PyInferTypeOpInterface &i, nb::object operands, nb::object attributes,
             nb::object context, nb::object loc, unsigned regions) {
            nb::object pyContext = resolveContext(context);
            std::vector<ValueRef> values;
            if (!operands.is_none())
              for (nb::handle operand : operands)
                values.push_back(toValue(operand));
            std::vector<std::pair<std::string, mlir::Attribute>> named;
            if (!attributes.is_none()) {
              auto dictionary = toAttribute(attributes).dyn_cast<mlir::DictionaryAttr>();
              if (!dictionary)
                throw nb::type_error("attributes must be a DictAttr");
              for (mlir::NamedAttribute entry : dictionary)
                named.emplace_back(entry.getName().str(), entry.getValue());
            }
            mlir::Location location = loc.is_none()
                                          ? mlir::Location(mlir::UnknownLoc::get(
                                                &nativeContext(pyContext).getMLIRContext()))
                                          : nb::cast<PyLocation &>(loc).location;
            Context &native = nativeContext(pyContext);
            std::vector<mlir::Type> types = detached(
                [&] { return inferResultTypes(native, i.name, values, named, regions, location); });
            nb::list result;
            for (mlir::Type type : types)
              result.append(wrapType(pyContext, type));
            return result;
          },
          nb::arg("operands") = nb::none(), nb::arg("attributes") = nb::none(),
          nb::arg("context") = nb::none(), nb::arg("loc") = nb::none(), nb::arg("regions") = 0);
}

} // namespace plait::python
