//===- EmitRaise.cpp - raise and assert -----------------------------------===//
//
// A raise (or a failed assert) reports an error site whose message is a
// template (kFormattedMessage): the f-string's constant parts, and fields
// that the dispatcher formats with Python's format() when it raises, from
// the values the code records (ints, floats as their bits, bools, NumPy
// scalars with their dtype; strs, known when compiling, in the template).
// So messages read exactly as CPython's.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

namespace {

/// `text` with its braces doubled, as the template escapes them.
std::string escapeBraces(const std::string &text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{' || c == '}')
      out += c;
  }
  return out;
}

} // namespace

Value FunctionEmitter::copyOfBox(const Val &list, int64_t depth, Location l) {
  module.declare("plait_rt_list_copy",
                 builder.getFunctionType({builder.getI64Type(), builder.getI64Type()},
                                         {builder.getI64Type()}));
  return builder
      .create<mlir::func::CallOp>(l, "plait_rt_list_copy", mlir::TypeRange{builder.getI64Type()},
                                  mlir::ValueRange{boxAddress(list, l), constInt(depth)})
      .getResult(0);
}

std::string FunctionEmitter::recordValue(const Val &value, llvm::SmallVectorImpl<Value> &values,
                                         Location l) {
  if (value.type.kind == Type::Kind::Tuple) { // (a tuple key of a KeyError)
    std::string kind = "(";
    for (size_t k = 0; k < value.type.elements.size(); ++k)
      kind += (k ? "," : "") + recordValue(tupleElement(value, k), values, l);
    return kind + ")";
  }
  if (value.type.kind == Type::Kind::List) {
    // Its items' kind and a copy of its box as it is now (formatted when
    // the call returns: a finally clause may change the list meanwhile).
    int64_t depth = 0;
    for (const Type *item = &value.type.itemType(); item->kind == Type::Kind::List;
         item = &item->itemType())
      ++depth;
    values.push_back(copyOfBox(value, depth, l));
    return "L" + itemKind(value.type.itemType());
  }
  if (value.type.kind == Type::Kind::Str) {
    // A copy of its box as it is now (a finally clause may drop it).
    values.push_back(copyOfBox(value, 0, l));
    return "S";
  }
  if (value.type.kind == Type::Kind::String) {
    // Known when compiling: its UTF-8 bytes in hex in the kind (no value).
    static const char digits[] = "0123456789abcdef";
    std::string kind = "s";
    for (unsigned char c : value.type.text) {
      kind += digits[c >> 4];
      kind += digits[c & 15];
    }
    values.push_back(constInt(0));
    return kind;
  }
  if (value.type.kind == Type::Kind::Bool) {
    values.push_back(builder.create<arith::ExtUIOp>(l, builder.getI64Type(), value.leaves[0]));
    return "b";
  }
  if (value.type.kind == Type::Kind::Int) {
    values.push_back(value.leaves[0]);
    return "i";
  }
  if (value.type.kind == Type::Kind::Float) {
    values.push_back(builder.create<arith::BitcastOp>(l, builder.getI64Type(), value.leaves[0]));
    return "f";
  }
  if (value.type.isComplex()) {
    // Two values: the parts' float64 bits (NumPy's complex: "N<code>").
    Val wide = value.type.isNumPy() ? castNumPy(value, DType::Complex128) : value;
    auto [re, im] = complexParts(wide, Type::complex());
    values.push_back(builder.create<arith::BitcastOp>(l, builder.getI64Type(), re));
    values.push_back(builder.create<arith::BitcastOp>(l, builder.getI64Type(), im));
    return value.type.isNumPy() ? std::string("N") + dtypeInfo(value.type.dtype).dispatchCode
                                : std::string("c");
  }
  // A NumPy scalar: its dtype's code, the value as int64 or float64 bits
  // (a uint64's own bits: the dispatcher reads them unsigned).
  DType dtype = value.type.dtype;
  if (isFloatDType(dtype))
    values.push_back(builder.create<arith::BitcastOp>(l, builder.getI64Type(),
                                                      castNumPy(value, DType::Float64).leaves[0]));
  else
    values.push_back(castNumPy(value, DType::Int64).leaves[0]);
  return std::string("N") + dtypeInfo(dtype).dispatchCode;
}

