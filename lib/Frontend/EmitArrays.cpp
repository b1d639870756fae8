//===- EmitArrays.cpp - arrays: indexing, views, broadcasting, storage ----===//
//
// Element access (plait.index), views and slices with CPython's slice
// rules, NumPy's broadcasting and its messages, whole-array elementwise
// operations, stores with NumPy's conversions, and allocation.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

Val FunctionEmitter::arrayElementwise(const SExpr &node, llvm::ArrayRef<Val> operands, DType dtype,
                                      int ndim, const std::function<Val(llvm::ArrayRef<Val>)> &f,
                                      const Val *out, const Type *orderOf, const Val *mask) {
  std::vector<Type> inputTypes;
  for (const Val &operand : operands)
    inputTypes.push_back(operand.type);
  // NumPy's broadcasting: trailing axes line up; each result axis takes the
  // size that is not 1; any other mismatch is a ValueError naming every
  // operand's shape in order, "()" for a scalar (an in-place target's too,
  // as the ufunc's `out`).
  Location l = loc(node);
  using P = arith::CmpIPredicate;
  llvm::SmallVector<Val> shaped;
  for (const Val &operand : operands)
    if (operand.type.kind == Type::Kind::Array)
      shaped.push_back(operand);
  if (out) {
    shaped.push_back(*out);
    ndim = std::max(ndim, out->type.ndim);
  }
  if (mask && mask->type.kind == Type::Kind::Array) // after out, as in NumPy's message
    shaped.push_back(*mask);
  std::string shapes;
  llvm::SmallVector<Value> dims;
  for (const Val &operand : operands) {
    if (operand.type.kind != Type::Kind::Array) {
      shapes += "() ";
      continue;
    }
    shapes += shapePlaceholders(operand.type.ndim, static_cast<int>(dims.size())) + " ";
    appendDimensions(operand.leaves[0], operand.type.ndim, dims);
  }
  for (const Val *extra : {out, mask}) {
    if (extra && extra->type.kind != Type::Kind::Array) {
      shapes += "() ";
    } else if (extra) {
      shapes += shapePlaceholders(extra->type.ndim, static_cast<int>(dims.size())) + " ";
      appendDimensions(extra->leaves[0], extra->type.ndim, dims);
    }
  }
  PyError mismatch = PyError("ValueError", formatMessage("operands_broadcast", {{"shapes", shapes}}));
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < ndim; ++axis) {
    Value size = constInt(1);
    for (const Val &operand : shaped) {
      int from = axis - (ndim - operand.type.ndim);
      if (from < 0)
        continue;
      Value have = dimension(operand.leaves[0], from);
      Value merged = builder.create<arith::SelectOp>(
          l, builder.create<arith::CmpIOp>(l, P::eq, size, constInt(1)), have, size);
      Value fits = builder.create<arith::OrIOp>(l, builder.create<arith::CmpIOp>(l, P::eq, have, constInt(1)),
                                                builder.create<arith::CmpIOp>(l, P::eq, have, merged));
      checkWithArgs(builder.create<arith::XOrIOp>(l, fits, constInt(1, 1)), mismatch, dims);
      size = merged;
    }
    sizes.push_back(size);
  }
  if (out) {
    // The target of an in-place operation is not broadcast: it must have
    // the broadcast shape itself.
    llvm::SmallVector<Value> outDims;
    appendDimensions(out->leaves[0], out->type.ndim, outDims);
    PyError notBroadcastable = PyError(
        "ValueError", formatMessage("output_not_broadcastable",
                                    {{"out", shapePlaceholders(out->type.ndim, 0)},
                                     {"shape", shapePlaceholders(ndim, out->type.ndim)}}));
    llvm::SmallVector<Value> values(outDims.begin(), outDims.end());
    values.append(sizes.begin(), sizes.end());
    Value differs = constInt(0, 1);
    for (int axis = 0; axis < ndim; ++axis) {
      int from = axis - (ndim - out->type.ndim);
      // An axis the target lacks: NumPy does not broadcast its output.
      Value axisDiffers =
          from < 0
              ? constInt(1, 1)
              : builder.create<arith::CmpIOp>(l, P::ne, outDims[from], sizes[axis]).getResult();
      differs = builder.create<arith::OrIOp>(l, differs, axisDiffers);
    }
    checkWithArgs(differs, notBroadcastable, values);
  }
  Type type = Type::newArray(dtype, ndim, orderOf ? std::vector<Type>{*orderOf} : inputTypes);
  // Complex loops that round by walk direction depend on the operands'
  // strides (below); the others are one plait.elementwise, which passes
  // may fuse.
  bool byDirection =
      roundsByWalkDirection(dtype) || llvm::any_of(operands, [](const Val &operand) {
        return operand.type.kind == Type::Kind::Array && roundsByWalkDirection(operand.type.dtype);
      });
  bool structured =
      !out && !mask && !byDirection && llvm::all_of(operands, [&](const Val &operand) {
        return operand.type.kind != Type::Kind::Array || operand.type.ndim <= ndim;
      });
  if (structured) {
    Val result = elementwiseOperation(operands, type, sizes, f, l);
    for (const Val &operand : operands)
      freeIfTemporary(operand);
    return result;
  }
  Value result = allocateArray(type, sizes, nullptr, l);
  llvm::SmallVector<Val> inputs(operands.begin(), operands.end());
  for (Val &input : inputs)
    if (input.type.kind == Type::Kind::Array)
      input.leaves[0] = broadcastTo(input, result, ndim, l);
  // A negative stride reaches NumPy's loop on its one-run path.
  Value backwards = byDirection ? walksOneRunBackwards(inputs, l) : constInt(0, 1);
  forEachElement(result, ndim, [&](llvm::ArrayRef<Value> indices) {
    llvm::SmallVector<Val> elements;
    for (const Val &input : inputs)
      elements.push_back(input.type.kind == Type::Kind::Array
                             ? fromStorage(builder.create<mlir::memref::LoadOp>(l, input.leaves[0], indices),
                                           input.type.dtype, l)
                             : input);
    bool outer = inUfuncLoop;
    Value outerBackwards = ufuncBackwards;
    inUfuncLoop = true;
    ufuncBackwards = backwards;
    Val computed = f(elements);
    inUfuncLoop = outer;
    ufuncBackwards = outerBackwards;
    builder.create<mlir::memref::StoreOp>(l, toStorage(computed, dtype, l), result, indices);
  });
  for (const Val &operand : operands)
    freeIfTemporary(operand);
  return {type, {result}};
}

Val FunctionEmitter::elementwiseOperation(llvm::ArrayRef<Val> operands, const Type &type,
                                          llvm::ArrayRef<Value> sizes,
                                          const std::function<Val(llvm::ArrayRef<Val>)> &f,
                                          Location l) {
  checkArraySizes(type, sizes, l);
  llvm::SmallVector<Value> arrays;
  for (const Val &operand : operands)
    if (operand.type.kind == Type::Kind::Array)
      arrays.push_back(operand.leaves[0]);
  auto op = builder.create<dialect::ElementwiseOp>(l, module.memrefType(type), arrays, sizes,
                                                   type.fortran, module.options.parallel);
  Block *body = new Block();
  op.getBody().push_back(body);
  OpBuilder::InsertionGuard guard(builder);
  startBlock(body);
  llvm::SmallVector<Val> elements;
  for (const Val &operand : operands) {
    if (operand.type.kind != Type::Kind::Array) {
      elements.push_back(operand);
      continue;
    }
    Value element = body->addArgument(module.storageType(operand.type.dtype), l);
    elements.push_back(fromStorage(element, operand.type.dtype, l));
  }
  bool outer = inUfuncLoop;
  inUfuncLoop = true;
  Val computed = f(elements);
  inUfuncLoop = outer;
  builder.create<dialect::YieldOp>(l, toStorage(computed, type.dtype, l));
  temporaries.insert(op.getResult());
  return {type, {op.getResult()}};
}

