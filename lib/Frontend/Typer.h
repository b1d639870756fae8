//===- Typer.h - type inference for snapshots (frontend-internal) -*- C++ -*-===//
#ifndef PLAIT_LIB_FRONTEND_TYPER_H
#define PLAIT_LIB_FRONTEND_TYPER_H

#include "plait/Frontend/AST.h"
#include "plait/Frontend/Frontend.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace plait::frontend {

/// What a name in a function body refers to.
struct NameBinding {
  enum class Kind {
    Local,    // parameter or assigned in the body
    Constant, // global number, bool, None or tuple of them
    Jit,      // another jitted function
    Math,     // the math module
    MathFunction,
    Builtin,
    Rendezvous,     // plait.testing.jit_rendezvous: the native test barrier
    NumPy,          // the numpy module
    NumPyLinalg,    // the numpy.linalg module
    NumPyFunction,  // a function imported from numpy
    DTypeValue,     // a NumPy scalar type (np.float32 bound to a global)
    Overload,       // an object plait.overload implements (name: its key)
    Intrinsic,      // plait.numpy's intrinsics: libm functions, raise_if
    ExceptionClass, // a built-in exception class, or module.Class (name)
    Unsupported,    // bound to something compiled code cannot use
    Undefined
  };
  Kind kind = Kind::Undefined;
  const SExpr *value = nullptr; // Constant: the value atom/list
  int functionId = 0;           // Jit
  std::string name;             // MathFunction / Builtin / Unsupported type
};

/// The static shape of a (nested) sequence np.array() makes an array of:
/// its tuple lengths down to its leaves (numbers, or arrays of one rank).
struct SequenceLayout {
  std::vector<int64_t> dims; // the common prefix where they disagree
  bool agrees = true;        // rectangular, as far as tuples go
  int arrayRank = 0;         // leaves are arrays of this rank (0: numbers)
  bool mixesArrays = false;  // arrays beside tuples at one level
};
SequenceLayout sequenceLayout(const Type &type);

/// Whether `name` is one of the C library's complex functions (cexp...),
/// `single` for its float version (cexpf).
bool isComplexLibm(const std::string &name, bool &single);

/// Whether a tuple's elements are scalars of one type (one leaf each): a
/// variable may index it, a loop may run over it.
inline bool hasUniformScalars(const Type &tuple) {
  if (tuple.elements.empty() || tuple.elements[0].numLeaves() != 1 ||
      tuple.elements[0].kind == Type::Kind::Array)
    return false;
  return std::all_of(tuple.elements.begin(), tuple.elements.end(),
                     [&](const Type &element) { return element == tuple.elements[0]; });
}

/// What a `for` loop iterates over (TyperIteration.cpp).
struct Iterable {
  enum class Kind {
    Range,
    Array,
    Tuple,
    List,
    Dict,
    Enumerate,
    Zip,
    Reversed,
    NdIndex,
    NdEnumerate
  };
  Kind kind = Kind::Range;
  bool parallel = false;        // Range: prange(), whose iterations are independent
  const SExpr *node = nullptr;  // the iterable expression
  std::vector<Iterable> parts;  // Enumerate, Reversed: the iterable; Zip: each
  const SExpr *start = nullptr; // Enumerate: its start (null: 0)
  Type element;                 // the type of each item
  /// Dict: what it gives, the keys (`for k in d`, d.keys()), the values
  /// or the (key, value) items.
  enum class DictView { Keys, Values, Items } dictView = DictView::Keys;
};

