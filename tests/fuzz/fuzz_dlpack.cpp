// Fuzz target for the DLPack import: bytes become a DLManagedTensorVersioned (or the legacy
// struct), over a real buffer or a made-up address, that goes to kf_tensor_from_dlpack, through
// the C ABI of a core linked into this binary with the CPU plugin loaded.
//
// Note [The DLPack oracle]
// The target keeps its own model of what the import accepts (kernforge.h, section "DLPack":
// version, READ_ONLY, dtype, device, then the kf_tensor_from_blob rules for the memory around
// data + byte_offset, negative strides reaching below it), computed in 128-bit arithmetic, and
// traps when the core disagrees:
// - the import succeeds exactly when the model says so;
// - a refusal leaves *out NULL and the deleter not called, and sets a message;
// - an accepted tensor has the struct's shape, strides (or row-major ones) and dtype, and its
//   data pointer is data + byte_offset;
// - when the elements' span lies in the real buffer (allocated to its exact size), the tensor is
//   read with kf_tensor_copy_to_host and compared with direct reads: AddressSanitizer reports
//   any read outside the buffer, so a span the core computed too small shows up here;
// - the tensor exports again (kf_tensor_to_dlpack) with the same layout;
// - releasing every handle runs the producer's deleter exactly once.
// Built like the other targets (CMakeLists.txt): a libFuzzer binary and a replay driver.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernforge/kernforge.h"
#include "kernforge/kernforge_ops.h"