bool FunctionEmitter::roundsByWalkDirection(DType dtype) {
  bool complex64 = dtype == DType::Complex64;
  return isComplexDType(dtype) && !(plait::numpyBackwardAbsAsForward(complex64) &&
                                    plait::numpyBackwardMultiplyAsForward(complex64));
}

Value FunctionEmitter::walksOneRunBackwards(llvm::ArrayRef<Val> operands, Location l) {
  // An operand's elements form one run when its axes (those of more than
  // one element, last first) coalesce: each stride is the run's stride
  // times the elements before it; a broadcast axis (stride 0) breaks it.
  Value allRuns = constInt(1, 1), anyBackwards = constInt(0, 1);
  auto i64 = [&](Value index) {
    return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), index).getResult();
  };
  using P = arith::CmpIPredicate;
  for (const Val &operand : operands) {
    if (operand.type.kind != Type::Kind::Array)
      continue;
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, operand.leaves[0]);
    Value run = constInt(0), span = constInt(1), coalesces = constInt(1, 1);
    for (int axis = operand.type.ndim - 1; axis >= 0; --axis) {
      Value size = i64(metadata.getSizes()[axis]), stride = i64(metadata.getStrides()[axis]);
      Value longer = builder.create<arith::CmpIOp>(l, P::sgt, size, constInt(1));
      Value first = builder.create<arith::AndIOp>(
          l, longer, builder.create<arith::CmpIOp>(l, P::eq, run, constInt(0)));
      Value continues = builder.create<arith::CmpIOp>(l, P::eq, stride,
                                                      builder.create<arith::MulIOp>(l, run, span));
      Value fits = builder.create<arith::AndIOp>(
          l, builder.create<arith::OrIOp>(l, first, continues),
          builder.create<arith::CmpIOp>(l, P::ne, stride, constInt(0)));
      coalesces = builder.create<arith::AndIOp>(
          l, coalesces,
          builder.create<arith::OrIOp>(l, builder.create<arith::XOrIOp>(l, longer, constInt(1, 1)),
                                       fits));
      run = builder.create<arith::SelectOp>(l, first, stride, run);
      span = builder.create<arith::SelectOp>(l, longer,
                                             builder.create<arith::MulIOp>(l, span, size), span);
    }
    allRuns = builder.create<arith::AndIOp>(l, allRuns, coalesces);
    anyBackwards = builder.create<arith::OrIOp>(
        l, anyBackwards, builder.create<arith::CmpIOp>(l, P::slt, run, constInt(0)));
  }
  return builder.create<arith::AndIOp>(l, allRuns, anyBackwards);
}

std::string FunctionEmitter::shapePlaceholders(int ndim, int first) {
  std::string text = "(";
  for (int axis = 0; axis < ndim; ++axis)
    text += (axis ? "," : "") + std::string("{") + std::to_string(first + axis) + "}";
  return text + (ndim == 1 ? ",)" : ")");
}

void FunctionEmitter::appendDimensions(Value memref, int ndim, llvm::SmallVectorImpl<Value> &out) {
  for (int axis = 0; axis < ndim; ++axis)
    out.push_back(dimension(memref, axis));
}

llvm::SmallVector<Value> FunctionEmitter::arrayIndices(const SExpr &subscript,
                                                       Value memref,
                                                       const Type &array) {
  // Every axis indexed by an int (`...` may stand for none of them).
  std::vector<const SExpr *> nodes;
  for (const Typer::SubscriptItem &item : typer.subscriptItems(spec, subscript, array.ndim))
    if (item.node)
      nodes.push_back(item.node);
  Location l = loc(subscript);
  // CPython evaluates every index (the tuple) before indexing.
  llvm::SmallVector<Value> given;
  for (const SExpr *node : nodes)
    given.push_back(convert(emitExpr(*node), Type::integer()).leaves[0]);
  llvm::SmallVector<Value> result;
  for (size_t axis = 0; axis < nodes.size(); ++axis)
    result.push_back(builder.create<dialect::IndexOp>(
        l, given[axis], dimension(memref, static_cast<int64_t>(axis)), axis, !checksBounds()));
  return result;
}

Val FunctionEmitter::loadElement(const SExpr &subscript) {
  Val array = emitExpr(ast::value(subscript));
  Location l = loc(subscript);
  llvm::SmallVector<Value> indices = arrayIndices(subscript, array.leaves[0], array.type);
  Value raw = builder.create<mlir::memref::LoadOp>(l, array.leaves[0], indices);
  return fromStorage(raw, array.type.dtype, l);
}

void FunctionEmitter::storeElement(const SExpr &subscript, const Val &value) {
  Val array = emitExpr(ast::value(subscript));
  Location l = loc(subscript);
  // NumPy checks the index before converting the value.
  llvm::SmallVector<Value> indices = arrayIndices(subscript, array.leaves[0], array.type);
  Value stored = toStorage(value, array.type.dtype, l);
  builder.create<mlir::memref::StoreOp>(l, stored, array.leaves[0], indices);
}

Value FunctionEmitter::rowView(Value memref, const Type &rowType, Value index, Location l) {
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
  Value offset = builder.create<arith::AddIOp>(
      l, metadata.getOffset(), builder.create<arith::MulIOp>(l, index, metadata.getStrides()[0]));
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  for (int axis = 1; axis <= rowType.ndim; ++axis) {
    sizes.push_back(metadata.getSizes()[axis]);
    strides.push_back(metadata.getStrides()[axis]);
  }
  return builder.create<mlir::memref::ReinterpretCastOp>(l, module.memrefType(rowType),
                                                         metadata.getBaseBuffer(),
                                                         mlir::OpFoldResult(offset), sizes, strides);
}

Val FunctionEmitter::emitView(const SExpr &subscript) {
  Type type = spec.typeOf(subscript);
  Val base = emitExpr(ast::value(subscript));
  Location l = loc(subscript);
  auto i64 = [&](Value index) {
    return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), index).getResult();
  };
  auto add = [&](Value a, Value b) { return builder.create<arith::AddIOp>(l, a, b).getResult(); };
  auto mul = [&](Value a, Value b) { return builder.create<arith::MulIOp>(l, a, b).getResult(); };

  // CPython evaluates every index and slice bound (the tuple) before indexing.
  using Item = Typer::SubscriptItem;
  std::vector<Item> items = typer.subscriptItems(spec, subscript, base.type.ndim);
  struct Given {
    std::optional<Value> index, start, stop, step;
  };
  std::vector<Given> given(items.size());
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].kind == Item::Kind::NewAxis || !items[k].node)
      continue;
    const SExpr &node = *items[k].node;
    auto evaluate = [&](const SExpr &e) { return convert(emitExpr(e), Type::integer()).leaves[0]; };
    if (items[k].kind == Item::Kind::Index) {
      given[k].index = evaluate(node);
      continue;
    }
    std::pair<std::optional<Value> *, const SExpr *> parts[3] = {
        {&given[k].start, &ast::lower(node)},
        {&given[k].stop, &ast::upper(node)},
        {&given[k].step, &ast::step(node)}};
    for (auto [part, bound] : parts)
      if (!ast::isNone(*bound))
        *part = evaluate(*bound);
  }
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, base.leaves[0]);
  Value offset = i64(metadata.getOffset());
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  int axis = 0; // of the base array
  for (size_t k = 0; k <= items.size(); ++k) {
    if (k == items.size()) { // trailing axes not indexed: kept whole
      for (; axis < base.type.ndim; ++axis) {
        sizes.push_back(metadata.getSizes()[axis]);
        strides.push_back(metadata.getStrides()[axis]);
      }
      break;
    }
    if (items[k].kind == Item::Kind::NewAxis) { // one element, any stride
      sizes.push_back(constIndexValue(1));
      strides.push_back(constIndexValue(0));
      continue;
    }
    Value size = i64(metadata.getSizes()[axis]);
    Value stride = i64(metadata.getStrides()[axis]);
    if (!items[k].node) { // a whole axis, from `...`
      sizes.push_back(metadata.getSizes()[axis]);
      strides.push_back(metadata.getStrides()[axis]);
      ++axis;
      continue;
    }
    if (given[k].index) {
      Value position =
          builder.create<dialect::IndexOp>(l, *given[k].index, size, axis, !checksBounds());
      offset = add(offset, mul(i64(position), stride));
      ++axis;
      continue;
    }
    appendSlicedAxis(size, stride,
                     {given[k].start.value_or(Value()), given[k].stop.value_or(Value()),
                      given[k].step.value_or(Value())},
                     offset, sizes, strides, l);
    ++axis;
  }
  Value view = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), metadata.getBaseBuffer(),
      mlir::OpFoldResult(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), offset).getResult()),
      sizes, strides);
  if (temporaries.erase(base.leaves[0])) // the view holds the reference now
    temporaries.insert(view);
  return {type, {view}};
}

