//===- ExecutionEngine.cpp - JIT-compile a module and call it -------------===//
#include "plait/ExecutionEngine/ExecutionEngine.h"
#include "plait/Pass/PassManager.h"
#include "plait/Passes/Passes.h"
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Support/LLVMCompat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <fstream>
#include <mutex>

namespace plait {
namespace {

void initializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Makes the process's own symbols (libc, libm) searchable by name.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  });
}

std::string printType(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}

ValueType toValueType(mlir::Type type) {
  ValueType result;
  result.text = printType(type);
  using Kind = ValueType::Kind;
  if (auto integer = type.dyn_cast<mlir::IntegerType>()) {
    unsigned width = integer.getWidth();
    if (width == 1) {
      result.kind = Kind::Bool;
    } else if (width == 8 || width == 16 || width == 32 || width == 64) {
      result.kind = Kind::Integer;
      result.bitWidth = width;
    }
  } else if (type.isIndex()) {
    result.kind = Kind::Index;
  } else if (type.isF32()) {
    result.kind = Kind::Float32;
  } else if (type.isF64()) {
    result.kind = Kind::Float64;
  } else if (type.isa<mlir::LLVM::LLVMPointerType>()) {
    result.kind = Kind::Pointer;
  } else if (auto memref = type.dyn_cast<mlir::MemRefType>()) {
    ValueType element = toValueType(memref.getElementType());
    if (element.kind != Kind::Unsupported && element.kind != Kind::Pointer &&
        element.kind != Kind::MemRef) {
      result.kind = Kind::MemRef;
      result.elementKind = element.kind;
      result.elementBitWidth = element.bitWidth;
      for (int64_t dim : memref.getShape())
        result.shape.push_back(mlir::ShapedType::isDynamic(dim)
                                   ? ValueType::kDynamic
                                   : dim);
      llvm::SmallVector<int64_t> strides;
      int64_t offset;
      // Arrays are passed with offset 0 from their first element, so a layout
      // must be strided with a dynamic or zero offset.
      if (mlir::failed(mlir::getStridesAndOffset(memref, strides, offset)) ||
          (!mlir::ShapedType::isDynamic(offset) && offset != 0)) {
        result.kind = Kind::Unsupported;
        return result;
      }
      for (int64_t stride : strides)
        result.strides.push_back(mlir::ShapedType::isDynamic(stride)
                                     ? ValueType::kDynamic
                                     : stride);
    }
  }
  return result;
}

/// The signature to marshal by: the builtin one recorded before lowering when
/// present, else the llvm.func's own.
FunctionSignature signatureOf(mlir::LLVM::LLVMFuncOp func) {
  FunctionSignature signature;
  signature.name = func.getName().str();
  if (auto recorded = func->getAttrOfType<mlir::TypeAttr>(kSignatureAttrName)) {
    if (auto type = recorded.getValue().dyn_cast<mlir::FunctionType>()) {
      for (mlir::Type input : type.getInputs())
        signature.arguments.push_back(toValueType(input));
      for (mlir::Type output : type.getResults())
        signature.results.push_back(toValueType(output));
      return signature;
    }
  }
  mlir::LLVM::LLVMFunctionType type = func.getFunctionType();
  for (mlir::Type param : type.getParams())
    signature.arguments.push_back(toValueType(param));
  if (!type.getReturnType().isa<mlir::LLVM::LLVMVoidType>())
    signature.results.push_back(toValueType(type.getReturnType()));
  return signature;
}

bool isRuntimeSymbol(const std::string &name) {
  for (const auto &symbol : getRuntimeSymbols())
    if (symbol.first == name)
      return true;
  return false;
}

bool isFullPipeline(const std::string &pipeline) {
  size_t start = pipeline.find_first_not_of(" \t\n");
  return start != std::string::npos &&
         pipeline.compare(start, 15, "builtin.module(") == 0;
}

/// Byte size (and alignment) of a value of `type` in memory.
size_t storageSize(const ValueType &type) {
  switch (type.kind) {
  case ValueType::Kind::Bool:
    return 1;
  case ValueType::Kind::Integer:
    return type.bitWidth / 8;
  case ValueType::Kind::Float32:
    return 4;
  case ValueType::Kind::MemRef:
    return (3 + 2 * type.rank()) * 8;
  default:
    return 8;
  }
}

size_t storageAlign(const ValueType &type) {
  return type.kind == ValueType::Kind::MemRef ? 8 : storageSize(type);
}

void checkSupported(const FunctionSignature &signature, const ValueType &type,
                    const char *what) {
  if (type.kind == ValueType::Kind::Unsupported)
    throw TypeMismatchError("function '" + signature.name + "' has " + what +
                            " of type '" + type.text +
                            "', which invoke() does not support");
}

void writeScalar(void *slot, const ValueType &type, const Value &value) {
  switch (type.kind) {
  case ValueType::Kind::Bool: {
    uint8_t byte = value.integer != 0;
    std::memcpy(slot, &byte, 1);
    return;
  }
  case ValueType::Kind::Integer:
    switch (type.bitWidth) {
    case 8: {
      int8_t v = static_cast<int8_t>(value.integer);
      std::memcpy(slot, &v, 1);
      return;
    }
    case 16: {
      int16_t v = static_cast<int16_t>(value.integer);
      std::memcpy(slot, &v, 2);
      return;
    }
    case 32: {
      int32_t v = static_cast<int32_t>(value.integer);
      std::memcpy(slot, &v, 4);
      return;
    }
    default:
      std::memcpy(slot, &value.integer, 8);
      return;
    }
  case ValueType::Kind::Float32: {
    float v = static_cast<float>(value.floating);
    std::memcpy(slot, &v, 4);
    return;
  }
  case ValueType::Kind::Float64:
    std::memcpy(slot, &value.floating, 8);
    return;
  default: // Index, Pointer
    std::memcpy(slot, &value.integer, 8);
    return;
  }
}

Value readScalar(const char *slot, const ValueType &type) {
  Value value;
  switch (type.kind) {
  case ValueType::Kind::Bool:
    value.integer = *reinterpret_cast<const uint8_t *>(slot) & 1;
    break;
  case ValueType::Kind::Integer:
    switch (type.bitWidth) {
    case 8:
      value.integer = *reinterpret_cast<const int8_t *>(slot);
      break;
    case 16: {
      int16_t v;
      std::memcpy(&v, slot, 2);
      value.integer = v;
      break;
    }
    case 32: {
      int32_t v;
      std::memcpy(&v, slot, 4);
      value.integer = v;
      break;
    }
    default:
      std::memcpy(&value.integer, slot, 8);
    }
    break;
  case ValueType::Kind::Float32: {
    float v;
    std::memcpy(&v, slot, 4);
    value.floating = v;
    break;
  }
  case ValueType::Kind::Float64:
    std::memcpy(&value.floating, slot, 8);
    break;
  default:
    std::memcpy(&value.integer, slot, 8);
  }
  return value;
}

} // namespace

