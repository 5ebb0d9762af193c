// transformer.cpp — a small decoder-only transformer's forward pass through kernforge's C++
// frontend, checked against the same model computed in double precision (reference.hpp).
//
//   transformer [device]        (default cpu; e.g. opencl:0)
//
// tokens -> embedding -> block (GELU MLP) -> block (SwiGLU MLP, SiLU) -> rms_norm -> logits
// with the embedding tied as the output projection. Each block is pre-norm: rms_norm, causal
// multi-head attention through scaled_dot_product_attention with a residual, rms_norm, the MLP
// with a residual. The weights are deterministic pseudo-random numbers. Exit status 0 when
// every logit matches the reference within 1e-4 of the largest one, 1 otherwise.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "kernforge/kernforge.hpp"
#include "reference.hpp"

namespace {

constexpr int64_t kVocab = 96, kSeq = 24, kModel = 64, kHeads = 4, kHead = kModel / kHeads;
constexpr int64_t kHidden = 128;
constexpr double kEps = 1e-6;

/// n values in [-scale, scale], the same on every run.
std::vector<float> weights(size_t n, double scale, uint64_t seed) {
  std::vector<float> w(n);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float& x : w) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(scale * (static_cast<double>(s >> 11) / 4503599627370496.0 - 1.0));
  }
  return w;
}

/// n values in [0.8, 1.2]: the gains of the norms.
std::vector<float> gains(size_t n, uint64_t seed) {
  std::vector<float> w = weights(n, 0.2, seed);
  for (float& x : w) x += 1.0f;
  return w;
}

/// One weight, as float32 for kernforge and as double (of the same float values) for the reference.
struct Param {
  std::vector<float> f;
  ref::Mat d;
  kf::Tensor t;
  Param(std::vector<float> v, kf::IntArrayRef shape, const kf::Device& dev)
      : f(std::move(v)), d(f.begin(), f.end()), t(kf::from_vector(f, shape, dev)) {}
};

struct Block {
  Param norm1, wq, wk, wv, wo, norm2, w_in, w_gate, w_out;
  bool swiglu;
  Block(const kf::Device& dev, uint64_t seed, bool swiglu_mlp)
      : norm1(gains(kModel, seed), {kModel}, dev),
        wq(weights(kModel * kModel, 1 / std::sqrt(double(kModel)), seed + 1), {kModel, kModel}, dev),
        wk(weights(kModel * kModel, 1 / std::sqrt(double(kModel)), seed + 2), {kModel, kModel}, dev),
        wv(weights(kModel * kModel, 1 / std::sqrt(double(kModel)), seed + 3), {kModel, kModel}, dev),
        wo(weights(kModel * kModel, 1 / std::sqrt(double(kModel)), seed + 4), {kModel, kModel}, dev),
        norm2(gains(kModel, seed + 5), {kModel}, dev),
        w_in(weights(kModel * kHidden, 1 / std::sqrt(double(kModel)), seed + 6), {kModel, kHidden}, dev),
        w_gate(weights(kModel * kHidden, 1 / std::sqrt(double(kModel)), seed + 7), {kModel, kHidden}, dev),
        w_out(weights(kHidden * kModel, 1 / std::sqrt(double(kHidden)), seed + 8), {kHidden, kModel}, dev),
        swiglu(swiglu_mlp) {}
};

/// [s, heads * dh] -> [heads, s, dh] and back.
kf::Tensor split_heads(const kf::Tensor& x) {
  return x.reshape({kSeq, kHeads, kHead}).permute({1, 0, 2});
}
kf::Tensor merge_heads(const kf::Tensor& x) {
  return x.permute({1, 0, 2}).reshape({kSeq, kModel});
}

kf::Tensor block_forward(const Block& b, const kf::Tensor& x) {
  kf::Tensor h = kf::rms_norm(x, {kModel}, b.norm1.t, kEps);
  const kf::Tensor q = split_heads(kf::matmul(h, b.wq.t));
  const kf::Tensor k = split_heads(kf::matmul(h, b.wk.t));
  const kf::Tensor v = split_heads(kf::matmul(h, b.wv.t));
  const kf::Tensor a = kf::scaled_dot_product_attention(q, k, v, kf::Tensor(), 0.0, true);
  const kf::Tensor x1 = x + kf::matmul(merge_heads(a), b.wo.t);
  h = kf::rms_norm(x1, {kModel}, b.norm2.t, kEps);
  const kf::Tensor up = kf::matmul(h, b.w_in.t);
  const kf::Tensor act = b.swiglu ? kf::silu(kf::matmul(h, b.w_gate.t)) * up : kf::gelu(up);
  return x1 + kf::matmul(act, b.w_out.t);
}

