/*
 * gradplug_plugin.c — plugins in plain C99 whose ops have a backward (plugin ABI 2.1), built in
 * three modes (GRADPLUG_MODE) from this one source, each its own device type over host memory:
 *
 *   gradc    gradc::cube(Tensor self) -> Tensor                 self^3; a backward callback that
 *                                                               computes 3 self^2 grad with the
 *                                                               host's op calls
 *            gradc::mix(Tensor self, Tensor other, float w) -> Tensor
 *                                                               self + w (other - self); backward
 *                                                               formulas for both tensors
 *            gradc::plain(Tensor self) -> Tensor                2 self, no backward
 *            gradc::refuse(Tensor self) -> Tensor               2 self; a backward callback
 *                                                               that fails
 *   gradbad  gradbad::scale(Tensor self, float factor) -> Tensor, whose formula names an
 *            argument the op does not have: the core refuses the plugin
 *   gradold  built as a plugin of ABI 2.0 (abi_minor 0, the definition's struct_size without
 *            the 2.1 fields): gradold::twice(Tensor self) -> Tensor loads, without a backward
 *
 * Kernels are float32; everything else on these devices runs through the CPU fallback.
 */
#include <stddef.h>
#include <string.h>

#include "kernforge/host_memory.h"
#include "kernforge/plugin.h"

#define GRADPLUG_GOOD 0
#define GRADPLUG_BAD 1
#define GRADPLUG_OLD 2

static const kf_host_api_t* g_host = NULL;

static kf_status_t fail(kf_status_t status, const char* message) {
  if (g_host != NULL && g_host->set_error != NULL) g_host->set_error(message);
  return status;
}

/* ------------------------------------------------------------------ kernels */

/* The output has the first input's shape and dtype (float32 only). */
static kf_status_t same_meta(const kf_meta_call_t* call) {
  const kf_tensor_view_t* in = &call->inputs[0];
  int32_t d;
  if (in->dtype != KF_FLOAT32) return fail(KF_INVALID_ARGUMENT, "gradplug: float32 only");
  call->outputs[0].dtype = in->dtype;
  call->outputs[0].ndim = in->ndim;
  for (d = 0; d < in->ndim; ++d) call->outputs[0].shape[d] = in->shape[d];
  return KF_OK;
}

/* Kernels registered with KF_KERNEL_NEEDS_CONTIGUOUS: plain arrays. */
static kf_status_t twice_f32(const kf_kernel_call_t* call) {
  const float* x = (const float*)call->inputs[0].data;
  float* out = (float*)call->outputs[0].data;
  int64_t i;
  for (i = 0; i < call->outputs[0].numel; ++i) out[i] = 2 * x[i];
  return KF_OK;
}

#if GRADPLUG_MODE == GRADPLUG_GOOD
static kf_status_t cube_f32(const kf_kernel_call_t* call) {
  const float* x = (const float*)call->inputs[0].data;
  float* out = (float*)call->outputs[0].data;
  int64_t i;
  for (i = 0; i < call->outputs[0].numel; ++i) out[i] = x[i] * x[i] * x[i];
  return KF_OK;
}

static kf_status_t mix_f32(const kf_kernel_call_t* call) {
  const float* x = (const float*)call->inputs[0].data;
  const float* y = (const float*)call->inputs[1].data;
  float* out = (float*)call->outputs[0].data;
  const float w = (float)call->args[0].v.f;
  int64_t i;
  for (i = 0; i < call->outputs[0].numel; ++i) out[i] = x[i] + w * (y[i] - x[i]);
  return KF_OK;
}


/* ------------------------------------------------- the backward callback of gradc::cube */

static int32_t g_mul = -1, g_add = -1;

