//===- VersionLoops.cpp - plait-version-loops -----------------------------===//
//
// Loop versioning: an innermost plait.for whose checks a single guard before
// the loop can settle runs as a copy without them when the guard holds.
//
// - Bounds: `plait.index %x, %size` with %x the loop variable i, i + k,
//   k + i, i - k or k, where k and the array's size are fixed before the loop
//   (defined outside it, or computed inside from such values by operations
//   without effects). The guard checks 0 <= x < size at both ends of the
//   range; the copy uses x as the position.
// - Counters: int slots that the loop changes only by `c = c + term` or
//   `c = c - term` (checked), where terms are +, -, * and `% k` (k a positive
//   constant) of constants, i and fixed values. The guard bounds the
//   magnitude of every term and intermediate value over the range (all
//   below 2**62, as the counter's start and trips * the terms' bound): the
//   copy's updates and terms cannot overflow, so they are `proven` (LLVM's
//   nsw: a square is then known non-negative), and dividends of
//   `% k` proved non-negative are marked so (plait.assume_nonnegative) for
//   plait-unsigned-remainder.
//
// The checked loop runs otherwise, and raises exactly where CPython would:
// the guard itself never raises (its int arithmetic wraps; a wrapped value
// only makes it fail).
//
// Speculation: in the entry named by the module's plait.speculative_entry,
// a loop of the entry block whose every preceding operation only reads, or
// writes the function's own stack slots, gets no checked copy. When its
// guard fails the function returns the speculation status instead (a
// plait.raise_if of plait.SpeculationFailed), having changed nothing a
// caller can see, and the dispatcher runs it again compiled without
// speculation. The checked copy costs as much to compile as the loop and
// rarely runs; compiled only when needed, it is paid only then.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"
#include "plait/Dialect/Plait/RangeLoops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <functional>

namespace plait::dialect {
#define GEN_PASS_DEF_VERSIONLOOPS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

using P = arith::CmpIPredicate;

/// Constants of terms stay far from int64's limits (as CPython's small ints).
constexpr int64_t kLargestTermConstant = 99'999'999'999'999'999;
/// The operations of a counter's terms, together: the guard's rounding stays
/// far below its margin (see guardCounters).
constexpr int kLargestTermSize = 1000;

/// Whether `function` is the module's speculative entry, and nothing can
/// catch its speculation status on the way to the dispatcher: no
/// try statement in it, and no call of it in the module.
bool isSpeculativeEntry(func::FuncOp function) {
  auto module = function->getParentOfType<ModuleOp>();
  auto named = module ? module->getAttrOfType<StringAttr>(kSpeculativeEntryAttrName) : nullptr;
  if (!named || named.getValue() != function.getSymName())
    return false;
  if (function.walk([](TryOp) { return WalkResult::interrupt(); }).wasInterrupted())
    return false;
  return SymbolTable::symbolKnownUseEmpty(function, module);
}

/// Running `op` again from the same state repeats nothing observable: it
/// reads, or writes only the function's stack slots or the error state
/// (raising ends the call anyway). Operations of its regions are asked on
/// their own.
bool repeatable(Operation *op) {
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) // a terminator only passes control; anything else may do anything
    return op->hasTrait<OpTrait::IsTerminator>();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &effect) {
    if (isa<MemoryEffects::Read>(effect.getEffect()) ||
        isa<ErrorStateResource>(effect.getResource()))
      return true;
    Value on = effect.getValue();
    return on && on.getDefiningOp<memref::AllocaOp>();
  });
}

/// `loop` is in the entry block of a speculative entry and everything
/// before it is repeatable: the function may stop there and run again.
bool mayRestartAt(ForOp loop, func::FuncOp function) {
  if (loop->getBlock() != &function.getBody().front())
    return false;
  for (Operation &before : *loop->getBlock()) {
    if (&before == loop.getOperation())
      return true;
    if (before.walk([](Operation *op) {
                return repeatable(op) ? WalkResult::advance() : WalkResult::interrupt();
              }).wasInterrupted())
      return false;
  }
  return false;
}

class LoopVersioner {
public:
  LoopVersioner(ForOp loop, bool speculativeEntry)
      : loop(loop), body(loop.getBody()), speculativeEntry(speculativeEntry) {}

