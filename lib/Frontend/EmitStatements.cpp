//===- EmitStatements.cpp - statements and loops --------------------------===//
//
// Assignments, if/while blocks, range loops as plait.for (break, continue and
// return as its terminators), returns, and the function's frame.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "llvm/Support/SaveAndRestore.h"

namespace plait::frontend::detail {

/// Whether a statement list binds `name` (assignment, augmented or
/// annotated assignment, a for target), nested statements included.
bool assigns(const SExpr &body, const std::string &name) {
  std::function<bool(const SExpr &)> target = [&](const SExpr &t) {
    if (ast::is(t, ast::NodeKind::Name))
      return ast::id(t) == name;
    if (ast::is(t, ast::NodeKind::Tuple))
      for (const SExpr *element : ast::elts(t))
        if (target(*element))
          return true;
    return false;
  };
  std::function<bool(const SExpr &)> scan = [&](const SExpr &node) {
    ast::NodeKind kind = ast::kindOf(node);
    if (kind == ast::NodeKind::Assign)
      for (const SExpr *t : ast::targets(node).rest())
        if (target(*t))
          return true;
    if ((kind == ast::NodeKind::AugAssign || kind == ast::NodeKind::AnnAssign ||
         kind == ast::NodeKind::For) &&
        target(ast::target(node)))
      return true;
    for (const SExpr &item : node.items)
      if (item.isList() && scan(item))
        return true;
    return false;
  };
  return scan(body);
}

void FunctionEmitter::emit(const std::string &symbol) {
  mlir::FunctionType type = module.signatureOf(spec);
  OpBuilder top(module.context);
  top.setInsertionPointToEnd(module.module.getBody());
  func = top.create<mlir::func::FuncOp>(loc(spec.source->definition), symbol, type);
  func.setPrivate();
  entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  inUfuncLoop = spec.ufuncKernel; // a kernel's body is its loop's element operation
  Block *body = newBlock();

  // Parameters the function never assigns are their arguments' values;
  // other locals live in slots (parameters start assigned).
  const SExpr &statements = ast::body(spec.source->definition);
  auto isFixedParameter = [&](const std::string &name) {
    const auto &params = spec.source->params;
    return std::find(params.begin(), params.end(), name) != params.end() && !assigns(statements, name);
  };
  auto isSSAArray = [&](const std::string &name) {
    return spec.variables[name].kind == Type::Kind::Array &&
           (spec.singleAssignment.count(name) || spec.loopTargets.count(name));
  };
  for (const std::string &name : spec.locals) {
    const Type &t = spec.variables[name];
    if (isSSAArray(name) || isFixedParameter(name))
      continue; // bound to the argument below, or when assigned
    llvm::SmallVector<mlir::Type> types;
    leafTypes(t, types);
    for (mlir::Type leaf : types)
      slots[name].push_back(alloca(leaf));
    assigned[name] = alloca(builder.getI1Type());
    builder.create<mlir::memref::StoreOp>(here(), constInt(0, 1), assigned[name]);
  }
  depth = entry->getArgument(0);
  size_t argIndex = 1;
  for (size_t i = 0; i < spec.source->params.size(); ++i) {
    const std::string &name = spec.source->params[i];
    Val value{spec.arguments[i], {}};
    for (size_t k = 0; k < spec.arguments[i].numLeaves(); ++k)
      value.leaves.push_back(entry->getArgument(argIndex++));
    if (isFixedParameter(name) && value.type.kind == Type::Kind::Array) {
      arrays[name] = value.leaves[0]; // borrowed from the caller
      continue;
    }
    Val converted = convert(value, spec.variables[name]);
    if (isFixedParameter(name)) {
      bound[name] = converted;
      continue;
    }
    // A parameter the function assigns: its slots hold a reference of their own.
    converted = claim(converted);
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      storeSlot(converted.leaves[k], slots[name][k], here(), /*slotIsEmpty=*/true);
    builder.create<mlir::memref::StoreOp>(here(), constInt(1, 1), assigned[name]);
  }
  if (spec.callsJit) {
    // Functions that call jitted functions may recurse: runaway recursion is
    // RecursionError, never a native stack overflow.
    Value limit = constInt(module.options.recursionLimit);
    check(builder.create<arith::CmpIOp>(here(), arith::CmpIPredicate::sge, depth, limit),
          PyError("RecursionError", module.options.message("recursion")));
  }
  builder.create<mlir::cf::BranchOp>(here(), body);
  startBlock(body);
  emitBody(ast::body(spec.source->definition));
  if (!terminated() && alwaysReturns(ast::body(spec.source->definition), &spec)) {
    // Every path returned (an if/else that both return): nothing gets here
    // (the typer did not add None to the result type either).
    returnPlaceholder(here());
  } else if (!terminated()) {
    emitReturn(Val{Type::none(), {}});
  }
}

void FunctionEmitter::returnPlaceholder(Location l) {
  llvm::SmallVector<Value> values = {constInt(0, 32)};
  Val placeholder = zeroOf(spec.result);
  values.append(placeholder.leaves.begin(), placeholder.leaves.end());
  builder.create<mlir::func::ReturnOp>(l, values);
}

void FunctionEmitter::emitBody(const SExpr &body) {
  for (const SExpr *stmt : body.rest()) {
    if (terminated())
      startBlock(newBlock()); // unreachable code after return/break/continue
    emitStatement(*stmt);
    if (endsBody(spec, *stmt))
      break; // (not typed: it never runs)
  }
}

void FunctionEmitter::freeIfTemporary(const Val &value) {
  // A temporary array (a * b + c: the product) is released right after the
  // operation that consumed it, where its allocation dominates: loops then
  // run in constant memory. Error paths leave it to the call's arena.
  if (value.type.kind == Type::Kind::Tuple) { // (one taken out of a list)
    for (Value leaf : value.leaves)
      if (leaf.getType().isa<mlir::MemRefType>() && temporaries.erase(leaf) && !terminated())
        builder.create<dialect::ReleaseOp>(here(), leaf);
    return;
  }
  if ((value.type.kind != Type::Kind::Array && !value.type.isListBox() &&
       value.type.kind != Type::Kind::Dict) ||
      !temporaries.erase(value.leaves[0]) || terminated())
    return;
  builder.create<dialect::ReleaseOp>(here(), value.leaves[0]);
}

Val FunctionEmitter::holdForLoop(const Val &value) {
  // The body may rebind the variable that held it (l = [...]), which would
  // free it under the loop: the loop holds a reference of its own, released
  // by releaseLoopHolds() where the loop ends. (Not a temporary: a
  // parameter's value is the same SSA value at every use in the body.)
  for (Value leaf : value.leaves)
    if (leaf.getType().isa<mlir::MemRefType>() && !terminated()) {
      builder.create<dialect::RetainOp>(here(), leaf);
      loopHolds.push_back(leaf);
    }
  return value;
}

void FunctionEmitter::releaseLoopHolds(size_t mark) {
  for (size_t k = loopHolds.size(); k > mark; --k)
    if (!terminated())
      builder.create<dialect::ReleaseOp>(here(), loopHolds[k - 1]);
  loopHolds.resize(std::min(mark, loopHolds.size()));
}

Val FunctionEmitter::claim(const Val &value) {
  for (Value leaf : value.leaves)
    if (leaf.getType().isa<mlir::MemRefType>() && !temporaries.erase(leaf) && !terminated())
      builder.create<dialect::RetainOp>(here(), leaf);
  return value;
}

void FunctionEmitter::releaseLocals() {
  Location l = here();
  for (auto &[name, leaves] : slots)
    for (Value slot : leaves)
      if (slot.getType().isa<dialect::ArraySlotType>())
        builder.create<dialect::ReleaseOp>(l, builder.create<dialect::LoadArrayOp>(l, slot));
  // Assigned by top-level statements emitted so far: they dominate here.
  for (const std::string &name : ownedArrays)
    builder.create<dialect::ReleaseOp>(l, arrays.at(name));
}

void FunctionEmitter::emitStatement(const SExpr &stmt) {
  ast::NodeKind kind = ast::kindOf(stmt);
  llvm::SaveAndRestore<const SExpr *> at(currentStatement, &stmt);
  if (kind == ast::NodeKind::Assign && ast::is(ast::value(stmt), ast::NodeKind::Closure) &&
      ast::targets(stmt).items.size() == 2 &&
      ast::is(ast::targets(stmt).items[1], ast::NodeKind::Name))
    return; // g = lambda ...: its uses read what it captures (emitExpr)
  if (kind == ast::NodeKind::Assign) {
    Val value = emitExpr(ast::value(stmt));
    std::vector<const SExpr *> targets = ast::targets(stmt).rest();
    for (size_t i = 0; i < targets.size(); ++i) {
      // a[1:] = b[:-1] = x + 1: targets before the last must not consume
      // the value's temporaries (storing into a slice releases them).
      llvm::SmallVector<Value, 2> held;
      if (i + 1 < targets.size())
        for (Value leaf : value.leaves)
          if (temporaries.erase(leaf))
            held.push_back(leaf);
      emitAssign(*targets[i], value);
      temporaries.insert(held.begin(), held.end());
    }
  } else if (kind == ast::NodeKind::AnnAssign) {
    if (ast::value(stmt).kind != SExpr::Kind::None)
      emitAssign(ast::target(stmt), emitExpr(ast::value(stmt)));
  } else if (kind == ast::NodeKind::AugAssign) {
    pinTargetParts(ast::target(stmt));
    emitAugAssign(stmt);
    unpin();
  } else if (kind == ast::NodeKind::If) {
    emitIf(stmt);
  } else if (kind == ast::NodeKind::While) {
    emitWhile(stmt);
  } else if (kind == ast::NodeKind::For) {
    emitFor(stmt);
  } else if (kind == ast::NodeKind::Return) {
    emitReturn(ast::value(stmt).kind == SExpr::Kind::None
                   ? Val{Type::none(), {}}
                   : emitExpr(ast::value(stmt)));
  } else if (kind == ast::NodeKind::Break ||
             kind == ast::NodeKind::Continue) { // (inside a loop: typing checked)
    if (terminated())
      return;
    leaveTries(triesOutsideLoop());
    if (terminated())
      return; // a finally returned or raised
    const Loop &loop = loops.back();
    if (loop.structured && kind == ast::NodeKind::Break)
      builder.create<dialect::BreakOp>(loc(stmt));
    else if (loop.structured)
      builder.create<dialect::ContinueOp>(loc(stmt));
    else
      branch(kind == ast::NodeKind::Break ? loop.breakTarget : loop.continueTarget);
  } else if (kind == ast::NodeKind::Try) {
    emitTry(stmt);
  } else if (kind == ast::NodeKind::Raise) {
    emitRaise(stmt);
  } else if (kind == ast::NodeKind::Assert) {
    emitAssert(stmt);
  } else if (kind == ast::NodeKind::Delete) {
    emitDelete(stmt);
  } else if (kind == ast::NodeKind::Expr) {
    if (!ast::is(ast::value(stmt), ast::NodeKind::Const))
      freeIfTemporary(emitExpr(ast::value(stmt))); // (l.pop() of a list of arrays)
  } else if (kind != ast::NodeKind::Pass) {
    throw std::logic_error(std::string("internal: the typer let a ") + ast::kindName(kind) +
                           " statement through");
  }
}

void FunctionEmitter::pinTargetParts(const SExpr &target) {
  std::vector<const SExpr *> parts;
  auto add = [&](const SExpr &part) {
    if (!ast::isNone(part) && !ast::is(part, ast::NodeKind::Name) &&
        !ast::is(part, ast::NodeKind::Const))
      parts.push_back(&part);
  };
  auto addIndex = [&](const SExpr &index) {
    if (ast::is(index, ast::NodeKind::Slice)) {
      add(ast::lower(index));
      add(ast::upper(index));
      add(ast::step(index));
    } else {
      add(index);
    }
  };
  if (ast::is(target, ast::NodeKind::Subscript)) {
    add(ast::value(target));
    const SExpr &index = ast::slice(target);
    if (ast::is(index, ast::NodeKind::Tuple))
      for (const SExpr *element : ast::elts(index))
        addIndex(*element);
    else
      addIndex(index);
  } else if (ast::is(target, ast::NodeKind::Attribute)) {
    add(ast::value(target));
  }
  for (const SExpr *part : parts) {
    if (terminated())
      return; // a part raised
    Val value = emitExpr(*part);
    pinned[part] = value;
    // Held until unpin(): the read would release a temporary the write
    // still uses (a tuple's arrays too).
    for (Value leaf : value.leaves)
      if (temporaries.erase(leaf))
        pinnedTemporaries.push_back(leaf);
  }
}

void FunctionEmitter::unpin() {
  pinned.clear();
  for (Value leaf : pinnedTemporaries)
    if (!terminated())
      builder.create<dialect::ReleaseOp>(here(), leaf);
  pinnedTemporaries.clear();
}

void FunctionEmitter::emitAugAssign(const SExpr &stmt) {
  Val current = emitExpr(ast::target(stmt));
  if (current.type.kind == Type::Kind::Bottom)
    return; // never assigned anywhere: loading it raised UnboundLocalError
  Val value = emitExpr(ast::value(stmt));
  bool inPlace = current.type.kind == Type::Kind::Array;
  if (spec.readOnlyWrites.count(&ast::target(stmt))) {
    // NumPy computes the sum, then cannot store it: as the ufunc's out=
    // for a view, as setitem for places given by index arrays.
    bool ufuncOut = inPlace && !indexesWithArray(spec, ast::target(stmt)) &&
                    !spec.gathers.count(&ast::target(stmt));
    raiseReadOnly(ufuncOut ? "output array is read-only" : "assignment destination is read-only");
    freeIfTemporary(current);
    freeIfTemporary(value);
    return;
  }
  if (inPlace &&
      (indexesWithArray(spec, ast::target(stmt)) || spec.gathers.count(&ast::target(stmt)))) {
    // a[indices] += v is a[indices] = a[indices] + v: a repeated index
    // gets one update, as in NumPy.
    Val result = emitBinary(stmt, ast::op(stmt), current, value, &current);
    freeIfTemporary(current);
    storeSlice(ast::target(stmt), result);
    freeIfTemporary(result);
    return;
  }
  Val result = emitBinary(stmt, ast::op(stmt), current, value, inPlace ? &current : nullptr);
  if (inPlace) {
    // a += b and a[1:] += b are in place: the result (a fresh array of
    // a's shape, so no overlap) is cast into a as NumPy's ufuncs cast
    // into `out` (same kind, wrapping).
    copyElements(result, current, loc(stmt));
    freeIfTemporary(result);
  } else {
    emitAssign(ast::target(stmt), result);
  }
}

void FunctionEmitter::emitAssign(const SExpr &target, const Val &value) {
  if (spec.readOnlyWrites.count(&target)) {
    raiseReadOnly();
    return;
  }
  if (ast::is(target, ast::NodeKind::Subscript) &&
      spec.typeOf(ast::value(target)).kind == Type::Kind::List) {
    storeListElement(target, value);
    return;
  }
  if (ast::is(target, ast::NodeKind::Subscript) &&
      spec.typeOf(ast::value(target)).kind == Type::Kind::Dict) {
    storeDictElement(target, value);
    return;
  }
  if (ast::is(target, ast::NodeKind::Subscript) && spec.typeOf(target).kind == Type::Kind::Array) {
    storeSlice(target, value);
    return;
  }
  if (ast::is(target, ast::NodeKind::Subscript)) {
    storeElement(target, value);
    return;
  }
  if (ast::is(target, ast::NodeKind::Name) && value.type.kind == Type::Kind::Array &&
      spec.loopTargets.count(ast::id(target))) {
    arrays[ast::id(target)] = value.leaves[0]; // a row, borrowed from its array
    return;
  }
  // Every new value is claimed before any old one is released: a, b = b, a.
  bindOwned(target, claim(value));
}

void FunctionEmitter::raiseReadOnly(const char *message) {
  check(constInt(1, 1), PyError("ValueError", message));
}

void FunctionEmitter::bindOwned(const SExpr &target, const Val &owned) {
  Location l = loc(target);
  if (ast::is(target, ast::NodeKind::Subscript)) {
    // Copied into the array: the reference claimed for it is not kept.
    emitAssign(target, owned);
    for (Value leaf : owned.leaves)
      if (leaf.getType().isa<mlir::MemRefType>() && !terminated())
        builder.create<dialect::ReleaseOp>(l, leaf);
    return;
  }
  if (ast::is(target, ast::NodeKind::Name)) {
    const std::string &name = ast::id(target);
    if (owned.type.kind == Type::Kind::Array && spec.singleAssignment.count(name)) {
      arrays[name] = convert(owned, spec.variables[name]).leaves[0]; // an SSA value
      ownedArrays.insert(name);
      return;
    }
    Val converted = convert(owned, spec.variables[name]);
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      storeSlot(converted.leaves[k], slots[name][k], l);
    builder.create<mlir::memref::StoreOp>(l, constInt(1, 1), assigned[name]);
    return;
  }
  std::vector<const SExpr *> elements = ast::elts(target);
  if (owned.type.kind == Type::Kind::Array) {
    // An array unpacks as a sequence, with CPython's messages: each name
    // takes an element or a row (a view holding its own reference).
    int64_t n = static_cast<int64_t>(elements.size());
    Value length = dimension(owned.leaves[0], 0);
    auto message = [&](const char *key) {
      return PyError("ValueError", formatMessage(key, {{"expected", std::to_string(n)}}));
    };
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, length, constInt(n)),
          message("unpack_too_many"));
    checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, length, constInt(n)),
                  message("unpack_not_enough"), {length});
    Type rowType = Type::array(owned.type.dtype, owned.type.ndim - 1);
    for (int64_t i = 0; i < n; ++i) {
      Value index = constIndexValue(i);
      if (owned.type.ndim > 1) {
        bindOwned(*elements[i], claim(Val{rowType, {rowView(owned.leaves[0], rowType, index, l)}}));
      } else {
        Value raw = builder.create<mlir::memref::LoadOp>(l, owned.leaves[0], mlir::ValueRange{index});
        bindOwned(*elements[i], fromStorage(raw, owned.type.dtype, l));
      }
    }
    if (!terminated()) // the array's own reference: the rows hold theirs
      builder.create<dialect::ReleaseOp>(l, owned.leaves[0]);
    return;
  }
  // Tuple unpacking: the value was fully evaluated first.
  size_t offset = 0;
  for (size_t i = 0; i < elements.size(); ++i) {
    const Type &t = owned.type.elements[i];
    size_t n = t.numLeaves();
    Val part{t, llvm::SmallVector<Value, 2>(owned.leaves.begin() + offset,
                                            owned.leaves.begin() + offset + n)};
    offset += n;
    bindOwned(*elements[i], part);
  }
}

