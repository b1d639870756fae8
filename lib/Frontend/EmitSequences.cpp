//===- EmitSequences.cpp - arrays made from sequences ---------------------===//
//
// np.array((1, 2), ...) and np.array([[a, b], [c, d]]): the numbers and
// arrays of a nested tuple (or list display) stored into a new array in C
// order, with NumPy's checks: a Python int must fit the dtype, and the
// shape must be rectangular ("inhomogeneous shape after n dimensions").
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

namespace {

/// NumPy's "(2, 3)" / "(2,)" of the given parts.
std::string shapeText(const std::vector<std::string> &parts) {
  std::string text = "(";
  for (size_t k = 0; k < parts.size(); ++k)
    text += (k ? ", " : "") + parts[k];
  return text + (parts.size() == 1 ? ",)" : ")");
}

std::string inhomogeneous(size_t after, const std::vector<std::string> &detected) {
  return "setting an array element with a sequence. The requested array has an inhomogeneous "
         "shape after " +
         std::to_string(after) + " dimensions. The detected shape was " + shapeText(detected) +
         " + inhomogeneous part.";
}

} // namespace

Val FunctionEmitter::arrayFromSequence(const SExpr &node) {
  Type type = spec.typeOf(node);
  Location l = loc(node);
  Val values = emitExpr(*ast::args(node).rest()[0]);
  SequenceLayout layout = sequenceLayout(values.type);
  std::vector<std::string> detected;
  for (int64_t size : layout.dims)
    detected.push_back(std::to_string(size));
  llvm::SmallVector<Value> sizes;
  for (int64_t size : layout.dims)
    sizes.push_back(constInt(size));
  if (!layout.agrees) {
    check(constInt(1, 1), PyError("ValueError", inhomogeneous(layout.dims.size(), detected)));
    return {type, {allocateArray(type, sizes, nullptr, l)}};
  }
  // The leaves in C order, with their positions in the tuples.
  std::vector<std::pair<std::vector<int64_t>, Val>> leaves;
  std::vector<int64_t> position;
  std::function<void(const Val &)> collect = [&](const Val &value) {
    if (value.type.kind != Type::Kind::Tuple) {
      leaves.emplace_back(position, value);
      return;
    }
    for (size_t k = 0; k < value.type.elements.size(); ++k) {
      position.push_back(static_cast<int64_t>(k));
      collect(tupleElement(value, k));
      position.pop_back();
    }
  };
  collect(values);
  if (layout.arrayRank > 0) {
    // Every array has the first one's shape; NumPy reports the axes up to
    // the first that differs.
    Value first = leaves[0].second.leaves[0];
    llvm::SmallVector<Value> shown;
    for (int axis = 0; axis < layout.arrayRank; ++axis) {
      Value size = dimension(first, axis);
      Value differs = constInt(0, 1);
      for (size_t i = 1; i < leaves.size(); ++i)
        differs = builder.create<arith::OrIOp>(
            l, differs,
            builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                          dimension(leaves[i].second.leaves[0], axis), size));
      std::vector<std::string> parts = detected;
      for (int k = 0; k < axis; ++k)
        parts.push_back("{" + std::to_string(k) + "}");
      checkWithArgs(differs, PyError("ValueError", inhomogeneous(layout.dims.size() + axis, parts)),
                    shown);
      shown.push_back(size);
      sizes.push_back(size);
    }
  }
  Value out = allocateArray(type, sizes, nullptr, l);
  for (const auto &[at, leaf] : leaves) {
    llvm::SmallVector<Value> indices;
    for (int64_t k : at)
      indices.push_back(constIndexValue(k));
    if (leaf.type.kind != Type::Kind::Array) {
      // A Python int must fit (NumPy's OverflowError); others cast as C does.
      builder.create<mlir::memref::StoreOp>(
          l, toStorage(weakToNumPy(leaf, type.dtype), type.dtype, l), out, indices);
      continue;
    }
    Value destination = out;
    for (size_t depth = 0; depth < at.size(); ++depth) {
      Type rowType = Type::array(type.dtype, type.ndim - 1 - static_cast<int>(depth));
      destination = rowView(destination, rowType, indices[depth], l);
    }
    copyElements(leaf, Val{Type::array(type.dtype, leaf.type.ndim), {destination}}, l);
    freeIfTemporary(leaf);
  }
  return {type, {out}};
}

} // namespace plait::frontend::detail
