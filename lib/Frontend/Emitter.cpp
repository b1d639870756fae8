//===- Emitter.cpp - typed snapshots to the plait dialect -----------------===//
//
// One emitter per AST node kind. Python's semantics are plait operations
// (checked int arithmetic, indices, raising, range loops); the rest is
// arith/math/memref. Variables live in stack slots (memref.alloca in the
// entry block) that LLVM promotes to registers, except values that cannot
// change; `if`, `while` and short-circuits are cf blocks. Every function
// returns (i32 status, results...): status 0 is success, any other value
// names an error (see plait-lower-raise) and is propagated by callers.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"
#include "plait/Dialect/Plait/Messages.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"
#include "plait/Runtime/PyNumeric.h"

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

#include <cmath>
#include <functional>
#include <optional>

namespace plait::frontend {
namespace {

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

/// Whether a statement list binds `name` (assignment, augmented or
/// annotated assignment, a for target), nested statements included.
static bool assigns(const SExpr &body, const std::string &name) {
  std::function<bool(const SExpr &)> target = [&](const SExpr &t) {
    if (t.head() == "Name")
      return t.field(0).text == name;
    if (t.head() == "Tuple")
      for (size_t i = 0; i < t.numFields(); ++i)
        if (target(t.field(i)))
          return true;
    return false;
  };
  std::function<bool(const SExpr &)> scan = [&](const SExpr &node) {
    const std::string &h = node.head();
    if (h == "Assign")
      for (const SExpr *t : node.field(0).rest())
        if (target(*t))
          return true;
    if ((h == "AugAssign" || h == "AnnAssign" || h == "For") && target(node.field(0)))
      return true;
    for (const SExpr &item : node.items)
      if (item.isList() && scan(item))
        return true;
    return false;
  };
  return scan(body);
}

/// Whether a statement list contains `return` (nested statements included).
static bool containsReturn(const SExpr &body) {
  if (body.head() == "Return")
    return true;
  for (const SExpr &item : body.items)
    if (item.isList() && containsReturn(item))
      return true;
  return false;
}

class ModuleEmitter;

class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &module, Specialization &spec);
  void emit(const std::string &symbol);

private:
  // Infrastructure.
  Location loc(const SExpr &node);
  mlir::Type leafType(Type::Kind kind);
  void leafTypes(const Type &type, llvm::SmallVectorImpl<mlir::Type> &out);
  Block *newBlock();
  bool terminated();
  void startBlock(Block *block) { builder.setInsertionPointToEnd(block); }
  void branch(Block *target, mlir::ValueRange args = {});
  Value alloca(mlir::Type type);
  Value constInt(int64_t v, unsigned width = 64);
  Value constIndexValue(int64_t v) {
    return builder.create<arith::ConstantIndexOp>(builder.getUnknownLoc(), v);
  }
  Value constFloat(double v);
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
  Val numpyArith(const SExpr &node, const std::string &op, const Val &left, const Val &right);
  Value numpyIntDivMod(const std::string &op, Value a, Value b, bool isUnsigned);
  Value numpyShift(const std::string &op, Value a, Value b, bool isUnsigned);
  Value numpyCompare(const std::string &op, const Val &left, const Val &right, Location l);
  // Complex numbers: two float leaves.
  std::pair<Value, Value> complexParts(const Val &value, bool numpy);
  std::pair<Value, Value> callComplexRuntime(const char *name, std::vector<Value> args,
                                             std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val complexArith(const SExpr &node, const std::string &op, const Val &left, const Val &right);
  Value complexCompare(const std::string &op, const Val &left, const Val &right, const SExpr &node);
  Value complexAbs(const Val &z, bool checkOverflow);
  Value constOf(mlir::Type type, int64_t v) {
    return builder.create<arith::ConstantIntOp>(builder.getUnknownLoc(), v, type);
  }

  // Statements.
  void emitBody(const SExpr &body);
  void emitStatement(const SExpr &stmt);
  /// Frees `value` now if it is an unnamed array this function allocated:
  /// call it after the operation that used it (its only use).
  void freeIfTemporary(const Val &value);
  void emitAssign(const SExpr &target, const Val &value);
  void emitFor(const SExpr &stmt);
  /// A for loop over range(start, stop, step) (a plait.for), binding
  /// `item(i)` to the target on the iteration of element i.
  void emitRangeLoop(const SExpr &stmt, Value start, Value stop, Value step,
                     const std::function<Val(Value)> &item);
  void emitWhile(const SExpr &stmt);
  void emitIf(const SExpr &stmt);
  void emitReturn(const Val &value);

  // Expressions.
  Val emitExpr(const SExpr &expr);
  Val loadVariable(const std::string &name, const SExpr &node);
  /// `left op right`; `out` is the target of an in-place array operation
  /// (a += b), for NumPy's shape rules and messages.
  Val emitBinary(const SExpr &node, const std::string &op, const Val &left,
                 const Val &right, const Val *out = nullptr);
  /// The dtype NumPy computes `left op right` in when a NumPy scalar is
  /// involved, which a Python int operand must fit.
  static DType numpyArithDType(const std::string &op, const Type &left, const Type &right);
  Val intArith(const std::string &op, Value a, Value b);
  /// a & b, a | b, a ^ b for those operators; null for any other.
  Value bitwise(const std::string &op, Value a, Value b, Location l);
  Val floatArith(const SExpr &node, const std::string &op, Value a, Value b);
  Val emitUnary(const SExpr &node);
  Val unaryOf(const SExpr &node, const std::string &op, const Val &operand);
  /// A new array of `dtype` with the operands' broadcast shape (`ndim`
  /// axes; scalars are used as they are), element i = f(elements i).
  Val arrayElementwise(const SExpr &node, llvm::ArrayRef<Val> operands, DType dtype, int ndim,
                       const std::function<Val(llvm::ArrayRef<Val>)> &f, const Val *out = nullptr);
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
  Value compare(const std::string &op, const Val &left, const Val &right,
                const SExpr &leftNode);
  Val emitIfExp(const SExpr &node);
  Val emitCall(const SExpr &node);
  Val emitMath(const SExpr &node, const std::string &name,
               std::vector<Val> args);
  Val emitBuiltin(const SExpr &node, const std::string &name);
  Val emitJitCall(const SExpr &node);
  Val callRuntime(const char *name, std::vector<Value> args, const Type &resultType,
                  std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val callRuntimeFloat(const char *name, std::vector<Value> args,
                       std::initializer_list<std::pair<int32_t, PyError>> codes);
  Val callRuntimeInt(const char *name, std::vector<Value> args,
                     std::initializer_list<std::pair<int32_t, PyError>> codes);
  Value callLibm(const char *name, std::vector<Value> args);
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
  /// An element loaded from storage as the scalar it reads as.
  Val fromStorage(Value raw, DType dtype, Location l);
  /// Emits `body(indices)` for every element, in C order or Fortran order.
  void forEachElement(Value memref, int ndim,
                      const std::function<void(llvm::ArrayRef<Value>)> &body,
                      bool fortranOrder = false);
  /// Address of the first element (the data pointer), as an i64.
  Value dataAddress(Value memref, const Type &array, Location l);
  Val emitReduction(const SExpr &node, const std::string &name);
  Val fromIdentity(const Val &sum);
  Val complexReduction(const SExpr &node, const std::string &name, const Val &array, Value size,
                       bool sequential, Location l);
  /// np.sum etc. of a whole array; `sequential` adds in order (no pairwise).
  Val reduceArray(const SExpr &node, const std::string &name, const Val &array,
                  const Type &result, bool sequential);
  /// np.sum(array) etc., whole or along the call's axis.
  Val reduceExpression(const SExpr &node, const std::string &name, const Val &array);
  Val dotOf(const SExpr &node, const Val &a, const Val &b);
  Val emitDot(const SExpr &node);
  Val emitElementwise(const SExpr &node, const std::string &name);
  Val applyElementwise(const std::string &name, const Val &x, Location l);
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
  /// Array parameters: their memrefs (arrays are never re-bound).
  std::map<std::string, Value> arrays;
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
  /// Inside a plait.for: returning stores the results here and leaves.
  llvm::SmallVector<Value, 2> returnSlots;
  bool insideRangeLoop() const;
  Value f64Out, i64Out, complexOut;
  /// Arrays allocated here and not (yet) bound to a variable.
  llvm::DenseSet<Value> temporaries;
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

  /// Declares an external function once.
  void declare(const std::string &name, mlir::FunctionType type) {
    if (module.lookupSymbol(name))
      return;
    OpBuilder b(context);
    b.setInsertionPointToEnd(module.getBody());
    auto decl = b.create<mlir::func::FuncOp>(b.getUnknownLoc(), name, type);
    decl.setPrivate();
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
      for (const Type &e : type.elements)
        appendLeaves(e, out);
      break;
    case Type::Kind::Array:
      out.push_back(memrefType(type));
      break;
    case Type::Kind::NumPy:
      if (type.dtype == DType::Complex128)
        out.append({b.getF64Type(), b.getF64Type()});
      else
        out.push_back(scalarType(type.dtype));
      break;
    default:
      break;
    }
  }

  unsigned storageBytes(DType dtype) { return dtype == DType::Bool ? 1 : dtypeBits(dtype) / 8; }

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
    case DType::Int64:
    case DType::UInt64:
      return b.getI64Type();
    case DType::Complex128:
      return mlir::ComplexType::get(b.getF64Type());
    case DType::Int32:
      return b.getI32Type();
    case DType::Int16:
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

//===----------------------------------------------------------------------===//
// Infrastructure
//===----------------------------------------------------------------------===//

FunctionEmitter::FunctionEmitter(ModuleEmitter &module, Specialization &spec)
    : module(module), spec(spec), typer(module.typer), builder(module.context) {}

Location FunctionEmitter::loc(const SExpr &node) {
  SourceLocation l = node.location();
  return mlir::FileLineColLoc::get(builder.getContext(), spec.source->filename,
                                   l.line, l.column + 1);
}

mlir::Type FunctionEmitter::leafType(Type::Kind kind) {
  switch (kind) {
  case Type::Kind::Bool:
    return builder.getI1Type();
  case Type::Kind::Float:
    return builder.getF64Type();
  default:
    return builder.getI64Type();
  }
}

void FunctionEmitter::leafTypes(const Type &type,
                                llvm::SmallVectorImpl<mlir::Type> &out) {
  module.appendLeaves(type, out);
}

Block *FunctionEmitter::newBlock() {
  // In the region being emitted: a function's, or a plait.for body's.
  Block *block = new Block();
  builder.getInsertionBlock()->getParent()->push_back(block);
  return block;
}

bool FunctionEmitter::terminated() {
  Block *block = builder.getInsertionBlock();
  return !block->empty() &&
         block->back().hasTrait<mlir::OpTrait::IsTerminator>();
}

void FunctionEmitter::branch(Block *target, mlir::ValueRange args) {
  if (!terminated())
    builder.create<mlir::cf::BranchOp>(builder.getUnknownLoc(), target, args);
}

bool FunctionEmitter::insideRangeLoop() const {
  for (const Loop &loop : loops)
    if (loop.structured)
      return true;
  return false;
}

Value FunctionEmitter::alloca(mlir::Type type) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  return builder.create<mlir::memref::AllocaOp>(
      builder.getUnknownLoc(), mlir::MemRefType::get({}, type));
}

Value FunctionEmitter::constInt(int64_t v, unsigned width) {
  return builder.create<arith::ConstantIntOp>(builder.getUnknownLoc(), v, width);
}

Value FunctionEmitter::constFloat(double v) {
  return builder.create<arith::ConstantFloatOp>(
      builder.getUnknownLoc(), llvm::APFloat(v), builder.getF64Type());
}

Val FunctionEmitter::zeroOf(const Type &type) {
  Val v{type, {}};
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  for (mlir::Type t : types) {
    if (auto memref = t.dyn_cast<mlir::MemRefType>()) {
      // Error paths return an empty array nobody reads (the status says so).
      Location l = builder.getUnknownLoc();
      llvm::SmallVector<Value> zeros(memref.getRank(),
                                     builder.create<arith::ConstantIndexOp>(l, 0));
      Value empty = builder.create<mlir::memref::AllocaOp>(
          l, mlir::MemRefType::get(memref.getShape(), memref.getElementType()), zeros);
      v.leaves.push_back(builder.create<mlir::memref::CastOp>(l, memref, empty));
      continue;
    }
    if (auto f = t.dyn_cast<mlir::FloatType>())
      v.leaves.push_back(builder.create<arith::ConstantFloatOp>(
          builder.getUnknownLoc(), llvm::APFloat(f.getFloatSemantics()), f));
    else
      v.leaves.push_back(constInt(0, t.getIntOrFloatBitWidth()));
  }
  return v;
}

void FunctionEmitter::check(Value failed, const PyError &error) {
  checkWithArgs(failed, error, {});
}

PyError FunctionEmitter::errorCode(const char *exception, const std::string &messageKey) {
  return PyError(exception, module.options.message(messageKey));
}

void FunctionEmitter::checkRuntime(Value status,
                                   std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // A runtime helper's status names the error (0 is success).
  for (const auto &[runtimeStatus, error] : codes)
    check(builder.create<arith::CmpIOp>(builder.getUnknownLoc(), arith::CmpIPredicate::eq, status,
                                        constInt(runtimeStatus, 32)),
          error);
}

Value FunctionEmitter::outPointer(Value slot) {
  return builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(
      builder.getUnknownLoc(), slot);
}

Val FunctionEmitter::callRuntime(
    const char *name, std::vector<Value> args, const Type &resultType,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // The runtime writes its result through a pointer into a stack slot.
  bool isFloat = resultType.kind == Type::Kind::Float;
  Value &slot = isFloat ? f64Out : i64Out;
  if (!slot)
    slot = alloca(isFloat ? mlir::Type(builder.getF64Type()) : mlir::Type(builder.getI64Type()));
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  inputs.push_back(builder.getIndexType());
  module.declare(name, builder.getFunctionType(inputs, {builder.getI32Type()}));
  args.push_back(outPointer(slot));
  Value status = builder
                     .create<mlir::func::CallOp>(builder.getUnknownLoc(), name,
                                                 mlir::TypeRange{builder.getI32Type()},
                                                 args)
                     .getResult(0);
  checkRuntime(status, codes);
  return {resultType, {builder.create<mlir::memref::LoadOp>(builder.getUnknownLoc(), slot)}};
}

Val FunctionEmitter::callRuntimeFloat(
    const char *name, std::vector<Value> args,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  return callRuntime(name, std::move(args), Type::floating(), codes);
}

Val FunctionEmitter::callRuntimeInt(
    const char *name, std::vector<Value> args,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  return callRuntime(name, std::move(args), Type::integer(), codes);
}

Value FunctionEmitter::callLibm(const char *name, std::vector<Value> args) {
  // double f(double...) or float f(float...): the result has the arguments' type.
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  module.declare(name, builder.getFunctionType(inputs, {inputs[0]}));
  return builder
      .create<mlir::func::CallOp>(builder.getUnknownLoc(), name,
                                  mlir::TypeRange{inputs[0]}, args)
      .getResult(0);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Val FunctionEmitter::convert(const Val &value, const Type &to) {
  if (value.type == to)
    return value;
  Location l = builder.getUnknownLoc();
  if (to.kind == Type::Kind::Tuple) {
    Val result{to, {}};
    size_t offset = 0;
    for (size_t i = 0; i < to.elements.size(); ++i) {
      const Type &from = value.type.elements[i];
      size_t n = from.numLeaves();
      Val part{from, llvm::SmallVector<Value, 2>(
                         value.leaves.begin() + offset,
                         value.leaves.begin() + offset + n)};
      offset += n;
      Val converted = convert(part, to.elements[i]);
      result.leaves.append(converted.leaves.begin(), converted.leaves.end());
    }
    return result;
  }
  if (to.kind == Type::Kind::Array) // a layout unified with another: any strides
    return {to, {builder.create<mlir::memref::CastOp>(l, module.memrefType(to), value.leaves[0])}};
  if (to.isNumPy()) // a Python int that does not fit raises, never wraps
    return weakToNumPy(value, to.dtype);
  if (to.kind == Type::Kind::Complex) { // real numbers get a +0.0 imaginary part
    if (value.type.isComplex())
      return {to, value.leaves};
    return {to, {convert(value, Type::floating()).leaves[0], constFloat(0.0)}};
  }
  Value v = value.leaves[0];
  if (value.type.isNumPy()) {
    // To a Python number: float(x) of any, int(x) of integers, bool of bool.
    DType from = value.type.dtype;
    if (to.kind == Type::Kind::Float)
      return {to, {castNumPy(value, DType::Float64).leaves[0]}};
    if (to.kind == Type::Kind::Int && !isFloatDType(from)) {
      if (from == DType::UInt64) // beyond int64: Python's int would hold it
        check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, v, constInt(0)),
              errorCode("OverflowError", "int_overflow"));
      return {to, {castNumPy(value, DType::Int64).leaves[0]}};
    }
    if (to.kind == Type::Kind::Bool && from == DType::Bool)
      return {to, {v}};
  }
  if (to.kind == Type::Kind::Int && value.type.kind == Type::Kind::Bool)
    return {to, {builder.create<arith::ExtUIOp>(l, builder.getI64Type(), v)}};
  if (to.kind == Type::Kind::Float && value.type.kind == Type::Kind::Bool)
    return {to, {builder.create<arith::UIToFPOp>(l, builder.getF64Type(), v)}};
  if (to.kind == Type::Kind::Float && value.type.kind == Type::Kind::Int)
    return {to, {builder.create<arith::SIToFPOp>(l, builder.getF64Type(), v)}};
  throw CompileError(CompileError::Kind::Typing,
                     "internal: cannot convert " + value.type.str() + " to " +
                         to.str());
}

Value FunctionEmitter::truth(const Val &value) {
  Location l = builder.getUnknownLoc();
  if (value.type.isComplex()) {
    Value re = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, value.leaves[0], constFloat(0.0));
    Value im = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, value.leaves[1], constFloat(0.0));
    return builder.create<arith::OrIOp>(l, re, im);
  }
  if (value.type.isNumPy()) {
    Value v = value.leaves[0];
    if (value.type.dtype == DType::Bool)
      return v;
    if (isFloatDType(value.type.dtype)) {
      Value zero = builder.create<arith::ConstantFloatOp>(
          l, llvm::APFloat(v.getType().cast<mlir::FloatType>().getFloatSemantics()),
          v.getType().cast<mlir::FloatType>());
      return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, v, zero);
    }
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, v, constOf(v.getType(), 0));
  }
  switch (value.type.kind) {
  case Type::Kind::Bool:
    return value.leaves[0];
  case Type::Kind::Int:
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                         value.leaves[0], constInt(0));
  case Type::Kind::Float:
    // NaN is truthy: unordered-or-not-equal.
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE,
                                         value.leaves[0], constFloat(0.0));
  case Type::Kind::Tuple:
    return constInt(value.type.elements.empty() ? 0 : 1, 1);
  default:
    return constInt(0, 1);
  }
}