void FunctionEmitter::emitReturn(const Val &value) {
  // The caller gets a reference to each array returned; locals give theirs
  // up, after the finally bodies the return runs (which may read them).
  Val converted = convert(claim(value), spec.result);
  leaveTries(0);
  if (terminated())
    return; // a finally returned or raised instead
  releaseLocals();
  if (insideRangeLoop()) {
    // Out of a plait.for: the results wait in slots while the loops end.
    if (returnSlots.empty()) {
      llvm::SmallVector<mlir::Type> types;
      leafTypes(spec.result, types);
      for (mlir::Type type : types)
        returnSlots.push_back(alloca(type));
    }
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      storeSlot(converted.leaves[k], returnSlots[k], here());
    builder.create<dialect::LeaveOp>(here());
    return;
  }
  llvm::SmallVector<Value> values = {constInt(0, 32)};
  values.append(converted.leaves.begin(), converted.leaves.end());
  builder.create<mlir::func::ReturnOp>(here(), values);
}

void FunctionEmitter::emitIf(const SExpr &stmt) {
  if (std::optional<bool> known = spec.knownCondition(&ast::test(stmt))) {
    // Known when compiling: the test runs (for what it calls), then the
    // live branch, the only one typed.
    freeIfTemporary(emitExpr(ast::test(stmt)));
    emitBody(*known ? ast::body(stmt) : ast::orelse(stmt));
    return;
  }
  Value condition = truth(emitExpr(ast::test(stmt)));
  Block *thenBlock = newBlock();
  Block *elseBlock = newBlock();
  Block *merge = newBlock();
  builder.create<mlir::cf::CondBranchOp>(loc(stmt), condition, thenBlock,
                                         elseBlock);
  startBlock(thenBlock);
  emitBody(ast::body(stmt));
  branch(merge);
  startBlock(elseBlock);
  emitBody(ast::orelse(stmt));
  branch(merge);
  startBlock(merge);
}