namespace {

__extension__ typedef __int128 i128;  // GCC and Clang (MinGW too)
constexpr i128 kMax64 = INT64_MAX;
constexpr size_t kMaxBuffer = size_t{1} << 16;  // the largest real buffer
constexpr int64_t kCopyBytes = int64_t{1} << 20;

#define CHECK(cond) \
  do {              \
    if (!(cond)) __builtin_trap(); \
  } while (0)

class Bytes {
 public:
  Bytes(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | u8();
    return v;
  }
  // An integer biased to small sizes and to the edges of int64.
  int64_t integer() {
    static const int64_t edges[] = {
        -1, -2, 2147483647, int64_t{1} << 31, int64_t{1} << 32, int64_t{1} << 40,
        int64_t{1} << 61, (int64_t{1} << 61) + 8, int64_t{1} << 62, INT64_MAX, INT64_MAX - 1,
        INT64_MIN, INT64_MIN + 1, int64_t{1} << 20, -(int64_t{1} << 62), 1000};
    const uint8_t b = u8();
    if (b < 160) return b % 8;
    if (b < 240) return edges[b % (sizeof edges / sizeof edges[0])];
    return static_cast<int64_t>(u64());
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

// --------------------------------------------------------------------- the input --

// The DLPack types of kernforge's dtypes and a few it lacks, with kernforge's item size (0:
// refused).
struct DlType {
  uint8_t code, bits;
  size_t item;
};
constexpr DlType kTypes[] = {
    {kDLFloat, 32, 4}, {kDLFloat, 64, 8}, {kDLFloat, 16, 2}, {kDLBfloat, 16, 2},
    {kDLInt, 8, 1},    {kDLUInt, 8, 1},   {kDLInt, 16, 2},   {kDLInt, 32, 4},
    {kDLInt, 64, 8},   {kDLBool, 8, 1},   {kDLUInt, 16, 2},  {kDLComplex, 64, 8},
    {kDLFloat8_e4m3fn, 8, 0}, {kDLFloat4_e2m1fn, 4, 0}, {kDLBool, 16, 0}, {kDLInt, 1, 0},
    {kDLUInt, 32, 4},  {kDLUInt, 64, 8},  {kDLComplex, 128, 16}, {kDLComplex, 32, 0},
    {kDLUInt, 128, 0}};

struct Input {
  bool legacy = false;
  DLManagedTensorVersioned managed{};
  int64_t shape[KF_MAX_NDIM + 2] = {};
  int64_t strides[KF_MAX_NDIM + 2] = {};
  size_t item = 0;          // kernforge's item size of the dtype, 0 when it has none
  char* buffer = nullptr;   // the real memory, when data points into it
  size_t buffer_bytes = 0;
  int deleted = 0;
};

void on_delete(DLManagedTensorVersioned* self) {
  Input* in = static_cast<Input*>(self->manager_ctx);
  ++in->deleted;
}

void on_delete_legacy(DLManagedTensor* self) {
  Input* in = static_cast<Input*>(self->manager_ctx);
  ++in->deleted;
}

void read_header(Bytes& b, Input& in) {
  const uint8_t v = b.u8();
  in.legacy = (v & 7) == 7;
  in.managed.version.major = (v & 0x38) == 0x38 ? b.u8() % 3 : 1;
  in.managed.version.minor = b.u8() % 4;
  const uint8_t f = b.u8();
  in.managed.flags = f < 200 ? 0 : (f & 7) | (f == 255 ? uint64_t{1} << 40 : 0);
  const uint8_t t = b.u8();
  DLDataType& dt = in.managed.dl_tensor.dtype;
  const DlType& pick = kTypes[t % (sizeof kTypes / sizeof kTypes[0])];
  dt = DLDataType{pick.code, pick.bits, 1};
  in.item = pick.item;
  if (t >= 250) {  // anything at all
    dt = DLDataType{b.u8(), b.u8(), static_cast<uint16_t>(b.u8() % 3)};
    in.item = 0;
    for (const DlType& k : kTypes) {
      if (k.code == dt.code && k.bits == dt.bits && dt.lanes == 1) in.item = k.item;
    }
  } else if (t >= 240) {
    dt.lanes = 4;
    in.item = 0;
  }
  const uint8_t d = b.u8();
  DLDevice& dev = in.managed.dl_tensor.device;
  dev.device_type = d < 220 ? kDLCPU : static_cast<DLDeviceType>(static_cast<int8_t>(b.u8()));
  dev.device_id = d < 200 ? 0 : static_cast<int32_t>(static_cast<int8_t>(b.u8()));
}

void read_layout(Bytes& b, Input& in) {
  DLTensor& dl = in.managed.dl_tensor;
  const uint8_t nd = b.u8();
  dl.ndim = nd == 255 ? KF_MAX_NDIM + 1 : nd == 254 ? -1 : nd % 6;
  const int32_t n = dl.ndim > 0 ? dl.ndim : 0;
  for (int32_t i = 0; i < n; ++i) in.shape[i] = b.integer();
  const uint8_t s = b.u8();
  for (int32_t i = 0; i < n; ++i) in.strides[i] = b.integer();
  dl.shape = (s & 0x70) == 0x70 ? nullptr : in.shape;
  dl.strides = (s & 1) != 0 ? nullptr : in.strides;
  const uint8_t o = b.u8();
  dl.byte_offset = o < 128 ? o % 16 : o < 250 ? static_cast<uint64_t>(b.integer()) : b.u64();
}

// The memory: a real buffer (its size from the input), NULL, or an address nothing backs.
void read_memory(Bytes& b, Input& in) {
  const uint8_t m = b.u8();
  DLTensor& dl = in.managed.dl_tensor;
  if (m < 200) {
    in.buffer_bytes = (static_cast<size_t>(b.u8()) << 8 | b.u8()) % (kMaxBuffer + 1);
    in.buffer = static_cast<char*>(std::malloc(in.buffer_bytes > 0 ? in.buffer_bytes : 1));
    for (size_t i = 0; i < in.buffer_bytes; ++i) in.buffer[i] = static_cast<char>(i % 61 + 1);
    dl.data = in.buffer;
  } else if (m < 230) {
    dl.data = nullptr;
  } else {
    dl.data = reinterpret_cast<void*>(static_cast<uintptr_t>(b.u64()));
  }
}

// -------------------------------------------------------------------- the model --

struct Verdict {
  bool ok = false;
  i128 numel = 0;
  i128 start = 0;  // address of element [0, ..., 0]
  i128 below = 0;  // bytes from the lowest element up to start (negative strides reach there)
  i128 span = 0;   // bytes from the lowest element to the end of the highest
  int64_t strides[KF_MAX_NDIM] = {};
};

// Rules 1 to 3 of Note [Layout rules] (a DLPack producer vouches for every element, so negative
// strides reach below start); fills v.numel, v.below, v.span.
bool model_layout(const Input& in, const int64_t* strides, Verdict& v) {
  const DLTensor& dl = in.managed.dl_tensor;
  if (dl.ndim < 0 || dl.ndim > KF_MAX_NDIM || (dl.ndim > 0 && dl.shape == nullptr)) return false;
  i128 numel = 1, extent = 1, hi = 0;
  for (int32_t i = 0; i < dl.ndim; ++i) {
    const int64_t size = in.shape[i];
    if (size < 0) return false;
    numel *= size;
    extent *= size > 1 ? size : 1;
    if (extent * static_cast<i128>(in.item) > kMax64) return false;
  }
  i128 lo = 0;
  for (int32_t i = 0; i < dl.ndim; ++i) {
    const i128 s = strides[i];
    if (s == INT64_MIN || (s < 0 ? -s : s) * static_cast<i128>(in.item) > kMax64) return false;
    (s < 0 ? lo : hi) += static_cast<i128>(in.shape[i] - 1) * s;
  }
  v.numel = numel;
  if (numel > 0) {
    if (hi > kMax64 || -lo > kMax64) return false;  // elements more than 2^63-1 apart
    if (hi - lo >= kMax64) return false;
    v.span = (hi - lo + 1) * static_cast<i128>(in.item);
    v.below = -lo * static_cast<i128>(in.item);
    if (v.span > kMax64) return false;
  }
  return true;
}

// Note [The DLPack oracle]: whether kernforge must accept the input.
Verdict model(const Input& in) {
  Verdict v;
  const DLTensor& dl = in.managed.dl_tensor;
  if (!in.legacy && (in.managed.version.major != 1 ||
                     (in.managed.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0)) {
    return v;
  }
  if (dl.dtype.lanes != 1 || in.item == 0) return v;
  if (dl.device.device_type != kDLCPU || dl.device.device_id != 0) return v;  // only the CPU
  const i128 base = static_cast<i128>(reinterpret_cast<uintptr_t>(dl.data));
  v.start = dl.data == nullptr ? 0 : base + static_cast<i128>(dl.byte_offset);
  if (dl.data != nullptr && (dl.byte_offset > static_cast<uint64_t>(kMax64) ||
                             v.start > static_cast<i128>(UINTPTR_MAX))) {
    return v;
  }
  if (dl.data != nullptr && v.start % static_cast<i128>(in.item) != 0) return v;
  if (dl.ndim >= 0 && dl.ndim <= KF_MAX_NDIM) {
    if (dl.strides != nullptr) {
      for (int32_t i = 0; i < dl.ndim; ++i) v.strides[i] = in.strides[i];
    } else {
      i128 s = 1;
      for (int32_t i = dl.ndim - 1; i >= 0; --i) {
        v.strides[i] = static_cast<int64_t>(s & kMax64);
        s = s * (in.shape[i] > 1 ? in.shape[i] : 1) & kMax64;
      }
    }
  }
  if (!model_layout(in, v.strides, v)) return v;
  if (dl.data == nullptr && v.numel > 0) return v;
  // The lowest element and the end of the span (one past the last byte) must be addresses too.
  if (v.numel > 0 && (v.start < v.below ||
                      v.start - v.below + v.span > static_cast<i128>(UINTPTR_MAX))) {
    return v;
  }
  v.ok = true;
  return v;
}

// ------------------------------------------------------------------ the checks --

// Reads every element of `t` directly and through kf_tensor_copy_to_host.
void read_back(kf_tensor_t t, const Input& in, const Verdict& v) {
  const int64_t numel = static_cast<int64_t>(v.numel);
  if (numel * static_cast<int64_t>(in.item) > kCopyBytes) return;
  const char* first = reinterpret_cast<const char*>(static_cast<uintptr_t>(v.start));
  const int32_t nd = in.managed.dl_tensor.ndim;
  std::vector<char> direct(static_cast<size_t>(numel) * in.item), copied(direct.size());
  for (int64_t e = 0; e < numel; ++e) {
    int64_t rest = e, offset = 0;
    for (int32_t d = nd - 1; d >= 0; --d) {
      offset += rest % in.shape[d] * v.strides[d];
      rest /= in.shape[d];
    }
    std::memcpy(direct.data() + e * in.item, first + offset * static_cast<int64_t>(in.item),
                in.item);
  }
  CHECK(kf_tensor_copy_to_host(t, copied.data(), copied.size()) == KF_OK);
  // A bool element is its byte != 0 (Note [Bool bytes]); a borrowed tensor keeps the producer's
  // bytes, and a copy may give them as they are or as 0 and 1: the values must agree.
  if (in.managed.dl_tensor.dtype.code == kDLBool) {
    for (size_t i = 0; i < direct.size(); ++i) CHECK((direct[i] != 0) == (copied[i] != 0));
    return;
  }
  CHECK(copied == direct);
}

void check_exported(kf_tensor_t t, const Input& in, const Verdict& v) {
  DLManagedTensorVersioned* m = nullptr;
  CHECK(kf_tensor_to_dlpack(t, &m) == KF_OK && m != nullptr);
  const DLTensor& dl = m->dl_tensor;
  CHECK(dl.ndim == in.managed.dl_tensor.ndim && dl.byte_offset == 0);
  CHECK(dl.dtype.code == in.managed.dl_tensor.dtype.code &&
        dl.dtype.bits == in.managed.dl_tensor.dtype.bits && dl.dtype.lanes == 1);
  for (int32_t i = 0; i < dl.ndim; ++i) {
    CHECK(dl.shape[i] == in.shape[i] && dl.strides[i] == v.strides[i]);
  }
  m->deleter(m);
}

void check_accepted(kf_tensor_t t, const Input& in, const Verdict& v) {
  int32_t nd = -1;
  const int64_t* shape = nullptr;
  const int64_t* strides = nullptr;
  void* data = nullptr;
  int64_t numel = -1;
  CHECK(kf_tensor_ndim(t, &nd) == KF_OK && nd == in.managed.dl_tensor.ndim);
  CHECK(kf_tensor_shape(t, &shape) == KF_OK && kf_tensor_strides(t, &strides) == KF_OK);
  CHECK(kf_tensor_numel(t, &numel) == KF_OK && numel == v.numel);
  for (int32_t i = 0; i < nd; ++i) CHECK(shape[i] == in.shape[i] && strides[i] == v.strides[i]);
  CHECK(kf_tensor_data_ptr(t, &data) == KF_OK);
  if (in.managed.dl_tensor.data != nullptr) {
    CHECK(static_cast<i128>(reinterpret_cast<uintptr_t>(data)) == v.start);
  }
  const i128 buffer = static_cast<i128>(reinterpret_cast<uintptr_t>(in.buffer));
  const i128 low = v.start - v.below;
  const bool in_buffer = in.buffer != nullptr && low >= buffer &&
                         low + v.span <= buffer + static_cast<i128>(in.buffer_bytes);
  if (v.numel > 0 && in_buffer) read_back(t, in, v);
  check_exported(t, in, v);
}

bool start_runtime() {
#if defined(_WIN32)
  _putenv_s("OMP_NUM_THREADS", "1");
#else
  setenv("OMP_NUM_THREADS", "1", 0);
#endif
  kf_init_options_t options{};
  options.struct_size = sizeof options;
  options.autoload = 0;
  options.log_level = KF_LOG_OFF;
  if (kf_init(&options) != KF_OK) return false;
#ifdef KF_FUZZ_CPU_MANIFEST
  return kf_load_plugin(KF_FUZZ_CPU_MANIFEST) == KF_OK;
#else
  return false;
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool cpu = start_runtime();
  if (!cpu) return 0;  // the model assumes the CPU backend serves kDLCPU:0
  Bytes b(data, size);
  Input in;
  read_header(b, in);
  read_layout(b, in);
  read_memory(b, in);
  in.managed.manager_ctx = &in;
  in.managed.deleter = on_delete;
  DLManagedTensor legacy{in.managed.dl_tensor, &in, on_delete_legacy};
  const Verdict v = model(in);
  kf_tensor_t t = nullptr;
  const kf_status_t st = in.legacy ? kf_tensor_from_dlpack_legacy(&legacy, &t)
                                   : kf_tensor_from_dlpack(&in.managed, &t);
  CHECK((st == KF_OK) == v.ok);  // Note [The DLPack oracle]
  if (st != KF_OK) {
    CHECK(t == nullptr && in.deleted == 0 && kf_last_error_message()[0] != '\0');
  } else {
    check_accepted(t, in, v);
    CHECK(in.deleted == 0);
    CHECK(kf_tensor_release(t) == KF_OK);
    CHECK(in.deleted == 1);
  }
  std::free(in.buffer);
  return 0;
}
