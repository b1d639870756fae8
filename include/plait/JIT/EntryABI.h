//===- EntryABI.h - how callers pass arguments to compiled code -*- C++ -*-===//
//
// Every executor has one native entry, `void entry_packed(void **slots)`,
// whatever its signature. Slot k points at the k-th lowered argument of the
// compiled function, then come the five fields of the results buffer (a
// memref<?xi64>), then an int32 status. What each value lowers to is
// defined here once, for the compiler that builds the entry and for every
// caller (the dispatcher, the C++ tests).
//
//   scalar        1 slot: int64 / double / bool / the low bytes of a NumPy
//                 scalar (a complex value: 2 slots, real then imaginary)
//   array         3 + 2 * ndim slots: allocated and aligned pointers, offset,
//                 sizes..., strides... (in elements), a memref descriptor
//   results       the value words of the result (resultWords), written by
//                 the callee into the caller's buffer
//   status        0, or 1 + the index of the error site that was raised
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_ENTRYABI_H
#define PLAIT_JIT_ENTRYABI_H

#include "plait/Frontend/Frontend.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plait::jit::abi {

/// The slots an argument of `type` takes.
size_t argumentSlots(const frontend::Type &type);
/// All the slots of an entry with these argument types: theirs, then the
/// results descriptor's and the status's.
size_t packedSlots(const std::vector<frontend::Type> &argumentTypes);

/// The 64-bit words a result of `type` takes in the results buffer: an
/// array's base pointer, offset, sizes and strides; a complex's two parts;
/// a tuple's elements in order; one word otherwise (also for None, for
/// which nothing is written).
size_t resultWords(const frontend::Type &type);

/// The results memref<?xi64> over the caller's buffer of `words` words:
/// allocated and aligned pointers, offset, size, stride, in slot order.
struct ResultsDescriptor {
  static constexpr size_t kSlots = 5;
  int64_t fields[kSlots];
  ResultsDescriptor(int64_t *buffer, size_t words)
      : fields{reinterpret_cast<int64_t>(buffer), reinterpret_cast<int64_t>(buffer), 0,
               static_cast<int64_t>(words), 1} {}
};

/// The slots of the results descriptor and the status, after the arguments'.
constexpr size_t kTrailingSlots = ResultsDescriptor::kSlots + 1;

} // namespace plait::jit::abi

#endif // PLAIT_JIT_ENTRYABI_H
