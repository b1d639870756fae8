//===- Frontend.h - typed Python functions to MLIR --------------*- C++ -*-===//
//
// The frontend turns a snapshot of Python functions (see SExpr.h) into an MLIR
// module: it infers one static type per variable (to a fixed point, across
// calls between jitted functions, recursion included), then emits the plait
// dialect (with func/arith/cf/math/memref) with CPython's semantics: checked
// int arithmetic, range loops and raising sites are plait operations, which
// plait's passes optimise and lower (docs/design/dialect.md).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_FRONTEND_FRONTEND_H
#define PLAIT_FRONTEND_FRONTEND_H

#include "plait/Frontend/DType.h"
#include "plait/Frontend/SExpr.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace plait::frontend {

/// A named tuple class NumPy returns (np.linalg.eigh's EighResult): where
/// results are built from (module and name) and its fields (attributes in
/// compiled code).
struct NamedTupleClass {
  const char *module;
  const char *name;
  std::vector<std::string> fields;
};
/// numpy.linalg's EighResult(eigenvalues, eigenvectors).
const NamedTupleClass &eighResultClass();

/// A static type of a value in compiled code.
struct Type {
  /// Bool, Int and Float are Python's types; NumPy is a NumPy scalar
  /// (np.float32, np.int8, np.bool_, ...: what array elements load as),
  /// computed with NumPy's rules (its width, wrapping, IEEE results).
  /// Complex is Python's complex (two float leaves, as numpy.complex128).
  /// DType is a dtype as a value (np.float32, a.dtype, float passed as
  /// dtype=), String a string constant passed to a plait.overload
  /// implementation (side="left"): known when compiling, so no leaves.
  /// Function is a lambda or an inner def as a value: the program's function
  /// `function`, with the values it captured (`elements`, its leaves).
  /// List is a typed list of scalars of `elements[0]` (Bottom while no item
  /// has been typed: `[]`): one leaf, its box (docs/design/lists.md).
  /// Dict is a typed dict of `elements[0]` keys and `elements[1]` values
  /// (Bottom while none is typed: `{}`): one leaf, its box.
  /// Str is a str computed at run time (docs/design/strings.md): a list's
  /// box of its code points (`elements[0]` is int), so it is owned, stored
  /// and passed as a list is.
  enum class Kind {
    Bottom,
    None,
    Bool,
    Int,
    Float,
    Tuple,
    Array,
    NumPy,
    Complex,
    DType,
    String,
    Function,
    List,
    Dict,
    Str
  };
  Kind kind = Kind::Bottom;
  std::vector<Type> elements; // Tuple
  /// Tuple: the named tuple class it is an instance of, or null.
  const NamedTupleClass *named = nullptr;
  DType dtype = DType::Float64; // Array, NumPy, DType
  int ndim = 0;                 // Array
  /// Array: C-contiguous, so the innermost stride is the constant 1 (the
  /// code vectorises); otherwise any strides.
  bool contiguous = false;
  /// Array (2-D and up): Fortran-contiguous, the first axis has stride 1.
  bool fortran = false;
  /// String: the constant.
  std::string text;
  /// Function: the id of its function in the program, and whether its
  /// first parameter is the closure (a lambda's or inner def's) or not (a
  /// jitted function named as a value).
  int function = 0;
  bool takesClosure = true;

