//===- EmitterImpl.h - the emitter's classes (frontend-internal) -*- C++ -*-===//
//
// The emitter is one class, FunctionEmitter, defined across files by
// concern (as clang's CodeGen is): Emitter.cpp (infrastructure, values),
// EmitStatements.cpp, EmitScalars.cpp, EmitNumPyScalars.cpp (NumPy scalars
// and complex numbers), EmitArrays.cpp, EmitReductions.cpp (reductions, dot,
// elementwise functions) and EmitCalls.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_LIB_FRONTEND_EMITTERIMPL_H
#define PLAIT_LIB_FRONTEND_EMITTERIMPL_H

#include "Typer.h"
#include "plait/Dialect/Plait/ExceptionClasses.h"
#include "plait/Dialect/Plait/Messages.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"
#include "plait/Runtime/PyNumeric.h"
#include "plait/Support/NumPyLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace plait::frontend::detail {

using mlir::Block;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Value;
namespace arith = mlir::arith;

/// A Python exception to raise: its class and message (CPython's words, with
/// `{0}`-style placeholders for values recorded at run time).
struct PyError {
  PyError(std::string exception, std::string message)
      : exception(std::move(exception)), message(std::move(message)) {}
  std::string exception;
  std::string message;
};

/// A value of a static type: one MLIR value per scalar leaf.
struct Val {
  Type type;
  llvm::SmallVector<Value, 2> leaves;
};

class ModuleEmitter;

/// Whether `body` assigns `name` anywhere (nested statements included).
bool assigns(const SExpr &body, const std::string &name);

class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &module, Specialization &spec);
  void emit(const std::string &symbol);