bool FunctionEmitter::isNewArray(Value array) {
  if (array.getDefiningOp<dialect::ElementwiseOp>())
    return true;
  auto view = array.getDefiningOp<mlir::memref::ReinterpretCastOp>();
  return view && view.getSource().getDefiningOp<mlir::memref::AllocOp>();
}

Value FunctionEmitter::broadcastTo(const Val &value, Value destination, int ndim, Location l) {
  // NumPy's broadcasting: trailing axes line up; an axis of size 1 (or a
  // missing leading one) repeats with stride 0; other sizes must be equal.
  Value source = value.leaves[0];
  int sourceDims = value.type.ndim;
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, source);
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  Value zero = constIndexValue(0);
  llvm::SmallVector<Value> shapes;
  appendDimensions(source, sourceDims, shapes);
  appendDimensions(destination, ndim, shapes);
  // Extra leading axes of the source must have size 1 (they are dropped).
  // NumPy's message names the source's shape after dropping the leading
  // ones it could: one message per count, chosen at run time.
  int extra = std::max(0, sourceDims - ndim);
  Value dropped = constInt(0), leadingOnes = constInt(1, 1);
  for (int k = 0; k < extra; ++k) {
    leadingOnes = builder.create<arith::AndIOp>(
        l, leadingOnes, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, shapes[k], constInt(1)));
    dropped = builder.create<arith::AddIOp>(l, dropped, builder.create<arith::ExtUIOp>(l, builder.getI64Type(), leadingOnes));
  }
  Value mismatch = constInt(0, 1);
  auto either = [&](Value a, Value b) { return builder.create<arith::OrIOp>(l, a, b).getResult(); };
  for (int axis = 0; axis < extra; ++axis)
    mismatch = either(mismatch, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, shapes[axis], constInt(1)));
  for (int axis = 0; axis < ndim; ++axis) {
    Value want = dimension(destination, axis);
    sizes.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), want).getResult());
    int from = axis - (ndim - sourceDims);
    if (from < 0) {
      strides.push_back(zero);
      continue;
    }
    Value have = dimension(source, from);
    Value one = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, have, constInt(1));
    Value differ = builder.create<arith::AndIOp>(
        l, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, have, want),
        builder.create<arith::XOrIOp>(l, one, constInt(1, 1)));
    mismatch = either(mismatch, differ);
    strides.push_back(
        builder.create<arith::SelectOp>(l, one, zero, metadata.getStrides()[from]).getResult());
  }
  for (int k = 0; k <= extra; ++k) {
    PyError error("ValueError", formatMessage("broadcast_mismatch",
                                              {{"from", shapePlaceholders(sourceDims - k, k)},
                                               {"to", shapePlaceholders(ndim, sourceDims)}}));
    Value thisMessage = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, dropped, constInt(k));
    checkWithArgs(builder.create<arith::AndIOp>(l, mismatch, thisMessage), error, shapes);
  }
  return builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(Type::array(value.type.dtype, ndim)), metadata.getBaseBuffer(),
      mlir::OpFoldResult(metadata.getOffset()), sizes, strides);
}

void FunctionEmitter::storeSlice(const SExpr &subscript, const Val &value) {
  if (spec.gathers.count(&subscript))
    return scatter(subscript, value);
  if (indexesWithArray(spec, subscript))
    return maskWrite(subscript, value);
  Location l = loc(subscript);
  Val target = emitView(subscript);
  DType dtype = target.type.dtype;
  Value destination = target.leaves[0];
  if (value.type.kind != Type::Kind::Array) {
    Value stored = toStorage(value, dtype, l);
    forEachElement(destination, target.type.ndim, [&](llvm::ArrayRef<Value> indices) {
      builder.create<mlir::memref::StoreOp>(l, stored, destination, indices);
    });
    return;
  }
  int ndim = target.type.ndim;
  Value source = broadcastTo(value, destination, ndim, l);
  Type sourceType = Type::array(value.type.dtype, ndim);
  auto copy = [&](Value from, const Type &fromType, Value to, const Type &toType) {
    copyElements(Val{fromType, {from}}, Val{toType, {to}}, l);
  };
  // A new array (an elementwise result, an allocation) overlaps nothing.
  if (isNewArray(value.leaves[0])) {
    copy(source, sourceType, destination, target.type);
    freeIfTemporary(value);
    return;
  }
  // Views of one buffer may overlap (a[1:] = a[:-1]): NumPy copies as if
  // through a temporary, so do that whenever the base buffers are the same.
  auto base = [&](Value memref) {
    return builder.create<arith::IndexCastOp>(
        l, builder.getI64Type(), builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, memref));
  };
  Value shared = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, base(source), base(destination));
  Block *throughTemporary = newBlock();
  Block *direct = newBlock();
  Block *done = newBlock();
  builder.create<mlir::cf::CondBranchOp>(l, shared, throughTemporary, direct);
  startBlock(throughTemporary);
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < ndim; ++axis)
    sizes.push_back(dimension(source, axis));
  Type temporaryType = Type::array(value.type.dtype, ndim, true);
  Value temporary = allocateArray(temporaryType, sizes, nullptr, l);
  copy(source, sourceType, temporary, temporaryType);
  copy(temporary, temporaryType, destination, target.type);
  branch(done);
  startBlock(direct);
  copy(source, sourceType, destination, target.type);
  branch(done);
  startBlock(done);
  freeIfTemporary(value);
}

void FunctionEmitter::copyElements(const Val &from, const Val &to, Location l) {
  // Elementwise C casts, as NumPy's unsafe casting of array assignment
  // (int8 <- uint8 253 is -3; floats truncate toward zero).
  Value source = from.leaves[0], destination = to.leaves[0];
  DType toDType = to.type.dtype;
  forEachElement(destination, to.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, source, indices), from.type.dtype, l);
    builder.create<mlir::memref::StoreOp>(l, storageOf(castNumPy(element, toDType), l), destination, indices);
  });
}

Value FunctionEmitter::storageOf(const Val &element, Location l) {
  // Bools are bytes in memory; complex numbers one complex value.
  DType dtype = element.type.dtype;
  if (dtype == DType::Bool)
    return builder.create<arith::ExtUIOp>(l, builder.getI8Type(), element.leaves[0]);
  if (isComplexDType(dtype))
    return builder.create<mlir::complex::CreateOp>(l, module.storageType(dtype), element.leaves[0],
                                                   element.leaves[1]);
  return element.leaves[0];
}

Val FunctionEmitter::fromStorage(Value raw, DType dtype, Location l) {
  // Elements load as NumPy scalars of their dtype; bools are bytes in memory.
  if (dtype == DType::Bool)
    return {Type::numpy(dtype), {builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, raw, constInt(0, 8))}};
  if (isComplexDType(dtype))
    return {Type::numpy(dtype), {builder.create<mlir::complex::ReOp>(l, raw),
                                 builder.create<mlir::complex::ImOp>(l, raw)}};
  return {Type::numpy(dtype), {raw}};
}

