/*
 * kernforge.h — THE C ABI of kernforge.
 *
 * Plain C99. Every language talks to the runtime through this header only.
 *
 * Rules (stable for the whole 1.x ABI):
 *  - Every function returns kf_status_t (KF_OK == 0) except trivial accessors, which say so.
 *    On failure, kf_last_error_message() returns a thread-local text naming what failed, with
 *    which values, and what to do about it. The message stays valid until the next failing call
 *    on the same thread.
 *  - Nothing throws across this ABI. No C++ type crosses it. Outputs come last (out, out_*).
 *  - Handles are opaque and reference counted. A function that returns a new handle through `out`
 *    gives the caller one reference, released with kf_tensor_release(). Passing NULL or a
 *    released handle returns KF_INVALID_ARGUMENT, never crashes.
 *  - Structs that may grow start with `size_t struct_size`; fields are only ever appended.
 *    Callers set struct_size = sizeof(the struct they were compiled with).
 *  - Initialisation is implicit and thread-safe on first use; kf_init() may be called first to
 *    set options. A start-up that runs out of host memory fails that call with
 *    KF_OUT_OF_MEMORY and the next call starts the runtime again.
 *  - Out of memory is KF_OUT_OF_MEMORY with a message, from any function, and leaves nothing
 *    half-made: the call may simply be made again.
 *  - Thread safety: every function may be called from any thread. A tensor may be read by
 *    several threads at once; writing it while another thread uses it is a data race (as in
 *    PyTorch).
 *
 * Version rules: KF_ABI_VERSION_MAJOR changes when anything here changes incompatibly;
 * KF_ABI_VERSION_MINOR grows when functions, enum values or struct fields are appended
 * (1.1: library roots, backend failure and details; 1.2: streams and events, ops defined by
 * plugins in the boxed API, kf_op_doc, KF_KERNEL_BACKEND_FALLBACK, state and kind names;
 * 1.3: DLPack export and import, kf_tensor_to_dlpack*, kf_tensor_from_dlpack*;
 * 1.4: op argument tables, kf_op_arg_count, kf_op_arg_info, kf_op_is_inplace, kf_arg_kind_t
 * and kf_arg_kind_name). 2.0 broke the layout once: kf_scalar_t grew to 24 bytes to hold
 * uint64 and complex128 values (kf_value_t and kf_op_arg_info_t grew with it), and the dtypes
 * uint16, uint32, uint64, complex64 and complex128 joined KF_DTYPE_LIST; the functions of 1.4
 * are all in 2.0, and the library's soname follows the major (libkernforge.so.2). 2.1: basic
 * indexing in one call, kf_tensor_index, kf_tensor_item_at and kf_tensor_fill_at. 2.2: the
 * matrix decompositions and solvers, the typed kf_linalg_* entry points of
 * kernforge_ops.h, and the diagonal view, kf_diagonal. 2.3: the discrete Fourier transforms,
 * kf_fft_c2c, kf_fft_r2c and kf_fft_c2r. 2.4: autograd, kf_tensor_set_requires_grad and the
 * functions after it. 2.5: safetensors files, kf_safetensors_save, kf_safetensors_load and the
 * functions after it. 2.6: ops that write several tensors (an in-place op may write further
 * Tensor(b!) arguments, which it returns after self; an op returning nothing writes its
 * Tensor(a!)[] lists) and the fused optimizer updates kf_adamw_step_, kf_sgd_step_,
 * kf_fused_adamw and kf_fused_sgd of kernforge_ops.h. 2.7: collectives (kf_comm_t, kf_work_t,
 * kf_comm_create and the functions after it, kf_reduce_op_t) and the status KF_TIMEOUT. 2.8:
 * sub-communicators and abort, kf_comm_split and kf_comm_abort. 2.9: post-accumulate-grad
 * hooks, kf_tensor_register_post_accumulate_grad_hook and
 * kf_tensor_remove_post_accumulate_grad_hook. A kind of
 * argument added later is a new kf_arg_kind_t value (and a new
 * kf_value_t tag) in a new minor; a caller meets kinds it does not know only from a newer
 * library, and should treat such an op as one it cannot call.
 */
#ifndef KERNFORGE_KERNFORGE_H_
#define KERNFORGE_KERNFORGE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernforge/dlpack.h"
#include "kernforge/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  if defined(KF_BUILDING_CORE)
#    define KF_API __declspec(dllexport)
#  else
#    define KF_API __declspec(dllimport)
#  endif
#else
#  define KF_API __attribute__((visibility("default")))
#endif

/* ---------------------------------------------------------------- status -- */

/** The thread-local message of the last failure on this thread ("" if none). Never NULL. */
KF_API const char* kf_last_error_message(void);
/** "KF_OK", "KF_INVALID_ARGUMENT", ... (trivial accessor). */
KF_API const char* kf_status_name(kf_status_t status);

/* ------------------------------------------------------------ versions -- */

/** The ABI version this library implements. Both pointers may be NULL. */
KF_API kf_status_t kf_abi_version(uint32_t* out_major, uint32_t* out_minor);
/** The package version string, e.g. "0.1.0" (trivial accessor, static storage). */
KF_API const char* kf_version(void);

/* --------------------------------------------------------------- init -- */

typedef struct kf_init_options_t {
  size_t struct_size;
  /** Extra plugin manifests or plugin folders, absolute paths, searched first. May be NULL. */
  const char* const* plugin_paths;
  int32_t plugin_path_count;
  /** 1 = discover plugins (default), 0 = load only plugin_paths, -1 = default. */
  int32_t autoload;
  /** Log level; KF_LOG_DEFAULT keeps KERNFORGE_LOG_LEVEL or "warn". */
  int32_t log_level;
  /* ---- ABI 1.1 ---- */
  /** Extra roots for plugins' native dependencies, absolute paths (the Python frontend passes
   * its site-packages folders): each root R is searched as R/nvidia/<folder>/lib for every
   * "folders" entry of a manifest's preload list, after the manifest's own "search" list.
   * May be NULL. */
  const char* const* library_roots;
  int32_t library_root_count;
} kf_init_options_t;

/**
 * Initialises the runtime with options (NULL = defaults). Optional: the first call of any other
 * function initialises with defaults. Returns KF_FAILED_PRECONDITION if the runtime is already
 * initialised with other options.
 */