  static Type bottom() { return {}; }
  static Type none() { return {Kind::None, {}}; }
  static Type boolean() { return {Kind::Bool, {}}; }
  static Type integer() { return {Kind::Int, {}}; }
  static Type floating() { return {Kind::Float, {}}; }
  static Type complex() { return {Kind::Complex, {}}; }
  static Type tuple(std::vector<Type> elements) {
    return {Kind::Tuple, std::move(elements)};
  }
  static Type namedTuple(const NamedTupleClass &named, std::vector<Type> elements) {
    Type t = tuple(std::move(elements));
    t.named = &named;
    return t;
  }
  static Type array(DType dtype, int ndim, bool contiguous = false, bool fortran = false) {
    Type t;
    t.kind = Kind::Array;
    t.dtype = dtype;
    t.ndim = ndim;
    t.contiguous = contiguous;
    t.fortran = fortran && !contiguous;
    return t;
  }
  /// A new array computed from `inputs` (arrays and scalars), in NumPy's
  /// K order where it is C or Fortran order: Fortran when every input array
  /// of two axes or more is Fortran-contiguous (1-D inputs broadcast with a
  /// zero stride on the other axes, so NumPy's iterator does not count
  /// them), C order otherwise.
  static Type newArray(DType dtype, int ndim, const std::vector<Type> &inputs) {
    bool fortran = ndim > 1, decided = false;
    for (const Type &input : inputs)
      if (input.kind == Kind::Array && input.ndim > 1) {
        fortran &= input.fortran;
        decided = true;
      }
    fortran &= decided;
    return array(dtype, ndim, !fortran, fortran);
  }
  static Type numpy(DType dtype) {
    Type t;
    t.kind = Kind::NumPy;
    t.dtype = dtype;
    return t;
  }
  static Type stringConstant(std::string text) {
    Type t;
    t.kind = Kind::String;
    t.text = std::move(text);
    return t;
  }
  static Type closure(int function, std::vector<Type> captured) {
    Type t{Kind::Function, std::move(captured)};
    t.function = function;
    return t;
  }
  static Type globalFunction(int function) {
    Type t = closure(function, {});
    t.takesClosure = false;
    return t;
  }
  static Type list(Type element) { return {Kind::List, {std::move(element)}}; }
  /// A str computed at run time: its code points in a list's box.
  static Type runtimeStr() { return {Kind::Str, {integer()}}; }
  /// A str, known when compiling or not.
  bool isStr() const { return kind == Kind::String || kind == Kind::Str; }
  /// A list's box holds it: a list, or a run-time str (its code points).
  bool isListBox() const { return kind == Kind::List || kind == Kind::Str; }
  static Type dict(Type key, Type value) {
    return {Kind::Dict, {std::move(key), std::move(value)}};
  }
  /// Dict: the types of its keys and values.
  const Type &keyType() const { return elements.front(); }
  const Type &valueType() const { return elements.back(); }
  /// List: the type of its items (a run-time str's: int code points).
  const Type &itemType() const { return elements.front(); }
  static Type dtypeValue(DType dtype) {
    Type t;
    t.kind = Kind::DType;
    t.dtype = dtype;
    return t;
  }
  /// The scalar type elements of an array are loaded as (a NumPy scalar).
  Type elementType() const { return numpy(dtype); }
  /// A real number: Python's bool, int or float, or a real NumPy scalar.
  bool isNumeric() const {
    return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float ||
           (kind == Kind::NumPy && !isComplexDType(dtype));
  }
  bool isComplex() const {
    return kind == Kind::Complex || (kind == Kind::NumPy && isComplexDType(dtype));
  }
  /// An integer index or size: Python's int or bool, or a NumPy integer.
  bool isIntegral() const {
    return kind == Kind::Int || kind == Kind::Bool ||
           (kind == Kind::NumPy && !isFloatDType(dtype) && dtype != DType::Bool &&
            !isComplexDType(dtype));
  }
  /// Any number: real or complex.
  bool isNumber() const { return isNumeric() || isComplex(); }
  bool isNumPy() const { return kind == Kind::NumPy; }
  /// A float: Python's float or a NumPy float scalar.
  bool isFloating() const {
    return kind == Kind::Float || (kind == Kind::NumPy && isFloatDType(dtype));
  }
  bool operator==(const Type &other) const {
    return kind == other.kind && elements == other.elements && named == other.named &&
           (kind != Kind::Array || (dtype == other.dtype && ndim == other.ndim &&
                                    contiguous == other.contiguous && fortran == other.fortran)) &&
           ((kind != Kind::NumPy && kind != Kind::DType) || dtype == other.dtype) &&
           (kind != Kind::String || text == other.text) &&
           (kind != Kind::Function ||
            (function == other.function && takesClosure == other.takesClosure));
  }
  bool operator!=(const Type &other) const { return !(*this == other); }
  /// Python's spelling: "int", "float", "bool", "None", "tuple[int, float]",
  /// "numpy.float32" for a NumPy scalar, "dtype[float32]" for a dtype,
  /// "str['left']" for a string constant (Python's repr inside),
  /// "float64[:, :]" for a 2-D float64 array, "float64[:, ::1]" if
  /// C-contiguous, "float64[::1, :]" if Fortran-contiguous (the spelling of
  /// signatures).
  std::string str() const;
  /// Number of scalar slots (a tuple is flattened; None has none).
  size_t numLeaves() const;
  /// Whether this is an array or a tuple holding one (at any depth).
  bool containsArray() const {
    if (kind == Kind::Array)
      return true;
    for (const Type &element : elements)
      if (element.containsArray())
        return true;
    return false;
  }
};

