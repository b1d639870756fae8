//===- RuntimeSymbols.cpp - native functions JIT-compiled code may call ---===//
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Runtime/ComplexMath.h"
#include "plait/Runtime/Dicts.h"
#include "plait/Runtime/LargeBlocks.h"
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/NumPyKernels.h"
#include "plait/Runtime/Parallel.h"
#include "plait/Runtime/Print.h"
#include "plait/Runtime/PyNumeric.h"
#include "plait/Runtime/Random.h"
#include "plait/Runtime/Strings.h"
#include "plait/Support/Rendezvous.h"

#include <algorithm>
#include <cstdlib>

extern "C" int32_t plait_test_rendezvous(int64_t barrierId,
                                         int64_t participants,
                                         double timeoutSeconds) {
  if (participants <= 0 || participants > 1 << 20)
    return 0;
  return plait::rendezvous(std::to_string(barrierId),
                           static_cast<unsigned>(participants), timeoutSeconds)
                 .met
             ? 1
             : 0;
}

namespace {
/// Values for the message of the error compiled code is about to report; set
/// and read on the same thread (the dispatcher raises on the calling thread).
thread_local std::array<int64_t, plait::kMaxErrorArguments> errorArguments;
} // namespace

extern "C" void plait_rt_set_error_arg(int64_t position, int64_t value) {
  if (position >= 0 && static_cast<size_t>(position) < errorArguments.size())
    errorArguments[position] = value;
}

namespace {
thread_local plait::AllocationArena *activeArena = nullptr;

/// Before every allocation of compiled code: its reference count, and how
/// far before the header the block malloc returned starts (alignment),
/// with kListBoxFlag set for a list's box, which owns its items.
struct alignas(16) AllocationHeader {
  int64_t references;
  int64_t paddingBefore;
};
constexpr int64_t kListBoxFlag = int64_t(1) << 62;
constexpr int64_t kDictBoxFlag = int64_t(1) << 61;
constexpr int64_t kBoxFlags = kListBoxFlag | kDictBoxFlag;
static_assert(sizeof(AllocationHeader) == 16, "keeps malloc's 16-byte alignment");

AllocationHeader *headerOf(void *allocated) {
  return static_cast<AllocationHeader *>(allocated) - 1;
}

void *track(void *allocated) {
  if (allocated && activeArena)
    activeArena->record(allocated);
  return allocated;
}
} // namespace

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  auto *header =
      static_cast<AllocationHeader *>(plait::allocateBlock(sizeof(AllocationHeader) + size));
  if (!header)
    return nullptr;
  *header = {1, 0};
  return track(header + 1);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  // The header sits just before the aligned block: a whole alignment unit
  // (at least the header's size) is reserved for it.
  size_t lead = std::max(alignment, sizeof(AllocationHeader));
  lead = (lead + alignof(AllocationHeader) - 1) / alignof(AllocationHeader) *
         alignof(AllocationHeader);
  size_t unit = std::max(alignment, alignof(AllocationHeader));
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t total = (lead + size + unit - 1) / unit * unit;
  auto *block = static_cast<char *>(std::aligned_alloc(unit, total));
  if (!block)
    return nullptr;
  plait::adviseHugePages(block, total);
  void *allocated = block + lead;
  *headerOf(allocated) = {1, static_cast<int64_t>(lead - sizeof(AllocationHeader))};
  return track(allocated);
}

extern "C" void _mlir_memref_to_llvm_free(void *allocated) {
  if (!allocated)
    return;
  if (activeArena)
    activeArena->release(allocated);
  plait::freeArrayAllocation(allocated);
}

// Atomic counts, ordered as shared_ptr's: a new reference is copied from a
// live one, so taking it needs no ordering; dropping one publishes this
// thread's writes through the array (release), and the drop of the last
// one sees them all (acquire) before it frees the memory.
extern "C" void plait_rt_array_retain(int64_t allocated) {
  if (allocated)
    __atomic_fetch_add(&headerOf(reinterpret_cast<void *>(allocated))->references, 1,
                       __ATOMIC_RELAXED);
}