KF_API kf_status_t kf_init(const kf_init_options_t* options);

/* -------------------------------------------------------------- dtypes -- */

/** "float32", ... or "undefined" (trivial accessor). */
KF_API const char* kf_dtype_name(kf_dtype_t dtype);
/** Size of one element in bytes, 0 for an unknown dtype (trivial accessor). */
KF_API size_t kf_dtype_size(kf_dtype_t dtype);
/** Parses "float32", "f32", "int64", "bool", ... */
KF_API kf_status_t kf_dtype_parse(const char* name, kf_dtype_t* out);
/** PyTorch's type promotion of two dtypes; KF_INVALID_ARGUMENT when no dtype holds both
 *  (uint64 with a signed integer). */
KF_API kf_status_t kf_promote_types(kf_dtype_t a, kf_dtype_t b, kf_dtype_t* out);

/* ------------------------------------------------------------- devices -- */

/** Parses "cpu", "cuda:1", "xpu", ... (index defaults to 0). */
KF_API kf_status_t kf_device_parse(const char* text, kf_device_t* out);
/** Writes "cpu", "cuda:1", ... into buf (NUL-terminated); KF_BUFFER_TOO_SMALL if cap is short. */
KF_API kf_status_t kf_device_name(kf_device_t device, char* buf, size_t cap);

/* ------------------------------------------------------------- tensors -- */

/* kf_tensor_t, the tensor handle, is declared in kernforge/types.h (plugins see it too). */

/** Called when the runtime no longer uses memory borrowed by kf_tensor_from_blob. */
typedef void (*kf_deleter_t)(void* data, void* ctx);

/** A new, uninitialised, contiguous tensor on `device`. */
KF_API kf_status_t kf_tensor_empty(const int64_t* shape, int32_t ndim, kf_dtype_t dtype,
                                   kf_device_t device, kf_tensor_t* out);
/** A new contiguous tensor on `device`, with numel*itemsize bytes copied from host_data (bool
 * bytes are copied as 0 or 1: any nonzero byte is true). */
KF_API kf_status_t kf_tensor_from_data(const void* host_data, const int64_t* shape, int32_t ndim,
                                       kf_dtype_t dtype, kf_device_t device, kf_tensor_t* out);
/**
 * A tensor over memory the caller owns (no copy). strides are in elements; NULL = contiguous.
 * `deleter(data, ctx)` runs once when the last view of it is released (deleter may be NULL).
 * `data` must stay valid until then. When the call fails, the deleter is not called: the caller
 * keeps the memory.
 *
 * The memory: `data` is the address of element [0, ..., 0] and the lowest address used. The
 * caller vouches for the bytes from `data` up to the end of the last element the strides reach,
 * (sum of (shape[i] - 1) * strides[i] + 1) * itemsize, and for nothing else: negative strides
 * (they would reach before `data`) are KF_INVALID_ARGUMENT, and so are a shape, strides or that
 * byte count that do not fit in int64, or a span that wraps the address space; the message
 * names the shape and strides. Views of the tensor stay inside that span. A bool tensor's bytes
 * are the caller's as they are: a nonzero byte is true to every kernel (as for DLPack imports).
 */
KF_API kf_status_t kf_tensor_from_blob(void* data, const int64_t* shape, const int64_t* strides,
                                       int32_t ndim, kf_dtype_t dtype, kf_device_t device,
                                       kf_deleter_t deleter, void* ctx, kf_tensor_t* out);
/** Copies the tensor's elements in row-major order to host memory. `bytes` must equal numel *
 * itemsize. Runs on the calling thread's current stream of the tensor's device and waits for
 * it, so the copy sees the work queued there before it. */
KF_API kf_status_t kf_tensor_copy_to_host(kf_tensor_t t, void* dst, size_t bytes);
/** A copy of `t` on `device` with `dtype` (KF_DTYPE_UNDEFINED keeps the dtype). */
KF_API kf_status_t kf_tensor_to(kf_tensor_t t, kf_device_t device, kf_dtype_t dtype,
                                kf_tensor_t* out);

/** Adds one reference. */
KF_API kf_status_t kf_tensor_retain(kf_tensor_t t);
/** Drops one reference; the last one frees the tensor (its storage when no view remains).
 * Releasing NULL is KF_OK (like free(NULL)). */
KF_API kf_status_t kf_tensor_release(kf_tensor_t t);

/* Accessors. They return KF_INVALID_ARGUMENT for a bad handle. */
KF_API kf_status_t kf_tensor_ndim(kf_tensor_t t, int32_t* out);
/** Points to ndim int64 valid while `t` lives. */
KF_API kf_status_t kf_tensor_shape(kf_tensor_t t, const int64_t** out);
/** Strides in elements; points to ndim int64 valid while `t` lives. */
KF_API kf_status_t kf_tensor_strides(kf_tensor_t t, const int64_t** out);
KF_API kf_status_t kf_tensor_dtype(kf_tensor_t t, kf_dtype_t* out);
KF_API kf_status_t kf_tensor_device(kf_tensor_t t, kf_device_t* out);
KF_API kf_status_t kf_tensor_numel(kf_tensor_t t, int64_t* out);
/** Address of element [0,...,0] (storage base + offset). */
KF_API kf_status_t kf_tensor_data_ptr(kf_tensor_t t, void** out);
KF_API kf_status_t kf_tensor_is_contiguous(kf_tensor_t t, bool* out);
/** The value of a 1-element tensor as a scalar, exactly: float64 for the floating dtypes,
 * complex128 for the complex ones, int64 for the integers (uint64 above int64's maximum), bool
 * for bool. */
KF_API kf_status_t kf_tensor_item(kf_tensor_t t, kf_scalar_t* out);

/* ---- ABI 2.1: basic indexing in one call ---- */

/** The kinds of item of a basic index: the keys numpy answers with a view. */
typedef enum kf_index_kind_t {
  KF_INDEX_INT = 0,       /* an index along the next dim, which it removes (< 0: from the end) */
  KF_INDEX_SLICE = 1,     /* start:stop:step along the next dim, with Python's rules */
  KF_INDEX_NEW_AXIS = 2,  /* None: a new dim of size 1 */
  KF_INDEX_ELLIPSIS = 3,  /* ...: the dims no other item takes (at most one per key) */
  KF_INDEX_KIND_MAX_ENUM = 0x7fffffff
} kf_index_kind_t;

