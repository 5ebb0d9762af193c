// Functionality layers (Note [Functionality layers]) over the CPU backend: an active layer sees
// every call, including calls that a thread's kept plan (Note [Call plans]) would otherwise
// take straight to the kernel, and an inactive one sees none.
#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "dispatch/dispatch.hpp"
#include "tensor/tensor_impl.hpp"
#include "kernforge/kernforge.h"
#include "unit_util.hpp"

namespace kfunit {
namespace {

constexpr kf_device_t kCpuDevice{KF_DEVICE_CPU, 0};

std::atomic<int> g_seen{0};
std::string g_last_op;
std::vector<std::string> g_ops;  // every op the layer saw, in order

void counting_layer(int32_t layer, const kf::CallArgs& args, kf::CallMode mode,
                    kf::TensorImpl* const* given, kf::TensorImpl** results) {
  g_seen.fetch_add(1);
  g_last_op = args.name();
  g_ops.emplace_back(args.name());
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

std::vector<int64_t> strides_of(kf_tensor_t t) {
  int32_t nd = 0;
  const int64_t* strides = nullptr;
  EXPECT_EQ(kf_tensor_ndim(t, &nd), KF_OK);
  EXPECT_EQ(kf_tensor_strides(t, &strides), KF_OK);
  return std::vector<int64_t>(strides, strides + nd);
}

// Note [The basic index]: under an active layer the key runs as one op per item, so the layer
// sees the views those ops make; the view is the one the direct path makes.
TEST(Layers, ABasicIndexRunsAsOneOpPerItemUnderAnActiveLayer) {
  ASSERT_TRUE(cpu_loaded()) << kf_last_error_message();
  const int32_t layer = layer_index();
  const int64_t shape[] = {2, 3};
  kf_tensor_t a = nullptr, direct = nullptr, layered = nullptr;
  ASSERT_EQ(kf_full(shape, 2, kf_scalar_f64(1), KF_FLOAT32, kCpuDevice, &a), KF_OK);
  kf_index_item_t key[3] = {};
  key[0].kind = KF_INDEX_INT;
  key[0].index = 1;
  key[1].kind = KF_INDEX_SLICE;
  key[1].step = -1;
  key[2].kind = KF_INDEX_NEW_AXIS;
  ASSERT_EQ(kf_tensor_index(a, key, 3, &direct), KF_OK) << kf_last_error_message();
  g_ops.clear();
  kf::set_dispatch_layer_active(layer, true);
  const kf_status_t s = kf_tensor_index(a, key, 3, &layered);
  kf::set_dispatch_layer_active(layer, false);
  ASSERT_EQ(s, KF_OK) << kf_last_error_message();
  EXPECT_EQ(g_ops, (std::vector<std::string>{"select", "slice", "unsqueeze"}));
  EXPECT_EQ(strides_of(layered), strides_of(direct));
  void *p = nullptr, *q = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(layered, &p), KF_OK);
  EXPECT_EQ(kf_tensor_data_ptr(direct, &q), KF_OK);
  EXPECT_EQ(p, q);
  for (kf_tensor_t t : {a, direct, layered}) kf_tensor_release(t);
}

/// A gated layer (as autograd is): it acts only on calls with a tensor that carries layer data.
int32_t gated_layer_index() {
  static const int32_t index =
      kf::add_dispatch_layer({"unit.gated", &counting_layer, /*gated=*/true});
  return index;
}

// A gated layer that would pass a basic index through costs it nothing: a tensor without
// layer data is indexed directly (as with no layer), one with layer data through the ops, and
// kf_tensor_fill_at alike.
TEST(Layers, AGatedLayerSeesABasicIndexOnlyOfATensorWithLayerData) {
  ASSERT_TRUE(cpu_loaded()) << kf_last_error_message();
  const int32_t layer = gated_layer_index();
  const int64_t shape[] = {2, 3};
  kf_tensor_t a = nullptr, plain = nullptr, marked = nullptr;
  ASSERT_EQ(kf_full(shape, 2, kf_scalar_f64(1), KF_FLOAT32, kCpuDevice, &a), KF_OK);
  kf_index_item_t key[1] = {};
  key[0].kind = KF_INDEX_INT;
  key[0].index = 1;
  const int64_t at[] = {1, 2};
  g_ops.clear();
  kf::set_dispatch_layer_active(layer, true);
  EXPECT_EQ(kf_tensor_index(a, key, 1, &plain), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_fill_at(a, at, 2, kf_scalar_f64(5)), KF_OK) << kf_last_error_message();
  const std::vector<std::string> unmarked = g_ops;
  static int mark = 0;
  kf::TensorImpl& impl = kf::checked(a, "test");
  impl.layer_data = &mark;
  EXPECT_EQ(kf_tensor_index(a, key, 1, &marked), KF_OK) << kf_last_error_message();
  EXPECT_EQ(kf_tensor_fill_at(a, at, 2, kf_scalar_f64(6)), KF_OK) << kf_last_error_message();
  impl.layer_data = nullptr;
  kf::set_dispatch_layer_active(layer, false);
  const auto selects = [](const std::vector<std::string>& ops) {
    return std::count(ops.begin(), ops.end(), "select");
  };
  EXPECT_EQ(selects(unmarked), 0) << "a gated layer saw a basic index of a tensor without "
                                     "layer data";
  EXPECT_EQ(selects(g_ops), 3) << "the index (1 item) and the element (2) as select ops";
  EXPECT_EQ(strides_of(marked), strides_of(plain));
  float v[6] = {};
  EXPECT_EQ(kf_tensor_copy_to_host(a, v, sizeof v), KF_OK) << kf_last_error_message();
  EXPECT_EQ(v[5], 6.0f);
  for (kf_tensor_t t : {a, plain, marked}) kf_tensor_release(t);
}

}  // namespace
}  // namespace kfunit