/// One function specialised for argument types.
struct Specialization {
  const FunctionSource *source = nullptr;
  std::vector<Type> arguments;
  std::map<std::string, Type> variables;
  /// Where each variable got its (first) type, for conflict messages.
  std::map<std::string, SourceLocation> variableOrigins;
  std::set<std::string> locals;
  /// Names `except ... as name` binds: the caught exception, which compiled
  /// code can re-raise (`raise name`) but not use as a value.
  std::set<std::string> caughtNames;
  /// Locals assigned exactly once, by a top-level statement: an array there
  /// is an SSA value; other array variables live in array slots.
  std::set<std::string> singleAssignment;
  /// Locals bound only as the target of one `for` loop: they may hold the
  /// rows (views) of an N-D array, inside that loop.
  std::set<std::string> loopTargets;
  Type result;
  SourceLocation resultOrigin;
  bool callsJit = false;
  bool loops = false;
  /// The scalar kernel of a ufunc loop whose complex products NumPy's SIMD
  /// loops fuse (OverloadResolution::simdProducts).
  bool ufuncKernel = false;
  /// Array parameters the body writes to (element assignment).
  std::set<std::string> writes;
  /// Writes (assignment targets, fill() calls) into the .imag of a real
  /// array, which NumPy makes a read-only array of zeros: they raise.
  std::set<const SExpr *> readOnlyWrites;
  /// Array locals that may share memory with other arrays (b = a, b = a[1:],
  /// the rows of m, b = x if t else y, b = f(a)): every variable they may
  /// alias, transitively. Writes through them are writes to those.
  std::map<std::string, std::set<std::string>> aliases;
  /// Arrays passed on to jitted callees: (variable, callee, its parameter).
  std::set<std::tuple<std::string, const Specialization *, size_t>> arraysPassed;
  std::string symbol;
  int index = 0;

  /// What typing found, for the emitter (which never types anything
  /// itself): every expression's type, the specialisation and arguments of
  /// each call to a jitted function, the axis of each reduction. Recorded on
  /// every round; the last round's are the final ones.
  std::unordered_map<const SExpr *, Type> types;
  struct JitCall {
    Specialization *callee = nullptr;
    std::vector<const SExpr *> arguments; // defaults filled in
  };
  std::unordered_map<const SExpr *, JitCall> jitCalls;
  /// Elementwise calls of plait.overload ufuncs: the scalar kernel, the
  /// loop's dtypes NumPy resolved, and the operands.
  struct UfuncCall {
    Specialization *kernel = nullptr;
    std::vector<DType> inputs;
    DType output = DType::Float64;
    std::vector<const SExpr *> operands;
    bool checkPythonInts = true; // OverloadResolution::checkPythonInts
    const SExpr *out = nullptr;  // out=: the array written and returned
    const SExpr *where = nullptr; // where=: the elements written
  };
  std::unordered_map<const SExpr *, UfuncCall> ufuncCalls;
  /// How each reduction call (np.sum, a.std, np.cumsum, ...) reduces.
  struct Reduction {
    /// The axes reduced, sorted (every axis for axis=None).
    std::vector<int> axes;
    bool axisNone = true; // axis=None (cumsum flattens)
    bool keepdims = false;
    std::optional<DType> dtype;  // dtype=
    const SExpr *ddof = nullptr; // std/var: an int expression
    bool reduces(int axis) const { return std::find(axes.begin(), axes.end(), axis) != axes.end(); }
  };
  std::unordered_map<const SExpr *, Reduction> reductions;
  /// Array methods called (a.sum(axis=0), a.copy()): the NumPy function each
  /// call is, its array the first positional argument.
  std::unordered_map<const SExpr *, std::string> arrayMethods;
  /// np.linalg calls: their array arguments (a, then b) and the choices
  /// made from constant arguments.
  struct Linalg {
    std::vector<const SExpr *> arrays;
    int64_t norm = 0;             // norm: a PlaitNorm
    double p = 0;                 // norm: the order of a vector's power norm
    bool upper = false;           // cholesky(upper=True), eigh(UPLO='U')
    const SExpr *rcond = nullptr; // lstsq: rcond= (null: NumPy's default)
    int axis = -1;                // norm: axis= (-1: None), or the rows of a matrix norm
    int columnAxis = -1;          // norm: axis=(axis, columnAxis), matrix norms of a stack
    bool keepdims = false;        // norm: keepdims=
  };
  std::unordered_map<const SExpr *, Linalg> linalgCalls;
  /// List displays typed as sequences of fixed length (tuples): the
  /// arguments of calls (np.array([1, 2])) and of for loops.
  std::set<const SExpr *> sequenceLiterals;
  /// What each `for` statement iterates over.
  std::unordered_map<const SExpr *, Iterable> iterables;
  /// Conditions known when compiling (comparisons of strs and of None, a
  /// str's truth): an `if` or `x if c else y` on one is only its live
  /// branch (the other is neither typed nor emitted, as CPython never runs
  /// it: mode="wrap" code for a 1-D array need not type for a 2-D one).
  std::unordered_map<const SExpr *, bool> knownConditions;
  /// Calls of the list methods the compiler implements (append, pop()).
  std::unordered_map<const SExpr *, std::string> listMethods;
  /// Calls of the dict methods the compiler implements (get).
  std::unordered_map<const SExpr *, std::string> dictMethods;
  /// `k in d` and `k not in d` comparisons of dicts.
  std::set<const SExpr *> dictContains;
  /// Reads of a list's or dict's items while their type was unknown: an
  /// error if it stays unknown (nothing is ever put in).
  std::set<const SExpr *> untypedReads;
  /// `and`/`or` whose value is only tested (if, while, assert, not): a
  /// bool, its operands of any types (`if items and items[0] > 0`).
  std::set<const SExpr *> truthTests;
  /// f(*t) calls and the calls of t's elements they stand for.
  std::unordered_map<const SExpr *, const SExpr *> unpackedCalls;
  std::optional<bool> knownCondition(const SExpr *test) const {
    auto found = knownConditions.find(test);
    return found == knownConditions.end() ? std::nullopt : std::optional<bool>(found->second);
  }
  /// Subscripts that gather with index arrays beside other indices
  /// (a[rows, cols], a[:, idx]): NumPy's advanced indexing, read only.
  std::set<const SExpr *> gathers;
  /// The type typing found for `node` (an expression, or an augmented
  /// assignment: its operation's result).
  const Type &typeOf(const SExpr &node) const;
  const JitCall &jitCallOf(const SExpr &call) const;
  const Reduction &reductionOf(const SExpr &call) const;
};

