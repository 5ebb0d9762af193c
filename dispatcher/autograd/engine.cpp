// Note [The backward engine]
// One backward is a graph task: the nodes reachable from the outputs, how many edges lead
// into each (its dependencies), and a buffer per node and output of the node (an edge's
// input_nr) where the gradients arriving along those edges are summed. A node runs when its
// last dependency has arrived, if a gradient arrived for any of its outputs (an output that
// got none reaches the formula empty: Note [Gradients of several outputs] in
// derivatives.yaml); its gradients are reduced to each input's shape (broadcast) and dtype,
// then passed along its edges. Leaves' AccumulateGrad nodes add into .grad (backward) or are
// captured and skipped (grad).
// Formulas run with grad mode off, or on under create_graph so that their graph can be
// differentiated again. Without retain_graph each node frees its saved tensors after running.
// Each node runs on the stream its op was recorded on, and gradients crossing streams are
// ordered (Note [Backward streams] in backward_stream.cpp).
#include "autograd/engine.hpp"

#include <unordered_map>

#include "autograd/autograd_meta.hpp"
#include "autograd/backward_stream.hpp"
#include "autograd/device_move.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/node.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core_ops.hpp"
#include "formula_helpers.hpp"

namespace kf::autograd {
namespace {

using Grads = std::vector<TensorRef>;  // one per output of a node

struct Task {
  std::unordered_map<Node*, int32_t> deps;
  std::unordered_map<Node*, Grads> buffer;
  std::unordered_map<Node*, std::shared_ptr<Node>> keep;
  // a grad() input's node -> (which of its outputs, the input's slot)
  std::unordered_map<Node*, std::vector<std::pair<int32_t, size_t>>> captured;
  // the streams nodes ran on that were not the caller's current one on their device
  std::vector<std::pair<kf_device_t, Stream*>> other_streams;
};

// Notes a node's stream where it is not the caller's current one on its device, so that the
// caller's stream waits for it at the end (Note [Backward streams]).
void note_stream(Task& t, const Node& n) {
  const kf_device_t d = n.stream_device();
  if (d.type == KF_DEVICE_NONE || n.stream() == current_stream(d)) return;
  for (const auto& [device, s] : t.other_streams) {
    if (s == n.stream() && device.type == d.type && device.index == d.index) return;
  }
  t.other_streams.emplace_back(d, n.stream());
}

void wait_for_other_streams(const Task& t) {
  for (const auto& [d, s] : t.other_streams) order_after(d, s, current_stream(d));
}

// n's backward on its stream, and its gradients fitted to its inputs there; the stream of each
// gradient's consumer then waits for that work (Note [Backward streams]).
std::vector<TensorRef> compute(Node* n, Grads& in, const BackwardOptions& o) {
  std::vector<TensorRef> grads(n->next.size());
  StreamGuard on(n->stream_device(), n->stream());
  {
    GradModeGuard mode(o.create_graph);
    n->apply(in, grads);
  }
  for (size_t k = 0; k < grads.size(); ++k) {
    const Edge& e = n->next[k];
    if (!grads[k] || !e.node) continue;
    grads[k] = fit_gradient(std::move(grads[k]), n->inputs[k]);
    hand_over(*grads[k], current_stream(grads[k]->device), *e.node);
  }
  return grads;
}

// Sums g into the consumer's buffer slot; a sum runs on the consumer's stream for g's device
// (Note [Backward streams]).
void add_into(Grads& slots, int32_t output, TensorRef g, const Node* consumer) {
  if (slots.size() <= static_cast<size_t>(output)) slots.resize(static_cast<size_t>(output) + 1);
  TensorRef& slot = slots[static_cast<size_t>(output)];
  if (!slot) {
    slot = std::move(g);
    return;
  }
  const kf_device_t d = g->device;
  StreamGuard on(consumer != nullptr ? d : kf_device_t{KF_DEVICE_NONE, 0},
                 consumer != nullptr ? stream_on(*consumer, d) : nullptr);
  slot = ops::add(*slot, *g);
}

bool any_defined(const Grads& g) noexcept {
  for (const TensorRef& t : g) {
    if (t) return true;
  }
  return false;
}

TensorRef share(const TensorRef& t) {
  if (!t) return TensorRef();
  retain(t.get());
  return TensorRef(t.get());
}

TensorRef seed(TensorImpl& out, TensorImpl* given, size_t i) {
  if (!requires_grad(out)) {
    fail(KF_INVALID_ARGUMENT, "autograd: output {} does not require grad and has no grad_fn: "
         "no tensor it was computed from requires grad", i);
  }
  if (given != nullptr) {
    retain(given);
    return TensorRef(given);
  }
  if (out.numel != 1) {
    fail(KF_INVALID_ARGUMENT, "autograd: output {} has {} elements: a gradient can be made "
         "implicitly only for a one-element output; pass its grad_output", i, out.numel);
  }
  if (is_complex_dtype(out.dtype)) {
    fail(KF_INVALID_ARGUMENT, "autograd: output {} is complex: a gradient can be made "
         "implicitly only for a real output (a real loss); pass its grad_output, or take a "
         "real function of it (abs, real) first", i);
  }
  return ops::ones_like(out);
}

// The reachable nodes and how many edges lead into each.
void count_dependencies(Task& t, const std::vector<std::shared_ptr<Node>>& roots) {
  std::vector<Node*> stack;
  for (const auto& r : roots) {
    if (t.keep.emplace(r.get(), r).second) stack.push_back(r.get());
  }
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next) {
      if (!e.node) continue;
      ++t.deps[e.node.get()];
      if (t.keep.emplace(e.node.get(), e.node).second) stack.push_back(e.node.get());
    }
  }
}

