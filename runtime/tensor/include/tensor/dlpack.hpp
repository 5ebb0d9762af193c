// DLPack exchange: a tensor as a DLPack managed tensor (export) and a DLPack managed tensor as a
// tensor over the same memory (import). The C ABI's contract is in kernforge.h (section
// "DLPack"); this is the core's side of it.
//
// Note [DLPack ownership]
// Export: the managed tensor's manager_ctx holds one reference to the exported TensorImpl; its
// deleter drops it and frees the managed tensor, whose shape and strides arrays are part of the
// same allocation. Import: the tensor is a borrowed one (new_borrowed, Note [Memory of
// kf_tensor_from_blob]) whose deleter context is the managed tensor, so the storage's release
// calls the managed tensor's own deleter once, however many views shared it. Every check runs
// before the borrowed tensor is made: when any throws, the caller still owns the managed tensor.
#pragma once

#include "kernforge/dlpack.h"
#include "tensor/tensor_impl.hpp"

namespace kf {

/// A new versioned managed tensor over `t`'s memory (one more reference to `t`).
DLManagedTensorVersioned* to_dlpack(TensorImpl& t);
/// The same as the unversioned struct.
DLManagedTensor* to_dlpack_legacy(TensorImpl& t);

/// A borrowed tensor over `src`'s memory that owns `src` from now on; throws (and leaves `src`
/// to the caller) when kernforge cannot use it as it is.
TensorImpl* from_dlpack(DLManagedTensorVersioned* src);
/// The same for the unversioned struct.
TensorImpl* from_dlpack_legacy(DLManagedTensor* src);

}  // namespace kf
