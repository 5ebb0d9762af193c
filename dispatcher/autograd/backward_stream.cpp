// Note [Backward streams]
// A node's backward runs on the stream that was current on its op's device when the op was
// recorded (Node::remember_stream, a reference held by the node; the default stream needs
// none), as PyTorch's engine does: the engine makes it current for that device while the node
// runs and restores the caller's afterwards (StreamGuard). The gradients a node makes are
// fitted to its inputs on its stream too. A gradient made on one stream and handed to a node
// that runs on another (another stream of the same device) is ordered with an event: the
// consumer's stream waits for the producer's work so far before the gradient is summed into the
// consumer's buffer, which happens on the consumer's stream. At the end of a backward, the
// calling thread's current streams wait for every other stream a node ran on, so that .grad
// (and grad()'s results) can be read on the caller's stream. A synchronous backend has one
// queue: nothing to order there. Where no stream was ever set, every one of these steps compares
// two null pointers.
#include "autograd/backward_stream.hpp"

#include "core/device_types.hpp"
#include "device/backend_registry.hpp"

namespace kf::autograd {

Node::~Node() {
  if (stream_ != nullptr) release_stream(stream_);
}

void Node::remember_stream(kf_device_t device) noexcept {
  Stream* s = current_stream(device);
  if (s != nullptr) retain_stream(s);
  if (stream_ != nullptr) release_stream(stream_);
  stream_device_ = device;
  stream_ = s;
}

void Node::share_stream(const Node& other) noexcept {
  if (other.stream_ != nullptr) retain_stream(other.stream_);
  if (stream_ != nullptr) release_stream(stream_);
  stream_device_ = other.stream_device_;
  stream_ = other.stream_;
}

StreamGuard::StreamGuard(kf_device_t device, Stream* stream) {
  if (device.type == KF_DEVICE_NONE) return;
  Stream* now = current_stream(device);
  if (now == stream) return;
  if (now != nullptr) retain_stream(now);
  device_ = device;
  previous_ = now;
  set_ = true;
  try {
    set_current_stream(device, stream);
  } catch (...) {
    if (now != nullptr) release_stream(now);
    throw;
  }
}

StreamGuard::~StreamGuard() {
  if (!set_) return;
  try {
    set_current_stream(device_, previous_);
  } catch (...) {  // restoring a stream the thread held: nothing can fail that matters here
  }
  if (previous_ != nullptr) release_stream(previous_);
}

Stream* stream_on(const Node& n, kf_device_t device) noexcept {
  const kf_device_t d = n.stream_device();
  if (d.type == device.type && d.index == device.index) return n.stream();
  return current_stream(device);
}

void order_after(kf_device_t device, Stream* producer, Stream* consumer) {
  if (producer == consumer) return;
  const Backend* b = backend_for_device_type(device.type);
  if (b == nullptr || !b->asynchronous()) return;
  Event* e = new_event(*b, device);
  try {
    b->event_record(device.index, e->native, native_stream(producer));
    b->event_wait(device.index, native_stream(consumer), e->native);
  } catch (...) {
    release_event(e);
    throw;
  }
  release_event(e);
}

void hand_over(TensorImpl& g, Stream* producer, const Node& consumer) {
  Stream* s = stream_on(consumer, g.device);
  if (s == producer) return;
  order_after(g.device, producer, s);
  record_stream(g, s);
}

}  // namespace kf::autograd
