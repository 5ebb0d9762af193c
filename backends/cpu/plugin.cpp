// plugin.cpp — the CPU backend's kf_plugin_t, the only exported symbol (kf_plugin_get).
//
// Memory is plain host memory, 64-byte aligned blocks of the aligned nothrow operator new (which
// the allocation-failure sweep of tests/oom replaces, so a CPU allocation fails there like any
// host one: tests/oom/alloc_fault.hpp); copies of every kind are memmove, and copy and memset
// are the SDK's host-memory slots (kernforge/host_memory.hpp). The backend is synchronous,
// keeps no per-device state (init stores no state) and is thread-safe.
#if KF_CPU_HAVE_OPENBLAS
#include <cblas.h>
#endif
#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <unistd.h>
#endif

#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <thread>

#include "cpu_isa.hpp"
#include "gemm_engine.hpp"
#include "kernels.hpp"
#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_families.hpp"
#include "kernforge/plugin_table.hpp"
#include "parallel.hpp"
#include "simd_math.hpp"

#ifndef KF_CPU_VERSION
#define KF_CPU_VERSION "0.0.0"
#endif

namespace kf::cpu {
namespace {

constexpr size_t kAlignment = KF_HOST_MEMORY_ALIGNMENT;

int32_t cpu_score(void) { return 1; }

kf_status_t cpu_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  if (out_state != nullptr) *out_state = nullptr;
  return KF_OK;
}

void cpu_shutdown(void* /*state*/) {}

int32_t cpu_device_count(void* /*state*/) { return 1; }

/// Physical memory of the machine in bytes, 0 when the system does not say.
uint64_t physical_memory() {
#if defined(_WIN32)
  MEMORYSTATUSEX status{};
  status.dwLength = sizeof(status);
  return GlobalMemoryStatusEx(&status) ? static_cast<uint64_t>(status.ullTotalPhys) : 0;
#else
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0
             ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size)
             : 0;
#endif
}

kf_status_t cpu_device_properties(void* /*state*/, int32_t device, kf_device_properties_t* out) {
  if (out == nullptr || device != 0) {
    kf::plugin::set_error("cpu: no device " + std::to_string(device) + " (the cpu has device 0)");
    return KF_INVALID_ARGUMENT;
  }
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, "cpu", sizeof(out->name) - 1);
  out->total_memory = physical_memory();
  const unsigned threads = std::thread::hardware_concurrency();
  out->compute_units = threads > 0 ? static_cast<int32_t>(threads) : 1;
  return KF_OK;
}

kf_status_t cpu_allocate(void* /*state*/, int32_t /*device*/, size_t bytes, void** out_ptr) {
  if (out_ptr == nullptr) return KF_INVALID_ARGUMENT;
  *out_ptr = nullptr;
  // bytes == 0 still gets a unique block; sizes round up to whole cache lines.
  const size_t rounded =
      bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = rounded < bytes ? nullptr
                            : ::operator new(rounded, std::align_val_t{kAlignment}, std::nothrow);
  if (p == nullptr) {
    // No std::string here: there is no memory to build one.
    char message[96];
    std::snprintf(message, sizeof(message), "cpu: cannot allocate %zu bytes of host memory",
                  bytes);
    kf::plugin::host()->set_error(message);
    return KF_OUT_OF_MEMORY;
  }
  *out_ptr = p;
  return KF_OK;
}

void cpu_deallocate(void* /*state*/, int32_t /*device*/, void* ptr, size_t /*bytes*/) {
  ::operator delete(ptr, std::align_val_t{kAlignment});
}

kf_status_t cpu_synchronize(void* /*state*/, int32_t /*device*/) { return KF_OK; }

kf_status_t cpu_manual_seed(void* /*state*/, uint64_t seed) {
  seed_random(seed);
  return KF_OK;
}

kf_status_t cpu_set_num_threads(void* /*state*/, int32_t n) {
  if (n <= 0) {
    kf::plugin::set_error("cpu: set_num_threads needs a positive count, got " +
                          std::to_string(n));
    return KF_INVALID_ARGUMENT;
  }
  thread_setting().store(n, std::memory_order_relaxed);  // Note [Thread count]
  omp_set_num_threads(n);
#if KF_CPU_HAVE_OPENBLAS
  openblas_set_num_threads(n);
#endif
  return KF_OK;
}

// describe (ABI 1.1): the GEMM engine of each dtype with its instruction set, the thread count
// and the CPU's level, e.g. "GEMM float32 OpenBLAS 0.3.21 Cooperlake (AVX-512), float64 ...,
// bfloat16 oneDNN 2.6.3 brg:avx512_core_bf16 (AVX-512 BF16), float16 via float32; 2 threads;
// CPU AVX-512 BF16; SIMD math AVX3" (Note [GEMM engines], Note [SIMD math]); a warning when a
// GEMM engine runs below the CPU.
void describe_into(char* buf, size_t cap) {
  const int threads = num_threads();
#if defined(_OPENMP)
  const char* openmp = "";
#else
  const char* openmp = " (no OpenMP)";
#endif
  std::snprintf(buf, cap, "%s; %d thread%s%s; CPU %s; SIMD math %s", describe_gemm().c_str(),
                threads, threads == 1 ? "" : "s", openmp, isa_name(cpu_isa()),
                simd::target_name());
}

kf_status_t cpu_describe(void* /*state*/, char* buf, size_t cap) noexcept {
  if (buf == nullptr || cap == 0) return KF_INVALID_ARGUMENT;
  try {
    describe_into(buf, cap);
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;  // a C slot: no exception may leave it
  }
  return KF_OK;
}

kf_status_t cpu_register_kernels(void* /*state*/, const kf_registrar_t* reg) {
  return kf::plugin::register_families(reg, {
#define KF_CPU_KERNEL_FAMILY(family) register_##family##_kernels,
#include "kernel_families.inc"
#undef KF_CPU_KERNEL_FAMILY
  });
}

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("cpu", KF_CPU_VERSION);
  p.score = cpu_score;
  p.init = cpu_init;
  p.shutdown = cpu_shutdown;
  p.device_count = cpu_device_count;
  p.device_properties = cpu_device_properties;
  kf::plugin::host_memory::set_slots(p);  // copy and memset (and allocate, replaced below)
  p.allocate = cpu_allocate;
  p.deallocate = cpu_deallocate;
  p.synchronize = cpu_synchronize;
  p.manual_seed = cpu_manual_seed;
  p.set_num_threads = cpu_set_num_threads;
  p.register_kernels = cpu_register_kernels;
  p.describe = cpu_describe;
  return p;
}

}  // namespace
}  // namespace kf::cpu

KF_PLUGIN_DEFINE(kf::cpu::make_plugin)