extern "C" void plait_rt_array_release(int64_t allocated) {
  if (!allocated)
    return;
  AllocationHeader *header = headerOf(reinterpret_cast<void *>(allocated));
  if (__atomic_sub_fetch(&header->references, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  auto *words = reinterpret_cast<int64_t *>(allocated);
  if (header->paddingBefore & kListBoxFlag) { // the items go with the box
    plait::releaseListItems(words);
    plait_rt_array_release(words[plait::kListItems]);
  }
  if (header->paddingBefore & kDictBoxFlag) { // and a dict's entries and index
    plait::releaseDictEntries(words);
    plait_rt_array_release(words[plait::kDictEntries]);
    plait_rt_array_release(words[plait::kDictIndex]);
  }
  _mlir_memref_to_llvm_free(reinterpret_cast<void *>(allocated));
}

namespace plait {

void freeArrayAllocation(void *allocated) {
  // (The arena frees a box's items itself: they are allocations of the call.)
  AllocationHeader *header = headerOf(allocated);
  plait::freeBlock(reinterpret_cast<char *>(header) - (header->paddingBefore & ~kBoxFlags));
}

void markListBox(void *allocated) { headerOf(allocated)->paddingBefore |= kListBoxFlag; }

void markDictBox(void *allocated) { headerOf(allocated)->paddingBefore |= kDictBoxFlag; }

AllocationArena::AllocationArena() : previous(activeArena) { activeArena = this; }

AllocationArena::~AllocationArena() {
  activeArena = previous;
  // (No worker records any more: a parallel loop ends before its caller's
  // call does.)
  for (void *allocated : allocations)
    freeArrayAllocation(allocated);
}

void AllocationArena::record(void *pointer) {
  auto held = guard();
  allocations.push_back(pointer);
}

bool AllocationArena::release(void *pointer) {
  auto held = guard();
  // From the back: temporaries are freed soon after they are made.
  auto it = std::find(allocations.rbegin(), allocations.rend(), pointer);
  if (it == allocations.rend())
    return false;
  allocations.erase(std::next(it).base());
  return true;
}

AllocationArena *activeAllocationArena() { return activeArena; }

AdoptedArenaScope::AdoptedArenaScope(AllocationArena *arena) : previous(activeArena) {
  activeArena = arena;
}

AdoptedArenaScope::~AdoptedArenaScope() { activeArena = previous; }

std::array<int64_t, kMaxErrorArguments> lastErrorArguments() { return errorArguments; }

std::vector<std::pair<std::string, void *>> getRuntimeSymbols() {
#define PLAIT_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}
  return {PLAIT_SYMBOL(plait_test_rendezvous),
          PLAIT_SYMBOL(plait_rt_set_error_arg),
          PLAIT_SYMBOL(plait_rt_pairwise_sum_f64),
          PLAIT_SYMBOL(plait_rt_pairwise_sum_f32),
          PLAIT_SYMBOL(plait_rt_reduction_sum_f64),
          PLAIT_SYMBOL(plait_rt_reduction_sum_f32),
          PLAIT_SYMBOL(plait_rt_reduction_prod_f64),
          PLAIT_SYMBOL(plait_rt_reduction_prod_f32),
          PLAIT_SYMBOL(plait_rt_pairwise_sum_f16),
          PLAIT_SYMBOL(plait_rt_reduction_sum_f16),
          PLAIT_SYMBOL(plait_rt_reduction_prod_f16),
          PLAIT_SYMBOL(plait_rt_reduction_sum_f16_as_f32),
          PLAIT_SYMBOL(plait_rt_np_complex_div_f32),
          PLAIT_SYMBOL(plait_rt_pairwise_sum_c64),
          {"__truncdfhf2", reinterpret_cast<void *>(&plait_rt_truncdfhf2)},
          {"__truncsfhf2", reinterpret_cast<void *>(&plait_rt_truncsfhf2)},
          {"__extendhfsf2", reinterpret_cast<void *>(&plait_rt_extendhfsf2)},
          {"__extendhfdf2", reinterpret_cast<void *>(&plait_rt_extendhfdf2)},
          PLAIT_SYMBOL(plait_rt_np_floordiv_f64),
          PLAIT_SYMBOL(plait_rt_np_remainder_f64),
          PLAIT_SYMBOL(plait_rt_np_floordiv_f32),
          PLAIT_SYMBOL(plait_rt_np_remainder_f32),
          PLAIT_SYMBOL(plait_rt_np_int_pow),
          PLAIT_SYMBOL(plait_rt_py_complex_div),
          PLAIT_SYMBOL(plait_rt_py_complex_div_annex_g),
          PLAIT_SYMBOL(plait_rt_py_real_complex_div),
          PLAIT_SYMBOL(plait_rt_py_complex_mul_annex_g),
          PLAIT_SYMBOL(plait_rt_np_complex_div),
          PLAIT_SYMBOL(plait_rt_pairwise_sum_c128),
          PLAIT_SYMBOL(plait_rt_matmul),
          PLAIT_SYMBOL(plait_rt_linalg_solve),
          PLAIT_SYMBOL(plait_rt_linalg_inv),
          PLAIT_SYMBOL(plait_rt_linalg_det),
          PLAIT_SYMBOL(plait_rt_linalg_cholesky),
          PLAIT_SYMBOL(plait_rt_linalg_eigh),
          PLAIT_SYMBOL(plait_rt_linalg_lstsq),
          PLAIT_SYMBOL(plait_rt_linalg_norm),
          PLAIT_SYMBOL(plait_rt_linalg_norm_axis),
          PLAIT_SYMBOL(plait_rt_linalg_norm_axes),
          PLAIT_SYMBOL(_mlir_memref_to_llvm_alloc),
          PLAIT_SYMBOL(_mlir_memref_to_llvm_aligned_alloc),
          PLAIT_SYMBOL(_mlir_memref_to_llvm_free),
          PLAIT_SYMBOL(plait_rt_array_retain),
          PLAIT_SYMBOL(plait_rt_reshape_strides),
          PLAIT_SYMBOL(plait_rt_array_release),
          PLAIT_SYMBOL(plait_rt_list_init),
          PLAIT_SYMBOL(plait_rt_list_reserve),
          PLAIT_SYMBOL(plait_rt_list_copy),
          PLAIT_SYMBOL(plait_rt_str_of_int),
          PLAIT_SYMBOL(plait_rt_str_of_float),
          PLAIT_SYMBOL(plait_rt_str_format_int),
          PLAIT_SYMBOL(plait_rt_str_format_float),
          PLAIT_SYMBOL(plait_rt_str_format_str),
          PLAIT_SYMBOL(plait_rt_str_concat),
          PLAIT_SYMBOL(plait_rt_str_to_float),
          PLAIT_SYMBOL(plait_rt_str_number_text),
          PLAIT_SYMBOL(plait_rt_list_settle),
          PLAIT_SYMBOL(plait_rt_dict_init),
          PLAIT_SYMBOL(plait_rt_dict_find),
          PLAIT_SYMBOL(plait_rt_dict_insert),
          PLAIT_SYMBOL(plait_rt_dict_erase),
          PLAIT_SYMBOL(plait_rt_float_floordiv),
          PLAIT_SYMBOL(plait_rt_float_mod),
          PLAIT_SYMBOL(plait_rt_float_divmod),
          PLAIT_SYMBOL(plait_rt_float_pow),
          PLAIT_SYMBOL(plait_rt_int_pow),
          PLAIT_SYMBOL(plait_rt_int_powmod),
          PLAIT_SYMBOL(plait_rt_int_truediv),
          PLAIT_SYMBOL(plait_rt_cmp_int_float),
          PLAIT_SYMBOL(plait_rt_round_half_even),
          PLAIT_SYMBOL(plait_rt_float_round),
          PLAIT_SYMBOL(plait_rt_int_round),
          PLAIT_SYMBOL(plait_rt_np_round_f64),
          PLAIT_SYMBOL(plait_rt_np_round_f32),
          PLAIT_SYMBOL(plait_rt_float_to_int),
          PLAIT_SYMBOL(plait_rt_float_floor_to_int),
          PLAIT_SYMBOL(plait_rt_float_ceil_to_int),
          PLAIT_SYMBOL(plait_rt_print),
          PLAIT_SYMBOL(plait_rt_random_seed),
          PLAIT_SYMBOL(plait_rt_random_double),
          PLAIT_SYMBOL(plait_rt_random_gauss),
          PLAIT_SYMBOL(plait_rt_random_integer),
          PLAIT_SYMBOL(plait_rt_random_interval),
          PLAIT_SYMBOL(plait_rt_parallel_participants),
          PLAIT_SYMBOL(plait_rt_parallel_for),
#define PLAIT_COMPLEX_SYMBOLS(name) PLAIT_SYMBOL(plait_rt_##name), PLAIT_SYMBOL(plait_rt_##name##f),
          PLAIT_COMPLEX_MATH_FUNCTIONS(PLAIT_COMPLEX_SYMBOLS)
#undef PLAIT_COMPLEX_SYMBOLS
  };
#undef PLAIT_SYMBOL
}

} // namespace plait
