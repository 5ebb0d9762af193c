// Tensors to and from safetensors files (capi/safetensors_io.hpp): one sequential write of the
// header and each tensor's bytes, one sequential read straight into each new tensor's memory.
#include "capi/safetensors_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "device/backend_registry.hpp"
#include "dispatch/tensor_moves.hpp"

namespace kf::safetensors {
namespace {

/// The format is little-endian; so is every host kernforge runs on, which this checks.
void require_little_endian(const char* fn) {
  const uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  if (first != 1) {
    fail(KF_UNIMPLEMENTED, "{}: safetensors files are little-endian and this host is "
         "big-endian, which kernforge's reader and writer do not convert", fn);
  }
}

/// Why `path` could not be opened, as the status that fits.
[[noreturn]] void open_failed(const std::string& path, const char* fn, const char* how) {
  const int err = errno;
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (!exists && std::string(how) == "reading") {
    fail(KF_NOT_FOUND, "{}: no file '{}'; check the path", fn, path);
  }
  if (exists && std::filesystem::is_directory(path, ec)) {
    fail(KF_INVALID_ARGUMENT, "{}: '{}' is a folder; give the path of a file", fn, path);
  }
  fail(err == EACCES ? KF_PERMISSION_DENIED : KF_INVALID_ARGUMENT,
       "{}: cannot open '{}' for {} ({}); check the path and its permissions", fn, path, how,
       err != 0 ? std::strerror(err) : "unknown reason");
}

/// A bool tensor's bytes as the format has them: 0 or 1.
void normalise_bools(unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = p[i] != 0 ? 1 : 0;
}

void write_tensor(std::ofstream& f, TensorImpl& t, uint64_t bytes, std::vector<char>& buffer) {
  if (bytes == 0) return;
  const bool direct = t.device.type == KF_DEVICE_CPU && is_contiguous(t) && t.dtype != KF_BOOL;
  const char* p = static_cast<const char*>(data_ptr(t));
  if (!direct) {
    buffer.resize(bytes);
    copy_to_host(t, buffer.data(), bytes);
    if (t.dtype == KF_BOOL) {
      normalise_bools(reinterpret_cast<unsigned char*>(buffer.data()), bytes);
    }
    p = buffer.data();
  }
  f.write(p, static_cast<std::streamsize>(bytes));
}

void write_all(const std::string& path,
               const std::vector<std::pair<std::string, TensorImpl*>>& tensors,
               const std::string& header, const std::vector<Entry>& entries,
               const std::vector<size_t>& order) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) open_failed(path, "kf_safetensors_save", "writing");
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::vector<char> buffer;
  for (size_t i : order) {
    write_tensor(f, *tensors[i].second, entries[i].end - entries[i].begin, buffer);
  }
  f.close();
  if (!f) {
    fail(KF_INVALID_ARGUMENT, "kf_safetensors_save: writing '{}' failed ({}); check the free "
         "space and the permissions of its folder", path, std::strerror(errno));
  }
}

/// Reads exactly `n` bytes or fails naming what was read.
void read_exactly(std::ifstream& f, void* dst, uint64_t n, const std::string& path,
                  const char* what) {
  f.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
  if (static_cast<uint64_t>(f.gcount()) != n) {
    fail(KF_INVALID_ARGUMENT, "kf_safetensors_load: reading {} of '{}' stopped after {} of {} "
         "bytes; the file changed or shrank while it was read", what, path, f.gcount(), n);
  }
}

/// Reads the tensors in the order of their bytes, each into a new contiguous CPU tensor, moved
/// to `device` when that is not the CPU.
void read_tensors(std::ifstream& f, const Header& h, const std::string& path,
                  kf_device_t device, Loaded& out) {
  std::vector<size_t> order(h.entries.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return h.entries[a].begin < h.entries[b].begin; });
  out.tensors.assign(h.entries.size(), nullptr);
  const kf_device_t cpu{KF_DEVICE_CPU, 0};
  for (size_t i : order) {
    const Entry& e = h.entries[i];
    const auto ndim = static_cast<int32_t>(e.shape.size());
    TensorImpl* t = new_tensor(e.shape.data(), ndim, e.dtype, cpu);
    out.tensors[i] = t;
    read_exactly(f, data_ptr(*t), e.end - e.begin, path, ("tensor '" + e.name + "'").c_str());
    if (e.dtype == KF_BOOL) {
      normalise_bools(static_cast<unsigned char*>(data_ptr(*t)), e.end - e.begin);
    }
    if (device.type != KF_DEVICE_CPU) {
      out.tensors[i] = tensor_to(*t, device, KF_DTYPE_UNDEFINED);
      release(t);
    }
  }
}

}  // namespace

Loaded::~Loaded() {
  for (TensorImpl* t : tensors) {
    if (t != nullptr) release(t);
  }
}

void save_file(const std::string& path,
               const std::vector<std::pair<std::string, TensorImpl*>>& tensors,
               const Metadata& metadata) {
  require_little_endian("kf_safetensors_save");
  std::vector<Entry> entries;
  entries.reserve(tensors.size());
  for (const auto& [name, t] : tensors) {
    entries.push_back(
        Entry{name, t->dtype, std::vector<int64_t>(t->shape, t->shape + t->ndim), 0, 0});
  }
  std::vector<size_t> order;
  const std::string header = write_header(entries, metadata, &order);
  try {
    write_all(path, tensors, header, entries, order);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    throw;
  }
}

void load_file(const std::string& path, kf_device_t device, Loaded& out) {
  require_little_endian("kf_safetensors_load");
  require_device(device);  // an unknown device is refused before the file is read
  errno = 0;
  std::ifstream f(path, std::ios::binary);
  std::error_code ec;
  if (!f || std::filesystem::is_directory(path, ec)) {
    open_failed(path, "kf_safetensors_load", "reading");
  }
  f.seekg(0, std::ios::end);
  const std::streamoff end = f.tellg();
  if (end < 0) {
    fail(KF_INVALID_ARGUMENT, "kf_safetensors_load: cannot tell the size of '{}'; give the path "
         "of a regular file", path);
  }
  const auto size = static_cast<uint64_t>(end);
  f.seekg(0, std::ios::beg);
  unsigned char first8[8] = {};
  if (size >= 8) read_exactly(f, first8, 8, path, "the header length");
  const std::string source = "'" + path + "'";
  const uint64_t n = header_length(first8, size, source);
  std::string json(n, '\0');
  read_exactly(f, json.data(), n, path, "the header");
  Header h = parse_header(json.data(), n, size, source);
  read_tensors(f, h, path, device, out);
  for (Entry& e : h.entries) out.names.push_back(std::move(e.name));
  out.metadata = std::move(h.metadata);
}

}  // namespace kf::safetensors
