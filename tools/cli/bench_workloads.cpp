#include "bench_workloads.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_calls.hpp"

namespace kf::cli::bench {
namespace {

using Shape = std::vector<int64_t>;

// "f32", "bf16": the short names the workloads' names use.
std::string short_name(kf_dtype_t d) { return d == KF_BFLOAT16 ? "bf16" : "f32"; }

// One add of two 1-element tensors through the typed C entry point: what a call costs.
Workload tiny_add() {
  return {"add 1 f32 (one tiny op)", "us/op", 0, [](kf_device_t dev) {
            auto a = std::make_shared<Tensor>(filled({1}, KF_FLOAT32, dev));
            return std::function<void()>([a] {
              kf_tensor_t out = nullptr;
              if (kf_add(a->get(), a->get(), kf_scalar_i64(1), &out) != KF_OK) {
                throw Skip(std::string("add: ") + kf_last_error_message());
              }
              kf_tensor_release(out);
            });
          }};
}

Workload matmul(int64_t n, kf_dtype_t dtype) {
  const std::string name = "matmul " + std::to_string(n) + "x" + std::to_string(n) + " " +
                           short_name(dtype);
  return {name, "GFLOP/s", 2.0 * n * n * n, [n, dtype](kf_device_t dev) {
            auto a = std::make_shared<Tensor>(filled({n, n}, dtype, dev));
            auto b = std::make_shared<Tensor>(filled({n, n}, dtype, dev));
            return std::function<void()>([a, b] { call("matmul", {tensor(*a), tensor(*b)}); });
          }};
}

// An elementwise or reducing op over n float32 values; `bytes` per element moved.
Workload over_floats(const char* op, int64_t n, double bytes) {
  const std::string name = std::string(op) + " " + std::to_string(n >> 20) + "M f32";
  return {name, "GB/s", bytes * static_cast<double>(n), [op, n](kf_device_t dev) {
            auto a = std::make_shared<Tensor>(filled({n}, KF_FLOAT32, dev));
            const std::string which = op;
            return std::function<void()>([a, which] {
              if (which == "add") {
                call("add", {tensor(*a), tensor(*a)});
              } else {
                call(which.c_str(), {tensor(*a)});
              }
            });
          }};
}

Workload softmax(int64_t rows, int64_t cols) {
  const std::string name = "softmax " + std::to_string(rows) + "x" + std::to_string(cols) + " f32";
  return {name, "GB/s", 8.0 * rows * cols, [rows, cols](kf_device_t dev) {
            auto a = std::make_shared<Tensor>(filled({rows, cols}, KF_FLOAT32, dev));
            return std::function<void()>([a] { call("softmax", {tensor(*a), integer(-1)}); });
          }};
}

// relu(x @ w1 + b1) @ w2 + b2, float32.
Workload mlp(int64_t batch, int64_t d, int64_t hidden) {
  const std::string name = "mlp " + std::to_string(batch) + "x" + std::to_string(d) + "x" +
                           std::to_string(hidden) + " f32";
  const double flops = 4.0 * batch * d * hidden;
  return {name, "GFLOP/s", flops, [batch, d, hidden](kf_device_t dev) {
            struct State { Tensor x, w1, b1, w2, b2; };
            auto s = std::make_shared<State>(State{
                filled({batch, d}, KF_FLOAT32, dev), filled({d, hidden}, KF_FLOAT32, dev),
                filled({hidden}, KF_FLOAT32, dev), filled({hidden, d}, KF_FLOAT32, dev),
                filled({d}, KF_FLOAT32, dev)});
            return std::function<void()>([s] {
              Tensor h = call("matmul", {tensor(s->x), tensor(s->w1)});
              h = call("add", {tensor(h), tensor(s->b1)});
              h = call("relu", {tensor(h)});
              h = call("matmul", {tensor(h), tensor(s->w2)});
              call("add", {tensor(h), tensor(s->b2)});
            });
          }};
}

// A pre-norm transformer block on [seq, d] with `heads` heads: rms_norm, q/k/v projections,
// causal scaled_dot_product_attention, the output projection and a residual; rms_norm, a SiLU
// MLP of width 4d and a residual. float32.
struct Block {
  int64_t seq, d, heads;
  Tensor wq, wk, wv, wo, w1, w2, x;
};

Tensor heads_of(const Tensor& t, const Block& b) {  // [seq, d] -> [heads, seq, d/heads]
  const Shape split{b.seq, b.heads, b.d / b.heads};
  const Shape order{1, 0, 2};
  Tensor v = call("reshape", {tensor(t), ints(split)});
  return call("permute", {tensor(v), ints(order)});
}

void block_forward(const Block& b) {
  const Shape norm{b.d};
  const Shape merged{b.seq, b.d};
  const Shape order{1, 0, 2};
  Tensor h = call("rms_norm", {tensor(b.x), ints(norm)});
  Tensor q = heads_of(call("matmul", {tensor(h), tensor(b.wq)}), b);
  Tensor k = heads_of(call("matmul", {tensor(h), tensor(b.wk)}), b);
  Tensor v = heads_of(call("matmul", {tensor(h), tensor(b.wv)}), b);
  Tensor a = call("scaled_dot_product_attention",
                  {tensor(q), tensor(k), tensor(v), none(), floating(0.0), boolean(true)});
  a = call("permute", {tensor(a), ints(order)});
  a = call("reshape", {tensor(a), ints(merged)});
  Tensor x = call("add", {tensor(b.x), tensor(call("matmul", {tensor(a), tensor(b.wo)}))});
  h = call("rms_norm", {tensor(x), ints(norm)});
  h = call("silu", {tensor(call("matmul", {tensor(h), tensor(b.w1)}))});
  call("add", {tensor(x), tensor(call("matmul", {tensor(h), tensor(b.w2)}))});
}

Workload transformer_block(int64_t seq, int64_t d, int64_t heads) {
  const std::string name = "transformer block " + std::to_string(seq) + "x" + std::to_string(d) +
                           " h" + std::to_string(heads) + " f32";
  const double flops = 2.0 * seq * d * d * 4 + 4.0 * seq * seq * d + 2.0 * seq * d * 4 * d * 2;
  return {name, "GFLOP/s", flops, [seq, d, heads](kf_device_t dev) {
            auto b = std::make_shared<Block>(Block{
                seq, d, heads, filled({d, d}, KF_FLOAT32, dev), filled({d, d}, KF_FLOAT32, dev),
                filled({d, d}, KF_FLOAT32, dev), filled({d, d}, KF_FLOAT32, dev),
                filled({d, 4 * d}, KF_FLOAT32, dev), filled({4 * d, d}, KF_FLOAT32, dev),
                filled({seq, d}, KF_FLOAT32, dev)});
            block_forward(*b);  // a missing op is a Skip here, before any timing
            return std::function<void()>([b] { block_forward(*b); });
          }};
}

}  // namespace

std::vector<Workload> workloads(bool quick) {
  const int64_t big = quick ? (int64_t{1} << 20) : (int64_t{1} << 24);  // 1M or 16M floats
  std::vector<Workload> list{tiny_add()};
  for (int64_t n : quick ? std::vector<int64_t>{128, 256} : std::vector<int64_t>{256, 1024, 2048}) {
    list.push_back(matmul(n, KF_FLOAT32));
  }
  list.push_back(matmul(quick ? 256 : 1024, KF_BFLOAT16));
  list.push_back(over_floats("add", big, 12.0));
  list.push_back(over_floats("exp", big, 8.0));
  list.push_back(over_floats("sum", big, 4.0));
  list.push_back(quick ? softmax(512, 512) : softmax(4096, 4096));
  list.push_back(quick ? mlp(16, 256, 1024) : mlp(64, 1024, 4096));
  list.push_back(quick ? transformer_block(32, 128, 4) : transformer_block(128, 512, 8));
  return list;
}

}  // namespace kf::cli::bench
