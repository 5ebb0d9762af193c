/*
 * kernforge/plugin.h — THE PLUGIN ABI.
 *
 * A backend plugin is a shared library that exports exactly one symbol, kf_plugin_get, and does
 * not link libkernforge: everything it needs from the host comes in kf_host_api_t.
 *
 * Version rules
 *  - KF_PLUGIN_ABI_MAJOR changes on any incompatible change; the host refuses a plugin whose
 *    major differs from its own (KF_ABI_MISMATCH, both numbers in the reason). 2.0: kf_scalar_t
 *    grew to 24 bytes (uint64 and complex128 scalars), which moves every kf_arg_t, and
 *    KF_DTYPE_LIST gained uint16, uint32, uint64, complex64 and complex128; every slot of 1.3 is
 *    in 2.0, in its place.
 *  - KF_PLUGIN_ABI_MINOR grows when slots are appended to kf_plugin_t, kf_host_api_t,
 *    kf_registrar_t or kf_kernel_call_t, or fields to another struct (1.1: describe; 1.2:
 *    define_op, register_fallback, streams, events, copy_async, pinned host memory; 1.3: the
 *    host's file store; 2.0 has all of them; 2.1: the backward of a defined op,
 *    kf_op_definition_t.backward_formulas and .backward, and the host's op_call and
 *    tensor_release; 2.2: register_kernels may be called with state NULL, see the slot). A
 *    plugin built for an older minor loads: the host reads only the slots
 *    that minor has (it checks struct_size). A plugin built for a newer minor loads too, and must
 *    not use host slots beyond host_abi_minor (it checks kf_host_api_t.struct_size).
 *  - Every struct starts with struct_size; fields are only appended.
 *
 * Lifetime and threads
 *  - kf_plugin_get may be called more than once and must return the same static object
 *    (KF_PLUGIN_HEADER and KF_PLUGIN_ENTRY below write it for C; kernforge/plugin_table.hpp's
 *    kf::plugin::table and KF_PLUGIN_DEFINE for C++).
 *  - score() is called before init(), must be cheap and must not initialise drivers.
 *  - init() and register_kernels() run once, on one thread, with the host's loader lock held.
 *  - shutdown() runs at most once, only to roll back a plugin whose init() succeeded but which
 *    did not become a backend (see the slot). A loaded backend is never shut down: plugins are
 *    never unloaded, and nothing of them runs at process exit.
 *  - Kernels, allocate, deallocate, copy, memset and the stream and event slots may be called
 *    from any thread at once.
 *  - No work in static constructors: register inside register_kernels.
 *
 * Asynchronous backends (ABI 1.2)
 *  - A plugin that queues work sets stream_create and the other stream and event slots. Its
 *    streams and events are opaque pointers (void*); NULL is the device's default stream. The
 *    host hands a kernel the calling thread's current stream in kf_kernel_call_t.stream and
 *    expects the kernel to queue its work there, reading shapes and strides before it returns
 *    (the call struct and its arrays live on the host's stack).
 *  - copy() is synchronous: ordered after the work queued on the default stream, done when it
 *    returns. copy_async() is ordered on its stream only.
 *  - A synchronous plugin leaves every stream and event slot NULL: the host then treats all
 *    streams as one queue and events as host timestamps.
 */
#ifndef KERNFORGE_PLUGIN_H_
#define KERNFORGE_PLUGIN_H_

#include "kernforge/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KF_PLUGIN_ABI_MAJOR 2
#define KF_PLUGIN_ABI_MINOR 2

#if defined(_WIN32)
#  define KF_PLUGIN_EXPORT __declspec(dllexport)
#else
#  define KF_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* ----------------------------------------------------------- tensor views -- */

/** A tensor as a kernel sees it (DLTensor-like). Shapes and strides are in elements. */
typedef struct kf_tensor_view_t {
  void* data;             /* address of element [0,...,0]; NULL for an undefined (None) tensor */
  int32_t dtype;          /* kf_dtype_t */
  int32_t ndim;           /* -1 for an undefined (None) tensor */
  const int64_t* shape;
  const int64_t* strides;
  kf_device_t device;
  int64_t numel;
} kf_tensor_view_t;

/* ------------------------------------------------------------- arguments -- */

