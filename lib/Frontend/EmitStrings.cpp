//===- EmitStrings.cpp - strs computed at run time ------------------------===//
//
// A run-time str is a list's box of int64 code points (docs/design/
// strings.md): a constant becomes one where it meets a run-time str, an
// f-string joins its parts' boxes, and the primitives python/plait/
// _strings.py writes the str methods with are a view of the box as a
// list[int] and the runtime's spelling of numbers (plait/Runtime/Strings.h).
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Runtime/Lists.h"

#include <set>

namespace plait::frontend::detail {

namespace {
/// The code points of UTF-8 `text` (the snapshot's strs are valid UTF-8).
std::vector<int64_t> codePoints(const std::string &text) {
  std::vector<int64_t> points;
  for (size_t k = 0; k < text.size();) {
    auto byte = static_cast<unsigned char>(text[k]);
    int extra = byte < 0x80 ? 0 : byte < 0xE0 ? 1 : byte < 0xF0 ? 2 : 3;
    int64_t point = extra == 0 ? byte : byte & (0x3F >> extra);
    for (int i = 1; i <= extra && k + i < text.size(); ++i)
      point = point << 6 | (static_cast<unsigned char>(text[k + i]) & 0x3F);
    points.push_back(point);
    k += static_cast<size_t>(extra) + 1;
  }
  return points;
}
} // namespace

Val FunctionEmitter::strConstant(const std::string &text, Location l) {
  std::vector<int64_t> points = codePoints(text);
  Val str = newList(Type::runtimeStr(), constInt(static_cast<int64_t>(points.size())), l);
  if (points.empty())
    return str;
  Value items = listItems(str, l);
  for (size_t k = 0; k < points.size(); ++k)
    builder.create<mlir::memref::StoreOp>(
        l, constInt(points[k]), items, mlir::ValueRange{constIndexValue(static_cast<int64_t>(k))});
  return str;
}

Val FunctionEmitter::filledStr(const char *runtime, std::vector<Value> args, Location l) {
  Val str = newList(Type::runtimeStr(), constInt(0), l);
  args.insert(args.begin(), boxAddress(str, l));
  callListRuntime(runtime, std::move(args), l); // (1: MemoryError, as a list's)
  return str;
}

Val FunctionEmitter::runtimeStrOf(const Val &value, Location l) {
  if (value.type.kind == Type::Kind::String)
    return strConstant(value.type.text, l);
  return value;
}

Val FunctionEmitter::boxAtAddress(Value address, const Type &type, Location l) {
  // The memref of a box whose address a word holds (a list's box is its
  // own allocation: allocated and aligned pointers are one), read through
  // an item slot as list items are.
  Value descriptor = stackBuffer(5);
  Value words[5] = {address, address, constInt(0), constInt(kListWords), constInt(1)};
  for (int64_t k = 0; k < 5; ++k)
    builder.create<mlir::memref::StoreOp>(l, words[k], descriptor,
                                          mlir::ValueRange{constIndexValue(k)});
  llvm::SmallVector<mlir::Type, 1> leaf;
  leafTypes(type, leaf);
  Value slot = itemSlot(descriptor, constInt(0), leaf[0].cast<mlir::MemRefType>());
  return {type, {builder.create<dialect::LoadArrayOp>(l, slot)}};
}

Val FunctionEmitter::runtimeStrIfStr(const Val &value, Location l) {
  return value.type.isStr() ? runtimeStrOf(value, l) : value;
}

Val FunctionEmitter::loadSequenceItem(const Val &sequence, Value k, Location l) {
  Val item = loadListItem(sequence, listItems(sequence, l), k, l);
  if (sequence.type.kind != Type::Kind::Str)
    return item;
  // A str's item: a new str of that one code point.
  Val character = newList(Type::runtimeStr(), constInt(1), l);
  builder.create<mlir::memref::StoreOp>(l, item.leaves[0], listItems(character, l),
                                        mlir::ValueRange{constIndexValue(0)});
  return character;
}

Val FunctionEmitter::emitFormattedString(const SExpr &joined) {
  Location l = loc(joined);
  const Type &type = spec.typeOf(joined);
  if (type.kind == Type::Kind::String)
    return {type, {}}; // every part a constant
  std::vector<Val> parts;
  std::string constant;
  auto flush = [&] {
    if (!constant.empty())
      parts.push_back(strConstant(constant, l));
    constant.clear();
  };
  for (const SExpr *part : ast::values(joined)) {
    if (!ast::is(*part, ast::NodeKind::FormattedValue)) {
      constant += ast::value(*part).text;
      continue;
    }
    flush();
    parts.push_back(runtimeStrOf(emitJitCall(*part), l)); // format() of the field
  }
  flush();
  if (parts.size() == 1)
    return parts[0];
  Value boxes = stackBuffer(parts.size());
  for (size_t k = 0; k < parts.size(); ++k)
    builder.create<mlir::memref::StoreOp>(
        l, boxAddress(parts[k], l), boxes,
        mlir::ValueRange{constIndexValue(static_cast<int64_t>(k))});
  Val joinedStr =
      filledStr("plait_rt_str_concat",
                {bufferAddress(boxes, l), constInt(static_cast<int64_t>(parts.size()))}, l);
  for (const Val &part : parts)
    freeIfTemporary(part);
  return joinedStr;
}

std::optional<Val> FunctionEmitter::emitStrIntrinsic(const SExpr &call, const std::string &name) {
  static const std::set<std::string> names = {
      "str_codes",        "str_of_codes",   "str_of_int",   "str_of_float",   "str_format_int",
      "str_format_float", "str_format_str", "str_to_float", "str_number_text"};
  if (!names.count(name))
    return std::nullopt;
  Location l = loc(call);
  std::vector<const SExpr *> args = ast::args(call).rest();
  Val first = emitExpr(*args[0]);
  if (name == "str_codes" || name == "str_of_codes") {
    // The same box under the other type: a reference of its own.
    Val same = claim(runtimeStrOf(first, l));
    temporaries.insert(same.leaves[0]);
    return Val{spec.typeOf(call), same.leaves};
  }
  std::vector<Value> words;
  Val text;
  if (name == "str_format_str" || name == "str_to_float" || name == "str_number_text") {
    text = runtimeStrOf(first, l);
    words.push_back(boxAddress(text, l));
  } else if (name == "str_of_float" || name == "str_format_float") {
    words.push_back(convert(first, Type::floating()).leaves[0]);
  } else {
    words.push_back(convert(first, Type::integer()).leaves[0]);
  }
  for (size_t k = 1; k < args.size(); ++k)
    words.push_back(convert(emitExpr(*args[k]), Type::integer()).leaves[0]);
  if (name == "str_to_float") {
    // (status, value): 1 when the str is no float literal.
    Value slot = stackBuffer(1);
    module.declare("plait_rt_str_to_float",
                   builder.getFunctionType({builder.getI64Type(), builder.getIndexType()},
                                           {builder.getI32Type()}));
    Value status = builder
                       .create<mlir::func::CallOp>(l, "plait_rt_str_to_float",
                                                   mlir::TypeRange{builder.getI32Type()},
                                                   mlir::ValueRange{words[0], outPointer(slot)})
                       .getResult(0);
    Value bits =
        builder.create<mlir::memref::LoadOp>(l, slot, mlir::ValueRange{constIndexValue(0)});
    Value value = builder.create<arith::BitcastOp>(l, builder.getF64Type(), bits);
    freeIfTemporary(text);
    freeIfTemporary(first);
    return Val{spec.typeOf(call),
               {builder.create<arith::ExtSIOp>(l, builder.getI64Type(), status), value}};
  }
  std::string runtime = "plait_rt_" + name;
  Val made = filledStr(runtime.c_str(), words, l);
  if (text.leaves.size())
    freeIfTemporary(text);
  freeIfTemporary(first);
  return made;
}

} // namespace plait::frontend::detail
