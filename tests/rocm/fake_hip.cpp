// fake_hip.cpp — a stand-in HIP runtime, built as a library whose SONAME is libamdhip64.so.5
// with the real one's symbol versions (fake_hip.map), so that the rocm plugin's host logic runs
// on a machine without an AMD GPU: the rocm plugin's manifest preloads it from $ROCM_PATH/lib,
// and the plugin binds to it as to the real runtime. Devices are host memory; every call is
// synchronous; kernels cannot launch (hipLaunchKernel says hipErrorNoBinaryForGpu), so tests
// stay with what the slots and discovery do: device enumeration, memory, copies, streams,
// events, and errors.
//
// Its devices come from KF_FAKE_HIP_DEVICES, gfx names separated by commas (default "gfx90a");
// KF_FAKE_HIP_MEMORY caps the bytes hipMalloc and hipMallocAsync hand out (default 1 GiB), so
// that an out-of-memory answer can be asked for. kf_fake_hip_live() counts the allocations not
// yet freed (device and pinned host memory), read by the tests with dlsym.
#include <hip/hip_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

struct ihipStream_t {
  int device = 0;
};
struct ihipEvent_t {
  std::chrono::steady_clock::time_point at{};
  bool recorded = false;
};

namespace {

struct Fake {
  std::mutex m;
  std::vector<std::string> devices;
  std::unordered_map<void*, size_t> live;
  size_t used = 0, limit = size_t{1} << 30;
  hipError_t last = hipSuccess;
};

thread_local int current_device = 0;

Fake& fake() {
  static Fake* f = [] {
    auto* x = new Fake();
    const char* list = std::getenv("KF_FAKE_HIP_DEVICES");
    std::stringstream in(list != nullptr ? list : "gfx90a");
    for (std::string d; std::getline(in, d, ',');) {
      if (!d.empty()) x->devices.push_back(d);
    }
    if (const char* cap = std::getenv("KF_FAKE_HIP_MEMORY")) x->limit = std::strtoull(cap, 0, 10);
    return x;
  }();
  return *f;
}

hipError_t fail(hipError_t e) {
  std::lock_guard<std::mutex> lock(fake().m);
  fake().last = e;
  return e;
}

hipError_t take(void** ptr, size_t size) {
  Fake& f = fake();
  std::lock_guard<std::mutex> lock(f.m);
  if (ptr == nullptr) return f.last = hipErrorInvalidValue;
  if (f.used + size > f.limit) return f.last = hipErrorOutOfMemory;
  *ptr = std::malloc(size > 0 ? size : 1);
  f.live[*ptr] = size;
  f.used += size;
  return hipSuccess;
}

hipError_t give(void* ptr) {
  if (ptr == nullptr) return hipSuccess;
  Fake& f = fake();
  std::lock_guard<std::mutex> lock(f.m);
  const auto it = f.live.find(ptr);
  if (it == f.live.end()) return f.last = hipErrorInvalidDevicePointer;
  f.used -= it->second;
  f.live.erase(it);
  std::free(ptr);
  return hipSuccess;
}

}  // namespace

// Exported whatever the build's default visibility (HIP's headers declare the hip* functions
// visible; these have no declaration there).
#define FAKE_API __attribute__((visibility("default")))

