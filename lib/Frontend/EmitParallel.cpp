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
/// count after the `if`; a loop's or a try's body may not run to its end,
/// so what they assign does not count after them.
class CarriedValues {
public:
  explicit CarriedValues(const std::set<std::string> &privates) : privates(privates) {}

  /// Whether an iteration of `body` may read a private name before it
  /// assigns it; `defined` (the loop's targets at first) ends as the names
  /// every iteration assigns.
  bool found(const SExpr &body, std::set<std::string> &defined) {
    statements(body, defined);
    return carried;
  }

private:
  void statements(const SExpr &body, std::set<std::string> &defined) {
    for (const SExpr *stmt : body.rest())
      statement(*stmt, defined);
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

  void statement(const SExpr &stmt, std::set<std::string> &defined) {
    switch (ast::kindOf(stmt)) {
    case ast::NodeKind::Assign:
      reads(ast::value(stmt), defined);
      for (const SExpr *target : ast::targets(stmt).rest())
        bind(*target, defined);
      return;
    case ast::NodeKind::AugAssign:
      reads(ast::value(stmt), defined);
      reads(ast::target(stmt), defined); // x += 1 reads x first
      bind(ast::target(stmt), defined);
      return;
    case ast::NodeKind::AnnAssign:
      if (!ast::isNone(ast::value(stmt)))
        reads(ast::value(stmt), defined);
      bind(ast::target(stmt), defined);
      return;
    case ast::NodeKind::If: {
      reads(ast::test(stmt), defined);
      std::set<std::string> then = defined, otherwise = defined;
      statements(ast::body(stmt), then);
      statements(ast::orelse(stmt), otherwise);
      for (const std::string &name : then)
        if (otherwise.count(name))
          defined.insert(name);
      return;
    }
    case ast::NodeKind::For: {
      reads(ast::iter(stmt), defined);
      std::set<std::string> inner = defined;
      bind(ast::target(stmt), inner);
      statements(ast::body(stmt), inner);
      std::set<std::string> after = defined;
      statements(ast::orelse(stmt), after);
      return;
    }
    case ast::NodeKind::While: {
      reads(ast::test(stmt), defined);
      std::set<std::string> inner = defined;
      statements(ast::body(stmt), inner);
      std::set<std::string> after = defined;
      statements(ast::orelse(stmt), after);
      return;
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
      statements(ast::finalbody(stmt), defined);
      return;
    }
    default:
      reads(stmt, defined);
    }
  }

  const std::set<std::string> &privates;
  bool carried = false;
};

} // namespace

std::optional<FunctionEmitter::ParallelPlan> FunctionEmitter::parallelPlan(const SExpr &loop) {
  const SExpr &body = ast::body(loop);
  // Names the body binds, and those it binds other than by reducing into
  // them (each iteration starts them afresh: private to the thread).
  std::set<std::string> binds, plain;
  // name -> (kind, how many of its Name nodes the reduction statements hold)
  std::map<std::string, std::pair<std::string, int>> candidates;
  std::set<std::string> notReductions;
  bool serial = false;
  // (Only local variables and items are asked for: a module's name has no type.)
  auto isContainer = [&](const SExpr &node) {
    Type::Kind kind;
    if (ast::is(node, ast::NodeKind::Name) &&
        typer.resolve(spec, ast::id(node)).kind == NameBinding::Kind::Local)
      kind = spec.variables[ast::id(node)].kind;
    else if (ast::is(node, ast::NodeKind::Subscript))
      kind = spec.typeOf(node).kind;
    else
      return false;
    return kind == Type::Kind::List || kind == Type::Kind::Dict;
  };
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
      for (const SExpr *target : targets) {
        boundNames(*target, binds);
        if (ast::is(*target, ast::NodeKind::Subscript) && isContainer(ast::value(*target)))
          serial = true;
      }
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
      boundNames(target, binds);
      if (ast::is(target, ast::NodeKind::Subscript) && isContainer(ast::value(target)))
        serial = true;
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
      boundNames(ast::target(node), binds);
      boundNames(ast::target(node), plain);
      break;
    case ast::NodeKind::Delete:
      serial = true;
      return;
    case ast::NodeKind::ExceptHandler:
      if (!ast::isNone(ast::handlerName(node))) {
        binds.insert(ast::handlerName(node).text);
        plain.insert(ast::handlerName(node).text);
      }
      break;
    case ast::NodeKind::Call: {
      const SExpr &callee = ast::func(node);
      // (print, here or in a function called, runs Python, which the pool's
      // workers never do: plait-outline-parallel then runs the loop serially.)
      if (ast::is(callee, ast::NodeKind::Attribute) && isContainer(ast::value(callee))) {
        // A method of a list or dict made outside may change it.
        const SExpr &owner = ast::value(callee);
        if (!ast::is(owner, ast::NodeKind::Name) || !binds.count(ast::id(owner)))
          serial = true;
      }
      break;
    }
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
  ParallelPlan plan;
  for (const auto &[name, reduction] : candidates) {
    const auto &[kind, reductionNames] = reduction;
    if (plain.count(name))
      continue; // x = 0, then x += ... in a nested loop: private
    // Read anywhere else, the variable carries values between iterations.
    if (names[name] != reductionNames)
      return std::nullopt;
    const Type &type = spec.variables[name];
    if (type.kind == Type::Kind::Array) {
      // acc += row: element by element, into an array per thread. (Not bool
      // or complex arrays, nor min and max, which take a ufunc.)
      bool bitwise = kind == "or" || kind == "and";
      bool integer = type.dtype != DType::Bool && !isFloatDType(type.dtype) &&
                     !isComplexDType(type.dtype);
      bool numeric = integer || (!bitwise && isFloatDType(type.dtype));
      if (!numeric || kind == "min" || kind == "max" || (type.fortran && type.contiguous))
        return std::nullopt;
      plan.arrayReductions.push_back({name, kind});
      continue;
    }
    auto slot = slots.find(name);
    if (slot == slots.end() || slot->second.size() != 1)
      return std::nullopt;
    mlir::Type element = slot->second[0].getType().cast<mlir::MemRefType>().getElementType();
    bool bitwise = kind == "or" || kind == "and";
    if (!(element.isSignlessInteger() || (!bitwise && element.isa<mlir::FloatType>())))
      return std::nullopt;
    // Python ints raise OverflowError where int64 ends (NumPy's wrap).
    bool checked = spec.variables[name].kind == Type::Kind::Int && module.options.checkOverflow &&
                   (kind == "add" || kind == "mul");
    plan.reductions.push_back({slot->second[0], checked ? "checked_" + kind : kind});
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
  std::map<std::string, int> inFunction, inLoop;
  countNames(spec.source->definition, inFunction);
  countNames(loop, inLoop);
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
  // A reduced array is one value for the whole loop (the body updates it in
  // place, never rebinds it): an array variable's slot is read before.
  std::vector<std::string> loadedArrays;
  for (const auto &[name, kind] : plan.arrayReductions) {
    auto ssa = arrays.find(name);
    if (ssa == arrays.end()) {
      arrays[name] = loadVariable(name, stmt).leaves[0];
      loadedArrays.push_back(name);
    }
    reducedArrays.push_back(arrays[name]);
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
  for (const std::string &name : loadedArrays)
    arrays.erase(name);
  emitBody(ast::orelse(stmt)); // no break: the else always runs
}

} // namespace plait::frontend::detail