/** One item of a basic index. An array element, so it never grows: a new kind of item is a new
 * kf_index_kind_t value. Fields a kind does not name are not read. */
typedef struct kf_index_item_t {
  int32_t kind;        /* kf_index_kind_t */
  bool has_start;      /* KF_INDEX_SLICE: false = Python's None (from the step's end) */
  bool has_stop;       /* KF_INDEX_SLICE: false = Python's None */
  int64_t index;       /* KF_INDEX_INT */
  int64_t start;       /* KF_INDEX_SLICE, read when has_start */
  int64_t stop;        /* KF_INDEX_SLICE, read when has_stop */
  int64_t step;        /* KF_INDEX_SLICE: any nonzero value; negative walks backwards */
} kf_index_item_t;

/** The view of t that the basic index `items[0..count)` names, as numpy's t[key] (`count` may
 * be 0: a view of the whole tensor). The key is checked whole and then in order, and nothing
 * is made when it fails: KF_OUT_OF_RANGE for a second ellipsis, more ints and slices than t
 * has dims, or an int outside its dim; KF_INVALID_ARGUMENT for a slice step of 0, an unknown
 * kind, or a result of more than KF_MAX_NDIM dims. The view is the one that kf_select,
 * kf_slice and kf_unsqueeze would make item by item, and is made by them, one op per item, while
 * a functionality layer (profiler, autograd) is active. */
KF_API kf_status_t kf_tensor_index(kf_tensor_t t, const kf_index_item_t* items, int32_t count,
                                   kf_tensor_t* out);
/** The element of t at `index` (`count` == t's ndim ints; negative ones count from the end), as
 * kf_tensor_item reads it, without making a view; KF_OUT_OF_RANGE for an index outside its dim
 * or a count that is not t's ndim. */
KF_API kf_status_t kf_tensor_item_at(kf_tensor_t t, const int64_t* index, int32_t count,
                                     kf_scalar_t* out);
/** Sets the element of t at `index` (as kf_tensor_item_at) to `value`, as kf_fill_ of that
 * element's view: the same conversion of the scalar and the same errors, through t's backend,
 * on the calling thread's current stream. */
KF_API kf_status_t kf_tensor_fill_at(kf_tensor_t t, const int64_t* index, int32_t count,
                                     kf_scalar_t value);

/* ------------------------------------------------------ DLPack (ABI 1.3) -- */

/*
 * Zero-copy exchange with other array libraries through DLPack 1.x (kernforge/dlpack.h). Both
 * directions share memory: nothing is copied, and a write through either side is seen by the
 * other (with the usual rule that two writers at once are a data race).
 *
 * What kernforge exports (kf_tensor_to_dlpack, kf_tensor_to_dlpack_legacy):
 *  - dl_tensor.data is the address of element [0, ..., 0] (what kf_tensor_data_ptr returns) and
 *    byte_offset is 0, for views too. (The specification recommends keeping data at a 256-byte
 *    aligned base and moving the view's start into byte_offset; the libraries that import
 *    DLPack read data + byte_offset either way, PyTorch, NumPy and CuPy export this same form,
 *    and the base of borrowed memory is not aligned to anything, so kernforge keeps the form
 *    that needs no base.)
 *  - shape and strides are ndim int64 each, strides in elements, never NULL (also for ndim 0).
 *    They live in the export's own allocation and stay valid until its deleter runs.
 *  - device is {kernforge device type, index}: kernforge's built-in device types use DLPack's
 *    numbers (cpu kDLCPU, cuda kDLCUDA, rocm kDLROCM, xpu kDLOneAPI). A tensor on a device type a
 *    plugin brought (numbers from KF_DEVICE_DYNAMIC_BASE) has no DLPack number: KF_UNIMPLEMENTED.
 *  - dtype: float16/32/64 are kDLFloat, bfloat16 kDLBfloat, int* kDLInt, uint* kDLUInt, bool
 *    kDLBool (8 bits); lanes 1.
 *  - versioned: version {1, 1} (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION of kernforge/dlpack.h)
 *    and flags 0 (kernforge tensors are writable and the export is not a copy).
 *  - The export holds one reference to `t` (so its memory stays alive even when the caller
 *    releases `t` right away). The consumer calls `(*out)->deleter(*out)` exactly once, from
 *    any thread, when it is done: that drops the reference and frees the struct. Until then the
 *    consumer must not modify the struct.
 *  - The memory is the tensor's memory on its device: work kernforge queued on an asynchronous
 *    device may still be writing it. Call kf_synchronize(device) (or synchronize the stream the
 *    work was queued on) before another library reads it.
 *
 * What kernforge imports (kf_tensor_from_dlpack, kf_tensor_from_dlpack_legacy):
 *  - The new tensor uses the memory in place, like kf_tensor_from_blob with data + byte_offset
 *    as the address of element [0, ..., 0], and the same checks of its span, but the producer
 *    vouches for every element its strides reach: negative strides are taken (NumPy exports
 *    x[::-1] so), and the tensor's memory is the span from its lowest element to its highest.
 *  - On success the tensor owns `src`: kernforge calls src->deleter(src) exactly once (when it
 *    is not NULL), when the last tensor or view over the memory is released, from the thread
 *    that releases it. The caller must not use or free `src` any more.
 *  - On failure nothing changed: `src` still belongs to the caller, its deleter was not
 *    called, and `*out` is untouched. The caller usually calls src->deleter(src) itself (a
 *    PyCapsule's destructor does). For a versioned struct whose major version is not 1, the
 *    specification allows reading nothing but `version`, `manager_ctx` and `deleter`: call the
 *    deleter.
 *  - Refused, with KF_INVALID_ARGUMENT unless noted and a message naming the value:
 *    NULL src or out; a versioned struct of DLPack major != 1 (KF_ABI_MISMATCH, naming both
 *    versions; a newer minor is read); the READ_ONLY flag (kernforge tensors are writable: copy
 *    the tensor first, e.g. ask the producer for a copy, and import the copy); lanes != 1,
 *    bits < 8 (sub-byte types) and any code/bits kernforge has no dtype for (float8, complex32,
 *    opaque handles, ...); a device type no loaded backend serves, such as kDLCUDAHost,
 *    kDLOpenCL or a number kernforge does not know, and a device index beyond the serving
 *    backend's device count (KF_UNAVAILABLE); ndim < 0 or > KF_MAX_NDIM; NULL shape with
 *    ndim > 0; negative sizes; NULL data with elements; a first element not aligned to the
 *    element size; element counts, strides or byte spans that do not fit in int64, and a byte_offset or span
 *    that wraps the address space. NULL strides mean compact row-major, as the specification
 *    allows. The other flags (IS_COPIED, IS_SUBBYTE_TYPE_PADDED: no kernforge dtype is narrower
 *    than a byte) and unknown flag bits are ignored.
 */

