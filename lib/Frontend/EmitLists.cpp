//===- EmitLists.cpp - typed lists ----------------------------------------===//
//
// A list is its box (plait/Runtime/Lists.h): a reference-counted 1-D int64
// memref of six words, owned as arrays are (variables, temporaries and
// results each hold a reference). Its items are read and written through a
// plait.list_items view made from the box's words where they stand, so
// every alias sees an append that moved them; items that hold arrays or
// lists keep their descriptors in words, read and written through
// plait.item_slot (docs/design/lists.md).
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Runtime/Lists.h"

namespace plait::frontend::detail {

namespace {
/// How a list stores items of type `item`: Python's numbers as the NumPy
/// dtypes of the same bits, NumPy scalars as their own.
DType listItemDType(const Type &item) {
  switch (item.kind) {
  case Type::Kind::Bool:
    return DType::Bool;
  case Type::Kind::Int:
    return DType::Int64;
  case Type::Kind::Float:
    return DType::Float64;
  case Type::Kind::Complex:
    return DType::Complex128;
  default:
    return item.dtype;
  }
}
} // namespace

Value FunctionEmitter::listWord(const Val &list, int64_t word, Location l) {
  return builder.create<mlir::memref::LoadOp>(l, list.leaves[0],
                                              mlir::ValueRange{constIndexValue(word)});
}

void FunctionEmitter::markListChanged(const Val &list, Location l) {
  builder.create<mlir::memref::StoreOp>(l, constInt(1), list.leaves[0],
                                        mlir::ValueRange{constIndexValue(kListChanged)});
}

Value FunctionEmitter::listLength(const Val &list, Location l) {
  return listWord(list, kListLength, l);
}

Value FunctionEmitter::listItems(const Val &list, Location l) {
  ListItemLayout layout = listItemLayout(list.type.itemType());
  Value length = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), listLength(list, l));
  Type items = Type::array(listItemDType(list.type.itemType()), 1, /*contiguous=*/true);
  if (layout.words) { // the items' words, one after another
    items = Type::array(DType::Int64, 1, /*contiguous=*/true);
    length = builder.create<arith::MulIOp>(l, length, constIndexValue(layout.bytes / 8));
  }
  return builder.create<dialect::ListItemsOp>(l, module.memrefType(items),
                                              listWord(list, kListItems, l), length);
}

namespace {
/// Each leaf of a word-stored item: its type and its first word.
struct ItemLeaf {
  Type type;
  int64_t word;
};

void itemLeaves(const Type &type, int64_t &word, std::vector<ItemLeaf> &out) {
  if (type.kind == Type::Kind::Tuple) {
    for (const Type &element : type.elements)
      itemLeaves(element, word, out);
    return;
  }
  if (type.kind == Type::Kind::Array || type.isListBox()) {
    out.push_back({type, word});
    word += 3 + 2 * (type.kind == Type::Kind::Array ? type.ndim : 1);
    return;
  }
  for (size_t k = 0; k < type.numLeaves(); ++k) // (a complex value: two)
    out.push_back({type, word++});
}
} // namespace

Val FunctionEmitter::loadListItem(const Val &list, Value items, Value position, Location l) {
  const Type &itemType = list.type.itemType();
  ListItemLayout layout = listItemLayout(itemType);
  if (!layout.words) {
    // The same bits as the item's own type: only the type changes.
    Value at = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), position);
    Value raw = builder.create<mlir::memref::LoadOp>(l, items, mlir::ValueRange{at});
    Val item = fromStorage(raw, listItemDType(itemType), l);
    item.type = itemType;
    return item;
  }
  Value first = builder.create<arith::MulIOp>(l, position, constInt(layout.bytes / 8));
  return loadItemWords(items, first, itemType, l);
}