void FunctionEmitter::emitWhile(const SExpr &stmt) {
  Block *header = newBlock();
  Block *body = newBlock();
  Block *orElse = newBlock();
  Block *exit = newBlock();
  branch(header);
  startBlock(header);
  Value condition = truth(emitExpr(ast::test(stmt)));
  builder.create<mlir::cf::CondBranchOp>(loc(stmt), condition, body, orElse);
  startBlock(body);
  emitLoopRest(stmt, header, orElse, exit);
}

void FunctionEmitter::emitLoopRest(const SExpr &stmt, Block *header, Block *orElse, Block *exit) {
  loops.push_back({/*structured=*/false, header, exit});
  emitBody(ast::body(stmt));
  loops.pop_back();
  branch(header);
  startBlock(orElse);
  emitBody(ast::orelse(stmt));
  branch(exit);
  startBlock(exit);
}

void FunctionEmitter::emitIteratorLoop(const SExpr &stmt,
                                       const std::function<Val(Block *, Block *)> &next) {
  Block *header = newBlock(), *orElse = newBlock(), *exit = newBlock();
  branch(header);
  startBlock(header);
  emitAssign(ast::target(stmt), next(header, orElse));
  emitLoopRest(stmt, header, orElse, exit);
}

void FunctionEmitter::emitListLoop(const SExpr &stmt, const SExpr &iterable) {
  // CPython's list iterator: item k while k < the length now, so the body
  // may append (the loop reaches the new items) or pop (it stops sooner).
  Location l = loc(stmt);
  size_t mark = loopHolds.size();
  Val list = holdForLoop(runtimeStrIfStr(emitExpr(iterable), l));
  Value position = alloca(builder.getI64Type());
  builder.create<mlir::memref::StoreOp>(l, constInt(0), position);
  emitIteratorLoop(stmt, [&](Block *, Block *orElse) {
    Value k = builder.create<mlir::memref::LoadOp>(l, position);
    Block *body = newBlock();
    builder.create<mlir::cf::CondBranchOp>(
        l, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, k, listLength(list, l)),
        body, orElse);
    startBlock(body);
    builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                          position);
    return loadSequenceItem(list, k, l);
  });
  releaseLoopHolds(mark);
  freeIfTemporary(list);
}