ref::Mat block_reference(const Block& b, const ref::Mat& x) {
  ref::Mat h = ref::rms_norm(x, b.norm1.d, kSeq, kModel, kEps);
  const ref::Mat q = ref::matmul(h, b.wq.d, kSeq, kModel, kModel);
  const ref::Mat k = ref::matmul(h, b.wk.d, kSeq, kModel, kModel);
  const ref::Mat v = ref::matmul(h, b.wv.d, kSeq, kModel, kModel);
  ref::Mat x1 = x;
  ref::add_into(x1, ref::matmul(ref::causal_attention(q, k, v, kSeq, kHeads, kHead), b.wo.d,
                                kSeq, kModel, kModel));
  h = ref::rms_norm(x1, b.norm2.d, kSeq, kModel, kEps);
  ref::Mat up = ref::matmul(h, b.w_in.d, kSeq, kModel, kHidden);
  if (b.swiglu) {
    const ref::Mat gate = ref::matmul(h, b.w_gate.d, kSeq, kModel, kHidden);
    for (size_t i = 0; i < up.size(); ++i) up[i] *= ref::silu(gate[i]);
  } else {
    for (double& u : up) u = ref::gelu(u);
  }
  ref::add_into(x1, ref::matmul(up, b.w_out.d, kSeq, kHidden, kModel));
  return x1;
}

/// The largest |got - want| relative to the largest |want|.
double relative_error(const std::vector<float>& got, const ref::Mat& want) {
  double err = 0, scale = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(static_cast<double>(got[i]) - want[i]));
    scale = std::max(scale, std::fabs(want[i]));
  }
  return err / std::max(scale, 1e-30);
}

int run(const kf::Device& dev) {
  std::vector<int64_t> tokens(kSeq);
  for (int64_t i = 0; i < kSeq; ++i) tokens[i] = (i * 37 + 11) % kVocab;
  const Param embed(weights(kVocab * kModel, 1.0, 7), {kVocab, kModel}, dev);
  const Param final_norm(std::vector<float>(kModel, 1.0f), {kModel}, dev);
  const Block blocks[2] = {Block(dev, 100, false), Block(dev, 200, true)};

  kf::Tensor x = kf::embedding(embed.t, kf::from_vector(tokens, {kSeq}, dev));
  for (const Block& b : blocks) x = block_forward(b, x);
  x = kf::rms_norm(x, {kModel}, final_norm.t, kEps);
  const kf::Tensor logits = kf::matmul(x, embed.t.transpose(0, 1));

  ref::Mat rx(static_cast<size_t>(kSeq * kModel));
  for (int64_t i = 0; i < kSeq; ++i)
    for (int64_t j = 0; j < kModel; ++j) rx[i * kModel + j] = embed.d[tokens[i] * kModel + j];
  for (const Block& b : blocks) rx = block_reference(b, rx);
  rx = ref::rms_norm(rx, final_norm.d, kSeq, kModel, kEps);
  ref::Mat embed_t(static_cast<size_t>(kModel * kVocab));
  for (int64_t v = 0; v < kVocab; ++v)
    for (int64_t j = 0; j < kModel; ++j) embed_t[j * kVocab + v] = embed.d[v * kModel + j];
  const ref::Mat want = ref::matmul(rx, embed_t, kSeq, kModel, kVocab);

  const std::vector<float> got = logits.to_vector<float>();
  const double err = relative_error(got, want);
  std::cout << "transformer: " << kSeq << " tokens, d_model " << kModel << ", " << kHeads
            << " heads, 2 blocks on " << dev << ": logits " << kSeq << "x" << kVocab
            << ", largest error relative to the largest logit " << err << "\n";
  if (!(err <= 1e-4)) {
    std::cerr << "transformer: the logits differ from the double-precision reference\n";
    return 1;
  }
  std::cout << "transformer: matches the double-precision reference\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(kf::Device(argc > 1 ? argv[1] : "cpu"));
  } catch (const kf::Error& e) {
    std::cerr << "transformer: " << e.status_name() << ": " << e.what() << "\n";
    return 1;
  }
}