typedef enum kf_arg_tag_t {
  KF_ARG_NONE = 0,
  KF_ARG_INT = 1,
  KF_ARG_FLOAT = 2,
  KF_ARG_BOOL = 3,
  KF_ARG_SCALAR = 4,
  KF_ARG_DTYPE = 5,
  KF_ARG_DEVICE = 6,
  KF_ARG_INT_LIST = 7,
  KF_ARG_TAG_MAX_ENUM = 0x7fffffff
} kf_arg_tag_t;

/** A non-tensor argument of a kernel call, in schema order. Optional ones may be KF_ARG_NONE. */
typedef struct kf_arg_t {
  int32_t tag; /* kf_arg_tag_t */
  union {
    int64_t i;
    double f;
    bool b;
    kf_scalar_t scalar;
    int32_t dtype;
    kf_device_t device;
    struct { const int64_t* data; int32_t len; } ints;
  } v;
} kf_arg_t;

/* ------------------------------------------------------------ kernel call -- */

/**
 * Everything a kernel gets. Inputs are the op's Tensor arguments in schema order; outputs are
 * allocated by the host with the shape and dtype the op's meta function computed (the same
 * layout as PyTorch's structured kernels), so a kernel only computes. Elementwise ops get inputs
 * already broadcast to the output's shape (zero strides) and converted to the computation dtype.
 * Non-contiguous views arrive as they are unless the kernel was registered with
 * KF_KERNEL_NEEDS_CONTIGUOUS. A view may have negative strides (a slice with a negative step:
 * data is its element [0,...,0] and those dims walk down from it) only when the kernel was
 * registered with KF_KERNEL_NEGATIVE_STRIDES; every other kernel gets a copy of such an input
 * and writes such an output through a temporary, so it never sees a negative stride.
 */
typedef struct kf_kernel_call_t {
  size_t struct_size;
  int32_t op;                       /* the host's op id (see kf_host_api_t.op_find) */
  int32_t ninputs;
  const kf_tensor_view_t* inputs;
  int32_t noutputs;
  const kf_tensor_view_t* outputs;
  int32_t nargs;
  const kf_arg_t* args;
  void* stream;                     /* the calling thread's current stream on the device (a
                                       native stream of the plugin; NULL = the default) */
  void* plugin_state;               /* what init() stored */
} kf_kernel_call_t;

/** The one kernel signature. Return KF_OK or a status after host->set_error(). */
typedef kf_status_t (*kf_kernel_fn)(const kf_kernel_call_t* call);

enum {
  KF_KERNEL_NEEDS_CONTIGUOUS = 1u << 0, /* the host makes every input contiguous first */
  KF_KERNEL_NEGATIVE_STRIDES = 1u << 1  /* the kernel takes inputs and outputs with negative
                                           strides as they are (a host older than this flag
                                           makes no view of negative stride) */
};

/** One kernel registration. */
typedef struct kf_kernel_desc_t {
  size_t struct_size;
  const char* op_name;      /* "add" */
  uint64_t schema_hash;     /* hash of the schema the plugin was built with; 0 = do not check */
  uint32_t dtype_mask;      /* bit (1u << kf_dtype_t) per dtype of the computation it accepts */
  uint32_t flags;           /* KF_KERNEL_* */
  kf_kernel_fn fn;
  const char* file;         /* provenance: source file and line of the registration */
  int32_t line;
} kf_kernel_desc_t;

/* ------------------------------------------------- ops defined by plugins (1.2) -- */

/** The shape and dtype of one output, as a meta function computes it. */
typedef struct kf_output_spec_t {
  int32_t dtype; /* kf_dtype_t */
  int32_t ndim;
  int64_t shape[KF_MAX_NDIM];
} kf_output_spec_t;

/** What a meta function gets: the inputs' metadata (data is NULL), the non-tensor arguments
 * in schema order, and one spec per output to fill. */
typedef struct kf_meta_call_t {
  size_t struct_size;
  int32_t op;                       /* the host's op id */
  int32_t ninputs;
  const kf_tensor_view_t* inputs;   /* data NULL; ndim -1 for a None tensor */
  int32_t nargs;
  const kf_arg_t* args;
  int32_t noutputs;
  kf_output_spec_t* outputs;
  void* plugin_state;               /* the defining plugin's state */
} kf_meta_call_t;

