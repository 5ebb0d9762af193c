/*
 * matmul.c — embedding kernforge from C99: a 2x3 @ 3x2 float32 matmul and a relu of it on one
 * device, checked against the same product computed here with three plain loops.
 *
 *   example_c_matmul [device]       device: "cpu" (the default), "opencl", "xpu:1", ...
 *
 * Only kernforge/kernforge.h and libkernforge. Against an installed package, one line:
 *   cc -std=c99 matmul.c $(pkg-config --cflags --libs kernforge) -o matmul && ./matmul
 * Exit status 0 when every value is right; otherwise 1, after printing the failing call, its
 * status and kf_last_error_message().
 */
#include <stdio.h>
#include <stdlib.h>

#include "kernforge/kernforge.h"

enum { M = 2, K = 3, N = 2 };

/* Prints a failed call with the runtime's message; returns whether `status` is a failure. */
static int failed(const char* call, kf_status_t status) {
  if (status == KF_OK) return 0;
  fprintf(stderr, "matmul.c: %s failed: %s: %s\n", call, kf_status_name(status),
          kf_last_error_message());
  return 1;
}
#define FAILED(call) failed(#call, (call))

/* The reference: want_mm = a @ b (row-major, three loops) and want_relu = max(want_mm, 0). */
static void reference(const float* a, const float* b, float* want_mm, float* want_relu) {
  int i, j, k;
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      float acc = 0;
      for (k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      want_mm[i * N + j] = acc;
      want_relu[i * N + j] = acc > 0 ? acc : 0;
    }
  }
}

/* Checks that `t` is an M x N tensor holding `want`, and prints it. Returns 1 when it does. */
static int check(const char* label, kf_tensor_t t, const float* want) {
  const int64_t* shape = NULL;
  int32_t ndim = 0;
  float got[M * N];
  int i;
  if (FAILED(kf_tensor_ndim(t, &ndim)) || FAILED(kf_tensor_shape(t, &shape))) return 0;
  if (ndim != 2 || shape[0] != M || shape[1] != N) {
    fprintf(stderr, "matmul.c: %s has %d dims, expected a %dx%d matrix\n", label, (int)ndim, M, N);
    return 0;
  }
  if (FAILED(kf_tensor_copy_to_host(t, got, sizeof got))) return 0;
  printf("%-12s = [", label);
  for (i = 0; i < M * N; ++i) printf("%s%g", i ? ", " : "", (double)got[i]);
  printf("]\n");
  for (i = 0; i < M * N; ++i) {
    double diff = (double)got[i] - (double)want[i];
    if (diff > 1e-5 || diff < -1e-5) {
      fprintf(stderr, "matmul.c: %s[%d] = %g, expected %g\n", label, i, (double)got[i],
              (double)want[i]);
      return 0;
    }
  }
  return 1;
}

int main(int argc, char** argv) {
  static const float a_data[M * K] = {1, 2, 3, 4, 5, 6};
  static const float b_data[K * N] = {1, -1, 2, 0, -1, 0.5f};
  const int64_t a_shape[2] = {M, K}, b_shape[2] = {K, N};
  const char* device_text = argc > 1 ? argv[1] : "cpu";
  kf_device_t device;
  kf_tensor_t a = NULL, b = NULL, mm = NULL, relu = NULL;
  float want_mm[M * N], want_relu[M * N];
  char device_name[64];
  int ok = 0;

  /* Starts the runtime now (it would on first use): the plugins load, so a device type one of
   * them brings ("opencl") parses. */
  if (FAILED(kf_init(NULL)) || FAILED(kf_device_parse(device_text, &device)) ||
      FAILED(kf_device_name(device, device_name, sizeof device_name)))
    goto cleanup;
  printf("kernforge %s, device %s: a (2x3) @ b (3x2), then relu\n", kf_version(), device_name);

  if (FAILED(kf_tensor_from_data(a_data, a_shape, 2, KF_FLOAT32, device, &a)) ||
      FAILED(kf_tensor_from_data(b_data, b_shape, 2, KF_FLOAT32, device, &b)) ||
      FAILED(kf_matmul(a, b, &mm)) || FAILED(kf_relu(mm, &relu)))
    goto cleanup;

  reference(a_data, b_data, want_mm, want_relu);
  ok = check("a @ b", mm, want_mm) && check("relu(a @ b)", relu, want_relu);
  if (ok) printf("ok: both match the values computed by hand\n");

cleanup:
  /* Releasing NULL is KF_OK: every handle is released whatever happened above. */
  kf_tensor_release(relu);
  kf_tensor_release(mm);
  kf_tensor_release(b);
  kf_tensor_release(a);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