Value FunctionEmitter::toStorage(const Val &value, DType dtype, mlir::Location l) {
  if (isComplexDType(dtype)) {
    Val c = castNumPy(value, dtype);
    return builder.create<mlir::complex::CreateOp>(l, module.storageType(dtype), c.leaves[0], c.leaves[1]);
  }
  Val element = value;
  bool toInteger = !isFloatDType(dtype) && dtype != DType::Bool;
  bool pythonFloat = value.type.kind == Type::Kind::Float;
  if (toInteger && value.type.isFloating() && (pythonFloat || !isUnsignedDType(dtype))) {
    // As NumPy stores a Python float (or a NumPy float into a signed
    // dtype) into an integer array: truncate, with errors for inf and NaN,
    // then the range check of a Python int. NumPy floats into unsigned
    // dtypes are C casts (below).
    Value f = convert(value, Type::floating()).leaves[0];
    Block *done = nullptr;
    if (dtype == DType::UInt64) {
      // uint64 also holds the Python ints in [2**63, 2**64).
      Value t = builder.create<mlir::math::TruncOp>(l, f);
      Value aboveInt64 = builder.create<arith::AndIOp>(
          l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGE, t, constFloat(9223372036854775808.0)),
          builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, t, constFloat(18446744073709551616.0)));
      Block *large = newBlock(), *other = newBlock();
      done = newBlock();
      done->addArgument(builder.getI64Type(), l);
      builder.create<mlir::cf::CondBranchOp>(l, aboveInt64, large, other);
      startBlock(large);
      builder.create<mlir::cf::BranchOp>(
          l, done, mlir::ValueRange{builder.create<arith::FPToUIOp>(l, builder.getI64Type(), t)});
      startBlock(other);
    }
    element = floatToInt(f, "plait_rt_float_to_int", "store_int_too_large");
    if (done) {
      checkPythonIntFits(element.leaves[0], dtype);
      builder.create<mlir::cf::BranchOp>(l, done, mlir::ValueRange{element.leaves[0]});
      startBlock(done);
      return done->getArgument(0);
    }
  }
  // Integers out of a signed dtype's range raise, NumPy's too (NumPy
  // stores an integer scalar by its value; into unsigned dtypes it wraps);
  // NumPy floats and bools are cast.
  const Type &from = element.type;
  if (from.isNumPy() && !isFloatDType(from.dtype) && from.dtype != DType::Bool &&
      !isFloatDType(dtype) && dtype != DType::Bool && !isUnsignedDType(dtype) &&
      from.dtype != dtype) {
    Value i = castNumPy(element, DType::Int64).leaves[0];
    if (from.dtype == DType::UInt64) // beyond int64: only uint64 holds it
      checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(0)),
                    PyError("OverflowError", module.options.message("store_int_too_large")),
                    {});
    checkPythonIntFits(i, dtype);
  }
  Value stored = weakToNumPy(element, dtype).leaves[0];
  if (dtype == DType::Bool)
    stored = builder.create<arith::ExtUIOp>(l, builder.getI8Type(), stored);
  return stored;
}

void FunctionEmitter::forEachElement(Value memref, int ndim,
                                     const std::function<void(llvm::ArrayRef<Value>)> &body,
                                     bool fortranOrder) {
  // Loops nest in C order (the last axis innermost), or in Fortran order
  // (the first innermost): the memory order of reductions NumPy follows.
  llvm::SmallVector<Value> indices(ndim);
  std::function<void(int)> level = [&](int depth) {
    if (depth == ndim) {
      body(indices);
      return;
    }
    int axis = fortranOrder ? ndim - 1 - depth : depth;
    countedLoop(dimension(memref, axis), [&](Value k) {
      indices[axis] = builder.create<arith::IndexCastOp>(here(), builder.getIndexType(), k);
      level(depth + 1);
    });
  };
  level(0);
}

Value FunctionEmitter::dataAddress(Value memref, const Type &array, Location l) {
  Value base = builder.create<arith::IndexCastOp>(
      l, builder.getI64Type(), builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, memref));
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
  Value offset = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getOffset());
  unsigned bytes = module.storageBytes(array.dtype);
  return builder.create<arith::AddIOp>(l, base, builder.create<arith::MulIOp>(l, offset, constInt(bytes)));
}

Value FunctionEmitter::stackBuffer(size_t n) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  return builder.create<mlir::memref::AllocaOp>(
      here(),
      mlir::MemRefType::get({static_cast<int64_t>(std::max<size_t>(n, 1))}, builder.getI64Type()));
}

Value FunctionEmitter::bufferAddress(Value buffer, Location l) {
  return builder.create<arith::IndexCastOp>(
      l, builder.getI64Type(),
      builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, buffer));
}

std::pair<Value, Value> FunctionEmitter::shapeBuffers(Value memref, int ndim, Location l) {
  Value dims = stackBuffer(ndim), strides = stackBuffer(ndim);
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
  for (int axis = 0; axis < ndim; ++axis) {
    Value at = constIndexValue(axis);
    builder.create<mlir::memref::StoreOp>(l, dimension(memref, axis), dims, at);
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[axis]),
        strides, at);
  }
  return {bufferAddress(dims, l), bufferAddress(strides, l)};
}

Value FunctionEmitter::checkArraySizes(const Type &type, llvm::ArrayRef<Value> sizes, Location l) {
  // NumPy: "negative dimensions are not allowed"; sizes multiply without
  // overflowing the address space.
  PyError negative = PyError("ValueError", module.options.message("negative_dimensions"));
  PyError tooBig = PyError("MemoryError", module.options.message("array_too_big"));
  Value total = constInt(1);
  auto pair = mlir::LLVM::LLVMStructType::getLiteral(
      builder.getContext(), {builder.getI64Type(), builder.getI1Type()});
  for (Value size : sizes) {
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, size, constInt(0)), negative);
    Value both = builder.create<mlir::LLVM::SMulWithOverflowOp>(l, pair, total, size);
    check(builder.create<mlir::LLVM::ExtractValueOp>(l, both, llvm::ArrayRef<int64_t>{1}), tooBig);
    total = builder.create<mlir::LLVM::ExtractValueOp>(l, both, llvm::ArrayRef<int64_t>{0});
  }
  Value bytes = builder.create<mlir::LLVM::SMulWithOverflowOp>(
      l, pair, total, constInt(module.storageBytes(type.dtype)));
  check(builder.create<mlir::LLVM::ExtractValueOp>(l, bytes, llvm::ArrayRef<int64_t>{1}), tooBig);
  return total;
}

Value FunctionEmitter::allocateArray(const Type &type, llvm::ArrayRef<Value> sizes, const Val *fill,
                                     Location l) {
  // A failed allocation is a MemoryError.
  PyError tooBig = PyError("MemoryError", module.options.message("array_too_big"));
  Value total = checkArraySizes(type, sizes, l);
  Value flat = builder.create<mlir::memref::AllocOp>(
      l, mlir::MemRefType::get({mlir::ShapedType::kDynamic}, module.storageType(type.dtype)),
      mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), total)});
  Value address = builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, flat);
  check(builder.create<arith::CmpIOp>(
            l, arith::CmpIPredicate::eq,
            builder.create<arith::IndexCastOp>(l, builder.getI64Type(), address), constInt(0)),
        tooBig);
  if (fill) {
    Value stored = toStorage(*fill, type.dtype, l);
    countedLoop(total, [&](Value k) {
      builder.create<mlir::memref::StoreOp>(
          l, stored, flat,
          mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
    });
  }
  // The C-contiguous (or Fortran-contiguous) N-D view of the allocation.
  llvm::SmallVector<mlir::OpFoldResult> viewSizes, viewStrides(sizes.size());
  for (Value size : sizes)
    viewSizes.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), size).getResult());
  Value stride = constInt(1);
  size_t n = sizes.size();
  for (size_t step = 0; step < n; ++step) {
    size_t k = type.fortran ? step : n - 1 - step; // the unit-stride axis first
    if (step == 0)
      viewStrides[k] = builder.getIndexAttr(1);
    else
      viewStrides[k] = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), stride).getResult();
    stride = builder.create<arith::MulIOp>(l, stride, sizes[k]);
  }
  Value array = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), flat, mlir::OpFoldResult(constIndexValue(0)), viewSizes,
      viewStrides);
  temporaries.insert(array);
  return array;
}

