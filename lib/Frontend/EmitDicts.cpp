//===- EmitDicts.cpp - typed dicts ----------------------------------------===//
//
// A dict is its box (plait/Runtime/Dicts.h), owned as lists and arrays are.
// Each entry is int64 words: the key's K (normalised, so that equal keys
// have equal words: -0.0 is 0.0, NumPy floats are float64; one per number,
// a tuple's elements in order), the value's two (a complex value takes
// both), the key's K as first put in (what the dict gives back: CPython
// keeps the first key object), and the alive flag. The runtime finds and
// inserts keys; the emitter reads and writes values through a
// plait.list_items view of the entries, made where they stand.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Runtime/Dicts.h"

namespace plait::frontend::detail {

namespace {
/// An entry's layout (Dicts.h): K key words, V value words, K original key
/// words, the alive flag.
struct EntryLayout {
  int64_t K, V;
  uint64_t owned; // the value's words that are references it owns
  bool itemWords; // the value stored as a list item is (not two scalar words)
  uint64_t strKeys; // the key's words that are strs
  int64_t words() const { return 2 * K + V + 1; }
  int64_t originalKey() const { return K + V; }
  int64_t alive() const { return 2 * K + V; }
};

EntryLayout entryLayout(const Type &dict) {
  ListItemLayout value = dictValueLayout(dict.valueType());
  return {dictKeyWords(dict.keyType()), value.bytes / 8, value.owned, value.words,
          dictStrKeyWords(dict.keyType())};
}

/// The scalar types of a key's words, in order.
void keyScalars(const Type &key, std::vector<Type> &out) {
  if (key.kind != Type::Kind::Tuple) {
    out.push_back(key);
    return;
  }
  for (const Type &element : key.elements)
    keyScalars(element, out);
}
} // namespace

llvm::SmallVector<Value, 2> FunctionEmitter::keyWordsOf(const Val &key, const Type &keyType,
                                                        Location l) {
  Val given = convert(key, keyType);
  for (size_t k = 0; k < given.leaves.size(); ++k)
    if (given.leaves[k].getType().isa<mlir::MemRefType>() &&
        (k >= key.leaves.size() || given.leaves[k] != key.leaves[k]))
      madeKeys.push_back(given.leaves[k]); // a str constant made a box: freed after the call
  std::vector<Type> scalars;
  keyScalars(keyType, scalars);
  llvm::SmallVector<Value, 2> words;
  for (size_t k = 0; k < scalars.size(); ++k) {
    const Type &t = scalars[k];
    Val leaf{t, {given.leaves[k]}};
    if (t.kind == Type::Kind::Str) // its box: the runtime compares its text
      words.push_back(boxAddress(leaf, l));
    else if (t.kind == Type::Kind::Bool || (t.isNumPy() && t.dtype == DType::Bool))
      words.push_back(builder.create<arith::ExtUIOp>(l, builder.getI64Type(), leaf.leaves[0]));
    else if (t.kind == Type::Kind::Int)
      words.push_back(leaf.leaves[0]);
    else if (t.isNumPy() && !isFloatDType(t.dtype))
      words.push_back(castNumPy(leaf, DType::Int64).leaves[0]); // (uint64: the same bits)
    else
      words.push_back(builder.create<arith::BitcastOp>(
          l, builder.getI64Type(),
          t.isNumPy() ? castNumPy(leaf, DType::Float64).leaves[0] : leaf.leaves[0]));
  }
  return words;
}

llvm::SmallVector<Value, 2> FunctionEmitter::normalisedKeyWords(llvm::ArrayRef<Value> words,
                                                                const Type &keyType, Location l) {
  std::vector<Type> scalars;
  keyScalars(keyType, scalars);
  llvm::SmallVector<Value, 2> normalised;
  for (size_t k = 0; k < words.size(); ++k) {
    if (!scalars[k].isFloating()) {
      normalised.push_back(words[k]);
      continue;
    }
    // -0.0 and 0.0 are one key: the bits of both zeros become 0.
    Value magnitude = builder.create<arith::AndIOp>(l, words[k], constInt(INT64_MAX));
    Value isZero =
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, magnitude, constInt(0));
    normalised.push_back(builder.create<arith::SelectOp>(l, isZero, constInt(0), words[k]));
  }
  return normalised;
}