class Typer {
public:
  Typer(const Program &program, const CompileOptions &options, uint64_t uniqueId);

  /// The specialisation, typed to a fixed point with everything it reaches;
  /// its types, jitted calls and reduction axes are recorded on it and on
  /// the specialisations it reaches (the emitter reads them).
  Specialization &run(int functionId, const std::vector<Type> &arguments);
  std::deque<Specialization> &specializations() { return specs; }
  /// `entry` and the specialisations its calls reach (jitted callees, ufunc
  /// kernels) as the final round typed them, in a stable order: what is
  /// compiled (an earlier round's specialisations for types no longer
  /// passed are not).
  static std::vector<Specialization *> reachable(Specialization &entry);

  /// What a name means in a specialisation: a local, a global constant, a
  /// module, a jitted function...
  NameBinding resolve(const Specialization &spec, const std::string &name) const;
  /// The classes an `except` clause names (its type: a class or a tuple of
  /// them; BaseException for a bare `except:`), each with its bases as the
  /// snapshot lists them for classes that are not built in (their MRO
  /// without the class and `object`; empty for built-in ones).
  std::vector<std::pair<std::string, std::vector<std::string>>>
  handledClasses(const Specialization &spec, const SExpr &handler) const;
  /// The bases of the exception class the global `name` is bound to, as
  /// handledClasses() gives them.
  std::vector<std::string> exceptionBases(const Specialization &spec,
                                          const std::string &name) const;
  /// Whether `node` names the numpy or math module (np in np.pi, np.sum).
  bool namesModule(const Specialization &spec, const SExpr &node) const;
  /// True for numpy.linalg, as a name or as np.linalg.
  bool namesLinalg(const Specialization &spec, const SExpr &node) const;
  /// One entry of an array subscript once `...` is expanded: an int index
  /// or a slice of the next axis (`node` null: the whole axis), or a new
  /// axis of size 1 (None, np.newaxis).
  struct SubscriptItem {
    enum class Kind { Index, Slice, NewAxis } kind;
    const SExpr *node;
  };
  /// The items of `subscript` on an array of `ndim` axes (errors as NumPy's
  /// for too many indices and a second `...`).
  std::vector<SubscriptItem> subscriptItems(const Specialization &spec, const SExpr &subscript,
                                            int ndim) const;
  /// A call's positional arguments, the array first for an array method.
  std::vector<const SExpr *> positionalArguments(const Specialization &spec,
                                                 const SExpr &call) const;
  /// The NumPy function a call names ("zeros" for np.zeros(...)), or "".
  std::string numpyFunction(const Specialization &spec, const SExpr &callee) const;
  static Type constantType(const SExpr &value);
  /// What a `for` statement iterates over, as typing found it; a located
  /// error when its iterable never got a type.
  /// "stdout" or "stderr": the stream print(file=...) names (sys.stdout,
  /// sys.stderr, None), or nullopt for another.
  std::optional<std::string> printStream(const Specialization &spec, const SExpr &file) const;
  const Iterable &loopIterable(const Specialization &spec, const SExpr &stmt) const;
  /// The constant atom a node is: a literal's, or that of a global (or a
  /// plait.overload implementation's closure value) bound to a constant;
  /// null otherwise.
  const SExpr *constantAtom(const Specialization &spec, const SExpr &node) const;

private:
  //--- the fixed point (Typer.cpp) ---------------------------------------//
  /// Looks up (creating if needed) a specialisation; not typed by itself.
  Specialization &specialize(int functionId, const std::vector<Type> &arguments,
                             const SExpr *callSite, const Specialization *caller);
  /// Unifies two types (Bottom is the identity, bool < int < float); returns
  /// false on a conflict.
  static bool unify(const Type &a, const Type &b, Type &result);
  void collectLocals(const SExpr &node, std::set<std::string> &out) const;
  void typeBody(Specialization &spec, const SExpr &body);
  /// A loop's body (break and continue are allowed in it).
  void typeLoopBody(Specialization &spec, const SExpr &body);
  //--- for loops (TyperIteration.cpp) -------------------------------------//
  /// What `node` iterates as, or nullopt while part of it is untyped.
  std::optional<Iterable> iterableOf(Specialization &spec, const SExpr &node);
  /// Types a loop's target from its items (rows of arrays alias them).
  void bindLoopTarget(Specialization &spec, const SExpr &target, const Iterable &iterable,
                      const SExpr &stmt);
  void unbindLoopTarget(const SExpr &target);
  /// `object[...]` of an object whose __getitem__ plait.overload implements
  /// (np.mgrid[0:n, 0:m]): a call of it with the slices' starts, stops and
  /// steps as three tuples (start 0 and step 1 where left out), and whether
  /// the subscript was one slice rather than a tuple of them.
  Type subscriptCallType(Specialization &spec, const SExpr &subscript, const std::string &target);
  /// `raise` and `assert` (TyperStatements.cpp): the exception class a raise
  /// names (its binding's name), and the message forms compiled code
  /// formats: constant strings, f-strings of numbers, a number.
  std::string raisedClass(Specialization &spec, const SExpr &stmt);
  void typeTry(Specialization &spec, const SExpr &stmt);
  void typeMessage(Specialization &spec, const SExpr &message);
  /// The fields of an f-string: `value` of each field's expression, and
  /// its format spec, which must be constant.
  void typeFormattedString(Specialization &spec, const SExpr &joined,
                           const std::function<void(const SExpr &)> &value);
  /// Marks the list displays among a call's arguments as sequenceLiterals.
  void markSequenceLiterals(Specialization &spec, const SExpr &call);
  void assign(Specialization &spec, const SExpr &target, const Type &type, const SExpr &origin);
  /// a[idx2d] = v and a[idx2d] += v: not supported (the scatter takes 1-D
  /// index arrays).
  void refuseWritesThroughIndexArrays(Specialization &spec, const SExpr &target);
  void widenVariable(Specialization &spec, const std::string &name, const Type &type,
                     const SExpr &origin);

