// DLPack at the C ABI (kernforge.h, section "DLPack"): the structs' layout, zero-copy export and
// import of both struct versions, who frees what and when, and every refusal with its status
// and a message that names the problem.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "abi_util.hpp"
#include "kernforge/dlpack.h"

namespace kfabi {
namespace {

// ----------------------------------------------------------------- the layout --
// The DLPack specification's types give these offsets on every 64-bit target (LP64 and LLP64):
// pointers 8 bytes, enums 4, DLDataType {u8, u8, u16}.
static_assert(sizeof(DLPackVersion) == 8, "DLPackVersion: two uint32_t");
static_assert(sizeof(DLDevice) == 8 && offsetof(DLDevice, device_id) == 4, "DLDevice");
static_assert(sizeof(DLDataType) == 4 && offsetof(DLDataType, bits) == 1 &&
                  offsetof(DLDataType, lanes) == 2,
              "DLDataType");
static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLCUDAHost == 3 && kDLOpenCL == 4 &&
                  kDLVulkan == 7 && kDLROCM == 10 && kDLOneAPI == 14 && kDLTrn == 18,
              "device type numbers");
static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBfloat == 4 &&
                  kDLComplex == 5 && kDLBool == 6 && kDLFloat4_e2m1fn == 17,
              "dtype codes");
static_assert(DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2 &&
                  DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == 4,
              "flag bits");
static_assert(DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION == 1, "DLPack 1.1");
// kernforge's built-in device types are DLPack's numbers (the export relies on it).
constexpr int32_t dl(DLDeviceType t) { return static_cast<int32_t>(t); }
static_assert(KF_DEVICE_CPU == dl(kDLCPU) && KF_DEVICE_CUDA == dl(kDLCUDA) &&
                  KF_DEVICE_ROCM == dl(kDLROCM) && KF_DEVICE_XPU == dl(kDLOneAPI),
              "device numbers");
#if UINTPTR_MAX == UINT64_MAX
static_assert(offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
                  offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
                  offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40 &&
                  sizeof(DLTensor) == 48,
              "DLTensor");
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48 &&
                  offsetof(DLManagedTensor, deleter) == 56 && sizeof(DLManagedTensor) == 64,
              "DLManagedTensor");
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
                  offsetof(DLManagedTensorVersioned, deleter) == 16 &&
                  offsetof(DLManagedTensorVersioned, flags) == 24 &&
                  offsetof(DLManagedTensorVersioned, dl_tensor) == 32 &&
                  sizeof(DLManagedTensorVersioned) == 80,
              "DLManagedTensorVersioned");
#endif

constexpr auto IA = KF_INVALID_ARGUMENT;
const kf_scalar_t kOne = kf_scalar_i64(1);

// ------------------------------------------------------------------- helpers --

std::vector<float> values_of(kf_tensor_t t) {
  int64_t n = 0;
  EXPECT_EQ(kf_tensor_numel(t, &n), KF_OK);
  std::vector<float> v(static_cast<size_t>(n));
  EXPECT_EQ(kf_tensor_copy_to_host(t, v.data(), v.size() * sizeof(float)), KF_OK)
      << kf_last_error_message();
  return v;
}

void* data_of(kf_tensor_t t) {
  void* p = nullptr;
  EXPECT_EQ(kf_tensor_data_ptr(t, &p), KF_OK);
  return p;
}

Shape strides_of(kf_tensor_t t) {
  int32_t nd = 0;
  const int64_t* s = nullptr;
  EXPECT_EQ(kf_tensor_ndim(t, &nd), KF_OK);
  EXPECT_EQ(kf_tensor_strides(t, &s), KF_OK);
  return Shape(s, s + nd);
}