std::string FunctionEmitter::raiseMessage(const SExpr *message,
                                          llvm::SmallVectorImpl<Value> &values) {
  if (!message)
    return std::string(1, kNoArgumentsMessage);
  std::string text(1, kFormattedMessage);
  std::function<void(const Val &, const std::string &, const std::string &, Location)> shown =
      [&](const Val &value, const std::string &conversion, const std::string &spec, Location at) {
        if (value.type.kind == Type::Kind::Tuple) { // as tuple.__repr__ shows it
          size_t n = value.type.elements.size();
          text += "(";
          for (size_t k = 0; k < n; ++k) {
            shown(tupleElement(value, k), conversion == "a" ? "a" : "r", "", at);
            text += k + 1 < n ? ", " : n == 1 ? "," : "";
          }
          text += ")";
          return;
        }
        size_t first = values.size();
        std::string kind = recordValue(value, values, at);
        text += "{" + std::to_string(first) + ":" + kind + ":" + conversion + ":" + spec + "}";
      };
  auto field = [&](const SExpr &node, const std::string &conversion, const std::string &spec) {
    shown(emitExpr(node), conversion, spec, loc(node));
  };
  if (ast::is(*message, ast::NodeKind::Const)) {
    text += escapeBraces(ast::value(*message).text);
    return text;
  }
  if (!ast::is(*message, ast::NodeKind::JoinedStr)) {
    // raise IndexError(i): the exception holds the value itself (a tuple
    // too: KeyError((i, j))).
    return std::string(1, kValueMessage) + recordValue(emitExpr(*message), values, loc(*message));
  }
  for (const SExpr *part : ast::values(*message)) {
    if (ast::is(*part, ast::NodeKind::Const)) {
      text += escapeBraces(ast::value(*part).text);
      continue;
    }
    int code = std::atoi(ast::conversion(*part).text.c_str());
    std::string conversion = code < 0 ? "" : std::string(1, static_cast<char>(code));
    std::string spec;
    if (!ast::isNone(ast::format_spec(*part)))
      for (const SExpr *piece : ast::values(ast::format_spec(*part)))
        spec += ast::value(*piece).text;
    field(ast::value(*part), conversion, spec);
  }
  return text;
}

void FunctionEmitter::emitRaise(const SExpr &stmt) {
  const SExpr &exc = ast::exc(stmt);
  Location l = loc(stmt);
  if (ast::isNone(exc) ||
      (ast::is(exc, ast::NodeKind::Name) && spec.caughtNames.count(ast::id(exc)))) {
    // raise, raise e: the exception an enclosing except clause handles
    // (CPython's RuntimeError outside of one).
    auto handled = handling.rbegin();
    if (!ast::isNone(exc))
      while (handled != handling.rend() && handled->name != ast::id(exc))
        ++handled;
    if (handled == handling.rend() && ast::isNone(exc)) {
      check(constInt(1, 1), PyError("RuntimeError", "No active exception to reraise"));
    } else if (handled == handling.rend()) {
      // After its clause, CPython has deleted the name.
      check(constInt(1, 1), unboundLocal(ast::id(exc)));
    } else {
      builder.create<dialect::CheckStatusOp>(
          l, builder.create<mlir::memref::LoadOp>(l, handled->statusSlot).getResult());
    }
    endRaisingBlock(l);
    return;
  }
  bool called = ast::is(exc, ast::NodeKind::Call);
  const SExpr &cls = called ? ast::func(exc) : exc;
  std::string name = typer.resolve(spec, ast::id(cls)).name;
  module.noteExceptionClass(name, typer.exceptionBases(spec, ast::id(cls)));
  std::vector<const SExpr *> args = called ? ast::args(exc).rest() : std::vector<const SExpr *>();
  llvm::SmallVector<Value> values;
  std::string message = raiseMessage(args.empty() ? nullptr : args[0], values);
  checkWithArgs(constInt(1, 1), PyError(name, message), values);
  endRaisingBlock(l);
}

void FunctionEmitter::emitAssert(const SExpr &stmt) {
  Value failed =
      builder.create<arith::XOrIOp>(loc(stmt), truth(emitExpr(ast::test(stmt))), constInt(1, 1));
  // The message is evaluated only when the assertion fails, as CPython
  // does: its values are recorded on that path.
  Block *fails = newBlock(), *holds = newBlock();
  builder.create<mlir::cf::CondBranchOp>(loc(stmt), failed, fails, holds);
  startBlock(fails);
  llvm::SmallVector<Value> values;
  const SExpr &msg = ast::msg(stmt);
  std::string message = raiseMessage(ast::isNone(msg) ? nullptr : &msg, values);
  checkWithArgs(constInt(1, 1), PyError("AssertionError", message), values);
  branch(holds);
  startBlock(holds);
}

} // namespace plait::frontend::detail
