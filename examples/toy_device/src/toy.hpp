// toy.hpp — what the toy plugin's files share: its state, its settings and the functions each
// file gives the others. Nothing here is seen by the host: the plugin exports kf_plugin_get only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arena.hpp"
#include "kernforge/plugin.h"

namespace toy {

#if defined(__GNUC__)
#define TOY_PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TOY_PRINTF_LIKE(fmt, args)
#endif

/// Formats a message (printf style) into a stack buffer, hands it to the host as this call's
/// error (the C ABI's caller reads it with kf_last_error_message) and returns `status`.
/// Allocates nothing, so it also works when memory has run out; long messages are cut.
kf_status_t fail(kf_status_t status, const char* format, ...) TOY_PRINTF_LIKE(2, 3);

/// The settings, read once from the environment when the plugin starts (config.cpp).
struct Config {
  int32_t devices = 1;       // KERNFORGE_TOY_DEVICES, 1..16
  uint64_t memory_mb = 256;  // KERNFORGE_TOY_MEMORY_MB, 1..65536, per device
};

/// Reads the settings over the defaults already in *out. KF_INVALID_ARGUMENT, with *error naming
/// the variable, when one of them is not a whole number in its range.
kf_status_t read_config(Config* out, std::string* error);

/// What init() builds and hands back to every slot as `state`: one arena per device. Created in
/// init, destroyed in shutdown; the slots only read the vector, so sharing it between threads
/// needs no lock (each Arena locks itself).
struct State {
  Config config;
  std::vector<std::unique_ptr<Arena>> arenas;
};

/// The arena of `device`, or nullptr (after reporting the error to the host) when there is no
/// such device.
Arena* arena_of(void* state, int32_t device, const char* slot);

// The memory slots of kf_plugin_t (memory.cpp).
kf_status_t allocate(void* state, int32_t device, size_t bytes, void** out_ptr);
void deallocate(void* state, int32_t device, void* ptr, size_t bytes);
kf_status_t copy(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                 int32_t kind);
kf_status_t memset(void* state, int32_t device, void* dst, int32_t value, size_t bytes);

// Registrations, called from register_kernels (kernels.cpp, scale_op.cpp).
kf_status_t register_builtin_kernels(const kf_registrar_t* reg);
kf_status_t define_scale_op(const kf_registrar_t* reg);

}  // namespace toy