Val FunctionEmitter::loadItemWords(Value words, Value first, const Type &type, Location l) {
  int64_t count = 0;
  std::vector<ItemLeaf> leaves;
  itemLeaves(type, count, leaves);
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  Val item{type, {}};
  for (size_t k = 0; k < leaves.size(); ++k) {
    Value word = builder.create<arith::AddIOp>(l, first, constInt(leaves[k].word));
    mlir::Type leafType = types[k];
    if (auto memref = leafType.dyn_cast<mlir::MemRefType>()) {
      item.leaves.push_back(builder.create<dialect::LoadArrayOp>(l, itemSlot(words, word, memref)));
      continue;
    }
    Value at = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), word);
    Value raw = builder.create<mlir::memref::LoadOp>(l, words, mlir::ValueRange{at});
    unsigned width = leafType.getIntOrFloatBitWidth();
    if (width < 64)
      raw = builder.create<arith::TruncIOp>(l, builder.getIntegerType(width), raw);
    if (leafType.isa<mlir::FloatType>())
      raw = builder.create<arith::BitcastOp>(l, leafType, raw);
    item.leaves.push_back(raw);
  }
  return item;
}

Value FunctionEmitter::itemSlot(Value items, Value word, mlir::MemRefType memref) {
  Location l = here();
  Value base = builder.create<arith::IndexCastOp>(
      l, builder.getI64Type(),
      builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, items));
  Value address =
      builder.create<arith::AddIOp>(l, base, builder.create<arith::MulIOp>(l, word, constInt(8)));
  return builder.create<dialect::ItemSlotOp>(
      l, dialect::ArraySlotType::get(builder.getContext(), memref), address);
}

void FunctionEmitter::storeListItem(const Val &list, Value items, Value position, const Val &item,
                                    Location l) {
  const Type &itemType = list.type.itemType();
  ListItemLayout layout = listItemLayout(itemType);
  if (!layout.words) {
    DType dtype = listItemDType(itemType);
    Val same{Type::numpy(dtype), item.leaves}; // (typing made it the items' type)
    Value at = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), position);
    builder.create<mlir::memref::StoreOp>(l, toStorage(same, dtype, l), items,
                                          mlir::ValueRange{at});
    return;
  }
  Value first = builder.create<arith::MulIOp>(l, position, constInt(layout.bytes / 8));
  storeItemWords(items, first, itemType, item, l);
}

void FunctionEmitter::storeItemWords(Value words, Value first, const Type &type, const Val &item,
                                     Location l) {
  // The item's references move into the words (the caller claimed them).
  int64_t count = 0;
  std::vector<ItemLeaf> leaves;
  itemLeaves(type, count, leaves);
  for (size_t k = 0; k < leaves.size(); ++k) {
    Value word = builder.create<arith::AddIOp>(l, first, constInt(leaves[k].word));
    Value leaf = item.leaves[k];
    if (auto memref = leaf.getType().dyn_cast<mlir::MemRefType>()) {
      builder.create<dialect::StoreArrayOp>(l, leaf, itemSlot(words, word, memref));
      continue;
    }
    mlir::Type leafType = leaf.getType();
    unsigned width = leafType.getIntOrFloatBitWidth();
    if (leafType.isa<mlir::FloatType>())
      leaf = builder.create<arith::BitcastOp>(l, builder.getIntegerType(width), leaf);
    if (width < 64)
      leaf = builder.create<arith::ExtUIOp>(l, builder.getI64Type(), leaf);
    Value at = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), word);
    builder.create<mlir::memref::StoreOp>(l, leaf, words, mlir::ValueRange{at});
  }
}

void FunctionEmitter::releaseItem(const Val &item) {
  for (Value leaf : item.leaves)
    if (leaf.getType().isa<mlir::MemRefType>() && !terminated())
      builder.create<dialect::ReleaseOp>(here(), leaf);
}

void FunctionEmitter::adoptItem(const Val &item) {
  for (Value leaf : item.leaves)
    if (leaf.getType().isa<mlir::MemRefType>())
      temporaries.insert(leaf);
}

PyError FunctionEmitter::twoItemTypes() {
  return PyError("TypeError", "plait: a list was given items of two types through names that "
                              "compiled code could not link (give it its first item where it "
                              "is made)");
}