private:
  // Infrastructure.
  /// This function's options: its own (FunctionSource), else the
  /// compilation's.
  bool checksOverflow() const;
  bool fastmath() const;
  bool checksBounds() const;
  Location loc(const SExpr &node);
  /// The location of the statement being emitted (a traceback's line).
  Location here() { return currentStatement ? loc(*currentStatement) : builder.getUnknownLoc(); }
  mlir::Type leafType(Type::Kind kind);
  void leafTypes(const Type &type, llvm::SmallVectorImpl<mlir::Type> &out);
  Block *newBlock();
  bool terminated();
  void startBlock(Block *block) { builder.setInsertionPointToEnd(block); }
  void branch(Block *target, mlir::ValueRange args = {});
  /// A variable's slot for one leaf: memref<T> for scalars, a
  /// !plait.array_slot for arrays.
  Value alloca(mlir::Type type);
  Value loadSlot(Value slot, Location l);
  /// Stores `value` into `slot`; an array slot's previous array is released
  /// unless the slot is known to be empty (`value` must be owned: see
  /// claim()).
  void storeSlot(Value value, Value slot, Location l, bool slotIsEmpty = false);
  Value constInt(int64_t v, unsigned width = 64);
  Value constIndexValue(int64_t v) { return builder.create<arith::ConstantIndexOp>(here(), v); }
  Value constFloat(double v);
  /// `v` rounded to the float type `type` (f16, f32, f64).
  Value constFloatOf(mlir::Type type, double v);
  Val zeroOf(const Type &type);
  /// Raises `error` when `failed` is true (plait.raise_if).
  void check(Value failed, const PyError &error);
  /// The exception `exception` with CPython's message `messageKey`.
  PyError errorCode(const char *exception, const std::string &messageKey);
  /// Raises the error a runtime helper's status stands for.
  void checkRuntime(Value status, std::initializer_list<std::pair<int32_t, PyError>> codes);
  Value outPointer(Value slot);

  // Values.
  Val convert(const Val &value, const Type &to);
  /// Element `i` of a tuple: its run of the tuple's leaves.
  /// tuple[index] for a variable index (elements of one scalar type).
  Val tupleElementAt(const Val &tuple, Value index, Location l);
  /// The (Closure ...) node of function `id` in this function's code, or
  /// null when the closure came from elsewhere (an argument).
  const SExpr *closureNode(int id);
  std::map<int, const SExpr *> closureNodes;
  bool closureNodesFound = false;
  Val tupleElement(const Val &tuple, size_t i);
  /// NumPy's ValueError for a write into a read-only array (the .imag of a
  /// real array).
  void raiseReadOnly(const char *message = "assignment destination is read-only");
  Value truth(const Val &value);
  Val constant(const SExpr &value, const Type &type);

  // NumPy scalars.
  /// A C cast to a NumPy type: ints wrap, floats round, out-of-range floats
  /// saturate into ints (NumPy leaves those undefined); never fails.
  Val castNumPy(const Val &value, DType to);
  /// An operand meeting a NumPy scalar: a Python int outside the dtype's
  /// range raises OverflowError, as NumPy does (NEP 50).
  Val weakToNumPy(const Val &value, DType to);
  /// OverflowError "Python integer N out of bounds for <dtype>" unless the
  /// Python int `i` fits `dtype`.
  void checkPythonIntFits(Value i, DType dtype);
  Val numpyArith(const SExpr &node, ast::Operator op, const Val &left, const Val &right);
  Value numpyIntDivMod(ast::Operator op, Value a, Value b, bool isUnsigned);
  Value numpyShift(ast::Operator op, Value a, Value b, bool isUnsigned);
  Value numpyCompare(ast::Operator op, const Val &left, const Val &right, Location l);
  // Complex numbers: two float leaves.
  /// The parts of `value` as the complex type `as` (Python's complex or a
  /// NumPy complex dtype).
  std::pair<Value, Value> complexParts(const Val &value, const Type &as);
  /// Calls `int32 name(args..., part *out)`, which writes a complex result's
  /// two parts (of the float type `part`) to `out`.
  std::pair<Value, Value>
  callComplexRuntime(const char *name, std::vector<Value> args, mlir::Type part,
                     std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val complexArith(const SExpr &node, ast::Operator op, const Val &left, const Val &right);
  Value complexCompare(ast::Operator op, const Val &left, const Val &right, const SExpr &node);
  Value complexAbs(const Val &z, bool checkOverflow);
  /// np.abs of a complex number, as NumPy computes it (not hypot).
  Value numpyComplexAbs(Value re, Value im, Location l);
  Value constOf(mlir::Type type, int64_t v) {
    return builder.create<arith::ConstantIntOp>(here(), v, type);
  }

  // Typed lists (EmitLists.cpp).
  Val emitListDisplay(const SExpr &display);
  /// A new list of type `type` with `length` items (not initialised).
  Val newList(const Type &type, Value length, Location l);
  /// Word `word` of a list's box (Lists.h), and its length (i64).
  Value listWord(const Val &list, int64_t word, Location l);
  Value listLength(const Val &list, Location l);
  /// Flags the list as changed (a list argument's new items reach the
  /// caller's list: the dispatcher writes them back).
  void markListChanged(const Val &list, Location l);
  /// A view of the items where they are now: valid until the list grows.
  Value listItems(const Val &list, Location l);
  Val loadListItem(const Val &list, Value items, Value position, Location l);
  void storeListItem(const Val &list, Value items, Value position, const Val &item, Location l);
  /// The position `index` stands for (negative counts from the end), with
  /// IndexError `message` outside the list.
  Value listPosition(const Val &list, const Val &index, const char *message, Location l);
  Val emitListSubscript(const SExpr &subscript);
  void storeListElement(const SExpr &target, const Val &value);
  /// append(x) and pop(), which the compiler implements itself.
  Val emitListMethod(const SExpr &call, const std::string &method);
  // Typed dicts (EmitDicts.cpp).
  //--- strs computed at run time (EmitStrings.cpp) ---------------------//
  /// A new run-time str holding the code points of UTF-8 `text`.
  Val strConstant(const std::string &text, Location l);
  /// A new empty str the runtime function `runtime` fills (its address
  /// first, then `args`).
  Val filledStr(const char *runtime, std::vector<Value> args, Location l);
  /// `value` (a str) as a run-time str: a constant made into one.
  Val runtimeStrOf(const Val &value, Location l);
  /// The box (a list's or a str's, of `type`) whose address is `address`,
  /// borrowed from whoever holds it.
  Val boxAtAddress(Value address, const Type &type, Location l);
  /// runtimeStrOf() of a str, any other value as it is.
  Val runtimeStrIfStr(const Val &value, Location l);
  /// Item `k` of a list, or of a str (a new str of that character).
  Val loadSequenceItem(const Val &sequence, Value k, Location l);
  /// An f-string as a value: its parts' strs joined.
  Val emitFormattedString(const SExpr &joined);
  /// A call of a str primitive (str_codes, str_of_float, ...), or nullopt
  /// for another intrinsic.
  std::optional<Val> emitStrIntrinsic(const SExpr &call, const std::string &name);

  Val emitDictDisplay(const SExpr &display);
  Val newDict(const Type &type, Location l);
  /// A key as its words (one per number: float keys as float64 bits), and
  /// those words as the runtime compares them (equal keys, equal words:
  /// -0.0 is 0.0), and back.
  llvm::SmallVector<Value, 2> keyWordsOf(const Val &key, const Type &keyType, Location l);
  llvm::SmallVector<Value, 2> normalisedKeyWords(llvm::ArrayRef<Value> words, const Type &keyType,
                                                 Location l);
  Val keyOfWords(llvm::ArrayRef<Value> words, const Type &keyType, Location l);
  /// A value as the two words of an entry, and back.
  std::array<Value, 2> dictValueWords(const Val &value, const Type &valueType, Location l);
  Val dictValueOfWords(Value first, Value second, const Type &valueType, Location l);
  /// The entries' words where they stand (valid until the dict grows).
  Value dictEntries(const Val &dict, Location l);
  /// Word `word` of entry `entry` (of `entryWords` words).
  Value dictEntryWord(Value entries, Value entry, int64_t entryWords, int64_t word, Location l);
  /// The value of entry `entry` (the entries' view: `entries`).
  Val loadEntryValue(const Val &dict, Value entries, Value entry, Location l);
  /// The address of words for the runtime (a stack slot of the function).
  Value wordsAddress(llvm::ArrayRef<Value> words, Location l);
  /// The entry of a key (its words; -1: none), and the entry made for it
  /// if none.
  Value dictFind(const Val &dict, llvm::ArrayRef<Value> keyWords, Location l);
  /// Frees the boxes keyWordsOf made of str constants (once the runtime
  /// has read the key words).
  void freeMadeKeys();
  Value dictInsert(const Val &dict, llvm::ArrayRef<Value> keyWords, Location l);
  void storeDictValue(const Val &dict, const Val &key, const Val &value, Location l);
  Val loadDictValue(const Val &dict, Value entry, Location l);
  void markDictChanged(const Val &dict, Location l);
  /// KeyError(key) when `missing`.
  void raiseKeyError(Value missing, const Val &key, Location l);
  Val emitDictSubscript(const SExpr &subscript);
  void storeDictElement(const SExpr &target, const Val &value);
  void emitDelete(const SExpr &stmt);
  Value emitDictContains(const SExpr &compare);
  Val emitDictGet(const SExpr &call);
  /// `{}` (nothing typed) as a dict of `to`'s keys and values.
  Val settleDictTypes(const Val &dict, const Type &to);
  void emitDictLoop(const SExpr &stmt, const Iterable &iterable);
  /// The dict a dict loop's iterable reads (d in `d.items()`).
  const SExpr *dictOf(const Iterable &iterable);

  /// `list` (of items not typed: `[]`) as a list of `to`: an empty box
  /// whose item size becomes theirs (it grows with it from its first append).
  Val settleListItems(const Val &list, const Type &to);
  /// An item stored as words (ListItemLayout) from word `first` of
  /// `words` (an int64 view), and stored there (its references move in).
  Val loadItemWords(Value words, Value first, const Type &type, Location l);
  void storeItemWords(Value words, Value first, const Type &type, const Val &item, Location l);
  /// The slot over the memref descriptor at word `word` of a list's items
  /// (`items`, their words' view).
  Value itemSlot(Value items, Value word, mlir::MemRefType memref);
  /// Releases the references an item held (one the list no longer holds).
  void releaseItem(const Val &item);
  /// Makes the references of `item` (taken out of a list) temporaries.
  void adoptItem(const Val &item);
  /// The box's address (i64), as the runtime's list functions take it.
  Value boxAddress(const Val &list, Location l);
  /// Calls `int32 name(i64...)` of Lists.h: a MemoryError unless it gives 0.
  /// Status 2 (a box of another layout) raises `otherLayout`, or
  /// twoItemTypes().
  Value callListRuntime(const char *name, std::vector<Value> args, Location l,
                        const PyError *otherLayout = nullptr);
  /// How print descriptors and raise messages spell the type of a list's
  /// items or a dict's keys or values (docs/design/print.md).
  std::string itemKind(const Type &item);
  /// The address of a copy of a list's (or str's) box, lists `depth` levels
  /// down copied too (plait_rt_list_copy): what a raise message shows.
  Value copyOfBox(const Val &list, int64_t depth, Location l);
  /// The TypeError of a list given items of two layouts (Lists.h).
  PyError twoItemTypes();

  // Statements.
  void emitBody(const SExpr &body);
  void emitStatement(const SExpr &stmt);
  /// Frees `value` now if it is an unnamed array this function allocated:
  /// call it after the operation that used it (its only use).
  void freeIfTemporary(const Val &value);
  /// Takes a reference to each array in `value` for a variable or a
  /// result: a temporary's own reference moves, other arrays are retained.
  Val claim(const Val &value);
  /// `value` (a list or dict a loop runs over), retained for the loop
  /// (recorded in loopHolds), and the release of the holds made since
  /// `mark` (loopHolds.size() before the loop) where the loop ends.
  Val holdForLoop(const Val &value);
  void releaseLoopHolds(size_t mark);
  std::vector<Value> loopHolds;
  /// Releases the arrays of every local (on a normal return: the error
  /// paths leave them to the call's arena).
  void releaseLocals();
  void emitAssign(const SExpr &target, const Val &value);
  /// `target op= value`, once pinTargetParts has evaluated the target's
  /// parts.
  void emitAugAssign(const SExpr &stmt);
  /// Evaluates the parts of `target` (container, indices, slice bounds)
  /// that are not names or constants, and pins them: emitExpr returns
  /// these values until unpin(), so reading and then writing the target
  /// evaluates them once, as Python does (`a[next_slot()] += 1`). Pinned
  /// temporaries are released by unpin().
  void pinTargetParts(const SExpr &target);
  void unpin();
  /// Binds `target` to `owned` (whose arrays are already claimed).
  void bindOwned(const SExpr &target, const Val &owned);
  void emitFor(const SExpr &stmt);
  /// raise and assert (EmitRaise.cpp); a message as the dispatcher's
  /// template, the values its fields show appended to `values`.
  void emitRaise(const SExpr &stmt);
  void emitAssert(const SExpr &stmt);
  std::string raiseMessage(const SExpr *message, llvm::SmallVectorImpl<Value> &values);
  /// Records `value` for an error message (appended to `values`: one word,
  /// two for a complex number); returns its kind in the message template.
  std::string recordValue(const Val &value, llvm::SmallVectorImpl<Value> &values, Location l);
  /// After a raise that always happens: ends the try scopes and the block
  /// (nothing after it runs).
  void endRaisingBlock(Location l);
  /// try/except/else/finally (EmitTry.cpp).
  void emitTry(const SExpr &stmt);
  /// Leaves the try scopes above the innermost `keep`, innermost first: a
  /// plait.try_end each, and its finally body.
  void leaveTries(size_t keep);
  /// The try scopes a break or continue stays in: those opened outside the
  /// innermost loop.
  size_t triesOutsideLoop() const;
  /// A loop's items (EmitIteration.cpp): how many, and item k. The arrays
  /// the iterable evaluated are appended to `operands` (freed after the
  /// loop if temporary).
  struct Iteration {
    Value count;
    std::function<Val(Value)> item;
  };
  Iteration iterate(const Iterable &iterable, std::vector<Val> &operands);
  /// range()'s start, stop and step (i64), with CPython's error for step 0.
  std::array<Value, 3> rangeBounds(const SExpr &call);
  /// A return of zeros where no path reaches (after every path returned or
  /// raised): the function's status 0 and its result type's zeros.
  void returnPlaceholder(Location l);
  /// Position k of C order in an array of `sizes` (i64 values).
  llvm::SmallVector<Value> unravel(Value k, llvm::ArrayRef<Value> sizes, Location l);
  /// A for loop over range(start, stop, step) (a plait.for), binding
  /// `item(i)` to the target on the iteration of element i.
  /// A prange loop's reduction slots and their kinds ("add", "min"...).
  struct ParallelPlan {
    llvm::SmallVector<std::pair<Value, std::string>> reductions;
    /// Array variables reduced element by element (`hist += counts`).
    llvm::SmallVector<std::pair<std::string, std::string>> arrayReductions;
  };
  /// How a prange loop runs in parallel (EmitParallel.cpp), or nothing
  /// when it must run serially.
  std::optional<ParallelPlan> parallelPlan(const SExpr &loop);
  void emitParallelLoop(const SExpr &stmt, Value start, Value stop, Value step,
                        const ParallelPlan &plan);
  /// One iteration of a `for` loop's body (a plait.for's or
  /// plait.parallel_for's region): `value` bound to the target, the body,
  /// then plait.continue.
  void emitIteration(const SExpr &stmt, const Val &value);
  void emitRangeLoop(const SExpr &stmt, Value start, Value stop, Value step,
                     const std::function<Val(Value)> &item);
  void emitWhile(const SExpr &stmt);
  /// An unstructured loop's body (continue: `header`, break: `exit`), then
  /// its else clause in `orElse`; the insertion point ends in `exit`.
  void emitLoopRest(const SExpr &stmt, Block *header, Block *orElse, Block *exit);
  /// A for loop whose header `next` emits (given the header and the else
  /// block: it branches to the else block when the iterator runs out and
  /// leaves the insertion point in the body, returning the item bound to
  /// the target); continue goes back to the header.
  void emitIteratorLoop(const SExpr &stmt, const std::function<Val(Block *, Block *)> &next);
  /// A for loop over a list (as CPython's list iterator runs).
  void emitListLoop(const SExpr &stmt, const SExpr &iterable);
  void emitIf(const SExpr &stmt);
  void emitReturn(const Val &value);

  // Expressions.
  Val emitExpr(const SExpr &expr);
  Val loadVariable(const std::string &name, const SExpr &node);
  /// CPython's UnboundLocalError for a read of `name` before it is bound.
  PyError unboundLocal(const std::string &name);
  /// `left op right`; `out` is the target of an in-place array operation
  /// (a += b), for NumPy's shape rules and messages.
  Val emitBinary(const SExpr &node, ast::Operator op, const Val &left,
                 const Val &right, const Val *out = nullptr);
  /// The dtype NumPy computes `left op right` in when a NumPy scalar is
  /// involved, which a Python int operand must fit.
  static DType numpyArithDType(ast::Operator op, const Type &left, const Type &right);
  Val intArith(ast::Operator op, Value a, Value b);
  /// a & b, a | b, a ^ b for those operators; null for any other.
  Value bitwise(ast::Operator op, Value a, Value b, Location l);
  Val floatArith(const SExpr &node, ast::Operator op, Value a, Value b);
  Val emitUnary(const SExpr &node);
  Val unaryOf(const SExpr &node, ast::Operator op, const Val &operand);
  /// A new array of `dtype` with the operands' broadcast shape (`ndim`
  /// axes; scalars are used as they are), element i = f(elements i); in
  /// the operands' order (C unless all are Fortran), or `orderOf`'s.
  /// `out`: an in-place target, whose shape the result must have; `mask`:
  /// a where= array that broadcasts with the operands (f does not see it).
  Val arrayElementwise(const SExpr &node, llvm::ArrayRef<Val> operands, DType dtype, int ndim,
                       const std::function<Val(llvm::ArrayRef<Val>)> &f, const Val *out = nullptr,
                       const Type *orderOf = nullptr, const Val *mask = nullptr);
  /// NumPy's spelling of a shape in messages, "({first},)" or
  /// "({first},{first+1})": placeholders for sizes recorded at run time.
  static std::string shapePlaceholders(int ndim, int first);
  /// Appends the sizes of the first `ndim` axes of `memref` (as i64).
  void appendDimensions(Value memref, int ndim, llvm::SmallVectorImpl<Value> &out);
  /// The message `key` with each {name} of `parts` replaced.
  std::string formatMessage(const std::string &key,
                            std::initializer_list<std::pair<const char *, std::string>> parts);
  Val emitBoolOp(const SExpr &node);
  Val emitCompare(const SExpr &node);
  /// A comparison of tuples, element by element (as CPython's).
  Value compareTuples(ast::Operator op, const Val &left, const Val &right, const SExpr &node);
  Value compare(ast::Operator op, const Val &left, const Val &right,
                const SExpr &leftNode);
  Val emitIfExp(const SExpr &node);
  /// `value` as `type`, holding a reference of its own that leaves the
  /// temporaries (it moves into a block argument).
  Val ownedAs(const Val &value, const Type &type);
  /// Starts `done`, whose block arguments are a value of `type` that each
  /// side gave with ownedAs(): that value, a temporary.
  Val joinedValue(Block *done, const Type &type);
  /// `a or b`, `a and b` as a value of references (strs).
  Val emitOperandValue(const SExpr &node);
  Val emitCall(const SExpr &node);
  Val emitMath(const SExpr &node, const std::string &name,
               std::vector<Val> args);
  Val emitBuiltin(const SExpr &node, const std::string &name);
  /// print(...) through the interpreter's print (EmitPrint.cpp).
  Val emitPrint(const SExpr &node);
  Val emitJitCall(const SExpr &node);
  /// Calls a jitted specialisation with `arguments` (converted to its
  /// parameters' types); its error propagates.
  Val callSpecialization(const Specialization &callee, llvm::ArrayRef<Val> arguments, Location l);
  /// A plait.overload ufunc: the scalar kernel over NumPy's broadcast of
  /// the operands, in the loop's dtypes (EmitOverloads.cpp).
  Val emitUfuncCall(const SExpr &node);
  /// plait.numpy's intrinsics: libm functions with IEEE results, raise_if.
  Val emitIntrinsicCall(const SExpr &node, const std::string &name);
  /// The strided_view intrinsic: a view with the given offset, sizes and
  /// strides (in elements) of an array's memory.
  Val stridedView(const SExpr &node);
  /// The array_from_sequence intrinsic (EmitSequences.cpp): np.array of a
  /// nested tuple of numbers and arrays.
  Val arrayFromSequence(const SExpr &node);
  Val callRuntime(const char *name, std::vector<Value> args, const Type &resultType,
                  std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val callRuntimeFloat(const char *name, std::vector<Value> args,
                       std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val callRuntimeInt(const char *name, std::vector<Value> args,
                     std::initializer_list<std::pair<int32_t, PyError>> codes);
  Value callLibm(const char *name, std::vector<Value> args);
  /// Whether `x` is in the range where the math function `info` cannot
  /// raise (null: no range known).
  Value quietArgument(const MathFunctionInfo &info, Value x, Location l);
  /// A libm function whose result is exactly rounded (floor, rint, ldexp,
  /// ...) as operations of its own, or null.
  Value exactLibm(const std::string &name, llvm::ArrayRef<Value> x, Location l);
  /// ldexp(x, k), k a whole float: x * 2**k rounded once, without branches.
  Value scaleByPowerOfTwo(Value x, Value k, Location l);
  /// An int from a float by `runtime` (truncation, floor, ceil), with
  /// CPython's errors; `overflowKey`: the message beyond int64 (NumPy's
  /// conversions say "Python int too large to convert to C long").
  Val floatToInt(Value x, const char *runtime, const char *overflowKey = "int_overflow");
  /// round(x, ndigits) with CPython's rules (NumPy's for NumPy scalars).
  Val roundTo(const Val &x, Value ndigits, Location l);
  /// Indices of a full subscript, wrapped and bounds-checked, as `index`.
  llvm::SmallVector<Value> arrayIndices(const SExpr &subscript, Value memref,
                                        const Type &array);
  Val loadElement(const SExpr &subscript);
  /// a[...] = scalar (fill) or a[...] = array (copy, through a temporary when
  /// both share a buffer, as NumPy does).
  void storeSlice(const SExpr &subscript, const Val &value);
  /// Copies `from` into `to` (arrays of the same shape), each element cast
  /// to `to`'s dtype as C casts it.
  void copyElements(const Val &from, const Val &to, Location l);
  /// A NumPy scalar as its array element's storage.
  Value storageOf(const Val &element, Location l);
  /// A view of the array `value` with `destination`'s shape, as NumPy
  /// broadcasts it (ValueError when the shapes do not fit).
  Value broadcastTo(const Val &value, Value destination, int ndim, Location l);
  /// A view: some axes sliced, indexed by an int, or left whole.
  Val emitView(const SExpr &subscript);
  /// a[mask] with a mask of a's shape: a new 1-D array (C order).
  Val maskRead(const SExpr &subscript);
  /// a[idx], a[rows, cols], a[:, idx], a[i, :, idx], a[m] with a mask of the
  /// first axes: NumPy's advanced indexing with 1-D index arrays, ints and
  /// whole slices (a new array).
  Val gather(const SExpr &subscript);
  /// a[idx] with an N-D int index array (gather's case of one).
  Val gatherRows(const SExpr &subscript, const Val &array, const Val &index);
  /// a[rows, cols] = v: the same places written.
  void scatter(const SExpr &subscript, const Val &value);
  /// The indexing result's sizes and, per subscript item, its index (emitted
  /// and checked, as NumPy checks them before anything moves).
  struct GatherPlan {
    /// The array indexed: the subscripted one with the bounded slices of
    /// the subscript applied (a view), as NumPy applies basic indices first.
    Val source;
    std::vector<Typer::SubscriptItem> items;
    std::vector<Val> indices;      // per item: its index array or int
    std::vector<int> resultAxisOf; // per whole slice: its axis in the result
    int gatheredAxis = 0;          // the result axis of the index arrays
    llvm::SmallVector<Value> sizes;
  };
  GatherPlan planGather(const SExpr &subscript, const Val &array, Location l);
  /// Whether NumPy's loops for `dtype` (complex) round differently on
  /// elements walked backwards, so the loop must test its operands' strides.
  static bool roundsByWalkDirection(DType dtype);
  /// Whether NumPy would run `operands` (broadcast to the loop's shape)
  /// on its one-run path with a negative stride: every array operand's
  /// elements form one run, and one of them walks it backwards.
  Value walksOneRunBackwards(llvm::ArrayRef<Val> operands, Location l);
  /// Slices one axis (`size` and `stride` as i64) by start, stop and step
  /// (null parts absent), as CPython adjusts them: adds the first element's
  /// offset to `offset` and appends the sliced size and stride.
  void appendSlicedAxis(Value size, Value stride, const std::array<Value, 3> &bounds, Value &offset,
                        llvm::SmallVectorImpl<mlir::OpFoldResult> &sizes,
                        llvm::SmallVectorImpl<mlir::OpFoldResult> &strides, Location l);
  /// A view of `array` with axis k sliced by bounds[k] (start, stop, step;
  /// null parts are absent), the other axes whole.
  Val slicedAxes(const Val &array, llvm::ArrayRef<std::array<Value, 3>> bounds, Location l);
  /// Raises NumPy's IndexError for the first index out of bounds.
  void checkGatherIndices(const GatherPlan &plan, const Val &array, Location l);
  /// The element of `array` at the indexing result's position `at`.
  llvm::SmallVector<Value> gatherSource(const GatherPlan &plan, const Val &array,
                                        llvm::ArrayRef<Value> at, Location l);
  /// Loops over every position of an array of `sizes`, in C order.
  void forEachPosition(llvm::ArrayRef<Value> sizes,
                       const std::function<void(llvm::ArrayRef<Value>)> &body);
  /// a[mask] = v with a mask of a's shape (v a number or 1-D values, one
  /// each or one for all), with NumPy's checks before anything is written.
  void maskWrite(const SExpr &subscript, const Val &value);
  /// How many elements `array` has (an i64).
  Value elementCount(const Val &array, Location l);
  /// Whether some axis of `array` has no elements (an i1).
  Value isEmptyArray(const Val &array, Location l);
  /// IndexError unless `mask` has `array`'s shape (NumPy's message).
  void checkMaskShape(const Val &array, const Val &mask, Location l);
  Value countTrue(const Val &mask, Location l);
  /// body(indices, k) for each true element of `mask`, k counting them.
  void forEachTrue(const Val &mask, Location l,
                   const std::function<void(llvm::ArrayRef<Value>, Value)> &body);
  /// np.any / np.all of a whole array: whether some / every element is
  /// nonzero (NaN counts), as a numpy.bool.
  Val anyOrAll(const Val &array, bool any, Location l);
  /// np.argmax / np.argmin of a whole array: the C-order position of the
  /// first maximum / minimum, or of the first NaN (NumPy's rule).
  Val argExtreme(const Val &array, bool maximum, const std::string &name, Location l);
  /// a.reshape(...), np.reshape(a, ...): a view when a is C-contiguous, else
  /// a view of a C-ordered copy (as NumPy); one negative size is inferred.
  Val reshaped(const SExpr &node);
  /// a.T: a view of `array` with its axes reversed, of type `type`.
  Val transposed(const Val &array, const Type &type, Location l);
  /// Row `index` of an N-D array: an (N-1)-D view.
  Value rowView(Value memref, const Type &rowType, Value index, Location l);
  void storeElement(const SExpr &subscript, const Val &value);
  /// A number as an array element of `dtype`, converted as NumPy stores a
  /// Python number (with its errors).
  Value toStorage(const Val &value, DType dtype, mlir::Location l);
  Val emitNumpy(const SExpr &node, const std::string &name);
  /// A new C-contiguous array of `sizes` (checked), optionally filled.
  Value allocateArray(const Type &type, llvm::ArrayRef<Value> sizes, const Val *fill,
                      Location l);
  /// An element of a float array ** one scalar exponent, with NumPy's fast
  /// paths for the exponents its power loop special-cases.
  Val powerByScalar(const SExpr &node, const Val &base, const Val &exponent,
                    const Type &exponentType, DType dtype);
  /// NumPy's pairwise sum of a 1-D float64 array (plait.pairwise_sum with
  /// the identity body: a producer of the array may fuse into it).
  Value pairwiseSumOperation(Value array, Value size, Location l, bool parallel);
  /// Whether `array` is memory this expression just allocated (no other
  /// array can overlap it).
  static bool isNewArray(Value array);
  /// NumPy's checks of an array's sizes before it allocates (none negative,
  /// the bytes fit the address space); returns the element count.
  Value checkArraySizes(const Type &type, llvm::ArrayRef<Value> sizes, Location l);
  /// arrayElementwise as one plait.elementwise operation (no `out`, no
  /// mask), once the broadcast shape `sizes` is checked.
  Val elementwiseOperation(llvm::ArrayRef<Val> operands, const Type &type,
                           llvm::ArrayRef<Value> sizes,
                           const std::function<Val(llvm::ArrayRef<Val>)> &f, Location l);
  /// An element loaded from storage as the scalar it reads as.
  Val fromStorage(Value raw, DType dtype, Location l);
  /// Emits `body(indices)` for every element, in C order or Fortran order.
  void forEachElement(Value memref, int ndim,
                      const std::function<void(llvm::ArrayRef<Value>)> &body,
                      bool fortranOrder = false);
  /// An i64 buffer of `n` elements on the stack (allocated at entry).
  Value stackBuffer(size_t n);
  /// The address of a stack buffer, as an i64 (for the runtime).
  Value bufferAddress(Value buffer, Location l);
  /// Stack buffers of `memref`'s sizes and strides (in elements), as the
  /// addresses the runtime's shape functions take.
  std::pair<Value, Value> shapeBuffers(Value memref, int ndim, Location l);
  /// Address of the first element (the data pointer), as an i64.
  Value dataAddress(Value memref, const Type &array, Location l);
  Val emitReduction(const SExpr &node, const std::string &name);
  Val fromIdentity(const Val &sum);
  Val complexReduction(const SExpr &node, const std::string &name, const Val &array, Value size,
                       bool sequential, bool fortranOrder, Location l);
  /// np.sum etc. of a whole array; `sequential` adds in order (no
  /// pairwise), in Fortran order when `fortranOrder` (a part of a Fortran
  /// array). A `line` of an axis reduction is summed on its thread even
  /// with parallel=True (as NumPy's pairwise order, whatever its length).
  /// The NaN-propagating minimum or maximum (as f64) of a non-empty 1-D
  /// float `line` of `size` elements, in eight lanes (it vectorises); -0.0
  /// and 0.0 compare as LLVM's minimum/maximum order them.
  Value lineExtreme(Value line, Value size, DType dtype, bool isMin, Location l);
  Val reduceArray(const SExpr &node, const std::string &name, const Val &array, const Type &result,
                  bool sequential, bool fortranOrder = false, bool line = false);
  /// np.sum(array) etc. (also any, all, argmin, argmax), over the whole
  /// array or along `plan`'s axes, into `result`.
  Val reduceAlong(const SExpr &node, const std::string &name, const Val &array,
                  const Specialization::Reduction &plan, const Type &result);
  /// np.var / np.std, as NumPy's _var computes them.
  Val variance(const SExpr &node, const std::string &name, const Val &array,
               const Specialization::Reduction &plan, const Type &result);
  /// np.cumsum / np.cumprod.
  Val accumulate(const SExpr &node, const std::string &name, const Val &array,
                 const Specialization::Reduction &plan, const Type &result);
  /// A new array of `type` (its dtype and order) with `array`'s elements,
  /// each cast as C casts it (astype's unsafe casting).
  Val castArray(const Val &array, const Type &type, Location l);
  /// np.matmul(a, b) (a @ b) or np.dot(a, b), with NumPy's shape checks and
  /// messages, computed by the runtime as NumPy computes them.
  Val productOf(const SExpr &node, const Val &a, const Val &b, bool isDot);
  /// np.dot, np.matmul and np.outer calls.
  Val emitProduct(const SExpr &node, const std::string &name);
  /// The broadcast sizes of the stacks of matrices a and b (their first
  /// aBatch and bBatch axes), with NumPy's gufunc error naming the result's
  /// `core` sizes.
  llvm::SmallVector<Value> broadcastStacks(const Val &a, int aBatch, const Val &b, int bBatch,
                                           llvm::ArrayRef<Value> core, Location l);
  /// np.linalg.<name>(...).
  Val emitLinalg(const SExpr &node, const std::string &name);
  /// np.abs of a scalar or an array (NumPy's algorithm for complex numbers).
  Val emitAbsolute(const SExpr &node);
  Val absoluteOf(const Val &x, Location l);
  /// Emits `body(k)` for k in [0, n).
  void countedLoop(Value n, const std::function<void(Value)> &body);
  Value dimension(Value memref, int64_t axis);
  /// Like check(), recording run-time values for the message.
  void checkWithArgs(Value failed, const PyError &error, llvm::ArrayRef<Value> args);
  Val minMax(const SExpr &node, bool isMin, std::vector<Val> values,
             const Type &type);

  ModuleEmitter &module;
  Specialization &spec;
  Typer &typer;
  OpBuilder builder;
  mlir::func::FuncOp func;
  Block *entry = nullptr;
  std::map<std::string, llvm::SmallVector<Value, 2>> slots;
  /// Arrays bound once, as SSA values: parameters the function does not
  /// assign, rows of a `for`, and locals assigned by one top-level statement
  /// (those own their array: `ownedArrays`). Other array variables live in
  /// array slots.
  std::map<std::string, Value> arrays;
  std::set<std::string> ownedArrays;
  std::map<std::string, Value> assigned;
  /// The Python loops around the code being emitted: a `for` is a
  /// plait.for (break and continue are its terminators), a `while` is
  /// blocks (they branch).
  struct Loop {
    bool structured;
    Block *continueTarget = nullptr; // while only
    Block *breakTarget = nullptr;    // while only
  };
  std::vector<Loop> loops;
  /// The try scopes around the code being emitted, innermost last: a try
  /// statement's handlers are one scope, its finally (which also runs when
  /// an exception leaves) another around it.
  struct TryScope {
    int64_t id;
    size_t loopDepth;       // loops.size() where it opened
    const SExpr *finalbody; // the finally to run on leaving, or null
  };
  std::vector<TryScope> tries;
  int64_t nextTryId = 0;
  /// The except clauses being emitted, innermost last: the slot with the
  /// status of the exception each handles (what `raise` re-raises) and the
  /// name it binds.
  struct Handling {
    Value statusSlot;
    std::string name;
  };
  std::vector<Handling> handling;
  /// The statement being emitted: where its raising sites are.
  const SExpr *currentStatement = nullptr;
  /// Inside a plait.for: returning stores the results here and leaves.
  llvm::SmallVector<Value, 2> returnSlots;
  bool insideRangeLoop() const;
  Value f64Out, i64Out, complexOutF64, complexOutF32;
  /// A dict key's word, for the runtime to read (EmitDicts.cpp).

  /// Emitting the element operation of a whole-array (ufunc) loop, whose
  /// complex products NumPy's SIMD loops fuse where the CPU has FMA: true,
  /// with `ufuncBackwards` (an i1: walksOneRunBackwards, where NumPy's
  /// complex64 loop falls back to plain C) or null.
  bool inUfuncLoop = false;
  Value ufuncBackwards;
  /// Arrays this function owns a reference to and has not (yet) bound to a
  /// variable: new allocations, views of them, jitted callees' results.
  llvm::DenseSet<Value> temporaries;
  /// Expressions evaluated once for a statement (pinTargetParts), and the
  /// temporary arrays among their leaves (released by unpin()).
  std::map<const SExpr *, Val> pinned;
  llvm::SmallVector<Value, 2> pinnedTemporaries;
  /// Boxes keyWordsOf made of str constants, for freeMadeKeys().
  llvm::SmallVector<Value, 2> madeKeys;
  /// Locals whose value is an SSA value where they are visible (a loop
  /// variable the body does not assign, a parameter the function never
  /// assigns): read without a slot, so passes see them as such.
  std::map<std::string, Val> bound;
  /// Calls between jitted functions active on this native stack (a hidden
  /// first argument): the depth guard needs no thread-local state.
  Value depth;
};

class ModuleEmitter {
public:
  ModuleEmitter(mlir::ModuleOp module, Typer &typer,
                const CompileOptions &options)
      : module(module), context(module.getContext()), typer(typer),
        options(options) {}

  /// Records the bases of an exception class the code raises or catches
  /// (for classes that are not built in: `bases` not empty), which decide
  /// what its except clauses catch.
  void noteExceptionClass(const std::string &name, const std::vector<std::string> &bases) {
    if (bases.empty())
      return;
    OpBuilder b(context);
    mlir::NamedAttrList entries;
    if (auto existing =
            module->getAttrOfType<mlir::DictionaryAttr>(dialect::kExceptionBasesAttrName))
      entries.append(existing.begin(), existing.end());
    entries.set(name,
                b.getStrArrayAttr(llvm::SmallVector<llvm::StringRef>(bases.begin(), bases.end())));
    module->setAttr(dialect::kExceptionBasesAttrName, entries.getDictionary(context));
  }

  /// Declares an external function once; a `pure` one has no effects the
  /// compiled code observes, so calls of it may move.
  void declare(const std::string &name, mlir::FunctionType type, bool pure = false) {
    if (module.lookupSymbol(name))
      return;
    OpBuilder b(context);
    b.setInsertionPointToEnd(module.getBody());
    auto decl = b.create<mlir::func::FuncOp>(b.getUnknownLoc(), name, type);
    decl.setPrivate();
    if (pure)
      decl->setAttr(dialect::kPureFunctionAttrName, b.getUnitAttr());
  }

  /// (i64 depth, argument leaves...) -> (i32 status, result leaves...)
  mlir::FunctionType signatureOf(const Specialization &spec) {
    llvm::SmallVector<mlir::Type> inputs = {OpBuilder(context).getI64Type()};
    llvm::SmallVector<mlir::Type> results;
    for (const Type &t : spec.arguments)
      appendLeaves(t, inputs);
    results.push_back(OpBuilder(context).getI32Type());
    appendLeaves(spec.result, results);
    return OpBuilder(context).getFunctionType(inputs, results);
  }

  void appendLeaves(const Type &type, llvm::SmallVectorImpl<mlir::Type> &out) {
    OpBuilder b(context);
    switch (type.kind) {
    case Type::Kind::Bool:
      out.push_back(b.getI1Type());
      break;
    case Type::Kind::Int:
      out.push_back(b.getI64Type());
      break;
    case Type::Kind::Float:
      out.push_back(b.getF64Type());
      break;
    case Type::Kind::Complex: // real, imaginary
      out.append({b.getF64Type(), b.getF64Type()});
      break;
    case Type::Kind::Tuple:
    case Type::Kind::Function: // the values it captured
      for (const Type &e : type.elements)
        appendLeaves(e, out);
      break;
    case Type::Kind::Array:
      out.push_back(memrefType(type));
      break;
    case Type::Kind::Dict: // its box (plait/Runtime/Dicts.h)
    case Type::Kind::List: // its box (plait/Runtime/Lists.h)
    case Type::Kind::Str:  // a list's box of its code points
      out.push_back(memrefType(Type::array(DType::Int64, 1, /*contiguous=*/true)));
      break;
    case Type::Kind::NumPy:
      if (isComplexDType(type.dtype)) // real, imaginary
        out.append(2, scalarType(complexPartDType(type.dtype)));
      else
        out.push_back(scalarType(type.dtype));
      break;
    default:
      break;
    }
  }

  unsigned storageBytes(DType dtype) { return dtypeInfo(dtype).bytes; }

  /// A NumPy scalar's leaf: its width (bool as i1; signedness is the dtype's).
  mlir::Type scalarType(DType dtype) {
    return dtype == DType::Bool ? OpBuilder(context).getI1Type() : storageType(dtype);
  }

  /// Arrays are fully dynamic strided memrefs: any layout, zero-copy.
  mlir::MemRefType memrefType(const Type &array) {
    OpBuilder b(context);
    int64_t dynamic = mlir::ShapedType::kDynamic;
    llvm::SmallVector<int64_t> shape(array.ndim, dynamic);
    llvm::SmallVector<int64_t> strides(array.ndim, dynamic);
    if (array.contiguous)
      strides.back() = 1; // lets LLVM vectorise the innermost loop
    if (array.fortran)
      strides.front() = 1;
    auto layout = mlir::StridedLayoutAttr::get(context, dynamic, strides);
    return mlir::MemRefType::get(shape, storageType(array.dtype), layout);
  }

  mlir::Type storageType(DType dtype) {
    OpBuilder b(context);
    switch (dtype) {
    case DType::Float64:
      return b.getF64Type();
    case DType::Float32:
      return b.getF32Type();
    case DType::Float16:
      return b.getF16Type();
    case DType::Int64:
    case DType::UInt64:
      return b.getI64Type();
    case DType::Complex128:
      return mlir::ComplexType::get(b.getF64Type());
    case DType::Complex64:
      return mlir::ComplexType::get(b.getF32Type());
    case DType::Int32:
    case DType::UInt32:
      return b.getI32Type();
    case DType::Int16:
    case DType::UInt16:
      return b.getI16Type();
    default: // Int8, UInt8, Bool: one byte
      return b.getI8Type();
    }
  }

  mlir::ModuleOp module;
  mlir::MLIRContext *context;
  Typer &typer;
  const CompileOptions &options;
};

/// The arith predicate of a comparison operator (==, !=, <, <=, >, >=):
/// ordered for floats, but != unordered (true for NaN, as in Python).
mlir::arith::CmpFPredicate floatPredicate(ast::Operator op);
mlir::arith::CmpIPredicate intPredicate(ast::Operator op, bool isUnsigned);

} // namespace plait::frontend::detail

#endif // PLAIT_LIB_FRONTEND_EMITTERIMPL_H
