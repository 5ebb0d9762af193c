// Functionality layers (Note [Functionality layers]) over the CPU backend: an active layer sees
// every call, including calls that a thread's kept plan (Note [Call plans]) would otherwise
// take straight to the kernel, and an inactive one sees none.
#include <atomic>
#include <string>
#include <vector>

#include "dispatch/dispatch.hpp"
#include "kernforge/kernforge.h"
#include "unit_util.hpp"

namespace kfunit {
namespace {

constexpr kf_device_t kCpuDevice{KF_DEVICE_CPU, 0};

std::atomic<int> g_seen{0};
std::string g_last_op;

void counting_layer(int32_t layer, const kf::CallArgs& args, kf::CallMode mode,
                    kf::TensorImpl* const* given, kf::TensorImpl** results) {
  g_seen.fetch_add(1);
  g_last_op = args.name();
  kf::run_op_below(layer, args, mode, given, results);
}

/// The layer, registered once per process (layers are never removed).
int32_t layer_index() {
  static const int32_t index = kf::add_dispatch_layer({"unit.counting", &counting_layer});
  return index;
}

bool cpu_loaded() {
  kf_memory_stats_t s{};
  s.struct_size = sizeof s;
  if (kf_memory_stats(kCpuDevice, &s) == KF_OK) return true;
  return kf_load_plugin(KF_UNIT_CPU_MANIFEST) == KF_OK;
}

float add_once(kf_tensor_t a) {
  kf_tensor_t r = nullptr;
  EXPECT_EQ(kf_add(a, a, kf_scalar_f64(1), &r), KF_OK) << kf_last_error_message();
  float v[2] = {0, 0};
  EXPECT_EQ(kf_tensor_copy_to_host(r, v, sizeof v), KF_OK) << kf_last_error_message();
  kf_tensor_release(r);
  return v[1];
}

TEST(Layers, AnActiveLayerSeesPlannedCallsAndAnInactiveOneNone) {
  ASSERT_TRUE(cpu_loaded()) << kf_last_error_message();
  const int32_t layer = layer_index();
  const float values[] = {1, 2};
  const int64_t shape[] = {2};
  kf_tensor_t a = nullptr;
  ASSERT_EQ(kf_tensor_from_data(values, shape, 1, KF_FLOAT32, kCpuDevice, &a), KF_OK)
      << kf_last_error_message();

  for (int i = 0; i < 3; ++i) EXPECT_EQ(add_once(a), 4.0f);  // the thread now has a plan
  EXPECT_EQ(g_seen.load(), 0);

  kf::set_dispatch_layer_active(layer, true);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(add_once(a), 4.0f);
  kf::set_dispatch_layer_active(layer, false);
  EXPECT_EQ(g_seen.load(), 3) << "a planned call went around the active layer";
  EXPECT_EQ(g_last_op, "add");

  for (int i = 0; i < 3; ++i) EXPECT_EQ(add_once(a), 4.0f);
  EXPECT_EQ(g_seen.load(), 3) << "an inactive layer was called";
  kf_tensor_release(a);
}

}  // namespace
}  // namespace kfunit
