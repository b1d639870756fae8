//===- EmitParallel.cpp - prange loops ------------------------------------===//
//
// With parallel=True, `for i in prange(...)` is a plait.parallel_for: the
// iterations may run on several threads (plait-outline-parallel). The loop
// variables are the function's slots, which that pass gives each thread a
// copy of; what this file decides is which variables are reductions (each
// thread accumulates its own partial, combined after the loop) and whether
// the loop can run in parallel at all. A loop that breaks or returns,
// changes a list or dict from outside, or carries a variable from one
// iteration to the next other than as a reduction, runs serially, as `range`
// would: the same results, always.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Dialect/Plait/RangeLoops.h"

namespace plait::frontend::detail {

namespace {

/// The reduction kind of `x op= e`, or "" when op does not reduce.
std::string augmentedKind(ast::Operator op) {
  switch (op) {
  case ast::Operator::Add:
  case ast::Operator::Sub: // x - a - b == x + ((-a) - b): partials add up
    return "add";
  case ast::Operator::Mult:
    return "mul";
  case ast::Operator::BitOr:
    return "or";
  case ast::Operator::BitAnd:
    return "and";
  default:
    return "";
  }
}

/// Every Name node in `node` (loads and stores) by id.
void countNames(const SExpr &node, std::map<std::string, int> &counts) {
  if (ast::is(node, ast::NodeKind::Name))
    ++counts[ast::id(node)];
  for (const SExpr &item : node.items)
    if (item.isList())
      countNames(item, counts);
}

/// Names bound by `node` (assignment targets, loop targets, except-as).
void boundNames(const SExpr &target, std::set<std::string> &names) {
  if (ast::is(target, ast::NodeKind::Name)) {
    names.insert(ast::id(target));
    return;
  }
  if (ast::is(target, ast::NodeKind::Tuple) || ast::is(target, ast::NodeKind::List))
    for (const SExpr *element : ast::elts(target))
      boundNames(*element, names);
}

/// Whether an iteration may read one of `privates` before it assigns it:
/// that value would come from the iteration before, which a parallel loop
/// cannot give. Statements are walked in order with the names definitely
/// assigned so far: both branches of an `if` must assign a name for it to
/// count after the `if` (a branch that continues, breaks or raises does not
/// reach it); a loop's or a try's body may not run to its end, so what they
/// assign does not count after them. The iteration ends at the end of the
/// body or at a `continue` of this loop: the names every iteration assigns
/// are those assigned on all of these paths.
class CarriedValues {
public:
  explicit CarriedValues(const std::set<std::string> &privates) : privates(privates) {}

  /// Whether an iteration of `body` may read a private name before it
  /// assigns it; `defined` (the loop's targets at first) ends as the names
  /// every iteration assigns.
  bool found(const SExpr &body, std::set<std::string> &defined) {
    if (statements(body, defined))
      endOfIteration(defined);
    defined = atEnd ? *atEnd : std::set<std::string>();
    return carried;
  }

private:
  /// Whether the statements can run to their end.
  bool statements(const SExpr &body, std::set<std::string> &defined) {
    for (const SExpr *stmt : body.rest())
      if (!statement(*stmt, defined))
        return false; // what follows never runs on this path
    return true;
  }

  void endOfIteration(const std::set<std::string> &defined) {
    if (!atEnd) {
      atEnd = defined;
      return;
    }
    std::set<std::string> both;
    for (const std::string &name : *atEnd)
      if (defined.count(name))
        both.insert(name);
    atEnd = std::move(both);
  }

  void reads(const SExpr &node, const std::set<std::string> &defined) {
    if (ast::is(node, ast::NodeKind::Name) && privates.count(ast::id(node)) &&
        !defined.count(ast::id(node)))
      carried = true;
    for (const SExpr &item : node.items)
      if (item.isList())
        reads(item, defined);
  }

  void bind(const SExpr &target, std::set<std::string> &defined) {
    if (ast::is(target, ast::NodeKind::Name)) {
      defined.insert(ast::id(target));
    } else if (ast::is(target, ast::NodeKind::Tuple) || ast::is(target, ast::NodeKind::List)) {
      for (const SExpr *element : ast::elts(target))
        bind(*element, defined);
    } else {
      reads(target, defined); // a[i] = ...: reads a and i
    }
  }

  /// A nested loop's body: its `continue` and `break` are its own.
  void nestedBody(const SExpr &body, std::set<std::string> defined) {
    ++nestedLoops;
    statements(body, defined);
    --nestedLoops;
  }