// A float32 [rows, cols] tensor holding 0, 1, 2, ...
Tensor iota(int64_t rows, int64_t cols) {
  Tensor flat, out;
  EXPECT_EQ(kf_arange(kf_scalar_i64(0), kf_scalar_i64(rows * cols), kOne, KF_FLOAT32,
                      kf_device_cpu(), flat.put()),
            KF_OK);
  const int64_t shape[] = {rows, cols};
  EXPECT_EQ(kf_reshape(flat.get(), shape, 2, out.put()), KF_OK) << kf_last_error_message();
  return out;
}

bool alive(kf_tensor_t t) {
  int32_t nd = 0;
  return kf_tensor_ndim(t, &nd) == KF_OK;
}

// A producer's tensor made by hand over a local buffer, with a deleter that counts its calls.
struct Producer {
  float buffer[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  int64_t shape[KF_MAX_NDIM + 2] = {3, 4};
  int64_t strides[KF_MAX_NDIM + 2] = {4, 1};
  int deleted = 0;
  DLManagedTensorVersioned managed{};
  DLManagedTensor legacy{};

  Producer() {
    DLTensor dl{};
    dl.data = buffer;
    dl.device.device_type = kDLCPU;
    dl.device.device_id = 0;
    dl.ndim = 2;
    dl.dtype.code = kDLFloat;
    dl.dtype.bits = 32;
    dl.dtype.lanes = 1;
    dl.shape = shape;
    dl.strides = strides;
    dl.byte_offset = 0;
    managed.version.major = 1;
    managed.version.minor = 1;
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensorVersioned* self) {
      ++static_cast<Producer*>(self->manager_ctx)->deleted;
    };
    managed.dl_tensor = dl;
    legacy.dl_tensor = dl;
    legacy.manager_ctx = this;
    legacy.deleter = [](DLManagedTensor* self) {
      ++static_cast<Producer*>(self->manager_ctx)->deleted;
    };
  }
};

// ------------------------------------------------------------------ export --

TEST(AbiDlpack, ExportDescribesTheTensorInPlace) {
  Tensor t = iota(2, 3);
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack(t.get(), &m), KF_OK) << kf_last_error_message();
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->version.major, 1u);
  EXPECT_EQ(m->version.minor, 1u);
  EXPECT_EQ(m->flags, 0u);
  const DLTensor& dl = m->dl_tensor;
  EXPECT_EQ(dl.data, data_of(t.get())) << "zero copy: the tensor's own memory";
  EXPECT_EQ(dl.byte_offset, 0u);
  EXPECT_EQ(dl.device.device_type, kDLCPU);
  EXPECT_EQ(dl.device.device_id, 0);
  ASSERT_EQ(dl.ndim, 2);
  EXPECT_EQ(Shape(dl.shape, dl.shape + 2), (Shape{2, 3}));
  EXPECT_EQ(Shape(dl.strides, dl.strides + 2), (Shape{3, 1})) << "strides in elements";
  EXPECT_EQ(dl.dtype.code, kDLFloat);
  EXPECT_EQ(dl.dtype.bits, 32);
  EXPECT_EQ(dl.dtype.lanes, 1);
  // A write through the export is a write to the tensor.
  static_cast<float*>(dl.data)[4] = 42.f;
  EXPECT_EQ(values_of(t.get()), (std::vector<float>{0, 1, 2, 3, 42, 5}));
  m->deleter(m);
}

TEST(AbiDlpack, ExportKeepsTheTensorAliveUntilItsDeleter) {
  Tensor t = iota(2, 2);
  const kf_tensor_t handle = t.get();
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack(handle, &m), KF_OK);
  t.reset();  // the caller's reference goes; the export's stays
  EXPECT_TRUE(alive(handle));
  EXPECT_EQ(static_cast<float*>(m->dl_tensor.data)[3], 3.f);
  m->deleter(m);
  EXPECT_FALSE(alive(handle)) << "the deleter drops the export's reference";
}