Value FunctionEmitter::elementCount(const Val &array, Location l) {
  Value count = constInt(1);
  for (int axis = 0; axis < array.type.ndim; ++axis)
    count = builder.create<arith::MulIOp>(l, count, dimension(array.leaves[0], axis));
  return count;
}

Value FunctionEmitter::isEmptyArray(const Val &array, Location l) {
  Value empty = constInt(0, 1);
  for (int axis = 0; axis < array.type.ndim; ++axis)
    empty = builder.create<arith::OrIOp>(
        l, empty,
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, dimension(array.leaves[0], axis),
                                      constInt(0)));
  return empty;
}

void FunctionEmitter::checkMaskShape(const Val &array, const Val &mask, Location l) {
  // An empty mask is an empty selection whatever its shape (NumPy turns a
  // mask into integer indices when it does not match).
  Value nonEmpty = builder.create<arith::XOrIOp>(l, isEmptyArray(mask, l), constInt(1, 1));
  for (int axis = 0; axis < mask.type.ndim; ++axis) {
    Value size = dimension(array.leaves[0], axis), maskSize = dimension(mask.leaves[0], axis);
    checkWithArgs(
        builder.create<arith::AndIOp>(
            l, nonEmpty,
            builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, size, maskSize)),
        PyError("IndexError", "boolean index did not match indexed array along axis " +
                                  std::to_string(axis) +
                                  "; size of axis is {0} but size of corresponding boolean "
                                  "axis is {1}"),
        {size, maskSize});
  }
}

void FunctionEmitter::forEachTrue(const Val &mask, Location l,
                                  const std::function<void(llvm::ArrayRef<Value>, Value)> &body) {
  // In C order, with the count of true elements before this one.
  Value counter = alloca(builder.getI64Type());
  builder.create<mlir::memref::StoreOp>(l, constInt(0), counter);
  forEachElement(mask.leaves[0], mask.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Value raw = builder.create<mlir::memref::LoadOp>(l, mask.leaves[0], indices);
    Value isTrue =
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, raw, constOf(raw.getType(), 0));
    Block *take = newBlock(), *next = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, isTrue, take, next);
    startBlock(take);
    Value k = builder.create<mlir::memref::LoadOp>(l, counter);
    body(indices, k);
    builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                          counter);
    branch(next);
    startBlock(next);
  });
}

Value FunctionEmitter::countTrue(const Val &mask, Location l) {
  Value total = alloca(builder.getI64Type());
  builder.create<mlir::memref::StoreOp>(l, constInt(0), total);
  forEachElement(mask.leaves[0], mask.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Value raw = builder.create<mlir::memref::LoadOp>(l, mask.leaves[0], indices);
    Value one = builder.create<arith::ExtUIOp>(
        l, builder.getI64Type(),
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, raw, constOf(raw.getType(), 0)));
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::AddIOp>(l, builder.create<mlir::memref::LoadOp>(l, total), one),
        total);
  });
  return builder.create<mlir::memref::LoadOp>(l, total);
}

Val FunctionEmitter::maskRead(const SExpr &subscript) {
  // a[mask]: the elements where mask is true, in C order.
  Location l = loc(subscript);
  Type type = spec.typeOf(subscript);
  Val array = emitExpr(ast::value(subscript));
  Val mask = emitExpr(ast::slice(subscript));
  checkMaskShape(array, mask, l);
  Value out = allocateArray(type, {countTrue(mask, l)}, nullptr, l);
  forEachTrue(mask, l, [&](llvm::ArrayRef<Value> at, Value k) {
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at), out,
        mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
  });
  freeIfTemporary(array);
  freeIfTemporary(mask);
  return {type, {out}};
}

void FunctionEmitter::appendSlicedAxis(Value size, Value stride, const std::array<Value, 3> &bounds,
                                       Value &offset,
                                       llvm::SmallVectorImpl<mlir::OpFoldResult> &sizes,
                                       llvm::SmallVectorImpl<mlir::OpFoldResult> &strides,
                                       Location l) {
  // CPython's PySlice_Unpack + PySlice_AdjustIndices, in the dialect.
  auto slice =
      builder.create<dialect::SliceOp>(l, builder.getI64Type(), builder.getI64Type(),
                                       builder.getI64Type(), size, bounds[0], bounds[1], bounds[2]);
  offset = builder.create<arith::AddIOp>(
      l, offset, builder.create<arith::MulIOp>(l, slice.getFirst(), stride));
  sizes.push_back(
      builder.create<arith::IndexCastOp>(l, builder.getIndexType(), slice.getCount()).getResult());
  strides.push_back(builder
                        .create<arith::IndexCastOp>(
                            l, builder.getIndexType(),
                            builder.create<arith::MulIOp>(l, stride, slice.getIncrement()))
                        .getResult());
}

Val FunctionEmitter::slicedAxes(const Val &array, llvm::ArrayRef<std::array<Value, 3>> bounds,
                                Location l) {
  // Each axis k with bounds[k] (start, stop, step, any null) becomes that
  // slice of itself; the others stay whole. A view: it shares the array's
  // memory.
  auto i64 = [&](Value index) {
    return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), index).getResult();
  };
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  Value offset = i64(metadata.getOffset());
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  for (int axis = 0; axis < array.type.ndim; ++axis) {
    const std::array<Value, 3> *given =
        axis < static_cast<int>(bounds.size()) ? &bounds[axis] : nullptr;
    if (!given || (!(*given)[0] && !(*given)[1] && !(*given)[2])) {
      sizes.push_back(metadata.getSizes()[axis]);
      strides.push_back(metadata.getStrides()[axis]);
      continue;
    }
    appendSlicedAxis(i64(metadata.getSizes()[axis]), i64(metadata.getStrides()[axis]), *given,
                     offset, sizes, strides, l);
  }
  Type type = Type::array(array.type.dtype, array.type.ndim);
  Value view = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), metadata.getBaseBuffer(),
      mlir::OpFoldResult(
          builder.create<arith::IndexCastOp>(l, builder.getIndexType(), offset).getResult()),
      sizes, strides);
  return {type, {view}};
}