  /// Versions the loop if a guard can drop some of its checks.
  void run() {
    if (!qualifies())
      return;
    collectAccesses();
    collectCounters();
    if (accesses.empty() && counters.empty())
      return;
    speculative = speculativeEntry && mayRestartAt(loop, loop->getParentOfType<func::FuncOp>());
    OpBuilder b(loop);
    Value ok = guard(b);
    version(b, ok);
  }

private:
  /// One guarded index: i + offset (or i - offset), or offset alone.
  struct Access {
    IndexOp op;
    bool affine;
    Value offset; // null: 0
    bool subtract;
  };
  struct Counter {
    Value slot;
    SmallVector<Operation *> updates; // the plait.add/sub that compute the new value
    SmallVector<Value> terms;
  };

  //===--------------------------------------------------------------------===//
  // Analysis
  //===--------------------------------------------------------------------===//

  /// The innermost loop with bounds checks: no cycle of blocks in the body
  /// (a while loop), and no loop inside that checks bounds itself (loops
  /// of plait's own, over an array's elements, may be inside). Only the
  /// body's own blocks are guarded: each of their operations runs at most
  /// once per iteration.
  bool qualifies() {
    bool nestedChecks = false;
    loop.getBody().walk([&](ForOp inner) {
      inner.getBody().walk([&](IndexOp index) { nestedChecks |= !index.getUnchecked(); });
    });
    if (nestedChecks)
      return false;
    // Depth-first search for a back edge among the body's blocks.
    DenseMap<Block *, int> state; // 1: on the stack, 2: done
    std::function<bool(Block *)> cyclic = [&](Block *block) {
      state[block] = 1;
      for (Block *next : block->getSuccessors()) {
        if (state[next] == 1 || (state[next] == 0 && cyclic(next)))
          return true;
      }
      state[block] = 2;
      return false;
    };
    return !cyclic(&body.front());
  }

  bool insideLoop(Value value) {
    Region *region = value.getParentRegion();
    return region == &body || body.isAncestor(region);
  }

