#include "distributed/host_store.hpp"

#include "core/error.hpp"

#if defined(_WIN32)

namespace kf {

struct HostStore::State {};

HostStore::HostStore(const std::string&, uint16_t, int32_t, int64_t) {
  fail(KF_UNIMPLEMENTED, "the core's key-value store (env:// rendezvous) is not available on "
       "Windows; use file://<a folder every rank sees>");
}
HostStore::~HostStore() = default;
void HostStore::barrier(const std::string&, int32_t) {}

}  // namespace kf

#else

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "distributed/store_client.hpp"
#include "distributed/store_server.hpp"

namespace kf {

struct HostStore::State {
  std::shared_ptr<store::Server> server;  // rank 0
  std::unique_ptr<store::Client> client;
  int64_t timeout_ms = 0;
};

namespace {

// The servers of this process, by port: shared by the communicators on that port.
struct Servers {
  std::mutex mutex;
  std::map<uint16_t, std::weak_ptr<store::Server>> by_port;
};

std::shared_ptr<store::Server> shared_server(const std::string& host, uint16_t port) {
  static auto* servers = new Servers();  // lives for the process
  std::lock_guard<std::mutex> lock(servers->mutex);
  if (auto live = servers->by_port[port].lock()) return live;
  auto made = std::make_shared<store::Server>(host, port);
  servers->by_port[port] = made;
  return made;
}

HostStore::State& state_of(void* self) { return *static_cast<HostStore::State*>(self); }

int64_t timeout_of(const HostStore::State& s, int64_t timeout_ms) {
  return timeout_ms > 0 ? timeout_ms : s.timeout_ms;
}

std::string key_of(const char* key) {
  if (key == nullptr) throw Error(KF_INVALID_ARGUMENT, "the store's key is NULL");
  return key;
}

void write_error(char* error, size_t cap, const char* text) noexcept {
  if (error == nullptr || cap == 0) return;
  const size_t n = std::min(cap - 1, std::strlen(text));
  std::memcpy(error, text, n);
  error[n] = '\0';
}

// Runs fn; a failure becomes its status and text.
template <class F>
kf_status_t answered(char* error, size_t cap, F&& fn) noexcept {
  try {
    fn();
    return KF_OK;
  } catch (const Error& e) {
    write_error(error, cap, e.what());
    return e.status();
  } catch (const std::length_error& e) {
    write_error(error, cap, e.what());
    return KF_INVALID_ARGUMENT;
  } catch (const std::exception& e) {
    write_error(error, cap, e.what());
    return KF_INTERNAL;
  } catch (...) {
    write_error(error, cap, "an unknown exception");
    return KF_INTERNAL;
  }
}

kf_status_t store_set(void* self, const char* key, const void* value, size_t size, char* error,
                      size_t cap) {
  return answered(error, cap, [&] {
    const std::string bytes = size == 0 ? std::string() :
                              std::string(static_cast<const char*>(value), size);
    state_of(self).client->set(key_of(key), bytes);
  });
}

kf_status_t store_get(void* self, const char* key, int64_t timeout_ms, kf_store_sink_fn sink,
                      void* context, char* error, size_t cap) {
  return answered(error, cap, [&] {
    HostStore::State& s = state_of(self);
    const std::string v = s.client->get(key_of(key), timeout_of(s, timeout_ms));
    if (sink != nullptr) sink(context, v.data(), v.size());
  });
}

kf_status_t store_wait(void* self, const char* const* keys, size_t count, int64_t timeout_ms,
                       char* error, size_t cap) {
  return answered(error, cap, [&] {
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i) names.push_back(key_of(keys[i]));
    HostStore::State& s = state_of(self);
    s.client->wait(names, timeout_of(s, timeout_ms));
  });
}

kf_status_t store_add(void* self, const char* key, int64_t delta, int64_t* out, char* error,
                      size_t cap) {
  return answered(error, cap, [&] {
    const int64_t v = state_of(self).client->add(key_of(key), delta);
    if (out != nullptr) *out = v;
  });
}

}  // namespace

HostStore::HostStore(const std::string& host, uint16_t port, int32_t rank, int64_t timeout_ms)
    : state_(std::make_unique<State>()) {
  state_->timeout_ms = timeout_ms;
  if (rank == 0) state_->server = shared_server(host, port);
  state_->client = std::make_unique<store::Client>(host, port, timeout_ms);
  table_.struct_size = sizeof table_;
  table_.self = state_.get();
  table_.set = &store_set;
  table_.get = &store_get;
  table_.wait = &store_wait;
  table_.add = &store_add;
}

HostStore::~HostStore() = default;

void HostStore::barrier(const std::string& key, int32_t world_size) {
  store::Client& c = *state_->client;
  int64_t arrived = c.add(key, 1);
  const auto deadline = store::Clock::now() + std::chrono::milliseconds(state_->timeout_ms);
  std::chrono::milliseconds pause(1);
  while (arrived < world_size) {
    if (store::Clock::now() >= deadline) {
      fail(KF_TIMEOUT, "env:// rendezvous: {} of {} ranks finished joining the communicator "
           "inside the timeout of {} ms", arrived, world_size, state_->timeout_ms);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
    arrived = c.add(key, 0);
  }
}

}  // namespace kf

#endif  // _WIN32