/** Exports `t` as a versioned DLPack tensor (DLPack >= 1.0 consumers). `*out` is the caller's
 * until it calls (*out)->deleter(*out). See above for the layout and ownership. */
KF_API kf_status_t kf_tensor_to_dlpack(kf_tensor_t t, DLManagedTensorVersioned** out);
/** The same as the unversioned struct, for consumers that ask for a DLPack version below 1.0
 * (no version, no flags). The caller calls (*out)->deleter(*out) once. */
KF_API kf_status_t kf_tensor_to_dlpack_legacy(kf_tensor_t t, DLManagedTensor** out);
/** A tensor over the memory of a versioned DLPack tensor, without a copy. On success the tensor
 * owns `src` (its deleter runs once, when the memory's last tensor is released); on failure the
 * caller still owns it. The caller owns one reference to `*out`. */
KF_API kf_status_t kf_tensor_from_dlpack(DLManagedTensorVersioned* src, kf_tensor_t* out);
/** The same for the unversioned struct (producers of DLPack below 1.0, or asked for one). */
KF_API kf_status_t kf_tensor_from_dlpack_legacy(DLManagedTensor* src, kf_tensor_t* out);

/* ------------------------------------------------------------ boxed ops -- */

/** An op of the registry. Valid for the life of the process. */
typedef const struct kf_op_s* kf_op_t;

/* kf_value_t, its tags and its constructors (kf_value_tensor, kf_value_float, ...) are declared
 * in kernforge/types.h: the plugin ABI's op calls and backward callbacks (plugin ABI 2.1) take
 * them too. */

/** Finds an op by name: "add", or "toy::scale" for an op a plugin defined. */
KF_API kf_status_t kf_op_find(const char* name, kf_op_t* out);
/** Number of ops in the registry (trivial accessor). */
KF_API int32_t kf_op_count(void);
KF_API kf_status_t kf_op_at(int32_t index, kf_op_t* out);
/** The op's name, e.g. "add" (static storage). */
KF_API const char* kf_op_name(kf_op_t op);
/** The op's schema string, e.g. "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor". */
KF_API const char* kf_op_schema(kf_op_t op);
/** The op's one-line description (static storage; "" for an invalid handle). ABI 1.2. */
KF_API const char* kf_op_doc(kf_op_t op);
/** The number of tensors the op returns (what kf_op_call's nresults must be; 0 for an op that
 * writes its tensor lists and returns nothing, ABI 2.6; -1 for an invalid handle; trivial
 * accessor). ABI 1.2. */
KF_API int32_t kf_op_num_returns(kf_op_t op);
/**
 * Calls an op with `nargs` arguments in schema order (trailing defaulted arguments may be
 * omitted; KF_VALUE_NONE also means "default"). Results are written to `results`
 * (tensors the caller owns). nresults must equal the op's number of returns. An in-place op's
 * results are the tensors it wrote: self, then any further written argument (ABI 2.6).
 */
KF_API kf_status_t kf_op_call(kf_op_t op, const kf_value_t* args, int32_t nargs,
                              kf_value_t* results, int32_t nresults);

/** How a backend serves an op. */
typedef enum kf_kernel_kind_t {
  KF_KERNEL_NONE = 0,      /* nothing: the call fails with KF_UNIMPLEMENTED (or CPU fallback) */
  KF_KERNEL_BACKEND = 1,   /* a kernel the backend registered */
  KF_KERNEL_COMPOSITE = 2, /* the core's composite implementation (from other ops) */
  KF_KERNEL_VIEW = 3,      /* a view computed in the core; no kernel */
  KF_KERNEL_FALLBACK = 4,  /* the CPU fallback (copy to the CPU, run, copy back) */
  KF_KERNEL_BACKEND_FALLBACK = 5, /* the backend's own boxed fallback (ABI 1.2) */
  KF_KERNEL_KIND_MAX_ENUM = 0x7fffffff
} kf_kernel_kind_t;

typedef struct kf_kernel_info_t {
  size_t struct_size;
  int32_t kind;          /* kf_kernel_kind_t */
  uint32_t dtype_mask;   /* bit (1u << dtype) per supported dtype; all bits for composite/view */
  const char* provenance;/* "cpu: backends/cpu/binary.cpp:42", or "core"; static storage */
} kf_kernel_info_t;

/**
 * How backend `backend_index` (see kf_backend_info) serves `op`: the most specific way it
 * serves any dtype (its own kernel, then the core's composite or view, then its own fallback,
 * then the CPU fallback), with the dtypes served that way.
 */
KF_API kf_status_t kf_op_kernel_info(kf_op_t op, int32_t backend_index, kf_kernel_info_t* out);
/** "backend", "composite", "view", "backend fallback", "fallback", "none" (trivial accessor;
 * "unknown" for other values). ABI 1.2. */
KF_API const char* kf_kernel_kind_name(int32_t kind);

/* ------------------------------------------------- op argument tables (ABI 1.4) -- */

/*
 * Every op's arguments as the registry holds them, so that a frontend builds its functions
 * without parsing kf_op_schema's text: for the ops of dispatcher/ops.yaml the tables are
 * generated at build time (tools/codegen), for the ops plugins define they are made from the
 * schema when the op is defined; both come from one grammar (docs/architecture.md).
 */

/* KF_ARG_KIND_LIST, generated from the one list of argument kinds (tools/codegen/schema.py). */
#include "kernforge/kernforge_arg_kinds.h"

/** The kind of an argument: KF_ARG_KIND_TENSOR ("Tensor"), KF_ARG_KIND_INT_LIST ("int[]"),
 * KF_ARG_KIND_DTYPE ("ScalarType"), ... (KF_ARG_KIND_LIST). A kind's value is the kf_value_t
 * tag a value of that kind carries in kf_op_call (KF_ARG_KIND_INT == KF_VALUE_INT). */
