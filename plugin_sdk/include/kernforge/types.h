/*
 * kernforge/types.h — the plain C types shared by the C ABI (kernforge.h) and the plugin ABI
 * (plugin.h): status codes, dtypes, devices, scalars. Declares no functions, so a plugin can
 * include it without linking libkernforge. Same version rules as kernforge.h.
 */
#ifndef KERNFORGE_TYPES_H_
#define KERNFORGE_TYPES_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KF_ABI_VERSION_MAJOR 2
#define KF_ABI_VERSION_MINOR 9

/** Maximum number of dimensions of a tensor. */
#define KF_MAX_NDIM 16

/* ---------------------------------------------------------------- status -- */

typedef enum kf_status_t {
  KF_OK = 0,
  KF_INVALID_ARGUMENT = 1,   /* a bad handle, shape, dim, dtype or value from the caller */
  KF_OUT_OF_MEMORY = 2,      /* an allocation failed */
  KF_NOT_FOUND = 3,          /* no op, backend, device or file of that name */
  KF_UNIMPLEMENTED = 4,      /* no kernel for this op/dtype/backend */
  KF_UNAVAILABLE = 5,        /* a driver, device or library is missing */
  KF_ALREADY_EXISTS = 6,     /* a registration conflicts with an earlier one */
  KF_FAILED_PRECONDITION = 7,/* the call is valid but not in this state */
  KF_ABI_MISMATCH = 8,       /* a plugin or struct of an incompatible ABI */
  KF_INTERNAL = 9,           /* a broken invariant: a bug, please report it */
  KF_OUT_OF_RANGE = 10,      /* an index or dim outside its range */
  KF_BUFFER_TOO_SMALL = 11,  /* a caller's buffer cannot hold the result; see `needed` */
  KF_PERMISSION_DENIED = 12, /* a file or folder may not be trusted (world-writable, foreign) */
  KF_TIMEOUT = 13,           /* a collective or rendezvous did not finish inside its timeout (2.7) */
  KF_STATUS_MAX_ENUM = 0x7fffffff /* forces 32 bits; not a status */
} kf_status_t;

/** How a collective combines the ranks' values (ABI 2.7). AVG is the sum divided by the world
 * size (integers divide toward zero). */
typedef enum kf_reduce_op_t {
  KF_REDUCE_SUM = 0,
  KF_REDUCE_PROD = 1,
  KF_REDUCE_MIN = 2,
  KF_REDUCE_MAX = 3,
  KF_REDUCE_AVG = 4,
  KF_REDUCE_OP_MAX_ENUM = 0x7fffffff /* forces 32 bits; not an op */
} kf_reduce_op_t;

typedef enum kf_log_level_t {
  KF_LOG_TRACE = 0, KF_LOG_DEBUG = 1, KF_LOG_INFO = 2, KF_LOG_WARN = 3,
  KF_LOG_ERROR = 4, KF_LOG_OFF = 6, KF_LOG_DEFAULT = -1,
  KF_LOG_LEVEL_MAX_ENUM = 0x7fffffff
} kf_log_level_t;

/* -------------------------------------------------------------- dtypes -- */

/*
 * Every dtype, once: X(SUFFIX, value, name, short name, bytes, kind, C++ name), where kind is
 * 'f' (real floating point), 'c' (complex: two floats of half its bytes, real part first),
 * 'i' (signed integer), 'u' (unsigned integer) or 'b' (bool), and the C++ name is the dtype's
 * enumerator in the C++ frontend's kf::Dtype. The enum, the inline helpers below, the SDK's
 * kernforge/dtypes.hpp and the runtime's dtype tables are all derived from this list; a plugin
 * may use it too (KF_DTYPE_LIST(MY_MACRO)) instead of keeping a list of its own. A value is the
 * dtype's place in the list and never changes within one ABI major.
 */
#define KF_DTYPE_LIST(X)                                       \
  X(FLOAT32, 0, "float32", "f32", 4, 'f', Float32)             \
  X(FLOAT64, 1, "float64", "f64", 8, 'f', Float64)             \
  X(FLOAT16, 2, "float16", "f16", 2, 'f', Float16)             \
  X(BFLOAT16, 3, "bfloat16", "bf16", 2, 'f', BFloat16)         \
  X(INT8, 4, "int8", "i8", 1, 'i', Int8)                       \
  X(UINT8, 5, "uint8", "u8", 1, 'u', UInt8)                    \
  X(INT16, 6, "int16", "i16", 2, 'i', Int16)                   \
  X(INT32, 7, "int32", "i32", 4, 'i', Int32)                   \
  X(INT64, 8, "int64", "i64", 8, 'i', Int64)                   \
  X(BOOL, 9, "bool", "bool", 1, 'b', Bool)                     \
  X(UINT16, 10, "uint16", "u16", 2, 'u', UInt16)               \
  X(UINT32, 11, "uint32", "u32", 4, 'u', UInt32)               \
  X(UINT64, 12, "uint64", "u64", 8, 'u', UInt64)               \
  X(COMPLEX64, 13, "complex64", "c64", 8, 'c', Complex64)      \
  X(COMPLEX128, 14, "complex128", "c128", 16, 'c', Complex128)

