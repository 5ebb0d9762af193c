// The streams a backward runs on (Note [Backward streams] in backward_stream.cpp).
#pragma once

#include "autograd/node.hpp"
#include "device/stream.hpp"

namespace kf::autograd {

/// Makes `stream` current on `device` for its lifetime and then restores the stream that was
/// (nothing where it already is, or where device is KF_DEVICE_NONE).
class StreamGuard {
 public:
  StreamGuard(kf_device_t device, Stream* stream);
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;
  ~StreamGuard();

 private:
  kf_device_t device_{KF_DEVICE_NONE, 0};
  Stream* previous_ = nullptr;  // one reference while set
  bool set_ = false;
};

/// The stream node `n` runs on for device d: the one it recorded where it recorded d's, else
/// the calling thread's current stream on d.
Stream* stream_on(const Node& n, kf_device_t device) noexcept;

/// Makes `consumer` wait for the work queued on `producer` so far (both streams of `device`),
/// with an event, where they differ on an asynchronous backend.
void order_after(kf_device_t device, Stream* producer, Stream* consumer);

/// Hands gradient g, made on `producer`, to node `consumer`: where the consumer runs on another
/// stream of g's device, that stream waits for the producer's work so far, and g's memory is
/// marked as used there (it is not reused before the consumer's stream passed it).
void hand_over(TensorImpl& g, Stream* producer, const Node& consumer);

}  // namespace kf::autograd