typedef enum kf_arg_kind_t {
#define KF_ARG_KIND_ENUM_(name, text, value_tag) KF_ARG_KIND_##name = value_tag,
  KF_ARG_KIND_LIST(KF_ARG_KIND_ENUM_)
#undef KF_ARG_KIND_ENUM_
  KF_ARG_KIND_MAX_ENUM = 0x7fffffff
} kf_arg_kind_t;

/** One argument of an op, in schema order. Strings and the default's list have static storage
 * (ops.yaml's) or the registry's (an op a plugin defined: they live as long as the process).
 * `written` marks the one argument an op writes, the self of an in-place op; out= tensors are
 * not arguments of an op (they are the typed entry points' kf_<op>_out outputs). */
typedef struct kf_op_arg_info_t {
  size_t struct_size;        /* set by the caller: sizeof(kf_op_arg_info_t) */
  const char* name;          /* "self", "alpha", ... */
  int32_t kind;              /* kf_arg_kind_t */
  bool optional;             /* Tensor?, int[]?, ...: None (KF_VALUE_NONE) may be passed */
  bool kwarg_only;           /* after '*' in the schema */
  bool has_default;          /* may be omitted (or passed as KF_VALUE_NONE) */
  bool written;              /* Tensor(a!): the op writes it (the self of an in-place op) */
  kf_value_t default_value;  /* the default; KF_VALUE_NONE when it is None or there is none */
} kf_op_arg_info_t;

/** The number of the op's arguments (what kf_op_arg_info's index runs below; -1 for an invalid
 * handle; trivial accessor). ABI 1.4. */
KF_API int32_t kf_op_arg_count(kf_op_t op);
/**
 * Fills `out` with argument `index` (0 .. kf_op_arg_count - 1) of `op`. KF_INVALID_ARGUMENT for
 * an invalid handle, a NULL out or a struct_size smaller than the struct of ABI 1.4;
 * KF_OUT_OF_RANGE for an index outside the op's arguments. ABI 1.4.
 */
KF_API kf_status_t kf_op_arg_info(kf_op_t op, int32_t index, kf_op_arg_info_t* out);
/** 1 when the op writes its first argument and returns it (copy_, fill_: a name ending in
 * '_'; from ABI 2.6 it may write and return further arguments after it), 0 when not, -1 for an invalid handle (trivial accessor). ABI 1.4. */
KF_API int32_t kf_op_is_inplace(kf_op_t op);
/** The kind as a schema spells it: "Tensor", "int[]", "ScalarType", ... (trivial accessor;
 * "unknown" for other values). ABI 1.4. */
KF_API const char* kf_arg_kind_name(int32_t kind);

/* --------------------------------------------------------------- runtime -- */

typedef enum kf_backend_state_t {
  KF_BACKEND_LOADED = 0,
  KF_BACKEND_UNAVAILABLE = 1,
  KF_BACKEND_REJECTED = 2,
  KF_BACKEND_SHADOWED = 3,
  KF_BACKEND_STATE_MAX_ENUM = 0x7fffffff
} kf_backend_state_t;

typedef struct kf_backend_info_t {
  size_t struct_size;
  const char* name;            /* "cpu" */
  const char* version;         /* the plugin's version */
  const char* device_type_name;/* "cpu", "cuda", ... */
  int32_t device_type;         /* KF_DEVICE_*; 0 when not loaded */
  int32_t device_count;
  int32_t state;               /* kf_backend_state_t */
  const char* reason;          /* why not loaded; "" when loaded */
  const char* library_path;    /* absolute path of the plugin library ("" if not found) */
  const char* manifest_path;   /* absolute path of its manifest ("" for kf_load_plugin(lib)) */
  /* ---- ABI 1.1 (filled when struct_size covers them) ---- */
  int32_t failure;             /* kf_status_t: KF_OK when loaded, else what kf_load_plugin returned */
  const char* details;         /* the plugin's own description (versions, devices); may be "" */
} kf_backend_info_t;

/** "loaded", "unavailable", "rejected", "shadowed" (trivial accessor; "unknown" for other
 * values). ABI 1.2. */
KF_API const char* kf_backend_state_name(int32_t state);

/** Number of backends the loader knows of, in every state (trivial accessor, initialises). */
KF_API int32_t kf_backend_count(void);
/** Strings stay valid for the life of the process. */
KF_API kf_status_t kf_backend_info(int32_t index, kf_backend_info_t* out);
/**
 * The load report (docs/loader.md) as JSON. Writes at most `cap` bytes (NUL included) to
 * buf and the size it needs (NUL included) to `needed` (may be NULL). KF_BUFFER_TOO_SMALL when
 * cap < needed; call again with a larger buffer. buf may be NULL when cap is 0.
 */
KF_API kf_status_t kf_runtime_report_json(char* buf, size_t cap, size_t* needed);
/**
 * Loads one plugin from its manifest (.json) or library (.so) by absolute path, after start-up
 * (the Python frontend loads its `kernforge.backends` entry points this way). KF_ALREADY_EXISTS
 * when a plugin already serves its device type or its library is already loaded.
 */
KF_API kf_status_t kf_load_plugin(const char* path);
/**
 * Reads the plugin manifest at `path` (absolute) with the loader's own parser and rules, as
 * start-up would, without starting the runtime or loading anything: KF_OK when the loader
 * would take it, else KF_INVALID_ARGUMENT (KF_NOT_FOUND: no such file) with a message naming
 * the file, the field and what is wrong. `kernforge check-manifest` calls it, and the SDK's
 * kernforge_add_plugin runs that on every manifest it writes. ABI 1.4.
 */
KF_API kf_status_t kf_plugin_manifest_check(const char* path);

/** Waits until all work queued on `device` is done. */
KF_API kf_status_t kf_synchronize(kf_device_t device);
/** Seeds the random number generators of every backend. */
KF_API kf_status_t kf_manual_seed(uint64_t seed);
/** Number of threads the CPU kernels use, 1 <= n <= four times the machine's hardware threads
 * (at least 64): a larger n is KF_INVALID_ARGUMENT, naming the bound. KERNFORGE_NUM_THREADS=n
 * sets it at start-up, within the same bound. */
