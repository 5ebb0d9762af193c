// hello.cpp — the C example (examples/c/hello.c) with the header-only C++ frontend.
//
// Prints the version and the backends, computes a + b, a @ b^T and its sum with the CPU backend,
// checks the results, and shows the operators with scalars. Errors arrive as kf::Error.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "kernforge/kernforge.hpp"

namespace {

void print_backends() {
  const int32_t count = kf_backend_count();
  std::cout << "backends: " << count << "\n";
  for (int32_t i = 0; i < count; ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    kf::detail::check(kf_backend_info(i, &info));
    std::cout << "  " << info.name << " " << info.version << " devices=" << info.device_count
              << (info.state == KF_BACKEND_LOADED ? "" : " (not loaded: ") << info.reason
              << (info.state == KF_BACKEND_LOADED ? "" : ")") << "\n";
  }
}

bool expect(const char* label, const kf::Tensor& t, const std::vector<float>& want) {
  std::cout << label << " = " << t << "\n";
  const std::vector<float> got = t.to_vector<float>();
  if (got.size() != want.size()) {
    std::cerr << label << ": " << got.size() << " values, expected " << want.size() << "\n";
    return false;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::fabs(got[i] - want[i]) > 1e-4f * (1.0f + std::fabs(want[i]))) {
      std::cerr << label << "[" << i << "] = " << got[i] << ", expected " << want[i] << "\n";
      return false;
    }
  }
  return true;
}

bool run() {
  uint32_t major = 0, minor = 0;
  kf::detail::check(kf_abi_version(&major, &minor));
  std::cout << "kernforge " << kf_version() << " (C ABI " << major << "." << minor << ")\n";
  print_backends();

  const kf::Tensor a = kf::tensor({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  const kf::Tensor b = kf::tensor({0.5f, -1.f, 2.f, 0.f, 3.f, -0.5f}, {2, 3});
  const kf::Tensor m = kf::matmul(a, b.transpose(0, 1));
  bool ok = expect("a + b", a + b, {1.5f, 1, 5, 4, 8, 5.5f});
  ok = expect("a @ b^T", m, {4.5f, 4.5f, 9, 12}) && ok;
  ok = expect("sum", m.sum(), {30}) && ok;
  ok = expect("row sums", a.sum({1}), {6, 15}) && ok;
  // Scalars follow PyTorch's wrapped-number rule: a float32 tensor stays float32.
  ok = expect("2 * a - 1", 2 * a - 1, {1, 3, 5, 7, 9, 11}) && ok;
  kf::Tensor c = a.clone();
  c += b;
  c /= 2.0;
  ok = expect("(a + b) / 2", c, {0.75f, 0.5f, 2.5f, 2, 4, 2.75f}) && ok;
  if (c.dtype() != kf::Dtype::Float32) {
    std::cerr << "(a + b) / 2 is " << c.dtype() << ", expected float32\n";
    ok = false;
  }
  return ok;
}

}  // namespace

int main() {
  try {
    if (!run()) return EXIT_FAILURE;
  } catch (const kf::Error& e) {
    std::cerr << "kernforge error (" << e.status_name() << "): " << e.what() << "\n";
    return EXIT_FAILURE;
  }
  std::cout << "ok\n";
  return EXIT_SUCCESS;
}