  //--- errors ------------------------------------------------------------//
  [[noreturn]] void fail(CompileError::Kind kind, const FunctionSource &fn, const SExpr &node,
                         const std::string &message) const;
  [[noreturn]] void failAt(CompileError::Kind kind, const FunctionSource &fn, SourceLocation loc,
                           const std::string &message) const;
  std::string where(const FunctionSource &fn, SourceLocation loc) const;

  //--- statements (TyperStatements.cpp) ----------------------------------//
  void typeStatement(Specialization &spec, const SExpr &stmt);

  //--- expressions (TyperExpressions.cpp) --------------------------------//
  /// The type of an expression, recorded in spec.types.
  Type exprType(Specialization &spec, const SExpr &expr);
  Type computeType(Specialization &spec, const SExpr &expr);
  /// The type of `left op right` (scalars; arrays elementwise).
  Type binaryType(Specialization &spec, const SExpr &node, ast::Operator op,
                  const Type &left, const Type &right);

  //--- calls (TyperCalls.cpp) --------------------------------------------//
  Type callType(Specialization &spec, const SExpr &call);
  /// f(a, *t): the call as f(a, t[0], t[1], ...) once t's type is known
  /// (t a variable or its attribute, read once per element: no effects);
  /// null while a starred tuple is not typed yet.
  const SExpr *unpackedCall(Specialization &spec, const SExpr &call);
  /// A comparison of strs and None (or any `is`) computed when compiling:
  /// its value recorded in spec.knownConditions; nullopt for a comparison
  /// of run-time values (TyperConstants.cpp).
  std::optional<Type> constantComparisonType(Specialization &spec, const SExpr &compare);
  /// The value `test` has when compiling, recorded for the emitter.
  std::optional<bool> knownTest(Specialization &spec, const SExpr &test);