/** Computes the outputs' shapes and dtypes; KF_INVALID_ARGUMENT (after host->set_error) for
 * inputs the op does not accept. Called on any thread; must not touch tensor data. */
typedef kf_status_t (*kf_meta_fn)(const kf_meta_call_t* call);

/* ------------------------------------ the backward of ops defined by plugins (2.1) -- */

/**
 * The gradient of one tensor argument of a defined op, as a formula in the grammar of the core's
 * dispatcher/derivatives.yaml: calls of the core's ops (one output), of the formula helpers
 * that file declares (scale, sum_to, unreduce, ...) and of ops plugins define (by full name,
 * "toy::scale(grad, factor)"); the names grad (the output's gradient), result (the output) and
 * the op's arguments; X.shape and X.dtype of a tensor; numbers, True/False and int lists
 * [a, b]; keyword arguments (name=expr). E.g. {"self", "toy::scale(grad, factor)"} or
 * {"other", "mul(grad, self)"}. A gradient of a broadcast input is reduced to its shape by the
 * core. The host parses every formula when the op is defined and refuses the plugin with the
 * place of a mistake (unknown op or name, wrong argument count or kind).
 */
typedef struct kf_backward_formula_t {
  const char* arg;      /* a tensor argument of the op: "self" */
  const char* formula;  /* "mul(grad, other)" */
} kf_backward_formula_t;

/**
 * What a backward callback gets (kf_op_definition_t.backward). Handles are borrowed: valid for
 * the call, never released by the callback. It computes the gradient of each tensor argument k
 * with needed[k] != 0 with the host's op calls (kf_host_api_t.op_call; the calls record
 * themselves when a gradient of the gradient is asked for) and stores one new reference in
 * grads[k], or leaves it NULL (no gradient: as zeros). It returns KF_OK, or a status after
 * host->set_error(); the host then releases what was stored and fails the backward with the
 * message, naming the op.
 */
typedef struct kf_backward_call_t {
  size_t struct_size;
  int32_t op;                 /* the host's op id */
  int32_t nargs;
  const kf_value_t* args;     /* the call's arguments in schema order; its tensors as they were
                                 (saved inputs; KF_VALUE_NONE for a None tensor) */
  kf_tensor_t result;         /* the op's output */
  kf_tensor_t grad;           /* the gradient of the output */
  int32_t ninputs;            /* the op's tensor arguments, in schema order */
  const int32_t* needed;      /* ninputs flags: the gradients asked for */
  kf_tensor_t* grads;         /* ninputs slots, NULL on entry: the gradients given */
  void* plugin_state;         /* the defining plugin's state */
} kf_backward_call_t;

typedef kf_status_t (*kf_backward_fn)(const kf_backward_call_t* call);

/**
 * An op a plugin brings (ABI 1.2). The schema uses the grammar of the core's ops.yaml with a
 * namespace, e.g. "toy::scale(Tensor self, float factor) -> Tensor": names without a namespace
 * belong to the core and are refused. Outputs come from `meta`, or, with meta NULL, from the
 * core's shape rule named `meta_rule` ("unary", "broadcast_binary", ...: docs/ops.md lists the
 * rules and the argument lists each accepts). The kernel of a defined op is chosen by the dtype
 * of its first tensor argument (of its first output when it takes none). Defining an op that
 * exists with the same schema is a no-op (the first definition's backward stays); with another
 * schema it rejects the plugin.
 */
typedef struct kf_op_definition_t {
  size_t struct_size;
  const char* schema;
  const char* doc;         /* one line for `kernforge ops` and the Python docstring */
  kf_meta_fn meta;
  const char* meta_rule;   /* used when meta is NULL */
  const char* file;        /* provenance */
  int32_t line;
  /* ---- ABI 2.1 (read when struct_size covers them) ---- */
  /* The op's backward: a formula per differentiable tensor argument, or a callback; at most
   * one of the two. An op with neither is not differentiable: a call with an argument that
   * requires grad is refused, naming the op (under no_grad, or on detached tensors, it runs).
   * Tensor arguments without a formula get no gradient. */
  const kf_backward_formula_t* backward_formulas;
  int32_t nbackward_formulas;
  kf_backward_fn backward;
} kf_op_definition_t;

