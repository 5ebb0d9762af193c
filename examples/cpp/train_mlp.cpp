// Trains a small MLP with autograd through the C++ frontend until its loss falls under a
// threshold: points of a 2-D normal, labelled by whether their coordinates have the same sign
// (XOR of the signs: no line separates them, so the hidden layer must learn), widths 2-32-2,
// cross-entropy (log_softmax then nll_loss), SGD with momentum, each update under
// kf::NoGradGuard. Exits 1 when the loss is still above 0.1 after 1000 steps.
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernforge/kernforge.hpp"

namespace {

/// A parameter: uniform in [-bound, bound), a leaf that requires grad.
kf::Tensor parameter(std::vector<int64_t> shape, double bound) {
  kf::Tensor t = (kf::rand(shape) * 2.0 - 1.0) * bound;
  t.requires_grad_();
  return t;
}

struct Mlp {
  kf::Tensor w1 = parameter({32, 2}, 1 / std::sqrt(2.0)), b1 = parameter({32}, 1 / std::sqrt(2.0));
  kf::Tensor w2 = parameter({2, 32}, 1 / std::sqrt(32.0)), b2 = parameter({2}, 1 / std::sqrt(32.0));

  kf::Tensor forward(const kf::Tensor& x) const {
    return kf::linear(kf::relu(kf::linear(x, w1, b1)), w2, b2);
  }
  std::vector<kf::Tensor*> parameters() { return {&w1, &b1, &w2, &b2}; }
};

}  // namespace

int main() try {
  kf::detail::check(kf_manual_seed(0));
  const kf::Tensor x = kf::randn({256, 2});
  const kf::Tensor y = kf::gt(x.select(1, 0) * x.select(1, 1), kf::zeros({})).to(kf::Dtype::Int64);
  Mlp model;
  std::vector<kf::Tensor> velocity;
  for (kf::Tensor* p : model.parameters()) velocity.push_back(kf::zeros(p->sizes()));
  const double lr = 0.1, momentum = 0.9, threshold = 0.1;
  for (int step = 1; step <= 1000; ++step) {
    for (kf::Tensor* p : model.parameters()) p->set_grad(kf::Tensor());
    const kf::Tensor loss = kf::nll_loss(kf::log_softmax(model.forward(x), 1), y);
    loss.backward();
    {
      kf::NoGradGuard no_grad;
      const std::vector<kf::Tensor*> ps = model.parameters();
      for (size_t i = 0; i < ps.size(); ++i) {
        velocity[i] = velocity[i] * momentum + ps[i]->grad();
        *ps[i] -= velocity[i] * lr;
      }
    }
    const double value = loss.item<double>();
    if (step % 100 == 0) std::printf("step %4d  loss %.4f\n", step, value);
    if (value < threshold) {
      std::printf("reached loss %.4f < %.2f at step %d\n", value, threshold, step);
      return 0;
    }
  }
  std::fprintf(stderr, "the loss is still above the threshold after 1000 steps\n");
  return 1;
} catch (const kf::Error& e) {
  std::fprintf(stderr, "kernforge: %s\n", e.what());
  return 1;
}