Val FunctionEmitter::keyOfWords(llvm::ArrayRef<Value> words, const Type &keyType, Location l) {
  std::vector<Type> scalars;
  keyScalars(keyType, scalars);
  Val key{keyType, {}};
  for (size_t k = 0; k < scalars.size(); ++k) {
    const Type &t = scalars[k];
    Value word = words[k];
    Val leaf;
    if (t.kind == Type::Kind::Str) {
      leaf = boxAtAddress(word, t, l); // (the dict's reference: borrowed)
    } else if (t.kind == Type::Kind::Bool || (t.isNumPy() && t.dtype == DType::Bool)) {
      leaf = {t, {builder.create<arith::TruncIOp>(l, builder.getI1Type(), word)}};
    } else if (t.kind == Type::Kind::Int) {
      leaf = {t, {word}};
    } else if (t.isNumPy() && !isFloatDType(t.dtype)) {
      leaf = castNumPy(Val{Type::numpy(DType::Int64), {word}}, t.dtype);
    } else {
      Value f = builder.create<arith::BitcastOp>(l, builder.getF64Type(), word);
      leaf = t.isNumPy() ? castNumPy(Val{Type::numpy(DType::Float64), {f}}, t.dtype) : Val{t, {f}};
    }
    key.leaves.append(leaf.leaves.begin(), leaf.leaves.end());
  }
  return key;
}

std::array<Value, 2> FunctionEmitter::dictValueWords(const Val &value, const Type &valueType,
                                                     Location l) {
  Val v = convert(value, valueType);
  const Type &t = valueType;
  auto bits = [&](Value f) { return builder.create<arith::BitcastOp>(l, builder.getI64Type(), f); };
  if (t.isComplex()) {
    Val wide = t.isNumPy() ? castNumPy(v, DType::Complex128) : v;
    auto [re, im] = complexParts(wide, Type::complex());
    return {bits(re), bits(im)};
  }
  Value word;
  if (t.kind == Type::Kind::Bool || (t.isNumPy() && t.dtype == DType::Bool))
    word = builder.create<arith::ExtUIOp>(l, builder.getI64Type(), v.leaves[0]);
  else if (t.kind == Type::Kind::Int)
    word = v.leaves[0];
  else if (t.kind == Type::Kind::Float)
    word = bits(v.leaves[0]);
  else if (isFloatDType(t.dtype)) // exact in float64, and back
    word = bits(castNumPy(v, DType::Float64).leaves[0]);
  else
    word = castNumPy(v, DType::Int64).leaves[0];
  return {word, constInt(0)};
}

Val FunctionEmitter::dictValueOfWords(Value first, Value second, const Type &valueType,
                                      Location l) {
  const Type &t = valueType;
  auto real = [&](Value word) {
    return builder.create<arith::BitcastOp>(l, builder.getF64Type(), word);
  };
  if (t.isComplex()) {
    Val z{Type::complex(), {real(first), real(second)}};
    return t.isNumPy() ? castNumPy(z, t.dtype) : z;
  }
  if (t.kind == Type::Kind::Bool || (t.isNumPy() && t.dtype == DType::Bool))
    return {t, {builder.create<arith::TruncIOp>(l, builder.getI1Type(), first)}};
  if (t.kind == Type::Kind::Int)
    return {t, {first}};
  if (t.kind == Type::Kind::Float)
    return {t, {real(first)}};
  if (isFloatDType(t.dtype))
    return castNumPy(Val{Type::numpy(DType::Float64), {real(first)}}, t.dtype);
  return castNumPy(Val{Type::numpy(DType::Int64), {first}}, t.dtype);
}

