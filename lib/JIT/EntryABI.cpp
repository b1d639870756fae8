//===- EntryABI.cpp - how callers pass arguments to compiled code ---------===//
#include "plait/JIT/EntryABI.h"

#include <algorithm>

namespace plait::jit::abi {

using frontend::Type;

size_t argumentSlots(const Type &type) {
  switch (type.kind) {
  case Type::Kind::Array:
    return 3 + 2 * static_cast<size_t>(type.ndim);
  case Type::Kind::List: // its box: a 1-D memref
  case Type::Kind::Str:
  case Type::Kind::Dict:
    return 5;
  case Type::Kind::Tuple:
  case Type::Kind::Function: {
    size_t slots = 0;
    for (const Type &element : type.elements)
      slots += argumentSlots(element);
    return slots;
  }
  case Type::Kind::DType:
  case Type::Kind::String:
  case Type::Kind::None:
    return 0; // known when compiling
  default:
    return type.isComplex() ? 2 : 1;
  }
}

size_t packedSlots(const std::vector<Type> &argumentTypes) {
  size_t slots = kTrailingSlots;
  for (const Type &type : argumentTypes)
    slots += argumentSlots(type);
  return slots;
}

size_t resultWords(const Type &type) {
  switch (type.kind) {
  case Type::Kind::None:
  case Type::Kind::Bottom:
    return 1;
  case Type::Kind::Array:
    return 2 + 2 * static_cast<size_t>(type.ndim);
  case Type::Kind::List: // its box: aligned pointer, offset, size, stride
  case Type::Kind::Str:
  case Type::Kind::Dict:
    return 4;
  case Type::Kind::Tuple: {
    size_t total = 0;
    for (const Type &element : type.elements)
      total += resultWords(element);
    return std::max<size_t>(total, 1);
  }
  default:
    return type.isComplex() ? 2 : 1;
  }
}

} // namespace plait::jit::abi
