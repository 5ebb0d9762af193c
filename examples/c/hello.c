/*
 * hello.c — kernforge from plain C99: only kernforge/kernforge.h, only libkernforge.
 *
 * Prints the version and the backends, then computes with the CPU backend (loaded from its
 * manifest next to libkernforge): a + b, a @ b^T and sum(a @ b^T) for two 2x3 float32 tensors,
 * and checks the results against values computed here by hand. Exit status 0 when all is right.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kernforge/kernforge.h"

/* Runs a C ABI call; on failure prints where and why, and jumps to cleanup. */
#define CHECK(call)                                                                  \
  do {                                                                               \
    kf_status_t check_status_ = (call);                                              \
    if (check_status_ != KF_OK) {                                                    \
      fprintf(stderr, "hello.c:%d: %s failed: %s: %s\n", __LINE__, #call,            \
              kf_status_name(check_status_), kf_last_error_message());               \
      goto cleanup;                                                                  \
    }                                                                                \
  } while (0)

static const char* state_name(int32_t state) {
  switch (state) {
    case KF_BACKEND_LOADED: return "loaded";
    case KF_BACKEND_UNAVAILABLE: return "unavailable";
    case KF_BACKEND_REJECTED: return "rejected";
    case KF_BACKEND_SHADOWED: return "shadowed";
    default: return "unknown";
  }
}

static int print_backends(void) {
  int32_t i;
  const int32_t count = kf_backend_count();
  printf("backends: %d\n", (int)count);
  for (i = 0; i < count; ++i) {
    kf_backend_info_t info;
    info.struct_size = sizeof info;
    CHECK(kf_backend_info(i, &info));
    printf("  %-8s %-8s %-12s devices=%d%s%s\n", info.name, info.version,
           state_name(info.state), (int)info.device_count, info.reason[0] ? " " : "", info.reason);
  }
  return 0;
cleanup:
  return 1;
}

/* Prints a float32 tensor of at most 16 elements and copies its values to `values`. */
static int fetch(const char* label, kf_tensor_t t, float* values, int64_t expected_numel) {
  int64_t numel = 0, i;
  CHECK(kf_tensor_numel(t, &numel));
  if (numel != expected_numel) {
    fprintf(stderr, "%s: %lld elements, expected %lld\n", label, (long long)numel,
            (long long)expected_numel);
    return 1;
  }
  CHECK(kf_tensor_copy_to_host(t, values, (size_t)numel * sizeof(float)));
  printf("%-10s = [", label);
  for (i = 0; i < numel; ++i) printf("%s%g", i ? ", " : "", (double)values[i]);
  printf("]\n");
  return 0;
cleanup:
  return 1;
}

static double absolute(double x) { return x < 0 ? -x : x; }

static int same(const char* label, const float* got, const float* want, int n) {
  int i;
  for (i = 0; i < n; ++i) {
    if (absolute((double)got[i] - (double)want[i]) > 1e-4 * (1.0 + absolute((double)want[i]))) {
      fprintf(stderr, "%s[%d] = %g, expected %g\n", label, i, (double)got[i], (double)want[i]);
      return 0;
    }
  }
  return 1;
}

int main(void) {
  static const float a_data[6] = {1, 2, 3, 4, 5, 6};
  static const float b_data[6] = {0.5f, -1, 2, 0, 3, -0.5f};
  static const float want_sum[6] = {1.5f, 1, 5, 4, 8, 5.5f};
  static const float want_mm[4] = {4.5f, 4.5f, 9, 12};  /* a @ b^T */
  static const float want_total[1] = {30};
  const int64_t shape[2] = {2, 3};
  kf_tensor_t a = NULL, b = NULL, c = NULL, bt = NULL, m = NULL, s = NULL;
  float values[6];
  uint32_t major = 0, minor = 0;
  int ok = 0;

  CHECK(kf_abi_version(&major, &minor));
  printf("kernforge %s (C ABI %u.%u)\n", kf_version(), (unsigned)major, (unsigned)minor);
  if (print_backends() != 0) goto cleanup;

  CHECK(kf_tensor_from_data(a_data, shape, 2, KF_FLOAT32, kf_device_cpu(), &a));
  CHECK(kf_tensor_from_data(b_data, shape, 2, KF_FLOAT32, kf_device_cpu(), &b));
  CHECK(kf_add(a, b, kf_scalar_i64(1), &c));
  CHECK(kf_transpose(b, 0, 1, &bt));
  CHECK(kf_matmul(a, bt, &m));
  CHECK(kf_sum(m, NULL, 0, false, KF_DTYPE_UNDEFINED, &s));

  if (fetch("a + b", c, values, 6) || !same("a + b", values, want_sum, 6)) goto cleanup;
  if (fetch("a @ b^T", m, values, 4) || !same("a @ b^T", values, want_mm, 4)) goto cleanup;
  if (fetch("sum", s, values, 1) || !same("sum", values, want_total, 1)) goto cleanup;
  ok = 1;
  printf("ok\n");

cleanup:
  /* Releasing NULL is KF_OK, so every handle is released whatever happened above. */
  kf_tensor_release(s);
  kf_tensor_release(m);
  kf_tensor_release(bt);
  kf_tensor_release(c);
  kf_tensor_release(b);
  kf_tensor_release(a);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