  /// Whether the statement can complete normally.
  bool statement(const SExpr &stmt, std::set<std::string> &defined) {
    switch (ast::kindOf(stmt)) {
    case ast::NodeKind::Assign:
      reads(ast::value(stmt), defined);
      for (const SExpr *target : ast::targets(stmt).rest())
        bind(*target, defined);
      return true;
    case ast::NodeKind::AugAssign:
      reads(ast::value(stmt), defined);
      reads(ast::target(stmt), defined); // x += 1 reads x first
      bind(ast::target(stmt), defined);
      return true;
    case ast::NodeKind::AnnAssign:
      if (ast::isNone(ast::value(stmt)))
        return true; // `t: int` binds nothing
      reads(ast::value(stmt), defined);
      bind(ast::target(stmt), defined);
      return true;
    case ast::NodeKind::Continue:
      if (nestedLoops == 0)
        endOfIteration(defined);
      return false;
    case ast::NodeKind::Break:
    case ast::NodeKind::Return:
      return false;
    case ast::NodeKind::Raise:
      reads(stmt, defined);
      return false;
    case ast::NodeKind::If: {
      reads(ast::test(stmt), defined);
      std::set<std::string> then = defined, otherwise = defined;
      bool thenFalls = statements(ast::body(stmt), then);
      bool otherwiseFalls = statements(ast::orelse(stmt), otherwise);
      if (thenFalls && !otherwiseFalls)
        defined = then;
      else if (otherwiseFalls && !thenFalls)
        defined = otherwise;
      else
        for (const std::string &name : then)
          if (otherwise.count(name))
            defined.insert(name);
      return thenFalls || otherwiseFalls;
    }
    case ast::NodeKind::For: {
      reads(ast::iter(stmt), defined);
      std::set<std::string> inner = defined;
      bind(ast::target(stmt), inner);
      nestedBody(ast::body(stmt), inner);
      std::set<std::string> after = defined;
      statements(ast::orelse(stmt), after);
      return true;
    }
    case ast::NodeKind::While: {
      reads(ast::test(stmt), defined);
      nestedBody(ast::body(stmt), defined);
      std::set<std::string> after = defined;
      statements(ast::orelse(stmt), after);
      return true;
    }
    case ast::NodeKind::Try: {
      std::set<std::string> inner = defined;
      statements(ast::body(stmt), inner);
      for (const SExpr *handler : ast::handlers(stmt).rest()) {
        std::set<std::string> caught = defined;
        if (!ast::isNone(ast::handlerName(*handler)))
          caught.insert(ast::handlerName(*handler).text);
        statements(ast::body(*handler), caught);
      }
      statements(ast::orelse(stmt), inner);
      return statements(ast::finalbody(stmt), defined);
    }
    default:
      reads(stmt, defined);
      return true;
    }
  }

