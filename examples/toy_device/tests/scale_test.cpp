// scale_test.cpp — calls the toy plugin's own op, toy::scale, through the C ABI as any program
// would, and checks what comes back; then fills the toy device's memory to check that running
// out of it is a clear error, not a crash, and that freed memory can be used again; and its
// backward (plugin ABI 2.1): the gradient of toy::scale through kf_backward.
//
// Run it with KERNFORGE_PLUGIN_PATH=<the folder of the toy plugin>, KERNFORGE_TOY_MEMORY_MB=4
// and KERNFORGE_TOY_DEVICES=2 (CMakeLists.txt does). Exit status 0 when every check passes.
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernforge/kernforge.h"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "FAILED: %s\n", what);
  ++failures;
}

// Checks a C ABI call's status, printing the runtime's message when it is not KF_OK.
bool ok(kf_status_t s, const char* call) {
  if (s == KF_OK) return true;
  std::fprintf(stderr, "FAILED: %s -> %s: %s\n", call, kf_status_name(s), kf_last_error_message());
  ++failures;
  return false;
}

// toy::scale(t, factor): the result (owned by the caller) or NULL, and the status in *status.
kf_tensor_t scale(kf_tensor_t t, double factor, kf_status_t* status) {
  kf_op_t op = nullptr;
  *status = kf_op_find("toy::scale", &op);
  if (*status != KF_OK) return nullptr;
  const kf_value_t args[2] = {kf_value_tensor(t), kf_value_float(factor)};
  kf_value_t result = kf_value_none();
  *status = kf_op_call(op, args, 2, &result, 1);
  return *status == KF_OK ? result.v.tensor : nullptr;
}

std::vector<float> to_host(kf_tensor_t t, size_t n) {
  std::vector<float> out(n);
  ok(kf_tensor_copy_to_host(t, out.data(), n * sizeof(float)), "kf_tensor_copy_to_host");
  return out;
}

// A 2x3 float32 tensor on toy, scaled; then its transpose (a strided view), scaled.
void scale_values(kf_device_t toy) {
  const float data[6] = {1, -2, 3.5f, 0, 8, -0.25f};
  const int64_t shape[2] = {2, 3};
  kf_tensor_t x = nullptr, xt = nullptr;
  if (!ok(kf_tensor_from_data(data, shape, 2, KF_FLOAT32, toy, &x), "kf_tensor_from_data")) return;
  kf_status_t s;
  kf_tensor_t y = scale(x, 2.5, &s);
  if (ok(s, "toy::scale")) {
    kf_device_t where{};
    kf_tensor_device(y, &where);
    check(where.type == toy.type, "toy::scale's result lives on the toy device");
    const std::vector<float> got = to_host(y, 6);
    for (int i = 0; i < 6; ++i) check(got[i] == data[i] * 2.5f, "toy::scale(x, 2.5) == x * 2.5");
  }
  ok(kf_transpose(x, 0, 1, &xt), "kf_transpose");
  kf_tensor_t yt = scale(xt, -1.0, &s);
  if (ok(s, "toy::scale of a transposed view")) {
    const std::vector<float> got = to_host(yt, 6);  // row-major of the 3x2 transpose
    const float want[6] = {-1, 0, 2, -8, -3.5f, 0.25f};
    for (int i = 0; i < 6; ++i) check(got[i] == want[i], "toy::scale(x^T, -1) == -x^T");
  }
  kf_tensor_release(yt);
  kf_tensor_release(xt);
  kf_tensor_release(y);
  kf_tensor_release(x);
}

// An int32 tensor is refused by the op's meta function, with a message.
void scale_refuses_integers(kf_device_t toy) {
  const int64_t shape[1] = {4};
  kf_tensor_t x = nullptr;
  if (!ok(kf_zeros(shape, 1, KF_INT32, toy, &x), "kf_zeros int32")) return;
  kf_status_t s;
  kf_tensor_t y = scale(x, 2.0, &s);
  check(s == KF_INVALID_ARGUMENT && y == nullptr, "toy::scale of int32 is KF_INVALID_ARGUMENT");
  check(std::strstr(kf_last_error_message(), "floating-point") != nullptr,
        "the message says a floating-point tensor is needed");
  kf_tensor_release(x);
}

