// reenter_plugin.cpp — a plugin whose op calls itself again through the C ABI from its meta
// function, as a hostile or buggy plugin may (Note [Op calls that re-enter the C ABI],
// capi/include/capi/op_calls.hpp). reenter::again(self) makes a new one-element CPU tensor
// and calls reenter::again on it, without end; the core must stop it 16 calls deep with an
// error, and the process must go on. The plugin does not link libkernforge: it finds the C ABI
// in the test executable's process with dlsym(RTLD_DEFAULT). Built into a folder of its own,
// so that no other suite loads it.
#include <dlfcn.h>

#include "kernforge/host_memory.hpp"
#include "kernforge/kernforge.h"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

namespace {

template <class F>
F* c_abi(const char* name) {
  return reinterpret_cast<F*>(dlsym(RTLD_DEFAULT, name));
}

// Calls reenter::again on a fresh tensor; the failure it meets is this call's failure.
kf_status_t call_again() {
  auto* find = c_abi<decltype(kf_op_find)>("kf_op_find");
  auto* empty = c_abi<decltype(kf_tensor_empty)>("kf_tensor_empty");
  auto* call = c_abi<decltype(kf_op_call)>("kf_op_call");
  auto* release = c_abi<decltype(kf_tensor_release)>("kf_tensor_release");
  auto* message = c_abi<decltype(kf_last_error_message)>("kf_last_error_message");
  if (!find || !empty || !call || !release || !message) return KF_UNAVAILABLE;
  kf_op_t op = nullptr;
  kf_tensor_t x = nullptr;
  const int64_t shape[1] = {1};
  kf_status_t s = find("reenter::again", &op);
  if (s == KF_OK) s = empty(shape, 1, KF_FLOAT32, kf_device_cpu(), &x);
  kf_value_t args[1] = {kf_value_tensor(x)};
  kf_value_t result[1] = {kf_value_none()};
  if (s == KF_OK) s = call(op, args, 1, result, 1);
  if (s != KF_OK) kf::plugin::set_error(message());  // pass the inner message on, as it is
  if (s == KF_OK) release(result[0].v.tensor);
  release(x);
  return s;
}

kf_status_t again_meta(const kf_meta_call_t* m) {
  const kf_status_t s = call_again();
  if (s != KF_OK) return s;
  m->outputs[0].dtype = m->inputs[0].dtype;
  m->outputs[0].ndim = m->inputs[0].ndim;
  for (int32_t d = 0; d < m->inputs[0].ndim; ++d) m->outputs[0].shape[d] = m->inputs[0].shape[d];
  return KF_OK;
}

kf_status_t reenter_register(void*, const kf_registrar_t* reg) {
  kf_op_definition_t def{};
  def.struct_size = sizeof(def);
  def.schema = "reenter::again(Tensor self) -> Tensor";
  def.doc = "Calls itself again from its meta function (a test of the nesting limit).";
  def.meta = again_meta;
  def.file = __FILE__;
  def.line = __LINE__;
  return reg->define_op(reg->ctx, &def);
}

kf_status_t reenter_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  *out_state = nullptr;
  return KF_OK;
}

int32_t reenter_device_count(void*) { return 1; }

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("reenter", "0.1.0");
  p.init = reenter_init;
  p.device_count = reenter_device_count;
  p.register_kernels = reenter_register;
  kf::plugin::host_memory::set_slots(p);
  return p;
}

}  // namespace

KF_PLUGIN_DEFINE(make_plugin)