KF_API kf_status_t kf_set_num_threads(int32_t n);
KF_API kf_status_t kf_get_num_threads(int32_t* out);

typedef struct kf_memory_stats_t {
  size_t struct_size;
  uint64_t allocated_bytes;   /* held by live tensors */
  uint64_t reserved_bytes;    /* held by the caching allocator, live + cached */
  uint64_t peak_allocated_bytes;
  uint64_t num_allocs;        /* allocations served */
  uint64_t num_cache_hits;    /* served from the cache */
} kf_memory_stats_t;

/** Fills out (any struct_size from ABI 1.0 on: the fields the caller's struct has). */
KF_API kf_status_t kf_memory_stats(kf_device_t device, kf_memory_stats_t* out);
/** Returns cached, unused blocks of `device` to its backend. */
KF_API kf_status_t kf_empty_cache(kf_device_t device);

/* ----------------------------------------------------- streams and events (ABI 1.2) -- */

/*
 * A stream is an ordered queue of work on one device; kernels and copies are queued on the
 * calling thread's current stream of their device, and copies to the host wait for it. NULL is
 * a device's default stream wherever a stream is passed with a device, a tensor or an event to
 * say which device. On a synchronous backend (the CPU) every stream is one queue and events
 * hold the host time they were recorded at. Handles are opaque numbers; a released handle is
 * always a clean KF_INVALID_ARGUMENT, even once a new stream or event exists. Every function may
 * be called from any thread.
 */
typedef struct kf_stream_s* kf_stream_t;
typedef struct kf_event_s* kf_event_t;

/** A new stream on `device` (the caller owns one reference). */
KF_API kf_status_t kf_stream_create(kf_device_t device, kf_stream_t* out);
/** Drops the caller's reference, once (a second release of the handle is KF_INVALID_ARGUMENT);
 * the stream goes when no reference and no memory block uses it (work already queued on it
 * completes). Releasing NULL is KF_OK. */
KF_API kf_status_t kf_stream_release(kf_stream_t stream);
/** Waits until everything queued on `stream` is done (NULL: use kf_synchronize(device)). */
KF_API kf_status_t kf_stream_synchronize(kf_stream_t stream);
/** The calling thread's current stream on `device`: NULL while it is the default stream. The
 * handle is borrowed (valid while it is current or referenced elsewhere). */
KF_API kf_status_t kf_current_stream(kf_device_t device, kf_stream_t* out);
/** Makes `stream` (NULL = the default) the calling thread's current stream on `device`; the
 * thread holds a reference to it meanwhile. */
KF_API kf_status_t kf_set_current_stream(kf_device_t device, kf_stream_t stream);

/** A new event on `device` (the caller owns it). */
KF_API kf_status_t kf_event_create(kf_device_t device, kf_event_t* out);
/** Destroys an event. Releasing NULL is KF_OK. */
KF_API kf_status_t kf_event_release(kf_event_t event);
/** Marks the point in `stream` (NULL = the event's device's default) after the work queued so
 * far. */
KF_API kf_status_t kf_event_record(kf_event_t event, kf_stream_t stream);
/** Makes later work on `stream` (NULL = the default) wait until `event` is passed, without
 * blocking the calling thread. */
KF_API kf_status_t kf_stream_wait_event(kf_stream_t stream, kf_event_t event);
/** Blocks until the work before the event's last record is done. */
KF_API kf_status_t kf_event_synchronize(kf_event_t event);
/** *out = true when the work before the event's last record is done; never blocks where the
 * backend can tell. */
KF_API kf_status_t kf_event_query(kf_event_t event, bool* out);
/** Milliseconds between two recorded events of one device. */
KF_API kf_status_t kf_event_elapsed_ms(kf_event_t start, kf_event_t end, double* out);
/** Marks `t`'s memory as used on `stream` (NULL = the default) as well as the stream it was
 * allocated on: when the tensor is freed, its memory is reused only after the work queued on
 * `stream` so far is done (PyTorch's record_stream). */
KF_API kf_status_t kf_tensor_record_stream(kf_tensor_t t, kf_stream_t stream);


/* ------------------------------------------------------------- autograd (2.4) -- */
/* Reverse-mode automatic differentiation (docs/autograd.md). A tensor marked requires_grad
 * (a leaf) and every result computed from it under grad mode record how they were made; a
 * backward from an output adds the gradients into the leaves' .grad. Grad mode is per
 * thread and on by default. Floating-point and complex tensors can require grad (a complex
 * one gets dL/d(Re z) + i dL/d(Im z) of a real loss L, as in PyTorch). */

/** Marks a leaf tensor (one no recorded op made) as requiring grad, or not. */
KF_API kf_status_t kf_tensor_set_requires_grad(kf_tensor_t t, bool requires_grad);
/** Whether gradients flow to t: a leaf marked requires_grad, or a result recorded from one. */
KF_API kf_status_t kf_tensor_requires_grad(kf_tensor_t t, bool* out);
/** Whether t is a leaf: no recorded op made it. */
KF_API kf_status_t kf_tensor_is_leaf(kf_tensor_t t, bool* out);
/** A new handle to t's accumulated gradient, or NULL in *out when it has none. */
KF_API kf_status_t kf_tensor_grad(kf_tensor_t t, kf_tensor_t* out);
/** Replaces t's gradient (grad NULL: clears it, as an optimizer's zero_grad does). */
KF_API kf_status_t kf_tensor_set_grad(kf_tensor_t t, kf_tensor_t grad);
/** A view of t's elements that does not require grad and records nothing. */
KF_API kf_status_t kf_tensor_detach(kf_tensor_t t, kf_tensor_t* out);
/** The name of the op that made t ("mul", "AccumulateGrad" is never returned), or NULL in
 * *out for a leaf. The string lives as long as the library. */
KF_API kf_status_t kf_tensor_grad_fn_name(kf_tensor_t t, const char** out);
/** Backward from outputs[0..count): grad_outputs NULL (or an entry NULL) seeds a one-element
 * output with 1. retain_graph keeps the saved tensors for another backward; create_graph
 * records the backward itself, for a gradient of a gradient. */
KF_API kf_status_t kf_backward(const kf_tensor_t* outputs, const kf_tensor_t* grad_outputs,
                               int32_t count, bool retain_graph, bool create_graph);