unsigned ValueType::elementByteSize() const {
  ValueType scalar;
  scalar.kind = kind == Kind::MemRef ? elementKind : kind;
  scalar.bitWidth = kind == Kind::MemRef ? elementBitWidth : bitWidth;
  return static_cast<unsigned>(storageSize(scalar));
}

ExecutionEngine::ExecutionEngine() = default;
ExecutionEngine::~ExecutionEngine() = default;

std::unique_ptr<ExecutionEngine>
ExecutionEngine::create(const std::shared_ptr<Module> &module,
                        const Options &options) {
  if (options.optLevel > 3)
    throw InvalidArgumentError("opt_level must be 0, 1, 2 or 3, not " +
                               std::to_string(options.optLevel));
  for (const std::string &library : options.sharedLibs) {
    // Loaded globally (RTLD_GLOBAL) so the JIT's process-symbol search finds
    // their symbols.
    std::string error;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(library.c_str(),
                                                          &error))
      throw InvalidArgumentError("cannot load shared library '" + library +
                                 "': " + error);
  }
  initializeNativeTargetOnce();

  auto result = std::unique_ptr<ExecutionEngine>(new ExecutionEngine());
  Context &context = *module->getContext();
  {
    Context::Guard guard(context);
    Context::Capture capture(context);
    std::shared_ptr<Module> target = module;
    if (!options.pipeline.empty()) {
      target = module->clone();
      std::unique_ptr<PassManager> pm;
      if (isFullPipeline(options.pipeline)) {
        pm = PassManager::parse(module->getContext(), options.pipeline);
      } else {
        pm = std::make_unique<PassManager>(module->getContext());
        pm->addPipeline(options.pipeline);
      }
      pm->run(target->getOperation());
    }

    mlir::Operation *moduleOp = &target->getOperation().get();
    std::string undefined;
    moduleOp->walk([&](mlir::LLVM::LLVMFuncOp func) {
      std::string name = func.getName().str();
      if (!func.isExternal())
        result->functions[name].signature = signatureOf(func);
      else if (!isRuntimeSymbol(name) &&
               !llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name))
        undefined += (undefined.empty() ? "" : ", ") + name;
    });
    // Checked here because ORC only logs the names of missing symbols.
    if (!undefined.empty())
      capture.fail("Failure while creating the ExecutionEngine: undefined "
                   "symbols (load them with shared_libs): " + undefined);

    auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machineBuilder)
      throw MlirError("cannot target the host: " +
                          llvm::toString(machineBuilder.takeError()),
                      {});
    auto targetMachine = machineBuilder->createTargetMachine();
    if (!targetMachine)
      throw MlirError("cannot create a target machine: " +
                          llvm::toString(targetMachine.takeError()),
                      {});
    auto transformer = mlir::makeOptimizingTransformer(
        options.optLevel, /*sizeLevel=*/0, targetMachine->get());
    mlir::ExecutionEngineOptions engineOptions;
    engineOptions.transformer = transformer;
    engineOptions.enableObjectDump = true;
    // Registration with gdb/perf takes process-global locks per object.
    engineOptions.enableGDBNotificationListener = false;
    engineOptions.enablePerfNotificationListener = false;
    auto engine = mlir::ExecutionEngine::create(moduleOp, engineOptions);
    if (!engine) {
      std::string reason = llvm::toString(engine.takeError());
      capture.fail("Failure while creating the ExecutionEngine: " + reason);
    }
    result->engine = std::move(*engine);
  }

  // From here on only LLVM is involved: the context is free for others.
  result->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : getRuntimeSymbols())
      symbols[interner(name)] = compat::makeExportedSymbol(address);
    return symbols;
  });
  // Compile now (lookups materialise the module), so that calls never compile
  // and creation reports link errors.
  for (auto &[name, entry] : result->functions) {
    auto packed = result->engine->lookupPacked(name);
    if (!packed)
      throw MlirError("Failure while compiling '" + name +
                          "': " + llvm::toString(packed.takeError()),
                      {});
    entry.packed = *packed;
  }
  return result;
}