Val FunctionEmitter::constant(const SExpr &value, const Type &type) {
  switch (value.kind) {
  case SExpr::Kind::Integer:
    return {type, {constInt(std::strtoll(value.text.c_str(), nullptr, 10))}};
  case SExpr::Kind::Float:
    return {type, {constFloat(value.floating)}};
  case SExpr::Kind::True:
    return {type, {constInt(1, 1)}};
  case SExpr::Kind::False:
    return {type, {constInt(0, 1)}};
  case SExpr::Kind::None:
    return {type, {}};
  default: {
    if (value.head() == "Complex")
      return {type, {constFloat(value.items.at(1).floating), constFloat(value.items.at(2).floating)}};
    Val result{type, {}};
    std::vector<const SExpr *> items = value.rest();
    for (size_t i = 0; i < items.size(); ++i) {
      Val part = constant(*items[i], type.elements[i]);
      result.leaves.append(part.leaves.begin(), part.leaves.end());
    }
    return result;
  }
  }
}

//===----------------------------------------------------------------------===//
// NumPy scalars
//===----------------------------------------------------------------------===//

Val FunctionEmitter::castNumPy(const Val &value, DType to) {
  Location l = builder.getUnknownLoc();
  Type target = Type::numpy(to);
  if (value.type == target)
    return value;
  if (to == DType::Bool)
    return {target, {truth(value)}};
  if (to == DType::Complex128) {
    if (value.type.isComplex())
      return {target, value.leaves};
    return {target, {castNumPy(value, DType::Float64).leaves[0], constFloat(0.0)}};
  }
  if (value.type.isComplex())
    throw CompileError(CompileError::Kind::Typing, "internal: complex to " + std::string(dtypeName(to)));
  mlir::Type toType = module.scalarType(to);
  Value v = value.leaves[0];
  const Type &from = value.type;
  bool fromFloat = from.isFloating();
  bool fromUnsigned = from.kind == Type::Kind::Bool ||
                      (from.isNumPy() && (from.dtype == DType::Bool || isUnsignedDType(from.dtype)));
  unsigned width = v.getType().getIntOrFloatBitWidth();
  unsigned toWidth = toType.getIntOrFloatBitWidth();
  if (isFloatDType(to)) {
    if (!fromFloat)
      return {target, {fromUnsigned ? builder.create<arith::UIToFPOp>(l, toType, v).getResult()
                                    : builder.create<arith::SIToFPOp>(l, toType, v).getResult()}};
    if (width == toWidth)
      return {target, {v}};
    return {target, {width < toWidth ? builder.create<arith::ExtFOp>(l, toType, v).getResult()
                                     : builder.create<arith::TruncFOp>(l, toType, v).getResult()}};
  }
  if (fromFloat) {
    // fptosi of NaN or of values out of range is poison in LLVM: clamp
    // first (NaN to 0). NumPy calls such casts undefined and warns.
    Value f = width == 64 ? v : builder.create<arith::ExtFOp>(l, builder.getF64Type(), v).getResult();
    auto select = [&](arith::CmpFPredicate p, double bound, double replacement, Value x) {
      Value c = builder.create<arith::CmpFOp>(l, p, x, constFloat(bound));
      return builder.create<arith::SelectOp>(l, c, constFloat(replacement), x).getResult();
    };
    Value isNan = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, f, f);
    f = builder.create<arith::SelectOp>(l, isNan, constFloat(0.0), f);
    Value low = select(arith::CmpFPredicate::OLT, -9223372036854775808.0, -9223372036854775808.0, f);
    Value asSigned = builder.create<arith::FPToSIOp>(
        l, builder.getI64Type(), select(arith::CmpFPredicate::OGE, 9223372036854775808.0, 9223372036854774784.0, low));
    Value i = asSigned;
    if (to == DType::UInt64) {
      Value nonNegative = select(arith::CmpFPredicate::OLT, 0.0, 0.0, f);
      Value asUnsigned = builder.create<arith::FPToUIOp>(
          l, builder.getI64Type(), select(arith::CmpFPredicate::OGE, 18446744073709551616.0, 18446744073709549568.0, nonNegative));
      Value negative = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, f, constFloat(0.0));
      i = builder.create<arith::SelectOp>(l, negative, asSigned, asUnsigned);
    }
    if (toWidth < 64)
      i = builder.create<arith::TruncIOp>(l, toType, i);
    return {target, {i}};
  }
  if (width == toWidth)
    return {target, {v}};
  if (width > toWidth)
    return {target, {builder.create<arith::TruncIOp>(l, toType, v)}};
  return {target, {fromUnsigned ? builder.create<arith::ExtUIOp>(l, toType, v).getResult()
                                : builder.create<arith::ExtSIOp>(l, toType, v).getResult()}};
}

void FunctionEmitter::checkPythonIntFits(Value i, DType dtype) {
  Location l = builder.getUnknownLoc();
  Value outside;
  if (dtype == DType::UInt64) {
    outside = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(0));
  } else {
    int bits = dtypeBits(dtype);
    if (bits >= 64 || isFloatDType(dtype) || dtype == DType::Bool)
      return;
    int64_t low = isUnsignedDType(dtype) ? 0 : -(int64_t(1) << (bits - 1));
    int64_t high = isUnsignedDType(dtype) ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
    Value below = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(low));
    Value above = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, i, constInt(high));
    outside = builder.create<arith::OrIOp>(l, below, above);
  }
  std::string message = module.options.message("integer_out_of_bounds");
  size_t at = message.find("{dtype}");
  if (at != std::string::npos)
    message.replace(at, 7, dtypeName(dtype));
  checkWithArgs(outside, PyError("OverflowError", message), {i});
}

Val FunctionEmitter::weakToNumPy(const Val &value, DType to) {
  if (value.type.kind == Type::Kind::Int)
    checkPythonIntFits(value.leaves[0], to);
  return castNumPy(value, to);
}

Value FunctionEmitter::numpyIntDivMod(const std::string &op, Value a, Value b, bool isUnsigned) {
  // NumPy does not raise: x // 0 and x % 0 are 0 (with a warning), and
  // INT_MIN // -1 wraps to INT_MIN.
  Location l = builder.getUnknownLoc();
  mlir::Type type = a.getType();
  using P = arith::CmpIPredicate;
  Value zero = constOf(type, 0), one = constOf(type, 1);
  Value byZero = builder.create<arith::CmpIOp>(l, P::eq, b, zero);
  if (isUnsigned) {
    Value safe = builder.create<arith::SelectOp>(l, byZero, one, b);
    Value r = op == "Mod" ? builder.create<arith::RemUIOp>(l, a, safe).getResult()
                          : builder.create<arith::DivUIOp>(l, a, safe).getResult();
    return builder.create<arith::SelectOp>(l, byZero, zero, r);
  }
  Value minusOne = builder.create<arith::CmpIOp>(l, P::eq, b, constOf(type, -1));
  Value safe = builder.create<arith::SelectOp>(l, builder.create<arith::OrIOp>(l, byZero, minusOne), one, b);
  Value q = builder.create<arith::DivSIOp>(l, a, safe);
  Value r = builder.create<arith::RemSIOp>(l, a, safe);
  Value rNonZero = builder.create<arith::CmpIOp>(l, P::ne, r, zero);
  Value signsDiffer = builder.create<arith::CmpIOp>(l, P::slt, builder.create<arith::XOrIOp>(l, r, b), zero);
  Value adjust = builder.create<arith::AndIOp>(l, rNonZero, signsDiffer);
  Value result;
  if (op == "Mod") {
    result = builder.create<arith::SelectOp>(l, adjust, builder.create<arith::AddIOp>(l, r, b), r);
    result = builder.create<arith::SelectOp>(l, minusOne, zero, result);
  } else {
    result = builder.create<arith::SubIOp>(l, q, builder.create<arith::ExtUIOp>(l, type, adjust));
    result = builder.create<arith::SelectOp>(l, minusOne, builder.create<arith::SubIOp>(l, zero, a), result);
  }
  return builder.create<arith::SelectOp>(l, byZero, zero, result);
}

Value FunctionEmitter::numpyShift(const std::string &op, Value a, Value b, bool isUnsigned) {
  // NumPy: shifting by the width or more (or by a negative amount, seen as
  // unsigned) gives 0, or -1 for a negative value shifted right.
  Location l = builder.getUnknownLoc();
  mlir::Type type = a.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  using P = arith::CmpIPredicate;
  Value zero = constOf(type, 0);
  Value big = builder.create<arith::CmpIOp>(l, P::uge, b, constOf(type, width));
  Value amount = builder.create<arith::SelectOp>(l, big, zero, b);
  if (op == "LShift")
    return builder.create<arith::SelectOp>(l, big, zero, builder.create<arith::ShLIOp>(l, a, amount));
  if (isUnsigned)
    return builder.create<arith::SelectOp>(l, big, zero, builder.create<arith::ShRUIOp>(l, a, amount));
  Value negative = builder.create<arith::CmpIOp>(l, P::slt, a, zero);
  Value saturated = builder.create<arith::SelectOp>(l, negative, constOf(type, -1), zero);
  return builder.create<arith::SelectOp>(l, big, saturated, builder.create<arith::ShRSIOp>(l, a, amount));
}

DType FunctionEmitter::numpyArithDType(const std::string &op, const Type &left, const Type &right) {
  DType common = numpyCommonType(left, right).dtype;
  if (op == "Div" && !isFloatDType(common) && common != DType::Complex128)
    return DType::Float64; // true division of integers is float64
  return common;
}

Val FunctionEmitter::numpyArith(const SExpr &node, const std::string &op, const Val &left,
                                const Val &right) {
  Location l = loc(node);
  DType common = numpyArithDType(op, left.type, right.type);
  if (common == DType::Bool) {
    Value a = weakToNumPy(left, common).leaves[0], b = weakToNumPy(right, common).leaves[0];
    // + is logical or and * logical and; //, %, ** and shifts compute in int8.
    if (Value r = bitwise(op == "Add" ? "BitOr" : op == "Mult" ? "BitAnd" : op, a, b, l))
      return {Type::numpy(common), {r}};
    common = DType::Int8;
  }
  Type type = Type::numpy(common);
  Value a = weakToNumPy(left, common).leaves[0];
  Value b = weakToNumPy(right, common).leaves[0];
  if (isFloatDType(common)) {
    bool f32 = common == DType::Float32;
    auto fast = [&](mlir::Operation *operation) {
      if (module.options.fastmath)
        operation->setAttr("fastmath", arith::FastMathFlagsAttr::get(
                                           builder.getContext(), arith::FastMathFlags::fast));
      return Val{type, {operation->getResult(0)}};
    };
    // IEEE throughout: no ZeroDivisionError, x / 0.0 is inf or nan.
    if (op == "Add")
      return fast(builder.create<arith::AddFOp>(l, a, b));
    if (op == "Sub")
      return fast(builder.create<arith::SubFOp>(l, a, b));
    if (op == "Mult")
      return fast(builder.create<arith::MulFOp>(l, a, b));
    if (op == "Div")
      return fast(builder.create<arith::DivFOp>(l, a, b));
    if (op == "FloorDiv")
      return {type, {callLibm(f32 ? "plait_rt_np_floordiv_f32" : "plait_rt_np_floordiv_f64", {a, b})}};
    if (op == "Mod")
      return {type, {callLibm(f32 ? "plait_rt_np_remainder_f32" : "plait_rt_np_remainder_f64", {a, b})}};
    if (op == "Pow")
      return {type, {callLibm(f32 ? "powf" : "pow", {a, b})}};
    throw CompileError(CompileError::Kind::Unsupported, "internal: NumPy float op " + op);
  }
  bool isUnsigned = isUnsignedDType(common);
  // Integers wrap at their width, as NumPy's do (it only warns).
  if (op == "Add")
    return {type, {builder.create<arith::AddIOp>(l, a, b)}};
  if (op == "Sub")
    return {type, {builder.create<arith::SubIOp>(l, a, b)}};
  if (op == "Mult")
    return {type, {builder.create<arith::MulIOp>(l, a, b)}};
  if (op == "FloorDiv" || op == "Mod")
    return {type, {numpyIntDivMod(op, a, b, isUnsigned)}};
  if (Value r = bitwise(op, a, b, l))
    return {type, {r}};
  if (op == "LShift" || op == "RShift")
    return {type, {numpyShift(op, a, b, isUnsigned)}};
  if (op == "Pow") {
    if (!isUnsigned)
      check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, b, constOf(b.getType(), 0)),
            PyError("ValueError", "Integers to negative integer powers are not allowed."));
    Val wideA = castNumPy(Val{type, {a}}, isUnsigned ? DType::UInt64 : DType::Int64);
    Val wideB = castNumPy(Val{type, {b}}, isUnsigned ? DType::UInt64 : DType::Int64);
    module.declare("plait_rt_np_int_pow",
                   builder.getFunctionType({builder.getI64Type(), builder.getI64Type()},
                                           {builder.getI64Type()}));
    Value r = builder
                  .create<mlir::func::CallOp>(l, "plait_rt_np_int_pow",
                                              mlir::TypeRange{builder.getI64Type()},
                                              mlir::ValueRange{wideA.leaves[0], wideB.leaves[0]})
                  .getResult(0);
    return castNumPy(Val{Type::numpy(isUnsigned ? DType::UInt64 : DType::Int64), {r}}, common);
  }
  throw CompileError(CompileError::Kind::Unsupported, "internal: NumPy int op " + op);
}

Value FunctionEmitter::numpyCompare(const std::string &op, const Val &left, const Val &right,
                                    Location l) {
  using P = arith::CmpIPredicate;
  if (left.type.isFloating() || right.type.isFloating()) {
    // With a float involved NumPy compares in the promoted float type (a
    // Python float against float32 in float32).
    DType common = numpyCommonType(left.type, right.type).dtype;
    if (!isFloatDType(common))
      common = DType::Float64;
    Value a = castNumPy(left, common).leaves[0], b = castNumPy(right, common).leaves[0];
    arith::CmpFPredicate p = op == "Eq"      ? arith::CmpFPredicate::OEQ
                             : op == "NotEq" ? arith::CmpFPredicate::UNE
                             : op == "Lt"    ? arith::CmpFPredicate::OLT
                             : op == "LtE"   ? arith::CmpFPredicate::OLE
                             : op == "Gt"    ? arith::CmpFPredicate::OGT
                                             : arith::CmpFPredicate::OGE;
    return builder.create<arith::CmpFOp>(l, p, a, b);
  }
  // Integers (and bools) compare exactly, whatever their types: widen to 64
  // bits; only uint64 against a signed value needs care.
  auto isU64 = [](const Type &t) { return t.isNumPy() && t.dtype == DType::UInt64; };
  auto wide = [&](const Val &v) {
    if (isU64(v.type))
      return v.leaves[0];
    if (v.type.isNumPy())
      return castNumPy(v, DType::Int64).leaves[0];
    return convert(v, Type::integer()).leaves[0];
  };
  Value a = wide(left), b = wide(right);
  bool ua = isU64(left.type), ub = isU64(right.type);
  P signedP = op == "Eq" ? P::eq : op == "NotEq" ? P::ne : op == "Lt" ? P::slt
              : op == "LtE" ? P::sle : op == "Gt" ? P::sgt : P::sge;
  if (!ua && !ub)
    return builder.create<arith::CmpIOp>(l, signedP, a, b);
  P unsignedP = op == "Eq" ? P::eq : op == "NotEq" ? P::ne : op == "Lt" ? P::ult
                : op == "LtE" ? P::ule : op == "Gt" ? P::ugt : P::uge;
  if (ua && ub)
    return builder.create<arith::CmpIOp>(l, unsignedP, a, b);
  // One side may be negative: it is below every uint64; otherwise compare
  // the bits unsigned.
  Value zero = constInt(0);
  Value aNegative = ua ? constInt(0, 1) : builder.create<arith::CmpIOp>(l, P::slt, a, zero).getResult();
  Value bNegative = ub ? constInt(0, 1) : builder.create<arith::CmpIOp>(l, P::slt, b, zero).getResult();
  Value bitsResult = builder.create<arith::CmpIOp>(l, unsignedP, a, b);
  // Exactly one of them can be negative (the other is uint64).
  bool trueWhenLeftNegative = op == "NotEq" || op == "Lt" || op == "LtE";
  bool trueWhenRightNegative = op == "NotEq" || op == "Gt" || op == "GtE";
  Value r = builder.create<arith::SelectOp>(l, aNegative, constInt(trueWhenLeftNegative ? 1 : 0, 1), bitsResult);
  return builder.create<arith::SelectOp>(l, bNegative, constInt(trueWhenRightNegative ? 1 : 0, 1), r);
}

//===----------------------------------------------------------------------===//
// Complex numbers
//===----------------------------------------------------------------------===//

std::pair<Value, Value> FunctionEmitter::complexParts(const Val &value, bool numpy) {
  Val c = numpy ? castNumPy(value, DType::Complex128) : convert(value, Type::complex());
  return {c.leaves[0], c.leaves[1]};
}

std::pair<Value, Value> FunctionEmitter::callComplexRuntime(
    const char *name, std::vector<Value> args,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // int32 f(double..., double *out): the two parts through a stack pair.
  Location l = builder.getUnknownLoc();
  if (!complexOut) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    complexOut = builder.create<mlir::memref::AllocaOp>(l, mlir::MemRefType::get({2}, builder.getF64Type()));
  }
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  inputs.push_back(builder.getIndexType());
  module.declare(name, builder.getFunctionType(inputs, {builder.getI32Type()}));
  args.push_back(outPointer(complexOut));
  Value status = builder.create<mlir::func::CallOp>(l, name, mlir::TypeRange{builder.getI32Type()}, args)
                     .getResult(0);
  if (codes.size())
    checkRuntime(status, codes);
  return {builder.create<mlir::memref::LoadOp>(l, complexOut, mlir::ValueRange{constIndexValue(0)}),
          builder.create<mlir::memref::LoadOp>(l, complexOut, mlir::ValueRange{constIndexValue(1)})};
}