// With a 4 MiB arena: 5 MiB at once is KF_OUT_OF_MEMORY with the plugin's message; three
// 1 MiB tensors fit, and once they are released a 3 MiB one fits too (the arena merged the
// freed blocks back into one range).
void out_of_memory_and_reuse(kf_device_t toy) {
  const int64_t big[1] = {5 << 18}, mib[1] = {1 << 18}, three[1] = {3 << 18};  // float32
  kf_tensor_t t = nullptr;
  check(kf_empty(big, 1, KF_FLOAT32, toy, &t) == KF_OUT_OF_MEMORY, "5 MiB is KF_OUT_OF_MEMORY");
  check(std::strstr(kf_last_error_message(), "out of memory") != nullptr,
        "the message says the toy device is out of memory");
  kf_tensor_t parts[3] = {nullptr, nullptr, nullptr};
  for (kf_tensor_t& p : parts) ok(kf_empty(mib, 1, KF_FLOAT32, toy, &p), "kf_empty 1 MiB");
  for (kf_tensor_t p : parts) kf_tensor_release(p);
  if (ok(kf_empty(three, 1, KF_FLOAT32, toy, &t), "kf_empty 3 MiB after releasing 3 x 1 MiB")) {
    kf_tensor_release(t);
  }
}

// A tensor moved from toy:0 to toy:1 (through host memory: each copy is checked against the
// arena of its own device) keeps its values.
void between_devices(kf_device_t toy) {
  kf_device_t toy1{};
  if (!ok(kf_device_parse("toy:1", &toy1), "kf_device_parse(\"toy:1\")")) return;
  const float data[4] = {4, 3, -2, 1};
  const int64_t shape[1] = {4};
  kf_tensor_t x = nullptr, y = nullptr;
  if (!ok(kf_tensor_from_data(data, shape, 1, KF_FLOAT32, toy, &x), "kf_tensor_from_data")) return;
  if (ok(kf_tensor_to(x, toy1, KF_DTYPE_UNDEFINED, &y), "kf_tensor_to toy:1")) {
    kf_device_t where{};
    kf_tensor_device(y, &where);
    check(where.type == toy1.type && where.index == 1, "the copy lives on toy:1");
    const std::vector<float> got = to_host(y, 4);
    check(std::memcmp(got.data(), data, sizeof data) == 0, "toy:0 -> toy:1 keeps the values");
  }
  kf_tensor_release(y);
  kf_tensor_release(x);
}

// toy::scale's backward formula (plugin ABI 2.1): the gradient of x in y = toy::scale(x, 2.5),
// seeded with ones, is 2.5 everywhere, computed by toy::scale on the toy device.
void scale_backward(kf_device_t toy) {
  const float data[3] = {1, -2, 4};
  const float seed[3] = {1, 1, 1};
  const int64_t shape[1] = {3};
  kf_tensor_t x = nullptr, ones = nullptr, grad = nullptr;
  if (!ok(kf_tensor_from_data(data, shape, 1, KF_FLOAT32, toy, &x), "kf_tensor_from_data") ||
      !ok(kf_tensor_from_data(seed, shape, 1, KF_FLOAT32, toy, &ones), "kf_tensor_from_data") ||
      !ok(kf_tensor_set_requires_grad(x, true), "kf_tensor_set_requires_grad")) {
    kf_tensor_release(x);
    kf_tensor_release(ones);
    return;
  }
  kf_status_t s;
  kf_tensor_t y = scale(x, 2.5, &s);
  if (ok(s, "toy::scale with an input that requires grad") &&
      ok(kf_backward(&y, &ones, 1, false, false), "kf_backward through toy::scale") &&
      ok(kf_tensor_grad(x, &grad), "kf_tensor_grad")) {
    const std::vector<float> got = to_host(grad, 3);
    check(got == std::vector<float>({2.5f, 2.5f, 2.5f}), "the gradient of toy::scale is factor");
  }
  kf_tensor_release(grad);
  kf_tensor_release(y);
  kf_tensor_release(ones);
  kf_tensor_release(x);
}

}  // namespace

int main() {
  kf_device_t toy{};
  if (!ok(kf_device_parse("toy", &toy), "kf_device_parse(\"toy\") (is the plugin on "
                                        "KERNFORGE_PLUGIN_PATH?)")) {
    return 1;
  }
  scale_values(toy);
  scale_refuses_integers(toy);
  out_of_memory_and_reuse(toy);
  between_devices(toy);
  scale_backward(toy);
  std::printf("%s: %d failure(s)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
