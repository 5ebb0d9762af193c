// Fuzz target for kf_op_call: the bytes pick an op of the registry (core ops and those plugins
// define) and an argument vector of random kinds: tensors of random dtype and shape, views of
// them (slices, transposes, expanded views), the same tensor twice, kf_tensor_from_blob aliases
// over another tensor's bytes (other strides, other dtype), NULL handles, scalars, ints, floats,
// lists, dtypes, devices, values of the wrong kind and tags that do not exist. Any input must end
// in KF_OK with live result tensors, or in a status with a message; never a crash, a leak, an
// out-of-bounds access or undefined behaviour (the fuzz preset builds the core and the plugins
// with ASan + UBSan).
//
// The CPU plugin is loaded by libkernforge from the plugin folder next to the library (or
// KERNFORGE_PLUGIN_PATH). Built two ways (CMakeLists.txt): a libFuzzer target with clang
// (KF_FUZZ=ON), and a replay driver that runs every file of the seed corpus (a CTest case).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_written_calls.hpp"
#include "kernforge/kernforge.h"

namespace {

// Reads the input front to back; past its end every read is 0.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
  uint16_t u16() {
    const uint8_t lo = u8();
    return static_cast<uint16_t>(lo | (u8() << 8));
  }
  int32_t pick(int32_t n) { return n <= 0 ? 0 : static_cast<int32_t>(u8() % n); }
  bool left() const { return p_ < end_; }
  const uint8_t* rest(size_t* n) const {
    *n = static_cast<size_t>(end_ - p_);
    return p_;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Small values, and values whose products overflow or exceed any memory: a size between (say
// 2^31) would make the target allocate gigabytes for a request that is legitimate.
constexpr int64_t kInts[] = {0, 1, 2, 3, 4, 5, -1, -2, -3, 7,
                             INT64_MAX, INT64_MIN, int64_t{1} << 62, -(int64_t{1} << 62),
                             8, 6};
constexpr double kFloats[] = {0.0, 1.0, -1.5, 0.5, 2.0, 1e300, -1e300, 1e-300,
                              __builtin_inf(), -__builtin_inf(), __builtin_nan(""), 3.0};

int64_t small_int(Bytes& in) { return kInts[in.pick(sizeof kInts / sizeof kInts[0])]; }
double some_float(Bytes& in) { return kFloats[in.pick(sizeof kFloats / sizeof kFloats[0])]; }

// The tensors an input builds, released at the end. `storage_bytes[i]` > 0: tensor i is a
// fresh contiguous tensor of that many bytes, whose memory a from_blob alias may cover.
struct Pool {
  std::vector<kf_tensor_t> tensors;
  std::vector<size_t> storage_bytes;
  std::vector<std::vector<int64_t>> lists;  // int lists passed by pointer
  std::vector<std::vector<kf_tensor_t>> tensor_lists;
  ~Pool() {
    for (kf_tensor_t t : tensors) kf_tensor_release(t);
  }
  void add(kf_tensor_t t, size_t bytes) {
    tensors.push_back(t);
    storage_bytes.push_back(bytes);
  }
  kf_tensor_t any(Bytes& in) const {
    return tensors.empty() ? nullptr : tensors[static_cast<size_t>(in.pick(
                                           static_cast<int32_t>(tensors.size())))];
  }
};

void add_fresh(Bytes& in, Pool& pool) {
  const auto dtype = static_cast<kf_dtype_t>(in.pick(KF_DTYPE_COUNT));
  const int32_t ndim = in.pick(4);
  int64_t shape[4];
  int64_t numel = 1;
  for (int32_t d = 0; d < ndim; ++d) numel *= (shape[d] = in.pick(5));
  std::vector<uint8_t> data(static_cast<size_t>(numel) * kf_dtype_size(dtype));
  for (uint8_t& b : data) b = in.u8();
  if (dtype == KF_BOOL) {  // a bool element is the byte 0 or 1 (other bytes are undefined, as in C)
    for (uint8_t& b : data) b &= 1;
  }
  kf_tensor_t t = nullptr;
  if (kf_tensor_from_data(data.data(), shape, ndim, dtype, kf_device_cpu(), &t) == KF_OK) {
    pool.add(t, data.size());
  }
}

// A from_blob tensor over the bytes of fresh tensor `base`, with its own dtype, shape and
// strides (negative ones too), every element inside the base's bytes.
void add_alias(Bytes& in, Pool& pool, size_t base) {
  void* data = nullptr;
  if (kf_tensor_data_ptr(pool.tensors[base], &data) != KF_OK || data == nullptr) return;
  kf_dtype_t base_dtype = KF_FLOAT32;
  kf_tensor_dtype(pool.tensors[base], &base_dtype);
  auto dtype = static_cast<kf_dtype_t>(in.pick(KF_DTYPE_COUNT));
  if (dtype == KF_BOOL && base_dtype != KF_BOOL) dtype = KF_UINT8;  // bytes 0 and 1 only
  const auto item = static_cast<int64_t>(kf_dtype_size(dtype));
  const auto bytes = static_cast<int64_t>(pool.storage_bytes[base]);
  const int32_t ndim = in.pick(3) + 1;
  int64_t shape[3], strides[3], low = 0, high = 0;
  for (int32_t d = 0; d < ndim; ++d) {
    shape[d] = in.pick(4) + 1;
    strides[d] = in.pick(7) - 3;
    (strides[d] < 0 ? low : high) += (shape[d] - 1) * (strides[d] < 0 ? -strides[d] : strides[d]);
  }
  const int64_t elements = bytes / item;  // elements of `dtype` in the base
  if (elements < low + high + 1) return;
  const int64_t start = low + in.pick(static_cast<int32_t>(elements - low - high));
  kf_tensor_t t = nullptr;
  if (kf_tensor_from_blob(static_cast<char*>(data) + start * item, shape, strides, ndim, dtype,
                          kf_device_cpu(), nullptr, nullptr, &t) == KF_OK) {
    pool.add(t, 0);
  }
}

void add_view(Bytes& in, Pool& pool) {
  const size_t base = static_cast<size_t>(in.pick(static_cast<int32_t>(pool.tensors.size())));
  kf_tensor_t src = pool.tensors[base], t = nullptr;
  kf_status_t s = KF_INVALID_ARGUMENT;
  // Every read is its own statement: the bytes decode alike whatever the compiler's order of
  // evaluating arguments.
  switch (in.pick(5)) {
    case 0: {
      const int64_t start = small_int(in);
      const int64_t end = small_int(in);
      const int32_t dim = in.pick(3);
      const int32_t step = in.pick(3) + 1;
      s = kf_slice(src, dim, &start, &end, step, &t);
      break;
    }
    case 1: {
      const int32_t dim0 = in.pick(3);
      s = kf_transpose(src, dim0, in.pick(3), &t);
      break;
    }
    case 2: {
      const int64_t size[4] = {in.pick(4), -1, -1, -1};
      const int32_t skip = in.pick(2);
      s = kf_expand(src, size + skip, in.pick(3) + 1, &t);
      break;
    }
    case 3:  // the same tensor under a second handle entry
      kf_tensor_retain(src);
      pool.add(src, pool.storage_bytes[base]);
      return;
    default:
      if (pool.storage_bytes[base] > 0) add_alias(in, pool, base);
      return;
  }
  if (s == KF_OK) pool.add(t, 0);
}

// The kind of make_value's switch that a schema type ("Tensor", "int[]", ...) asks for.
int32_t kind_of_type(const char* type) {
  return std::strncmp(type, "Tensor", 6) == 0 ? 1
         : std::strncmp(type, "int[]", 5) == 0 ? 9
         : std::strncmp(type, "int", 3) == 0 ? 3
         : std::strncmp(type, "float", 5) == 0 ? 4
         : std::strncmp(type, "bool", 4) == 0 ? 5
         : std::strncmp(type, "Scalar", 6) == 0 && type[6] != 'T' ? 6
         : std::strncmp(type, "ScalarType", 10) == 0 ? 7
         : std::strncmp(type, "Device", 6) == 0 ? 8 : 0;
}

// An argument of the kind the schema asks for (`type`: "Tensor", "int[]", ...), or of a random
// kind.
kf_value_t make_value(Bytes& in, Pool& pool, const char* type) {
  kf_value_t v;
  std::memset(&v, 0, sizeof v);
  int32_t kind = in.pick(14);
  if (kind >= 12 && type != nullptr) kind = kind_of_type(type);  // follow the schema
  switch (kind) {
    case 0: v.tag = KF_VALUE_NONE; break;
    case 1: v.tag = KF_VALUE_TENSOR; v.v.tensor = pool.any(in); break;
    case 2: v.tag = KF_VALUE_TENSOR; v.v.tensor = nullptr; break;
    case 3: v.tag = KF_VALUE_INT; v.v.i = small_int(in); break;
    case 4: v.tag = KF_VALUE_FLOAT; v.v.f = some_float(in); break;
    case 5: v.tag = KF_VALUE_BOOL; v.v.b = (in.u8() & 1) != 0; break;
    case 6: {
      v.tag = KF_VALUE_SCALAR;
      const int32_t which = in.pick(4);
      v.v.scalar = which == 0 ? kf_scalar_f64(some_float(in))
                   : which == 1 ? kf_scalar_i64(small_int(in))
                   : which == 2 ? kf_scalar_bool((in.u8() & 1) != 0) : kf_scalar_i64(1);
      if (which == 3) v.v.scalar.tag = static_cast<int32_t>(in.u8()) - 4;  // a bad scalar tag
      break;
    }
    case 7: v.tag = KF_VALUE_DTYPE; v.v.dtype = static_cast<kf_dtype_t>(in.pick(16) - 2); break;
    case 8:
      v.tag = KF_VALUE_DEVICE;
      v.v.device.type = in.pick(2) == 0 ? KF_DEVICE_CPU : in.pick(70) - 1;
      v.v.device.index = in.pick(4) - 1;
      break;
    case 9: {
      v.tag = KF_VALUE_INT_LIST;
      const int32_t len = in.pick(11) - 1;
      pool.lists.emplace_back(static_cast<size_t>(len > 0 ? len : 0));
      for (int64_t& x : pool.lists.back()) x = small_int(in);
      v.v.ints.data = (in.u8() % 16 == 0) ? nullptr : pool.lists.back().data();
      v.v.ints.len = len;
      break;
    }
    case 10: {
      v.tag = KF_VALUE_TENSOR_LIST;
      const int32_t len = in.pick(4);
      pool.tensor_lists.emplace_back(static_cast<size_t>(len));
      for (kf_tensor_t& t : pool.tensor_lists.back()) t = in.pick(8) == 0 ? nullptr : pool.any(in);
      v.v.tensors.data = (in.u8() % 8 == 0) ? nullptr : pool.tensor_lists.back().data();
      v.v.tensors.len = len;
      break;
    }
    default:  // a tag that does not exist, with some payload
      v.tag = in.pick(2) == 0 ? static_cast<int32_t>(in.u8()) + 10 : -static_cast<int32_t>(in.u8());
      v.v.i = small_int(in);
      break;
  }
  return v;
}

// The type names of the op's arguments, from its schema "name(Type a, Type b=..., *, ...)".
std::vector<std::vector<char>> arg_types(const char* schema) {
  std::vector<std::vector<char>> out;
  const char* p = std::strchr(schema, '(');
  if (p == nullptr) return out;
  ++p;
  while (*p != '\0' && *p != ')') {
    while (*p == ' ' || *p == ',') ++p;
    if (*p == '*') {
      ++p;
      continue;
    }
    const char* start = p;
    while (*p != '\0' && *p != ' ' && *p != ')') ++p;
    if (p > start) out.emplace_back(start, p), out.back().push_back('\0');
    while (*p != '\0' && *p != ',' && *p != ')') ++p;  // the name and default
  }
  return out;
}

// Every status other than KF_OK comes with a message. KF_FUZZ_VERBOSE=1 prints each call's
// outcome (to see what a corpus file does).
void check_status(const char* call, kf_status_t s) {
  static const bool verbose = std::getenv("KF_FUZZ_VERBOSE") != nullptr;
  const char* msg = s == KF_OK ? "" : kf_last_error_message();
  if (verbose) {
    std::printf("%s: %s %s\n", call, kf_status_name(s), msg);
    std::fflush(stdout);
  }
  if (s != KF_OK && (msg == nullptr || msg[0] == '\0')) __builtin_trap();
}

// A written call (fuzz_written_calls.hpp) on tensors of the pool.
void written_call(Bytes& in, Pool& pool, int32_t which) {
  const fuzz_written::Call& c = fuzz_written::kCalls[which % fuzz_written::kCallCount];
  const bool inplace = c.out == nullptr || (c.inplace != nullptr && in.pick(2) == 0);
  kf_tensor_t tensors[3] = {};
  for (int32_t k = 0; k < c.ninputs; ++k) tensors[k] = pool.any(in);
  const kf_tensor_t out = inplace ? nullptr : pool.any(in);
  fuzz_written::Extra x{};
  x.alpha = in.pick(2) == 0 ? kf_scalar_i64(small_int(in)) : kf_scalar_f64(some_float(in));
  x.ndims = in.pick(3);
  for (int32_t d = 0; d < x.ndims; ++d) x.dims[d] = in.pick(5) - 2;
  x.keepdim = in.pick(2) == 0;
  fuzz_written::check_call(c, inplace, tensors, out, x, check_status);
}

}  // namespace

// A request for more memory than exists must come back as KF_OUT_OF_MEMORY, as it does without
// ASan, rather than stop the run (ASan's default for an allocation past its limit). So must a
// legitimate request of more than 1 GiB: the input's values may ask for one (one_hot of a label
// near 10^9 makes an arange of 7.8 GB), and libFuzzer stops at any allocation past its malloc
// limit (its -rss_limit_mb, 2 GiB), which ASan's max_allocation_size_mb keeps from being reached.
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=1024";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool started = [] {
    kf_set_num_threads(1);
    return kf_op_count() > 0;
  }();
  if (!started) __builtin_trap();  // no ops: the runtime did not start
  Bytes in(data, size);
  // The first two bytes pick the call: an op of the registry through kf_op_call, or (from
  // 0xe000 on) an out= or in-place call of the typed entry points.
  const uint16_t selector = in.u16();
  kf_op_t op = nullptr;
  if (selector < 0xe000 && kf_op_at(selector % kf_op_count(), &op) != KF_OK) __builtin_trap();
  Pool pool;
  const int32_t ntensors = in.pick(6) + 1;
  for (int32_t i = 0; i < ntensors; ++i) {
    if (pool.tensors.empty() || in.pick(3) == 0) {
      add_fresh(in, pool);
    } else {
      add_view(in, pool);
    }
  }
  if (op == nullptr) {
    written_call(in, pool, selector - 0xe000);
    return 0;
  }
  const std::vector<std::vector<char>> types = arg_types(kf_op_schema(op));
  const int32_t nargs = in.pick(19) - 1;  // -1 .. 17
  kf_value_t args[18];
  for (int32_t i = 0; i < nargs; ++i) {
    args[i] = make_value(in, pool, static_cast<size_t>(i) < types.size() ? types[i].data()
                                                                          : nullptr);
  }
  const int32_t returns = kf_op_num_returns(op);
  const int32_t nresults = in.pick(8) == 0 ? in.pick(6) - 1 : returns;
  kf_value_t results[8];
  std::memset(results, 0, sizeof results);
  const bool null_args = nargs > 0 && in.pick(32) == 0;
  const kf_status_t s = kf_op_call(op, null_args ? nullptr : args, nargs,
                                   in.pick(32) == 0 ? nullptr : results, nresults);
  check_status(kf_op_name(op), s);
  if (s != KF_OK) return 0;
  for (int32_t i = 0; i < nresults; ++i) {
    if (results[i].tag != KF_VALUE_TENSOR || results[i].v.tensor == nullptr) __builtin_trap();
    int64_t numel = -1;
    if (kf_tensor_numel(results[i].v.tensor, &numel) != KF_OK || numel < 0) __builtin_trap();
    kf_tensor_release(results[i].v.tensor);
  }
  return 0;
}
