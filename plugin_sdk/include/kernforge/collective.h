/*
 * kernforge/collective.h — the collective plugin ABI: what a plugin over a collective engine
 * (gloo, MPI, NCCL, a vendor's library) exports, and what the core hands it. Plain C99.
 *
 * A collective plugin is found, trusted and loaded like a device plugin (docs/loader.md), from a
 * manifest of "manifest_version": 2 with "kind": "collective"; its "abi" is the collective ABI
 * below, and "device_type" the device type whose tensors it moves. It exports one symbol,
 *
 *     const kf_collective_plugin_t* kf_collective_get(uint32_t host_major, uint32_t host_minor);
 *
 * and does not link libkernforge. docs/distributed.md shows a whole plugin.
 *
 * Version rules (the plugin ABI's, kernforge/plugin.h):
 *  - KF_COLLECTIVE_ABI_MAJOR changes on any incompatible change; the host refuses a plugin of
 *    another major, naming both numbers.
 *  - KF_COLLECTIVE_ABI_MINOR grows when slots are appended to kf_collective_plugin_t or fields
 *    to a struct the host hands in (kf_comm_init_t, kf_collective_call_t, kf_rendezvous_store_t);
 *    nothing is ever removed or reordered. A plugin built for an older minor loads: the host
 *    calls only the slots its struct_size covers, and the fields appended after its minor are
 *    past what it reads (every struct starts with its struct_size).
 *  - 1.0: the plugin table, kf_comm_init_t and kf_collective_call_t.
 *  - 1.1: kf_comm_init_t.store, the host's key-value store (kf_rendezvous_store_t) for env://
 *    rendezvous. The host gives env:// only to plugins of 1.1 or later; an older one is refused
 *    with KF_UNIMPLEMENTED naming the plugin and both minors. A NULL `work` for a call the host
 *    waits for at once (below).
 *
 * Slots
 *  - Every slot may be NULL. The host answers a call whose slot is NULL with KF_UNIMPLEMENTED,
 *    naming the engine and the call; a plugin without comm_init cannot make a communicator.
 *  - Errors: a slot returns a kf_status_t and writes the engine's own text into `error` (at most
 *    `error_cap` bytes, NUL included). KF_TIMEOUT for a call that did not finish inside
 *    `timeout_ms`; KF_UNAVAILABLE for a peer or transport that failed; KF_INVALID_ARGUMENT for
 *    what the engine cannot take (a dtype, an op). No C++ exception may leave a slot.
 *  - A slot never blocks longer than its timeout: a peer that never comes is KF_TIMEOUT.
 *
 * Communicators and works
 *  - comm_init joins the rendezvous (kf_comm_init_t) and returns the plugin's communicator, an
 *    opaque pointer the host hands back in every call; comm_destroy frees it.
 *  - A collective slot starts the work. It may finish it before returning (then *work = NULL)
 *    or hand back an opaque work, which the host later passes to work_wait or work_test and
 *    then to work_release (which may block until the engine no longer reads the tensors). Calls
 *    on one communicator come from one thread at a time, in the same order on every rank;
 *    comm_abort may come from another thread while a call runs.
 *  - 1.1: `work` is NULL when the host waits for the call at once (a plugin whose struct says
 *    abi_minor >= 1 is handed NULL; older ones never): the slot runs the call to its end before
 *    returning, on the caller's thread if it likes.
 *  - comm_split (optional) splits a communicator as the engine does itself (MPI_Comm_split,
 *    ncclCommSplit): every rank of the parent calls it, a rank of no group with color
 *    KF_COMM_NO_COLOR (-1) and *out set to NULL; `init` carries the group's rank and size (the
 *    host computed them), its prefix and timeout. A plugin without it is split by the host
 *    calling comm_init again on each group's ranks, with that init.
 *  - Tensors are contiguous views (kernforge/plugin.h) on the plugin's device type; `stream` is
 *    the device's native stream (NULL on the cpu, or for the device's default stream), on which
 *    the plugin queues its work where the engine allows.
 */
#ifndef KERNFORGE_COLLECTIVE_H_
#define KERNFORGE_COLLECTIVE_H_

#include "kernforge/plugin.h"
#include "kernforge/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KF_COLLECTIVE_ABI_MAJOR 1
#define KF_COLLECTIVE_ABI_MINOR 1
#define KF_COLLECTIVE_ENTRY_SYMBOL "kf_collective_get"

/** Receives a value the store's get found (the bytes live only during the call). */
typedef void (*kf_store_sink_fn)(void* context, const void* value, size_t size);

/**
 * The host's key-value store (ABI 1.1), which the ranks of an env:// rendezvous meet through
 * (the core's own, served by rank 0's process on MASTER_ADDR:MASTER_PORT, docs/distributed.md).
 * Keys are NUL-terminated strings of 1 to 4096 bytes; values are bytes, at most 1 MiB. Every
 * function returns a kf_status_t and on failure writes the host's text into `error` (at most
 * `error_cap` bytes, NUL included): KF_TIMEOUT when a key did not appear inside `timeout_ms`,
 * KF_UNAVAILABLE when the store is gone (rank 0 exited). Callable from any thread, while the
 * communicator lives (the table goes with it). Keys are the plugin's to choose; start them with
 * kf_comm_init_t.prefix so that communicators keep apart.
 */
