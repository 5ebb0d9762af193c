// host_store.hpp — the opencl plugin's side of the host's file store (plugin ABI 1.3,
// kf_host_api_t.store_read / store_write / store_folder; Note [The plugins' file stores] in the
// core's runtime/loader/include/loader/plugin_store.hpp): the store "opencl". A host of an
// older minor has no store, and then there is no cache. Thread safety: any thread (the host's
// slots are).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernforge/plugin.h"

namespace kf::opencl {

/// Whether the host offers the file store (its kf_host_api_t covers the 1.3 slots).
bool host_has_store();

/// File `name` of the store, whole, when it exists, may be trusted and has at most `limit`
/// bytes (KF_OK); otherwise why not, `out` then empty: KF_BUFFER_TOO_SMALL for a file of more
/// than `limit` bytes, KF_NOT_FOUND, KF_UNAVAILABLE without a store, the host's other statuses.
kf_status_t store_read(const std::string& name, size_t limit, std::vector<unsigned char>& out);

/// Replaces file `name` of the store with `size` bytes; false when the store did not keep it.
bool store_write(const std::string& name, const void* data, size_t size);

/// The store's folder, "" when it is off (`why_off`, when given, then says why).
std::string store_folder(std::string* why_off = nullptr);

}  // namespace kf::opencl
