// Fuzz target for shapes, strides, offsets and views: bytes become a kf_tensor_from_blob call
// (dtype, shape, strides or none) and a sequence of view ops (slice, select, expand, reshape,
// view, permute, transpose, squeeze, unsqueeze, flatten, a basic index, and contiguous when the
// CPU plugin is there), all through the C ABI of a core linked into this binary.
//
// Note [The views oracle]
// The target keeps its own model of the layout rules (Note [Layout rules] in
// runtime/tensor/include/tensor/layout.hpp and the kf_tensor_from_blob contract in kernforge.h), computed
// in 128-bit arithmetic, and traps when the core disagrees:
// - kf_tensor_from_blob succeeds exactly when the model says the layout is valid;
// - every tensor an op returns has a valid layout whose elements all lie in the memory of the
//   tensor it came from (the blob, or the storage of the last contiguous copy);
// - its elements are read through its data pointer and strides (the corners always, every
//   element when there are few): the blob is allocated to its exact span, so AddressSanitizer
//   reports any read outside it;
// - with the CPU plugin, kf_tensor_copy_to_host of a small result returns those same bytes;
// - a basic index (kf_tensor_index) succeeds exactly when its items, applied one by one with
//   kf_select, kf_slice and kf_unsqueeze, all do, and then makes the same view;
// - releasing every handle runs the blob's deleter exactly once.
// Large blobs are not allocated (the core never touches a blob's memory by itself) and are not
// read. Built like the other targets (CMakeLists.txt): a libFuzzer binary and a replay driver.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernforge/kernforge.h"
#include "kernforge/kernforge_ops.h"

namespace {

__extension__ typedef __int128 i128;  // GCC and Clang (MinGW too)
constexpr i128 kMax64 = INT64_MAX;
constexpr int64_t kBackedBytes = int64_t{1} << 16;  // blobs up to this size are allocated
constexpr int64_t kReadAll = 4096;                   // results up to this numel are read whole
constexpr int64_t kCopyBytes = int64_t{1} << 20;     // the largest copy the target asks for

#define CHECK(cond) \
  do {              \
    if (!(cond)) __builtin_trap(); \
  } while (0)

// ------------------------------------------------------------------------------ input --

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
        int64_t{1} << 61, (int64_t{1} << 61) + 8, int64_t{1} << 62, 3 * (int64_t{1} << 61),
        INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, int64_t{1} << 20, -(int64_t{1} << 62)};
    const uint8_t b = u8();
    if (b < 160) return b % 8;
    if (b < 240) return edges[b % (sizeof edges / sizeof edges[0])];
    return static_cast<int64_t>(u64());
  }
  // A dim, an index or a bound: small of either sign, or an edge.
  int64_t signed_small() {
    const uint8_t b = u8();
    return b < 200 ? static_cast<int64_t>(b % 16) - 8 : integer();
  }
  bool empty() const { return n_ == 0; }

 private:
  const uint8_t* p_;
  size_t n_;
};

// ---------------------------------------------------------------------------- the model --

struct Layout {
  int32_t ndim = 0;
  int64_t shape[KF_MAX_NDIM + 1];
  int64_t strides[KF_MAX_NDIM + 1];
  size_t item = 1;
};

// Rules 1 to 3 of Note [Layout rules]: numel, or -1 when the layout is invalid.
i128 model_numel(const Layout& l) {
  if (l.ndim < 0 || l.ndim > KF_MAX_NDIM) return -1;
  i128 numel = 1, extent = 1;
  for (int32_t i = 0; i < l.ndim; ++i) {
    if (l.shape[i] < 0) return -1;
    numel *= l.shape[i];
    extent *= l.shape[i] > 1 ? l.shape[i] : 1;
    if (extent * static_cast<i128>(l.item) > kMax64) return -1;
    const i128 s = l.strides[i];
    if ((s < 0 ? -s : s) * static_cast<i128>(l.item) > kMax64) return -1;
  }
  return numel;
}