Val FunctionEmitter::complexArith(const SExpr &node, const std::string &op, const Val &left,
                                  const Val &right) {
  // Real operands become complex (x + 0j) first, as CPython (up to 3.13)
  // and NumPy do; NumPy's rules when a NumPy scalar is involved.
  Location l = loc(node);
  bool numpy = complexUsesNumPy(left.type, right.type);
  Type type = numpy ? Type::numpy(DType::Complex128) : Type::complex();
  auto [ar, ai] = complexParts(left, numpy);
  auto [br, bi] = complexParts(right, numpy);
  auto add = [&](Value x, Value y) { return builder.create<arith::AddFOp>(l, x, y).getResult(); };
  auto sub = [&](Value x, Value y) { return builder.create<arith::SubFOp>(l, x, y).getResult(); };
  auto mul = [&](Value x, Value y) { return builder.create<arith::MulFOp>(l, x, y).getResult(); };
  if (op == "Add")
    return {type, {add(ar, br), add(ai, bi)}};
  if (op == "Sub")
    return {type, {sub(ar, br), sub(ai, bi)}};
  if (op == "Mult")
    return {type, {sub(mul(ar, br), mul(ai, bi)), add(mul(ar, bi), mul(ai, br))}};
  if (op == "Div") {
    // CPython raises on a zero divisor; NumPy gives inf/nan. Their scaled
    // (Smith) algorithms also round differently: both are ported.
    auto [re, im] = numpy ? callComplexRuntime("plait_rt_np_complex_div", {ar, ai, br, bi}, {})
                          : callComplexRuntime("plait_rt_py_complex_div", {ar, ai, br, bi},
                                               {{1, errorCode("ZeroDivisionError", "complex_division_by_zero")}});
    return {type, {re, im}};
  }
  throw CompileError(CompileError::Kind::Unsupported, "internal: complex op " + op);
}

Value FunctionEmitter::complexCompare(const std::string &op, const Val &left, const Val &right,
                                      const SExpr &node) {
  Location l = loc(node);
  Value equal;
  bool numpy = complexUsesNumPy(left.type, right.type);
  if (!numpy && !(left.type.isComplex() && right.type.isComplex())) {
    // CPython: z == x for a real x compares z.real with x (exactly, for
    // ints) and needs z.imag == 0.
    const Val &z = left.type.isComplex() ? left : right;
    const Val &x = left.type.isComplex() ? right : left;
    Value real = compare("Eq", Val{Type::floating(), {z.leaves[0]}}, x, node);
    Value imagZero = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, z.leaves[1], constFloat(0.0));
    equal = builder.create<arith::AndIOp>(l, real, imagZero);
  } else {
    auto [ar, ai] = complexParts(left, numpy);
    auto [br, bi] = complexParts(right, numpy);
    equal = builder.create<arith::AndIOp>(
        l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, ar, br),
        builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, ai, bi));
  }
  if (op == "Eq")
    return equal;
  return builder.create<arith::XOrIOp>(l, equal, constInt(1, 1)); // NotEq (the typer allows no other)
}

Value FunctionEmitter::complexAbs(const Val &z, bool checkOverflow) {
  // hypot: inf if either part is, nan if one is nan; CPython raises when a
  // finite number's magnitude overflows, NumPy gives inf.
  Location l = builder.getUnknownLoc();
  Value r = callLibm("hypot", {z.leaves[0], z.leaves[1]});
  if (checkOverflow) {
    auto finite = [&](Value v) {
      return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::ONE,
                                           builder.create<mlir::math::AbsFOp>(l, v), constFloat(HUGE_VAL))
          .getResult();
    };
    Value rInf = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, r, constFloat(HUGE_VAL));
    Value inputsFinite = builder.create<arith::AndIOp>(l, finite(z.leaves[0]), finite(z.leaves[1]));
    check(builder.create<arith::AndIOp>(l, rInf, inputsFinite),
          errorCode("OverflowError", "complex_abs_overflow"));
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void FunctionEmitter::emit(const std::string &symbol) {
  mlir::FunctionType type = module.signatureOf(spec);
  OpBuilder top(module.context);
  top.setInsertionPointToEnd(module.module.getBody());
  func = top.create<mlir::func::FuncOp>(loc(spec.source->definition), symbol, type);
  func.setPrivate();
  entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  Block *body = newBlock();

  // Parameters the function never assigns are their arguments' values;
  // other locals live in slots (parameters start assigned).
  const SExpr &statements = spec.source->definition.field(0);
  auto isFixedParameter = [&](const std::string &name) {
    const auto &params = spec.source->params;
    return std::find(params.begin(), params.end(), name) != params.end() && !assigns(statements, name);
  };
  for (const std::string &name : spec.locals) {
    const Type &t = spec.variables[name];
    if (t.kind == Type::Kind::Array || isFixedParameter(name))
      continue; // bound to the argument below
    llvm::SmallVector<mlir::Type> types;
    leafTypes(t, types);
    for (mlir::Type leaf : types)
      slots[name].push_back(alloca(leaf));
    assigned[name] = alloca(builder.getI1Type());
    builder.create<mlir::memref::StoreOp>(builder.getUnknownLoc(),
                                          constInt(0, 1), assigned[name]);
  }
  depth = entry->getArgument(0);
  size_t argIndex = 1;
  for (size_t i = 0; i < spec.source->params.size(); ++i) {
    const std::string &name = spec.source->params[i];
    if (spec.arguments[i].kind == Type::Kind::Array) {
      arrays[name] = entry->getArgument(argIndex++);
      continue;
    }
    Val value{spec.arguments[i], {}};
    for (size_t k = 0; k < spec.arguments[i].numLeaves(); ++k)
      value.leaves.push_back(entry->getArgument(argIndex++));
    Val converted = convert(value, spec.variables[name]);
    if (isFixedParameter(name)) {
      bound[name] = converted;
      continue;
    }
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      builder.create<mlir::memref::StoreOp>(builder.getUnknownLoc(),
                                            converted.leaves[k], slots[name][k]);
    builder.create<mlir::memref::StoreOp>(builder.getUnknownLoc(),
                                          constInt(1, 1), assigned[name]);
  }
  if (spec.callsJit) {
    // Functions that call jitted functions may recurse: runaway recursion is
    // RecursionError, never a native stack overflow.
    Value limit = constInt(module.options.recursionLimit);
    check(builder.create<arith::CmpIOp>(builder.getUnknownLoc(), arith::CmpIPredicate::sge,
                                        depth, limit),
          PyError("RecursionError", module.options.message("recursion")));
  }
  builder.create<mlir::cf::BranchOp>(builder.getUnknownLoc(), body);
  startBlock(body);
  emitBody(spec.source->definition.field(0));
  if (!terminated())
    emitReturn(Val{Type::none(), {}});
}

void FunctionEmitter::emitBody(const SExpr &body) {
  for (const SExpr *stmt : body.rest()) {
    if (terminated())
      startBlock(newBlock()); // unreachable code after return/break/continue
    emitStatement(*stmt);
  }
}

void FunctionEmitter::freeIfTemporary(const Val &value) {
  // A temporary array (a * b + c: the product) is freed right after the
  // operation that consumed it, where its allocation dominates: loops then
  // run in constant memory. Error paths leave it to the call's arena.
  if (value.type.kind != Type::Kind::Array || !temporaries.erase(value.leaves[0]) || terminated())
    return;
  builder.create<mlir::memref::DeallocOp>(builder.getUnknownLoc(), value.leaves[0]);
}

void FunctionEmitter::emitStatement(const SExpr &stmt) {
  const std::string &head = stmt.head();
  if (head == "Assign") {
    Val value = emitExpr(stmt.field(1));
    for (const SExpr *target : stmt.field(0).rest())
      emitAssign(*target, value);
  } else if (head == "AnnAssign") {
    if (stmt.field(1).kind != SExpr::Kind::None)
      emitAssign(stmt.field(0), emitExpr(stmt.field(1)));
  } else if (head == "AugAssign") {
    Val current = emitExpr(stmt.field(0));
    if (current.type.kind == Type::Kind::Bottom)
      return; // never assigned anywhere: loading it raised UnboundLocalError
    Val value = emitExpr(stmt.field(2));
    bool inPlace = current.type.kind == Type::Kind::Array;
    Val result = emitBinary(stmt, stmt.field(1).text, current, value, inPlace ? &current : nullptr);
    if (inPlace) {
      // a += b and a[1:] += b are in place: the result (a fresh array of
      // a's shape, so no overlap) is cast into a as NumPy's ufuncs cast
      // into `out` (same kind, wrapping).
      copyElements(result, current, loc(stmt));
      freeIfTemporary(result);
    } else {
      emitAssign(stmt.field(0), result);
    }
  } else if (head == "If") {
    emitIf(stmt);
  } else if (head == "While") {
    emitWhile(stmt);
  } else if (head == "For") {
    emitFor(stmt);
  } else if (head == "Return") {
    emitReturn(stmt.field(0).kind == SExpr::Kind::None
                   ? Val{Type::none(), {}}
                   : emitExpr(stmt.field(0)));
  } else if (head == "Break" || head == "Continue") { // (inside a loop: typing checked)
    if (terminated())
      return;
    const Loop &loop = loops.back();
    if (loop.structured && head == "Break")
      builder.create<dialect::BreakOp>(loc(stmt));
    else if (loop.structured)
      builder.create<dialect::ContinueOp>(loc(stmt));
    else
      branch(head == "Break" ? loop.breakTarget : loop.continueTarget);
  } else if (head == "Expr") {
    if (stmt.field(0).head() != "Const")
      emitExpr(stmt.field(0));
  } else if (head != "Pass") {
    throw std::logic_error("internal: the typer let a " + head + " statement through");
  }
}

void FunctionEmitter::emitAssign(const SExpr &target, const Val &value) {
  if (target.head() == "Subscript" && spec.typeOf(target).kind == Type::Kind::Array) {
    storeSlice(target, value);
    return;
  }
  if (target.head() == "Subscript") {
    storeElement(target, value);
    return;
  }
  if (target.head() == "Name" && value.type.kind == Type::Kind::Array) {
    temporaries.erase(value.leaves[0]); // named: lives until the call ends
    arrays[target.field(0).text] = value.leaves[0]; // single assignment: an SSA value
    return;
  }
  if (target.head() == "Name") {
    const std::string &name = target.field(0).text;
    Val converted = convert(value, spec.variables[name]);
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      builder.create<mlir::memref::StoreOp>(loc(target), converted.leaves[k],
                                            slots[name][k]);
    builder.create<mlir::memref::StoreOp>(loc(target), constInt(1, 1),
                                          assigned[name]);
    return;
  }
  // Tuple unpacking: the value was fully evaluated first.
  size_t offset = 0;
  for (size_t i = 0; i < target.numFields(); ++i) {
    const Type &t = value.type.elements[i];
    size_t n = t.numLeaves();
    Val part{t, llvm::SmallVector<Value, 2>(value.leaves.begin() + offset,
                                            value.leaves.begin() + offset + n)};
    offset += n;
    emitAssign(target.field(i), part);
  }
}

void FunctionEmitter::emitReturn(const Val &value) {
  Val converted = convert(value, spec.result);
  if (insideRangeLoop()) {
    // Out of a plait.for: the results wait in slots while the loops end.
    if (returnSlots.empty()) {
      llvm::SmallVector<mlir::Type> types;
      leafTypes(spec.result, types);
      for (mlir::Type type : types)
        returnSlots.push_back(alloca(type));
    }
    for (size_t k = 0; k < converted.leaves.size(); ++k)
      builder.create<mlir::memref::StoreOp>(builder.getUnknownLoc(), converted.leaves[k], returnSlots[k]);
    builder.create<dialect::LeaveOp>(builder.getUnknownLoc());
    return;
  }
  llvm::SmallVector<Value> values = {constInt(0, 32)};
  values.append(converted.leaves.begin(), converted.leaves.end());
  builder.create<mlir::func::ReturnOp>(builder.getUnknownLoc(), values);
}

void FunctionEmitter::emitIf(const SExpr &stmt) {
  Value condition = truth(emitExpr(stmt.field(0)));
  Block *thenBlock = newBlock();
  Block *elseBlock = newBlock();
  Block *merge = newBlock();
  builder.create<mlir::cf::CondBranchOp>(loc(stmt), condition, thenBlock,
                                         elseBlock);
  startBlock(thenBlock);
  emitBody(stmt.field(1));
  branch(merge);
  startBlock(elseBlock);
  emitBody(stmt.field(2));
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
  Value condition = truth(emitExpr(stmt.field(0)));
  builder.create<mlir::cf::CondBranchOp>(loc(stmt), condition, body, orElse);
  startBlock(body);
  loops.push_back({/*structured=*/false, header, exit});
  emitBody(stmt.field(1));
  loops.pop_back();
  branch(header);
  startBlock(orElse);
  emitBody(stmt.field(2));
  branch(exit);
  startBlock(exit);
}

void FunctionEmitter::emitFor(const SExpr &stmt) {
  const SExpr &call = stmt.field(1);
  Location l = loc(stmt);
  if (call.head() == "Name") {
    // for x in a: element k of a 1-D array on iteration k, row k (a view)
    // of an N-D one.
    Val array = emitExpr(call);
    Type rowType = Type::array(array.type.dtype, array.type.ndim - 1);
    emitRangeLoop(stmt, constInt(0), dimension(array.leaves[0], 0), constInt(1), [&](Value k) {
      Value index = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
      if (array.type.ndim > 1)
        return Val{rowType, {rowView(array.leaves[0], rowType, index, l)}};
      Value raw = builder.create<mlir::memref::LoadOp>(l, array.leaves[0], mlir::ValueRange{index});
      return fromStorage(raw, array.type.dtype, l);
    });
    if (array.type.ndim > 1) // the row is a value of the loop body only
      arrays.erase(stmt.field(0).field(0).text);
    return;
  }
  std::vector<Val> args;
  for (const SExpr *arg : call.field(1).rest())
    args.push_back(convert(emitExpr(*arg), Type::integer()));
  Value start = args.size() == 1 ? constInt(0) : args[0].leaves[0];
  Value stop = args.size() == 1 ? args[0].leaves[0] : args[1].leaves[0];
  Value step = args.size() == 3 ? args[2].leaves[0] : constInt(1);
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, step, constInt(0)),
        errorCode("ValueError", "range_step_zero"));
  emitRangeLoop(stmt, start, stop, step, [&](Value i) { return Val{Type::integer(), {i}}; });
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
    const SExpr &target = stmt.field(0);
    Val value = item(variable);
    emitAssign(target, value);
    // A loop variable the body does not assign is the iteration's value.
    std::optional<std::pair<std::string, std::optional<Val>>> saved;
    if (target.head() == "Name" && value.type.kind != Type::Kind::Array &&
        !assigns(stmt.field(2), target.field(0).text)) {
      const std::string &name = target.field(0).text;
      auto previous = bound.find(name);
      saved.emplace(name, previous == bound.end() ? std::nullopt : std::optional<Val>(previous->second));
      bound[name] = convert(value, spec.variables[name]);
    }
    loops.push_back({/*structured=*/true});
    emitBody(stmt.field(2));
    loops.pop_back();
    if (saved) {
      if (saved->second)
        bound[saved->first] = *saved->second;
      else
        bound.erase(saved->first);
    }
    if (!terminated())
      builder.create<dialect::ContinueOp>(l);
  }
  Value exit = loop.getExit();
  auto is = [&](int32_t kind) {
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, exit, constInt(kind, 32)).getResult();
  };
  if (containsReturn(stmt.field(2))) {
    // The body returned: return (or leave the enclosing loop too).
    Block *leaving = newBlock(), *staying = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, is(dialect::ForOp::kLeft), leaving, staying);
    startBlock(leaving);
    if (insideRangeLoop()) {
      builder.create<dialect::LeaveOp>(l);
    } else {
      llvm::SmallVector<Value> values = {constInt(0, 32)};
      for (Value slot : returnSlots)
        values.push_back(builder.create<mlir::memref::LoadOp>(l, slot));
      builder.create<mlir::func::ReturnOp>(l, values);
    }
    startBlock(staying);
  }
  if (stmt.field(3).items.size() > 1) { // else: when the loop ran out
    Block *orElse = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, is(dialect::ForOp::kCompleted), orElse, after);
    startBlock(orElse);
    emitBody(stmt.field(3));
  }
  branch(after);
  startBlock(after);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Val FunctionEmitter::loadVariable(const std::string &name, const SExpr &node) {
  Location l = loc(node);
  auto fixed = bound.find(name);
  if (fixed != bound.end())
    return fixed->second;
  if (spec.variables[name].kind == Type::Kind::Array) {
    auto found = arrays.find(name);
    if (found != arrays.end())
      return {spec.variables[name], {found->second}};
    // Used before its (only) assignment: CPython raises UnboundLocalError.
    std::string message = module.options.message("unbound_local");
    size_t at = message.find("{name}");
    if (at != std::string::npos)
      message.replace(at, 6, name);
    check(constInt(1, 1), PyError("UnboundLocalError", message));
    Value empty = builder.create<mlir::memref::AllocaOp>(
        l, module.memrefType(spec.variables[name]),
        llvm::SmallVector<Value>(spec.variables[name].ndim,
                                 builder.create<arith::ConstantIndexOp>(l, 0)));
    return {spec.variables[name], {empty}};
  }
  Value isAssigned = builder.create<mlir::memref::LoadOp>(l, assigned[name]);
  std::string message = module.options.message("unbound_local");
  size_t at = message.find("{name}");
  if (at != std::string::npos)
    message.replace(at, 6, name);
  check(builder.create<arith::XOrIOp>(l, isAssigned, constInt(1, 1)),
        PyError("UnboundLocalError", message));
  Val value{spec.variables[name], {}};
  for (Value slot : slots[name])
    value.leaves.push_back(builder.create<mlir::memref::LoadOp>(l, slot));
  return value;
}