  /// print(...): values compiled code can hand to the interpreter's print
  /// (TyperPrint.cpp).
  Type printCallType(Specialization &spec, const SExpr &call);
  /// The arguments of a call to a jitted function, defaults filled in.
  std::vector<const SExpr *> callArguments(Specialization &caller, const SExpr &call,
                                           const FunctionSource &callee);
  /// The same for `positional` arguments (a method's receiver first) and
  /// the call's keywords.
  std::vector<const SExpr *> callArguments(Specialization &caller, const SExpr &call,
                                           const std::vector<const SExpr *> &positional,
                                           const FunctionSource &callee);
  /// The tuple a *args parameter receives: a node of the call's positional
  /// arguments after the named parameters.
  const SExpr &varargsTuple(const SExpr &call, const FunctionSource &callee,
                            const std::vector<const SExpr *> &positional);
  /// A call of a jitted function with `actual` arguments (defaults filled
  /// in): its callee specialised, recorded for the emitter.
  Type jitCallType(Specialization &spec, const SExpr &call, int functionId,
                   const std::vector<const SExpr *> &actual);

  //--- strs computed at run time (TyperStrings.cpp) ----------------------//
  /// The type plait.overload's `target` ("str.<method>") gives `node` with
  /// these operands, or nullopt when none is registered or none applies.
  std::optional<Type> strImplementation(Specialization &spec, const SExpr &node,
                                        const std::string &target,
                                        std::vector<const SExpr *> operands);
  /// `+`, `*`, `+=`, `*=` with a str operand (CPython's TypeErrors for the
  /// others).
  Type strOperatorType(Specialization &spec, const SExpr &node, ast::Operator op, const Type &left,
                       const Type &right);
  /// A comparison with an operand that is a run-time str, or nullopt for
  /// one without.
  std::optional<Type> strComparisonType(Specialization &spec, const SExpr &compare);
  /// `s[i]` (a one-character str) and `s[a:b:c]`.
  Type strSubscriptType(Specialization &spec, const SExpr &subscript);
  /// `s.method(...)`: plait.overload's "str.<method>", the str first.
  Type strMethodType(Specialization &spec, const SExpr &call);
  /// str(x), repr(x), and int() and float() of a str.
  Type strConversionType(Specialization &spec, const SExpr &call, const std::string &name);
  /// An f-string as a value: a run-time str (a constant when every part is).
  Type formattedStringType(Specialization &spec, const SExpr &joined);
  /// The type of a call of a str primitive (str_codes, str_of_float, ...),
  /// or nullopt for another intrinsic.
  std::optional<Type> strIntrinsicType(Specialization &spec, const SExpr &call,
                                       const std::string &name);

