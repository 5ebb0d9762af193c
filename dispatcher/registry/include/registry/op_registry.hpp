// The op registry: the core's ops (generated from ops.yaml) followed by the ops plugins define
// at run time, each with a dense id. Lookups are lock-free; ops are only ever appended (under
// the registration lock, see kernel_table.hpp) and live for the process.
#pragma once

#include <cstdint>
#include <mutex>
#include <string_view>

#include "registry/op_def.hpp"

namespace kf {

/// Number of ops (built-in and defined). Lock-free.
int32_t op_count() noexcept;
/// The op with id `id`, or nullptr. Lock-free.
const OpDef* op_by_id(int32_t id) noexcept;
/// The op named `name` ("add", "toy::scale"), or nullptr.
const OpDef* find_op(std::string_view name) noexcept;

/// The meta rule named `name`, or nullptr.
const MetaRule* find_meta_rule(std::string_view name) noexcept;

/// The lock every change of the registry and the kernel table is made under.
std::mutex& registration_mutex();
/// Appends an op (the caller holds registration_mutex and built `def` to live for the
/// process); sets def->id and returns it. Throws KF_OUT_OF_RANGE when the registry is full.
int32_t append_op(OpDef* def);

/// The C ABI's handle of an op: its id + 1, so that NULL is never an op.
inline kf_op_t op_handle(const OpDef& def) noexcept {
  return reinterpret_cast<kf_op_t>(static_cast<uintptr_t>(def.id) + 1u);
}
/// The op behind a handle, or nullptr. Lock-free.
const OpDef* op_of_handle(kf_op_t op) noexcept;
/// The op behind a handle, or throws KF_INVALID_ARGUMENT.
const OpDef& checked_op(kf_op_t op);

}  // namespace kf
