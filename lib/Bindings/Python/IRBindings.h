//===- IRBindings.h - glue shared by the plait.ir files ---------*- C++ -*-===//
//
// The Python objects of plait.ir that carry MLIR values (locations, types,
// attributes) and handles (values, blocks, regions), and the thread's
// `with` stacks. Every object holds its Python Context, which keeps the native
// context alive and is what `.context` returns.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_BINDINGS_PYTHON_IRBINDINGS_H
#define PLAIT_BINDINGS_PYTHON_IRBINDINGS_H

#include "Bindings.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"

#include <optional>

namespace plait::python {

struct PyLocation {
  nb::object pyContext;
  mlir::Location location;
};

/// plait.ir.Type; its Python subclasses (IntegerType, ...) add no state.
struct PyType {
  nb::object pyContext;
  mlir::Type type;
};

/// plait.ir.Attribute; its Python subclasses add no state.
struct PyAttribute {
  nb::object pyContext;
  mlir::Attribute attribute;
};

/// plait.ir.Value; OpResult and BlockArgument are its subclasses.
struct PyValue {
  nb::object pyContext;
  ValueRef ref;
};

struct PyBlock {
  nb::object pyContext;
  BlockRef ref;
};

struct PyRegion {
  nb::object pyContext;
  RegionRef ref;
};

struct PyInsertionPoint {
  nb::object block;  // plait.ir.Block
  nb::object before; // plait.ir.Operation, or None for the block's end
};

/// The native context of a plait.ir.Context object.
Context &nativeContext(const nb::object &pyContext);

/// ValueError unless `value` (a type, attribute or location) belongs to the
/// context of `pyContext`: IR must not point into another context.
template <typename T> void requireContext(const nb::object &pyContext, T value) {
  if (value.getContext() != &nativeContext(pyContext).getMLIRContext())
    throw nb::value_error("a type, attribute or location belongs to a different Context");
}

/// The most specific Python class for a type or attribute.
nb::object wrapType(const nb::object &pyContext, mlir::Type type);
nb::object wrapAttribute(const nb::object &pyContext, mlir::Attribute attribute);
nb::object wrapValue(const nb::object &pyContext, ValueRef ref);
nb::object wrapLocation(const nb::object &pyContext, mlir::Location location);

mlir::Type toType(const nb::handle &object);
mlir::Attribute toAttribute(const nb::handle &object);
/// `loc`, else the thread's current Location (ValueError when there is none).
PyLocation &resolveLocation(const nb::handle &loc);
/// `ip`, else the thread's current InsertionPoint (none when there is none).
std::optional<InsertionPoint> resolveInsertionPoint(const nb::handle &ip);
/// A Value, or an object with `.result` / a single-result Operation or OpView.
ValueRef toValue(const nb::handle &object);

void populateIRCore(nb::module_ &m);
void populateIRTypes(nb::module_ &m);
void populateIRAttributes(nb::module_ &m);
void populateIRInterfaces(nb::module_ &m);

} // namespace plait::python

#endif // PLAIT_BINDINGS_PYTHON_IRBINDINGS_H