const FunctionSignature &
ExecutionEngine::getSignature(const std::string &name) const {
  auto it = functions.find(name);
  if (it == functions.end())
    throw NotFoundError("no function named '" + name +
                        "' in this ExecutionEngine");
  return it->second.signature;
}

std::vector<std::string> ExecutionEngine::functionNames() const {
  std::vector<std::string> names;
  for (const auto &entry : functions)
    names.push_back(entry.first);
  return names;
}

std::vector<Value> ExecutionEngine::invoke(const std::string &name,
                                           const std::vector<Value> &args) const {
  const FunctionSignature &signature = getSignature(name);
  void (*packed)(void **) = functions.at(name).packed;
  if (args.size() != signature.arguments.size())
    throw TypeMismatchError(name + "() takes " +
                            std::to_string(signature.arguments.size()) +
                            " arguments but " + std::to_string(args.size()) +
                            " were given");

  // One 8-byte slot per lowered argument (a memref expands to 3 + 2*rank).
  size_t leaves = 0;
  for (const ValueType &type : signature.arguments) {
    checkSupported(signature, type, "an argument");
    leaves += type.kind == ValueType::Kind::MemRef ? 3 + 2 * type.rank() : 1;
  }
  std::vector<uint64_t> slots(leaves);
  std::vector<void *> pointers;
  pointers.reserve(leaves + 1);
  size_t slot = 0;
  auto push = [&](const void *data, size_t size) {
    std::memcpy(&slots[slot], data, size);
    pointers.push_back(&slots[slot++]);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueType &type = signature.arguments[i];
    if (type.kind != ValueType::Kind::MemRef) {
      writeScalar(&slots[slot], type, args[i]);
      pointers.push_back(&slots[slot++]);
      continue;
    }
    const MemRefValue &memref = args[i].memref;
    if (memref.sizes.size() != static_cast<size_t>(type.rank()) ||
        memref.strides.size() != static_cast<size_t>(type.rank()))
      throw TypeMismatchError("argument " + std::to_string(i + 1) + " of " +
                              name + "() must have rank " +
                              std::to_string(type.rank()));
    for (int64_t d = 0; d < type.rank(); ++d) {
      int64_t expected = type.strides[d];
      // A size-1 dimension is never stepped over, so its stride is free.
      if (expected != ValueType::kDynamic && memref.sizes[d] > 1 &&
          memref.strides[d] != expected)
        throw InvalidArgumentError(
            "argument " + std::to_string(i + 1) + " of " + name +
            "() has stride " + std::to_string(memref.strides[d]) +
            " in dimension " + std::to_string(d) + " but " + type.text +
            " requires " + std::to_string(expected) +
            " (pass a contiguous array, or declare a strided layout such as "
            "strided<[?], offset: ?>)");
    }
    push(&memref.allocated, 8);
    push(&memref.aligned, 8);
    push(&memref.offset, 8);
    for (int64_t size : memref.sizes)
      push(&size, 8);
    for (int64_t stride : memref.strides)
      push(&stride, 8);
  }

  // Results come back as one struct laid out with natural alignment.
  std::vector<size_t> offsets;
  size_t total = 0;
  for (const ValueType &type : signature.results) {
    checkSupported(signature, type, "a result");
    size_t align = storageAlign(type);
    total = (total + align - 1) / align * align;
    offsets.push_back(total);
    total += storageSize(type);
  }
  std::vector<uint64_t> resultStorage((total + 7) / 8 + 1);
  if (!signature.results.empty())
    pointers.push_back(resultStorage.data());

  packed(pointers.data());

  const char *base = reinterpret_cast<const char *>(resultStorage.data());
  std::vector<Value> results;
  for (size_t i = 0; i < signature.results.size(); ++i) {
    const ValueType &type = signature.results[i];
    const char *field = base + offsets[i];
    if (type.kind != ValueType::Kind::MemRef) {
      results.push_back(readScalar(field, type));
      continue;
    }
    Value value;
    const int64_t *words = reinterpret_cast<const int64_t *>(field);
    std::memcpy(&value.memref.allocated, &words[0], 8);
    std::memcpy(&value.memref.aligned, &words[1], 8);
    value.memref.offset = words[2];
    for (int64_t d = 0; d < type.rank(); ++d) {
      value.memref.sizes.push_back(words[3 + d]);
      value.memref.strides.push_back(words[3 + type.rank() + d]);
    }
    results.push_back(std::move(value));
  }
  return results;
}

uintptr_t ExecutionEngine::lookup(const std::string &name) const {
  auto address = engine->lookup(name);
  if (!address) {
    llvm::consumeError(address.takeError());
    throw NotFoundError("no symbol named '" + name +
                        "' in this ExecutionEngine");
  }
  return reinterpret_cast<uintptr_t>(*address);
}

void ExecutionEngine::dumpToObjectFile(const std::string &path) const {
  {
    std::ofstream probe(path, std::ios::binary | std::ios::trunc);
    if (!probe)
      throw FileError("cannot write object file '" + path + "': " +
                               std::strerror(errno));
  }
  engine->dumpToObjectFile(path);
}

} // namespace plait