/* *out = op(a, b) through the host (add with alpha when alpha != 0). */
static kf_status_t binary(int32_t op, kf_tensor_t a, kf_tensor_t b, int64_t alpha,
                          kf_tensor_t* out) {
  kf_value_t args[3];
  kf_value_t result = kf_value_none();
  kf_status_t s;
  args[0] = kf_value_tensor(a);
  args[1] = kf_value_tensor(b);
  args[2] = kf_value_int(alpha);
  s = g_host->op_call(op, args, alpha != 0 ? 3 : 2, &result, 1);
  *out = s == KF_OK ? result.v.tensor : NULL;
  return s;
}

/* d cube / d self = 3 self^2 grad: g2 = (grad * self) * self, then g2 + 2 g2. */
static kf_status_t cube_backward(const kf_backward_call_t* call) {
  kf_tensor_t self = call->args[0].v.tensor, g1 = NULL, g2 = NULL;
  kf_status_t s;
  if (call->struct_size < sizeof(kf_backward_call_t) || call->ninputs != 1) {
    return fail(KF_ABI_MISMATCH, "gradc::cube: unexpected backward call");
  }
  if (!call->needed[0]) return KF_OK;
  s = binary(g_mul, call->grad, self, 0, &g1);
  if (s == KF_OK) s = binary(g_mul, g1, self, 0, &g2);
  if (s == KF_OK) s = binary(g_add, g2, g2, 2, &call->grads[0]);
  g_host->tensor_release(g1);
  g_host->tensor_release(g2);
  return s;
}

/* gradc::refuse's backward: a failure, reported as a callback reports one. */
static kf_status_t refusing_backward(const kf_backward_call_t* call) {
  (void)call;
  return fail(KF_UNIMPLEMENTED, "gradc::refuse: this backward always fails (a test)");
}
#endif

/* ------------------------------------------------------------------ registration */

static kf_status_t define(const kf_registrar_t* reg, const char* schema,
                          const kf_backward_formula_t* formulas, int32_t nformulas,
                          kf_backward_fn backward, size_t struct_size) {
  kf_op_definition_t def;
  memset(&def, 0, sizeof(def));
  def.struct_size = struct_size;
  def.schema = schema;
  def.doc = "an op of the gradplug test plugins (float32).";
  def.meta = same_meta;
  def.file = __FILE__;
  def.line = __LINE__;
  if (struct_size == sizeof(def)) {
    def.backward_formulas = formulas;
    def.nbackward_formulas = nformulas;
    def.backward = backward;
  }
  return reg->define_op(reg->ctx, &def);
}

static kf_status_t kernel(const kf_registrar_t* reg, const char* op, kf_kernel_fn fn) {
  kf_kernel_desc_t desc;
  memset(&desc, 0, sizeof(desc));
  desc.struct_size = sizeof(desc);
  desc.op_name = op;
  desc.dtype_mask = 1u << KF_FLOAT32;
  desc.flags = KF_KERNEL_NEEDS_CONTIGUOUS;
  desc.fn = fn;
  desc.file = __FILE__;
  desc.line = __LINE__;
  return reg->register_kernel(reg->ctx, &desc);
}

#if GRADPLUG_MODE == GRADPLUG_GOOD
static const kf_backward_formula_t kMixFormulas[] = {
    {"self", "sub(grad, scale(grad, w))"},
    {"other", "scale(grad, factor=w)"},
};