FunctionEmitter::GatherPlan FunctionEmitter::planGather(const SExpr &subscript, const Val &array,
                                                        Location l) {
  GatherPlan plan;
  // Slice bounds, evaluated in order with the indices (CPython builds the
  // subscript's tuple first): per item, start, stop and step or null.
  std::vector<std::array<Value, 3>> bounds;
  bool bounded = false;
  // A boolean mask stands for the indices of its true elements, one index
  // array per axis it covers (NumPy's mask.nonzero()).
  for (const Typer::SubscriptItem &item : typer.subscriptItems(spec, subscript, array.type.ndim)) {
    if (item.kind == Typer::SubscriptItem::Kind::Slice) {
      std::array<Value, 3> given{};
      if (item.node) {
        const SExpr *parts[3] = {&ast::lower(*item.node), &ast::upper(*item.node),
                                 &ast::step(*item.node)};
        for (int p = 0; p < 3; ++p)
          if (!ast::isNone(*parts[p])) {
            given[p] = convert(emitExpr(*parts[p]), Type::integer()).leaves[0];
            bounded = true;
          }
      }
      bounds.push_back(given);
      plan.items.push_back({item.kind, nullptr}); // a whole axis of the source
      plan.indices.push_back(Val{});
      continue;
    }
    Val index = item.kind == Typer::SubscriptItem::Kind::Index ? emitExpr(*item.node) : Val{};
    if (index.type.kind != Type::Kind::Array || index.type.dtype != DType::Bool) {
      plan.items.push_back(item);
      plan.indices.push_back(index);
      bounds.push_back({});
      continue;
    }
    checkMaskShape(array, index, l);
    Value count = countTrue(index, l);
    std::vector<Val> positions;
    for (int axis = 0; axis < index.type.ndim; ++axis)
      positions.push_back(
          {Type::array(DType::Int64, 1, true),
           {allocateArray(Type::array(DType::Int64, 1, true), {count}, nullptr, l)}});
    forEachTrue(index, l, [&](llvm::ArrayRef<Value> at, Value k) {
      Value kth = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
      for (int axis = 0; axis < index.type.ndim; ++axis)
        builder.create<mlir::memref::StoreOp>(
            l, builder.create<arith::IndexCastOp>(l, builder.getI64Type(), at[axis]),
            positions[axis].leaves[0], mlir::ValueRange{kth});
    });
    freeIfTemporary(index);
    for (const Val &p : positions) {
      plan.items.push_back({Typer::SubscriptItem::Kind::Index, nullptr});
      plan.indices.push_back(p);
      bounds.push_back({});
    }
  }
  plan.source = bounded ? slicedAxes(array, bounds, l) : array;
  const auto &items = plan.items;
  // The index arrays broadcast to one length (NumPy's message names every
  // array's shape); ints join them.
  llvm::SmallVector<Value> lengths;
  for (size_t k = 0; k < items.size(); ++k)
    if (plan.indices[k].type.kind == Type::Kind::Array)
      lengths.push_back(dimension(plan.indices[k].leaves[0], 0));
  std::string shapes;
  for (size_t k = 0; k < lengths.size(); ++k)
    shapes += shapePlaceholders(1, static_cast<int>(k)) + " ";
  PyError mismatch("IndexError",
                   "shape mismatch: indexing arrays could not be broadcast together with shapes " +
                       shapes);
  using P = arith::CmpIPredicate;
  Value length = constInt(1);
  for (Value n : lengths) {
    Value fits = builder.create<arith::OrIOp>(
        l,
        builder.create<arith::OrIOp>(l, builder.create<arith::CmpIOp>(l, P::eq, n, length),
                                     builder.create<arith::CmpIOp>(l, P::eq, n, constInt(1))),
        builder.create<arith::CmpIOp>(l, P::eq, length, constInt(1)));
    checkWithArgs(builder.create<arith::XOrIOp>(l, fits, constInt(1, 1)), mismatch, lengths);
    length = builder.create<arith::SelectOp>(
        l, builder.create<arith::CmpIOp>(l, P::eq, length, constInt(1)), n, length);
  }
  // Where the gathered axis goes: in place of adjacent indices, else first.
  std::vector<size_t> advanced;
  for (size_t k = 0; k < items.size(); ++k)
    if (items[k].kind == Typer::SubscriptItem::Kind::Index)
      advanced.push_back(k);
  bool adjacent = advanced.back() - advanced.front() + 1 == advanced.size();
  plan.resultAxisOf.assign(items.size(), -1);
  if (!adjacent) {
    plan.gatheredAxis = 0;
    plan.sizes.push_back(length);
  }
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].kind == Typer::SubscriptItem::Kind::Slice) {
      plan.resultAxisOf[k] = static_cast<int>(plan.sizes.size());
      plan.sizes.push_back(dimension(plan.source.leaves[0], static_cast<int64_t>(k)));
    } else if (adjacent && k == advanced.front()) {
      plan.gatheredAxis = static_cast<int>(plan.sizes.size());
      plan.sizes.push_back(length);
    }
  }
  for (int axis = static_cast<int>(items.size()); axis < array.type.ndim; ++axis)
    plan.sizes.push_back(dimension(plan.source.leaves[0], axis));
  return plan;
}

void FunctionEmitter::checkGatherIndices(const GatherPlan &plan, const Val &array, Location l) {
  // Every index is checked before anything moves, array by array in order,
  // as NumPy does (its IndexError names the first bad one it meets).
  const auto &items = plan.items;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].kind != Typer::SubscriptItem::Kind::Index)
      continue;
    Value size = dimension(array.leaves[0], static_cast<int64_t>(k));
    auto checkIndex = [&](const Val &index) {
      builder.create<dialect::IndexOp>(l, castNumPy(index, DType::Int64).leaves[0], size,
                                       static_cast<int64_t>(k), !checksBounds());
    };
    const Val &index = plan.indices[k];
    if (index.type.kind != Type::Kind::Array) {
      checkIndex(index);
      continue;
    }
    countedLoop(dimension(index.leaves[0], 0), [&](Value position) {
      Value at = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), position);
      checkIndex(fromStorage(
          builder.create<mlir::memref::LoadOp>(l, index.leaves[0], mlir::ValueRange{at}),
          index.type.dtype, l));
    });
  }
}

llvm::SmallVector<Value> FunctionEmitter::gatherSource(const GatherPlan &plan, const Val &array,
                                                       llvm::ArrayRef<Value> at, Location l) {
  llvm::SmallVector<Value> from;
  for (size_t k = 0; k < plan.items.size(); ++k) {
    if (plan.items[k].kind == Typer::SubscriptItem::Kind::Slice) {
      from.push_back(at[plan.resultAxisOf[k]]);
      continue;
    }
    Val index = plan.indices[k];
    if (index.type.kind == Type::Kind::Array) { // its element there (0 if it has one)
      Value one = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                                dimension(index.leaves[0], 0), constInt(1));
      Value position =
          builder.create<arith::SelectOp>(l, one, constIndexValue(0), at[plan.gatheredAxis]);
      index = fromStorage(
          builder.create<mlir::memref::LoadOp>(l, index.leaves[0], mlir::ValueRange{position}),
          index.type.dtype, l);
    }
    // (checked already: the index only wraps)
    from.push_back(
        builder.create<dialect::IndexOp>(l, castNumPy(index, DType::Int64).leaves[0],
                                         dimension(array.leaves[0], static_cast<int64_t>(k)),
                                         static_cast<int64_t>(k), /*unchecked=*/true));
  }
  int ndim = static_cast<int>(plan.sizes.size());
  for (int axis = static_cast<int>(plan.items.size()); axis < array.type.ndim; ++axis)
    from.push_back(at[ndim - (array.type.ndim - axis)]);
  return from;
}

void FunctionEmitter::forEachPosition(llvm::ArrayRef<Value> sizes,
                                      const std::function<void(llvm::ArrayRef<Value>)> &body) {
  llvm::SmallVector<Value> at(sizes.size());
  std::function<void(size_t)> level = [&](size_t depth) {
    if (depth == sizes.size())
      return body(at);
    countedLoop(sizes[depth], [&](Value k) {
      at[depth] = builder.create<arith::IndexCastOp>(here(), builder.getIndexType(), k);
      level(depth + 1);
    });
  };
  level(0);
}

Val FunctionEmitter::gatherRows(const SExpr &subscript, const Val &array, const Val &index) {
  // a[idx] with an N-D int array: the rows idx names, in idx's shape
  // (every index checked first, as NumPy does).
  Location l = loc(subscript);
  Type type = spec.typeOf(subscript);
  int depth = index.type.ndim;
  Value rows = dimension(array.leaves[0], 0);
  llvm::SmallVector<Value> sizes;
  appendDimensions(index.leaves[0], depth, sizes);
  for (int axis = 1; axis < array.type.ndim; ++axis)
    sizes.push_back(dimension(array.leaves[0], axis));
  auto rowAt = [&](llvm::ArrayRef<Value> at, bool unchecked) {
    Val element =
        fromStorage(builder.create<mlir::memref::LoadOp>(l, index.leaves[0], at.take_front(depth)),
                    index.type.dtype, l);
    return builder
        .create<dialect::IndexOp>(l, castNumPy(element, DType::Int64).leaves[0], rows, 0,
                                  unchecked || !checksBounds())
        .getResult();
  };
  forEachPosition(llvm::ArrayRef<Value>(sizes).take_front(depth),
                  [&](llvm::ArrayRef<Value> at) { rowAt(at, false); });
  Value out = allocateArray(type, sizes, nullptr, l);
  forEachPosition(sizes, [&](llvm::ArrayRef<Value> at) {
    llvm::SmallVector<Value> from = {rowAt(at, /*unchecked=*/true)};
    from.append(at.begin() + depth, at.end());
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<mlir::memref::LoadOp>(l, array.leaves[0], from), out, at);
  });
  return {type, {out}};
}