// The element offsets [lo, hi] a layout with elements reaches from element [0, ..., 0].
void model_reach(const Layout& l, i128* lo, i128* hi) {
  *lo = *hi = 0;
  for (int32_t i = 0; i < l.ndim; ++i) {
    const i128 step = static_cast<i128>(l.shape[i] - 1) * l.strides[i];
    (step < 0 ? *lo : *hi) += step;
  }
}

// An address as a number (pointers into different allocations are compared as numbers).
i128 address(const void* p) { return static_cast<i128>(reinterpret_cast<uintptr_t>(p)); }

// The memory a tensor's elements must stay in: [base, base + bytes), readable when backed.
struct Memory {
  const char* base = nullptr;
  int64_t bytes = 0;
  bool backed = false;
};

Layout layout_of(kf_tensor_t t) {
  Layout l;
  const int64_t* shape = nullptr;
  const int64_t* strides = nullptr;
  kf_dtype_t dtype = KF_DTYPE_UNDEFINED;
  CHECK(kf_tensor_ndim(t, &l.ndim) == KF_OK && kf_tensor_shape(t, &shape) == KF_OK &&
        kf_tensor_strides(t, &strides) == KF_OK && kf_tensor_dtype(t, &dtype) == KF_OK);
  CHECK(l.ndim >= 0 && l.ndim <= KF_MAX_NDIM);
  for (int32_t i = 0; i < l.ndim; ++i) {
    l.shape[i] = shape[i];
    l.strides[i] = strides[i];
  }
  l.item = kf_dtype_size(dtype);
  return l;
}

// Reads element `index` (row-major) of t; ASan checks the address.
void read_element(const Layout& l, const char* data, int64_t index, char* out) {
  i128 offset = 0;
  for (int32_t d = l.ndim - 1; d >= 0; --d) {
    offset += static_cast<i128>(index % l.shape[d]) * l.strides[d];
    index /= l.shape[d];
  }
  std::memcpy(out, data + static_cast<int64_t>(offset) * static_cast<int64_t>(l.item), l.item);
}

// Reads the corners of t (where its lowest and highest addresses are) and, when it is small,
// every element; with the CPU plugin, compares them with kf_tensor_copy_to_host.
void read_all(kf_tensor_t t, const Layout& l, int64_t numel, const char* data, bool copies) {
  char element[16];
  if (l.ndim <= 12) {
    for (uint32_t corner = 0; corner < (1u << l.ndim); ++corner) {
      i128 offset = 0;
      for (int32_t d = 0; d < l.ndim; ++d) {
        if (((corner >> d) & 1u) != 0) offset += static_cast<i128>(l.shape[d] - 1) * l.strides[d];
      }
      std::memcpy(element, data + static_cast<int64_t>(offset * static_cast<i128>(l.item)),
                  l.item);
    }
  }
  if (numel > kReadAll) return;
  std::vector<char> direct(static_cast<size_t>(numel) * l.item);
  for (int64_t i = 0; i < numel; ++i) read_element(l, data, i, direct.data() + i * l.item);
  if (!copies) return;
  std::vector<char> copied(direct.size());
  CHECK(kf_tensor_copy_to_host(t, copied.data(), copied.size()) == KF_OK);
  CHECK(copied == direct);
}

// Note [The views oracle], for one tensor an op returned.
void check_result(kf_tensor_t t, const Memory& m, bool copies) {
  const Layout l = layout_of(t);
  const i128 numel = model_numel(l);
  CHECK(numel >= 0 && numel <= kMax64);
  int64_t reported = -1;
  CHECK(kf_tensor_numel(t, &reported) == KF_OK && reported == numel);
  if (numel == 0) return;
  void* data = nullptr;
  CHECK(kf_tensor_data_ptr(t, &data) == KF_OK);
  const i128 start = address(data) - address(m.base);
  CHECK(start % static_cast<i128>(l.item) == 0);
  i128 lo = 0, hi = 0;
  model_reach(l, &lo, &hi);
  CHECK(start + lo * static_cast<i128>(l.item) >= 0);
  CHECK(start + (hi + 1) * static_cast<i128>(l.item) <= m.bytes);
  if (m.backed) read_all(t, l, static_cast<int64_t>(numel), static_cast<const char*>(data), copies);
}

