//===- EmitPrint.cpp - print() through the interpreter --------------------===//
//
// print(...) becomes one call of the runtime's plait_rt_print with the
// address of a stack buffer of words: the length of a descriptor, the
// descriptor's bytes, then the values' words (docs/design/print.md). The
// dispatcher's handler rebuilds the Python values and calls builtins.print
// with the interpreter attached; an exception it raised propagates.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

namespace {

/// "s<length>:<bytes>": a string constant in a descriptor.
std::string stringItem(const std::string &text) {
  return "s" + std::to_string(text.size()) + ":" + text;
}

} // namespace

std::string FunctionEmitter::itemKind(const Type &item) {
  // A scalar's item letter (`n`: never typed, so there are none), an
  // array's `a`, dtype and axes, a list's `L` and its items', a tuple's in
  // parentheses.
  switch (item.kind) {
  case Type::Kind::Int:
    return "i";
  case Type::Kind::Bool:
    return "b";
  case Type::Kind::Float:
    return "f";
  case Type::Kind::Complex:
    return "c";
  case Type::Kind::NumPy:
    return std::string{'N', dtypeInfo(item.dtype).dispatchCode};
  case Type::Kind::Array:
    return std::string{'a', dtypeInfo(item.dtype).dispatchCode, static_cast<char>('0' + item.ndim)};
  case Type::Kind::List:
    return "L" + itemKind(item.itemType());
  case Type::Kind::Str:
    return "S";
  case Type::Kind::Tuple: {
    std::string kind = "(";
    for (const Type &element : item.elements)
      kind += itemKind(element);
    return kind + ")";
  }
  default:
    return "n";
  }
}