TEST(AbiDlpack, EveryDtypeExportsAndImportsAsItself) {
  struct Want { uint8_t code, bits; };
  // DLPack's names for kernforge's dtypes (kf_dtype_t order).
  const Want want[KF_DTYPE_COUNT] = {{kDLFloat, 32}, {kDLFloat, 64}, {kDLFloat, 16},
                                     {kDLBfloat, 16}, {kDLInt, 8},   {kDLUInt, 8},
                                     {kDLInt, 16},   {kDLInt, 32},   {kDLInt, 64},
                                     {kDLBool, 8},   {kDLUInt, 16},  {kDLUInt, 32},
                                     {kDLUInt, 64},  {kDLComplex, 64}, {kDLComplex, 128}};
  for (int32_t i = 0; i < KF_DTYPE_COUNT; ++i) {
    const kf_dtype_t d = static_cast<kf_dtype_t>(i);
    SCOPED_TRACE(kf_dtype_name(d));
    Tensor t = full({3}, 1, d);
    DLManagedTensorVersioned* m = nullptr;
    ASSERT_EQ(kf_tensor_to_dlpack(t.get(), &m), KF_OK) << kf_last_error_message();
    EXPECT_EQ(m->dl_tensor.dtype.code, want[i].code);
    EXPECT_EQ(m->dl_tensor.dtype.bits, want[i].bits);
    Tensor back;
    ASSERT_EQ(kf_tensor_from_dlpack(m, back.put()), KF_OK) << kf_last_error_message();
    kf_dtype_t got = KF_DTYPE_UNDEFINED;
    EXPECT_EQ(kf_tensor_dtype(back.get(), &got), KF_OK);
    EXPECT_EQ(got, d);
  }
}

// --------------------------------------------------------------- round trips --

TEST(AbiDlpack, RoundTripSharesMemory) {
  Tensor t = iota(2, 3);
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack(t.get(), &m), KF_OK);
  Tensor u;
  ASSERT_EQ(kf_tensor_from_dlpack(m, u.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(u.get()), data_of(t.get()));
  EXPECT_EQ(values_of(u.get()), values_of(t.get()));
  EXPECT_EQ(kf_add_(u.get(), u.get(), kOne), KF_OK);  // a write through the import ...
  EXPECT_EQ(values_of(t.get()), (std::vector<float>{0, 2, 4, 6, 8, 10}));  // ... is seen here
  const kf_tensor_t handle = t.get();
  t.reset();
  EXPECT_TRUE(alive(handle)) << "the imported tensor holds the export, which holds the tensor";
  u.reset();
  EXPECT_FALSE(alive(handle)) << "releasing the import ran the export's deleter";
}

TEST(AbiDlpack, StridesOfViewsSurvive) {
  Tensor t = iota(3, 4);
  Tensor tr, sl;
  ASSERT_EQ(kf_transpose(t.get(), 0, 1, tr.put()), KF_OK);
  const int64_t start = 1, end = 3;
  ASSERT_EQ(kf_slice(t.get(), 1, &start, &end, 1, sl.put()), KF_OK);
  for (const Tensor* view : {&tr, &sl}) {
    DLManagedTensorVersioned* m = nullptr;
    ASSERT_EQ(kf_tensor_to_dlpack(view->get(), &m), KF_OK);
    const DLTensor& dl = m->dl_tensor;
    EXPECT_EQ(Shape(dl.strides, dl.strides + dl.ndim), strides_of(view->get()));
    EXPECT_EQ(dl.data, data_of(view->get())) << "data is element [0, 0] and byte_offset is 0";
    EXPECT_EQ(dl.byte_offset, 0u);
    Tensor back;
    ASSERT_EQ(kf_tensor_from_dlpack(m, back.put()), KF_OK) << kf_last_error_message();
    EXPECT_EQ(strides_of(back.get()), strides_of(view->get()));
    EXPECT_EQ(data_of(back.get()), data_of(view->get()));
    EXPECT_EQ(values_of(back.get()), values_of(view->get()));
  }
  EXPECT_EQ(strides_of(tr.get()), (Shape{1, 4}));
  EXPECT_EQ(values_of(sl.get()), (std::vector<float>{1, 2, 5, 6, 9, 10}));
}