// -------------------------------------------------------------------------------- the blob --

struct Blob {
  char* memory = nullptr;
  int deleted = 0;
};

void delete_blob(void* /*data*/, void* ctx) {
  Blob* b = static_cast<Blob*>(ctx);
  std::free(b->memory);
  b->memory = nullptr;
  ++b->deleted;
}

constexpr kf_dtype_t kDtypes[] = {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_INT8,
                                  KF_UINT8,   KF_INT32,   KF_INT64,   KF_BOOL};

// Values every dtype reads back unchanged (no NaN, bool 0 or 1).
void fill(char* p, int64_t bytes, kf_dtype_t dtype) {
  for (int64_t i = 0; i < bytes; ++i) {
    p[i] = dtype == KF_BOOL ? static_cast<char>(i & 1) : static_cast<char>((i * 7) % 61 + 1);
  }
}

// The blob's layout from the input; returns the model's verdict (numel, or -1: refused) and
// the bytes its span takes.
i128 make_layout(Bytes& in, Layout& l, kf_dtype_t* dtype, bool* with_strides, i128* span) {
  *dtype = kDtypes[in.u8() % (sizeof kDtypes / sizeof kDtypes[0])];
  l.item = kf_dtype_size(*dtype);
  const uint8_t nd = in.u8();
  l.ndim = nd == 255 ? KF_MAX_NDIM + 1 : nd % 6;
  for (int32_t i = 0; i < l.ndim; ++i) l.shape[i] = in.integer();
  *with_strides = (in.u8() & 1) != 0;
  i128 stride = 1;
  for (int32_t i = l.ndim - 1; i >= 0; --i) {
    l.strides[i] = *with_strides ? in.integer() : static_cast<int64_t>(stride);
    if (!*with_strides) stride = stride * (l.shape[i] > 1 ? l.shape[i] : 1) & kMax64;
  }
  i128 numel = model_numel(l);
  for (int32_t i = 0; i < l.ndim && numel >= 0 && *with_strides; ++i) {
    if (l.strides[i] < 0) numel = -1;  // would reach before data (kernforge.h)
  }
  *span = 0;
  if (numel > 0) {
    i128 lo = 0, hi = 0;
    model_reach(l, &lo, &hi);
    *span = (hi + 1) * static_cast<i128>(l.item);
    if (*span > kMax64) numel = -1;
  }
  return numel;
}

// ------------------------------------------------------------------------------- the ops --

struct State {
  std::vector<kf_tensor_t> handles;  // every tensor made, released at the end
  kf_tensor_t current = nullptr;
  Memory memory;  // where current's elements live
  bool cpu = false;  // the CPU plugin is loaded
};

int64_t numel_of(kf_tensor_t t) {
  int64_t n = 0;
  CHECK(kf_tensor_numel(t, &n) == KF_OK);
  return n;
}

// A list of up to 6 sizes: -1, the current size of the same dim, or any integer.
int32_t size_list(Bytes& in, const Layout& l, int64_t* out) {
  const int32_t n = in.u8() % 7;
  for (int32_t i = 0; i < n; ++i) {
    const int32_t j = i - (n - l.ndim);
    switch (in.u8() % 4) {
      case 0: out[i] = -1; break;
      case 1: out[i] = j >= 0 ? l.shape[j] : 1; break;
      case 2: out[i] = in.integer(); break;
      default: out[i] = in.signed_small(); break;
    }
  }
  return n;
}

bool same_view(kf_tensor_t a, kf_tensor_t b) {
  const Layout x = layout_of(a), y = layout_of(b);
  void *p = nullptr, *q = nullptr;
  CHECK(kf_tensor_data_ptr(a, &p) == KF_OK && kf_tensor_data_ptr(b, &q) == KF_OK);
  if (p != q || x.ndim != y.ndim) return false;
  for (int32_t i = 0; i < x.ndim; ++i) {
    if (x.shape[i] != y.shape[i] || x.strides[i] != y.strides[i]) return false;
  }
  return true;
}

