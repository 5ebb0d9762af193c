// Note [Call plans]
// The meta step and the kernel choice of a call depend only on the op, its tensors' dtypes,
// devices and shapes, its other arguments' values, and what is registered. So each thread keeps
// the last plan of a Functional call per op (a direct-mapped table): when the next call of that
// op matches it exactly, dispatch goes straight to allocating the outputs and calling the kernel.
// Plans are kept only for calls whose inputs reach the kernel as they are (same device, no
// conversion, no broadcasting, a kernel that takes strided inputs) and whose shape rule is one of
// the core's; every registration bumps a generation that makes all plans stale. The tiny-op
// budget lives on this path.
#pragma once

#include "device/backend.hpp"
#include "dispatch/call_args.hpp"
#include "dispatch/kernel_choice.hpp"
#include "dispatch/meta_result.hpp"

namespace kf {

struct CallPlan {
  MetaResult meta;
  const Backend* backend;
  KernelChoice choice;
};

/// The whole planned path of a Functional call of op `op` whose arguments carry their exact
/// tags (typed entry points, kf::ops): checks the tensor handles, matches the thread's plan,
/// allocates the outputs and calls the kernel, in one pass. Returns false, having done nothing,
/// when there is no matching plan or a functionality layer is active; throws like a call.
bool run_planned(int32_t op, const kf_value_t* args, TensorImpl** results);

/// Keeps the plan of a Functional call whose meta and choice were just computed, when it is
/// one that plans serve (see the Note). Never throws; may keep nothing.
void keep_plan(const CallArgs& a, const MetaResult& m, const Backend& b,
               const KernelChoice& c) noexcept;

}  // namespace kf