/** The gradients of outputs with respect to inputs[0..input_count), as new handles in
 * grads_out (NULL for an unused input when allow_unused), without touching any .grad. */
KF_API kf_status_t kf_autograd_grad(const kf_tensor_t* outputs, const kf_tensor_t* grad_outputs,
                                    int32_t output_count, const kf_tensor_t* inputs,
                                    int32_t input_count, bool retain_graph, bool create_graph,
                                    bool allow_unused, kf_tensor_t* grads_out);
/** Turns grad mode on or off for the calling thread; *previous (if not NULL) gets the old mode. */
KF_API kf_status_t kf_set_grad_enabled(bool enabled, bool* previous);
/** Whether grad mode is on for the calling thread. */
KF_API kf_status_t kf_is_grad_enabled(bool* out);

/* ----------------------------------------------- post-accumulate-grad hooks (2.9) -- */
/* A function a backward calls right after it accumulated a leaf's gradient into the leaf's
 * .grad (kf_tensor_grad then gives the new gradient), as PyTorch's
 * Tensor.register_post_accumulate_grad_hook: on the thread running kf_backward, with the
 * backward's grad mode (off unless create_graph), once per backward that reached the leaf, the
 * leaf's hooks in the order registered. kf_autograd_grad calls none: it accumulates nothing.
 * `leaf` is borrowed for the call (kf_tensor_retain it to keep it). A hook may call the C ABI,
 * register hooks (they run from the next backward) and remove hooks (a removed one is not
 * called). A status other than KF_OK stops the backward, which returns that status with a
 * message naming the leaf and the hook's own message (kf_last_error_message() when the hook
 * returned); the gradients accumulated before stay in .grad. A hook must not throw. */
typedef kf_status_t (*kf_post_accumulate_grad_hook_fn)(kf_tensor_t leaf, void* user_data);
/** Called once with a hook's user_data when the hook is removed or its leaf freed (once no call
 * of the hook is running). */
typedef void (*kf_hook_release_fn)(void* user_data);
/** Registers fn(leaf, user_data) on `leaf`, a leaf that requires grad (ABI 2.9; a non-leaf or a
 * tensor that does not require grad is KF_INVALID_ARGUMENT); `release` (may be NULL) gets
 * user_data when the hook goes. *out_handle gets the hook's handle, unique in the process. On
 * failure nothing is kept and release is not called. */
KF_API kf_status_t kf_tensor_register_post_accumulate_grad_hook(
    kf_tensor_t leaf, kf_post_accumulate_grad_hook_fn fn, void* user_data,
    kf_hook_release_fn release, uint64_t* out_handle);
/** Removes the hook `handle` of `leaf` (ABI 2.9): KF_NOT_FOUND when the leaf has no such hook
 * (removed already, or another tensor's). */
KF_API kf_status_t kf_tensor_remove_post_accumulate_grad_hook(kf_tensor_t leaf, uint64_t handle);

/* ---------------------------------------------------------- safetensors files (2.5) -- */
/* Tensors saved to and loaded from safetensors files (docs/serialization.md): 8 bytes of header
 * length (a little-endian u64), a JSON header naming each tensor's dtype, shape and byte range,
 * then the bytes, contiguous, row-major and little-endian. The dtypes are all kernforge's but
 * complex128, which the format has no code for (BOOL, U8, I8, U16, I16, U32, I32, U64, I64,
 * F16, BF16, F32, F64, C64). A file that breaks any rule of the format (a length or offset
 * outside the file, JSON that is not the header's shape, an unknown dtype, a byte count that
 * does not match the dtype and shape, tensors that overlap or leave bytes unindexed, a name
 * given twice) is KF_INVALID_ARGUMENT with a message naming the tensor and the numbers. */

/** A loaded file: its tensors and metadata, released with kf_safetensors_release. */
typedef struct kf_safetensors_s* kf_safetensors_t;

/** Writes tensors[0..count) under names[i] and metadata_count string pairs (metadata_keys and
 * metadata_values may be NULL when it is 0) to `path`, replacing it. Tensors of any layout and
 * device are written as their contiguous host bytes, the widest elements first (so each is
 * aligned to its element size); the header lists them in the order given. Duplicate names, the
 * name "__metadata__", complex128 and text that is not UTF-8 are KF_INVALID_ARGUMENT, naming
 * the tensor; a failed write removes the file. */
KF_API kf_status_t kf_safetensors_save(const char* path, const char* const* names,
                                       const kf_tensor_t* tensors, int32_t count,
                                       const char* const* metadata_keys,
                                       const char* const* metadata_values,
                                       int32_t metadata_count);
/** Reads `path` into new contiguous tensors on `device` (KF_NOT_FOUND when there is no such
 * file; a device no backend serves is refused before the file is read); *out owns them. Every
 * check of the header runs before any tensor is made. */
KF_API kf_status_t kf_safetensors_load(const char* path, kf_device_t device,
                                       kf_safetensors_t* out);
/** Releases a loaded file and its references to the tensors (tensors taken from it live on).
 * Releasing NULL is KF_OK. */
KF_API kf_status_t kf_safetensors_release(kf_safetensors_t file);
/** The number of tensors in the file. */
KF_API kf_status_t kf_safetensors_count(kf_safetensors_t file, int32_t* out);
/** The name of tensor `index`, in the header's order; the string lives as long as `file`. */
KF_API kf_status_t kf_safetensors_name(kf_safetensors_t file, int32_t index, const char** out);
/** A new reference to tensor `index` (release it with kf_tensor_release). */
KF_API kf_status_t kf_safetensors_tensor(kf_safetensors_t file, int32_t index, kf_tensor_t* out);
/** The number of metadata entries (the header's "__metadata__"). */
KF_API kf_status_t kf_safetensors_metadata_count(kf_safetensors_t file, int32_t* out);
/** Metadata entry `index`, in the header's order; the strings live as long as `file`. */
KF_API kf_status_t kf_safetensors_metadata(kf_safetensors_t file, int32_t index,
                                           const char** out_key, const char** out_value);