Value FunctionEmitter::dictEntries(const Val &dict, Location l) {
  // All the entries made (dead ones too), as one array of words.
  Value used = listWord(dict, kDictUsed, l);
  Value words = builder.create<arith::MulIOp>(l, used, constInt(entryLayout(dict.type).words()));
  Type view = Type::array(DType::Int64, 1, /*contiguous=*/true);
  return builder.create<dialect::ListItemsOp>(
      l, module.memrefType(view), listWord(dict, kDictEntries, l),
      builder.create<arith::IndexCastOp>(l, builder.getIndexType(), words));
}

Value FunctionEmitter::dictEntryWord(Value entries, Value entry, int64_t entryWords, int64_t word,
                                     Location l) {
  Value at = builder.create<arith::AddIOp>(
      l, builder.create<arith::MulIOp>(l, entry, constInt(entryWords)), constInt(word));
  return builder.create<mlir::memref::LoadOp>(
      l, entries,
      mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), at)});
}

Val FunctionEmitter::newDict(const Type &type, Location l) {
  Value box = allocateArray(Type::array(DType::Int64, 1, /*contiguous=*/true),
                            {constInt(kDictWords)}, nullptr, l);
  Val dict{type, {box}};
  callListRuntime("plait_rt_dict_init",
                  {boxAddress(dict, l), constInt(entryLayout(type).K),
                   constInt(entryLayout(type).V),
                   constInt(static_cast<int64_t>(entryLayout(type).owned)),
                   constInt(static_cast<int64_t>(entryLayout(type).strKeys))},
                  l);
  return dict;
}

Value FunctionEmitter::wordsAddress(llvm::ArrayRef<Value> words, Location l) {
  Value slot;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    slot = builder.create<mlir::memref::AllocaOp>(
        l, mlir::MemRefType::get({static_cast<int64_t>(words.size())}, builder.getI64Type()));
  }
  for (size_t k = 0; k < words.size(); ++k)
    builder.create<mlir::memref::StoreOp>(l, words[k], slot, mlir::ValueRange{constIndexValue(k)});
  return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), outPointer(slot));
}

Value FunctionEmitter::dictFind(const Val &dict, llvm::ArrayRef<Value> keyWords, Location l) {
  llvm::SmallVector<Value, 2> key = normalisedKeyWords(keyWords, dict.type.keyType(), l);
  llvm::SmallVector<mlir::Type> inputs(2, builder.getI64Type());
  module.declare("plait_rt_dict_find", builder.getFunctionType(inputs, {builder.getI64Type()}));
  Value entry = builder
                    .create<mlir::func::CallOp>(
                        l, "plait_rt_dict_find", mlir::TypeRange{builder.getI64Type()},
                        mlir::ValueRange{boxAddress(dict, l), wordsAddress(key, l)})
                    .getResult(0);
  freeMadeKeys();
  return entry;
}

void FunctionEmitter::freeMadeKeys() {
  for (Value made : madeKeys)
    freeIfTemporary(Val{Type::runtimeStr(), {made}});
  madeKeys.clear();
}

Value FunctionEmitter::dictInsert(const Val &dict, llvm::ArrayRef<Value> keyWords, Location l) {
  Value key = wordsAddress(normalisedKeyWords(keyWords, dict.type.keyType(), l), l);
  Value original = wordsAddress(keyWords, l);
  if (!i64Out)
    i64Out = alloca(builder.getI64Type());
  Value out = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), outPointer(i64Out));
  PyError twoKeyTypes("TypeError", "plait: a dict was given items of two types through names "
                                   "that compiled code could not link (give it its first item "
                                   "where it is made)");
  EntryLayout layout = entryLayout(dict.type);
  callListRuntime("plait_rt_dict_insert",
                  {boxAddress(dict, l), key, original, out, constInt(layout.K), constInt(layout.V),
                   constInt(static_cast<int64_t>(layout.owned)),
                   constInt(static_cast<int64_t>(layout.strKeys))},
                  l, &twoKeyTypes);
  freeMadeKeys(); // (a new entry retained its strs)
  return builder.create<mlir::memref::LoadOp>(l, i64Out);
}