Val FunctionEmitter::emitExpr(const SExpr &expr) {
  const std::string &head = expr.head();
  Type type = spec.typeOf(expr);
  if (head == "Const")
    return constant(expr.field(0), type);
  if (head == "Name") {
    const std::string &name = expr.field(0).text;
    NameBinding binding = typer.resolve(spec, name);
    if (binding.kind == NameBinding::Kind::Local)
      return loadVariable(name, expr);
    return constant(*binding.value, type);
  }
  if (head == "Attribute" && (expr.field(1).text == "real" || expr.field(1).text == "imag") &&
      spec.typeOf(expr.field(0)).isComplex()) {
    Val z = emitExpr(expr.field(0));
    return {type, {z.leaves[expr.field(1).text == "real" ? 0 : 1]}};
  }
  if (head == "Attribute" && type.kind != Type::Kind::Float) {
    // shape, ndim, size of an array parameter
    Val base = emitExpr(expr.field(0));
    Value memref = base.leaves[0];
    const std::string &attr = expr.field(1).text;
    int ndim = base.type.ndim;
    if (attr == "ndim")
      return {type, {constInt(ndim)}};
    Val result{type, {}};
    Value size = constInt(1);
    for (int axis = 0; axis < ndim; ++axis) {
      Value d = dimension(memref, axis);
      result.leaves.push_back(d);
      size = builder.create<arith::MulIOp>(loc(expr), size, d);
    }
    if (attr == "size")
      return {type, {size}};
    return result;
  }
  if (head == "Attribute") {
    const std::string &attr = expr.field(1).text;
    double value = attr == "pi"    ? M_PI
                   : attr == "e"   ? M_E
                   : attr == "tau" ? 2 * M_PI
                   : attr == "inf" ? HUGE_VAL
                                   : std::nan("");
    return {type, {constFloat(value)}};
  }
  if (head == "BinOp") {
    // Left before right, as CPython evaluates them (C++ leaves the order of
    // function arguments unspecified).
    Val left = emitExpr(expr.field(1));
    Val right = emitExpr(expr.field(2));
    return emitBinary(expr, expr.field(0).text, left, right);
  }
  if (head == "UnaryOp")
    return emitUnary(expr);
  if (head == "BoolOp")
    return emitBoolOp(expr);
  if (head == "Compare")
    return emitCompare(expr);
  if (head == "IfExp")
    return emitIfExp(expr);
  if (head == "Call")
    return emitCall(expr);
  if (head == "Tuple") {
    Val result{type, {}};
    for (size_t i = 0; i < expr.numFields(); ++i) {
      Val part = emitExpr(expr.field(i));
      result.leaves.append(part.leaves.begin(), part.leaves.end());
    }
    return result;
  }
  if (head == "Subscript" && spec.typeOf(expr.field(0)).kind == Type::Kind::Array)
    return type.kind == Type::Kind::Array ? emitView(expr) : loadElement(expr);
  if (head == "Subscript") {
    Val base = emitExpr(expr.field(0));
    const SExpr &index = expr.field(1);
    bool negative = index.head() == "UnaryOp";
    const SExpr &constant = negative ? index.field(1) : index;
    long long i = std::strtoll(constant.field(0).text.c_str(), nullptr, 10);
    long long n = static_cast<long long>(base.type.elements.size());
    if (negative)
      i = n - i;
    size_t offset = 0;
    for (long long k = 0; k < i; ++k)
      offset += base.type.elements[k].numLeaves();
    size_t count = base.type.elements[i].numLeaves();
    return {type, llvm::SmallVector<Value, 2>(base.leaves.begin() + offset,
                                              base.leaves.begin() + offset + count)};
  }
  throw std::logic_error("internal: the typer let a " + head + " expression through");
}

Val FunctionEmitter::intArith(const std::string &op, Value a, Value b) {
  // Python's int semantics are plait's operations: passes decide which
  // checks a loop needs, the lowering how they are done.
  Location l = builder.getUnknownLoc();
  bool checked = module.options.checkOverflow;
  auto mode = checked ? dialect::OverflowMode::check : dialect::OverflowMode::wrap;
  if (op == "Add")
    return {Type::integer(), {builder.create<dialect::AddOp>(l, a, b, mode)}};
  if (op == "Sub")
    return {Type::integer(), {builder.create<dialect::SubOp>(l, a, b, mode)}};
  if (op == "Mult")
    return {Type::integer(), {builder.create<dialect::MulOp>(l, a, b, mode)}};
  if (op == "FloorDiv")
    return {Type::integer(), {builder.create<dialect::FloorDivOp>(l, a, b, mode)}};
  if (op == "Mod")
    return {Type::integer(), {builder.create<dialect::ModOp>(l, a, b, mode)}};
  if (op == "Div")
    return callRuntimeFloat("plait_rt_int_truediv", {a, b},
                            {{PLAIT_NUMERIC_INT_DIV_BY_ZERO,
                              errorCode("ZeroDivisionError", "int_truediv_by_zero")}});
  if (op == "Pow") {
    if (auto constant = b.getDefiningOp<arith::ConstantIntOp>()) {
      int64_t e = constant.value();
      if (e >= 0 && e <= 4) { // small powers inline, still overflow-checked
        if (e == 0)
          return {Type::integer(), {constInt(1)}};
        Value r = a;
        for (int64_t k = 1; k < e; ++k)
          r = intArith("Mult", r, a).leaves[0];
        return {Type::integer(), {r}};
      }
    }
    return callRuntimeInt(
        "plait_rt_int_pow", {a, b, constInt(checked ? 1 : 0, 32)},
        {{PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", "int_overflow")},
         {PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT,
          errorCode("ValueError", "negative_int_exponent")}});
  }
  if (Value r = bitwise(op, a, b, l))
    return {Type::integer(), {r}};
  if (op == "LShift" || op == "RShift") {
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, b, constInt(0)),
          errorCode("ValueError", "negative_shift"));
    Value big = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, b, constInt(64));
    // Shifts by >= 64 are poison in LLVM: shift by a clamped amount, select.
    Value amount = builder.create<arith::SelectOp>(l, big, constInt(0), b);
    if (op == "RShift") {
      Value shifted = builder.create<arith::ShRSIOp>(l, a, amount);
      Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, a, constInt(0));
      Value saturated = builder.create<arith::SelectOp>(l, negative, constInt(-1), constInt(0));
      return {Type::integer(), {builder.create<arith::SelectOp>(l, big, saturated, shifted)}};
    }
    Value shifted = builder.create<arith::ShLIOp>(l, a, amount);
    if (checked) {
      Value back = builder.create<arith::ShRSIOp>(l, shifted, amount);
      Value lost = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, back, a);
      Value nonZero = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, a, constInt(0));
      Value bigLost = builder.create<arith::AndIOp>(l, big, nonZero);
      check(builder.create<arith::OrIOp>(l, lost, bigLost),
            errorCode("OverflowError", "int_overflow"));
    }
    return {Type::integer(), {builder.create<arith::SelectOp>(l, big, constInt(0), shifted)}};
  }
  throw CompileError(CompileError::Kind::Unsupported, "internal: int op " + op);
}

Val FunctionEmitter::floatArith(const SExpr &node, const std::string &op,
                                Value a, Value b) {
  Location l = loc(node);
  auto fast = [&](mlir::Operation *op) {
    if (module.options.fastmath)
      op->setAttr("fastmath", arith::FastMathFlagsAttr::get(
                                  builder.getContext(), arith::FastMathFlags::fast));
    return op->getResult(0);
  };
  if (op == "Add")
    return {Type::floating(), {fast(builder.create<arith::AddFOp>(l, a, b))}};
  if (op == "Sub")
    return {Type::floating(), {fast(builder.create<arith::SubFOp>(l, a, b))}};
  if (op == "Mult")
    return {Type::floating(), {fast(builder.create<arith::MulFOp>(l, a, b))}};
  if (op == "Div") {
    check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, b, constFloat(0.0)),
          errorCode("ZeroDivisionError", "float_truediv_by_zero"));
    return {Type::floating(), {fast(builder.create<arith::DivFOp>(l, a, b))}};
  }
  if (op == "FloorDiv")
    return callRuntimeFloat("plait_rt_float_floordiv", {a, b},
                            {{PLAIT_NUMERIC_FLOAT_FLOORDIV_BY_ZERO,
                              errorCode("ZeroDivisionError", "float_floordiv_by_zero")}});
  if (op == "Mod")
    return callRuntimeFloat("plait_rt_float_mod", {a, b},
                            {{PLAIT_NUMERIC_FLOAT_MOD_BY_ZERO,
                              errorCode("ZeroDivisionError", "float_mod_by_zero")}});
  if (op == "Pow")
    return callRuntimeFloat(
        "plait_rt_float_pow", {a, b},
        {{PLAIT_NUMERIC_ZERO_POW_NEGATIVE,
          errorCode("ZeroDivisionError", "zero_pow_negative")},
         {PLAIT_NUMERIC_POW_COMPLEX, errorCode("ValueError", "pow_complex")},
         {PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW,
          errorCode("OverflowError", "complex_pow_overflow")},
         {PLAIT_NUMERIC_FLOAT_POW_OVERFLOW,
          errorCode("OverflowError", "float_pow_overflow")}});
  throw CompileError(CompileError::Kind::Unsupported, "internal: float op " + op);
}

Val FunctionEmitter::arrayElementwise(const SExpr &node, llvm::ArrayRef<Val> operands, DType dtype,
                                      int ndim, const std::function<Val(llvm::ArrayRef<Val>)> &f,
                                      const Val *out) {
  std::vector<Type> inputTypes;
  for (const Val &operand : operands)
    inputTypes.push_back(operand.type);
  // NumPy's broadcasting: trailing axes line up; each result axis takes the
  // size that is not 1; any other mismatch is a ValueError naming every
  // operand's shape (an in-place target's too, as the ufunc's `out`).
  Location l = loc(node);
  using P = arith::CmpIPredicate;
  llvm::SmallVector<Val> shaped;
  for (const Val &operand : operands)
    if (operand.type.kind == Type::Kind::Array)
      shaped.push_back(operand);
  if (out) {
    shaped.push_back(*out);
    ndim = std::max(ndim, out->type.ndim);
  }
  std::string shapes;
  llvm::SmallVector<Value> dims;
  for (const Val &operand : shaped) {
    shapes += shapePlaceholders(operand.type.ndim, static_cast<int>(dims.size())) + " ";
    appendDimensions(operand.leaves[0], operand.type.ndim, dims);
  }
  PyError mismatch = PyError("ValueError", formatMessage("operands_broadcast", {{"shapes", shapes}}));
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < ndim; ++axis) {
    Value size = constInt(1);
    for (const Val &operand : shaped) {
      int from = axis - (ndim - operand.type.ndim);
      if (from < 0)
        continue;
      Value have = dimension(operand.leaves[0], from);
      Value merged = builder.create<arith::SelectOp>(
          l, builder.create<arith::CmpIOp>(l, P::eq, size, constInt(1)), have, size);
      Value fits = builder.create<arith::OrIOp>(l, builder.create<arith::CmpIOp>(l, P::eq, have, constInt(1)),
                                                builder.create<arith::CmpIOp>(l, P::eq, have, merged));
      checkWithArgs(builder.create<arith::XOrIOp>(l, fits, constInt(1, 1)), mismatch, dims);
      size = merged;
    }
    sizes.push_back(size);
  }
  if (out) {
    // The target of an in-place operation is not broadcast: it must have
    // the broadcast shape itself.
    llvm::SmallVector<Value> outDims;
    appendDimensions(out->leaves[0], out->type.ndim, outDims);
    PyError notBroadcastable = PyError(
        "ValueError", formatMessage("output_not_broadcastable",
                                    {{"out", shapePlaceholders(out->type.ndim, 0)},
                                     {"shape", shapePlaceholders(ndim, out->type.ndim)}}));
    llvm::SmallVector<Value> values(outDims.begin(), outDims.end());
    values.append(sizes.begin(), sizes.end());
    Value differs = constInt(0, 1);
    for (int axis = 0; axis < ndim; ++axis) {
      int from = axis - (ndim - out->type.ndim);
      Value have = from < 0 ? constInt(1) : outDims[from];
      differs = builder.create<arith::OrIOp>(l, differs, builder.create<arith::CmpIOp>(l, P::ne, have, sizes[axis]));
    }
    checkWithArgs(differs, notBroadcastable, values);
  }
  Type type = Type::newArray(dtype, ndim, inputTypes);
  Value result = allocateArray(type, sizes, nullptr, l);
  llvm::SmallVector<Val> inputs(operands.begin(), operands.end());
  for (Val &input : inputs)
    if (input.type.kind == Type::Kind::Array)
      input.leaves[0] = broadcastTo(input, result, ndim, l);
  forEachElement(result, ndim, [&](llvm::ArrayRef<Value> indices) {
    llvm::SmallVector<Val> elements;
    for (const Val &input : inputs)
      elements.push_back(input.type.kind == Type::Kind::Array
                             ? fromStorage(builder.create<mlir::memref::LoadOp>(l, input.leaves[0], indices),
                                           input.type.dtype, l)
                             : input);
    builder.create<mlir::memref::StoreOp>(l, toStorage(f(elements), dtype, l), result, indices);
  });
  for (const Val &operand : operands)
    freeIfTemporary(operand);
  return {type, {result}};
}

Value FunctionEmitter::bitwise(const std::string &op, Value a, Value b, Location l) {
  if (op == "BitAnd")
    return builder.create<arith::AndIOp>(l, a, b);
  if (op == "BitOr")
    return builder.create<arith::OrIOp>(l, a, b);
  if (op == "BitXor")
    return builder.create<arith::XOrIOp>(l, a, b);
  return nullptr;
}

Val FunctionEmitter::emitBinary(const SExpr &node, const std::string &op,
                                const Val &left, const Val &right, const Val *out) {
  if (left.type.kind == Type::Kind::Array || right.type.kind == Type::Kind::Array) {
    Type type = spec.typeOf(node);
    // Elements follow NumPy's rules, a Python complex operand included.
    auto asElement = [&](const Val &v) {
      return v.type.kind == Type::Kind::Complex ? castNumPy(v, DType::Complex128) : v;
    };
    auto elementType = [](const Type &t) { return t.kind == Type::Kind::Array ? t.elementType() : t; };
    // A Python int operand must fit the dtype it computes in whatever the
    // arrays' sizes (NumPy checks it once, before the loop: empty too).
    for (const Val *scalar : {&left, &right})
      if (scalar->type.kind == Type::Kind::Int && elementType(left.type).isNumPy() !=
                                                      elementType(right.type).isNumPy())
        checkPythonIntFits(scalar->leaves[0],
                           numpyArithDType(op, elementType(left.type), elementType(right.type)));
    return arrayElementwise(node, {asElement(left), asElement(right)}, type.dtype, type.ndim,
                            [&](llvm::ArrayRef<Val> x) { return emitBinary(node, op, x[0], x[1]); },
                            out);
  }
  if (left.type.isComplex() || right.type.isComplex())
    return complexArith(node, op, left, right);
  if (left.type.isNumPy() || right.type.isNumPy())
    return numpyArith(node, op, left, right);
  bool anyFloat = left.type.kind == Type::Kind::Float ||
                  right.type.kind == Type::Kind::Float;
  bool bothBool = left.type.kind == Type::Kind::Bool &&
                  right.type.kind == Type::Kind::Bool;
  Location l = loc(node);
  Value logical = bothBool ? bitwise(op, left.leaves[0], right.leaves[0], l) : nullptr;
  if (logical)
    return {Type::boolean(), {logical}};
  if (anyFloat) {
    Val a = convert(left, Type::floating());
    Val b = convert(right, Type::floating());
    return floatArith(node, op, a.leaves[0], b.leaves[0]);
  }
  Val a = convert(left, Type::integer());
  Val b = convert(right, Type::integer());
  return intArith(op, a.leaves[0], b.leaves[0]);
}

Val FunctionEmitter::emitUnary(const SExpr &node) {
  const std::string &op = node.field(0).text;
  int64_t negated;
  if (negatedIntConstant(node, negated))
    return {Type::integer(), {constInt(negated)}};
  Val operand = emitExpr(node.field(1));
  if (operand.type.kind == Type::Kind::Array)
    return arrayElementwise(node, {operand}, operand.type.dtype, operand.type.ndim,
                            [&](llvm::ArrayRef<Val> x) { return unaryOf(node, op, x[0]); });
  return unaryOf(node, op, operand);
}

Val FunctionEmitter::unaryOf(const SExpr &node, const std::string &op, const Val &operand) {
  Location l = loc(node);
  if (op == "Not")
    return {Type::boolean(),
            {builder.create<arith::XOrIOp>(l, truth(operand), constInt(1, 1))}};
  if (operand.type.isComplex()) {
    if (op == "UAdd")
      return operand;
    return {operand.type, {builder.create<arith::NegFOp>(l, operand.leaves[0]),
                           builder.create<arith::NegFOp>(l, operand.leaves[1])}};
  }
  if (operand.type.isNumPy()) {
    Value v = operand.leaves[0];
    if (op == "UAdd")
      return operand;
    if (isFloatDType(operand.type.dtype)) // USub (~ is a TypingError)
      return {operand.type, {builder.create<arith::NegFOp>(l, v)}};
    if (op == "Invert") // ~ of numpy.bool is logical not
      return {operand.type, {builder.create<arith::XOrIOp>(l, v, constOf(v.getType(), -1))}};
    return {operand.type, {builder.create<arith::SubIOp>(l, constOf(v.getType(), 0), v)}}; // wraps
  }
  if (operand.type.kind == Type::Kind::Float) {
    if (op == "USub")
      return {Type::floating(), {builder.create<arith::NegFOp>(l, operand.leaves[0])}};
    return operand; // UAdd
  }
  Val value = convert(operand, Type::integer());
  if (op == "UAdd")
    return value;
  if (op == "Invert")
    return {Type::integer(),
            {builder.create<arith::XOrIOp>(l, value.leaves[0], constInt(-1))}};
  return intArith("Sub", constInt(0), value.leaves[0]);
}

Val FunctionEmitter::emitBoolOp(const SExpr &node) {
  Type type = spec.typeOf(node);
  bool isAnd = node.field(0).text == "And";
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  llvm::SmallVector<Value> resultSlots;
  for (mlir::Type t : types)
    resultSlots.push_back(alloca(t));
  Block *done = newBlock();
  size_t n = node.numFields();
  for (size_t i = 1; i < n; ++i) {
    Val value = emitExpr(node.field(i));
    Val converted = convert(value, type);
    for (size_t k = 0; k < resultSlots.size(); ++k)
      builder.create<mlir::memref::StoreOp>(loc(node), converted.leaves[k], resultSlots[k]);
    if (i + 1 == n) {
      branch(done);
      break;
    }
    // `a and b` stops at a falsy a; `a or b` at a truthy one.
    Value t = truth(value);
    Block *next = newBlock();
    if (isAnd)
      builder.create<mlir::cf::CondBranchOp>(loc(node), t, next, done);
    else
      builder.create<mlir::cf::CondBranchOp>(loc(node), t, done, next);
    startBlock(next);
  }
  startBlock(done);
  Val result{type, {}};
  for (Value slot : resultSlots)
    result.leaves.push_back(builder.create<mlir::memref::LoadOp>(loc(node), slot));
  return result;
}

