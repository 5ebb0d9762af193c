// The DLPack part of the C ABI (ABI 1.3): export and import of both struct versions. The
// contract is in kernforge.h; the work is in tensor/dlpack.cpp (Note [DLPack ownership]).
#include "capi/startup.hpp"
#include "core/error.hpp"
#include "tensor/dlpack.hpp"
#include "tensor/tensor_impl.hpp"

namespace {

void require_arg(const void* p, const char* name, const char* fn) {
  if (p == nullptr) kf::fail(KF_INVALID_ARGUMENT, "{}: {} must not be NULL", fn, name);
}

}  // namespace

extern "C" {

KF_API kf_status_t kf_tensor_to_dlpack(kf_tensor_t t, DLManagedTensorVersioned** out) {
  return kf::guard([&] {
    kf::TensorImpl& x = kf::checked(t, "kf_tensor_to_dlpack");
    require_arg(out, "out", "kf_tensor_to_dlpack");
    *out = kf::to_dlpack(x);
  });
}

KF_API kf_status_t kf_tensor_to_dlpack_legacy(kf_tensor_t t, DLManagedTensor** out) {
  return kf::guard([&] {
    kf::TensorImpl& x = kf::checked(t, "kf_tensor_to_dlpack_legacy");
    require_arg(out, "out", "kf_tensor_to_dlpack_legacy");
    *out = kf::to_dlpack_legacy(x);
  });
}

KF_API kf_status_t kf_tensor_from_dlpack(DLManagedTensorVersioned* src, kf_tensor_t* out) {
  return kf::guard([&] {
    require_arg(src, "src", "kf_tensor_from_dlpack");
    require_arg(out, "out", "kf_tensor_from_dlpack");
    kf::ensure_initialized();  // the device check needs the loaded backends
    *out = kf::handle_of(kf::from_dlpack(src));
  });
}

KF_API kf_status_t kf_tensor_from_dlpack_legacy(DLManagedTensor* src, kf_tensor_t* out) {
  return kf::guard([&] {
    require_arg(src, "src", "kf_tensor_from_dlpack_legacy");
    require_arg(out, "out", "kf_tensor_from_dlpack_legacy");
    kf::ensure_initialized();
    *out = kf::handle_of(kf::from_dlpack_legacy(src));
  });
}

}  // extern "C"