  //--- typed lists (TyperLists.cpp) --------------------------------------//
  /// `[a, b]` as a value: a list of its items' type (list[<unknown>] for
  /// `[]`, settled by what is first put into it).
  Type listDisplayType(Specialization &spec, const SExpr &display);
  /// `list.method(...)`: append and pop() natively, the others through
  /// plait.overload ("list.<name>", the list first).
  Type listMethodType(Specialization &spec, const SExpr &call, const Type &list);
  /// `l[i]` and `l[a:b]`.
  Type listSubscriptType(Specialization &spec, const SExpr &subscript, const Type &list);
  /// `+`, `*`, `+=` and `*=` with a list operand: plait.overload's
  /// "list.__add__" and the like (the others raise CPython's TypeError).
  Type listOperatorType(Specialization &spec, const SExpr &node, ast::Operator op, const Type &left,
                        const Type &right);
  /// `l == m` and `l != m` with a list operand: plait.overload's
  /// "list.__eq__" (a list never equals another kind of value).
  Type listEqualityType(Specialization &spec, const SExpr &compare);
  /// `x in seq` and `x not in seq` for a list, a tuple of one scalar type
  /// or a 1-D array: plait.overload's "builtins.in" (the item first).
  Type containsType(Specialization &spec, const SExpr &compare);
  /// The type of a comparison with a tuple operand, or nullopt for one
  /// without (TyperExpressions.cpp).
  std::optional<Type> tupleComparisonType(Specialization &spec, const SExpr &expr,
                                          const std::vector<const SExpr *> &operands,
                                          const std::vector<const SExpr *> &ops);
  /// `l[i] = value`.
  void assignListItem(Specialization &spec, const SExpr &target, const Type &list,
                      const Type &value, const SExpr &origin);
  /// Puts an item of type `item` into the list `node` evaluates to (of type
  /// `list`): the items' type must be `item`, or is settled to it when
  /// unknown (`[]`), for the variable `node` names.
  void settleListItems(Specialization &spec, const SExpr &node, const Type &list, const Type &item,
                       const SExpr &origin);

  /// Marks `test` (an if's, a while's, an assert's, not's operand) as
  /// tested for its truth only, when it is an `and`/`or`.
  void markTruthTest(Specialization &spec, const SExpr &test);

  //--- typed dicts (TyperDicts.cpp) --------------------------------------//
  Type dictDisplayType(Specialization &spec, const SExpr &display);
  /// The type of `key` looked up in `dict` (its keys' type, or an int or
  /// bool that finds the equal float or int key, unless `storing`: a new
  /// key would keep its own type); a TypingError otherwise.
  Type dictKeyType(Specialization &spec, const Type &dict, const SExpr &key, bool storing = false);
  /// `dict.method(...)`: get natively, the others through plait.overload.
  Type dictMethodType(Specialization &spec, const SExpr &call, const Type &dict);
  void assignDictItem(Specialization &spec, const SExpr &target, const Type &dict,
                      const Type &value, const SExpr &origin);
  /// Gives the dict `node` evaluates to keys of `key` and values of `value`
  /// (Bottom: not given), settling an empty dict's types, as for lists.
  void settleDictTypes(Specialization &spec, const SExpr &node, const Type &dict, const Type &key,
                       const Type &value, const SExpr &origin);
  /// `del d[k]` and `del l[i]`.
  void typeDelete(Specialization &spec, const SExpr &stmt);

  //--- plait.overload (TyperOverloads.cpp) -------------------------------//
  /// The overload key a call's target has ("numpy.clip", "ndarray.flip",
  /// a global's key), or "" when plait.overload does not implement it.
  std::string overloadTarget(const Specialization &spec, const SExpr &call) const;
  /// `receiver.method(args)` through plait.overload's "<family>.<method>"
  /// (the receiver first); nullopt when nothing is registered or the
  /// compiler's own implementation applies.
  std::optional<Type> methodOverloadType(Specialization &spec, const SExpr &call,
                                         const std::string &family);
  /// A call of an overloaded target with `positional` arguments (an array
  /// method's receiver first): resolved by the options' resolver per
  /// argument types, then typed as a jitted call or a ufunc loop; nullopt
  /// when the compiler's own implementation applies instead.
  std::optional<Type> overloadCallType(Specialization &spec, const SExpr &call,
                                       const std::string &target,
                                       const std::vector<const SExpr *> &positional);
  /// An argument's value in Python's literal syntax when it is a constant
  /// (a literal, -1, a tuple of constants, a global bound to one), else "".
  std::string literalOf(const Specialization &spec, const SExpr &node) const;
  /// plait.numpy's array_from_sequence intrinsic: np.array of a sequence.
  Type arrayFromSequenceType(Specialization &spec, const SExpr &call,
                             const std::vector<const SExpr *> &args);
  /// plait.numpy's strided_view intrinsic: a view of an array's memory.
  Type stridedViewType(Specialization &spec, const SExpr &call,
                       const std::vector<const SExpr *> &args);
  /// plait.numpy's intrinsics: the C library's math functions (IEEE
  /// results, no exceptions) and raise_if(condition, "Class", "message
  /// {0}", ints...), which raises when the condition holds.
  Type intrinsicCallType(Specialization &spec, const SExpr &call, const std::string &name);
  /// The function `id` of the snapshot or of an overload's implementation.
  const FunctionSource &functionSource(int id) const;

