/*
 * cdev_plugin.c — a plugin written in plain C99 against the SDK's C headers alone (plugin.h and
 * host_memory.h, no C++ helpers): what a third party can write without the SDK's C++ layer. Its
 * table is a constant initializer (KF_PLUGIN_HEADER) and KF_PLUGIN_ENTRY exports it; its memory
 * slots are host_memory.h's. It brings device type "cdev" (one device whose memory is host
 * memory) and two ops of its own:
 *
 *   cdev::scale(Tensor self, float factor) -> Tensor                 its own meta function
 *   cdev::axpy(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 *                                                                    the core's broadcast_binary
 *
 * with float32 kernels for both (cdev::axpy needs contiguous inputs: the core expands and copies
 * them first). Everything else on cdev runs through the CPU fallback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernforge/host_memory.h"
#include "kernforge/plugin.h"

static const kf_host_api_t* g_host = NULL;

static kf_status_t fail(kf_status_t status, const char* message) {
  if (g_host != NULL && g_host->set_error != NULL) g_host->set_error(message);
  return status;
}

/* ------------------------------------------------------------------ ops and meta */

/* cdev::scale keeps the input's shape and dtype; only float32 and float64 are accepted. */
static kf_status_t scale_meta(const kf_meta_call_t* call) {
  const kf_tensor_view_t* in = &call->inputs[0];
  int32_t d;
  if (in->dtype != KF_FLOAT32 && in->dtype != KF_FLOAT64) {
    return fail(KF_INVALID_ARGUMENT, "cdev::scale: self must be float32 or float64");
  }
  call->outputs[0].dtype = in->dtype;
  call->outputs[0].ndim = in->ndim;
  for (d = 0; d < in->ndim; ++d) call->outputs[0].shape[d] = in->shape[d];
  return KF_OK;
}

/* Calls f on every element index of `v` in row-major order (offsets in elements). */
static int64_t offset_of(const kf_tensor_view_t* v, const int64_t* idx) {
  int64_t off = 0;
  int32_t d;
  for (d = 0; d < v->ndim; ++d) off += idx[d] * v->strides[d];
  return off;
}

static int next_index(const kf_tensor_view_t* v, int64_t* idx) {
  int32_t d;
  for (d = v->ndim - 1; d >= 0; --d) {
    if (++idx[d] < v->shape[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

static kf_status_t scale_f32(const kf_kernel_call_t* call) {
  const kf_tensor_view_t* in = &call->inputs[0];
  const kf_tensor_view_t* out = &call->outputs[0];
  const float factor = (float)call->args[0].v.f;
  int64_t idx[KF_MAX_NDIM] = {0};
  int64_t n;
  for (n = 0; n < out->numel; ++n) {
    ((float*)out->data)[offset_of(out, idx)] = factor * ((const float*)in->data)[offset_of(in, idx)];
    next_index(out, idx);
  }
  return KF_OK;
}

static double scalar_value(const kf_scalar_t* s) {
  if (s->tag == KF_SCALAR_INT64) return (double)s->v.i64;
  if (s->tag == KF_SCALAR_BOOL) return s->v.b ? 1.0 : 0.0;
  return s->v.f64;
}

/* Contiguous inputs (KF_KERNEL_NEEDS_CONTIGUOUS): out = self + alpha * other. */
static kf_status_t axpy_f32(const kf_kernel_call_t* call) {
  const float* x = (const float*)call->inputs[0].data;
  const float* y = (const float*)call->inputs[1].data;
  float* out = (float*)call->outputs[0].data;
  const float alpha = (float)scalar_value(&call->args[0].v.scalar);
  int64_t i;
  for (i = 0; i < call->outputs[0].numel; ++i) out[i] = x[i] + alpha * y[i];
  return KF_OK;
}

static kf_status_t define(const kf_registrar_t* reg, const char* schema, const char* doc,
                          kf_meta_fn meta, const char* rule, int32_t line) {
  kf_op_definition_t def;
  memset(&def, 0, sizeof(def));
  def.struct_size = sizeof(def);
  def.schema = schema;
  def.doc = doc;
  def.meta = meta;
  def.meta_rule = rule;
  def.file = __FILE__;
  def.line = line;
  return reg->define_op(reg->ctx, &def);
}

static kf_status_t kernel(const kf_registrar_t* reg, const char* op, kf_kernel_fn fn,
                          uint32_t flags, int32_t line) {
  kf_kernel_desc_t desc;
  memset(&desc, 0, sizeof(desc));
  desc.struct_size = sizeof(desc);
  desc.op_name = op;
  desc.dtype_mask = 1u << KF_FLOAT32;
  desc.flags = flags;
  desc.fn = fn;
  desc.file = __FILE__;
  desc.line = line;
  return reg->register_kernel(reg->ctx, &desc);
}

static kf_status_t cdev_register(void* state, const kf_registrar_t* reg) {
  kf_status_t s;
  (void)state;
  if (reg == NULL || reg->struct_size < sizeof(kf_registrar_t)) {
    return fail(KF_ABI_MISMATCH, "cdev: the host's registrar has no define_op (ABI < 1.2)");
  }
  s = define(reg, "cdev::scale(Tensor self, float factor) -> Tensor",
             "self times factor (float32, float64).", scale_meta, NULL, __LINE__);
  if (s == KF_OK) {
    s = define(reg, "cdev::axpy(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
               "self + alpha * other, broadcast.", NULL, "broadcast_binary", __LINE__);
  }
  if (s == KF_OK) s = kernel(reg, "cdev::scale", scale_f32, 0, __LINE__);
  if (s == KF_OK) s = kernel(reg, "cdev::axpy", axpy_f32, KF_KERNEL_NEEDS_CONTIGUOUS, __LINE__);
  return s;
}

/* ------------------------------------------------------------------ device */

static kf_status_t cdev_init(const kf_host_api_t* host, void** out_state) {
  g_host = host;
  *out_state = NULL;
  return KF_OK;
}

static int32_t cdev_device_count(void* state) {
  (void)state;
  return 1;
}

/* Memory: host memory, through host_memory.h (the core checks the device index). */
static kf_status_t cdev_allocate(void* state, int32_t device, size_t bytes, void** out) {
  (void)state;
  (void)device;
  return kf_host_memory_allocate(g_host, bytes, out);
}

static void cdev_deallocate(void* state, int32_t device, void* ptr, size_t bytes) {
  (void)state;
  (void)device;
  (void)bytes;
  kf_host_memory_deallocate(ptr);
}

static kf_status_t cdev_copy(void* state, int32_t device, void* dst, const void* src,
                             size_t bytes, int32_t kind) {
  (void)state;
  (void)device;
  return kf_host_memory_copy(g_host, dst, src, bytes, kind);
}

/* ------------------------------------------------------------------ the table */

static const kf_plugin_t plugin = {KF_PLUGIN_HEADER("cdev", "0.0.1", "cdev"),
                                   .init = cdev_init,
                                   .device_count = cdev_device_count,
                                   .allocate = cdev_allocate,
                                   .deallocate = cdev_deallocate,
                                   .copy = cdev_copy,
                                   .register_kernels = cdev_register};

KF_PLUGIN_ENTRY(plugin)