Value FunctionEmitter::compare(const std::string &op, const Val &left,
                               const Val &right, const SExpr &node) {
  Location l = loc(node);
  if (left.type.isComplex() || right.type.isComplex())
    return complexCompare(op, left, right, node);
  if (left.type.isNumPy() || right.type.isNumPy())
    return numpyCompare(op, left, right, l);
  bool leftFloat = left.type.kind == Type::Kind::Float;
  bool rightFloat = right.type.kind == Type::Kind::Float;
  if (!leftFloat && !rightFloat) {
    Value a = convert(left, Type::integer()).leaves[0];
    Value b = convert(right, Type::integer()).leaves[0];
    arith::CmpIPredicate p = op == "Eq"    ? arith::CmpIPredicate::eq
                             : op == "NotEq" ? arith::CmpIPredicate::ne
                             : op == "Lt"    ? arith::CmpIPredicate::slt
                             : op == "LtE"   ? arith::CmpIPredicate::sle
                             : op == "Gt"    ? arith::CmpIPredicate::sgt
                                             : arith::CmpIPredicate::sge;
    return builder.create<arith::CmpIOp>(l, p, a, b);
  }
  arith::CmpFPredicate p = op == "Eq"    ? arith::CmpFPredicate::OEQ
                           : op == "NotEq" ? arith::CmpFPredicate::UNE
                           : op == "Lt"    ? arith::CmpFPredicate::OLT
                           : op == "LtE"   ? arith::CmpFPredicate::OLE
                           : op == "Gt"    ? arith::CmpFPredicate::OGT
                                           : arith::CmpFPredicate::OGE;
  if (leftFloat && rightFloat)
    return builder.create<arith::CmpFOp>(l, p, left.leaves[0], right.leaves[0]);

  // int against float: exact, as CPython compares them (no rounding of the
  // int). Ints within 2**53 convert exactly; others go through the runtime.
  const Val &intSide = leftFloat ? right : left;
  const Val &floatSide = leftFloat ? left : right;
  Value i = convert(intSide, Type::integer()).leaves[0];
  Value f = floatSide.leaves[0];
  Value biased = builder.create<arith::AddIOp>(l, i, constInt(1LL << 53));
  Value exact = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ule, biased,
                                              constInt(1LL << 54));
  Block *fastPath = newBlock();
  Block *slowPath = newBlock();
  Block *merge = newBlock();
  merge->addArgument(builder.getI1Type(), l);
  builder.create<mlir::cf::CondBranchOp>(l, exact, fastPath, slowPath);
  startBlock(fastPath);
  Value asFloat = builder.create<arith::SIToFPOp>(l, builder.getF64Type(), i);
  Value fastResult = leftFloat ? builder.create<arith::CmpFOp>(l, p, f, asFloat)
                               : builder.create<arith::CmpFOp>(l, p, asFloat, f);
  builder.create<mlir::cf::BranchOp>(l, merge, mlir::ValueRange{fastResult});
  startBlock(slowPath);
  module.declare("plait_rt_cmp_int_float",
                 builder.getFunctionType({builder.getI64Type(), builder.getF64Type()},
                                         {builder.getI32Type()}));
  Value c = builder
                .create<mlir::func::CallOp>(l, "plait_rt_cmp_int_float",
                                            mlir::TypeRange{builder.getI32Type()},
                                            mlir::ValueRange{i, f})
                .getResult(0);
  // c compares int to float: -1, 0, 1, or 2 when unordered. Flip when the
  // float is on the left.
  std::string o = op;
  if (leftFloat)
    o = op == "Lt" ? "Gt" : op == "Gt" ? "Lt" : op == "LtE" ? "GtE" : op == "GtE" ? "LtE" : op;
  auto eq = [&](int32_t v) {
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, c, constInt(v, 32)).getResult();
  };
  Value slow;
  if (o == "Eq")
    slow = eq(0);
  else if (o == "NotEq")
    slow = builder.create<arith::XOrIOp>(l, eq(0), constInt(1, 1));
  else if (o == "Lt")
    slow = eq(-1);
  else if (o == "Gt")
    slow = eq(1);
  else if (o == "LtE")
    slow = builder.create<arith::OrIOp>(l, eq(-1), eq(0));
  else
    slow = builder.create<arith::OrIOp>(l, eq(1), eq(0));
  builder.create<mlir::cf::BranchOp>(l, merge, mlir::ValueRange{slow});
  startBlock(merge);
  return merge->getArgument(0);
}

Val FunctionEmitter::emitCompare(const SExpr &node) {
  std::vector<const SExpr *> ops = node.field(1).rest();
  std::vector<const SExpr *> rights = node.field(2).rest();
  Val left = emitExpr(node.field(0));
  if (ops.size() == 1) {
    Val right = emitExpr(*rights[0]);
    Type type = spec.typeOf(node);
    if (type.kind == Type::Kind::Array)
      return arrayElementwise(node, {left, right}, DType::Bool, type.ndim, [&](llvm::ArrayRef<Val> x) {
        return Val{Type::numpy(DType::Bool), {compare(ops[0]->text, x[0], x[1], node)}};
      });
    return {type, {compare(ops[0]->text, left, right, node)}};
  }
  // a < b < c: each operand evaluated once, stop at the first false.
  Value result = alloca(builder.getI1Type());
  Block *done = newBlock();
  for (size_t i = 0; i < ops.size(); ++i) {
    Val right = emitExpr(*rights[i]);
    Value c = compare(ops[i]->text, left, right, node);
    builder.create<mlir::memref::StoreOp>(loc(node), c, result);
    if (i + 1 == ops.size()) {
      branch(done);
      break;
    }
    Block *next = newBlock();
    builder.create<mlir::cf::CondBranchOp>(loc(node), c, next, done);
    startBlock(next);
    left = right;
  }
  startBlock(done);
  return {spec.typeOf(node), {builder.create<mlir::memref::LoadOp>(loc(node), result)}};
}

Val FunctionEmitter::emitIfExp(const SExpr &node) {
  Type type = spec.typeOf(node);
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  llvm::SmallVector<Value> resultSlots;
  for (mlir::Type t : types)
    resultSlots.push_back(alloca(t));
  Value condition = truth(emitExpr(node.field(0)));
  Block *thenBlock = newBlock();
  Block *elseBlock = newBlock();
  Block *done = newBlock();
  builder.create<mlir::cf::CondBranchOp>(loc(node), condition, thenBlock, elseBlock);
  for (int side = 0; side < 2; ++side) {
    startBlock(side == 0 ? thenBlock : elseBlock);
    Val value = convert(emitExpr(node.field(side + 1)), type);
    for (size_t k = 0; k < resultSlots.size(); ++k)
      builder.create<mlir::memref::StoreOp>(loc(node), value.leaves[k], resultSlots[k]);
    branch(done);
  }
  startBlock(done);
  Val result{type, {}};
  for (Value slot : resultSlots)
    result.leaves.push_back(builder.create<mlir::memref::LoadOp>(loc(node), slot));
  return result;
}

Val FunctionEmitter::floatToInt(Value x, const char *runtime, const char *overflowKey) {
  return callRuntimeInt(
      runtime, {x},
      {{PLAIT_NUMERIC_FLOAT_TO_INT_INF, errorCode("OverflowError", "float_to_int_inf")},
       {PLAIT_NUMERIC_FLOAT_TO_INT_NAN, errorCode("ValueError", "float_to_int_nan")},
       {PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", overflowKey)}});
}

Val FunctionEmitter::minMax(const SExpr &node, bool isMin, std::vector<Val> values,
                            const Type &type) {
  Val best = convert(values[0], type);
  Location l = loc(node);
  for (size_t i = 1; i < values.size(); ++i) {
    Val candidate = convert(values[i], type);
    // Python keeps the first of equal values and compares with < / >.
    Value better = compare(isMin ? "Lt" : "Gt", candidate, best, node);
    best.leaves[0] = builder.create<arith::SelectOp>(l, better, candidate.leaves[0],
                                                     best.leaves[0]);
  }
  return best;
}

Value FunctionEmitter::dimension(Value memref, int64_t axis) {
  Location l = builder.getUnknownLoc();
  Value d = builder.create<mlir::memref::DimOp>(l, memref, axis);
  return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), d);
}

void FunctionEmitter::checkWithArgs(Value failed, const PyError &error, llvm::ArrayRef<Value> args) {
  builder.create<dialect::RaiseIfOp>(builder.getUnknownLoc(), failed, error.exception, error.message,
                                     args);
}

std::string FunctionEmitter::shapePlaceholders(int ndim, int first) {
  std::string text = "(";
  for (int axis = 0; axis < ndim; ++axis)
    text += (axis ? "," : "") + std::string("{") + std::to_string(first + axis) + "}";
  return text + (ndim == 1 ? ",)" : ")");
}

void FunctionEmitter::appendDimensions(Value memref, int ndim, llvm::SmallVectorImpl<Value> &out) {
  for (int axis = 0; axis < ndim; ++axis)
    out.push_back(dimension(memref, axis));
}

std::string FunctionEmitter::formatMessage(
    const std::string &key, std::initializer_list<std::pair<const char *, std::string>> parts) {
  std::string message = module.options.message(key);
  for (const auto &[name, text] : parts) {
    std::string placeholder = "{" + std::string(name) + "}";
    size_t at = message.find(placeholder);
    if (at != std::string::npos)
      message.replace(at, placeholder.size(), text);
  }
  return message;
}

llvm::SmallVector<Value> FunctionEmitter::arrayIndices(const SExpr &subscript,
                                                       Value memref,
                                                       const Type &array) {
  std::vector<const SExpr *> nodes = subscriptIndices(subscript);
  Location l = loc(subscript);
  // CPython evaluates every index (the tuple) before indexing.
  llvm::SmallVector<Value> given;
  for (const SExpr *node : nodes)
    given.push_back(convert(emitExpr(*node), Type::integer()).leaves[0]);
  llvm::SmallVector<Value> result;
  for (size_t axis = 0; axis < nodes.size(); ++axis)
    result.push_back(builder.create<dialect::IndexOp>(l, given[axis],
                                                      dimension(memref, static_cast<int64_t>(axis)),
                                                      axis, !module.options.boundsCheck));
  return result;
}

Value FunctionEmitter::rowView(Value memref, const Type &rowType, Value index, Location l) {
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
  Value offset = builder.create<arith::AddIOp>(
      l, metadata.getOffset(), builder.create<arith::MulIOp>(l, index, metadata.getStrides()[0]));
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  for (int axis = 1; axis <= rowType.ndim; ++axis) {
    sizes.push_back(metadata.getSizes()[axis]);
    strides.push_back(metadata.getStrides()[axis]);
  }
  return builder.create<mlir::memref::ReinterpretCastOp>(l, module.memrefType(rowType),
                                                         metadata.getBaseBuffer(),
                                                         mlir::OpFoldResult(offset), sizes, strides);
}

Val FunctionEmitter::emitView(const SExpr &subscript) {
  Type type = spec.typeOf(subscript);
  Val base = emitExpr(subscript.field(0));
  Location l = loc(subscript);
  auto i64 = [&](Value index) {
    return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), index).getResult();
  };
  auto select = [&](Value c, Value a, Value b) {
    return builder.create<arith::SelectOp>(l, c, a, b).getResult();
  };
  auto cmp = [&](arith::CmpIPredicate p, Value a, Value b) {
    return builder.create<arith::CmpIOp>(l, p, a, b).getResult();
  };
  auto add = [&](Value a, Value b) { return builder.create<arith::AddIOp>(l, a, b).getResult(); };
  auto sub = [&](Value a, Value b) { return builder.create<arith::SubIOp>(l, a, b).getResult(); };
  auto mul = [&](Value a, Value b) { return builder.create<arith::MulIOp>(l, a, b).getResult(); };
  using P = arith::CmpIPredicate;

  // CPython evaluates every index and slice bound (the tuple) before indexing.
  std::vector<const SExpr *> nodes = subscriptIndices(subscript);
  struct Given {
    std::optional<Value> index, start, stop, step;
  };
  std::vector<Given> given(nodes.size());
  for (size_t axis = 0; axis < nodes.size(); ++axis) {
    const SExpr &node = *nodes[axis];
    auto evaluate = [&](const SExpr &e) { return convert(emitExpr(e), Type::integer()).leaves[0]; };
    if (node.head() != "Slice") {
      given[axis].index = evaluate(node);
      continue;
    }
    std::optional<Value> *parts[3] = {&given[axis].start, &given[axis].stop, &given[axis].step};
    for (size_t k = 0; k < 3; ++k)
      if (node.field(k).kind != SExpr::Kind::None)
        *parts[k] = evaluate(node.field(k));
  }
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, base.leaves[0]);
  Value offset = i64(metadata.getOffset());
  PyError zeroStep = PyError("ValueError", module.options.message("slice_step_zero"));
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  for (int axis = 0; axis < base.type.ndim; ++axis) {
    Value size = i64(metadata.getSizes()[axis]);
    Value stride = i64(metadata.getStrides()[axis]);
    const SExpr *node = axis < static_cast<int>(nodes.size()) ? nodes[axis] : nullptr;
    if (!node) { // a trailing axis not indexed: kept whole
      sizes.push_back(metadata.getSizes()[axis]);
      strides.push_back(metadata.getStrides()[axis]);
      continue;
    }
    if (given[axis].index) {
      Value position = builder.create<dialect::IndexOp>(l, *given[axis].index, size, axis,
                                                        !module.options.boundsCheck);
      offset = add(offset, mul(i64(position), stride));
      continue;
    }
    // CPython's PySlice_Unpack + PySlice_AdjustIndices.
    std::optional<Value> startPart = given[axis].start, stopPart = given[axis].stop,
                         stepPart = given[axis].step;
    Value step = stepPart ? *stepPart : constInt(1);
    if (stepPart)
      check(cmp(P::eq, step, constInt(0)), zeroStep);
    Value negative = cmp(P::slt, step, constInt(0));
    auto adjust = [&](std::optional<Value> given, bool isStart) -> Value {
      if (!given) // defaults: [0, size) forwards, [size-1, -1) backwards
        return isStart ? select(negative, sub(size, constInt(1)), constInt(0))
                       : select(negative, constInt(-1), size);
      Value v = *given;
      Value below = cmp(P::slt, v, constInt(0));
      Value shifted = add(v, size);
      Value low = select(negative, constInt(-1), constInt(0));
      Value fromEnd = select(cmp(P::slt, shifted, constInt(0)), low, shifted);
      Value high = select(negative, sub(size, constInt(1)), size);
      Value fromStart = select(cmp(P::sge, v, size), high, v);
      return select(below, fromEnd, fromStart);
    };
    Value start = adjust(startPart, true);
    Value stop = adjust(stopPart, false);
    Value negStep = sub(constInt(0), step);
    Value backwardsLength = select(cmp(P::slt, stop, start),
                                   add(builder.create<arith::DivSIOp>(l, sub(sub(start, stop), constInt(1)), negStep), constInt(1)),
                                   constInt(0));
    Value forwardsLength = select(cmp(P::slt, start, stop),
                                  add(builder.create<arith::DivSIOp>(l, sub(sub(stop, start), constInt(1)), step), constInt(1)),
                                  constInt(0));
    Value length = select(negative, backwardsLength, forwardsLength);
    // An empty view keeps the offset in range.
    Value first = select(cmp(P::sgt, length, constInt(0)), start, constInt(0));
    offset = add(offset, mul(first, stride));
    sizes.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length).getResult());
    strides.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), mul(stride, step)).getResult());
  }
  Value view = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), metadata.getBaseBuffer(),
      mlir::OpFoldResult(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), offset).getResult()),
      sizes, strides);
  return {type, {view}};
}

Value FunctionEmitter::broadcastTo(const Val &value, Value destination, int ndim, Location l) {
  // NumPy's broadcasting: trailing axes line up; an axis of size 1 (or a
  // missing leading one) repeats with stride 0; other sizes must be equal.
  Value source = value.leaves[0];
  int sourceDims = value.type.ndim;
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, source);
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides;
  Value zero = constIndexValue(0);
  llvm::SmallVector<Value> shapes;
  appendDimensions(source, sourceDims, shapes);
  appendDimensions(destination, ndim, shapes);
  // Extra leading axes of the source must have size 1 (they are dropped).
  // NumPy's message names the source's shape after dropping the leading
  // ones it could: one message per count, chosen at run time.
  int extra = std::max(0, sourceDims - ndim);
  Value dropped = constInt(0), leadingOnes = constInt(1, 1);
  for (int k = 0; k < extra; ++k) {
    leadingOnes = builder.create<arith::AndIOp>(
        l, leadingOnes, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, shapes[k], constInt(1)));
    dropped = builder.create<arith::AddIOp>(l, dropped, builder.create<arith::ExtUIOp>(l, builder.getI64Type(), leadingOnes));
  }
  Value mismatch = constInt(0, 1);
  auto either = [&](Value a, Value b) { return builder.create<arith::OrIOp>(l, a, b).getResult(); };
  for (int axis = 0; axis < extra; ++axis)
    mismatch = either(mismatch, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, shapes[axis], constInt(1)));
  for (int axis = 0; axis < ndim; ++axis) {
    Value want = dimension(destination, axis);
    sizes.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), want).getResult());
    int from = axis - (ndim - sourceDims);
    if (from < 0) {
      strides.push_back(zero);
      continue;
    }
    Value have = dimension(source, from);
    Value one = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, have, constInt(1));
    Value differ = builder.create<arith::AndIOp>(
        l, builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, have, want),
        builder.create<arith::XOrIOp>(l, one, constInt(1, 1)));
    mismatch = either(mismatch, differ);
    strides.push_back(
        builder.create<arith::SelectOp>(l, one, zero, metadata.getStrides()[from]).getResult());
  }
  for (int k = 0; k <= extra; ++k) {
    PyError error("ValueError", formatMessage("broadcast_mismatch",
                                              {{"from", shapePlaceholders(sourceDims - k, k)},
                                               {"to", shapePlaceholders(ndim, sourceDims)}}));
    Value thisMessage = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, dropped, constInt(k));
    checkWithArgs(builder.create<arith::AndIOp>(l, mismatch, thisMessage), error, shapes);
  }
  return builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(Type::array(value.type.dtype, ndim)), metadata.getBaseBuffer(),
      mlir::OpFoldResult(metadata.getOffset()), sizes, strides);
}

void FunctionEmitter::storeSlice(const SExpr &subscript, const Val &value) {
  Location l = loc(subscript);
  Val target = emitView(subscript);
  DType dtype = target.type.dtype;
  Value destination = target.leaves[0];
  if (value.type.kind != Type::Kind::Array) {
    Value stored = toStorage(value, dtype, l);
    forEachElement(destination, target.type.ndim, [&](llvm::ArrayRef<Value> indices) {
      builder.create<mlir::memref::StoreOp>(l, stored, destination, indices);
    });
    return;
  }
  int ndim = target.type.ndim;
  Value source = broadcastTo(value, destination, ndim, l);
  Type sourceType = Type::array(value.type.dtype, ndim);
  auto copy = [&](Value from, const Type &fromType, Value to, const Type &toType) {
    copyElements(Val{fromType, {from}}, Val{toType, {to}}, l);
  };
  // Views of one buffer may overlap (a[1:] = a[:-1]): NumPy copies as if
  // through a temporary, so do that whenever the base buffers are the same.
  auto base = [&](Value memref) {
    return builder.create<arith::IndexCastOp>(
        l, builder.getI64Type(), builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, memref));
  };
  Value shared = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, base(source), base(destination));
  Block *throughTemporary = newBlock();
  Block *direct = newBlock();
  Block *done = newBlock();
  builder.create<mlir::cf::CondBranchOp>(l, shared, throughTemporary, direct);
  startBlock(throughTemporary);
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < ndim; ++axis)
    sizes.push_back(dimension(source, axis));
  Type temporaryType = Type::array(value.type.dtype, ndim, true);
  Value temporary = allocateArray(temporaryType, sizes, nullptr, l);
  copy(source, sourceType, temporary, temporaryType);
  copy(temporary, temporaryType, destination, target.type);
  branch(done);
  startBlock(direct);
  copy(source, sourceType, destination, target.type);
  branch(done);
  startBlock(done);
  freeIfTemporary(value);
}