Value FunctionEmitter::callListRuntime(const char *name, std::vector<Value> args, Location l,
                                       const PyError *otherLayout) {
  llvm::SmallVector<mlir::Type> inputs;
  for (Value arg : args)
    inputs.push_back(arg.getType());
  module.declare(name, builder.getFunctionType(inputs, {builder.getI32Type()}));
  Value status =
      builder.create<mlir::func::CallOp>(l, name, mlir::TypeRange{builder.getI32Type()}, args)
          .getResult(0);
  // CPython's MemoryError when a list cannot grow has no message.
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, status, constInt(1, 32)),
        PyError("MemoryError", std::string(1, kNoArgumentsMessage)));
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, status, constInt(2, 32)),
        otherLayout ? *otherLayout : twoItemTypes());
  return status;
}

Value FunctionEmitter::boxAddress(const Val &list, Location l) {
  return builder.create<arith::IndexCastOp>(
      l, builder.getI64Type(),
      builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, list.leaves[0]));
}

Val FunctionEmitter::newList(const Type &type, Value length, Location l) {
  // (A box's aligned pointer is its allocated one: int64 words need no
  // alignment beyond malloc's, so the runtime finds its header.)
  Value box = allocateArray(Type::array(DType::Int64, 1, /*contiguous=*/true),
                            {constInt(kListWords)}, nullptr, l);
  Val list{type, {box}};
  ListItemLayout layout = listItemLayout(type.itemType());
  callListRuntime("plait_rt_list_init",
                  {boxAddress(list, l), length, constInt(layout.bytes),
                   constInt(static_cast<int64_t>(layout.owned))},
                  l);
  return list;
}

Val FunctionEmitter::settleListItems(const Val &list, const Type &to) {
  if (list.type.kind != Type::Kind::List)
    throw std::logic_error("internal: cannot convert " + list.type.str() + " to " + to.str());
  if (list.type.itemType().kind == Type::Kind::List)
    return {to, list.leaves}; // its lists settle when they first grow
  if (list.type.itemType().kind != Type::Kind::Bottom)
    throw std::logic_error("internal: cannot convert " + list.type.str() + " to " + to.str());
  Location l = here();
  // Through the runtime, which refuses a box given items of another size
  // already (a list reached through two names typing did not link).
  ListItemLayout layout = listItemLayout(to.itemType());
  module.declare(
      "plait_rt_list_settle",
      builder.getFunctionType({builder.getI64Type(), builder.getI64Type(), builder.getI64Type()},
                              {builder.getI32Type()}));
  Value status = builder
                     .create<mlir::func::CallOp>(
                         l, "plait_rt_list_settle", mlir::TypeRange{builder.getI32Type()},
                         mlir::ValueRange{boxAddress(list, l), constInt(layout.bytes),
                                          constInt(static_cast<int64_t>(layout.owned))})
                     .getResult(0);
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, status, constInt(0, 32)),
        twoItemTypes());
  return {to, list.leaves};
}

Val FunctionEmitter::emitListDisplay(const SExpr &display) {
  Location l = loc(display);
  const Type &type = spec.typeOf(display);
  std::vector<Val> items; // evaluated first, as CPython does
  for (const SExpr *element : ast::elts(display)) {
    if (!ast::is(*element, ast::NodeKind::Starred)) {
      items.push_back(convert(claim(emitExpr(*element)), type.itemType()));
      continue;
    }
    Val tuple = emitExpr(ast::value(*element)); // [*t]: its elements
    for (size_t k = 0; k < tuple.type.elements.size(); ++k)
      items.push_back(convert(claim(tupleElement(tuple, k)), type.itemType()));
  }
  Val list = newList(type, constInt(static_cast<int64_t>(items.size())), l);
  if (items.empty())
    return list;
  Value view = listItems(list, l);
  for (size_t k = 0; k < items.size(); ++k)
    storeListItem(list, view, constInt(static_cast<int64_t>(k)), items[k], l);
  return list;
}

Value FunctionEmitter::listPosition(const Val &list, const Val &index, const char *message,
                                    Location l) {
  Value i = convert(index, Type::integer()).leaves[0];
  Value length = listLength(list, l);
  Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(0));
  Value position =
      builder.create<arith::SelectOp>(l, negative, builder.create<arith::AddIOp>(l, i, length), i);
  // Below zero or at the length and above, in one unsigned comparison.
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::uge, position, length),
        PyError("IndexError", message));
  return position;
}

