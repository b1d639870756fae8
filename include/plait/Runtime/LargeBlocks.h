//===- LargeBlocks.h - memory for large arrays ------------------*- C++ -*-===//
//
// Compiled code allocates a new array per whole-array operation and frees
// it soon after (or NumPy frees the result). Fresh memory from the system
// faults once per page when first touched: a million doubles cost ~2000
// faults, more than computing them. A few recently freed large blocks are
// kept for the next allocation of a similar size, as CPython's and NumPy's
// allocators keep small ones.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_LARGEBLOCKS_H
#define PLAIT_RUNTIME_LARGEBLOCKS_H

#include <cstddef>

namespace plait {

/// malloc(bytes), served from the kept blocks when one fits; large blocks
/// get transparent huge pages where the system has them.
void *allocateBlock(size_t bytes);

/// free(block) for a block from allocateBlock or malloc; large ones are
/// kept (up to a bound) instead.
void freeBlock(void *block);

/// Adds huge-page advice to a large block malloc-like functions returned.
void adviseHugePages(void *block, size_t bytes);

} // namespace plait

#endif // PLAIT_RUNTIME_LARGEBLOCKS_H
