// Note [Written tensors that overlap]
// An Out call writes its out= tensors and an Inplace call writes self; a Functional call writes
// only outputs it has just allocated (so call plans, which serve Functional calls only, never
// meet a written tensor the caller gave). Before any kernel, composite or fallback runs, every
// Out and Inplace call passes check_written (from run_backend, below the functionality layers,
// which every dispatch path reaches), and the rule is:
//
//   1. A written tensor whose own elements share memory (a stride 0 of an expanded view, or
//      strides that map two indices to one location) is refused: which value would land there
//      is the kernel's accident. So are two written tensors that share memory, and an in-place
//      self that is None.
//   2. An input that is exactly a written tensor (same address, dtype, shape and strides) is
//      read where it lies when the op is pointwise (each output element reads only the input
//      element at its own index, before writing it) or when it is the self of an in-place op
//      (whose kernel is written for that). This is the in-place case: no copy, no temporary.
//   3. Any other input that shares memory with a written tensor (a shifted slice, a transposed
//      view, mm's out= one of its operands, a sum into a column of its input, a kf_tensor_from_blob
//      over the same bytes) is read from a copy made before the call: the result is the one the
//      op computes when its inputs are read before anything is written.
//
// So every overlap is computed correctly or refused; nothing returns KF_OK with values that
// depend on the order in which a kernel visits elements. Sharing is decided by memory, not by
// storage object: two tensors share memory when their byte spans (lowest to highest element
// address) intersect on one device. Tensors of different storages cannot share memory unless one
// of them is borrowed (kf_tensor_from_blob), so an out= call whose tensors come from different
// allocations pays a few pointer comparisons. Tensor[] arguments are not written and are not
// checked (no op takes one with a written tensor).
#pragma once

#include "dispatch/call_args.hpp"

namespace kf {

/// Applies the rule of the Note to an Out or Inplace call about to run: throws
/// KF_INVALID_ARGUMENT for case 1; returns true when the call may run as it is (no input
/// overlaps a written tensor except as case 2), false when some input must be read from a copy
/// (run_with_copied_inputs). `given`: the written tensors (Out: the outputs; Inplace: self).
bool check_written(const CallArgs& a, CallMode mode, TensorImpl* const* given);

/// Runs `run` on a copy of `a` in which every input that overlaps a written tensor (case 3 of
/// the Note) is replaced by a clone of it, made before anything is written.
void run_with_copied_inputs(const CallArgs& a, CallMode mode, TensorImpl* const* given,
                            TensorImpl** results, RunCall run);

}  // namespace kf