// The key applied one item at a time (Note [The basic index]): the view, or nullptr where an
// item fails.
kf_tensor_t index_by_ops(kf_tensor_t t, const kf_index_item_t* key, int32_t n) {
  int32_t used = 0, ndim = layout_of(t).ndim, ellipses = 0;
  for (int32_t i = 0; i < n; ++i) {
    used += key[i].kind == KF_INDEX_INT || key[i].kind == KF_INDEX_SLICE;
    ellipses += key[i].kind == KF_INDEX_ELLIPSIS;
  }
  if (used > ndim || ellipses > 1) return nullptr;
  CHECK(kf_tensor_retain(t) == KF_OK);
  kf_tensor_t cur = t;
  int64_t d = 0;
  for (int32_t i = 0; i < n && cur != nullptr; ++i) {
    const kf_index_item_t& it = key[i];
    kf_tensor_t next = nullptr;
    kf_status_t st = KF_OK;
    if (it.kind == KF_INDEX_ELLIPSIS) {
      d += ndim - used;
      continue;
    }
    if (it.kind == KF_INDEX_INT) {
      st = kf_select(cur, d, it.index, &next);
    } else if (it.kind == KF_INDEX_NEW_AXIS) {
      st = kf_unsqueeze(cur, d++, &next);
    } else {
      st = kf_slice(cur, d++, it.has_start ? &it.start : nullptr,
                    it.has_stop ? &it.stop : nullptr, it.step, &next);
    }
    CHECK(kf_tensor_release(cur) == KF_OK);
    cur = st == KF_OK ? next : nullptr;
  }
  return cur;
}

// A basic key of up to 6 items from the input, applied in one call and checked against the
// items applied one by one.
kf_status_t basic_index(Bytes& in, kf_tensor_t t, kf_tensor_t* out) {
  kf_index_item_t key[6];
  const int32_t n = in.u8() % 7;
  for (int32_t i = 0; i < n; ++i) {
    kf_index_item_t& it = key[i];
    it = kf_index_item_t{};
    it.kind = in.u8() % 4;
    it.index = in.signed_small();
    const uint8_t bounds = in.u8();
    it.has_start = (bounds & 1) != 0;
    it.has_stop = (bounds & 2) != 0;
    it.start = in.signed_small();
    it.stop = in.signed_small();
    it.step = (bounds & 4) ? in.integer() : in.signed_small();
  }
  const kf_status_t st = kf_tensor_index(t, key, n, out);
  const kf_tensor_t ops = index_by_ops(t, key, n);
  CHECK((st == KF_OK) == (ops != nullptr));
  if (ops != nullptr) {
    CHECK(same_view(*out, ops));
    CHECK(kf_tensor_release(ops) == KF_OK);
  }
  return st;
}

// Whether the target may ask for a copy of t: the CPU plugin is there, t's memory was
// allocated and the copy is small.
bool can_copy(const State& s, kf_tensor_t t, const Layout& l) {
  return s.cpu && s.memory.backed && numel_of(t) * static_cast<int64_t>(l.item) <= kCopyBytes;
}

