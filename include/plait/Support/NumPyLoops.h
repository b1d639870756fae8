//===- NumPyLoops.h - how the running NumPy's complex loops round -*- C++ -*-===//
//
// NumPy's complex loops round differently on elements walked backwards (one
// run of them with a negative stride, its ufuncs' trivial path): some of its
// versions hand them to plain C loops (hypot, unfused products) instead of
// the SIMD ones. plait.numpy asks the running NumPy when it loads; compiled
// elementwise code and the runtime's norms then round as it does.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_NUMPYLOOPS_H
#define PLAIT_SUPPORT_NUMPYLOOPS_H

namespace plait {

/// Whether np.abs of a complex array walked backwards computes as walking
/// forwards (NumPy's SIMD formula) rather than with hypot.
bool numpyBackwardAbsAsForward(bool complex64);
/// Whether complex products walked backwards (x * y, x.conj() * x) fuse as
/// the forward SIMD loop does where the CPU has FMA.
bool numpyBackwardMultiplyAsForward(bool complex64);
/// Records what plait.numpy found. Until told: NumPy 2.3's loops (hypot for
/// both widths; complex64 products unfused).
void setNumPyBackwardWalks(bool complex64AbsAsForward, bool complex128AbsAsForward,
                           bool complex64MultiplyAsForward, bool complex128MultiplyAsForward);

} // namespace plait

#endif // PLAIT_SUPPORT_NUMPYLOOPS_H