/** Handed to register_kernels. Registrations are buffered and committed as one transaction
 * when register_kernels returns KF_OK; any conflict rejects the whole plugin. */
typedef struct kf_registrar_t {
  size_t struct_size;
  void* ctx;
  kf_status_t (*register_kernel)(void* ctx, const kf_kernel_desc_t* desc);
  /* ---- ABI 1.2 (present when struct_size covers them) ---- */
  /** Defines an op (see kf_op_definition_t); kernels for it may be registered right after,
   * by this plugin or any plugin loaded later. */
  kf_status_t (*define_op)(void* ctx, const kf_op_definition_t* def);
  /** The backend's own boxed fallback: called (with call->op set) for any op of this backend
   * that has no kernel for the computation dtype, when that dtype is in dtype_mask, before the
   * CPU fallback. At most one per plugin. */
  kf_status_t (*register_fallback)(void* ctx, kf_kernel_fn fn, uint32_t dtype_mask);
} kf_registrar_t;

/* --------------------------------------------------------------- host api -- */

/** The host's services for plugins. Valid from init() until shutdown() returns. */
typedef struct kf_host_api_t {
  size_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  /** Logs through the host's logger (level: kf_log_level_t). */
  void (*log)(int32_t level, const char* plugin, const char* message);
  /** Sets the thread-local error message the C ABI caller will see. */
  void (*set_error)(const char* message);
  /** Finds an op id by name; KF_NOT_FOUND if the host's schema lacks it. */
  kf_status_t (*op_find)(const char* name, int32_t* out_op);
  /* ---- ABI 1.3 (present when struct_size covers them; an older host: no store) ---- */
  /* A file store for what a plugin keeps between processes (compiled programs): the folder
   * <cache root>/<store>, the cache root being $KERNFORGE_CACHE_DIR, else
   * $XDG_CACHE_HOME/kernforge, else $HOME/.cache/kernforge (absolute paths only). The host applies
   * its loader's trust rules to the folder and to every file (docs/loader.md, "The plugins' file
   * stores"): a folder another user could change turns the store off for the process (one
   * warning); a file another user could have written, or one that is not a regular file, is not
   * read. `store` is the plugin's own short name ([a-z0-9_-], up to 32 characters), `name` a
   * file name ([A-Za-z0-9_.-], up to 128, not starting with '.'). Any thread; never blocks on a
   * FIFO. Statuses: KF_UNAVAILABLE when the store is off, KF_INVALID_ARGUMENT for a bad name. */
  /** Reads file `name` whole into buf (cap bytes): KF_OK, *out_size bytes read;
   * KF_BUFFER_TOO_SMALL, the file has *out_size bytes; KF_NOT_FOUND; KF_PERMISSION_DENIED or
   * KF_INVALID_ARGUMENT, the file may not be trusted (write it again to replace it). */
  kf_status_t (*store_read)(const char* store, const char* name, void* buf, size_t cap,
                            size_t* out_size);
  /** Replaces file `name` with `size` bytes: written to a new file of an unpredictable name in
   * the folder (O_EXCL, mode 0600), then renamed, so readers see the old file or the new one. */
  kf_status_t (*store_write)(const char* store, const char* name, const void* data, size_t size);
  /** The store's folder (KF_OK), or why it is off (KF_UNAVAILABLE), NUL-terminated into buf
   * and truncated to cap. */
  kf_status_t (*store_folder)(const char* store, char* buf, size_t cap);
  /* ---- ABI 2.1 (present when struct_size covers them) ---- */
  /** Calls op `op` (an id from op_find) as the C ABI's kf_op_call does: `nargs` arguments in
   * schema order (trailing defaults may be left out, KF_VALUE_NONE is the default), one new
   * tensor reference per result. For backward callbacks, and for ops built from other ops. */
  kf_status_t (*op_call)(int32_t op, const kf_value_t* args, int32_t nargs, kf_value_t* results,
                         int32_t nresults);
  /** Releases one reference to a tensor op_call gave (NULL does nothing). */
  void (*tensor_release)(kf_tensor_t tensor);
} kf_host_api_t;

/* ----------------------------------------------------------------- plugin -- */

/** The direction of a copy: the `kind` of kf_plugin_t.copy and copy_async. The slots take it
 * as an int32_t (the ABI's width for enums, as everywhere in this file); a plugin compares it
 * with these values and refuses any other. */