  //--- NumPy, subscripts and aliases (TyperNumPy.cpp) --------------------//
  Type numpyCallType(Specialization &spec, const SExpr &call, const std::string &name);
  /// The arguments of `call` bound to NumPy's `parameters` (positional ones
  /// first, keyword-only ones after ""), as Python binds them, with its
  /// errors; `positionalOnly` may not be passed by keyword.
  std::map<std::string, const SExpr *> bindArguments(Specialization &spec, const SExpr &call,
                                                     const std::vector<std::string> &parameters,
                                                     const std::string &callee,
                                                     const std::string &positionalOnly = "");
  /// The axis a constant int (negative counts from the end) names, with
  /// NumPy's error when out of bounds; `notConstant` when it is no constant.
  int constantAxis(Specialization &spec, const SExpr &node, int ndim,
                   const std::string &notConstant);
  /// The int a constant axis (negative too) is, before any bounds check.
  long long constantAxisValue(Specialization &spec, const SExpr &node,
                              const std::string &notConstant);
  /// `value` as an axis of `ndim` (negative counts from the end), with
  /// NumPy's error at `node` when out of bounds.
  int normalisedAxis(Specialization &spec, const SExpr &node, long long value, int ndim);
  /// np.linalg.<name>(...) (TyperLinalg.cpp).
  Type linalgCallType(Specialization &spec, const SExpr &call, const std::string &name);
  /// A dtype designator: np.float64, float, int, bool, "int32", a global
  /// bound to a NumPy type. Fails with a TypingError otherwise.
  DType dtypeOf(Specialization &spec, const SExpr &node);
  /// The number of dimensions a shape argument (int or tuple of ints) gives;
  /// 0 while its type is not known yet.
  int shapeRank(Specialization &spec, const SExpr &node);
  /// How a reduction call (np.sum(a, axis=(0, 1), keepdims=True), a.std(0,
  /// ddof=1), ...) reduces an array of `ndim` axes: its arguments bound to
  /// NumPy's parameters, with NumPy's errors.
  Specialization::Reduction reductionOf(Specialization &spec, const SExpr &call,
                                        const std::string &name, int ndim);
  /// The reduction `name`'s result dtype for an array of `dtype`.
  DType reductionDType(Specialization &spec, const SExpr &call, const std::string &name,
                       DType dtype, const std::optional<DType> &requested);
  /// a[rows, cols], a[:, idx], a[i, idx]: a new array (see gathers).
  Type gatherType(Specialization &spec, const SExpr &subscript, const Type &array,
                  const std::vector<SubscriptItem> &items);
  /// The element type of `target` (an array subscript) after checking it;
  /// a view (array type) when some axes are sliced or not indexed.
  Type subscriptType(Specialization &spec, const SExpr &subscript);
  /// The array variable a view expression comes from ("" if none).
  /// Whether writing through `target` writes into the .imag of a real
  /// array (through subscripts and views of it).
  bool writesRealImag(Specialization &spec, const SExpr &target);
  std::string viewRoot(const Specialization &spec, const SExpr &expr) const;
  /// The variables whose memory an array expression may share (none for a
  /// new array).
  std::set<std::string> aliasRoots(const Specialization &spec, const SExpr &expr) const;
  /// Records that the array variable `name` may alias `roots`.
  void addAliases(Specialization &spec, const std::string &name, const std::set<std::string> &roots);

