// attention_kernels.cpp — fused scaled_dot_product_attention for float32 and float64,
// overriding the core's composite (dispatcher/composite/attention_composites.cpp) for those
// dtypes; float16 and bfloat16 keep the composite.
//
// The core's meta rule has checked the arguments: query [..., L, E], key [..., S, E] and value
// [..., S, Ev] of one dtype, their batch dims broadcasting to out's [batch..., L, Ev];
// attn_mask None, bool or of that dtype, broadcasting to [batch..., L, S]; not both is_causal
// and a mask; dropout_p in [0, 1]. Every operand may be strided; broadcast dims read with
// stride 0.
//
// Note [Fused attention]
// The work is split into tasks of kBlock query rows of one batch entry, over threads. A task
//  1. computes the block's scores s[i][j] = (q_i . k_j) * scale, key row j outermost so that
//     each key row is read once per block (from L1) rather than once per query row;
//  2. masks them as the composite does (Note [Attention masks] there): causal j > i and a
//     false bool mask give -inf, a float mask is added;
//  3. per row, the softmax in one pass over the buffered scores: m = max, p_j = e^(s_j - m),
//     their sum in double; a row of only -inf gives NaN (0 / 0), as the composite;
//  4. with dropout_p > 0, multiplies p_j by keep_j / (1 - dropout_p), keep_j = (u >= dropout_p)
//     for u rand's value of element (b, i, j) of [batch, L, S] in the counters reserved for the
//     call as the composite's rand_like of the weights takes them (reserve_random), so the
//     same seed drops the same weights on either path;
//  5. accumulates out_i = sum_j p_j v_j / sum, value row j outermost (read once per block).
// Scores and accumulators live in per-thread buffers (kBlock x S and kBlock x Ev).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kAttentionMask = kFloatMask;
constexpr int64_t kBlock = 16;  // query rows per task
constexpr int kLanes = 8;        // independent partial sums of a dot product

/// Element strides of a view read as broadcast to `shape` (nd dims, right-aligned): 0 where
/// the view lacks the dim or has size 1 there.
struct Aligned {
  char* data = nullptr;
  int64_t stride[KF_MAX_NDIM] = {};
};

Aligned align(const kf_tensor_view_t& v, int nd) {
  Aligned a;
  a.data = static_cast<char*>(v.data);
  for (int d = 0; d < nd; ++d) {
    const int src = d - (nd - v.ndim);
    a.stride[d] = src < 0 || v.shape[src] == 1 ? 0 : v.strides[src];
  }
  return a;
}

/// Everything a task needs.
template <class T>
struct AttentionPlan {
  int nb = 0;                       // batch dims
  int64_t batch_shape[KF_MAX_NDIM];
  int64_t nbatch = 1, l = 0, s = 0, e = 0, ev = 0;
  Aligned q, k, v, mask, out;
  bool has_mask = false, bool_mask = false, causal = false;
  T scale = 0;
};

/// The element offsets of batch entry `b` in each operand.
struct BatchOffsets {
  int64_t q = 0, k = 0, v = 0, mask = 0, out = 0;
};

template <class T>
BatchOffsets batch_offsets(const AttentionPlan<T>& p, int64_t b) {
  BatchOffsets o;
  for (int d = p.nb - 1; d >= 0; --d) {
    const int64_t i = b % p.batch_shape[d];
    b /= p.batch_shape[d];
    o.q += i * p.q.stride[d];
    o.k += i * p.k.stride[d];
    o.v += i * p.v.stride[d];
    o.mask += i * p.mask.stride[d];
    o.out += i * p.out.stride[d];
  }
  return o;
}

/// a . b over n elements; contiguous operands use kLanes independent sums (vectorisable).
template <class T>
T dot(const T* a, int64_t sa, const T* b, int64_t sb, int64_t n) {
  if (sa != 1 || sb != 1) {
    T acc = 0;
    for (int64_t c = 0; c < n; ++c) acc += a[c * sa] * b[c * sb];
    return acc;
  }
  T lane[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes) {
    for (int k = 0; k < kLanes; ++k) lane[k] += a[c + k] * b[c + k];
  }
  for (; c < n; ++c) lane[0] += a[c] * b[c];
  T acc = 0;
  for (int k = 0; k < kLanes; ++k) acc += lane[k];
  return acc;
}

/// The key rows a block of rows [i0, i0 + w) reads: with is_causal, none beyond its last row
/// (their scores are -inf, their weights 0, so they are neither computed nor accumulated).
template <class T>
int64_t causal_end(const AttentionPlan<T>& p, int64_t i0, int64_t w) {
  return p.causal ? std::min(p.s, i0 + w) : p.s;
}

