// The allocation-failure hook of the sweep (tests/oom): this executable replaces the global
// operator new and delete (every form), so every C++ allocation of the process goes through it:
// the test's, libkernforge's and the plugins' (an executable's definition interposes on the
// shared libraries' references, ELF symbol interposition). Memory comes from malloc, so ASan and
// LeakSanitizer still see every block.
//
// Counting and failing are per thread and off until armed: arm(n) on a thread makes the n-th
// counted allocation of that thread from then on fail (operator new throws std::bad_alloc, the
// nothrow forms return nullptr); arm(0) counts without failing. Other threads are never touched.
//
// Note [Host and device allocations]
// Two kinds are counted apart. "Host" is every operator new. "Device" is every call of a
// backend's allocate slot that the test's plugins make through fail_device_allocation() (the
// oomdev plugin finds it with dlsym in this executable), plus the CPU plugin's allocations:
// cpu_allocate takes its blocks with the aligned nothrow operator new, which this hook sees, so
// on the CPU the device allocation is one of the host ones and fails like them.
#pragma once

#include <cstdint>

namespace oomtest {

enum class Kind { Host, Device };

/// Once: only the n-th allocation fails (fault injection at one point). FromThenOn: the n-th and
/// every later one fail until disarm() (memory stays exhausted, so the error paths themselves
/// run out of memory too).
enum class Mode { Once, FromThenOn };

/// Starts counting `kind` allocations on this thread; the n-th one from now fails (n >= 1), or
/// none when n == 0. Only one kind is armed at a time on a thread.
void arm(Kind kind, int64_t n, Mode mode = Mode::Once);

/// Stops counting on this thread; returns how many allocations of the armed kind were counted
/// (the failed one included).
int64_t disarm();

/// True when the armed failure happened (since the last arm()).
bool fired();

}  // namespace oomtest

/// Called by the oomdev plugin's allocate slot (found with dlsym): true when this allocation
/// must fail. Counts it when device allocations are armed on the calling thread.
/// (Default visibility: the project builds with hidden visibility, and ENABLE_EXPORTS exports
/// only what is visible.)
extern "C" __attribute__((visibility("default"))) bool kf_oomtest_fail_device_allocation(void);