#define KF_DTYPE_ENUM_(suffix, value, name, short_name, bytes, kind, cpp_name) KF_##suffix = value,
#define KF_DTYPE_ONE_(suffix, value, name, short_name, bytes, kind, cpp_name) +1
typedef enum kf_dtype_t {
  KF_DTYPE_UNDEFINED = -1,
  KF_DTYPE_LIST(KF_DTYPE_ENUM_)
  KF_DTYPE_COUNT = 0 KF_DTYPE_LIST(KF_DTYPE_ONE_),
  KF_DTYPE_MAX_ENUM = 0x7fffffff /* forces 32 bits: any int32 a C caller passes is a valid value */
} kf_dtype_t;
#undef KF_DTYPE_ENUM_
#undef KF_DTYPE_ONE_

/** Bytes per element of `dtype`, 0 when it is not a dtype. For plugins, which do not link the
 * runtime (kf_dtype_size is the exported equivalent). */
static inline size_t kf_dtype_itemsize(int32_t dtype) {
#define KF_DTYPE_SIZE_(suffix, value, name, short_name, bytes, kind, cpp_name) \
  if (dtype == value) return bytes;
  KF_DTYPE_LIST(KF_DTYPE_SIZE_)
#undef KF_DTYPE_SIZE_
  return 0;
}

/** "float32", ... or "undefined" (static storage). For plugins; kf_dtype_name is exported. */
static inline const char* kf_dtype_string(int32_t dtype) {
#define KF_DTYPE_STRING_(suffix, value, name, short_name, bytes, kind, cpp_name) \
  if (dtype == value) return name;
  KF_DTYPE_LIST(KF_DTYPE_STRING_)
#undef KF_DTYPE_STRING_
  return "undefined";
}

/** 'f', 'c', 'i', 'u' or 'b' (see KF_DTYPE_LIST), 0 when it is not a dtype. */
static inline char kf_dtype_kind(int32_t dtype) {
#define KF_DTYPE_KIND_(suffix, value, name, short_name, bytes, kind, cpp_name) \
  if (dtype == value) return kind;
  KF_DTYPE_LIST(KF_DTYPE_KIND_)
#undef KF_DTYPE_KIND_
  return 0;
}

/* ------------------------------------------------------------- devices -- */

/* Built-in device types use DLPack's numbers. A plugin that brings a new device type gets a
 * number >= KF_DEVICE_DYNAMIC_BASE assigned at load time. */
enum {
  KF_DEVICE_NONE = 0,
  KF_DEVICE_CPU = 1,
  KF_DEVICE_CUDA = 2,
  KF_DEVICE_ROCM = 10,
  KF_DEVICE_XPU = 14,
  KF_DEVICE_DYNAMIC_BASE = 64
};

typedef struct kf_device_t {
  int32_t type;   /* KF_DEVICE_* */
  int32_t index;  /* 0-based device ordinal */
} kf_device_t;

static inline kf_device_t kf_device_cpu(void) {
  kf_device_t d; d.type = KF_DEVICE_CPU; d.index = 0; return d;
}

/* ------------------------------------------------------------- scalars -- */

typedef enum kf_scalar_tag_t {
  KF_SCALAR_FLOAT64 = 0,
  KF_SCALAR_INT64 = 1,
  KF_SCALAR_BOOL = 2,
  KF_SCALAR_UINT64 = 3,     /* since 2.0: integers in [2^63, 2^64) stay exact */
  KF_SCALAR_COMPLEX128 = 4, /* since 2.0 */
  KF_SCALAR_TAG_MAX_ENUM = 0x7fffffff
} kf_scalar_tag_t;

/** A complex number as two doubles, real part first (C99's double _Complex and
 * std::complex<double> have this layout). */
typedef struct kf_complex128_t {
  double re;
  double im;
} kf_complex128_t;

/** A tagged number, passed by value (24 bytes): integers beyond 2^53 stay exact, uint64 up to
 * 2^64 - 1, complex numbers as complex128. */
typedef struct kf_scalar_t {
  int32_t tag; /* kf_scalar_tag_t */
  union { double f64; int64_t i64; uint64_t u64; bool b; kf_complex128_t c128; } v;
} kf_scalar_t;