void FunctionEmitter::raiseKeyError(Value missing, const Val &key, Location l) {
  // KeyError(key): the exception holds the key itself, recorded only when
  // it is missing (a str key is copied).
  Block *raising = newBlock(), *found = newBlock();
  builder.create<mlir::cf::CondBranchOp>(l, missing, raising, found);
  startBlock(raising);
  llvm::SmallVector<Value> values;
  std::string kind = recordValue(key, values, l);
  checkWithArgs(constInt(1, 1), PyError("KeyError", std::string(1, kValueMessage) + kind), values);
  branch(found);
  startBlock(found);
}

Val FunctionEmitter::emitDictDisplay(const SExpr &display) {
  Location l = loc(display);
  const Type &type = spec.typeOf(display);
  std::vector<std::pair<Val, Val>> items; // evaluated first, as CPython does
  std::vector<const SExpr *> keys = ast::dictKeys(display), values = ast::dictValues(display);
  for (size_t k = 0; k < keys.size(); ++k) {
    Val key = emitExpr(*keys[k]);
    items.emplace_back(key, emitExpr(*values[k]));
  }
  Val dict = newDict(type, l);
  for (auto &[key, value] : items)
    storeDictValue(dict, key, value, l);
  return dict;
}

void FunctionEmitter::storeDictValue(const Val &dict, const Val &key, const Val &given,
                                     Location l) {
  EntryLayout layout = entryLayout(dict.type);
  // (Claimed first: a temporary's reference moves into the dict.)
  Val value = layout.itemWords ? convert(claim(given), dict.type.valueType()) : given;
  Value entry = dictInsert(dict, keyWordsOf(key, dict.type.keyType(), l), l);
  freeIfTemporary(key); // (a new entry retained it)
  Value entries = dictEntries(dict, l);
  Value first = builder.create<arith::AddIOp>(
      l, builder.create<arith::MulIOp>(l, entry, constInt(layout.words())), constInt(layout.K));
  if (layout.itemWords) {
    // The value it replaces goes after the store, as in CPython's dict (a
    // new entry's words are zero: nothing to release).
    Val replaced = layout.owned ? loadItemWords(entries, first, dict.type.valueType(), l) : Val{};
    storeItemWords(entries, first, dict.type.valueType(), value, l);
    releaseItem(replaced);
    markDictChanged(dict, l);
    return;
  }
  auto words = dictValueWords(value, dict.type.valueType(), l);
  for (int64_t w = 0; w < 2; ++w) {
    Value at = builder.create<arith::AddIOp>(l, first, constInt(w));
    builder.create<mlir::memref::StoreOp>(
        l, words[w], entries,
        mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), at)});
  }
  markDictChanged(dict, l);
}

void FunctionEmitter::markDictChanged(const Val &dict, Location l) {
  builder.create<mlir::memref::StoreOp>(l, constInt(1), dict.leaves[0],
                                        mlir::ValueRange{constIndexValue(kDictChanged)});
}

Val FunctionEmitter::loadDictValue(const Val &dict, Value entry, Location l) {
  return loadEntryValue(dict, dictEntries(dict, l), entry, l);
}

Val FunctionEmitter::loadEntryValue(const Val &dict, Value entries, Value entry, Location l) {
  EntryLayout layout = entryLayout(dict.type);
  if (layout.itemWords) {
    Value first = builder.create<arith::AddIOp>(
        l, builder.create<arith::MulIOp>(l, entry, constInt(layout.words())), constInt(layout.K));
    return loadItemWords(entries, first, dict.type.valueType(), l);
  }
  return dictValueOfWords(dictEntryWord(entries, entry, layout.words(), layout.K, l),
                          dictEntryWord(entries, entry, layout.words(), layout.K + 1, l),
                          dict.type.valueType(), l);
}