void run_node(Task& t, Node* n, Grads in, const BackwardOptions& o, std::vector<Node*>& ready,
              std::vector<TensorRef>* captured) {
  in.resize(static_cast<size_t>(n->num_outputs()));
  auto c = t.captured.find(n);
  if (c != t.captured.end()) {
    for (const auto& [output, slot] : c->second) {
      (*captured)[slot] = share(in[static_cast<size_t>(output)]);
    }
  }
  if (captured != nullptr && dynamic_cast<AccumulateGrad*>(n) != nullptr) return;
  note_stream(t, *n);
  std::vector<TensorRef> grads = compute(n, in, o);
  if (!o.retain_graph) n->release_saved();
  for (size_t k = 0; k < n->next.size(); ++k) {
    const Edge& e = n->next[k];
    if (!e.node) continue;
    if (grads[k]) add_into(t.buffer[e.node.get()], e.input_nr, std::move(grads[k]), e.node.get());
    if (--t.deps[e.node.get()] == 0) ready.push_back(e.node.get());
  }
}

void run(const std::vector<TensorImpl*>& outputs, const std::vector<TensorImpl*>& grad_outputs,
         const BackwardOptions& o, Task& t, std::vector<TensorRef>* captured) {
  std::vector<std::shared_ptr<Node>> roots;
  std::vector<std::pair<Edge, TensorRef>> seeds;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorRef g = seed(*outputs[i], i < grad_outputs.size() ? grad_outputs[i] : nullptr, i);
    Edge e = gradient_edge(*outputs[i]);
    roots.push_back(e.node);
    seeds.emplace_back(std::move(e), std::move(g));
  }
  count_dependencies(t, roots);
  for (auto& [edge, g] : seeds) {  // made on the caller's stream
    hand_over(*g, current_stream(g->device), *edge.node);
    add_into(t.buffer[edge.node.get()], edge.input_nr, std::move(g), edge.node.get());
  }
  std::vector<Node*> ready;
  for (const auto& r : roots) {
    if (t.deps[r.get()] == 0) ready.push_back(r.get());
  }
  std::unordered_map<Node*, bool> done;
  while (!ready.empty()) {
    Node* n = ready.back();
    ready.pop_back();
    if (done[n]) continue;
    done[n] = true;
    Grads g = std::move(t.buffer[n]);
    if (!any_defined(g)) {  // every gradient into it was empty: nothing flows on
      for (const Edge& e : n->next) {
        if (e.node && --t.deps[e.node.get()] == 0) ready.push_back(e.node.get());
      }
      continue;
    }
    run_node(t, n, std::move(g), o, ready, captured);
  }
  wait_for_other_streams(t);
}

}  // namespace

// A complex gradient of a real input is its real part (Note [Complex gradients] in
// derivatives.yaml): the imaginary part is the derivative along directions the real input
// cannot move in.
TensorRef fit_gradient(TensorRef g, const InputMeta& m) {
  const IntListView shape(m.shape.data(), static_cast<int32_t>(m.shape.size()));
  bool same = g->ndim == shape.len;
  for (int32_t i = 0; same && i < shape.len; ++i) same = g->shape[i] == shape.data[i];
  if (!same) g = helpers::sum_to(*g, shape);
  const bool moved = g->device.type != m.device.type || g->device.index != m.device.index;
  if (moved) g = TensorRef(to_recorded(*g, m.device, KF_DTYPE_UNDEFINED));
  if (is_complex_dtype(g->dtype) && !is_complex_dtype(m.dtype)) g = ops::real(*g);
  if (g->dtype != m.dtype) g = ops::to_dtype(*g, m.dtype);
  return g;
}

void backward(const std::vector<TensorImpl*>& outputs,
              const std::vector<TensorImpl*>& grad_outputs, const BackwardOptions& options) {
  Task t;
  run(outputs, grad_outputs, options, t, nullptr);
}

std::vector<TensorRef> grad(const std::vector<TensorImpl*>& outputs,
                            const std::vector<TensorImpl*>& grad_outputs,
                            const std::vector<TensorImpl*>& inputs,
                            const BackwardOptions& options) {
  Task t;
  std::vector<TensorRef> result(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!requires_grad(*inputs[i])) {
      fail(KF_INVALID_ARGUMENT, "autograd: input {} does not require grad", i);
    }
    const Edge e = gradient_edge(*inputs[i]);
    t.captured[e.node.get()].emplace_back(e.input_nr, i);
  }
  run(outputs, grad_outputs, options, t, &result);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!result[i] && !options.allow_unused) {
      fail(KF_INVALID_ARGUMENT, "autograd: input {} was not used to compute the outputs; pass "
           "allow_unused to get no gradient for it", i);
    }
  }
  return result;
}

}  // namespace kf::autograd