Val FunctionEmitter::emitPrint(const SExpr &node) {
  Location l = loc(node);
  std::string descriptor;
  llvm::SmallVector<Value> words;
  std::vector<Val> temporaries;
  auto word = [&](Value v) {
    mlir::Type type = v.getType();
    if (type.isa<mlir::FloatType>())
      v = builder.create<arith::BitcastOp>(l, builder.getIntegerType(type.getIntOrFloatBitWidth()),
                                           v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      v = builder.create<arith::ExtUIOp>(l, builder.getI64Type(), v); // the low bytes hold it
    words.push_back(v);
  };
  auto describeKind = [&](const Type &item) { descriptor += itemKind(item); };
  std::function<void(const Val &)> describe = [&](const Val &value) {
    const Type &t = value.type;
    switch (t.kind) {
    case Type::Kind::Int:
      descriptor += 'i';
      word(value.leaves[0]);
      return;
    case Type::Kind::Bool:
      descriptor += 'b';
      word(value.leaves[0]);
      return;
    case Type::Kind::Float:
      descriptor += 'f';
      word(value.leaves[0]);
      return;
    case Type::Kind::Complex:
      descriptor += 'c';
      word(value.leaves[0]);
      word(value.leaves[1]);
      return;
    case Type::Kind::None:
      descriptor += 'n';
      return;
    case Type::Kind::String: // known when compiling
      descriptor += stringItem(t.text);
      return;
    case Type::Kind::NumPy:
      descriptor += 'N';
      descriptor += dtypeInfo(t.dtype).dispatchCode;
      for (Value leaf : value.leaves)
        word(leaf);
      return;
    case Type::Kind::Array: {
      descriptor += 'a';
      descriptor += dtypeInfo(t.dtype).dispatchCode;
      descriptor += static_cast<char>('0' + t.ndim);
      Value memref = value.leaves[0];
      words.push_back(dataAddress(memref, t, l));
      auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
      for (int axis = 0; axis < t.ndim; ++axis)
        words.push_back(dimension(memref, axis));
      for (int axis = 0; axis < t.ndim; ++axis)
        words.push_back(builder.create<arith::IndexCastOp>(l, builder.getI64Type(),
                                                           metadata.getStrides()[axis]));
      return;
    }
    case Type::Kind::List: // its items' kind, as a scalar's; its box
      descriptor += 'L';
      describeKind(t.itemType());
      words.push_back(boxAddress(value, l));
      return;
    case Type::Kind::Str: // its box
      descriptor += 'S';
      words.push_back(boxAddress(value, l));
      return;
    case Type::Kind::Dict: // its keys' and values' kinds; its box
      descriptor += 'D';
      describeKind(t.keyType());
      describeKind(t.valueType());
      words.push_back(boxAddress(value, l));
      return;
    case Type::Kind::Tuple:
      descriptor += '(';
      for (size_t k = 0; k < t.elements.size(); ++k)
        describe(tupleElement(value, k));
      descriptor += ')';
      return;
    default: // (the typer allows no other)
      descriptor += 'n';
      return;
    }
  };
  auto argument = [&](const SExpr &arg) {
    Val value = emitExpr(arg);
    temporaries.push_back(value);
    describe(value);
  };

  // The keywords: the stream and flush (0/1 sys.stdout, e/E sys.stderr,
  // flushing in capitals), then sep and end (None: print's defaults).
  bool flush = false, toStderr = false;
  std::string sep = "n", end = "n";
  for (const SExpr *keyword : ast::keywords(node).rest()) {
    const std::string &name = keyword->items.at(1).text;
    const SExpr &given = ast::value(keyword->items.at(2));
    if (name == "flush")
      flush = given.kind == SExpr::Kind::True;
    else if (name == "file")
      toStderr = typer.printStream(spec, keyword->items.at(2)) == std::string("stderr");
    else if (given.kind == SExpr::Kind::String)
      (name == "sep" ? sep : end) = stringItem(given.text);
  }
  descriptor = std::string(1, toStderr ? (flush ? 'E' : 'e') : (flush ? '1' : '0')) + sep + end;
  for (const SExpr *arg : ast::args(node).rest()) {
    if (!ast::is(*arg, ast::NodeKind::JoinedStr)) {
      argument(*arg);
      continue;
    }
    std::vector<const SExpr *> parts = ast::values(*arg);
    descriptor += "j" + std::to_string(parts.size()) + ":";
    for (const SExpr *part : parts) {
      if (ast::is(*part, ast::NodeKind::Const)) {
        descriptor += stringItem(ast::value(*part).text);
        continue;
      }
      int code = std::atoi(ast::conversion(*part).text.c_str());
      descriptor += 'v';
      descriptor += code < 0 ? '-' : static_cast<char>(code);
      std::string spec;
      if (!ast::isNone(ast::format_spec(*part)))
        for (const SExpr *piece : ast::values(ast::format_spec(*part)))
          spec += ast::value(*piece).text;
      descriptor += stringItem(spec);
      argument(ast::value(*part));
    }
  }

  // The buffer: the descriptor's length and bytes, then the values.
  size_t textWords = (descriptor.size() + 7) / 8;
  Value buffer = stackBuffer(1 + textWords + words.size());
  size_t at = 0;
  auto store = [&](Value v) {
    builder.create<mlir::memref::StoreOp>(l, v, buffer,
                                          constIndexValue(static_cast<int64_t>(at++)));
  };
  store(constInt(static_cast<int64_t>(descriptor.size())));
  for (size_t k = 0; k < textWords; ++k) {
    uint64_t packed = 0;
    for (size_t b = 0; b < 8 && 8 * k + b < descriptor.size(); ++b)
      packed |= static_cast<uint64_t>(static_cast<unsigned char>(descriptor[8 * k + b])) << (8 * b);
    store(constInt(static_cast<int64_t>(packed)));
  }
  for (Value v : words)
    store(v);
  mlir::Type i64 = builder.getI64Type(), i32 = builder.getI32Type();
  module.declare("plait_rt_print", builder.getFunctionType({i64}, {i32}));
  Value status = builder
                     .create<mlir::func::CallOp>(l, "plait_rt_print", mlir::TypeRange{i32},
                                                 mlir::ValueRange{bufferAddress(buffer, l)})
                     .getResult(0);
  checkRuntime(status, {{1, PyError(kCallbackException, "")}});
  for (const Val &value : temporaries)
    freeIfTemporary(value);
  return {Type::none(), {}};
}

} // namespace plait::frontend::detail
