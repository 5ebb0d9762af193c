// Helpers of the sweep's phases (tests/oom): tensors made and read through the C ABI, and the
// checks a child runs after an armed call to prove the runtime still works. Every check returns
// "" or the problem, never a gtest assertion: checks run in forked children, whose gtest state
// nobody reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace oomtest {

constexpr kf_device_t kCpu{KF_DEVICE_CPU, 0};

/// The device "oomdev:0" (after the oomdev plugin is loaded).
kf_device_t oomdev();

/// The oomdev plugin's manifest and folder (absolute paths in the build tree).
const char* oomdev_manifest();
const char* oomdev_folder();

/// Maps the CPU plugin's library, and so the libraries it links, the oneDNN side library it
/// opens at its first GEMM (or report), and the gloo collective plugin, before a sweep arms the
/// fault: oneDNN's and gloo's C++ static initializers allocate with operator new while the
/// library is mapped, and a std::bad_alloc there ends any process (they are not kernforge's
/// code, and the plugins themselves have none, by rule). The loader's own dlopen of the plugins,
/// and the cpu plugin's of the side library, then map nothing new and run no initializer;
/// everything kernforge does is still swept.
void map_cpu_plugin_libraries();

/// A float32 tensor on `device` holding `values` with `shape`; nullptr and `problem` on error.
kf_tensor_t make_f32(const std::vector<int64_t>& shape, const std::vector<float>& values,
                     kf_device_t device, std::string& problem);

/// "" when `t` holds `want` (float32, read to the host), else what differs.
std::string check_values(kf_tensor_t t, const std::vector<float>& want);

/// "" when the status is OK, else "<what>: <status> <message>".
std::string ok_or(kf_status_t s, const char* what);

/// "" when the runtime works: every backend record has a distinct name, each of `loaded` is
/// loaded (oomdev may instead have failed as init_said_out_of_memory() says), the report is
/// produced, and an add on the CPU gives the right values.
std::string check_runtime(const std::vector<std::string>& loaded);

/// The number of backend records named `name`.
int32_t records_named(const std::string& name);

/// Whether the oomdev plugin is recorded as failed because its init returned KF_OUT_OF_MEMORY
/// (its own allocation failed): a plugin's word about itself, recorded like any init failure.
bool init_said_out_of_memory();

/// Set by the tests that start the runtime in the test process itself; the start-up sweep needs
/// a process where it has not started (ctest runs every test in a process of its own).
extern bool g_runtime_started_here;

}  // namespace oomtest
