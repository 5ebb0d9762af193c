// stream_slots.cpp — streams and events over cudaStream_t and cudaEvent_t (slots.hpp).
#include "backend.hpp"
#include "cuda_check.hpp"
#include "kernel_scope.hpp"
#include "kernforge/plugin.hpp"
#include "slots.hpp"

namespace kf::cuda {
namespace {


cudaStream_t native(void* stream) { return static_cast<cudaStream_t>(stream); }
cudaEvent_t native_event(void* event) { return static_cast<cudaEvent_t>(event); }

}  // namespace

kf_status_t stream_create(void* state, int32_t device, void** out_stream) {
  if (out_stream == nullptr) return KF_INVALID_ARGUMENT;
  *out_stream = nullptr;
  return on_device(state, device, [&]() -> kf_status_t {
    cudaStream_t s = nullptr;
    KF_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                            KF_GPU_NAME(cudaStreamCreateWithFlags));
    *out_stream = s;
    return KF_OK;
  });
}

void stream_destroy(void* state, int32_t device, void* stream) {
  if (stream == nullptr) return;
  (void)on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaStreamDestroy(native(stream)), KF_GPU_NAME(cudaStreamDestroy));
    return KF_OK;
  });
}

kf_status_t stream_synchronize(void* state, int32_t device, void* stream) {
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(native(stream)),
                            KF_GPU_NAME(cudaStreamSynchronize));
    return KF_OK;
  });
}

kf_status_t event_create(void* state, int32_t device, void** out_event) {
  if (out_event == nullptr) return KF_INVALID_ARGUMENT;
  *out_event = nullptr;
  return on_device(state, device, [&]() -> kf_status_t {
    cudaEvent_t e = nullptr;
    KF_CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&e, cudaEventDefault),
                            KF_GPU_NAME(cudaEventCreateWithFlags));
    *out_event = e;
    return KF_OK;
  });
}

void event_destroy(void* state, int32_t device, void* event) {
  if (event == nullptr) return;
  (void)on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaEventDestroy(native_event(event)), KF_GPU_NAME(cudaEventDestroy));
    return KF_OK;
  });
}

kf_status_t event_record(void* state, int32_t device, void* event, void* stream) {
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaEventRecord(native_event(event), native(stream)),
                            KF_GPU_NAME(cudaEventRecord));
    return KF_OK;
  });
}

kf_status_t event_wait(void* state, int32_t device, void* stream, void* event) {
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(native(stream), native_event(event), 0),
                            KF_GPU_NAME(cudaStreamWaitEvent));
    return KF_OK;
  });
}

kf_status_t event_synchronize(void* state, int32_t device, void* event) {
  return on_device(state, device, [&]() -> kf_status_t {
    KF_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(native_event(event)),
                            KF_GPU_NAME(cudaEventSynchronize));
    return KF_OK;
  });
}

kf_status_t event_elapsed_ms(void* state, int32_t device, void* start, void* end,
                             double* out_ms) {
  if (out_ms == nullptr) return KF_INVALID_ARGUMENT;
  return on_device(state, device, [&]() -> kf_status_t {
    float ms = 0.0f;
    KF_CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, native_event(start), native_event(end)),
                            KF_GPU_NAME(cudaEventElapsedTime));
    *out_ms = ms;
    return KF_OK;
  });
}

kf_status_t event_query(void* state, int32_t device, void* event, int32_t* out_done) {
  if (out_done == nullptr) return KF_INVALID_ARGUMENT;
  return on_device(state, device, [&]() -> kf_status_t {
    const cudaError_t e = cudaEventQuery(native_event(event));
    if (e == cudaErrorNotReady) {
      *out_done = 0;
      return KF_OK;
    }
    KF_CUDA_RETURN_IF_ERROR(e, KF_GPU_NAME(cudaEventQuery));
    *out_done = 1;
    return KF_OK;
  });
}

}  // namespace kf::cuda
