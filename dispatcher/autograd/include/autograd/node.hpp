// The nodes of the autograd graph: a node computes the gradients of a recorded call's inputs
// from the gradient of its output and passes each along an edge to the node that made that
// input (Note [The autograd layer]).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tensor/tensor_impl.hpp"

namespace kf::autograd {

class Node;

/// Where an input's gradient goes: the node that made the input, and which of its outputs it
/// was (input_nr: the gradient arrives as that output's). An empty edge: the input needs no
/// gradient.
struct Edge {
  std::shared_ptr<Node> node;
  int32_t input_nr = 0;
};

/// An input's shape, dtype and device: a gradient is reduced and converted to them.
struct InputMeta {
  std::vector<int64_t> shape;
  kf_dtype_t dtype = KF_FLOAT32;
  kf_device_t device{KF_DEVICE_CPU, 0};
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node();
  /// The gradients of the inputs (one per edge, empty where none) from the outputs' (one per
  /// output, num_outputs() of them, empty where an output got none; at least one is given).
  virtual void apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) = 0;
  /// How many outputs the node's op has (Edge::input_nr is below it).
  virtual int32_t num_outputs() const noexcept { return 1; }
  /// The op's name, for errors and for kf_tensor_grad_fn_name.
  virtual const char* name() const noexcept = 0;
  /// Frees what the node saved (after a backward without retain_graph).
  virtual void release_saved() noexcept {}

  std::vector<Edge> next;
  std::vector<InputMeta> inputs;

  bool needs(int32_t k) const noexcept {
    return k >= 0 && static_cast<size_t>(k) < next.size() && next[static_cast<size_t>(k)].node;
  }

  /// Records the calling thread's current stream on `device`, the device of the node's op, as
  /// the stream its backward runs on (Note [Backward streams] in backward_stream.cpp); a
  /// reference is held until the node goes. Nothing to hold for the default stream.
  void remember_stream(kf_device_t device) noexcept;
  /// The same device and stream as `other`'s.
  void share_stream(const Node& other) noexcept;
  /// The device whose stream was recorded (type KF_DEVICE_NONE: none was).
  kf_device_t stream_device() const noexcept { return stream_device_; }
  /// The recorded stream (nullptr: the default stream of stream_device()).
  Stream* stream() const noexcept { return stream_; }

 private:
  kf_device_t stream_device_{KF_DEVICE_NONE, 0};
  Stream* stream_ = nullptr;
};

/// Frees a node whose last reference went, and then, one after another, the nodes that only it
/// kept alive (Note [Freeing a deep graph]): the deleter of every node's shared_ptr.
void delete_node(Node* n) noexcept;

/// A new node of type T, owned through delete_node: how every node is made.
template <class T, class... Args>
std::shared_ptr<T> make_node(Args&&... args) {
  return std::shared_ptr<T>(new T(std::forward<Args>(args)...), delete_node);
}

/// The node of a leaf: adds the gradient into the leaf's .grad.
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(TensorImpl& leaf);
  void apply(std::vector<TensorRef>& in, std::vector<TensorRef>& grads) override;
  const char* name() const noexcept override { return "AccumulateGrad"; }
  TensorImpl& leaf() const noexcept { return *leaf_; }

 private:
  TensorRef leaf_;
};

}  // namespace kf::autograd