/* ----------------------------------------------------------- collectives -- */
/*
 * Collectives (ABI 2.7, docs/distributed.md). The transports and algorithms are an engine's,
 * reached through a collective plugin ("kind": "collective" in its manifest). A communicator
 * joins `world_size` processes through a rendezvous; every call on it that several ranks make
 * must be made by all of them in the same order. A call that cannot finish inside the
 * communicator's timeout ends with KF_TIMEOUT (never a hang); an engine's failure comes back as
 * KF_UNAVAILABLE or KF_INTERNAL with the engine's own text in kf_last_error_message(). A
 * communicator whose call failed should be destroyed: its peers may be out of step.
 */
typedef struct kf_comm_s* kf_comm_t;
typedef struct kf_work_s* kf_work_t;

typedef struct kf_comm_options_t {
  size_t struct_size;
  /* Which engine serves which device type: "cpu:gloo", or a list "cpu:gloo,cuda:nccl"; a bare
   * plugin name ("gloo") serves the device type its plugin names. */
  const char* engine;
  /* "file://<absolute folder>" (a folder every rank can write; it must exist) or "env://"
   * (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, as torchrun and `kernforge run` set them; rank
   * 0's process serves the rendezvous on MASTER_PORT; POSIX only). */
  const char* rendezvous;
  int32_t rank;          /* 0 <= rank < world_size; -1: from the rendezvous (env://) */
  int32_t world_size;    /* >= 1; -1: from the rendezvous (env://) */
  int64_t timeout_ms;    /* the limit of the rendezvous and of every call; <= 0: 30 minutes */
} kf_comm_options_t;

/** Joins the communicator: every rank calls it with the same engine, rendezvous and world size.
 * KF_NOT_FOUND for an engine no loaded collective plugin has (the message lists those loaded),
 * KF_TIMEOUT when not every rank arrived inside the timeout. */
KF_API kf_status_t kf_comm_create(const kf_comm_options_t* options, kf_comm_t* out);
/** Leaves and frees the communicator. Destroying NULL is KF_OK; its works must be released. */
KF_API kf_status_t kf_comm_destroy(kf_comm_t comm);
/** This process's rank and the world size (trivial accessors with a status). */
KF_API kf_status_t kf_comm_rank(kf_comm_t comm, int32_t* out);
KF_API kf_status_t kf_comm_world_size(kf_comm_t comm, int32_t* out);
/** The color of a rank that joins no sub-communicator in kf_comm_split. */
#define KF_COMM_NO_COLOR (-1)
/** Splits the communicator (ABI 2.8): every rank calls it, in the same order as its other
 * calls. The ranks giving the same `color` (>= 0) make one sub-communicator, ranked by `key`
 * (ties: by their rank here); a rank giving KF_COMM_NO_COLOR joins none and gets *out = NULL.
 * The sub-communicator has the parent's engines, rendezvous and timeout, and is destroyed on
 * its own (before or after the parent). A split of a communicator without a cpu engine is
 * KF_UNIMPLEMENTED, unless every engine splits itself (its plugin's comm_split). */
KF_API kf_status_t kf_comm_split(kf_comm_t comm, int32_t color, int32_t key, kf_comm_t* out);
/** Aborts the communicator on this rank (ABI 2.8), from any thread: its queued calls and every
 * later one fail at once with KF_UNAVAILABLE, and each engine drops what it can (gloo closes its
 * connections, so the peers' calls fail at once; a call gloo is already running on this rank
 * ends by its timeout). Destroy it after. KF_UNIMPLEMENTED names an engine that cannot abort. */
KF_API kf_status_t kf_comm_abort(kf_comm_t comm);

/*
 * The collectives. Tensors must be contiguous and on a device type the communicator's engine
 * serves; every rank passes the same dtype and element count. Each starts the work and hands
 * back a work handle in `out`; with `out` NULL the call waits for the work and returns its
 * status. A work ends with kf_work_wait (or kf_work_test saying done); release it after.
 * A slot the engine's plugin leaves empty is KF_UNIMPLEMENTED naming the engine and the call.
 */
/** Combines `tensor` over every rank, in place. */
KF_API kf_status_t kf_all_reduce(kf_comm_t comm, kf_tensor_t tensor, kf_reduce_op_t op,
                                 kf_work_t* out);
/** Copies rank `root`'s `tensor` into every rank's `tensor`. */
KF_API kf_status_t kf_broadcast(kf_comm_t comm, kf_tensor_t tensor, int32_t root,
                                kf_work_t* out);
/** `output` (world_size times input's elements, same dtype) gets every rank's `input`, in rank
 * order. */
KF_API kf_status_t kf_all_gather(kf_comm_t comm, kf_tensor_t output, kf_tensor_t input,
                                 kf_work_t* out);
/** Combines `input` (world_size times output's elements) over every rank; rank r's `output`
 * gets the r-th slice of the result. */
KF_API kf_status_t kf_reduce_scatter(kf_comm_t comm, kf_tensor_t output, kf_tensor_t input,
                                     kf_reduce_op_t op, kf_work_t* out);
/** Sends `tensor` to rank `peer`, matched by a kf_recv there with the same `tag`. */
KF_API kf_status_t kf_send(kf_comm_t comm, kf_tensor_t tensor, int32_t peer, int32_t tag,
                           kf_work_t* out);
/** Receives into `tensor` from rank `peer` what it sent with `tag`. */
KF_API kf_status_t kf_recv(kf_comm_t comm, kf_tensor_t tensor, int32_t peer, int32_t tag,
                           kf_work_t* out);
/** Returns once every rank has entered it. */
KF_API kf_status_t kf_barrier(kf_comm_t comm, kf_work_t* out);

/** Waits for the work to end (at most the communicator's timeout: then KF_TIMEOUT) and returns
 * its status; waiting again returns the same status. */
KF_API kf_status_t kf_work_wait(kf_work_t work);
/** *out_done = whether the work has ended (then kf_work_wait returns at once). */
KF_API kf_status_t kf_work_test(kf_work_t work, bool* out_done);
/** Frees the handle (an unfinished work is waited for first). Releasing NULL is KF_OK. */
KF_API kf_status_t kf_work_release(kf_work_t work);
/** "sum", "prod", "min", "max", "avg" (trivial accessor; "unknown" for other values). */
KF_API const char* kf_reduce_op_name(int32_t op);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* The typed op entry points, generated from dispatcher/ops.yaml. */
#include "kernforge/kernforge_ops.h"

#endif /* KERNFORGE_KERNFORGE_H_ */