  const std::set<std::string> &privates;
  bool carried = false;
  int nestedLoops = 0;
  /// The names assigned on every path that ended an iteration so far.
  std::optional<std::set<std::string>> atEnd;
};

/// Whether `type` is or holds a list or a dict (shared, mutable storage).
bool holdsContainer(const Type &type) {
  if (type.kind == Type::Kind::List || type.kind == Type::Kind::Dict)
    return true;
  for (const Type &element : type.elements)
    if (holdsContainer(element))
      return true;
  return false;
}

/// Names closures in `node` capture (read where the closure is called).
void capturedNames(const SExpr &node, std::set<std::string> &names) {
  if (ast::is(node, ast::NodeKind::Closure))
    for (const SExpr *capture : ast::captures(node).rest())
      if (ast::is(*capture, ast::NodeKind::Name))
        names.insert(ast::id(*capture));
  for (const SExpr &item : node.items)
    if (item.isList())
      capturedNames(item, names);
}

} // namespace

std::optional<FunctionEmitter::ParallelPlan> FunctionEmitter::parallelPlan(const SExpr &loop) {
  const SExpr &body = ast::body(loop);
  // Names the body binds other than by reducing into them (each iteration
  // starts them afresh: private to the thread).
  std::set<std::string> plain;
  // name -> (kind, how many of its Name nodes the reduction statements hold)
  std::map<std::string, std::pair<std::string, int>> candidates;
  std::set<std::string> notReductions;
  bool serial = false;
  auto addCandidate = [&](const std::string &name, const std::string &kind, int names) {
    auto [it, inserted] = candidates.try_emplace(name, kind, 0);
    if (!inserted && it->second.first != kind)
      notReductions.insert(name); // x += a; x *= b
    it->second.second += names;
  };
  // (Loops nested in the body may break; only this loop's own break stops it.)
  std::function<void(const SExpr &, bool)> scan = [&](const SExpr &node, bool inNestedLoop) {
    ast::NodeKind kind = ast::kindOf(node);
    switch (kind) {
    case ast::NodeKind::Return:
      serial = true;
      return;
    case ast::NodeKind::Break:
      serial |= !inNestedLoop;
      return;
    case ast::NodeKind::Assign: {
      const auto targets = ast::targets(node).rest();
      // x = min(x, e) and x = max(x, e) reduce too.
      const SExpr &value = ast::value(node);
      if (targets.size() == 1 && ast::is(*targets[0], ast::NodeKind::Name) &&
          ast::is(value, ast::NodeKind::Call) && ast::is(ast::func(value), ast::NodeKind::Name) &&
          ast::args(value).rest().size() == 2 && ast::keywords(value).items.size() <= 1) {
        const std::string &name = ast::id(*targets[0]);
        NameBinding callee = typer.resolve(spec, ast::id(ast::func(value)));
        bool minOrMax = callee.kind == NameBinding::Kind::Builtin &&
                        (callee.name == "min" || callee.name == "max");
        const SExpr &first = *ast::args(value).rest()[0];
        if (minOrMax && ast::is(first, ast::NodeKind::Name) && ast::id(first) == name) {
          addCandidate(name, callee.name, 2);
          break;
        }
      }
      for (const SExpr *target : targets)
        boundNames(*target, plain);
      break;
    }
    case ast::NodeKind::AugAssign: {
      const SExpr &target = ast::target(node);
      if (ast::is(target, ast::NodeKind::Name)) {
        std::string reduction = augmentedKind(ast::op(node));
        if (reduction.empty())
          notReductions.insert(ast::id(target));
        else
          addCandidate(ast::id(target), reduction, 1);
      }
      break;
    }
    case ast::NodeKind::AnnAssign:
    case ast::NodeKind::For:
      boundNames(ast::target(node), plain);
      break;
    case ast::NodeKind::Delete:
      serial = true;
      return;
    case ast::NodeKind::ExceptHandler:
      if (!ast::isNone(ast::handlerName(node)))
        plain.insert(ast::handlerName(node).text);
      break;
    // (print, here or in a function called, runs Python, which the pool's
    // workers never do: plait-outline-parallel then runs the loop serially.)
    default:
      break;
    }
    bool nested = inNestedLoop || kind == ast::NodeKind::For || kind == ast::NodeKind::While;
    for (const SExpr &item : node.items)
      if (item.isList())
        scan(item, nested);
  };
  scan(body, false);
  if (serial)
    return std::nullopt;
  std::map<std::string, int> names;
  countNames(body, names);
  auto local = [&](const std::string &name) {
    return typer.resolve(spec, name).kind == NameBinding::Kind::Local;
  };
  // A list or dict from outside the body, read in it (a method, an alias, an
  // argument of a call that may change it): threads would share it.
  for (const auto &[name, count] : names) {
    auto variable = spec.variables.find(name);
    if (local(name) && !plain.count(name) && variable != spec.variables.end() &&
        holdsContainer(variable->second))
      return std::nullopt;
  }
  // A closure reads its enclosing function's variables when it is called: a
  // variable it captures may be read by any iteration, or before.
  std::set<std::string> captured;
  capturedNames(spec.source->definition, captured);
  for (const std::string &name : captured)
    if (plain.count(name) || candidates.count(name))
      return std::nullopt;
  ParallelPlan plan;
  for (const auto &[name, reduction] : candidates) {
    const auto &[kind, reductionNames] = reduction;
    if (plain.count(name))
      continue; // x = 0, then x += ... in a nested loop: private
    // Read anywhere else, the variable carries values between iterations.
    if (names[name] != reductionNames)
      return std::nullopt;
    const Type &type = spec.variables.at(name);
    if (type.kind == Type::Kind::Array) {
      // acc += row: element by element, into an array per thread. (Not bool
      // or complex arrays, nor min and max, which take a ufunc.)
      bool bitwise = kind == "or" || kind == "and";
      bool integer = type.dtype != DType::Bool && !isFloatDType(type.dtype) &&
                     !isComplexDType(type.dtype);
      bool numeric = integer || (!bitwise && isFloatDType(type.dtype));
      // (An array bound once, before the loop: an SSA value the loop can
      // name even when it runs no iteration.)
      if (!numeric || kind == "min" || kind == "max" || (type.fortran && type.contiguous) ||
          !arrays.count(name))
        return std::nullopt;
      plan.arrayReductions.push_back({name, kind});
      continue;
    }
    // Numbers only: a str or a list `+=` concatenates, in order.
    bool number = type.kind == Type::Kind::Int || type.kind == Type::Kind::Float ||
                  type.kind == Type::Kind::Bool ||
                  (type.kind == Type::Kind::NumPy && !isComplexDType(type.dtype));
    auto slot = slots.find(name);
    if (!number || slot == slots.end() || slot->second.size() != 1)
      return std::nullopt;
    auto memref = slot->second[0].getType().dyn_cast<mlir::MemRefType>();
    mlir::Type element = memref ? memref.getElementType() : mlir::Type();
    bool bitwise = kind == "or" || kind == "and";
    if (!element || !(element.isSignlessInteger() || (!bitwise && element.isa<mlir::FloatType>())))
      return std::nullopt;
    std::string chosen = kind;
    // Python ints raise OverflowError where int64 ends (NumPy's wrap);
    // bools and unsigned ints compare unsigned.
    if (type.kind == Type::Kind::Int && checksOverflow() && (kind == "add" || kind == "mul"))
      chosen = "checked_" + kind;
    bool isUnsigned = type.kind == Type::Kind::Bool ||
                      (type.kind == Type::Kind::NumPy &&
                       (type.dtype == DType::Bool || isUnsignedDType(type.dtype)));
    if (isUnsigned && (kind == "min" || kind == "max"))
      chosen = "u" + kind;
    plan.reductions.push_back({slot->second[0], chosen});
  }
  for (const std::string &name : notReductions)
    if (!plain.count(name))
      return std::nullopt; // x //= 2 in every iteration: a chain, not a reduction
  std::set<std::string> assignedEveryTime;
  boundNames(ast::target(loop), assignedEveryTime);
  if (CarriedValues(plain).found(body, assignedEveryTime))
    return std::nullopt; // x = x * 3 + i: each iteration needs the one before
  // After the loop a variable holds what the last iteration left: when only
  // some iterations assign it (`if c: found = i`) and the code after the
  // loop reads it, it must be the last such iteration's value, which the
  // last chunk alone does not know.
  std::map<std::string, int> inFunction, inLoop; // (the loop's else is after it)
  countNames(spec.source->definition, inFunction);
  countNames(body, inLoop);
  countNames(ast::target(loop), inLoop);
  for (const std::string &name : plain)
    if (!assignedEveryTime.count(name) && inFunction[name] > inLoop[name])
      return std::nullopt;
  return plan;
}

void FunctionEmitter::emitParallelLoop(const SExpr &stmt, Value start, Value stop, Value step,
                                       const ParallelPlan &plan) {
  Location l = loc(stmt);
  Value count = dialect::tripCount(builder, l, start, stop, step);
  llvm::SmallVector<Value> reductionSlots, reducedArrays;
  llvm::SmallVector<mlir::Attribute> kinds, arrayKinds;
  for (const auto &[slot, kind] : plan.reductions) {
    reductionSlots.push_back(slot);
    kinds.push_back(builder.getStringAttr(kind));
  }
  // A reduced array is bound once, before the loop (parallelPlan): one value
  // the body updates in place.
  for (const auto &[name, kind] : plan.arrayReductions) {
    reducedArrays.push_back(arrays.at(name));
    arrayKinds.push_back(builder.getStringAttr(kind));
  }
  auto loop = builder.create<dialect::ParallelForOp>(
      l, start, step, count, reductionSlots, builder.getArrayAttr(kinds), reducedArrays,
      builder.getArrayAttr(arrayKinds));
  Block *body = new Block();
  loop.getBody().push_back(body);
  Value variable = body->addArgument(builder.getI64Type(), l);
  startBlock(body);
  // The body is a function of its own: an error in it returns from there
  // (the call's status raises it here, inside the tries around the loop).
  std::vector<TryScope> outerTries = std::move(tries);
  tries.clear();
  emitIteration(stmt, Val{Type::integer(), {variable}});
  tries = std::move(outerTries);
  builder.setInsertionPointAfter(loop);
  emitBody(ast::orelse(stmt)); // no break: the else always runs
}

} // namespace plait::frontend::detail