static kf_status_t gradplug_register(void* state, const kf_registrar_t* reg) {
  kf_status_t s;
  (void)state;
  if (g_host->struct_size < offsetof(kf_host_api_t, tensor_release) + sizeof(void*)) {
    return fail(KF_ABI_MISMATCH, "gradc: the host has no op_call (plugin ABI < 2.1)");
  }
  s = g_host->op_find("mul", &g_mul);
  if (s == KF_OK) s = g_host->op_find("add", &g_add);
  if (s == KF_OK) {
    s = define(reg, "gradc::cube(Tensor self) -> Tensor", NULL, 0, cube_backward,
               sizeof(kf_op_definition_t));
  }
  if (s == KF_OK) {
    s = define(reg, "gradc::mix(Tensor self, Tensor other, float w) -> Tensor", kMixFormulas, 2,
               NULL, sizeof(kf_op_definition_t));
  }
  if (s == KF_OK) {
    s = define(reg, "gradc::plain(Tensor self) -> Tensor", NULL, 0, NULL,
               sizeof(kf_op_definition_t));
  }
  if (s == KF_OK) {
    s = define(reg, "gradc::refuse(Tensor self) -> Tensor", NULL, 0, refusing_backward,
               sizeof(kf_op_definition_t));
  }
  if (s == KF_OK) s = kernel(reg, "gradc::cube", cube_f32);
  if (s == KF_OK) s = kernel(reg, "gradc::refuse", twice_f32);
  if (s == KF_OK) s = kernel(reg, "gradc::mix", mix_f32);
  if (s == KF_OK) s = kernel(reg, "gradc::plain", twice_f32);
  return s;
}
#elif GRADPLUG_MODE == GRADPLUG_BAD
static const kf_backward_formula_t kBadFormulas[] = {{"self", "mul(grad, factr)"}};

static kf_status_t gradplug_register(void* state, const kf_registrar_t* reg) {
  kf_status_t s;
  (void)state;
  s = define(reg, "gradbad::scale(Tensor self, float factor) -> Tensor", kBadFormulas, 1, NULL,
             sizeof(kf_op_definition_t));
  if (s == KF_OK) s = kernel(reg, "gradbad::scale", twice_f32);
  return s;
}
#else
static kf_status_t gradplug_register(void* state, const kf_registrar_t* reg) {
  kf_status_t s;
  (void)state;
  s = define(reg, "gradold::twice(Tensor self) -> Tensor", NULL, 0, NULL,
             offsetof(kf_op_definition_t, backward_formulas));
  if (s == KF_OK) s = kernel(reg, "gradold::twice", twice_f32);
  return s;
}
#endif

/* ------------------------------------------------------------------ device */

static kf_status_t gradplug_init(const kf_host_api_t* host, void** out_state) {
  g_host = host;
  *out_state = NULL;
  return KF_OK;
}

static int32_t gradplug_device_count(void* state) {
  (void)state;
  return 1;
}

static kf_status_t gradplug_allocate(void* state, int32_t device, size_t bytes, void** out) {
  (void)state;
  (void)device;
  return kf_host_memory_allocate(g_host, bytes, out);
}

static void gradplug_deallocate(void* state, int32_t device, void* ptr, size_t bytes) {
  (void)state;
  (void)device;
  (void)bytes;
  kf_host_memory_deallocate(ptr);
}

static kf_status_t gradplug_copy(void* state, int32_t device, void* dst, const void* src,
                                 size_t bytes, int32_t kind) {
  (void)state;
  (void)device;
  return kf_host_memory_copy(g_host, dst, src, bytes, kind);
}

/* ------------------------------------------------------------------ the table */

#if GRADPLUG_MODE == GRADPLUG_OLD
/* What a plugin built against the 2.0 SDK declares. */
#  define GRADPLUG_HEADER sizeof(kf_plugin_t), KF_PLUGIN_ABI_MAJOR, 0, GRADPLUG_NAME, "0.0.1", \
                          GRADPLUG_NAME
#else
#  define GRADPLUG_HEADER KF_PLUGIN_HEADER(GRADPLUG_NAME, "0.0.1", GRADPLUG_NAME)
#endif

static const kf_plugin_t plugin = {GRADPLUG_HEADER,
                                   .init = gradplug_init,
                                   .device_count = gradplug_device_count,
                                   .allocate = gradplug_allocate,
                                   .deallocate = gradplug_deallocate,
                                   .copy = gradplug_copy,
                                   .register_kernels = gradplug_register};

KF_PLUGIN_ENTRY(plugin)