Val FunctionEmitter::emitDictSubscript(const SExpr &subscript) {
  Location l = loc(subscript);
  Val dict = emitExpr(ast::value(subscript));
  Val key = emitExpr(ast::slice(subscript));
  Value entry = dictFind(dict, keyWordsOf(key, dict.type.keyType(), l), l);
  raiseKeyError(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, entry, constInt(0)),
                key, l);
  freeIfTemporary(key);
  Val value = loadDictValue(dict, entry, l);
  freeIfTemporary(dict);
  return value;
}

void FunctionEmitter::storeDictElement(const SExpr &target, const Val &value) {
  Location l = loc(target);
  Val dict = emitExpr(ast::value(target));
  storeDictValue(dict, emitExpr(ast::slice(target)), value, l);
  freeIfTemporary(dict);
}

void FunctionEmitter::emitDelete(const SExpr &stmt) {
  for (const SExpr *target : ast::targets(stmt).rest()) {
    if (spec.jitCalls.count(target)) { // del l[i]: plait.overload's
      emitJitCall(*target);
      continue;
    }
    Location l = loc(*target);
    Val dict = emitExpr(ast::value(*target));
    Val key = emitExpr(ast::slice(*target));
    if (dict.type.keyType().kind == Type::Kind::Bottom) { // never filled: no key is in it
      raiseKeyError(constInt(1, 1), key, l);
      freeIfTemporary(dict);
      continue;
    }
    Value entry = dictFind(dict, keyWordsOf(key, dict.type.keyType(), l), l);
    raiseKeyError(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, entry, constInt(0)),
                  key, l);
    freeIfTemporary(key);
    module.declare("plait_rt_dict_erase",
                   builder.getFunctionType({builder.getI64Type(), builder.getI64Type()}, {}));
    builder.create<mlir::func::CallOp>(l, "plait_rt_dict_erase", mlir::TypeRange{},
                                       mlir::ValueRange{boxAddress(dict, l), entry});
    markDictChanged(dict, l);
    freeIfTemporary(dict);
  }
}

Value FunctionEmitter::emitDictContains(const SExpr &compare) {
  Location l = loc(compare);
  Val key = emitExpr(ast::left(compare));
  Val dict = emitExpr(*ast::comparators(compare).rest().at(0));
  if (dict.type.keyType().kind == Type::Kind::Bottom) { // never filled: empty
    freeIfTemporary(dict);
    return constInt(0, 1);
  }
  Value entry = dictFind(dict, keyWordsOf(key, dict.type.keyType(), l), l);
  freeIfTemporary(key);
  freeIfTemporary(dict);
  return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, entry, constInt(0));
}