/// Steps 1 and 2 of Note [Fused attention] for rows [i0, i0 + w) into sc (w x S).
template <class T>
void block_scores(const AttentionPlan<T>& p, const BatchOffsets& o, int64_t i0, int64_t w,
                  T* sc) {
  const T* q = reinterpret_cast<const T*>(p.q.data) + o.q;
  const T* k = reinterpret_cast<const T*>(p.k.data) + o.k;
  const int nd = p.nb + 2;
  const int64_t qr = p.q.stride[nd - 2], qc = p.q.stride[nd - 1];
  const int64_t kr = p.k.stride[nd - 2], kc = p.k.stride[nd - 1];
  for (int64_t j = 0; j < causal_end(p, i0, w); ++j) {
    const T* kj = k + j * kr;
    for (int64_t r = 0; r < w; ++r) {
      sc[r * p.s + j] = dot(q + (i0 + r) * qr, qc, kj, kc, p.e) * p.scale;
    }
  }
  const T inf = std::numeric_limits<T>::infinity();
  for (int64_t r = 0; r < w; ++r) {
    T* row = sc + r * p.s;
    const int64_t i = i0 + r;
    if (p.causal) {
      for (int64_t j = i + 1; j < p.s; ++j) row[j] = -inf;
    } else if (p.has_mask) {
      const int64_t mr = p.mask.stride[nd - 2], mc = p.mask.stride[nd - 1];
      if (p.bool_mask) {
        const bool* m = reinterpret_cast<const bool*>(p.mask.data) + o.mask + i * mr;
        for (int64_t j = 0; j < p.s; ++j) row[j] = elem(m, j * mc) ? row[j] : -inf;
      } else {
        const T* m = reinterpret_cast<const T*>(p.mask.data) + o.mask + i * mr;
        for (int64_t j = 0; j < p.s; ++j) row[j] += m[j * mc];
      }
    }
  }
}

/// Step 3: row <- e^(row - max); returns 1 / sum (NaN for a row of only -inf; 0 for S = 0,
/// whose output is zeros as the composite's empty matmul).
template <class T>
T softmax_row(T* row, int64_t s) {
  if (s == 0) return T(0);
  T mx = -std::numeric_limits<T>::infinity();
  for (int64_t j = 0; j < s; ++j) mx = row[j] > mx ? row[j] : mx;
  if (std::isinf(mx) && mx < 0) return std::numeric_limits<T>::quiet_NaN();
  double sum = 0;
  for (int64_t j = 0; j < s; ++j) {
    row[j] = std::exp(row[j] - mx);
    sum += static_cast<double>(row[j]);
  }
  return static_cast<T>(1.0 / sum);
}

/// Dropout of the call: the probability and the random numbers reserved for it.
struct Dropout {
  double p = 0;
  RandomRange range;
};

/// Step 4 on row i of batch entry b: p_j *= keep_j / (1 - p).
template <class T>
void drop_row(const Dropout& d, int64_t b, int64_t i, int64_t l, T* row, int64_t s) {
  const T scale = d.p >= 1.0 ? T(0) : static_cast<T>(1.0 / (1.0 - d.p));
  const int64_t first = (b * l + i) * s;
  for (int64_t j = 0; j < s; ++j) {
    row[j] = uniform_at(d.range, first + j) >= d.p ? row[j] * scale : T(0);
  }
}

/// One task: rows [i0, i0 + w) of batch entry b. sc: kBlock x S, acc: kBlock x Ev.
template <class T>
void attention_block(const AttentionPlan<T>& p, const Dropout& drop, int64_t b, int64_t i0,
                     int64_t w, T* sc, T* acc) {
  const BatchOffsets o = batch_offsets(p, b);
  block_scores(p, o, i0, w, sc);
  T inv[kBlock];
  for (int64_t r = 0; r < w; ++r) {
    inv[r] = softmax_row(sc + r * p.s, p.s);
    if (drop.p > 0) drop_row(drop, b, i0 + r, p.l, sc + r * p.s, p.s);
  }
  std::fill(acc, acc + w * p.ev, T(0));
  const int nd = p.nb + 2;
  const T* v = reinterpret_cast<const T*>(p.v.data) + o.v;
  const int64_t vr = p.v.stride[nd - 2], vc = p.v.stride[nd - 1];
  for (int64_t j = 0; j < causal_end(p, i0, w); ++j) {
    const T* vj = v + j * vr;
    for (int64_t r = 0; r < w; ++r) {
      const T pj = sc[r * p.s + j];
      T* a = acc + r * p.ev;
      if (vc == 1) {
        for (int64_t c = 0; c < p.ev; ++c) a[c] += pj * vj[c];
      } else {
        for (int64_t c = 0; c < p.ev; ++c) a[c] += pj * vj[c * vc];
      }
    }
  }
  T* out = reinterpret_cast<T*>(p.out.data) + o.out;
  const int64_t orow = p.out.stride[nd - 2], ocol = p.out.stride[nd - 1];
  for (int64_t r = 0; r < w; ++r) {
    T* dst = out + (i0 + r) * orow;
    const T* a = acc + r * p.ev;
    // A NaN inv (a fully masked row) makes the whole row NaN, whatever a holds.
    const bool nan = std::isnan(inv[r]);
    for (int64_t c = 0; c < p.ev; ++c) dst[c * ocol] = nan ? inv[r] : a[c] * inv[r];
  }
}