void FunctionEmitter::copyElements(const Val &from, const Val &to, Location l) {
  // Elementwise C casts, as NumPy's unsafe casting of array assignment
  // (int8 <- uint8 253 is -3; floats truncate toward zero).
  Value source = from.leaves[0], destination = to.leaves[0];
  DType toDType = to.type.dtype;
  forEachElement(destination, to.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, source, indices), from.type.dtype, l);
    builder.create<mlir::memref::StoreOp>(l, storageOf(castNumPy(element, toDType), l), destination, indices);
  });
}

Value FunctionEmitter::storageOf(const Val &element, Location l) {
  // Bools are bytes in memory; complex numbers one complex value.
  DType dtype = element.type.dtype;
  if (dtype == DType::Bool)
    return builder.create<arith::ExtUIOp>(l, builder.getI8Type(), element.leaves[0]);
  if (dtype == DType::Complex128)
    return builder.create<mlir::complex::CreateOp>(l, module.storageType(dtype), element.leaves[0],
                                                   element.leaves[1]);
  return element.leaves[0];
}

Val FunctionEmitter::loadElement(const SExpr &subscript) {
  Val array = emitExpr(subscript.field(0));
  Location l = loc(subscript);
  llvm::SmallVector<Value> indices = arrayIndices(subscript, array.leaves[0], array.type);
  Value raw = builder.create<mlir::memref::LoadOp>(l, array.leaves[0], indices);
  return fromStorage(raw, array.type.dtype, l);
}

Val FunctionEmitter::fromStorage(Value raw, DType dtype, Location l) {
  // Elements load as NumPy scalars of their dtype; bools are bytes in memory.
  if (dtype == DType::Bool)
    return {Type::numpy(dtype), {builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, raw, constInt(0, 8))}};
  if (dtype == DType::Complex128)
    return {Type::numpy(dtype), {builder.create<mlir::complex::ReOp>(l, raw),
                                 builder.create<mlir::complex::ImOp>(l, raw)}};
  return {Type::numpy(dtype), {raw}};
}

void FunctionEmitter::forEachElement(Value memref, int ndim,
                                     const std::function<void(llvm::ArrayRef<Value>)> &body,
                                     bool fortranOrder) {
  // Loops nest in C order (the last axis innermost), or in Fortran order
  // (the first innermost): the memory order of reductions NumPy follows.
  llvm::SmallVector<Value> indices(ndim);
  std::function<void(int)> level = [&](int depth) {
    if (depth == ndim) {
      body(indices);
      return;
    }
    int axis = fortranOrder ? ndim - 1 - depth : depth;
    countedLoop(dimension(memref, axis), [&](Value k) {
      indices[axis] = builder.create<arith::IndexCastOp>(builder.getUnknownLoc(), builder.getIndexType(), k);
      level(depth + 1);
    });
  };
  level(0);
}

Value FunctionEmitter::dataAddress(Value memref, const Type &array, Location l) {
  Value base = builder.create<arith::IndexCastOp>(
      l, builder.getI64Type(), builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, memref));
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
  Value offset = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getOffset());
  unsigned bytes = module.storageBytes(array.dtype);
  return builder.create<arith::AddIOp>(l, base, builder.create<arith::MulIOp>(l, offset, constInt(bytes)));
}

Val FunctionEmitter::emitReduction(const SExpr &node, const std::string &name) {
  Val array = emitExpr(node.field(1).items.at(1));
  Val reduced = reduceExpression(node, name, array);
  freeIfTemporary(array);
  return reduced;
}

Val FunctionEmitter::reduceExpression(const SExpr &node, const std::string &name, const Val &array) {
  Location l = loc(node);
  Type result = spec.typeOf(node);
  int axis = spec.axisOf(node);
  if (axis < 0 || array.type.ndim == 1)
    return reduceArray(node, name, array, result, /*sequential=*/false);
  // Along an axis: one reduction per element of the result, over a 1-D
  // view. NumPy sums pairwise when the axis is innermost in memory (the
  // last of a C-contiguous array, the first of a Fortran one), else in order.
  const Type &t = array.type;
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  llvm::SmallVector<Value> sizes;
  for (int d = 0; d < t.ndim; ++d)
    if (d != axis)
      sizes.push_back(dimension(array.leaves[0], d));
  Value out = allocateArray(result, sizes, nullptr, l);
  bool innermost = (axis == t.ndim - 1 && !t.fortran) || (axis == 0 && t.fortran);
  Type lineType = Type::array(t.dtype, 1, innermost && (t.contiguous || t.fortran));
  Type element = Type::numpy(result.dtype);
  forEachElement(out, t.ndim - 1, [&](llvm::ArrayRef<Value> indices) {
    Value offset = metadata.getOffset();
    for (int d = 0, k = 0; d < t.ndim; ++d) {
      if (d == axis)
        continue;
      offset = builder.create<arith::AddIOp>(
          l, offset, builder.create<arith::MulIOp>(l, indices[k++], metadata.getStrides()[d]));
    }
    Value line = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(lineType), metadata.getBaseBuffer(), mlir::OpFoldResult(offset),
        llvm::ArrayRef<mlir::OpFoldResult>{metadata.getSizes()[axis]},
        llvm::ArrayRef<mlir::OpFoldResult>{metadata.getStrides()[axis]});
    Val reduced = reduceArray(node, name, Val{lineType, {line}}, element, !innermost);
    builder.create<mlir::memref::StoreOp>(l, toStorage(reduced, result.dtype, l), out, indices);
  });
  return {result, {out}};
}

Val FunctionEmitter::reduceArray(const SExpr &node, const std::string &name, const Val &array,
                                 const Type &result, bool sequential) {
  Location l = loc(node);
  const Type &t = array.type;
  Value memref = array.leaves[0];
  bool isFloat = isFloatDType(t.dtype);
  Value size = constInt(1);
  for (int axis = 0; axis < t.ndim; ++axis)
    size = builder.create<arith::MulIOp>(l, size, dimension(memref, axis));
  if (t.dtype == DType::Complex128)
    return complexReduction(node, name, array, size, sequential, l);
  auto pairwise = [&]() -> Value {
    // NumPy's pairwise summation over contiguous (or 1-D strided) data.
    bool f32 = t.dtype == DType::Float32;
    const char *runtime = f32 ? "plait_rt_pairwise_sum_f32" : "plait_rt_pairwise_sum_f64";
    module.declare(runtime, builder.getFunctionType({builder.getI64Type(), builder.getI64Type(),
                                                     builder.getI64Type()},
                                                    {builder.getF64Type()}));
    Value stride = constInt(1);
    if (!t.contiguous && !t.fortran) {
      auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
      stride = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
    }
    return builder
        .create<mlir::func::CallOp>(l, runtime, mlir::TypeRange{builder.getF64Type()},
                                    mlir::ValueRange{dataAddress(memref, t, l), size, stride})
        .getResult(0);
  };
  // Contiguous data in either order is summed in memory order, as NumPy does.
  bool canPairwise = isFloat && !sequential && (t.contiguous || t.fortran || t.ndim == 1);
  if ((name == "sum" || name == "mean") && canPairwise) {
    Val total = fromIdentity(castNumPy(Val{Type::floating(), {pairwise()}}, result.dtype));
    if (name == "sum")
      return total;
    // The mean divides in the result's type (float32 for float32 arrays).
    Val count = castNumPy(Val{Type::integer(), {size}}, result.dtype);
    return {result, {builder.create<arith::DivFOp>(l, total.leaves[0], count.leaves[0])}};
  }
  if (name == "min" || name == "max" || name == "amin" || name == "amax") {
    bool isMin = name == "min" || name == "amin";
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, size, constInt(0)),
          PyError("ValueError", module.options.message(isMin ? "empty_minimum" : "empty_maximum")));
    llvm::SmallVector<Value> first(t.ndim, constIndexValue(0));
    Val initial = fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, first), t.dtype, l);
    // Compared as Python ints or floats (uint64 by its bits, unsigned).
    Type domain = isFloat ? Type::floating() : Type::integer();
    bool isU64 = t.dtype == DType::UInt64;
    auto toDomain = [&](const Val &v) {
      return castNumPy(v, isFloat ? DType::Float64 : DType::Int64).leaves[0];
    };
    Value slot = alloca(leafType(domain.kind));
    builder.create<mlir::memref::StoreOp>(l, toDomain(initial), slot);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Value x = toDomain(fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l));
      Value r = builder.create<mlir::memref::LoadOp>(l, slot);
      Value better;
      if (domain.kind == Type::Kind::Float) {
        // np.minimum/np.maximum: NaN wins from either side.
        Value keep = builder.create<arith::CmpFOp>(
            l, isMin ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT, r, x);
        Value rNan = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, r, r);
        better = builder.create<arith::SelectOp>(l, builder.create<arith::OrIOp>(l, keep, rNan), r, x);
      } else {
        Value keep = builder.create<arith::CmpIOp>(
            l, isMin ? (isU64 ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
                     : (isU64 ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt),
            r, x);
        better = builder.create<arith::SelectOp>(l, keep, r, x);
      }
      builder.create<mlir::memref::StoreOp>(l, better, slot);
    }, t.fortran);
    Value best = builder.create<mlir::memref::LoadOp>(l, slot);
    return castNumPy(Val{domain, {best}}, t.dtype);
  }
  // Sequential sum / product (ints wrap, as NumPy's int64 arithmetic does),
  // and sums over non-contiguous N-D float arrays.
  bool product = name == "prod";
  if (t.dtype == DType::Float32) {
    // NumPy accumulates float32 arrays in float32 (the mean too).
    Value slot32 = alloca(builder.getF32Type());
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::ConstantFloatOp>(l, llvm::APFloat(product ? 1.0f : -0.0f),
                                                  builder.getF32Type()),
        slot32);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Value x = builder.create<mlir::memref::LoadOp>(l, memref, indices);
      Value r = builder.create<mlir::memref::LoadOp>(l, slot32);
      Value next = product ? builder.create<arith::MulFOp>(l, r, x).getResult()
                           : builder.create<arith::AddFOp>(l, r, x).getResult();
      builder.create<mlir::memref::StoreOp>(l, next, slot32);
    }, t.fortran);
    Val total{Type::numpy(DType::Float32), {builder.create<mlir::memref::LoadOp>(l, slot32)}};
    if (!product)
      total = fromIdentity(total);
    if (name == "mean")
      return {result, {builder.create<arith::DivFOp>(
                          l, total.leaves[0], castNumPy(Val{Type::integer(), {size}}, DType::Float32).leaves[0])}};
    return total;
  }
  Type domain = isFloat || name == "mean" ? Type::floating() : Type::integer();
  Value slot = alloca(leafType(domain.kind));
  builder.create<mlir::memref::StoreOp>(
      l, domain.kind == Type::Kind::Float ? constFloat(product ? 1.0 : -0.0) : constInt(product ? 1 : 0), slot);
  forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
    // Integers wrap in 64 bits (uint64 by the same bits).
    Value x = castNumPy(fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l),
                        domain.kind == Type::Kind::Float ? DType::Float64 : DType::Int64).leaves[0];
    Value r = builder.create<mlir::memref::LoadOp>(l, slot);
    Value next = domain.kind == Type::Kind::Float
                     ? (product ? builder.create<arith::MulFOp>(l, r, x).getResult()
                                : builder.create<arith::AddFOp>(l, r, x).getResult())
                     : (product ? builder.create<arith::MulIOp>(l, r, x).getResult()
                                : builder.create<arith::AddIOp>(l, r, x).getResult());
    builder.create<mlir::memref::StoreOp>(l, next, slot);
  }, t.fortran);
  Value total = builder.create<mlir::memref::LoadOp>(l, slot);
  if (!product && domain.kind == Type::Kind::Float)
    total = fromIdentity(Val{domain, {total}}).leaves[0];
  if (name == "mean")
    return castNumPy(Val{Type::floating(), {builder.create<arith::DivFOp>(
                         l, total, builder.create<arith::SIToFPOp>(l, builder.getF64Type(), size))}},
                     result.dtype);
  return castNumPy(Val{domain, {total}}, result.dtype);
}

Val FunctionEmitter::fromIdentity(const Val &sum) {
  // NumPy's add.reduce starts from its identity, +0.0: a sum of -0.0s (or
  // of nothing) is +0.0. (The pairwise code starts from -0.0 as NumPy's.)
  Location l = builder.getUnknownLoc();
  Val result = sum;
  for (Value &leaf : result.leaves) {
    auto type = leaf.getType().cast<mlir::FloatType>();
    Value zero = builder.create<arith::ConstantFloatOp>(l, llvm::APFloat::getZero(type.getFloatSemantics()), type);
    leaf = builder.create<arith::AddFOp>(l, zero, leaf);
  }
  return result;
}

Val FunctionEmitter::complexReduction(const SExpr &node, const std::string &name,
                                      const Val &array, Value size, bool sequential, Location l) {
  const Type &t = array.type;
  Value memref = array.leaves[0];
  Type type = Type::numpy(DType::Complex128);
  if (name == "prod" || sequential || !(t.contiguous || t.fortran || t.ndim == 1)) {
    // NumPy's reduce loop, in order (products; sums of scattered N-D data).
    bool product = name == "prod";
    Value re = alloca(builder.getF64Type()), im = alloca(builder.getF64Type());
    builder.create<mlir::memref::StoreOp>(l, constFloat(product ? 1.0 : -0.0), re);
    builder.create<mlir::memref::StoreOp>(l, constFloat(product ? 0.0 : -0.0), im);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l);
      Val r{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
      Val next = complexArith(node, product ? "Mult" : "Add", r, x);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[0], re);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[1], im);
    }, t.fortran);
    Val total{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
    if (name == "prod")
      return total;
    total = fromIdentity(total);
    if (name == "sum")
      return total;
    return complexArith(node, "Div", total, Val{Type::numpy(DType::Int64), {size}});
  }
  Value stride = constInt(1);
  if (!t.contiguous && !t.fortran) {
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
    stride = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
  }
  auto [re, im] = callComplexRuntime("plait_rt_pairwise_sum_c128", {dataAddress(memref, t, l), size, stride}, {});
  Val total = fromIdentity(Val{type, {re, im}});
  if (name != "mean")
    return total;
  // NumPy's mean divides by the count as a complex128 (NumPy's division).
  return complexArith(node, "Div", total, Val{Type::numpy(DType::Int64), {size}});
}

Val FunctionEmitter::emitDot(const SExpr &node) {
  Val a = emitExpr(node.field(1).items.at(1));
  Val b = emitExpr(node.field(1).items.at(2));
  Val product = dotOf(node, a, b);
  freeIfTemporary(a);
  freeIfTemporary(b);
  return product;
}

Val FunctionEmitter::dotOf(const SExpr &node, const Val &a, const Val &b) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  // Computed in Python's float or (wrapping) int64, then cast to NumPy's
  // result type (a bool dot product: any product nonzero).
  DType resultDType = promoteDTypes(a.type.dtype, b.type.dtype);
  // NumPy: the last axis of a against the first of b.
  Value inner = dimension(a.leaves[0], a.type.ndim - 1);
  Value other = dimension(b.leaves[0], 0);
  llvm::SmallVector<Value> shapes;
  appendDimensions(a.leaves[0], a.type.ndim, shapes);
  appendDimensions(b.leaves[0], b.type.ndim, shapes);
  int first = static_cast<int>(shapes.size());
  shapes.append({inner, other});
  PyError notAligned = PyError(
      "ValueError", formatMessage("dot_not_aligned",
                                  {{"a", shapePlaceholders(a.type.ndim, 0)},
                                   {"b", shapePlaceholders(b.type.ndim, a.type.ndim)},
                                   {"inner", "{" + std::to_string(first) + "}"},
                                   {"axis", std::to_string(a.type.ndim - 1)},
                                   {"other", "{" + std::to_string(first + 1) + "}"}}));
  checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, inner, other), notAligned, shapes);
  if (resultDType == DType::Complex128) { // 1-D only: sum of products in order
    Value n = inner;
    Type type = Type::numpy(resultDType);
    Value re = alloca(builder.getF64Type()), im = alloca(builder.getF64Type());
    builder.create<mlir::memref::StoreOp>(l, constFloat(0.0), re);
    builder.create<mlir::memref::StoreOp>(l, constFloat(0.0), im);
    countedLoop(n, [&](Value k) {
      Value index = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
      Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, a.leaves[0], mlir::ValueRange{index}),
                          a.type.dtype, l);
      Val y = fromStorage(builder.create<mlir::memref::LoadOp>(l, b.leaves[0], mlir::ValueRange{index}),
                          b.type.dtype, l);
      Val r{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
      Val next = complexArith(node, "Add", r, complexArith(node, "Mult", x, y));
      builder.create<mlir::memref::StoreOp>(l, next.leaves[0], re);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[1], im);
    });
    return {type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
  }
  bool isFloat = isFloatDType(resultDType);
  Type domain = isFloat ? Type::floating() : Type::integer();
  auto element = [&](const Val &array, llvm::ArrayRef<Value> indices) {
    return castNumPy(fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], indices),
                                 array.type.dtype, l),
                     isFloat ? DType::Float64 : DType::Int64).leaves[0];
  };
  auto multiplyAdd = [&](Value acc, Value x, Value y) -> Value {
    if (isFloat)
      return builder.create<arith::AddFOp>(l, acc, builder.create<arith::MulFOp>(l, x, y));
    return builder.create<arith::AddIOp>(l, acc, builder.create<arith::MulIOp>(l, x, y));
  };
  Value acc = alloca(leafType(domain.kind));
  Value zero = isFloat ? constFloat(0.0) : constInt(0);
  auto index = [&](Value k) {
    return builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k).getResult();
  };
  if (a.type.ndim == 1) {
    builder.create<mlir::memref::StoreOp>(l, zero, acc);
    countedLoop(inner, [&](Value k) {
      Value r = builder.create<mlir::memref::LoadOp>(l, acc);
      builder.create<mlir::memref::StoreOp>(
          l, multiplyAdd(r, element(a, {index(k)}), element(b, {index(k)})), acc);
    });
    return castNumPy(Val{domain, {builder.create<mlir::memref::LoadOp>(l, acc)}}, resultDType);
  }
  Value rows = dimension(a.leaves[0], 0);
  llvm::SmallVector<Value> sizes = {rows};
  if (b.type.ndim == 2)
    sizes.push_back(dimension(b.leaves[0], 1));
  Value out = allocateArray(type, sizes, nullptr, l);
  Value columns = b.type.ndim == 2 ? sizes[1] : constInt(1);
  countedLoop(rows, [&](Value i) {
    countedLoop(columns, [&](Value j) {
      builder.create<mlir::memref::StoreOp>(l, zero, acc);
      countedLoop(inner, [&](Value k) {
        Value x = element(a, {index(i), index(k)});
        Value y = b.type.ndim == 2 ? element(b, {index(k), index(j)}) : element(b, {index(k)});
        Value r = builder.create<mlir::memref::LoadOp>(l, acc);
        builder.create<mlir::memref::StoreOp>(l, multiplyAdd(r, x, y), acc);
      });
      Value r = toStorage(castNumPy(Val{domain, {builder.create<mlir::memref::LoadOp>(l, acc)}}, resultDType),
                          resultDType, l);
      if (b.type.ndim == 2)
        builder.create<mlir::memref::StoreOp>(l, r, out, mlir::ValueRange{index(i), index(j)});
      else
        builder.create<mlir::memref::StoreOp>(l, r, out, mlir::ValueRange{index(i)});
    });
  });
  return {type, {out}};
}