Val FunctionEmitter::emitListSubscript(const SExpr &subscript) {
  Location l = loc(subscript);
  Val list = emitExpr(ast::value(subscript));
  if (list.type.isStr())
    list = runtimeStrOf(list, l);
  const SExpr &index = ast::slice(subscript);
  if (!ast::is(index, ast::NodeKind::Slice)) {
    Value position = listPosition(list, emitExpr(index), "list index out of range", l);
    Val item = loadListItem(list, listItems(list, l), position, l);
    freeIfTemporary(list);
    return item;
  }
  // A new list of the slice's items (CPython's PySlice_AdjustIndices).
  std::array<Value, 3> given{};
  const SExpr *parts[3] = {&ast::lower(index), &ast::upper(index), &ast::step(index)};
  for (int p = 0; p < 3; ++p)
    if (!ast::isNone(*parts[p]))
      given[p] = convert(emitExpr(*parts[p]), Type::integer()).leaves[0];
  auto slice = builder.create<dialect::SliceOp>(l, builder.getI64Type(), builder.getI64Type(),
                                                builder.getI64Type(), listLength(list, l), given[0],
                                                given[1], given[2]);
  Val copy = newList(list.type, slice.getCount(), l);
  if (list.type.itemType().kind == Type::Kind::Bottom) { // (never filled: no items)
    freeIfTemporary(list);
    return copy;
  }
  Value from = listItems(list, l), to = listItems(copy, l);
  countedLoop(slice.getCount(), [&](Value k) {
    Value at = builder.create<arith::AddIOp>(
        l, slice.getFirst(), builder.create<arith::MulIOp>(l, k, slice.getIncrement()));
    storeListItem(copy, to, k, claim(loadListItem(list, from, at, l)), l);
  });
  freeIfTemporary(list);
  return copy;
}

void FunctionEmitter::storeListElement(const SExpr &target, const Val &value) {
  Location l = loc(target);
  Val list = emitExpr(ast::value(target));
  Value position =
      listPosition(list, emitExpr(ast::slice(target)), "list assignment index out of range", l);
  Val item = convert(claim(value), list.type.itemType());
  Value items = listItems(list, l);
  // The item it replaces goes after the store, as in CPython's list.
  bool owns = listItemLayout(list.type.itemType()).owned != 0;
  Val replaced = owns ? loadListItem(list, items, position, l) : Val{};
  storeListItem(list, items, position, item, l);
  releaseItem(replaced);
  markListChanged(list, l);
  freeIfTemporary(list);
}

Val FunctionEmitter::emitListMethod(const SExpr &call, const std::string &method) {
  Location l = loc(call);
  Val list = emitExpr(ast::value(ast::func(call)));
  Val result{Type::none(), {}};
  if (method == "append") {
    // The item first: it may change the list (l.append(l.pop())).
    Val item = convert(claim(emitExpr(*ast::args(call).rest().at(0))), list.type.itemType());
    Value length = listLength(list, l);
    Value grown = builder.create<arith::AddIOp>(l, length, constInt(1));
    // (A list made as `[]` inside another list takes its layout here.)
    ListItemLayout layout = listItemLayout(list.type.itemType());
    callListRuntime("plait_rt_list_reserve",
                    {boxAddress(list, l), grown, constInt(layout.bytes),
                     constInt(static_cast<int64_t>(layout.owned))},
                    l);
    builder.create<mlir::memref::StoreOp>(l, grown, list.leaves[0],
                                          mlir::ValueRange{constIndexValue(kListLength)});
    storeListItem(list, listItems(list, l), length, item, l);
  } else { // pop(): the last item
    Value length = listLength(list, l);
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, length, constInt(0)),
          PyError("IndexError", "pop from empty list"));
    Value last = builder.create<arith::SubIOp>(l, length, constInt(1));
    result = loadListItem(list, listItems(list, l), last, l);
    adoptItem(result); // (the list's reference is the caller's now)
    builder.create<mlir::memref::StoreOp>(l, last, list.leaves[0],
                                          mlir::ValueRange{constIndexValue(kListLength)});
  }
  markListChanged(list, l);
  freeIfTemporary(list);
  return result;
}

} // namespace plait::frontend::detail