void FunctionEmitter::emitFor(const SExpr &stmt) {
  const Iterable &iterable = typer.loopIterable(spec, stmt);
  if (iterable.kind == Iterable::Kind::Range) { // a plait.for of the range itself
    auto [start, stop, step] = rangeBounds(*iterable.node);
    if (iterable.parallel && module.options.parallel)
      if (std::optional<ParallelPlan> plan = parallelPlan(stmt)) {
        emitParallelLoop(stmt, start, stop, step, *plan);
        return;
      }
    emitRangeLoop(stmt, start, stop, step, [&](Value i) { return Val{Type::integer(), {i}}; });
    return;
  }
  bool reversed = iterable.kind == Iterable::Kind::Reversed;
  const Iterable &inner = reversed ? iterable.parts[0] : iterable;
  if ((inner.kind == Iterable::Kind::Tuple || inner.kind == Iterable::Kind::List ||
       inner.kind == Iterable::Kind::Dict) &&
      inner.element.kind == Type::Kind::Bottom) {
    // An empty tuple, or a list or dict nothing is ever put into (reversed
    // too): evaluated, then the loop runs out at once (the body, never run,
    // was not typed).
    freeIfTemporary(emitExpr(inner.kind == Iterable::Kind::Dict ? *dictOf(inner) : *inner.node));
    emitBody(ast::orelse(stmt));
    return;
  }
  if (iterable.kind == Iterable::Kind::List) {
    emitListLoop(stmt, *iterable.node);
    return;
  }
  if (iterable.kind == Iterable::Kind::Dict) {
    emitDictLoop(stmt, iterable);
    return;
  }
  std::vector<Val> operands;
  size_t mark = loopHolds.size();
  Iteration iteration = iterate(iterable, operands);
  emitRangeLoop(stmt, constInt(0), iteration.count, constInt(1), iteration.item);
  releaseLoopHolds(mark);
  const SExpr &target = ast::target(stmt);
  if (ast::is(target, ast::NodeKind::Name) && spec.loopTargets.count(ast::id(target)) &&
      iterable.element.kind == Type::Kind::Array)
    arrays.erase(ast::id(target)); // the row is a value of the loop body only
  for (const Val &operand : operands)
    freeIfTemporary(operand);
}