Val FunctionEmitter::gather(const SExpr &subscript) {
  Location l = loc(subscript);
  Type type = spec.typeOf(subscript);
  Val array = emitExpr(ast::value(subscript));
  std::vector<Typer::SubscriptItem> items = typer.subscriptItems(spec, subscript, array.type.ndim);
  if (items.size() == 1 && items[0].kind == Typer::SubscriptItem::Kind::Index) {
    Type indexType = spec.typeOf(*items[0].node);
    if (indexType.kind == Type::Kind::Array && indexType.ndim > 1 &&
        indexType.dtype != DType::Bool) {
      Val index = emitExpr(*items[0].node);
      Val result = gatherRows(subscript, array, index);
      freeIfTemporary(array);
      freeIfTemporary(index);
      return result;
    }
  }
  GatherPlan plan = planGather(subscript, array, l);
  const Val &source = plan.source;
  checkGatherIndices(plan, source, l);
  Value out = allocateArray(type, plan.sizes, nullptr, l);
  forEachPosition(plan.sizes, [&](llvm::ArrayRef<Value> at) {
    builder.create<mlir::memref::StoreOp>(
        l,
        builder.create<mlir::memref::LoadOp>(l, source.leaves[0],
                                             gatherSource(plan, source, at, l)),
        out, at);
  });
  freeIfTemporary(array);
  for (const Val &index : plan.indices)
    if (index.type.kind == Type::Kind::Array)
      freeIfTemporary(index);
  return {type, {out}};
}

void FunctionEmitter::scatter(const SExpr &subscript, const Val &value) {
  // a[rows, cols] = v: v (a number, or an array broadcast to the indexing
  // result's shape) written at the gathered places, in C order (a repeated
  // place keeps the last value, as in NumPy).
  Location l = loc(subscript);
  Val array = emitExpr(ast::value(subscript));
  GatherPlan plan = planGather(subscript, array, l);
  const Val &source = plan.source;
  DType dtype = array.type.dtype;
  int ndim = static_cast<int>(plan.sizes.size());
  bool isArray = value.type.kind == Type::Kind::Array;
  int vn = isArray ? value.type.ndim : 0;
  // Extra leading axes of the value must have size 1 (NumPy drops them).
  int extra = std::max(0, vn - ndim);
  if (isArray) {
    llvm::SmallVector<Value> shapes;
    appendDimensions(value.leaves[0], vn, shapes);
    shapes.append(plan.sizes.begin(), plan.sizes.end());
    PyError mismatch("ValueError", "shape mismatch: value array of shape " +
                                       shapePlaceholders(vn, 0) +
                                       " could not be broadcast to indexing result of shape " +
                                       shapePlaceholders(ndim, vn));
    using P = arith::CmpIPredicate;
    for (int d = 0; d < vn; ++d) {
      Value have = dimension(value.leaves[0], d);
      Value bad = builder.create<arith::CmpIOp>(l, P::ne, have, constInt(1));
      if (d >= extra)
        bad = builder.create<arith::AndIOp>(
            l, builder.create<arith::CmpIOp>(l, P::ne, have, plan.sizes[ndim - vn + d]), bad);
      checkWithArgs(bad, mismatch, shapes);
    }
  }
  checkGatherIndices(plan, source, l); // (NumPy: after the value's shape)
  Value scalar = isArray ? Value() : toStorage(value, dtype, l);
  forEachPosition(plan.sizes, [&](llvm::ArrayRef<Value> at) {
    Value stored = scalar;
    if (isArray) {
      llvm::SmallVector<Value> from;
      for (int d = 0; d < vn; ++d) {
        if (d < extra) {
          from.push_back(constIndexValue(0));
          continue;
        }
        Value one = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                                  dimension(value.leaves[0], d), constInt(1));
        from.push_back(
            builder.create<arith::SelectOp>(l, one, constIndexValue(0), at[ndim - vn + d]));
      }
      Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, value.leaves[0], from),
                                value.type.dtype, l);
      stored = storageOf(castNumPy(element, dtype), l);
    }
    builder.create<mlir::memref::StoreOp>(l, stored, source.leaves[0],
                                          gatherSource(plan, source, at, l));
  });
  freeIfTemporary(array);
  for (const Val &index : plan.indices)
    if (index.type.kind == Type::Kind::Array)
      freeIfTemporary(index);
}

void FunctionEmitter::maskWrite(const SExpr &subscript, const Val &value) {
  Location l = loc(subscript);
  Val array = emitExpr(ast::value(subscript));
  Val mask = emitExpr(ast::slice(subscript));
  DType dtype = array.type.dtype;
  // The value for the k-th element written: a number, or element k of a
  // 1-D array (element 0 when it has one), cast as C casts it.
  bool isArray = value.type.kind == Type::Kind::Array;
  Value scalar = isArray ? Value() : toStorage(value, dtype, l);
  Value valueSize = isArray ? dimension(value.leaves[0], 0) : constInt(1);
  auto valueAt = [&](Value k) -> Value { // k: an index
    if (!isArray)
      return scalar;
    Value one = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, valueSize, constInt(1));
    Value at = builder.create<arith::SelectOp>(l, one, constIndexValue(0), k);
    Val element =
        fromStorage(builder.create<mlir::memref::LoadOp>(l, value.leaves[0], mlir::ValueRange{at}),
                    value.type.dtype, l);
    return storageOf(castNumPy(element, dtype), l);
  };
  checkMaskShape(array, mask, l);
  if (isArray) {
    Value count = countTrue(mask, l);
    Value sizeMismatch = builder.create<arith::AndIOp>(
        l, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, valueSize, count),
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, valueSize, constInt(1)));
    checkWithArgs(builder.create<arith::AndIOp>(l, isEmptyArray(mask, l), sizeMismatch),
                  PyError("ValueError", "shape mismatch: value array of shape ({0},) could not be "
                                        "broadcast to indexing result of shape ({1},)"),
                  {valueSize, count});
    checkWithArgs(sizeMismatch,
                  PyError("ValueError",
                          "NumPy boolean array indexing assignment cannot assign {0} input "
                          "values to the {1} output values where the mask is true"),
                  {valueSize, count});
  }
  forEachTrue(mask, l, [&](llvm::ArrayRef<Value> at, Value k) {
    Value kth = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
    builder.create<mlir::memref::StoreOp>(l, valueAt(kth), array.leaves[0], at);
  });
  freeIfTemporary(array);
  freeIfTemporary(mask);
}