Val FunctionEmitter::applyElementwise(const std::string &name, const Val &x, Location l) {
  // Python numbers enter ufuncs as NumPy scalars: int64, float64, bool.
  DType dtype = x.type.isNumPy()                   ? x.type.dtype
                : x.type.kind == Type::Kind::Float ? DType::Float64
                : x.type.kind == Type::Kind::Bool  ? DType::Bool
                                                   : DType::Int64;
  if (x.type.isComplex()) // np.abs only (the typer refuses the others)
    return {Type::numpy(DType::Float64), {complexAbs(x, /*checkOverflow=*/false)}};
  Val v = castNumPy(x, dtype);
  if (name == "abs" || name == "absolute") {
    if (isFloatDType(dtype))
      return {v.type, {builder.create<mlir::math::AbsFOp>(l, v.leaves[0])}};
    if (dtype == DType::Bool || isUnsignedDType(dtype))
      return v;
    // NumPy's integer abs wraps (abs(INT64_MIN) stays negative).
    Value n = v.leaves[0];
    Value zero = constOf(n.getType(), 0);
    Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, n, zero);
    return {v.type, {builder.create<arith::SelectOp>(l, negative, builder.create<arith::SubIOp>(l, zero, n), n)}};
  }
  // float32 (and int16) results are computed in double and rounded once.
  DType result = dtype == DType::Float32 || dtype == DType::Int16 ? DType::Float32 : DType::Float64;
  Value f = castNumPy(v, DType::Float64).leaves[0];
  // NumPy's ufuncs follow IEEE: no exceptions (sqrt(-1) is nan, log(0) -inf).
  Value r = name == "sqrt" ? builder.create<mlir::math::SqrtOp>(l, f).getResult()
                           : callLibm(name == "arctan" ? "atan" : name.c_str(), {f});
  return castNumPy(Val{Type::numpy(DType::Float64), {r}}, result);
}

Val FunctionEmitter::emitElementwise(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  Val input = emitExpr(node.field(1).items.at(1));
  if (input.type.kind != Type::Kind::Array)
    return applyElementwise(name, input, l);
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < input.type.ndim; ++axis)
    sizes.push_back(dimension(input.leaves[0], axis));
  Value out = allocateArray(type, sizes, nullptr, l);
  forEachElement(input.leaves[0], input.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, input.leaves[0], indices),
                        input.type.dtype, l);
    builder.create<mlir::memref::StoreOp>(l, toStorage(applyElementwise(name, x, l), type.dtype, l),
                                          out, indices);
  });
  freeIfTemporary(input);
  return {type, {out}};
}

void FunctionEmitter::storeElement(const SExpr &subscript, const Val &value) {
  Val array = emitExpr(subscript.field(0));
  Location l = loc(subscript);
  // NumPy checks the index before converting the value.
  llvm::SmallVector<Value> indices = arrayIndices(subscript, array.leaves[0], array.type);
  Value stored = toStorage(value, array.type.dtype, l);
  builder.create<mlir::memref::StoreOp>(l, stored, array.leaves[0], indices);
}

Value FunctionEmitter::toStorage(const Val &value, DType dtype, mlir::Location l) {
  if (dtype == DType::Complex128) {
    Val c = castNumPy(value, dtype);
    return builder.create<mlir::complex::CreateOp>(l, module.storageType(dtype), c.leaves[0], c.leaves[1]);
  }
  Val element = value;
  bool toInteger = !isFloatDType(dtype) && dtype != DType::Bool;
  bool pythonFloat = value.type.kind == Type::Kind::Float;
  if (toInteger && value.type.isFloating() && (pythonFloat || !isUnsignedDType(dtype))) {
    // As NumPy stores a Python float (or a NumPy float into a signed
    // dtype) into an integer array: truncate, with errors for inf and NaN,
    // then the range check of a Python int. NumPy floats into unsigned
    // dtypes are C casts (below).
    Value f = convert(value, Type::floating()).leaves[0];
    Block *done = nullptr;
    if (dtype == DType::UInt64) {
      // uint64 also holds the Python ints in [2**63, 2**64).
      Value t = builder.create<mlir::math::TruncOp>(l, f);
      Value aboveInt64 = builder.create<arith::AndIOp>(
          l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGE, t, constFloat(9223372036854775808.0)),
          builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, t, constFloat(18446744073709551616.0)));
      Block *large = newBlock(), *other = newBlock();
      done = newBlock();
      done->addArgument(builder.getI64Type(), l);
      builder.create<mlir::cf::CondBranchOp>(l, aboveInt64, large, other);
      startBlock(large);
      builder.create<mlir::cf::BranchOp>(
          l, done, mlir::ValueRange{builder.create<arith::FPToUIOp>(l, builder.getI64Type(), t)});
      startBlock(other);
    }
    element = floatToInt(f, "plait_rt_float_to_int", "store_int_too_large");
    if (done) {
      checkPythonIntFits(element.leaves[0], dtype);
      builder.create<mlir::cf::BranchOp>(l, done, mlir::ValueRange{element.leaves[0]});
      startBlock(done);
      return done->getArgument(0);
    }
  }
  // Integers out of a signed dtype's range raise, NumPy's too (NumPy
  // stores an integer scalar by its value; into unsigned dtypes it wraps);
  // NumPy floats and bools are cast.
  const Type &from = element.type;
  if (from.isNumPy() && !isFloatDType(from.dtype) && from.dtype != DType::Bool &&
      !isFloatDType(dtype) && dtype != DType::Bool && !isUnsignedDType(dtype) &&
      from.dtype != dtype) {
    Value i = castNumPy(element, DType::Int64).leaves[0];
    if (from.dtype == DType::UInt64) // beyond int64: only uint64 holds it
      checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(0)),
                    PyError("OverflowError", module.options.message("store_int_too_large")),
                    {});
    checkPythonIntFits(i, dtype);
  }
  Value stored = weakToNumPy(element, dtype).leaves[0];
  if (dtype == DType::Bool)
    stored = builder.create<arith::ExtUIOp>(l, builder.getI8Type(), stored);
  return stored;
}

void FunctionEmitter::countedLoop(Value n, const std::function<void(Value)> &body) {
  // A loop of plait's own (over elements, say): a plait.for over range(n).
  Location l = builder.getUnknownLoc();
  auto loop = builder.create<dialect::ForOp>(l, constInt(0), n, constInt(1));
  Block *block = new Block();
  loop.getBody().push_back(block);
  Value k = block->addArgument(builder.getI64Type(), l);
  OpBuilder::InsertionGuard guard(builder);
  startBlock(block);
  body(k);
  if (!terminated())
    builder.create<dialect::ContinueOp>(l);
}

Val FunctionEmitter::emitNumpy(const SExpr &node, const std::string &name) {
  if (name == "sum" || name == "prod" || name == "min" || name == "max" || name == "amin" ||
      name == "amax" || name == "mean")
    return emitReduction(node, name);
  if (name == "dot")
    return emitDot(node);
  if (name == "sqrt" || name == "exp" || name == "log" || name == "sin" || name == "cos" ||
      name == "tan" || name == "arctan" || name == "abs" || name == "absolute")
    return emitElementwise(node, name);
  Type type = spec.typeOf(node);
  Location l = loc(node);
  std::vector<const SExpr *> args = node.field(1).rest();
  if (type.isNumPy()) { // np.float32(x), np.int8(x): NumPy's conversion
    if (args.empty())
      return zeroOf(type);
    uint64_t bits;
    if (bigUnsignedConstant(*args[0], bits))
      return {type, {constInt(static_cast<int64_t>(bits))}};
    Val value = emitExpr(*args[0]);
    if (value.type.kind == Type::Kind::Float && !isFloatDType(type.dtype) &&
        type.dtype != DType::Bool && type.dtype != DType::Complex128) // via a Python int: NaN and inf raise
      value = floatToInt(value.leaves[0], "plait_rt_float_to_int", "store_int_too_large");
    return weakToNumPy(value, type.dtype);
  }
  bool dtypeGiven = node.field(2).items.size() > 1;
  size_t positional = args.size();
  // Drop a positional dtype (the typer validated it).
  if (!dtypeGiven && ((name == "empty" || name == "zeros" || name == "ones") && positional == 2))
    args.resize(1);
  if (!dtypeGiven && name == "full" && positional == 3)
    args.resize(2);
  if (!dtypeGiven && name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0 &&
      positional == 2)
    args.resize(1);

  llvm::SmallVector<Value> sizes;
  if (name == "arange") {
    std::vector<Val> values;
    for (const SExpr *arg : args)
      values.push_back(emitExpr(*arg));
    bool anyFloat = false;
    for (const Val &v : values)
      anyFloat |= v.type.isFloating();
    Type domain = anyFloat ? Type::floating() : Type::integer();
    Val start = values.size() == 1 ? Val{domain, {anyFloat ? constFloat(0.0) : constInt(0)}}
                                   : convert(values[0], domain);
    Val stop = convert(values.size() == 1 ? values[0] : values[1], domain);
    Val step = values.size() == 3 ? convert(values[2], domain)
                                  : Val{domain, {anyFloat ? constFloat(1.0) : constInt(1)}};
    Value length;
    if (anyFloat) {
      check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, step.leaves[0], constFloat(0.0)),
            errorCode("ZeroDivisionError", "int_truediv_by_zero"));
      Value count = builder.create<mlir::math::CeilOp>(
          l, builder.create<arith::DivFOp>(
                 l, builder.create<arith::SubFOp>(l, stop.leaves[0], start.leaves[0]), step.leaves[0]));
      Value positive = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, count, constFloat(0.0));
      Value clamped = builder.create<arith::SelectOp>(l, positive, count, constFloat(0.0));
      length = floatToInt(clamped, "plait_rt_float_to_int").leaves[0];
    } else {
      check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, step.leaves[0], constInt(0)),
            errorCode("ZeroDivisionError", "int_truediv_by_zero"));
      Value positive = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, step.leaves[0], constInt(0));
      Value lo = builder.create<arith::SelectOp>(l, positive, start.leaves[0], stop.leaves[0]);
      Value hi = builder.create<arith::SelectOp>(l, positive, stop.leaves[0], start.leaves[0]);
      Value nonEmpty = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, lo, hi);
      Value span = builder.create<arith::SubIOp>(l, builder.create<arith::SubIOp>(l, hi, lo), constInt(1));
      Value absStep = builder.create<arith::SelectOp>(
          l, positive, step.leaves[0], builder.create<arith::SubIOp>(l, constInt(0), step.leaves[0]));
      Value trips = builder.create<arith::AddIOp>(l, builder.create<arith::DivUIOp>(l, span, absStep), constInt(1));
      length = builder.create<arith::SelectOp>(l, nonEmpty, trips, constInt(0));
    }
    sizes.push_back(length);
    Value flat = builder.create<mlir::memref::AllocOp>(
        l, mlir::MemRefType::get({mlir::ShapedType::kDynamic}, module.storageType(type.dtype)),
        mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length)});
    // NumPy fills float ranges as start + i * delta with delta computed as
    // (start + step) - start, which can differ from step in the last bit.
    Value delta = anyFloat ? builder.create<arith::SubFOp>(
                                 l, builder.create<arith::AddFOp>(l, start.leaves[0], step.leaves[0]),
                                 start.leaves[0]).getResult()
                           : step.leaves[0];
    countedLoop(length, [&](Value k) {
      Val element = anyFloat
          ? Val{domain, {builder.create<arith::AddFOp>(
                    l, start.leaves[0],
                    builder.create<arith::MulFOp>(
                        l, builder.create<arith::SIToFPOp>(l, builder.getF64Type(), k), delta))}}
          : Val{domain, {builder.create<arith::AddIOp>(
                    l, start.leaves[0], builder.create<arith::MulIOp>(l, k, step.leaves[0]))}};
      builder.create<mlir::memref::StoreOp>(
          l, toStorage(element, type.dtype, l), flat,
          mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
    });
    auto cast = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(type), flat, mlir::OpFoldResult(constIndexValue(0)),
        llvm::SmallVector<mlir::OpFoldResult>{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length).getResult()},
        llvm::SmallVector<mlir::OpFoldResult>{builder.getIndexAttr(1)});
    return {type, {cast}};
  }

  if (name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0) {
    Val like = emitExpr(*args[0]);
    for (int axis = 0; axis < like.type.ndim; ++axis)
      sizes.push_back(dimension(like.leaves[0], axis));
  } else {
    Val shape = emitExpr(*args[0]);
    Val asInts = shape.type.kind == Type::Kind::Tuple
                     ? shape
                     : Val{Type::tuple({shape.type}), shape.leaves};
    size_t offset = 0;
    for (const Type &t : asInts.type.elements) {
      Val part{t, {asInts.leaves[offset++]}};
      sizes.push_back(convert(part, Type::integer()).leaves[0]);
    }
  }
  std::optional<Val> fill;
  if (name == "zeros" || name == "zeros_like")
    fill = Val{Type::integer(), {constInt(0)}};
  else if (name == "ones" || name == "ones_like")
    fill = Val{Type::integer(), {constInt(1)}};
  else if (name == "full")
    fill = emitExpr(*args[1]);
  return {type, {allocateArray(type, sizes, fill ? &*fill : nullptr, l)}};
}

Value FunctionEmitter::allocateArray(const Type &type, llvm::ArrayRef<Value> sizes,
                                     const Val *fill, Location l) {
  // NumPy: "negative dimensions are not allowed"; sizes multiply without
  // overflowing the address space; a failed allocation is a MemoryError.
  PyError negative = PyError("ValueError", module.options.message("negative_dimensions"));
  PyError tooBig = PyError("MemoryError", module.options.message("array_too_big"));
  Value total = constInt(1);
  auto pair = mlir::LLVM::LLVMStructType::getLiteral(
      builder.getContext(), {builder.getI64Type(), builder.getI1Type()});
  for (Value size : sizes) {
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, size, constInt(0)), negative);
    Value both = builder.create<mlir::LLVM::SMulWithOverflowOp>(l, pair, total, size);
    check(builder.create<mlir::LLVM::ExtractValueOp>(l, both, llvm::ArrayRef<int64_t>{1}), tooBig);
    total = builder.create<mlir::LLVM::ExtractValueOp>(l, both, llvm::ArrayRef<int64_t>{0});
  }
  Value bytes = builder.create<mlir::LLVM::SMulWithOverflowOp>(
      l, pair, total, constInt(module.storageBytes(type.dtype)));
  check(builder.create<mlir::LLVM::ExtractValueOp>(l, bytes, llvm::ArrayRef<int64_t>{1}), tooBig);
  Value flat = builder.create<mlir::memref::AllocOp>(
      l, mlir::MemRefType::get({mlir::ShapedType::kDynamic}, module.storageType(type.dtype)),
      mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), total)});
  Value address = builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, flat);
  check(builder.create<arith::CmpIOp>(
            l, arith::CmpIPredicate::eq,
            builder.create<arith::IndexCastOp>(l, builder.getI64Type(), address), constInt(0)),
        tooBig);
  if (fill) {
    Value stored = toStorage(*fill, type.dtype, l);
    countedLoop(total, [&](Value k) {
      builder.create<mlir::memref::StoreOp>(
          l, stored, flat,
          mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
    });
  }
  // The C-contiguous (or Fortran-contiguous) N-D view of the allocation.
  llvm::SmallVector<mlir::OpFoldResult> viewSizes, viewStrides(sizes.size());
  for (Value size : sizes)
    viewSizes.push_back(builder.create<arith::IndexCastOp>(l, builder.getIndexType(), size).getResult());
  Value stride = constInt(1);
  size_t n = sizes.size();
  for (size_t step = 0; step < n; ++step) {
    size_t k = type.fortran ? step : n - 1 - step; // the unit-stride axis first
    if (step == 0)
      viewStrides[k] = builder.getIndexAttr(1);
    else
      viewStrides[k] = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), stride).getResult();
    stride = builder.create<arith::MulIOp>(l, stride, sizes[k]);
  }
  Value array = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), flat, mlir::OpFoldResult(constIndexValue(0)), viewSizes,
      viewStrides);
  temporaries.insert(array);
  return array;
}