TEST(AbiDlpack, ZeroDimAndEmptyTensors) {
  Tensor scalar = full({}, 7);
  DLManagedTensorVersioned* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack(scalar.get(), &m), KF_OK) << kf_last_error_message();
  EXPECT_EQ(m->dl_tensor.ndim, 0);
  EXPECT_NE(m->dl_tensor.shape, nullptr);
  EXPECT_NE(m->dl_tensor.strides, nullptr);
  Tensor back;
  ASSERT_EQ(kf_tensor_from_dlpack(m, back.put()), KF_OK) << kf_last_error_message();
  kf_scalar_t v{};
  ASSERT_EQ(kf_tensor_item(back.get(), &v), KF_OK);
  EXPECT_EQ(v.v.f64, 7.0);

  Tensor empty = full({0, 3}, 0);
  ASSERT_EQ(kf_tensor_to_dlpack(empty.get(), &m), KF_OK) << kf_last_error_message();
  EXPECT_EQ(Shape(m->dl_tensor.shape, m->dl_tensor.shape + 2), (Shape{0, 3}));
  ASSERT_EQ(kf_tensor_from_dlpack(m, back.put()), KF_OK) << kf_last_error_message();
  int64_t n = -1;
  EXPECT_EQ(kf_tensor_numel(back.get(), &n), KF_OK);
  EXPECT_EQ(n, 0);

  // A producer's empty tensor may have no memory at all.
  Producer p;
  p.shape[0] = 0;
  p.managed.dl_tensor.data = nullptr;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, back.put()), KF_OK) << kf_last_error_message();
  back.reset();
  EXPECT_EQ(p.deleted, 1);
}

// --------------------------------------------------------------- ownership --

TEST(AbiDlpack, ImportedDeleterRunsOnceAfterTheLastReference) {
  Producer p;
  Tensor t, view;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, t.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(t.get()), p.buffer) << "zero copy";
  ASSERT_EQ(kf_transpose(t.get(), 0, 1, view.put()), KF_OK);
  ASSERT_EQ(kf_tensor_retain(t.get()), KF_OK);
  EXPECT_EQ(kf_tensor_release(t.get()), KF_OK);  // the extra reference
  t.reset();
  EXPECT_EQ(p.deleted, 0) << "a view still uses the memory";
  EXPECT_EQ(values_of(view.get()), (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  view.reset();
  EXPECT_EQ(p.deleted, 1);
}

TEST(AbiDlpack, ImportReadsBytesOffsetAndNullStrides) {
  Producer p;
  p.managed.dl_tensor.strides = nullptr;  // compact row-major
  p.shape[0] = 2;
  p.shape[1] = 2;
  p.managed.dl_tensor.byte_offset = 4 * sizeof(float);
  Tensor t;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, t.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(t.get()), p.buffer + 4);
  EXPECT_EQ(strides_of(t.get()), (Shape{2, 1}));
  EXPECT_EQ(values_of(t.get()), (std::vector<float>{4, 5, 6, 7}));
}

TEST(AbiDlpack, NewerMinorAndInformationalFlagsAreRead) {
  Producer p;
  p.managed.version.minor = 7;
  p.managed.flags = DLPACK_FLAG_BITMASK_IS_COPIED | DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  Tensor t;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, t.put()), KF_OK) << kf_last_error_message();
  t.reset();
  EXPECT_EQ(p.deleted, 1);
}

TEST(AbiDlpack, ProducersWithoutDeleter) {
  Producer p;
  p.managed.deleter = nullptr;
  p.legacy.deleter = nullptr;
  Tensor t;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, t.put()), KF_OK);
  ASSERT_EQ(kf_tensor_from_dlpack_legacy(&p.legacy, t.put()), KF_OK);
  t.reset();
  EXPECT_EQ(p.deleted, 0);
}

