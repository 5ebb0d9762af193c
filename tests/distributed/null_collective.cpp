// A collective plugin with only comm_init and comm_destroy (tests/distributed): every call on
// its communicators must be KF_UNIMPLEMENTED naming the engine and the call. Built a second time
// as "nullcoll10", which says it was built for collective ABI 1.0 (KF_NULLCOLL_NAME,
// KF_NULLCOLL_MINOR): env:// must refuse it, since it cannot read the host's store.
#include "kernforge/collective.h"

#ifndef KF_NULLCOLL_NAME
#define KF_NULLCOLL_NAME "nullcoll"
#endif
#ifndef KF_NULLCOLL_MINOR
#define KF_NULLCOLL_MINOR KF_COLLECTIVE_ABI_MINOR
#endif

namespace {

int g_comm = 0;

kf_status_t comm_init(const kf_comm_init_t* init, void** comm) {
  (void)init;
  *comm = &g_comm;
  return KF_OK;
}

kf_status_t comm_destroy(void* comm) {
  (void)comm;
  return KF_OK;
}

kf_collective_plugin_t make_table() {
  kf_collective_plugin_t t{};
  t.struct_size = sizeof t;
  t.abi_major = KF_COLLECTIVE_ABI_MAJOR;
  t.abi_minor = KF_NULLCOLL_MINOR;
  t.name = KF_NULLCOLL_NAME;
  t.version = "0.0.1";
  t.device_type = "cpu";
  t.comm_init = &comm_init;
  t.comm_destroy = &comm_destroy;
  return t;
}

}  // namespace

extern "C" KF_PLUGIN_EXPORT const kf_collective_plugin_t* kf_collective_get(uint32_t major,
                                                                          uint32_t minor) {
  (void)minor;
  static const kf_collective_plugin_t table = make_table();
  return major == KF_COLLECTIVE_ABI_MAJOR ? &table : nullptr;
}