typedef enum kf_copy_kind_t {
  KF_COPY_HOST_TO_DEVICE = 0,
  KF_COPY_DEVICE_TO_HOST = 1,
  KF_COPY_DEVICE_TO_DEVICE = 2,
  KF_COPY_KIND_MAX_ENUM = 0x7fffffff /* forces 32 bits; not a kind */
} kf_copy_kind_t;

typedef struct kf_device_properties_t {
  size_t struct_size;
  char name[128];
  uint64_t total_memory;
  int32_t compute_units;
} kf_device_properties_t;

typedef struct kf_plugin_t {
  size_t struct_size;
  uint32_t abi_major;       /* KF_PLUGIN_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;
  const char* name;         /* "cpu" */
  const char* version;      /* "0.1.0" */
  const char* device_type;  /* "cpu", "cuda", ... (DLPack number for the built-in ones) */

  /** (optional) 0 = cannot run here, higher = better. NULL means 1. */
  int32_t (*score)(void);
  /** Brings the backend up; KF_UNAVAILABLE with host->set_error() when no driver/device. */
  kf_status_t (*init)(const kf_host_api_t* host, void** out_state);
  /** (optional) Frees what init() made; NULL does nothing. Called at most once, and only when
   * the host rolls back a plugin whose init() returned KF_OK before it was published as a
   * backend (register_kernels failed or its registrations were rejected, the host refused the
   * device count or device type, or host memory ran out while loading): on the thread that is
   * loading the plugin (the first kernforge call or kf_init, kf_load_plugin, or the first use of
   * a device type whose plugin starts on first use), right after init() or register_kernels(),
   * with the host's loader lock held. A plugin that loaded is never shut down, not at process
   * exit either: its state lives for the process. */
  void (*shutdown)(void* state);

  int32_t (*device_count)(void* state);
  /** (optional) NULL leaves the properties zeroed with the device type's name. */
  kf_status_t (*device_properties)(void* state, int32_t device, kf_device_properties_t* out);

  /** Raw device memory: the host's caching allocator sits above these. */
  kf_status_t (*allocate)(void* state, int32_t device, size_t bytes, void** out_ptr);
  void (*deallocate)(void* state, int32_t device, void* ptr, size_t bytes);
  /** Copies bytes; kind is a kf_copy_kind_t (0 host->device, 1 device->host, 2 device->device),
   * passed as int32_t. */
  kf_status_t (*copy)(void* state, int32_t device, void* dst, const void* src, size_t bytes,
                      int32_t kind);
  /** (optional) NULL: the host copies a zeroed host buffer. */
  kf_status_t (*memset)(void* state, int32_t device, void* dst, int32_t value, size_t bytes);
  /** (optional) NULL: the backend is synchronous. */
  kf_status_t (*synchronize)(void* state, int32_t device);
  /** (optional) NULL: the backend has no random state. */
  kf_status_t (*manual_seed)(void* state, uint64_t seed);
  /** (optional) NULL: the backend ignores thread counts. */
  kf_status_t (*set_num_threads)(void* state, int32_t n);

  /** Registers the kernels, with the state init() made. ABI 2.2: when init() returned
   * KF_UNAVAILABLE (no device here), the host may call it once more with state NULL and a
   * registrar that only records, to list what the plugin would run (`kernforge ops`); the
   * kernels are never called. A plugin that cannot register without its state returns
   * something other than KF_OK. */
  kf_status_t (*register_kernels)(void* state, const kf_registrar_t* registrar);

  /* ------------------------------------------------------- ABI 1.1 -- */
  /** (optional) One line on what the backend found (library and driver versions, devices,
   * instruction sets), NUL-terminated and truncated to cap. Called after init; `kernforge doctor`
   * shows it. */
  kf_status_t (*describe)(void* state, char* buf, size_t cap);

  /* ------------------------------------------------------- ABI 1.2 -- */
  /* Streams and events, all (optional): NULL means a synchronous backend (see the top of this
   * file). A plugin that sets stream_create must set every stream and event slot except
   * event_query, event_elapsed_ms, copy_async and the host memory pair. */
  kf_status_t (*stream_create)(void* state, int32_t device, void** out_stream);
  void (*stream_destroy)(void* state, int32_t device, void* stream);
  /** Waits until the work queued on `stream` (NULL = default) is done. */
  kf_status_t (*stream_synchronize)(void* state, int32_t device, void* stream);
  kf_status_t (*event_create)(void* state, int32_t device, void** out_event);
  void (*event_destroy)(void* state, int32_t device, void* event);
  /** Marks the point in `stream` after all work queued so far. */
  kf_status_t (*event_record)(void* state, int32_t device, void* event, void* stream);
  /** Makes later work on `stream` wait until the event's point is passed (the host does not
   * block). */
  kf_status_t (*event_wait)(void* state, int32_t device, void* stream, void* event);
  /** Blocks the host until the event's point is passed. */
  kf_status_t (*event_synchronize)(void* state, int32_t device, void* event);
  /** (optional) Milliseconds between two recorded events. NULL: KF_UNIMPLEMENTED. */
  kf_status_t (*event_elapsed_ms)(void* state, int32_t device, void* start, void* end,
                                  double* out_ms);
  /** (optional) Copy ordered on `stream` (kinds as copy). NULL: the host synchronizes the
   * stream and calls copy. */
  kf_status_t (*copy_async)(void* state, int32_t device, void* dst, const void* src,
                            size_t bytes, int32_t kind /* kf_copy_kind_t */, void* stream);
  /** (optional) Pinned host memory for staging copies. NULL: ordinary host memory. */
  kf_status_t (*host_allocate)(void* state, size_t bytes, void** out_ptr);
  void (*host_deallocate)(void* state, void* ptr, size_t bytes);
  /** (optional) *out_done = 1 when the event's point is passed, 0 when not, without blocking.
   * NULL: the host calls event_synchronize instead. */
  kf_status_t (*event_query)(void* state, int32_t device, void* event, int32_t* out_done);
} kf_plugin_t;