Val FunctionEmitter::emitDictGet(const SExpr &call) {
  Location l = loc(call);
  Val dict = emitExpr(ast::value(ast::func(call)));
  std::vector<const SExpr *> args = ast::args(call).rest();
  Val key = emitExpr(*args[0]);
  Val fallback = emitExpr(*args[1]);
  if (dict.type.keyType().kind == Type::Kind::Bottom) { // never filled: the default
    freeIfTemporary(dict);
    return fallback;
  }
  // Values holding arrays or lists: the result owns a reference whichever
  // side gave it (a temporary of its own, as x if c else y's).
  bool owns = entryLayout(dict.type).owned != 0;
  if (owns)
    fallback = claim(fallback);
  fallback = convert(fallback, spec.typeOf(call)); // (a contiguous array as any strides)
  Value entry = dictFind(dict, keyWordsOf(key, dict.type.keyType(), l), l);
  freeIfTemporary(key);
  Value found = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, entry, constInt(0));
  // The entry is read only where it exists (its index is -1 otherwise).
  Block *present = newBlock(), *done = newBlock();
  llvm::SmallVector<mlir::Type> types;
  leafTypes(fallback.type, types);
  for (mlir::Type t : types)
    done->addArgument(t, l);
  builder.create<mlir::cf::CondBranchOp>(l, found, present, mlir::ValueRange{}, done,
                                         mlir::ValueRange(fallback.leaves));
  startBlock(present);
  Val value = convert(loadDictValue(dict, entry, l), fallback.type);
  if (owns) {
    value = claim(value);
    releaseItem(fallback); // (not the result on this path)
  }
  builder.create<mlir::cf::BranchOp>(l, done, mlir::ValueRange(value.leaves));
  startBlock(done);
  freeIfTemporary(dict);
  Val result{fallback.type, {}};
  for (mlir::BlockArgument argument : done->getArguments()) {
    result.leaves.push_back(argument);
    if (owns && argument.getType().isa<mlir::MemRefType>())
      temporaries.insert(argument);
  }
  return result;
}

Val FunctionEmitter::settleDictTypes(const Val &dict, const Type &to) {
  // Every box has room for any value (two words): only the type changes.
  return {to, dict.leaves};
}

void FunctionEmitter::emitDictLoop(const SExpr &stmt, const Iterable &iterable) {
  // CPython's dict iterators: entries in insertion order, dead ones skipped;
  // a change of size meanwhile is a RuntimeError at the next step.
  Location l = loc(stmt);
  size_t mark = loopHolds.size();
  Val dict = holdForLoop(emitExpr(*dictOf(iterable)));
  Value position = alloca(builder.getI64Type());
  builder.create<mlir::memref::StoreOp>(l, constInt(0), position);
  Value size = listWord(dict, kDictLength, l);
  emitIteratorLoop(stmt, [&](Block *header, Block *orElse) {
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, listWord(dict, kDictLength, l),
                                        size),
          PyError("RuntimeError", "dictionary changed size during iteration"));
    Value k = builder.create<mlir::memref::LoadOp>(l, position);
    Block *step = newBlock(), *body = newBlock();
    builder.create<mlir::cf::CondBranchOp>(
        l,
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, k,
                                      listWord(dict, kDictUsed, l)),
        step, orElse);
    startBlock(step); // (a dead entry: the next one)
    builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                          position);
    Value entries = dictEntries(dict, l);
    EntryLayout layout = entryLayout(dict.type);
    Value alive = builder.create<arith::CmpIOp>(
        l, arith::CmpIPredicate::ne, dictEntryWord(entries, k, layout.words(), layout.alive(), l),
        constInt(0));
    builder.create<mlir::cf::CondBranchOp>(l, alive, body, header);
    startBlock(body);
    llvm::SmallVector<Value, 2> original;
    for (int64_t w = 0; w < layout.K; ++w)
      original.push_back(dictEntryWord(entries, k, layout.words(), layout.originalKey() + w, l));
    Val key = keyOfWords(original, dict.type.keyType(), l);
    if (iterable.dictView == Iterable::DictView::Keys)
      return key;
    Val value = loadEntryValue(dict, entries, k, l);
    if (iterable.dictView == Iterable::DictView::Values)
      return value;
    Val item{iterable.element, key.leaves};
    item.leaves.append(value.leaves.begin(), value.leaves.end());
    return item;
  });
  releaseLoopHolds(mark);
  freeIfTemporary(dict);
}

const SExpr *FunctionEmitter::dictOf(const Iterable &iterable) {
  // `for k in d` or `for k, v in d.items()`: the dict.
  const SExpr &node = *iterable.node;
  if (ast::is(node, ast::NodeKind::Call))
    return &ast::value(ast::func(node));
  return &node;
}

} // namespace plait::frontend::detail