extern "C" {

FAKE_API int64_t kf_fake_hip_live() {
  std::lock_guard<std::mutex> lock(fake().m);
  return static_cast<int64_t>(fake().live.size());
}

// What hipcc's objects call when the plugin is loaded and when a kernel is launched.
FAKE_API void** __hipRegisterFatBinary(const void*) {
  static void* module = nullptr;
  return &module;
}
FAKE_API void __hipRegisterFunction(void**, const void*, char*, const char*, unsigned int, void*,
                                    void*, void*, void*, int*) {}
FAKE_API void __hipUnregisterFatBinary(void**) {}
hipError_t __hipPushCallConfiguration(dim3, dim3, size_t, hipStream_t) { return hipSuccess; }
hipError_t __hipPopCallConfiguration(dim3*, dim3*, size_t*, hipStream_t*) { return hipSuccess; }
hipError_t hipLaunchKernel(const void*, dim3, dim3, void**, size_t, hipStream_t) {
  return fail(hipErrorNoBinaryForGpu);
}

hipError_t hipInit(unsigned int) { return hipSuccess; }
hipError_t hipRuntimeGetVersion(int* v) {
  *v = 50221153;
  return hipSuccess;
}
hipError_t hipDriverGetVersion(int* v) {
  *v = 50221153;
  return hipSuccess;
}
hipError_t hipGetDeviceCount(int* count) {
  *count = static_cast<int>(fake().devices.size());
  return *count > 0 ? hipSuccess : hipErrorNoDevice;
}
hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device) {
  if (device < 0 || device >= static_cast<int>(fake().devices.size())) {
    return fail(hipErrorInvalidDevice);
  }
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "Fake AMD GPU %d", device);
  std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s:sramecc+:xnack-",
                fake().devices[device].c_str());
  p->totalGlobalMem = fake().limit;
  p->multiProcessorCount = 104;
  p->memoryBusWidth = 4096;
  p->major = 9;
  return hipSuccess;
}
hipError_t hipGetDevice(int* device) {
  *device = current_device;
  return hipSuccess;
}
hipError_t hipSetDevice(int device) {
  if (device < 0 || device >= static_cast<int>(fake().devices.size())) {
    return fail(hipErrorInvalidDevice);
  }
  current_device = device;
  return hipSuccess;
}
hipError_t hipDeviceSynchronize() { return hipSuccess; }
hipError_t hipGetLastError() {
  std::lock_guard<std::mutex> lock(fake().m);
  const hipError_t e = fake().last;
  fake().last = hipSuccess;
  return e;
}
const char* hipGetErrorName(hipError_t e) {
  switch (e) {
    case hipSuccess: return "hipSuccess";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorInvalidDevicePointer: return "hipErrorInvalidDevicePointer";
    case hipErrorNoBinaryForGpu: return "hipErrorNoBinaryForGpu";
    case hipErrorNoDevice: return "hipErrorNoDevice";
    case hipErrorNotReady: return "hipErrorNotReady";
    default: return "hipErrorUnknown";
  }
}
const char* hipGetErrorString(hipError_t e) { return hipGetErrorName(e); }

hipError_t hipMalloc(void** ptr, size_t size) { return take(ptr, size); }
hipError_t hipFree(void* ptr) { return give(ptr); }
hipError_t hipMallocAsync(void** ptr, size_t size, hipStream_t) { return take(ptr, size); }
hipError_t hipFreeAsync(void* ptr, hipStream_t) { return give(ptr); }
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int) { return take(ptr, size); }
hipError_t hipHostFree(void* ptr) { return give(ptr); }
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attr, const void* ptr) {
  std::lock_guard<std::mutex> lock(fake().m);
  if (fake().live.count(const_cast<void*>(ptr)) == 0) return fake().last = hipErrorInvalidValue;
  std::memset(attr, 0, sizeof *attr);
  return hipSuccess;
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind,
                          hipStream_t) {
  std::memmove(dst, src, bytes);
  return hipSuccess;
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t) {
  std::memset(dst, value, bytes);
  return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned int) {
  *s = new ihipStream_t{current_device};
  return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t s) {
  delete s;
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int) { return hipSuccess; }
hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned) {
  *e = new ihipEvent_t();
  return hipSuccess;
}
hipError_t hipEventDestroy(hipEvent_t e) {
  delete e;
  return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t e, hipStream_t) {
  e->at = std::chrono::steady_clock::now();
  e->recorded = true;
  return hipSuccess;
}
hipError_t hipEventQuery(hipEvent_t) { return hipSuccess; }
hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (!start->recorded || !stop->recorded) return fail(hipErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
  return hipSuccess;
}

}  // extern "C"
