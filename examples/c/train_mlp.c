/* Trains a small MLP with autograd through the C ABI alone until its loss falls under a
 * threshold: points of a 2-D normal labelled by whether their coordinates have the same sign
 * (XOR of the signs), widths 2-32-2, cross-entropy (kf_log_softmax then kf_nll_loss), plain
 * SGD, each update with grad mode off. Exits 1 when the loss is still above 0.1 after 2000
 * steps, or when a call fails (printing it and kf_last_error_message()). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernforge/kernforge.h"
#include "kernforge/kernforge_ops.h"

#define CHECK(call)                                                                     \
  do {                                                                                  \
    kf_status_t st_ = (call);                                                           \
    if (st_ != KF_OK) {                                                                 \
      fprintf(stderr, "%s failed: %s: %s\n", #call, kf_status_name(st_),              \
              kf_last_error_message());                                                 \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

enum { kParams = 4 };

/* A 0-dim float32 tensor holding v. */
static kf_tensor_t number(double v) {
  kf_tensor_t t = NULL;
  CHECK(kf_full(NULL, 0, kf_scalar_f64(v), KF_FLOAT32, kf_device_cpu(), &t));
  return t;
}

/* a * b, releasing a (b is kept). */
static kf_tensor_t times(kf_tensor_t a, kf_tensor_t b) {
  kf_tensor_t out = NULL;
  CHECK(kf_mul(a, b, &out));
  kf_tensor_release(a);
  return out;
}

/* A leaf uniform in [-bound, bound) that requires grad. */
static kf_tensor_t parameter(const int64_t* shape, int32_t ndim, double bound) {
  kf_tensor_t r = NULL, two_b = number(2 * bound), b = number(bound), p = NULL;
  CHECK(kf_rand(shape, ndim, KF_FLOAT32, kf_device_cpu(), &r));
  r = times(r, two_b);
  CHECK(kf_sub(r, b, kf_scalar_i64(1), &p));
  kf_tensor_release(r);
  kf_tensor_release(two_b);
  kf_tensor_release(b);
  CHECK(kf_tensor_set_requires_grad(p, true));
  return p;
}

/* The data: x [256, 2] and its labels y [256] (int64). */
static void make_data(kf_tensor_t* x, kf_tensor_t* y) {
  const int64_t shape[2] = {256, 2};
  kf_tensor_t c0 = NULL, c1 = NULL, zero = number(0), same = NULL;
  CHECK(kf_randn(shape, 2, KF_FLOAT32, kf_device_cpu(), x));
  CHECK(kf_select(*x, 1, 0, &c0));
  CHECK(kf_select(*x, 1, 1, &c1));
  c0 = times(c0, c1);
  CHECK(kf_gt(c0, zero, &same));
  CHECK(kf_to_dtype(same, KF_INT64, y));
  kf_tensor_release(c0);
  kf_tensor_release(c1);
  kf_tensor_release(zero);
  kf_tensor_release(same);
}

/* The loss of the model on (x, y): nll_loss(log_softmax(linear(relu(linear(x))))). */
static kf_tensor_t loss_of(kf_tensor_t const* p, kf_tensor_t x, kf_tensor_t y) {
  kf_tensor_t h = NULL, a = NULL, logits = NULL, lp = NULL, loss = NULL;
  CHECK(kf_linear(x, p[0], p[1], &h));
  CHECK(kf_relu(h, &a));
  CHECK(kf_linear(a, p[2], p[3], &logits));
  CHECK(kf_log_softmax(logits, 1, KF_DTYPE_UNDEFINED, &lp));
  CHECK(kf_nll_loss(lp, y, 1, &loss));
  kf_tensor_release(h);
  kf_tensor_release(a);
  kf_tensor_release(logits);
  kf_tensor_release(lp);
  return loss;
}

/* p -= lr * p.grad for every parameter, with grad mode off; clears the gradients. */
static void sgd_step(kf_tensor_t* p, double lr) {
  bool previous = true;
  CHECK(kf_set_grad_enabled(false, &previous));
  for (int i = 0; i < kParams; ++i) {
    kf_tensor_t g = NULL;
    CHECK(kf_tensor_grad(p[i], &g));
    CHECK(kf_sub_(p[i], g, kf_scalar_f64(lr)));
    kf_tensor_release(g);
    CHECK(kf_tensor_set_grad(p[i], NULL));
  }
  CHECK(kf_set_grad_enabled(previous, NULL));
}

int main(void) {
  const int64_t w1[2] = {32, 2}, b1[1] = {32}, w2[2] = {2, 32}, b2[1] = {2};
  const double threshold = 0.1;
  kf_tensor_t x = NULL, y = NULL, p[kParams];
  CHECK(kf_manual_seed(0));
  make_data(&x, &y);
  p[0] = parameter(w1, 2, 1 / sqrt(2.0));
  p[1] = parameter(b1, 1, 1 / sqrt(2.0));
  p[2] = parameter(w2, 2, 1 / sqrt(32.0));
  p[3] = parameter(b2, 1, 1 / sqrt(32.0));
  for (int step = 1; step <= 2000; ++step) {
    kf_tensor_t loss = loss_of(p, x, y);
    kf_scalar_t value;
    CHECK(kf_backward(&loss, NULL, 1, false, false));
    CHECK(kf_tensor_item(loss, &value));
    kf_tensor_release(loss);
    sgd_step(p, 0.5);
    if (step % 100 == 0) printf("step %4d  loss %.4f\n", step, value.v.f64);
    if (value.v.f64 < threshold) {
      printf("reached loss %.4f < %.2f at step %d\n", value.v.f64, threshold, step);
      return 0;
    }
  }
  fprintf(stderr, "the loss is still above %.2f after 2000 steps\n", threshold);
  return 1;
}