  const Program &program;
  /// Functions the overload resolver sent (std::map: stable addresses).
  std::map<int, FunctionSource> overloadFunctions;
  /// Resolutions by target and argument types, asked once per compilation.
  std::map<std::string, OverloadResolution> resolutions;
  /// The arguments made for subscripts of overloaded objects (np.mgrid[...]):
  /// nodes the snapshot has not, kept for the emitter.
  std::map<const SExpr *, std::vector<const SExpr *>> subscriptArguments;
  std::deque<SExpr> synthesizedNodes;
  /// The calls made for f(*t) (unpackedCall), by call and tuple lengths.
  std::map<std::pair<const SExpr *, std::string>, const SExpr *> unpackedCallNodes;
  /// The *args tuples made, by call and callee id (varargsTuple).
  std::map<std::pair<const SExpr *, int>, const SExpr *> varargsTuples;
  const CompileOptions &options;
  uint64_t uniqueId;
  std::deque<Specialization> specs; // stable addresses
  bool changed = false;
  /// While typing a body: how many loops enclose it, and the row variables
  /// (for row in m) of the enclosing loops.
  int loopDepth = 0;
  std::set<std::string> rowsInScope;
};

/// The math functions compiled code may call: libm name, arity, result kind.
struct MathFunctionInfo {
  const char *python;
  const char *libm;  // nullptr: emitted specially
  int arity;
  Type::Kind result;
  bool canOverflow;  // an infinite result from finite input is OverflowError
  /// Arguments in [quietLow, quietHigh] cannot raise (NaN bounds: no such
  /// range is known), so a compiled call tests its argument before the call
  /// rather than its result after it.
  double quietLow = NAN, quietHigh = NAN;
};
const MathFunctionInfo *lookupMathFunction(const std::string &name);
bool isSupportedBuiltin(const std::string &name);
/// The number of arguments of plait.numpy's libm intrinsic `name` (0: no
/// such intrinsic); `single` for a "<name>f" float version.
size_t libmArity(const std::string &name, bool &single);
/// (With `spec`: an if known when compiling counts by its live branch.)
bool alwaysReturns(const SExpr &body, const Specialization *spec = nullptr);
/// A new AST node `(head <at's location>)`, for the nodes the typer makes
/// (its fields appended by the caller).
SExpr madeNode(const char *head, const SExpr &at);
/// The first `return` in `node` (nested statements included) that
/// `accept` accepts (any, without one), or null.
/// An `if` known when compiling whose live branch always returns or
/// raises: the statements after it in its body never run, and are neither
/// typed nor emitted (`if axis is None: return ...`).
bool endsBody(const Specialization &spec, const SExpr &stmt);
const SExpr *findReturn(const SExpr &node,
                        const std::function<bool(const SExpr &ret)> &accept = nullptr);
/// -N for an integer constant N (its negation fits int64 even where N does
/// not: -9223372036854775808).
bool negatedIntConstant(const SExpr &unary, int64_t &value);
/// An integer constant above int64's range that fits uint64 (the argument
/// of np.uint64(18446744073709551615)).
bool bigUnsignedConstant(const SExpr &node, uint64_t &value);
/// The index expressions of a subscript: a[i, j] -> {i, j}, a[i] -> {i}.
std::vector<const SExpr *> subscriptIndices(const SExpr &subscript);
/// Whether a typed subscript indexes with an array (a[mask], a[indices]).
bool indexesWithArray(const Specialization &spec, const SExpr &subscript);
/// Whether the NumPy function or array method `name` reduces (np.sum,
/// np.cumsum, np.any, ...): its arguments are bound by reductionOf().
bool isReductionName(const std::string &name);
/// True for the constant None (an absent optional field too).
bool isNoneConstant(const SExpr &node);
/// A variable's name as written: the separate values of one local are
/// variables "name$k" (flow-sensitive types, python/plait/_versions.py).
inline std::string sourceName(const std::string &name) { return name.substr(0, name.find('$')); }
/// Whether `name` (a parameter of `spec`) may be written, directly or by a
/// callee it is passed to.
bool writesParameter(const Specialization &spec, const std::string &name);

} // namespace plait::frontend

#endif // PLAIT_LIB_FRONTEND_TYPER_H