Val FunctionEmitter::emitCall(const SExpr &node) {
  const SExpr &callee = node.field(0);
  std::string numpyName = typer.numpyFunction(spec, callee);
  if (!numpyName.empty())
    return emitNumpy(node, numpyName);
  if (callee.head() == "Attribute" && callee.field(1).text == "conjugate" &&
      spec.typeOf(callee.field(0)).isComplex()) {
    Val z = emitExpr(callee.field(0));
    return {z.type, {z.leaves[0], builder.create<arith::NegFOp>(loc(node), z.leaves[1])}};
  }
  std::string mathName;
  if (callee.head() == "Attribute")
    mathName = callee.field(1).text;
  NameBinding binding;
  if (callee.head() == "Name") {
    binding = typer.resolve(spec, callee.field(0).text);
    if (binding.kind == NameBinding::Kind::MathFunction)
      mathName = binding.name;
    if (binding.kind == NameBinding::Kind::Jit)
      return emitJitCall(node);
    if (binding.kind == NameBinding::Kind::Rendezvous) {
      std::vector<Value> args;
      const Type kinds[] = {Type::integer(), Type::integer(), Type::floating()};
      size_t i = 0;
      for (const SExpr *arg : node.field(1).rest())
        args.push_back(convert(emitExpr(*arg), kinds[i++]).leaves[0]);
      module.declare("plait_test_rendezvous",
                     builder.getFunctionType({builder.getI64Type(), builder.getI64Type(),
                                              builder.getF64Type()},
                                             {builder.getI32Type()}));
      Value met = builder
                      .create<mlir::func::CallOp>(loc(node), "plait_test_rendezvous",
                                                  mlir::TypeRange{builder.getI32Type()}, args)
                      .getResult(0);
      return {Type::boolean(), {builder.create<arith::CmpIOp>(
                                   loc(node), arith::CmpIPredicate::ne, met, constInt(0, 32))}};
    }
  }
  if (!mathName.empty()) {
    std::vector<Val> args;
    for (const SExpr *arg : node.field(1).rest())
      args.push_back(emitExpr(*arg));
    return emitMath(node, mathName, std::move(args));
  }
  return emitBuiltin(node, callee.field(0).text);
}

Val FunctionEmitter::emitMath(const SExpr &node, const std::string &name,
                              std::vector<Val> args) {
  Location l = loc(node);
  const MathFunctionInfo *info = lookupMathFunction(name);
  PyError domain = errorCode("ValueError", "math_domain");
  // Integer-valued functions keep int arguments exact.
  // (NumPy's integers have no __floor__: math.floor converts them to float.)
  if ((name == "floor" || name == "ceil" || name == "trunc") &&
      !args[0].type.isFloating() && !args[0].type.isNumPy())
    return convert(args[0], Type::integer());
  std::vector<Value> x;
  for (Val &arg : args)
    x.push_back(convert(arg, Type::floating()).leaves[0]);
  auto isNan = [&](Value v) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, v, v).getResult();
  };
  auto isInf = [&](Value v) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ,
                                         builder.create<mlir::math::AbsFOp>(l, v),
                                         constFloat(HUGE_VAL)).getResult();
  };
  auto logDomain = [&](Value v, double bound) {
    // CPython's loghelper: non-positive arguments are a domain error.
    check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLE, v, constFloat(bound)),
          domain);
  };
  if (name == "sqrt") {
    check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, x[0], constFloat(0.0)),
          domain);
    return {Type::floating(), {builder.create<mlir::math::SqrtOp>(l, x[0])}};
  }
  if (name == "fabs")
    return {Type::floating(), {builder.create<mlir::math::AbsFOp>(l, x[0])}};
  if (name == "floor")
    return floatToInt(x[0], "plait_rt_float_floor_to_int");
  if (name == "ceil")
    return floatToInt(x[0], "plait_rt_float_ceil_to_int");
  if (name == "trunc")
    return floatToInt(x[0], "plait_rt_float_to_int");
  if (name == "copysign")
    return {Type::floating(), {builder.create<mlir::math::CopySignOp>(l, x[0], x[1])}};
  if (name == "isnan")
    return {Type::boolean(), {isNan(x[0])}};
  if (name == "isinf")
    return {Type::boolean(), {isInf(x[0])}};
  if (name == "isfinite")
    return {Type::boolean(),
            {builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::ONE,
                                           builder.create<mlir::math::AbsFOp>(l, x[0]),
                                           constFloat(HUGE_VAL))}};
  if (name == "degrees")
    // CPython: radToDeg * x with radToDeg = 180 / pi (not x / degToRad).
    return {Type::floating(), {builder.create<arith::MulFOp>(l, constFloat(180.0 / M_PI), x[0])}};
  if (name == "radians")
    return {Type::floating(), {builder.create<arith::MulFOp>(l, constFloat(M_PI / 180.0), x[0])}};
  if (name == "pow") {
    // math.pow reports what ** raises as ValueError/OverflowError.
    PyError range = errorCode("OverflowError", "math_range");
    return callRuntimeFloat("plait_rt_float_pow", {x[0], x[1]},
                            {{PLAIT_NUMERIC_ZERO_POW_NEGATIVE, domain},
                             {PLAIT_NUMERIC_POW_COMPLEX, domain},
                             {PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW, domain},
                             {PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, range}});
  }
  if (name == "log" || name == "log2" || name == "log10") {
    logDomain(x[0], 0.0);
    Value r = callLibm(name.c_str(), {x[0]});
    if (x.size() == 2) {
      logDomain(x[1], 0.0);
      Value base = callLibm("log", {x[1]});
      check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, base, constFloat(0.0)),
            errorCode("ZeroDivisionError", "float_truediv_by_zero"));
      r = builder.create<arith::DivFOp>(l, r, base);
    }
    return {Type::floating(), {r}};
  }
  if (name == "log1p") {
    logDomain(x[0], -1.0);
    return {Type::floating(), {callLibm("log1p", {x[0]})}};
  }
  // The generic rule of CPython's math_1/math_2: NaN from non-NaN input is a
  // domain error; infinity from finite input overflows (or is a domain error).
  Value r = callLibm(info->libm, x);
  Value inputNan = isNan(x[0]);
  Value inputInf = isInf(x[0]);
  for (size_t k = 1; k < x.size(); ++k) {
    inputNan = builder.create<arith::OrIOp>(l, inputNan, isNan(x[k]));
    inputInf = builder.create<arith::OrIOp>(l, inputInf, isInf(x[k]));
  }
  Value one = constInt(1, 1);
  check(builder.create<arith::AndIOp>(l, isNan(r), builder.create<arith::XOrIOp>(l, inputNan, one)),
        domain);
  Value finiteInput = builder.create<arith::XOrIOp>(
      l, builder.create<arith::OrIOp>(l, inputNan, inputInf), one);
  check(builder.create<arith::AndIOp>(l, isInf(r), finiteInput),
        info->canOverflow ? errorCode("OverflowError", "math_range") : domain);
  return {Type::floating(), {r}};
}

Val FunctionEmitter::emitBuiltin(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  std::vector<Val> args;
  for (const SExpr *arg : node.field(1).rest())
    args.push_back(emitExpr(*arg));
  if (name == "abs" && args[0].type.isComplex() && !args[0].type.isNumPy())
    return {type, {complexAbs(args[0], /*checkOverflow=*/true)}};
  if (name == "abs" && args[0].type.isNumPy())
    return applyElementwise("abs", args[0], l);
  if (name == "complex") {
    if (args.empty())
      return {type, {constFloat(0.0), constFloat(0.0)}};
    if (args.size() == 1)
      return convert(args[0], type);
    return {type, {convert(args[0], Type::floating()).leaves[0], convert(args[1], Type::floating()).leaves[0]}};
  }
  if (name == "abs") {
    if (args[0].type.kind == Type::Kind::Float)
      return {type, {builder.create<mlir::math::AbsFOp>(l, args[0].leaves[0])}};
    Value v = convert(args[0], Type::integer()).leaves[0];
    Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, v, constInt(0));
    Value negated = intArith("Sub", constInt(0), v).leaves[0];
    return {type, {builder.create<arith::SelectOp>(l, negative, negated, v)}};
  }
  if (name == "min" || name == "max") {
    std::vector<Val> values;
    if (args.size() == 1) {
      size_t offset = 0;
      for (const Type &t : args[0].type.elements) {
        values.push_back(Val{t, {args[0].leaves[offset]}});
        offset += t.numLeaves();
      }
    } else {
      values = args;
    }
    return minMax(node, name == "min", values, type);
  }
  if (name == "round" && args.size() == 2 && args[1].type.kind != Type::Kind::None)
    return roundTo(args[0], convert(args[1], Type::integer()).leaves[0], l);
  if (name == "round") {
    if (!args[0].type.isFloating())
      return convert(args[0], Type::integer());
    args[0] = convert(args[0], Type::floating());
    module.declare("plait_rt_round_half_even",
                   builder.getFunctionType({builder.getF64Type()}, {builder.getF64Type()}));
    Value rounded = builder
                        .create<mlir::func::CallOp>(l, "plait_rt_round_half_even",
                                                    mlir::TypeRange{builder.getF64Type()},
                                                    mlir::ValueRange{args[0].leaves[0]})
                        .getResult(0);
    return floatToInt(rounded, "plait_rt_float_to_int");
  }
  if (name == "int") {
    if (args.empty())
      return {type, {constInt(0)}};
    if (args[0].type.isFloating())
      return floatToInt(convert(args[0], Type::floating()).leaves[0], "plait_rt_float_to_int");
    return convert(args[0], Type::integer());
  }
  if (name == "float") {
    if (args.empty())
      return {type, {constFloat(0.0)}};
    return convert(args[0], Type::floating());
  }
  if (name == "bool") {
    if (args.empty())
      return {type, {constInt(0, 1)}};
    return {type, {truth(args[0])}};
  }
  if (name == "divmod") {
    if (type.elements[0].isNumPy()) // NumPy's rules: no ZeroDivisionError
      return {type, {numpyArith(node, "FloorDiv", args[0], args[1]).leaves[0],
                     numpyArith(node, "Mod", args[0], args[1]).leaves[0]}};
    if (type.elements[0].kind == Type::Kind::Float) {
      Value a = convert(args[0], Type::floating()).leaves[0];
      Value b = convert(args[1], Type::floating()).leaves[0];
      if (!f64Out)
        f64Out = alloca(builder.getF64Type());
      Value second = alloca(builder.getF64Type());
      module.declare("plait_rt_float_divmod",
                     builder.getFunctionType({builder.getF64Type(), builder.getF64Type(),
                                              builder.getIndexType(), builder.getIndexType()},
                                             {builder.getI32Type()}));
      Value status = builder
                         .create<mlir::func::CallOp>(
                             l, "plait_rt_float_divmod", mlir::TypeRange{builder.getI32Type()},
                             mlir::ValueRange{a, b, outPointer(f64Out), outPointer(second)})
                         .getResult(0);
      checkRuntime(status, {{PLAIT_NUMERIC_FLOAT_DIVMOD_BY_ZERO,
                             errorCode("ZeroDivisionError", "float_divmod_by_zero")}});
      return {type, {builder.create<mlir::memref::LoadOp>(l, f64Out),
                     builder.create<mlir::memref::LoadOp>(l, second)}};
    }
    Value a = convert(args[0], Type::integer()).leaves[0];
    Value b = convert(args[1], Type::integer()).leaves[0];
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, b, constInt(0)),
          errorCode("ZeroDivisionError", "int_divmod_by_zero"));
    Val q = intArith("FloorDiv", a, b);
    Val r = intArith("Mod", a, b);
    return {type, {q.leaves[0], r.leaves[0]}};
  }
  if (name == "pow") {
    if (args.size() == 3) {
      std::vector<Value> ints;
      for (Val &arg : args)
        ints.push_back(convert(arg, Type::integer()).leaves[0]);
      return callRuntimeInt(
          "plait_rt_int_powmod", ints,
          {{PLAIT_NUMERIC_POWMOD_ZERO_MODULUS, errorCode("ValueError", "powmod_zero")},
           {PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT,
            errorCode("ValueError", "negative_int_exponent")}});
    }
    return emitBinary(node, "Pow", args[0], args[1]);
  }
  if (name == "len") {
    if (args[0].type.kind == Type::Kind::Array)
      return {type, {dimension(args[0].leaves[0], 0)}};
    return {type, {constInt(static_cast<int64_t>(args[0].type.elements.size()))}};
  }
  throw std::logic_error("internal: the typer let " + name + "() through");
}

Val FunctionEmitter::roundTo(const Val &x, Value ndigits, Location l) {
  const Type &t = x.type;
  if (t.kind == Type::Kind::Float)
    return callRuntimeFloat("plait_rt_float_round", {x.leaves[0], ndigits},
                            {{PLAIT_NUMERIC_ROUND_OVERFLOW, errorCode("OverflowError", "round_overflow")}});
  if (!t.isNumPy())
    return callRuntimeInt("plait_rt_int_round", {convert(x, Type::integer()).leaves[0], ndigits},
                          {{PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", "int_overflow")}});
  // NumPy's rounding: scale, rint, unscale in the float's own precision;
  // integers round through float64 when ndigits < 0 and are kept otherwise.
  bool f32 = t.dtype == DType::Float32;
  Val wide = f32 ? x : castNumPy(x, DType::Float64);
  Val rounded{wide.type, {callLibm(f32 ? "plait_rt_np_round_f32" : "plait_rt_np_round_f64",
                                   {wide.leaves[0], ndigits})}};
  if (isFloatDType(t.dtype))
    return rounded;
  Value keep = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, ndigits, constInt(0));
  return {t, {builder.create<arith::SelectOp>(l, keep, x.leaves[0], castNumPy(rounded, t.dtype).leaves[0])}};
}

Val FunctionEmitter::emitJitCall(const SExpr &node) {
  // The callee's specialisation and the arguments (defaults filled in) are
  // what typing resolved.
  const Specialization::JitCall &target = spec.jitCallOf(node);
  const Specialization &callee = *target.callee;
  llvm::SmallVector<Value> operands = {
      builder.create<arith::AddIOp>(loc(node), depth, constInt(1))};
  for (size_t i = 0; i < target.arguments.size(); ++i) {
    const SExpr *arg = target.arguments[i];
    bool isDefault = false;
    for (const SExpr &d : callee.source->defaults)
      isDefault |= &d == arg;
    Val value = isDefault ? constant(*arg, Typer::constantType(*arg)) : emitExpr(*arg);
    Val passed = convert(value, callee.arguments[i]);
    operands.append(passed.leaves.begin(), passed.leaves.end());
  }
  llvm::SmallVector<mlir::Type> results = {builder.getI32Type()};
  leafTypes(callee.result, results);
  auto call = builder.create<mlir::func::CallOp>(loc(node), callee.symbol, results,
                                                 operands);
  // Propagate the callee's error: codes are shared by the whole module.
  builder.create<dialect::CheckStatusOp>(loc(node), call.getResult(0));
  Val result{callee.result, {}};
  for (unsigned i = 1; i < call.getNumResults(); ++i)
    result.leaves.push_back(call.getResult(i));
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

EmittedModule emitModule(mlir::ModuleOp module, const Program &program,
                         int entryFunction,
                         const std::vector<Type> &argumentTypes,
                         const CompileOptions &options, uint64_t uniqueId) {
  module.getContext()->loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                                   mlir::LLVM::LLVMDialect, mlir::complex::ComplexDialect,
                                   mlir::cf::ControlFlowDialect, mlir::math::MathDialect,
                                   mlir::memref::MemRefDialect, dialect::PlaitDialect>();
  // The running CPython's messages travel with the module, for the
  // lowering of plait's operations.
  {
    mlir::Builder b(module.getContext());
    llvm::SmallVector<mlir::NamedAttribute> messages;
    for (llvm::StringRef key : dialect::loweringMessageKeys())
      messages.push_back(b.getNamedAttr(key, b.getStringAttr(options.message(key.str()))));
    module->setAttr(dialect::kMessagesAttrName, b.getDictionaryAttr(messages));
  }
  Typer typer(program, options, uniqueId);
  Specialization &entry = typer.run(entryFunction, argumentTypes);
  ModuleEmitter emitter(module, typer, options);
  OpBuilder b(module.getContext());

  EmittedModule result;
  result.argumentTypes = argumentTypes;
  result.resultType = entry.result;
  result.entrySymbol = "plait_entry_" + std::to_string(uniqueId);
  for (size_t i = 0; i < typer.specializations().size(); ++i) {
    Specialization &spec = typer.specializations()[i];
    result.mayRunLong |= spec.loops || spec.callsJit;
    FunctionEmitter(emitter, spec).emit(spec.symbol);
  }

  // The entry wrapper for the dispatcher: arguments as they are (scalars,
  // strided memrefs), results into 64-bit slots of a memref.
  b.setInsertionPointToEnd(module.getBody());
  Location l = b.getUnknownLoc();
  auto slotsType = mlir::MemRefType::get({mlir::ShapedType::kDynamic}, b.getI64Type());
  llvm::SmallVector<mlir::Type> wrapperInputs;
  for (const Type &t : argumentTypes)
    emitter.appendLeaves(t, wrapperInputs);
  size_t numArgumentLeaves = wrapperInputs.size();
  wrapperInputs.push_back(slotsType);
  auto wrapper = b.create<mlir::func::FuncOp>(
      l, result.entrySymbol, b.getFunctionType(wrapperInputs, {b.getI32Type()}));
  Block *body = wrapper.addEntryBlock();
  b.setInsertionPointToEnd(body);
  llvm::SmallVector<Value> operands = {b.create<arith::ConstantIntOp>(l, 0, 64)};
  for (size_t i = 0; i < numArgumentLeaves; ++i)
    operands.push_back(body->getArgument(i));
  Value resultSlots = body->getArgument(numArgumentLeaves);
  mlir::FunctionType entryType = emitter.signatureOf(entry);
  auto call = b.create<mlir::func::CallOp>(l, entry.symbol, entryType.getResults(), operands);
  int64_t slot = 0;
  auto store = [&](Value v) {
    // Floats by their bits; narrower values in the low bytes (the boxing
    // code reads them by type).
    if (auto f = v.getType().dyn_cast<mlir::FloatType>())
      v = b.create<arith::BitcastOp>(l, b.getIntegerType(f.getWidth()), v);
    if (v.getType().isIntOrIndex() && !v.getType().isIndex() &&
        v.getType().getIntOrFloatBitWidth() < 64)
      v = b.create<arith::ExtUIOp>(l, b.getI64Type(), v);
    else if (v.getType().isIndex())
      v = b.create<arith::IndexCastOp>(l, b.getI64Type(), v);
    Value index = b.create<arith::ConstantIndexOp>(l, slot++);
    b.create<mlir::memref::StoreOp>(l, v, resultSlots, mlir::ValueRange{index});
  };
  for (unsigned i = 1; i < call.getNumResults(); ++i) {
    Value v = call.getResult(i);
    if (!v.getType().isa<mlir::MemRefType>()) {
      store(v);
      continue;
    }
    // An array result: base address, offset, sizes, strides.
    store(b.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, v));
    auto metadata = b.create<mlir::memref::ExtractStridedMetadataOp>(l, v);
    store(metadata.getOffset());
    for (Value size : metadata.getSizes())
      store(size);
    for (Value stride : metadata.getStrides())
      store(stride);
  }
  b.create<mlir::func::ReturnOp>(l, call.getResult(0));
  for (size_t i = 0; i < argumentTypes.size(); ++i)
    result.writesArgument.push_back(argumentTypes[i].kind == Type::Kind::Array &&
                                    writesParameter(entry, entry.source->params[i]));

  return result;
}

} // namespace plait::frontend