void FunctionEmitter::emitIteration(const SExpr &stmt, const Val &value) {
  const SExpr &target = ast::target(stmt);
  emitAssign(target, value);
  // A loop variable the body does not assign is the iteration's value.
  std::optional<std::pair<std::string, std::optional<Val>>> saved;
  if (ast::is(target, ast::NodeKind::Name) && value.type.kind != Type::Kind::Array &&
      !assigns(ast::body(stmt), ast::id(target))) {
    const std::string &name = ast::id(target);
    auto previous = bound.find(name);
    saved.emplace(name,
                  previous == bound.end() ? std::nullopt : std::optional<Val>(previous->second));
    bound[name] = convert(value, spec.variables[name]);
  }
  loops.push_back({/*structured=*/true});
  emitBody(ast::body(stmt));
  loops.pop_back();
  if (saved) {
    if (saved->second)
      bound[saved->first] = *saved->second;
    else
      bound.erase(saved->first);
  }
  if (!terminated())
    builder.create<dialect::ContinueOp>(loc(stmt));
}

void FunctionEmitter::emitRangeLoop(const SExpr &stmt, Value start, Value stop, Value step,
                                    const std::function<Val(Value)> &item) {
  // A plait.for: its body is a CFG region; `continue`, `break` and `return`
  // are its terminators; its result says how it ended, which decides
  // whether the else clause runs (and whether the function returns).
  Location l = loc(stmt);
  auto loop = builder.create<dialect::ForOp>(l, start, stop, step);
  Block *body = new Block();
  loop.getBody().push_back(body);
  Value variable = body->addArgument(builder.getI64Type(), l);
  Block *after = newBlock();
  {
    OpBuilder::InsertionGuard guard(builder);
    startBlock(body);
    emitIteration(stmt, item(variable));
  }
  Value exit = loop.getExit();
  auto is = [&](int32_t kind) {
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, exit, constInt(kind, 32)).getResult();
  };
  if (findReturn(ast::body(stmt))) {
    // The body returned: return (or leave the enclosing loop too).
    Block *leaving = newBlock(), *staying = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, is(dialect::ForOp::kLeft), leaving, staying);
    startBlock(leaving);
    if (insideRangeLoop()) {
      builder.create<dialect::LeaveOp>(l);
    } else {
      llvm::SmallVector<Value> values = {constInt(0, 32)};
      for (Value slot : returnSlots)
        values.push_back(loadSlot(slot, l));
      builder.create<mlir::func::ReturnOp>(l, values);
    }
    startBlock(staying);
  }
  if (ast::orelse(stmt).items.size() > 1) { // else: when the loop ran out
    Block *orElse = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, is(dialect::ForOp::kCompleted), orElse, after);
    startBlock(orElse);
    emitBody(ast::orelse(stmt));
  }
  branch(after);
  startBlock(after);
}

PyError FunctionEmitter::unboundLocal(const std::string &name) {
  std::string message = module.options.message("unbound_local");
  size_t at = message.find("{name}");
  if (at != std::string::npos)
    message.replace(at, 6, sourceName(name));
  return PyError("UnboundLocalError", message);
}

Val FunctionEmitter::loadVariable(const std::string &name, const SExpr &node) {
  Location l = loc(node);
  auto fixed = bound.find(name);
  if (fixed != bound.end())
    return fixed->second;
  auto found = arrays.find(name);
  if (found != arrays.end())
    return {spec.variables[name], {found->second}};
  if (!assigned.count(name)) {
    // An array bound once, used before that assignment: CPython raises
    // UnboundLocalError.
    check(constInt(1, 1), unboundLocal(name));
    return zeroOf(spec.variables[name]);
  }
  Value isAssigned = builder.create<mlir::memref::LoadOp>(l, assigned[name]);
  check(builder.create<arith::XOrIOp>(l, isAssigned, constInt(1, 1)), unboundLocal(name));
  Val value{spec.variables[name], {}};
  for (Value slot : slots[name])
    value.leaves.push_back(loadSlot(slot, l));
  return value;
}

} // namespace plait::frontend::detail
