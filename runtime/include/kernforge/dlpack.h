/*
 * kernforge/dlpack.h — the DLPack 1.1 exchange structs, declared by kernforge from the published
 * DLPack specification (https://dmlc.github.io/dlpack/latest/). kernforge.h includes it for
 * kf_tensor_to_dlpack / kf_tensor_from_dlpack.
 *
 * Plain C99. The names, numbers and field order are the specification's, so a struct made by
 * any DLPack producer (PyTorch, NumPy, CuPy, JAX, ...) is read here as it is, and the other way
 * round.
 *
 * Living next to the official header: the official dlpack.h guards itself with
 * DLPACK_DLPACK_H_. When that is already defined (the official header came first), this file
 * declares nothing and uses the official declarations, which must then be DLPack 1.x (the
 * versioned struct came with 1.0; an older header is a compile error with a message). When it is
 * not defined, this file declares the structs and defines DLPACK_DLPACK_H_ itself, so an official
 * dlpack.h included later is skipped instead of redefining them. Either order compiles.
 */
#ifndef KERNFORGE_DLPACK_H_
#define KERNFORGE_DLPACK_H_

#ifdef DLPACK_DLPACK_H_
/* The official header (or another copy of these declarations) came first. */
#  if !defined(DLPACK_MAJOR_VERSION) || DLPACK_MAJOR_VERSION < 1
#    error "kernforge needs DLPack 1.x declarations (DLManagedTensorVersioned); the dlpack.h included before kernforge.h is older (0.x): include a DLPack 1.x dlpack.h, or none"
#  endif
#else
#define DLPACK_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

/** The DLPack version these declarations follow. */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
#  define DLPACK_EXTERN_C extern "C"
#else
#  define DLPACK_EXTERN_C
#endif

/* Upstream marks its (few) functions with DLPACK_DLL; kernforge declares none. */
#ifndef DLPACK_DLL
#  define DLPACK_DLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A DLPack version. A different major changes the layout of DLManagedTensorVersioned after
 * `deleter`; a larger minor only adds values (device types, dtype codes, flag bits). */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/** Where the memory lives. The numbers are fixed by the specification (gaps included); 32 bits
 * wide in C and C++ alike. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /* host memory */
  kDLCUDA = 2,         /* CUDA device memory */
  kDLCUDAHost = 3,     /* page-locked host memory from cudaMallocHost */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,        /* ROCm/HIP device memory */
  kDLROCMHost = 11,    /* page-locked host memory from hipMallocHost */
  kDLExtDev = 12,      /* reserved for extension devices */
  kDLCUDAManaged = 13, /* CUDA managed (unified) memory */
  kDLOneAPI = 14,      /* oneAPI / SYCL unified shared memory (kernforge's xpu) */
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18          /* AWS Trainium (DLPack 1.1) */
} DLDeviceType;

/** A device: its type and its 0-based ordinal among the devices of that type. */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/** The kind of an element (DLDataType.code, stored as uint8_t). */
typedef enum {
  kDLInt = 0U,          /* signed integer */
  kDLUInt = 1U,         /* unsigned integer */
  kDLFloat = 2U,        /* IEEE floating point */
  kDLOpaqueHandle = 3U, /* an opaque handle */
  kDLBfloat = 4U,       /* bfloat16 */
  kDLComplex = 5U,      /* complex: real and imaginary parts next to each other */
  kDLBool = 6U,         /* boolean, one byte per element by convention (bits = 8) */
  /* Low-precision floating point (DLPack 1.1). */
  kDLFloat8_e3m4 = 7U,
  kDLFloat8_e4m3 = 8U,
  kDLFloat8_e4m3b11fnuz = 9U,
  kDLFloat8_e4m3fn = 10U,
  kDLFloat8_e4m3fnuz = 11U,
  kDLFloat8_e5m2 = 12U,
  kDLFloat8_e5m2fnuz = 13U,
  kDLFloat8_e8m0fnu = 14U,
  kDLFloat6_e2m3fn = 15U, /* bits = 6 */
  kDLFloat6_e3m2fn = 16U, /* bits = 6 */
  kDLFloat4_e2m1fn = 17U  /* bits = 4 */
} DLDataTypeCode;

/** An element type: `code` (a DLDataTypeCode), `bits` per lane, `lanes` per element (1 for a
 * scalar; more for vector types). float32 is {kDLFloat, 32, 1}. Native byte order. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/**
 * A strided view of memory the struct does not own.
 *  - data: the base address (a device pointer for device memory; an opaque handle on some
 *    platforms). The first element is at (char*)data + byte_offset.
 *  - shape: ndim sizes; strides: ndim strides counted in elements, not bytes, or NULL for a
 *    compact row-major layout.
 */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/**
 * The unversioned (pre-1.0, "legacy") managed tensor: a DLTensor plus the producer's context and
 * the function that frees both. The consumer calls deleter(self) once when it no longer needs
 * the memory; deleter may be NULL (nothing to free).
 */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/** Bits of DLManagedTensorVersioned.flags. */
/* The memory must not be written (the producer may share it with others). */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/* The producer made a copy for this export (nobody else sees the memory). */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/* Elements narrower than a byte are each padded to a whole byte (DLPack 1.1). */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/**
 * The versioned managed tensor (DLPack 1.0 and later). `version` comes first and keeps its
 * place in every major version, with manager_ctx and deleter after it: a consumer reads
 * `version` first and, on a major it does not know, reads nothing else but may call `deleter`.
 */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DLPACK_DLPACK_H_ */
#endif /* KERNFORGE_DLPACK_H_ */