/// How a list stores one item of type `item` (docs/design/lists.md).
/// Numbers, bools and NumPy scalars take their own bytes (float32: 4).
/// Tuples, arrays and lists take int64 words, one per leaf: a scalar's bits
/// in the low bytes of a word (a complex value in two), an array's or a
/// list's memref descriptor as LLVM lays it out (allocated pointer, aligned
/// pointer, offset, sizes, strides), so that it is one reference the list
/// holds.
struct ListItemLayout {
  int64_t bytes = 0;  // of one item
  bool words = false; // stored as words
  /// Bit w: word w of an item is an allocated pointer the item owns a
  /// reference to (released with the item).
  uint64_t owned = 0;
};
/// The layout of `item`, a type isListItem() accepts.
ListItemLayout listItemLayout(const Type &item);
/// Whether lists can hold items of `item`: numbers, bools, NumPy scalars,
/// arrays, typed lists, and tuples of these of at most 64 words.
bool isListItem(const Type &item);
/// The type a list stores `item` as: arrays of any layout (a list's arrays
/// may be views of any strides), in tuples too.
Type listItemOf(const Type &item);

/// How a dict keeps values of type `value`: numbers, bools and NumPy
/// scalars in two words (as float64 or int64 bits; a complex value's parts),
/// tuples, arrays and lists as a list keeps its items (ListItemLayout:
/// `owned` marks the references a value holds); no type yet: no words
/// (given by the first insertion).
ListItemLayout dictValueLayout(const Type &value);

/// Whether dicts can have keys of `key`: bools, ints, floats, strs, real
/// NumPy scalars, and non-empty tuples of these of at most 16 words.
bool isDictKey(const Type &key);

/// The int64 words a dict keeps a key of `key` in (docs/design/lists.md,
/// "Dicts"): one per number, bool or str (its box), a tuple's elements one
/// after another; 0 for no type yet.
int64_t dictKeyWords(const Type &key);
/// The mask of a key's words that are strs (bit w: word w).
uint64_t dictStrKeyWords(const Type &key);

/// `text` as a Python string literal ('it\'s'), UTF-8 bytes kept as they are.
std::string pythonStringLiteral(const std::string &text);
/// The text of a literal pythonStringLiteral wrote; throws
/// std::invalid_argument for another.
std::string stringOfPythonLiteral(const std::string &literal);

/// The type NumPy computes `a op b` in when one side is a NumPy scalar
/// (NEP 50: Python's bool, int and float are "weak" and take the NumPy
/// side's type where they can). Both must be numeric, one NumPy.
Type numpyCommonType(const Type &a, const Type &b);

/// Whether `left op right` with a complex operand follows NumPy's rules: a
/// NumPy scalar is involved, except a numpy.float64 right of a Python
/// complex (complex.__add__ accepts that float subclass first).
bool complexUsesNumPy(const Type &left, const Type &right);
/// The type `left op right` computes in when either is complex: Python's
/// complex, or NumPy's complex64 or complex128.
Type complexResultType(const Type &left, const Type &right);

/// The builtins compiled code may call (the snapshot tells them from
/// other globals of the same name).
const std::vector<std::string> &supportedBuiltins();
/// The NumPy functions the compiler implements itself ("sum",
/// "linalg.solve"); plait.numpy implements the others it supports.
const std::vector<std::string> &nativeNumPyFunctions();
/// The array methods the compiler implements itself (a.sum(), a.copy()).
const std::set<std::string> &nativeArrayMethods();

/// The first character of the message of a `raise` or `assert` in the
/// program: a template the dispatcher formats with Python's format() when
/// it raises ({k:kind:spec}, {{, }}; Results.cpp). A message that is only
/// kNoArgumentsMessage raises the class called without arguments.
constexpr char kFormattedMessage = '\x01';
constexpr char kNoArgumentsMessage = '\x02';
/// kValueMessage then a kind (i, f, b, N<code>): the class called with the
/// first recorded value itself (raise IndexError(i)).
constexpr char kValueMessage = '\x03';
/// The exception class of an error site whose exception Python code called
/// from compiled code raised (print()): the dispatcher raises that one.
constexpr const char *kCallbackException = "<callback>";

/// One jitted Python function of the program.
struct FunctionSource {
  int id = 0;
  std::string name;
  std::string filename;
  std::vector<std::string> params;
  /// The last parameter is *args: a tuple of the extra positional arguments.
  bool varargs = false;
  /// Default values of the trailing parameters (constant atoms).
  std::vector<SExpr> defaults;
  /// name -> (G name value): what a global name read by the body is bound to.
  std::map<std::string, SExpr> globals;
  /// Source lines by file line number, for error carets.
  std::map<int, std::string> lines;
  SExpr definition; // (FunctionDef ...)
  /// The function's own options (a jitted function's, which its inner
  /// functions share); unset, it compiles with the compilation's
  /// CompileOptions (plain functions it calls, overload implementations).
  std::optional<bool> checkOverflow, fastmath, boundsCheck;
};

struct Program {
  std::map<int, FunctionSource> functions;
};

/// Parses "(Program (Function ...) ...)"; throws std::invalid_argument.
Program parseProgram(const std::string &snapshot);