template <class T>
AttentionPlan<T> make_plan(const ops::scaled_dot_product_attention::Args& a) {
  AttentionPlan<T> p;
  const kf_tensor_view_t& out = a.out;
  const int nd = out.ndim;
  p.nb = nd - 2;
  for (int d = 0; d < p.nb; ++d) {
    p.batch_shape[d] = out.shape[d];
    p.nbatch *= out.shape[d];
  }
  p.l = out.shape[nd - 2];
  p.ev = out.shape[nd - 1];
  p.s = a.key.shape[a.key.ndim - 2];
  p.e = a.query.shape[a.query.ndim - 1];
  p.q = align(a.query, nd);
  p.k = align(a.key, nd);
  p.v = align(a.value, nd);
  p.out = align(out, nd);
  p.causal = a.is_causal;
  if (a.attn_mask != nullptr) {
    p.has_mask = true;
    p.bool_mask = a.attn_mask->dtype == KF_BOOL;
    p.mask = align(*a.attn_mask, nd);
  }
  const double scale = a.scale ? *a.scale : 1.0 / std::sqrt(static_cast<double>(p.e));
  p.scale = static_cast<T>(scale);
  return p;
}

void check_views(const ops::scaled_dot_product_attention::Args& a) {
  for (const kf_tensor_view_t* v : {&a.query, &a.key, &a.value, &a.out}) {
    check_ndim(*v);
    require_dtype(*v, a.out.dtype, "an operand", "scaled_dot_product_attention");
    if (v->ndim < 2) {
      throw kf::plugin::KernelError(KF_INTERNAL, "cpu scaled_dot_product_attention: an operand "
                                                 "has fewer than 2 dims");
    }
  }
  if (a.attn_mask != nullptr) {
    check_ndim(*a.attn_mask);
    if (a.attn_mask->dtype != KF_BOOL) {
      require_dtype(*a.attn_mask, a.out.dtype, "attn_mask", "scaled_dot_product_attention");
    }
  }
}

template <class T>
void run_attention(const ops::scaled_dot_product_attention::Args& a, const Dropout& drop) {
  const AttentionPlan<T> p = make_plan<T>(a);
  const int64_t blocks = (p.l + kBlock - 1) / kBlock, tasks = p.nbatch * blocks;
  int nt = threads_for(p.nbatch * p.l * (p.s + 1) * (p.e + p.ev));
  if (tasks < nt) nt = static_cast<int>(tasks);
  const size_t per = static_cast<size_t>(kBlock * (p.s + p.ev));
  std::vector<T> buf(per * static_cast<size_t>(nt));
  auto one = [&](int64_t task, int t) {
    const int64_t i0 = (task % blocks) * kBlock;
    T* sc = buf.data() + per * static_cast<size_t>(t);
    attention_block(p, drop, task / blocks, i0, std::min(kBlock, p.l - i0), sc,
                    sc + kBlock * p.s);
  };
  if (nt <= 1) {
    for (int64_t task = 0; task < tasks; ++task) one(task, 0);
    return;
  }
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t task = 0; task < tasks; ++task) one(task, omp_get_thread_num());
}

/// The dropout of a call, its random numbers reserved as the composite's rand_like of the
/// [batch..., L, S] weights would take them (also when the output is empty).
Dropout dropout_of(const ops::scaled_dot_product_attention::Args& a) {
  Dropout d;
  d.p = a.dropout_p;
  if (d.p <= 0) return d;
  int64_t weights = a.key.shape[a.key.ndim - 2];  // S
  for (int32_t i = 0; i < a.out.ndim - 1; ++i) weights *= a.out.shape[i];  // batch..., L
  d.range = reserve_random(weights, a.out.dtype == KF_FLOAT64);
  return d;
}

void attention_kernel(const ops::scaled_dot_product_attention::Args& a) {
  check_views(a);
  const Dropout drop = dropout_of(a);
  if (a.out.numel == 0) return;
  dispatch<kAttentionMask>(a.out.dtype, "scaled_dot_product_attention", [&](auto tag) {
    run_attention<typename decltype(tag)::type>(a, drop);
  });
}

}  // namespace

kf_status_t register_attention_kernels(const kf_registrar_t* reg) {
  KF_REGISTER_KERNEL(reg, scaled_dot_product_attention, attention_kernel, kAttentionMask);
  return KF_OK;
}

}  // namespace kf::cpu
