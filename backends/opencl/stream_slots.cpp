#include "stream_slots.hpp"

#include <mutex>
#include <new>
#include <string>

#include "backend.hpp"
#include "cl_status.hpp"

namespace kf::opencl {
namespace {

/// An event: the marker of its last record. `mutex` guards `marker` (records and waits may
/// come from different threads); users take their own reference before using it.
struct ClEvent {
  std::mutex mutex;
  cl_event marker = nullptr;
};

/// The event's current marker with a reference of the caller's, or nullptr (never recorded).
cl_event take_marker(void* event) {
  auto* e = static_cast<ClEvent*>(event);
  std::lock_guard<std::mutex> lock(e->mutex);
  if (e->marker != nullptr) clRetainEvent(e->marker);
  return e->marker;
}

kf_status_t failed(const char* what, cl_int e) {
  report(cl_failure(what, e));
  return cl_status(e);
}

}  // namespace

kf_status_t stream_create(void* state, int32_t device, void** out_stream) {
  if (out_stream == nullptr) return KF_INVALID_ARGUMENT;
  *out_stream = nullptr;
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  auto* s = new (std::nothrow) ClStream;
  if (s == nullptr) return KF_OUT_OF_MEMORY;
  s->device = device;
  const cl_int e = d->new_queue(&s->queue);
  if (e != CL_SUCCESS) {
    delete s;
    return failed("clCreateCommandQueueWithProperties", e);
  }
  *out_stream = s;
  return KF_OK;
}

void stream_destroy(void* state, int32_t device, void* stream) {
  auto* s = static_cast<ClStream*>(stream);
  if (s == nullptr) return;
  if (ClDevice* d = backend_of(state)->get(device)) d->forget_queue(s->queue);
  clFinish(s->queue);
  clReleaseCommandQueue(s->queue);
  delete s;
}

kf_status_t stream_synchronize(void* state, int32_t device, void* stream) {
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr) return KF_INVALID_ARGUMENT;
  const cl_int e = clFinish(d->queue(stream));
  return e == CL_SUCCESS ? KF_OK : failed("clFinish", e);
}

kf_status_t event_create(void* state, int32_t device, void** out_event) {
  if (out_event == nullptr) return KF_INVALID_ARGUMENT;
  *out_event = nullptr;
  if (device_or_report(state, device) == nullptr) return KF_INVALID_ARGUMENT;
  auto* e = new (std::nothrow) ClEvent;
  if (e == nullptr) return KF_OUT_OF_MEMORY;
  *out_event = e;
  return KF_OK;
}

void event_destroy(void* /*state*/, int32_t /*device*/, void* event) {
  auto* e = static_cast<ClEvent*>(event);
  if (e == nullptr) return;
  if (e->marker != nullptr) clReleaseEvent(e->marker);
  delete e;
}

kf_status_t event_record(void* state, int32_t device, void* event, void* stream) {
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr || event == nullptr) return KF_INVALID_ARGUMENT;
  cl_command_queue q = d->queue(stream);
  cl_event marker = nullptr;
  cl_int e = clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker);
  // Flushed, so another queue waiting for the marker cannot wait for a batch never sent.
  if (e == CL_SUCCESS) e = clFlush(q);
  if (e != CL_SUCCESS) {
    if (marker != nullptr) clReleaseEvent(marker);
    return failed("clEnqueueMarkerWithWaitList", e);
  }
  auto* ev = static_cast<ClEvent*>(event);
  std::lock_guard<std::mutex> lock(ev->mutex);
  if (ev->marker != nullptr) clReleaseEvent(ev->marker);
  ev->marker = marker;
  return KF_OK;
}

kf_status_t event_wait(void* state, int32_t device, void* stream, void* event) {
  ClDevice* d = device_or_report(state, device);
  if (d == nullptr || event == nullptr) return KF_INVALID_ARGUMENT;
  cl_event marker = take_marker(event);
  if (marker == nullptr) return KF_OK;  // never recorded: nothing to wait for
  cl_command_queue q = d->queue(stream);
  cl_int e = clEnqueueBarrierWithWaitList(q, 1, &marker, nullptr);
  if (e == CL_SUCCESS) e = clFlush(q);
  clReleaseEvent(marker);
  return e == CL_SUCCESS ? KF_OK : failed("clEnqueueBarrierWithWaitList", e);
}

kf_status_t event_synchronize(void* /*state*/, int32_t /*device*/, void* event) {
  if (event == nullptr) return KF_INVALID_ARGUMENT;
  cl_event marker = take_marker(event);
  if (marker == nullptr) return KF_OK;
  const cl_int e = clWaitForEvents(1, &marker);
  clReleaseEvent(marker);
  return e == CL_SUCCESS ? KF_OK : failed("clWaitForEvents", e);
}

kf_status_t event_query(void* /*state*/, int32_t /*device*/, void* event, int32_t* out_done) {
  if (event == nullptr || out_done == nullptr) return KF_INVALID_ARGUMENT;
  cl_event marker = take_marker(event);
  if (marker == nullptr) {
    *out_done = 1;
    return KF_OK;
  }
  cl_int status = CL_COMPLETE;
  const cl_int e = clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                  &status, nullptr);
  clReleaseEvent(marker);
  if (e != CL_SUCCESS) return failed("clGetEventInfo", e);
  if (status < 0) return failed("the queued work before the event", status);
  *out_done = status == CL_COMPLETE ? 1 : 0;
  return KF_OK;
}

kf_status_t event_elapsed_ms(void* /*state*/, int32_t /*device*/, void* start, void* end,
                             double* out_ms) {
  if (start == nullptr || end == nullptr || out_ms == nullptr) return KF_INVALID_ARGUMENT;
  cl_event a = take_marker(start), b = take_marker(end);
  kf_status_t s = KF_OK;
  cl_ulong ta = 0, tb = 0;
  if (a == nullptr || b == nullptr) {
    report("elapsed time between events needs both recorded");
    s = KF_FAILED_PRECONDITION;
  } else {
    cl_int e = clWaitForEvents(1, &b);
    if (e == CL_SUCCESS) {
      e = clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_END, sizeof ta, &ta, nullptr);
    }
    if (e == CL_SUCCESS) {
      e = clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, sizeof tb, &tb, nullptr);
    }
    if (e != CL_SUCCESS) s = failed("clGetEventProfilingInfo", e);
  }
  if (a != nullptr) clReleaseEvent(a);
  if (b != nullptr) clReleaseEvent(b);
  if (s == KF_OK) *out_ms = (static_cast<double>(tb) - static_cast<double>(ta)) / 1e6;
  return s;
}

}  // namespace kf::opencl