typedef struct kf_rendezvous_store_t {
  size_t struct_size;
  void* self;                 /* the host's: handed back in every call */
  kf_status_t (*set)(void* self, const char* key, const void* value, size_t size, char* error,
                     size_t error_cap);
  /* Waits until `key` is there (at most timeout_ms; <= 0: the communicator's timeout) and
   * hands its value to sink(context, value, size), once. */
  kf_status_t (*get)(void* self, const char* key, int64_t timeout_ms, kf_store_sink_fn sink,
                     void* context, char* error, size_t error_cap);
  /* Waits until every one of the `count` keys is there (at most timeout_ms, as get). */
  kf_status_t (*wait)(void* self, const char* const* keys, size_t count, int64_t timeout_ms,
                      char* error, size_t error_cap);
  /* Adds `delta` to the signed 64-bit counter at `key` (a missing key counts 0); the counter
   * after it in *out (may be NULL). */
  kf_status_t (*add)(void* self, const char* key, int64_t delta, int64_t* out, char* error,
                     size_t error_cap);
} kf_rendezvous_store_t;

/** What comm_init is given. */
typedef struct kf_comm_init_t {
  size_t struct_size;
  /* "file://<absolute folder>", or "tcp://<host>:<port>" for the core's own key-value store
   * (what env:// becomes: MASTER_ADDR:MASTER_PORT; the plugin reaches the store through
   * `store`, never through the address). */
  const char* rendezvous;
  /* A prefix for every key this communicator puts in the rendezvous store, unique to it. */
  const char* prefix;
  int32_t rank;
  int32_t world_size;
  int64_t timeout_ms;   /* of the rendezvous and the default of every call */
  char* error;          /* the engine's text on failure */
  size_t error_cap;
  /* ABI 1.1: the host's key-value store for a "tcp://" rendezvous, NULL for another. A plugin
   * that reads it checks struct_size first (a host of 1.0 hands a shorter struct). */
  const kf_rendezvous_store_t* store;
} kf_comm_init_t;

/** One collective call. */
typedef struct kf_collective_call_t {
  size_t struct_size;
  void* comm;                 /* what comm_init returned */
  kf_tensor_view_t input;     /* all_gather and reduce_scatter: what is sent; else the tensor */
  kf_tensor_view_t output;    /* all_gather and reduce_scatter: what is received; else = input */
  int32_t reduce_op;          /* kf_reduce_op_t: all_reduce and reduce_scatter */
  int32_t peer;               /* broadcast: the root; send and recv: the other rank */
  int32_t tag;                /* send and recv */
  int32_t reserved;
  int64_t timeout_ms;
  void* stream;               /* the device's native stream (NULL: the default, or the cpu) */
  char* error;                /* the engine's text on failure */
  size_t error_cap;
} kf_collective_call_t;

typedef kf_status_t (*kf_collective_fn)(const kf_collective_call_t* call, void** work);

typedef struct kf_collective_plugin_t {
  size_t struct_size;
  uint32_t abi_major;         /* KF_COLLECTIVE_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;
  const char* name;           /* "gloo": what an engine choice names ("cpu:gloo") */
  const char* version;        /* the plugin's version */
  const char* device_type;    /* "cpu": whose tensors it moves */
  /* A line for kernforge doctor (the engine and its version); may be NULL. */
  const char* (*describe)(void);
  kf_status_t (*comm_init)(const kf_comm_init_t* init, void** comm);
  kf_status_t (*comm_destroy)(void* comm);
  /* Ends every pending call of the communicator with an error, on this rank; from any thread. */
  kf_status_t (*comm_abort)(void* comm);
  /* A sub-communicator of the ranks giving the same color, ordered by key (see above). */
  kf_status_t (*comm_split)(void* comm, int32_t color, int32_t key, const kf_comm_init_t* init,
                            void** out);
  kf_collective_fn all_reduce;
  kf_collective_fn broadcast;
  kf_collective_fn all_gather;
  kf_collective_fn reduce_scatter;
  kf_collective_fn send;
  kf_collective_fn recv;
  kf_collective_fn barrier;
  kf_status_t (*work_wait)(void* work, int64_t timeout_ms, char* error, size_t error_cap);
  kf_status_t (*work_test)(void* work, int32_t* done, char* error, size_t error_cap);
  void (*work_release)(void* work);
} kf_collective_plugin_t;

typedef const kf_collective_plugin_t* (*kf_collective_get_fn)(uint32_t host_abi_major,
                                                               uint32_t host_abi_minor);

/** Whether a plugin's struct of `struct_size` bytes has the slot ending at `slot_end`. */
#define KF_COLLECTIVE_SLOT_END(field)                                        \
  (offsetof(kf_collective_plugin_t, field) + sizeof(((kf_collective_plugin_t*)0)->field))

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KERNFORGE_COLLECTIVE_H_ */