  /// A value the guard can compute before the loop: defined outside it, or
  /// by an operation without effects whose operands are such values.
  bool fixedBeforeLoop(Value value) {
    if (!insideLoop(value))
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || !isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) { return fixedBeforeLoop(operand); });
  }

  /// The value of a fixed value before the loop (cloned there if needed).
  Value beforeLoop(OpBuilder &b, Value value) {
    if (!insideLoop(value))
      return value;
    if (Value known = hoisted.lookupOrNull(value))
      return known;
    Operation *def = value.getDefiningOp();
    for (Value operand : def->getOperands())
      hoisted.map(operand, beforeLoop(b, operand));
    Operation *copy = b.clone(*def, hoisted);
    return hoisted.lookup(value) ? hoisted.lookup(value) : copy->getResult(0);
  }

  bool isVariable(Value value) { return value == loop.getInductionVar(); }

  /// Whether `op` is in one of the body's own blocks (not in a nested loop).
  bool direct(Operation *op) { return op->getParentRegion() == &body; }

  void collectAccesses() {
    body.walk([&](IndexOp index) {
      if (index.getUnchecked() || !direct(index) || !fixedBeforeLoop(index.getSize()))
        return;
      Value x = index.getIndex();
      Access access{index, true, nullptr, false};
      if (isVariable(x)) {
        accesses.push_back(access);
        return;
      }
      auto [lhs, rhs, isAdd] = binaryOperands(x);
      if (lhs && isAdd && isVariable(lhs) && fixedBeforeLoop(rhs))
        access.offset = rhs;
      else if (lhs && isAdd && isVariable(rhs) && fixedBeforeLoop(lhs))
        access.offset = lhs;
      else if (lhs && !isAdd && isVariable(lhs) && fixedBeforeLoop(rhs))
        access.offset = rhs, access.subtract = true;
      else if (fixedBeforeLoop(x))
        access = {index, false, x, false};
      else
        return;
      accesses.push_back(access);
    });
  }

  /// The operands of a plait.add or plait.sub (and which), or nulls.
  std::tuple<Value, Value, bool> binaryOperands(Value value) {
    if (auto add = value.getDefiningOp<AddOp>())
      return {add.getLhs(), add.getRhs(), true};
    if (auto sub = value.getDefiningOp<SubOp>())
      return {sub.getLhs(), sub.getRhs(), false};
    return {nullptr, nullptr, false};
  }

  /// Integer arithmetic of constants, the loop variable and fixed values,
  /// whose every value the guard can bound.
  bool boundedTerm(Value value) {
    if (++termOperations > kLargestTermSize)
      return false;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getBitWidth() == 64 && constant.abs().sle(APInt(64, kLargestTermConstant));
    if (isVariable(value))
      return true;
    if (!insideLoop(value))
      return value.getType().isInteger(64);
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<AddOp, SubOp, MulOp>(def))
      return boundedTerm(def->getOperand(0)) && boundedTerm(def->getOperand(1));
    if (auto mod = dyn_cast_or_null<ModOp>(def)) {
      APInt divisor; // x % k, k > 0: in [0, k)
      return matchPattern(mod.getRhs(), m_ConstantInt(&divisor)) && divisor.sgt(0) &&
             divisor.sle(APInt(64, kLargestTermConstant)) && boundedTerm(mod.getLhs());
    }
    return false;
  }

  void collectCounters() {
    // Slots stored to in the loop, with what is stored.
    DenseMap<Value, SmallVector<memref::StoreOp>> stores;
    body.walk([&](memref::StoreOp store) { stores[store.getMemRef()].push_back(store); });
    for (auto &[slot, slotStores] : stores) {
      if (!llvm::all_of(slotStores, [&](memref::StoreOp store) { return direct(store); }))
        continue;
      auto type = slot.getType().dyn_cast<MemRefType>();
      if (!type || type.getRank() != 0 || !type.getElementType().isInteger(64) || insideLoop(slot) ||
          !slot.getDefiningOp<memref::AllocaOp>())
        continue;
      Counter counter{slot, {}, {}};
      bool ok = true;
      termOperations = 0;
      for (memref::StoreOp store : slotStores) {
        // c = c + term, c = term + c or c = c - term.
        auto [lhs, rhs, isAdd] = binaryOperands(store.getValue());
        auto loadsCounter = [&](Value v) {
          auto load = v ? v.getDefiningOp<memref::LoadOp>() : memref::LoadOp();
          return load && load.getMemRef() == slot;
        };
        Value term = loadsCounter(lhs) ? rhs : isAdd && loadsCounter(rhs) ? lhs : nullptr;
        if (!term || !boundedTerm(term)) {
          ok = false;
          break;
        }
        counter.updates.push_back(store.getValue().getDefiningOp());
        counter.terms.push_back(term);
      }
      if (ok && worthGuarding(counter))
        counters.push_back(counter);
    }
  }

  /// Whether the copy would differ for this counter: one of its updates or
  /// terms checks for overflow, or takes a remainder (a non-negative
  /// dividend needs no sign fix-up). With overflow='wrap' and no `%`, both
  /// copies would be the same loop, compiled twice.
  bool worthGuarding(const Counter &counter) {
    bool gains = llvm::any_of(counter.updates, checksOverflow);
    for (Value term : counter.terms)
      forEachTermOp(term, [&](Operation *op) { gains |= isa<ModOp>(op) || checksOverflow(op); });
    return gains;
  }

  /// Visits the operations of a term inside the loop (+, -, * and %).
  void forEachTermOp(Value term, function_ref<void(Operation *)> visit) {
    Operation *def = term.getDefiningOp();
    if (!def || !insideLoop(term) || !isa<AddOp, SubOp, MulOp, ModOp>(def))
      return;
    visit(def);
    for (Value operand : def->getOperands())
      forEachTermOp(operand, visit);
  }

  //===--------------------------------------------------------------------===//
  // The guard
  //===--------------------------------------------------------------------===//

  Value guard(OpBuilder &b) {
    Location l = loop.getLoc();
    auto i64 = [&](int64_t v) { return b.create<arith::ConstantIntOp>(l, v, 64).getResult(); };
    auto cmp = [&](P p, Value x, Value y) { return b.create<arith::CmpIOp>(l, p, x, y).getResult(); };
    auto select = [&](Value c, Value x, Value y) { return b.create<arith::SelectOp>(l, c, x, y).getResult(); };
    auto both = [&](Value x, Value y) { return b.create<arith::AndIOp>(l, x, y).getResult(); };
    Value first = loop.getStart(), step = loop.getStep();
    trips = tripCount(b, l, first, loop.getStop(), step);
    Value last = lastElement(b, l, first, step, trips);
    Value ascending = cmp(P::sgt, step, i64(0));
    low = select(ascending, first, last);
    high = select(ascending, last, first);
    Value ok = b.create<arith::ConstantIntOp>(l, 1, 1);
    // Accesses: from..to inside [0, size) for every element of the range.
    // Wrapping arithmetic: a wrapped bound only makes the guard fail.
    for (Access &access : accesses) {
      Value size = beforeLoop(b, access.op.getSize());
      Value offset = access.offset ? beforeLoop(b, access.offset) : i64(0);
      Value from = offset, to = offset;
      if (access.affine && access.subtract) {
        from = b.create<arith::SubIOp>(l, low, offset);
        to = b.create<arith::SubIOp>(l, high, offset);
      } else if (access.affine) {
        from = b.create<arith::AddIOp>(l, low, offset);
        to = b.create<arith::AddIOp>(l, high, offset);
      }
      // 0 <= from <= to < size in two unsigned comparisons: a size is below
      // 2**63, so to <u size puts `to` in [0, size), and from <=u to then
      // puts `from` in [0, to]. (Each step its own statement: C++ leaves the
      // order of arguments' evaluation, and so of the emitted operations,
      // unspecified.)
      Value ordered = cmp(P::ule, from, to);
      Value belowSize = cmp(P::ult, to, size);
      ok = both(ok, both(ordered, belowSize));
    }
    if (!counters.empty())
      ok = both(ok, guardCounters(b));
    // An empty range runs no iteration: either copy will do.
    return b.create<arith::OrIOp>(l, cmp(P::eq, trips, i64(0)), ok);
  }

  /// Bounds every term and intermediate value over the loop's range (see the
  /// file comment). Magnitudes are bounded in f64, where sums and products
  /// of non-negative values only round (no cancellation): each operation
  /// loses at most a factor (1 - 2**-53), so a computed bound below
  /// 2**62 * (1 - 2**-40) proves the exact one below 2**62 for terms of up to
  /// kLargestTermSize operations. Signed intervals, in i64, are computed only
  /// for the dividends of `% k`; the magnitude bounds of the same values
  /// keep them from wrapping whenever the guard holds. (LLVM compiles this
  /// guard in a fraction of the time of i128 interval arithmetic.)
  ///
  /// The magnitudes that must stay below the limit are added up and the sum
  /// compared once: a rounded sum of non-negative values is at least each of
  /// them, so it proves each bound; it fails only where they add up to
  /// 2**62, far above what loops count to. One addition per bound instead of
  /// a comparison and a conjunction keeps the guard small, and every
  /// operation of it costs compile time in each phase after this one.
  Value guardCounters(OpBuilder &b) {
    Location l = loop.getLoc();
    FloatType f64 = b.getF64Type();
    auto real = [&](double v) {
      return b.create<arith::ConstantFloatOp>(l, APFloat(v), f64).getResult();
    };
    auto i64 = [&](int64_t v) { return b.create<arith::ConstantIntOp>(l, v, 64).getResult(); };
    auto larger = [&](Value x, Value y) {
      auto above = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, x, y);
      return b.create<arith::SelectOp>(l, above, x, y).getResult();
    };
    // |v| of an i64, rounded to f64 (2**63 for INT64_MIN).
    auto magnitudeOf = [&](Value v) {
      return b.create<math::AbsFOp>(l, b.create<arith::SIToFPOp>(l, f64, v)).getResult();
    };
    Value limit = real(0x1p62 * (1.0 - 0x1p-40));
    Value ok = b.create<arith::ConstantIntOp>(l, 1, 1);
    auto require = [&](Value c) { ok = b.create<arith::AndIOp>(l, ok, c); };
    // The sum of the magnitudes that must stay small; constants are (see
    // kLargestTermConstant). No signed zeros: a start of 0 adds +0.0, which
    // LLVM may then drop.
    Value bounds;
    auto small = [&](Value m) {
      if (matchPattern(m, m_Constant()))
        return;
      bounds =
          bounds ? b.create<arith::AddFOp>(l, bounds, m, arith::FastMathFlags::nsz).getResult() : m;
    };
    Value variableMagnitude = larger(magnitudeOf(low), magnitudeOf(high));

    DenseMap<Value, Value> magnitudes;
    std::function<Value(Value)> magnitude = [&](Value value) -> Value {
      if (Value known = magnitudes.lookup(value))
        return known;
      Value m;
      APInt constant;
      Operation *def = value.getDefiningOp();
      if (matchPattern(value, m_ConstantInt(&constant))) {
        m = real(std::abs(double(constant.getSExtValue())));
      } else if (isVariable(value)) {
        m = variableMagnitude;
      } else if (!insideLoop(value)) {
        m = magnitudeOf(value);
      } else if (auto mod = dyn_cast<ModOp>(def)) {
        // x % k with k > 0 is in [0, k). The guard also asks for a
        // non-negative dividend: the copy then needs no sign fix-up.
        // (The dividend's magnitude bounds, checked, keep its i64
        // interval from wrapping when the guard holds.)
        magnitude(mod.getLhs());
        require(b.create<arith::CmpIOp>(l, P::sge, interval(mod.getLhs()).first, i64(0)));
        nonNegativeDividends.insert(mod);
        m = magnitude(mod.getRhs());
      } else {
        Value x = magnitude(def->getOperand(0)), y = magnitude(def->getOperand(1));
        if (isa<MulOp>(def))
          m = b.create<arith::MulFOp>(l, x, y);
        else
          m = b.create<arith::AddFOp>(l, x, y);
      }
      small(m);
      magnitudes[value] = m;
      return m;
    };
    for (Counter &counter : counters) {
      Value bound;
      for (Value term : counter.terms) {
        Value m = magnitude(term);
        bound = bound ? b.create<arith::AddFOp>(l, bound, m).getResult() : m;
        // The term's checked operations cannot overflow in the copy.
        forEachTermOp(term, [&](Operation *op) { uncheckedOps.insert(op); });
      }
      // (An unbound slot is read as it is: the loop raises for it itself.)
      small(magnitudeOf(b.create<memref::LoadOp>(l, counter.slot)));
      Value trips = b.create<arith::SIToFPOp>(l, f64, this->trips);
      small(b.create<arith::MulFOp>(l, trips, bound));
      for (Operation *update : counter.updates)
        uncheckedOps.insert(update);
    }
    assert(bounds && "each counter adds its trips * bound");
    return b.create<arith::AndIOp>(
        l, ok, b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, bounds, limit));
  }

  /// The signed interval of an (i64) term over the loop's range, wrapping:
  /// exact when the term's magnitude bounds hold.
  std::pair<Value, Value> interval(Value value) {
    if (auto known = intervals.find(value); known != intervals.end())
      return known->second;
    OpBuilder b(loop);
    Location l = loop.getLoc();
    auto i64 = [&](int64_t v) { return b.create<arith::ConstantIntOp>(l, v, 64).getResult(); };
    auto select = [&](P p, Value x, Value y) {
      return b.create<arith::SelectOp>(l, b.create<arith::CmpIOp>(l, p, x, y), x, y).getResult();
    };
    std::pair<Value, Value> r;
    APInt constant;
    Operation *def = value.getDefiningOp();
    if (matchPattern(value, m_ConstantInt(&constant))) {
      Value c = i64(constant.getSExtValue());
      r = {c, c};
    } else if (isVariable(value)) {
      r = {low, high};
    } else if (!insideLoop(value)) {
      r = {value, value};
    } else if (auto mod = dyn_cast<ModOp>(def)) {
      r = {i64(0), b.create<arith::SubIOp>(l, interval(mod.getRhs()).second, i64(1))};
    } else {
      auto [alo, ahi] = interval(def->getOperand(0));
      auto [blo, bhi] = interval(def->getOperand(1));
      if (isa<AddOp>(def)) {
        r = {b.create<arith::AddIOp>(l, alo, blo), b.create<arith::AddIOp>(l, ahi, bhi)};
      } else if (isa<SubOp>(def)) {
        r = {b.create<arith::SubIOp>(l, alo, bhi), b.create<arith::SubIOp>(l, ahi, blo)};
      } else { // products: the extremes are among the corners
        Value p[4] = {b.create<arith::MulIOp>(l, alo, blo), b.create<arith::MulIOp>(l, alo, bhi),
                      b.create<arith::MulIOp>(l, ahi, blo), b.create<arith::MulIOp>(l, ahi, bhi)};
        Value lo = p[0], hi = p[0];
        for (int k = 1; k < 4; ++k) {
          lo = select(P::slt, lo, p[k]);
          hi = select(P::sgt, hi, p[k]);
        }
        if (def->getOperand(0) == def->getOperand(1)) { // x * x >= 0, and 0 when the range holds 0
          Value fromBelow = b.create<arith::CmpIOp>(l, P::sle, alo, i64(0));
          Value toAbove = b.create<arith::CmpIOp>(l, P::sge, ahi, i64(0));
          Value holdsZero = b.create<arith::AndIOp>(l, fromBelow, toAbove);
          lo = b.create<arith::SelectOp>(l, holdsZero, i64(0), select(P::slt, p[0], p[3]));
        }
        r = {lo, hi};
      }
    }
    intervals[value] = r;
    return r;
  }

  //===--------------------------------------------------------------------===//
  // The two copies
  //===--------------------------------------------------------------------===//

  /// %exit = scf.if %ok { the copy without the proven checks } else { the
  /// loop, or when speculative, the speculation status }
  void version(OpBuilder &b, Value ok) {
    Location l = loop.getLoc();
    auto choice = b.create<scf::IfOp>(l, TypeRange{b.getI32Type()}, ok, /*withElseRegion=*/true);
    loop.getExit().replaceAllUsesWith(choice.getResult(0));
    OpBuilder inside = choice.getThenBodyBuilder();
    auto fast = cast<ForOp>(inside.clone(*loop));
    // Original operation -> its copy (both walks visit the same structure).
    DenseMap<Operation *, Operation *> copies;
    SmallVector<Operation *> originals, clones;
    loop->walk([&](Operation *op) { originals.push_back(op); });
    fast->walk([&](Operation *op) { clones.push_back(op); });
    for (auto [original, copy] : llvm::zip(originals, clones))
      copies[original] = copy;
    inside.create<scf::YieldOp>(l, fast.getExit());
    OpBuilder otherwise = choice.getElseBodyBuilder();
    if (speculative) {
      // (No location: every such raise then shares one status.)
      Location nowhere = UnknownLoc::get(b.getContext());
      Value failed = otherwise.create<arith::ConstantIntOp>(l, 1, 1);
      otherwise.create<RaiseIfOp>(nowhere, failed, kSpeculationFailedException, "", ValueRange{});
      otherwise.create<scf::YieldOp>(
          l, otherwise.create<arith::ConstantIntOp>(l, 0, 32).getResult()); // never read
    } else {
      loop->moveBefore(otherwise.getInsertionBlock(), otherwise.getInsertionPoint());
      otherwise.setInsertionPointAfter(loop);
      otherwise.create<scf::YieldOp>(l, loop.getExit());
    }

    for (Access &access : accesses) {
      auto copy = cast<IndexOp>(copies.lookup(access.op.getOperation()));
      OpBuilder at(copy);
      copy.getResult().replaceAllUsesWith(
          at.create<arith::IndexCastOp>(copy.getLoc(), at.getIndexType(), copy.getIndex()).getResult());
      copy.erase();
    }
    for (Operation *op : uncheckedOps)
      setCannotOverflow(copies.lookup(op));
    for (ModOp mod : nonNegativeDividends) {
      auto copy = cast<ModOp>(copies.lookup(mod.getOperation()));
      OpBuilder at(copy);
      copy.getLhsMutable().assign(at.create<AssumeNonNegativeOp>(copy.getLoc(), copy.getLhs()));
    }
    if (speculative)
      loop.erase();
  }

  ForOp loop;
  Region &body;
  bool speculativeEntry, speculative = false;
  SmallVector<Access> accesses;
  SmallVector<Counter> counters;
  llvm::SetVector<Operation *> uncheckedOps;
  llvm::SetVector<ModOp> nonNegativeDividends;
  IRMapping hoisted;
  DenseMap<Value, std::pair<Value, Value>> intervals;
  int termOperations = 0;
  Value trips, low, high;
};

struct VersionLoopsPass : public plait::dialect::impl::VersionLoopsBase<VersionLoopsPass> {
  void runOnOperation() override {
    bool speculativeEntry = isSpeculativeEntry(getOperation());
    SmallVector<ForOp> loops;
    getOperation().walk([&](ForOp loop) { loops.push_back(loop); });
    for (ForOp loop : loops)
      LoopVersioner(loop, speculativeEntry).run();
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createVersionLoopsPass() {
  return std::make_unique<VersionLoopsPass>();
}