/** The one exported symbol. Returns NULL when the plugin cannot serve host_abi_major. */
typedef const kf_plugin_t* (*kf_plugin_get_fn)(uint32_t host_abi_major, uint32_t host_abi_minor);
#define KF_PLUGIN_ENTRY_SYMBOL "kf_plugin_get"

/* ------------------------------------------------------- the table in C -- */

/**
 * The header of a kf_plugin_t (struct_size, this SDK's ABI major and minor, name, version,
 * device type), for a static initializer followed by designated slots (C99):
 *
 *   static const kf_plugin_t plugin = {KF_PLUGIN_HEADER("cdev", "0.1.0", "cdev"),
 *                                      .init = cdev_init, .device_count = cdev_device_count,
 *                                      ...};
 *   KF_PLUGIN_ENTRY(plugin)
 *
 * A constant initializer runs no code, so the table is ready before any thread asks for it.
 * C++ (no designated initializers before C++20) uses kernforge/plugin_table.hpp instead. A
 * plugin that must declare another ABI or size (a test) sets the fields itself.
 */
#define KF_PLUGIN_HEADER(name, version, device_type)                                   \
  sizeof(kf_plugin_t), KF_PLUGIN_ABI_MAJOR, KF_PLUGIN_ABI_MINOR, (name), (version),    \
      (device_type)

#ifdef __cplusplus
#  define KF_PLUGIN_EXTERN_C_ extern "C"
#else
#  define KF_PLUGIN_EXTERN_C_
#endif

/**
 * Defines the exported kf_plugin_get: &table for a host of this SDK's ABI major, NULL for any
 * other (a host of a newer minor is served: it reads only the slots of the table's minor).
 * `table` is a kf_plugin_t of static storage, constant-initialized (KF_PLUGIN_HEADER); use at
 * file scope, once per plugin.
 */
#define KF_PLUGIN_ENTRY(table)                                                               \
  KF_PLUGIN_EXTERN_C_ KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(                      \
      uint32_t host_abi_major, uint32_t host_abi_minor);                                     \
  KF_PLUGIN_EXTERN_C_ KF_PLUGIN_EXPORT const kf_plugin_t* kf_plugin_get(                      \
      uint32_t host_abi_major, uint32_t host_abi_minor) {                                    \
    (void)host_abi_minor;                                                                    \
    return host_abi_major == KF_PLUGIN_ABI_MAJOR ? &(table) : NULL;                          \
  }

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KERNFORGE_PLUGIN_H_ */