static inline kf_scalar_t kf_scalar_f64(double x) {
  kf_scalar_t s; s.tag = KF_SCALAR_FLOAT64; s.v.c128.im = 0; s.v.f64 = x; return s;
}
static inline kf_scalar_t kf_scalar_i64(int64_t x) {
  kf_scalar_t s; s.tag = KF_SCALAR_INT64; s.v.c128.im = 0; s.v.i64 = x; return s;
}
static inline kf_scalar_t kf_scalar_u64(uint64_t x) {
  kf_scalar_t s; s.tag = KF_SCALAR_UINT64; s.v.c128.im = 0; s.v.u64 = x; return s;
}
static inline kf_scalar_t kf_scalar_bool(bool x) {
  kf_scalar_t s; s.tag = KF_SCALAR_BOOL; s.v.c128.re = 0; s.v.c128.im = 0; s.v.b = x; return s;
}
static inline kf_scalar_t kf_scalar_c128(double re, double im) {
  kf_scalar_t s; s.tag = KF_SCALAR_COMPLEX128; s.v.c128.re = re; s.v.c128.im = im; return s;
}

/* ------------------------------------------------- tensors and boxed values -- */

/* Shared with the plugin ABI since plugin ABI 2.1 (host op calls, backward callbacks); the
 * C ABI (kernforge.h) declared them before. */

/** An opaque, reference-counted tensor handle. It names one tensor for the tensor's whole life:
 * once the last reference is released the handle is KF_INVALID_ARGUMENT for every call, even
 * after new tensors are created. A handle is a number, not an address (never dereference it). */
typedef struct kf_tensor_s* kf_tensor_t;

typedef enum kf_value_tag_t {
  KF_VALUE_NONE = 0,
  KF_VALUE_TENSOR = 1,
  KF_VALUE_INT = 2,
  KF_VALUE_FLOAT = 3,
  KF_VALUE_BOOL = 4,
  KF_VALUE_SCALAR = 5,
  KF_VALUE_DTYPE = 6,
  KF_VALUE_DEVICE = 7,
  KF_VALUE_INT_LIST = 8,
  KF_VALUE_TENSOR_LIST = 9,
  KF_VALUE_TAG_MAX_ENUM = 0x7fffffff
} kf_value_tag_t;

/** A tagged argument or result of kf_op_call. Lists are borrowed for the call. */
typedef struct kf_value_t {
  int32_t tag; /* kf_value_tag_t */
  union {
    kf_tensor_t tensor;
    int64_t i;
    double f;
    bool b;
    kf_scalar_t scalar;
    kf_dtype_t dtype;
    kf_device_t device;
    struct { const int64_t* data; int32_t len; } ints;
    struct { const kf_tensor_t* data; int32_t len; } tensors;
  } v;
} kf_value_t;

/* Constructors of kf_value_t, one per tag, for C and C++ callers alike:
 *   const kf_value_t args[2] = {kf_value_tensor(t), kf_value_float(2.0)};
 * The value only refers to what it is given: a tensor's reference stays the caller's, and a
 * list's array is borrowed and must outlive the kf_op_call that reads it. */
static inline kf_value_t kf_value_none(void) {
  kf_value_t v; v.tag = KF_VALUE_NONE; v.v.tensors.data = NULL; v.v.tensors.len = 0; return v;
}
static inline kf_value_t kf_value_tensor(kf_tensor_t t) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_TENSOR; v.v.tensor = t; return v;
}
static inline kf_value_t kf_value_int(int64_t x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_INT; v.v.i = x; return v;
}
static inline kf_value_t kf_value_float(double x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_FLOAT; v.v.f = x; return v;
}
static inline kf_value_t kf_value_bool(bool x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_BOOL; v.v.b = x; return v;
}
static inline kf_value_t kf_value_scalar(kf_scalar_t x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_SCALAR; v.v.scalar = x; return v;
}
static inline kf_value_t kf_value_dtype(kf_dtype_t x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_DTYPE; v.v.dtype = x; return v;
}
static inline kf_value_t kf_value_device(kf_device_t x) {
  kf_value_t v = kf_value_none(); v.tag = KF_VALUE_DEVICE; v.v.device = x; return v;
}
static inline kf_value_t kf_value_int_list(const int64_t* data, int32_t len) {
  kf_value_t v = kf_value_none();
  v.tag = KF_VALUE_INT_LIST; v.v.ints.data = data; v.v.ints.len = len; return v;
}
static inline kf_value_t kf_value_tensor_list(const kf_tensor_t* data, int32_t len) {
  kf_value_t v = kf_value_none();
  v.tag = KF_VALUE_TENSOR_LIST; v.v.tensors.data = data; v.v.tensors.len = len; return v;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KERNFORGE_TYPES_H_ */