// ------------------------------------------------------------------ legacy --

TEST(AbiDlpack, LegacyStructBothWays) {
  Tensor t = iota(2, 3);
  DLManagedTensor* m = nullptr;
  ASSERT_EQ(kf_tensor_to_dlpack_legacy(t.get(), &m), KF_OK) << kf_last_error_message();
  EXPECT_EQ(m->dl_tensor.data, data_of(t.get()));
  EXPECT_EQ(Shape(m->dl_tensor.shape, m->dl_tensor.shape + 2), (Shape{2, 3}));
  EXPECT_EQ(Shape(m->dl_tensor.strides, m->dl_tensor.strides + 2), (Shape{3, 1}));
  Tensor u;
  ASSERT_EQ(kf_tensor_from_dlpack_legacy(m, u.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(u.get()), data_of(t.get()));
  EXPECT_EQ(values_of(u.get()), values_of(t.get()));
  const kf_tensor_t handle = t.get();
  t.reset();
  u.reset();
  EXPECT_FALSE(alive(handle)) << "the legacy export's deleter ran";

  Producer p;
  ASSERT_EQ(kf_tensor_from_dlpack_legacy(&p.legacy, u.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(u.get()), p.buffer);
  EXPECT_EQ(values_of(u.get())[11], 11.f);
  u.reset();
  EXPECT_EQ(p.deleted, 1);
}

// ---------------------------------------------------------------- refusals --

TEST(AbiDlpack, NullArguments) {
  Producer p;
  kf_tensor_t out = nullptr;
  EXPECT_TRUE(fails_with(kf_tensor_from_dlpack(nullptr, &out), IA, {{"src", "NULL"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_from_dlpack(&p.managed, nullptr), IA, {{"out", "NULL"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_from_dlpack_legacy(nullptr, &out), IA, {{"src"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_from_dlpack_legacy(&p.legacy, nullptr), IA, {{"out"}, {}}));
  EXPECT_EQ(p.deleted, 0);
  DLManagedTensorVersioned* m = nullptr;
  DLManagedTensor* l = nullptr;
  EXPECT_TRUE(fails_with(kf_tensor_to_dlpack(nullptr, &m), IA, {{"kf_tensor_to_dlpack"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_to_dlpack_legacy(nullptr, &l), IA, {{"tensor handle"}, {}}));
  Tensor t = full({2}, 1);
  EXPECT_TRUE(fails_with(kf_tensor_to_dlpack(t.get(), nullptr), IA, {{"out"}, {}}));
  EXPECT_TRUE(fails_with(kf_tensor_to_dlpack_legacy(t.get(), nullptr), IA, {{"out"}, {}}));
}

// Runs the import of `p` and checks the refusal: the status, the message, nothing taken.
::testing::AssertionResult refused(Producer& p, kf_status_t want, const Words& w,
                                   bool legacy = false) {
  kf_tensor_t out = nullptr;
  const kf_status_t s = legacy ? kf_tensor_from_dlpack_legacy(&p.legacy, &out)
                               : kf_tensor_from_dlpack(&p.managed, &out);
  ::testing::AssertionResult r = fails_with(s, want, w);
  if (!r) return r;
  if (out != nullptr) return ::testing::AssertionFailure() << "*out was written on failure";
  if (p.deleted != 0) return ::testing::AssertionFailure() << "the deleter ran on failure";
  return ::testing::AssertionSuccess();
}

TEST(AbiDlpack, OtherMajorVersionIsRefused) {
  Producer p;
  p.managed.version.major = 2;
  p.managed.version.minor = 0;
  EXPECT_TRUE(refused(p, KF_ABI_MISMATCH, {{"2.0", "1.1", "deleter"}, {}}));
  p.managed.version.major = 0;
  EXPECT_TRUE(refused(p, KF_ABI_MISMATCH, {{"0.0", "1.x"}, {}}));
}

TEST(AbiDlpack, ReadOnlyIsRefused) {
  Producer p;
  p.managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  EXPECT_TRUE(refused(p, IA, {{"READ_ONLY", "writable", "copy"}, {}}));
}

TEST(AbiDlpack, DtypesKernforgeLacksAreRefused) {
  struct Case { uint8_t code, bits; uint16_t lanes; std::vector<std::string> words; };
  const Case cases[] = {
      {kDLFloat, 32, 4, {"lanes 4", "code 2"}},
      {kDLUInt, 128, 1, {"code 1 (uint)", "bits 128"}},
      {kDLComplex, 32, 1, {"complex", "bits 32"}},
      {kDLComplex, 64, 2, {"lanes 2"}},
      {kDLFloat8_e4m3fn, 8, 1, {"float8_e4m3fn"}},
      {kDLFloat4_e2m1fn, 4, 1, {"bits 4", "byte"}},
      {kDLInt, 1, 1, {"bits 1", "byte"}},
      {kDLBool, 16, 1, {"bool", "bits 16"}},
      {kDLOpaqueHandle, 64, 1, {"opaque"}},
      {kDLFloat, 24, 1, {"bits 24"}},
      {200, 32, 1, {"code 200"}},
  };
  for (const Case& c : cases) {
    Producer p;
    p.managed.dl_tensor.dtype = DLDataType{c.code, c.bits, c.lanes};
    p.legacy.dl_tensor.dtype = p.managed.dl_tensor.dtype;
    SCOPED_TRACE(c.words[0]);
    EXPECT_TRUE(refused(p, IA, {c.words, {}}));
    EXPECT_TRUE(refused(p, IA, {c.words, {}}, /*legacy=*/true));
  }
}

TEST(AbiDlpack, DevicesNoBackendServesAreRefused) {
  struct Case { int32_t type, index; std::vector<std::string> words; };
  const Case cases[] = {
      {kDLCUDAHost, 0, {"kDLCUDAHost (3)"}},
      {kDLVulkan, 0, {"kDLVulkan (7)"}},
      {kDLCUDAManaged, 0, {"kDLCUDAManaged"}},
      {KF_DEVICE_DYNAMIC_BASE, 0, {"64"}},  // kernforge's own numbers are not DLPack's
      {200, 0, {"200"}},
      {0, 0, {"(0)"}},
      {-3, 0, {"(-3)"}},
      {kDLCPU, 5, {"index 5", "1 device"}},
      {kDLCPU, -1, {"index -1"}},
  };
  for (const Case& c : cases) {
    Producer p;
    p.managed.dl_tensor.device.device_type = static_cast<DLDeviceType>(c.type);
    p.managed.dl_tensor.device.device_id = c.index;
    SCOPED_TRACE(c.words[0]);
    EXPECT_TRUE(refused(p, KF_UNAVAILABLE, {c.words, {}}));
  }
}

TEST(AbiDlpack, BadShapesAreRefused) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  {
    Producer p;
    p.managed.dl_tensor.ndim = -1;
    EXPECT_TRUE(refused(p, IA, {{"ndim -1"}, {}}));
    p.managed.dl_tensor.ndim = KF_MAX_NDIM + 1;
    EXPECT_TRUE(refused(p, IA, {{"ndim 17"}, {}}));
    p.managed.dl_tensor.ndim = 1 << 30;
    EXPECT_TRUE(refused(p, IA, {{"ndim"}, {}}));
  }
  {
    Producer p;
    p.managed.dl_tensor.shape = nullptr;
    EXPECT_TRUE(refused(p, IA, {{"shape is NULL"}, {}}));
  }
  {
    Producer p;
    p.shape[1] = -4;
    EXPECT_TRUE(refused(p, IA, {{}, {{3, -4}}}));
  }
  {
    Producer p;  // 2^62 * 2^62 elements
    p.shape[0] = p.shape[1] = int64_t{1} << 62;
    EXPECT_TRUE(refused(p, IA, {{"kf_tensor_from_dlpack"}, {{int64_t{1} << 62,
                                                             int64_t{1} << 62}}}));
  }
  {
    Producer p;  // 2^62 float32 elements: 2^64 bytes
    p.shape[0] = int64_t{1} << 62;
    p.shape[1] = 1;
    p.managed.dl_tensor.strides = nullptr;
    EXPECT_TRUE(refused(p, IA, {{}, {{int64_t{1} << 62, 1}}}));
  }
  {
    Producer p;  // a stride whose byte step overflows
    p.strides[0] = kMax / 2;
    EXPECT_TRUE(refused(p, IA, {{"strides"}, {}}));
  }
}

TEST(AbiDlpack, NegativeStridesReachBelowData) {
  Producer p;  // buffer[11 - i * 4 - j]: NumPy's x[::-1, ::-1] of the 3 x 4 buffer
  p.strides[0] = -4;
  p.strides[1] = -1;
  p.managed.dl_tensor.byte_offset = 11 * sizeof(float);
  Tensor t, v, w;
  ASSERT_EQ(kf_tensor_from_dlpack(&p.managed, t.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(data_of(t.get()), p.buffer + 11);
  EXPECT_EQ(strides_of(t.get()), (Shape{-4, -1}));
  EXPECT_EQ(values_of(t.get()), (std::vector<float>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  // Views keep to the span: the reversed rows again, then a column, read the buffer itself.
  const int64_t minus_one = -1;
  ASSERT_EQ(kf_slice(t.get(), 0, nullptr, nullptr, minus_one, v.put()), KF_OK)
      << kf_last_error_message();
  EXPECT_EQ(values_of(v.get()), (std::vector<float>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
  ASSERT_EQ(kf_select(v.get(), 1, 3, w.put()), KF_OK) << kf_last_error_message();
  EXPECT_EQ(values_of(w.get()), (std::vector<float>{0, 4, 8}));
  t.reset();
  v.reset();
  w.reset();
  EXPECT_EQ(p.deleted, 1);
  Producer low;  // a negative stride from the first byte of the address space would wrap
  low.managed.dl_tensor.data = reinterpret_cast<void*>(uintptr_t{4096});
  low.strides[0] = -(int64_t{1} << 40);
  EXPECT_TRUE(refused(low, IA, {{"wrap"}, {}}));
}

TEST(AbiDlpack, BadMemoryIsRefused) {
  {
    Producer p;
    p.managed.dl_tensor.data = nullptr;
    EXPECT_TRUE(refused(p, IA, {{"NULL", "12 elements"}, {}}));
  }
  {
    Producer p;
    p.managed.dl_tensor.byte_offset = std::numeric_limits<uint64_t>::max() - 3;
    EXPECT_TRUE(refused(p, IA, {{"byte_offset"}, {}}));
  }
  {
    Producer p;
    p.managed.dl_tensor.data = reinterpret_cast<void*>(UINTPTR_MAX - 15);
    p.managed.dl_tensor.byte_offset = 32;
    EXPECT_TRUE(refused(p, IA, {{"byte_offset 32", "address space"}, {}}));
  }
  {
    Producer p;  // the span from a valid first element wraps the address space
    p.managed.dl_tensor.data = reinterpret_cast<void*>(UINTPTR_MAX - 15);
    EXPECT_TRUE(refused(p, IA, {{"wrap"}, {}}));
  }
  {
    Producer p;
    p.managed.dl_tensor.byte_offset = 2;
    EXPECT_TRUE(refused(p, IA, {{"aligned", "4 bytes", "byte_offset 2"}, {}}));
  }
}

}  // namespace
}  // namespace kfabi