// One op on s.current; returns its status and the result in *out. *copies: the op may return
// a copy (reshape, flatten, contiguous) instead of a view.
kf_status_t apply(Bytes& in, const State& s, kf_tensor_t* out, bool* copies) {
  const kf_tensor_t t = s.current;
  const Layout l = layout_of(t);
  int64_t list[KF_MAX_NDIM];
  switch (in.u8() % 12) {
    case 0: {
      const int64_t start = in.signed_small(), end = in.signed_small();
      const uint8_t bounds = in.u8();
      return kf_slice(t, in.signed_small(), (bounds & 1) ? &start : nullptr,
                      (bounds & 2) ? &end : nullptr, in.integer(), out);
    }
    case 1: return kf_select(t, in.signed_small(), in.signed_small(), out);
    case 2: return kf_expand(t, list, size_list(in, l, list), out);
    case 3: {
      const int32_t n = size_list(in, l, list);
      // reshape copies when no view exists: only where that copy is small and reads memory
      // that is there.
      if (!can_copy(s, t, l)) {
        return kf_view(t, list, n, out);
      }
      *copies = true;
      return kf_reshape(t, list, n, out);
    }
    case 4: return kf_view(t, list, size_list(in, l, list), out);
    case 5: {
      const int32_t n = (in.u8() & 7) == 0 ? in.u8() % 7 : l.ndim;
      for (int32_t i = 0; i < n; ++i) list[i] = in.signed_small();
      return kf_permute(t, list, n, out);
    }
    case 6: return kf_transpose(t, in.signed_small(), in.signed_small(), out);
    case 7: {
      const int32_t n = in.u8() % 4;
      for (int32_t i = 0; i < n; ++i) list[i] = in.signed_small();
      return kf_squeeze(t, (in.u8() & 1) ? nullptr : list, n, out);
    }
    case 8: return kf_unsqueeze(t, in.signed_small(), out);
    case 9: {  // flatten copies like reshape
      const int64_t start = in.signed_small(), end = in.signed_small();
      if (!can_copy(s, t, l)) return KF_OK;
      *copies = true;
      return kf_flatten(t, start, end, out);
    }
    case 10: return basic_index(in, t, out);
    default:
      if (!can_copy(s, t, l)) return KF_OK;
      *copies = true;
      return kf_contiguous(t, out);
  }
}

// Runs up to 8 ops, each on the result of the last one that succeeded.
void run_ops(Bytes& in, State& s) {
  for (int op = 0; op < 8 && !in.empty(); ++op) {
    kf_tensor_t out = nullptr;
    bool may_copy = false;
    const kf_status_t st = apply(in, s, &out, &may_copy);
    if (st != KF_OK || out == nullptr) {
      CHECK(out == nullptr);
      CHECK(st == KF_OK || kf_last_error_message()[0] != '\0');
      continue;
    }
    s.handles.push_back(out);
    void* data = nullptr;
    CHECK(kf_tensor_data_ptr(out, &data) == KF_OK);
    const char* p = static_cast<const char*>(data);
    // A result with elements outside the memory of its input can only be a fresh copy (live
    // allocations do not overlap): contiguous, and its own memory from now on.
    const i128 at = address(p) - address(s.memory.base);
    if (may_copy && numel_of(out) > 0 && (at < 0 || at >= s.memory.bytes)) {
      bool contiguous = false;
      CHECK(kf_tensor_is_contiguous(out, &contiguous) == KF_OK && contiguous);
      s.memory = Memory{p, numel_of(out) * static_cast<int64_t>(layout_of(out).item), true};
    }
    check_result(out, s.memory, s.cpu && s.memory.backed);
    s.current = out;
  }
}

bool start_runtime() {
  // One thread: the kernels' OpenMP pool only slows short inputs down, and LeakSanitizer's
  // stop-the-world check at exit fails among its idle threads.
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
  Bytes in(data, size);
  Layout l;
  kf_dtype_t dtype = KF_FLOAT32;
  bool with_strides = false;
  i128 span = 0;
  const i128 numel = make_layout(in, l, &dtype, &with_strides, &span);
  Blob blob;
  const bool backed = numel >= 0 && span <= kBackedBytes;
  blob.memory = static_cast<char*>(std::malloc(backed && span > 0 ? static_cast<size_t>(span) : 1));
  if (backed) fill(blob.memory, static_cast<int64_t>(span), dtype);
  State s;
  s.cpu = cpu;
  const kf_status_t st =
      kf_tensor_from_blob(blob.memory, l.shape, with_strides ? l.strides : nullptr, l.ndim, dtype,
                          kf_device_cpu(), delete_blob, &blob, &s.current);
  CHECK((st == KF_OK) == (numel >= 0));  // Note [The views oracle]
  if (st != KF_OK) {
    std::free(blob.memory);
    return 0;
  }
  s.handles.push_back(s.current);
  s.memory = Memory{blob.memory, static_cast<int64_t>(span), backed};
  check_result(s.current, s.memory, cpu && backed);
  run_ops(in, s);
  for (kf_tensor_t t : s.handles) CHECK(kf_tensor_release(t) == KF_OK);
  CHECK(blob.deleted == 1);
  return 0;
}
