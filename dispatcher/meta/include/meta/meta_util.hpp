// Shared pieces of the meta functions: broadcasting, result_type, dim wrapping, reduction
// shapes. Each throws kf::Error(KF_INVALID_ARGUMENT) with a message naming the op and values.
#pragma once

#include <cstdint>

#include "dispatch/call_args.hpp"
#include "dispatch/meta_result.hpp"

namespace kf::meta {

/// Broadcasts `shape` into `out` (PyTorch's rules); `out` starts as the running result.
void broadcast_into(const char* op, OutputMeta& out, const TensorImpl& t);

/// PyTorch's result_type over tensors: dimensioned tensors outrank 0-dim ones of the same
/// category (bool < integral < floating < complex). Throws KF_INVALID_ARGUMENT, naming `op` and
/// both dtypes, when no dtype holds two of them (uint64 with a signed integer).
kf_dtype_t result_type(const char* op, const TensorImpl* const* tensors, int32_t n);

/// Scalar operands (scalar_operands.cpp): the 0-dim CPU tensors among the tensor ordinals of
/// `mask` whose dtype is not `to` are converted to it by Note [Scalars to dtypes]; throws
/// KF_INVALID_ARGUMENT naming the op, the argument and the value when one does not fit.
void check_scalar_operands(const CallArgs& a, uint32_t mask, kf_dtype_t to);
/// The same question without the throw: whether every one of them fits `to`.
bool scalar_operands_fit(const CallArgs& a, uint32_t mask, kf_dtype_t to);

/// dim in [-ndim, ndim) (a 0-dim tensor accepts -1 and 0), wrapped to [0, ndim).
int32_t wrap_dim(const char* op, int64_t dim, int32_t ndim);

/// Marks reduced dims: `dims` (none or empty = all) over a tensor of `ndim` dims.
void reduced_dims(const char* op, const IntListView* dims, int32_t ndim, bool reduce[KF_MAX_NDIM]);

/// The output shape of a reduction.
void reduce_shape(const TensorImpl& t, const bool reduce[KF_MAX_NDIM], bool keepdim,
                  OutputMeta& out);

/// Copies a tensor's shape into an output.
void same_shape(const TensorImpl& t, OutputMeta& out);

/// Sets the meta of an elementwise op over all tensor arguments.
void elementwise(const CallArgs& args, MetaResult& out, kf_dtype_t compute, kf_dtype_t result);

}  // namespace kf::meta