/// A call of a function implemented with plait.overload, as typing found it.
struct OverloadRequest {
  /// "numpy.clip", "ndarray.flip" (an array method: the array comes first),
  /// or the key of a global bound to an overloaded object.
  std::string target;
  std::vector<Type> positional;
  std::vector<std::pair<std::string, Type>> keywords;
  /// Per argument (positional ones, then keywords): its value in Python's
  /// literal syntax when it is a constant (axis=1, (0, 1), None, 'left'),
  /// else "" (type-level functions read it as the type's literal_value).
  std::vector<std::string> literals;
};

/// What the call is: a call of a jitted implementation (its functions come
/// with it, as a snapshot), or an elementwise loop (a ufunc) over NumPy's
/// broadcast of the operands that calls a scalar kernel on the loop's
/// dtypes (NumPy resolved them) and stores its result as `loopOutput`.
struct OverloadResolution {
  /// Native: no implementation applies to these arguments, and the
  /// compiler implements the target itself (np.transpose without axes).
  enum class Kind { Function, Ufunc, Native };
  Kind kind = Kind::Function;
  int functionId = 0;
  std::string program; // "(Program (Function ...) ...)": functions not sent yet
  std::vector<DType> loopInputs;
  DType loopOutput = DType::Float64;
  /// The kernel's complex products are fused where the CPU has FMA, as
  /// NumPy's SIMD loops compute them (np.multiply, np.square); false for
  /// loops NumPy runs in plain C (np.power).
  bool simdProducts = true;
  /// A Python int operand must fit the loop's dtype (NEP 50: OverflowError);
  /// false where NumPy casts it as C does (np.where).
  bool checkPythonInts = true;
};

struct CompileOptions {
  /// int64 overflow raises OverflowError when true, wraps when false.
  bool checkOverflow = true;
  bool fastmath = false;
  /// prange loops run on the thread pool (parallel=True); serially when false.
  bool parallel = false;
  /// Array indices are checked (IndexError) unless false.
  bool boundsCheck = true;
  /// Versioned loops at the start of the entry leave out their checked copy:
  /// when a guard fails, the call returns the speculation status and the
  /// dispatcher runs the function again, compiled with this false.
  bool speculate = true;
  /// Depth guard for calls between jitted functions (RecursionError).
  int64_t recursionLimit = 1000;
  /// CPython's messages, keyed as in plait/jit.py (sampled from the running
  /// interpreter); defaults are CPython 3.11's.
  std::map<std::string, std::string> messages;
  std::string message(const std::string &key) const;
  /// The targets plait.overload implements ("numpy.clip", "ndarray.flip").
  std::set<std::string> overloaded;
  /// Resolves an overloaded call (the bindings ask Python, re-attached);
  /// throws CompileError (without a location) when there is no
  /// implementation for the types.
  std::function<OverloadResolution(const OverloadRequest &)> resolveOverload;
};

/// A compile-time error with the location, source line and caret.
class CompileError : public std::runtime_error {
public:
  enum class Kind { Typing, Unsupported };
  CompileError(Kind kind, std::string message)
      : std::runtime_error(message), kind(kind) {}
  Kind kind;
};

/// What a run-time status code (1-based index) means.
struct ErrorSite {
  std::string exception; // e.g. "ZeroDivisionError"
  std::string message;
  /// Where it is raised, for the traceback: "file:line:function" lines,
  /// innermost first (a site in an inlined callee, then its call).
  std::string frames;
};

struct EmittedModule {
  std::string entrySymbol;
  std::vector<Type> argumentTypes;
  Type resultType;
  /// The error table (filled once plait-lower-raise has built it).
  std::vector<ErrorSite> errors;
  /// The status of a guard that failed in speculative code (0: none can):
  /// no exception, but a request to run the non-speculative compilation.
  int32_t speculationStatus = 0;
  /// True when the code loops or calls other jitted functions (nogil="auto").
  bool mayRunLong = false;
  /// Per argument: does the code (or a callee) write to this array?
  std::vector<bool> writesArgument;
};

/// Emits into `module` the specialisation of `entryFunction` for
/// `argumentTypes`, every jitted function it reaches, and an entry wrapper
///   i32 @<entrySymbol>(argument leaves..., memref<?xi64> results)
/// taking scalars and arrays (strided memrefs) as they are and writing the
/// results into 64-bit slots (floats bit-cast, bools as 0/1). `uniqueId` keeps
/// the symbols of different modules apart in a shared JIT. Throws
/// CompileError.
EmittedModule emitModule(mlir::ModuleOp module, const Program &program,
                         int entryFunction,
                         const std::vector<Type> &argumentTypes,
                         const CompileOptions &options, uint64_t uniqueId);

} // namespace plait::frontend

#endif // PLAIT_FRONTEND_FRONTEND_H
