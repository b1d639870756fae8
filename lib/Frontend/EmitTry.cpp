//===- EmitTry.cpp - try, except, else and finally ------------------------===//
//
// A try statement's body runs in the scope of a plait.try: a raise there
// branches to the try's handler block (plait-lower-raise makes it so),
// which tests the except clauses in order with plait.exception_matches and
// re-raises when none matches. `finally` is a second scope around the
// first, whose handler runs the finally body and re-raises; on every other
// way out (the end of the body, else or a clause, break, continue, return)
// the finally body is emitted again, after a plait.try_end.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

namespace {

bool isEmpty(const SExpr &body) { return body.rest().empty(); }

} // namespace

size_t FunctionEmitter::triesOutsideLoop() const {
  size_t kept = 0;
  while (kept < tries.size() && tries[kept].loopDepth < loops.size())
    ++kept;
  return kept;
}

void FunctionEmitter::leaveTries(size_t keep) {
  // The finally bodies run outside their own scopes, each in the scopes
  // around it; the stack is the same afterwards (other paths still leave).
  std::vector<TryScope> saved = tries;
  while (tries.size() > keep && !terminated()) {
    TryScope scope = tries.back();
    builder.create<dialect::TryEndOp>(here(), scope.id);
    tries.pop_back();
    if (scope.finalbody)
      emitBody(*scope.finalbody);
  }
  tries = std::move(saved);
}

void FunctionEmitter::endRaisingBlock(Location l) {
  // Unreachable: the scopes end without running any finally.
  for (auto scope = tries.rbegin(); scope != tries.rend(); ++scope)
    builder.create<dialect::TryEndOp>(l, scope->id);
  if (!loops.empty() && loops.back().structured)
    builder.create<dialect::ContinueOp>(l);
  else if (!loops.empty())
    branch(loops.back().continueTarget);
  else
    returnPlaceholder(l);
}

void FunctionEmitter::emitTry(const SExpr &stmt) {
  Location l = loc(stmt);
  Block *after = newBlock();
  // Opens a scope: the try op, and the body's block to emit into.
  auto open = [&](const SExpr *finalbody) {
    Block *body = newBlock(), *handler = newBlock();
    int64_t id = nextTryId++;
    builder.create<dialect::TryOp>(l, id, body, handler);
    tries.push_back({id, loops.size(), finalbody});
    startBlock(body);
    return std::make_pair(id, handler);
  };
  // Ends the innermost scope on the normal path.
  auto close = [&](int64_t id) {
    if (!terminated())
      builder.create<dialect::TryEndOp>(l, id);
    tries.pop_back();
  };
  // The exception a handler caught, re-raised (its block then ends).
  auto reraise = [&](Value status) {
    builder.create<dialect::CheckStatusOp>(l, status);
    endRaisingBlock(l);
  };

  const SExpr *finalbody = isEmpty(ast::finalbody(stmt)) ? nullptr : &ast::finalbody(stmt);
  std::vector<const SExpr *> handlers = ast::handlers(stmt).rest();
  std::optional<std::pair<int64_t, Block *>> finallyScope, handlerScope;
  if (finalbody)
    finallyScope = open(finalbody);
  if (!handlers.empty())
    handlerScope = open(nullptr);

  emitBody(ast::body(stmt));
  // Inside the finally scope, out of the handlers' one: where the body, its
  // else and the clauses go on.
  Block *normalEnd = finalbody ? newBlock() : after;
  if (handlerScope) {
    close(handlerScope->first);
    emitBody(ast::orelse(stmt));
  }
  branch(normalEnd);
  if (handlerScope) {
    startBlock(handlerScope->second);
    Value status = builder.create<dialect::CaughtOp>(l);
    Value statusSlot = alloca(builder.getI32Type());
    builder.create<mlir::memref::StoreOp>(l, status, statusSlot);
    for (const SExpr *handler : handlers) {
      llvm::SmallVector<llvm::StringRef> classes;
      auto handled = typer.handledClasses(spec, *handler);
      for (const auto &[cls, bases] : handled) {
        module.noteExceptionClass(cls, bases);
        classes.push_back(cls);
      }
      Block *clause = newBlock(), *next = newBlock();
      Value matches = builder.create<dialect::ExceptionMatchesOp>(loc(*handler), status,
                                                                  builder.getStrArrayAttr(classes));
      builder.create<mlir::cf::CondBranchOp>(loc(*handler), matches, clause, next);
      startBlock(clause);
      const SExpr &name = ast::handlerName(*handler);
      handling.push_back({statusSlot, ast::isNone(name) ? std::string() : name.text});
      emitBody(ast::body(*handler));
      handling.pop_back();
      branch(normalEnd);
      startBlock(next);
    }
    reraise(status); // no clause matched
  }
  if (finallyScope) {
    startBlock(normalEnd);
    close(finallyScope->first);
    emitBody(*finalbody);
    branch(after);

    // An exception leaving the body, the else or a clause: finally, then
    // it goes on.
    startBlock(finallyScope->second);
    Value status = builder.create<dialect::CaughtOp>(l);
    emitBody(*finalbody);
    if (!terminated())
      reraise(status);
  }
  startBlock(after);
}

} // namespace plait::frontend::detail
