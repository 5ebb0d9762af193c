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

#define KF_ABI_VERSION_MAJOR 1
#define KF_ABI_VERSION_MINOR 1

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
  KF_STATUS_MAX_ENUM = 0x7fffffff /* forces 32 bits; not a status */
} kf_status_t;

typedef enum kf_log_level_t {
  KF_LOG_TRACE = 0, KF_LOG_DEBUG = 1, KF_LOG_INFO = 2, KF_LOG_WARN = 3,
  KF_LOG_ERROR = 4, KF_LOG_OFF = 6, KF_LOG_DEFAULT = -1,
  KF_LOG_LEVEL_MAX_ENUM = 0x7fffffff
} kf_log_level_t;

/* -------------------------------------------------------------- dtypes -- */

typedef enum kf_dtype_t {
  KF_DTYPE_UNDEFINED = -1,
  KF_FLOAT32 = 0,
  KF_FLOAT64 = 1,
  KF_FLOAT16 = 2,
  KF_BFLOAT16 = 3,
  KF_INT8 = 4,
  KF_UINT8 = 5,
  KF_INT16 = 6,
  KF_INT32 = 7,
  KF_INT64 = 8,
  KF_BOOL = 9,
  KF_DTYPE_COUNT = 10,
  KF_DTYPE_MAX_ENUM = 0x7fffffff /* forces 32 bits: any int32 a C caller passes is a valid value */
} kf_dtype_t;

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
  KF_SCALAR_TAG_MAX_ENUM = 0x7fffffff
} kf_scalar_tag_t;

/** A tagged number; integers beyond 2^53 stay exact. */
typedef struct kf_scalar_t {
  int32_t tag; /* kf_scalar_tag_t */
  union { double f64; int64_t i64; bool b; } v;
} kf_scalar_t;

static inline kf_scalar_t kf_scalar_f64(double x) {
  kf_scalar_t s; s.tag = KF_SCALAR_FLOAT64; s.v.i64 = 0; s.v.f64 = x; return s;
}
static inline kf_scalar_t kf_scalar_i64(int64_t x) {
  kf_scalar_t s; s.tag = KF_SCALAR_INT64; s.v.i64 = x; return s;
}
static inline kf_scalar_t kf_scalar_bool(bool x) {
  kf_scalar_t s; s.tag = KF_SCALAR_BOOL; s.v.i64 = 0; s.v.b = x; return s;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KERNFORGE_TYPES_H_ */