Val FunctionEmitter::reshaped(const SExpr &node) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  std::vector<const SExpr *> args = typer.positionalArguments(spec, node);
  Val array = emitExpr(*args[0]);
  llvm::SmallVector<Value> sizes;
  if (args.size() == 1)
    sizes.push_back(constInt(-1)); // ravel (no shape): reshape(-1)
  for (size_t i = 1; i < args.size(); ++i) {
    Val shape = emitExpr(*args[i]);
    if (shape.type.kind == Type::Kind::Tuple) {
      for (size_t k = 0; k < shape.leaves.size(); ++k)
        sizes.push_back(
            convert(Val{shape.type.elements[k], {shape.leaves[k]}}, Type::integer()).leaves[0]);
    } else {
      sizes.push_back(convert(shape, Type::integer()).leaves[0]);
    }
  }
  auto cmp = [&](arith::CmpIPredicate p, Value a, Value b) {
    return builder.create<arith::CmpIOp>(l, p, a, b).getResult();
  };
  auto negate = [&](Value flag) {
    return builder.create<arith::XOrIOp>(l, flag, constInt(1, 1)).getResult();
  };
  Value total = elementCount(array, l);
  // NumPy: a negative size is the unknown one, inferred; at most one.
  Value known = constInt(1), unknowns = constInt(0);
  for (Value size : sizes) {
    Value negative = cmp(arith::CmpIPredicate::slt, size, constInt(0));
    unknowns = builder.create<arith::AddIOp>(
        l, unknowns, builder.create<arith::ExtUIOp>(l, builder.getI64Type(), negative));
    known = builder.create<arith::MulIOp>(
        l, known, builder.create<arith::SelectOp>(l, negative, constInt(1), size));
  }
  check(cmp(arith::CmpIPredicate::sgt, unknowns, constInt(1)),
        PyError("ValueError", "can only specify one unknown dimension"));
  Value zeroKnown = cmp(arith::CmpIPredicate::eq, known, constInt(0));
  Value safeKnown = builder.create<arith::SelectOp>(l, zeroKnown, constInt(1), known);
  Value inferred = builder.create<arith::DivSIOp>(l, total, safeKnown);
  Value divides = cmp(arith::CmpIPredicate::eq, builder.create<arith::RemSIOp>(l, total, safeKnown),
                      constInt(0));
  Value fits =
      builder.create<arith::SelectOp>(l, cmp(arith::CmpIPredicate::eq, unknowns, constInt(1)),
                                      builder.create<arith::AndIOp>(l, negate(zeroKnown), divides),
                                      cmp(arith::CmpIPredicate::eq, known, total));
  // NumPy's message (convert_shape_to_string) spells the unknown size
  // "newaxis", or drops it when it comes first: one raising site per
  // position it may take, and one for none.
  llvm::SmallVector<Value> messageValues = {total};
  messageValues.append(sizes.begin(), sizes.end());
  for (size_t unknown = 0; unknown <= sizes.size(); ++unknown) {
    std::string spelled;
    for (size_t k = unknown == 0 ? 1 : 0; k < sizes.size(); ++k)
      spelled += (spelled.empty() ? "" : ",") +
                 (k == unknown ? std::string("newaxis") : "{" + std::to_string(k + 1) + "}");
    if (sizes.size() == 1 && !spelled.empty())
      spelled += ",";
    Value here = unknown < sizes.size()
                     ? cmp(arith::CmpIPredicate::slt, sizes[unknown], constInt(0))
                     : cmp(arith::CmpIPredicate::eq, unknowns, constInt(0));
    checkWithArgs(
        builder.create<arith::AndIOp>(l, negate(fits), here),
        PyError("ValueError", "cannot reshape array of size {0} into shape (" + spelled + ")"),
        messageValues);
  }
  for (Value &size : sizes)
    size = builder.create<arith::SelectOp>(l, cmp(arith::CmpIPredicate::slt, size, constInt(0)),
                                           inferred, size);

  // A view: with C strides of a C-contiguous array, else with the strides
  // NumPy's _attempt_nocopy_reshape finds; a view of a C-ordered copy when
  // there are none. The result owns a reference either way.
  int ndim = array.type.ndim;
  auto viewOf = [&](Value source, llvm::ArrayRef<Value> strides) {
    auto parts = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, source);
    llvm::SmallVector<mlir::OpFoldResult> viewSizes, viewStrides(sizes.size());
    Value stride = constInt(1);
    for (size_t k = sizes.size(); k-- > 0;) {
      if (k + 1 == sizes.size() && type.contiguous)
        viewStrides[k] = builder.getIndexAttr(1);
      else
        viewStrides[k] = builder
                             .create<arith::IndexCastOp>(l, builder.getIndexType(),
                                                         strides.empty() ? stride : strides[k])
                             .getResult();
      stride = builder.create<arith::MulIOp>(l, stride, sizes[k]);
    }
    for (Value size : sizes)
      viewSizes.push_back(
          builder.create<arith::IndexCastOp>(l, builder.getIndexType(), size).getResult());
    return builder
        .create<mlir::memref::ReinterpretCastOp>(l, module.memrefType(type), parts.getBaseBuffer(),
                                                 mlir::OpFoldResult(parts.getOffset()), viewSizes,
                                                 viewStrides)
        .getResult();
  };
  if (array.type.contiguous || (ndim == 1 && array.type.fortran)) {
    Value view = viewOf(array.leaves[0], {});
    if (temporaries.erase(array.leaves[0]))
      temporaries.insert(view);
    return {type, {view}};
  }
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  Value asViewCondition;
  Value newStrides; // the view's strides, as the runtime found them (null: C strides)
  if (args.size() == 1) {
    // ravel: a view only of a C-contiguous array (NumPy's PyArray_Ravel).
    Value contiguous = constInt(1, 1), expected = constInt(1);
    for (int axis = ndim - 1; axis >= 0; --axis) {
      Value size = dimension(array.leaves[0], axis);
      Value stride =
          builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[axis]);
      contiguous = builder.create<arith::AndIOp>(
          l, contiguous,
          builder.create<arith::OrIOp>(l, cmp(arith::CmpIPredicate::eq, size, constInt(1)),
                                       cmp(arith::CmpIPredicate::eq, stride, expected)));
      expected = builder.create<arith::MulIOp>(l, expected, size);
    }
    asViewCondition = contiguous;
  } else {
    auto [oldDims, oldStrides] = shapeBuffers(array.leaves[0], ndim, l);
    Value newDims = stackBuffer(sizes.size());
    newStrides = stackBuffer(sizes.size());
    for (size_t k = 0; k < sizes.size(); ++k)
      builder.create<mlir::memref::StoreOp>(l, sizes[k], newDims,
                                            constIndexValue(static_cast<int64_t>(k)));
    mlir::Type i64 = builder.getI64Type();
    module.declare("plait_rt_reshape_strides",
                   builder.getFunctionType({i64, i64, i64, i64, i64, i64}, {builder.getI32Type()}));
    Value found = builder
                      .create<mlir::func::CallOp>(
                          l, "plait_rt_reshape_strides", mlir::TypeRange{builder.getI32Type()},
                          mlir::ValueRange{constInt(ndim), oldDims, oldStrides,
                                           constInt(static_cast<int64_t>(sizes.size())),
                                           bufferAddress(newDims, l), bufferAddress(newStrides, l)})
                      .getResult(0);
    asViewCondition = cmp(arith::CmpIPredicate::ne, found, constInt(0, 32));
  }
  Block *asView = newBlock(), *asCopy = newBlock(), *done = newBlock();
  done->addArgument(module.memrefType(type), l);
  builder.create<mlir::cf::CondBranchOp>(l, asViewCondition, asView, asCopy);
  startBlock(asView);
  llvm::SmallVector<Value> strides;
  if (newStrides)
    for (size_t k = 0; k < sizes.size(); ++k)
      strides.push_back(builder.create<mlir::memref::LoadOp>(
          l, newStrides, constIndexValue(static_cast<int64_t>(k))));
  Value view = viewOf(array.leaves[0], strides);
  builder.create<dialect::RetainOp>(l, view);
  branch(done, view);
  startBlock(asCopy);
  Type copyType = Type::array(array.type.dtype, ndim, true);
  llvm::SmallVector<Value> inputSizes;
  appendDimensions(array.leaves[0], ndim, inputSizes);
  Val copy{copyType, {allocateArray(copyType, inputSizes, nullptr, l)}};
  temporaries.erase(copy.leaves[0]); // its reference moves to the result
  copyElements(array, copy, l);
  branch(done, viewOf(copy.leaves[0], {}));
  startBlock(done);
  freeIfTemporary(array);
  Value result = done->getArgument(0);
  temporaries.insert(result);
  return {type, {result}};
}

Val FunctionEmitter::transposed(const Val &array, const Type &type, Location l) {
  int ndim = array.type.ndim;
  if (ndim <= 1)
    return array;
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  for (int axis = ndim - 1; axis >= 0; --axis) {
    sizes.push_back(metadata.getSizes()[axis]);
    strides.push_back(metadata.getStrides()[axis]);
  }
  // A unit stride the result's type states is a constant there.
  if (type.contiguous)
    strides.back() = builder.getIndexAttr(1);
  if (type.fortran)
    strides.front() = builder.getIndexAttr(1);
  Value view = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), metadata.getBaseBuffer(),
      mlir::OpFoldResult(metadata.getOffset()), sizes, strides);
  if (temporaries.erase(array.leaves[0])) // the view holds the reference now
    temporaries.insert(view);
  return {type, {view}};
}

} // namespace plait::frontend::detail
