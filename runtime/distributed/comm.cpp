#include "distributed/comm.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>

#include "core/error.hpp"
#include "distributed/engine_choice.hpp"
#include "distributed/rendezvous.hpp"
#include "loader/collective_records.hpp"
#include "loader/plugin_loader.hpp"

namespace kf {
namespace {

constexpr int64_t kDefaultTimeoutMs = 30LL * 60 * 1000;  // c10d's default

struct LiveComms {
  std::mutex mutex;
  std::set<const Comm*> live;
};

LiveComms& live_comms() {
  static auto* l = new LiveComms();  // lives for the process
  return *l;
}

// "cpu:gloo, ..." of the loaded collective plugins.
std::string loaded_engines() {
  std::string out;
  for (int32_t i = 0; i < collective_count(); ++i) {
    const PluginRecord* r = collective_at(i);
    if (r->state != KF_BACKEND_LOADED) continue;
    out += (out.empty() ? "" : ", ") + r->device_type_name + ":" + r->name;
  }
  return out.empty() ? "none (`kernforge doctor` says why)" : out;
}

// Why the collective plugin `name` found is not loaded ("" when none of that name was found).
std::string why_not_loaded(const std::string& name) {
  for (int32_t i = 0; i < collective_count(); ++i) {
    const PluginRecord* r = collective_at(i);
    if (r->name == name && r->state != KF_BACKEND_LOADED) {
      return fmt::format(" (the plugin {} is {}: {})", r->library_path,
                         backend_state_name(r->state), r->reason);
    }
  }
  return "";
}

CommEngine find_engine(const EngineChoice& c, const std::string& text) {
  const PluginRecord* r = find_collective(c.plugin, c.device_type);
  if (r == nullptr) {
    fail(KF_NOT_FOUND, "engine choice '{}': no collective plugin '{}'{} is loaded{}; loaded: {}",
         text, c.plugin, c.device_type.empty() ? "" : " for " + c.device_type + " tensors",
         why_not_loaded(c.plugin), loaded_engines());
  }
  CommEngine e;
  e.name = r->name;
  e.device_type = r->device_type_name;
  e.plugin = r->collective_plugin;
  e.plugin_size = r->plugin_struct_size;
  return e;
}

// env:// hands the plugin the host's store (collective ABI 1.1), which an older plugin cannot
// read: it is refused before it is called.
void check_store_minor(const CommEngine& e) {
  if (e.plugin->abi_minor >= 1) return;
  fail(KF_UNIMPLEMENTED, "collective engine '{}' ({}) was built for collective ABI {}.{}, which "
       "has no host key-value store; env:// needs {}.1 or later: rebuild the plugin, or use "
       "file://<a folder every rank sees>", e.name, e.device_type, e.plugin->abi_major,
       e.plugin->abi_minor, KF_COLLECTIVE_ABI_MAJOR);
}

void init_engine(CommEngine& e, const Rendezvous& rv, const Comm& comm) {
  const auto init = e.slot(KF_COLLECTIVE_SLOT_END(comm_init), e.plugin->comm_init);
  if (init == nullptr) {
    fail(KF_UNIMPLEMENTED, "collective engine '{}' ({}) has no comm_init (its plugin leaves the "
         "slot empty): it cannot make a communicator", e.name, e.device_type);
  }
  const std::string prefix = next_prefix(e);
  engine_status(e, "comm_init", [&](char* error, size_t cap) {
    kf_comm_init_t in = engine_init(rv, prefix, comm.timeout_ms, comm.store.get());
    in.error = error;
    in.error_cap = cap;
    return init(&in, &e.state);
  });
}

std::string engine_names(const Comm& c) {
  std::string out;
  for (const CommEngine& e : c.engines) out += (out.empty() ? "" : ",") + e.device_type + ":" + e.name;
  return out;
}

}  // namespace

CommEngine& Comm::engine_for(const std::string& device_type) {
  for (CommEngine& e : engines) {
    if (e.device_type == device_type) return e;
  }
  fail(KF_UNAVAILABLE, "this communicator's engines ({}) move no {} tensors; make one with an "
       "engine for them, such as \"{}:<plugin>\"", engine_names(*this), device_type, device_type);
}

void fail_engine(const CommEngine& e, const char* what, kf_status_t status, const char* text) {
  fail(status, "collective engine '{}' ({}) {}: {}", e.name, e.device_type, what,
       text[0] != '\0' ? text : "failed without saying why");
}

Comm* create_comm(const kf_comm_options_t& o) {
  if (o.engine == nullptr || o.rendezvous == nullptr) {
    fail(KF_INVALID_ARGUMENT, "kf_comm_create: options.engine and options.rendezvous must not "
         "be NULL (such as \"cpu:gloo\" and \"file:///tmp/job\")");
  }
  const Rendezvous rv = resolve_rendezvous(o.rendezvous, o.rank, o.world_size);
  start_deferred_collectives();  // engines wait for their first use; waiting drivers go on waiting
  auto comm = std::make_unique<Comm>();
  comm->rank = rv.rank;
  comm->world_size = rv.world_size;
  comm->timeout_ms = o.timeout_ms > 0 ? o.timeout_ms : kDefaultTimeoutMs;
  for (const EngineChoice& c : parse_engine_choice(o.engine)) {
    comm->engines.push_back(find_engine(c, o.engine));
  }
  comm->rendezvous = rv;
  if (rv.store_port != 0) {
    for (const CommEngine& e : comm->engines) check_store_minor(e);
    comm->store = std::make_shared<HostStore>(rv.store_host, rv.store_port, rv.rank,
                                              comm->timeout_ms);
  }
  try {
    for (CommEngine& e : comm->engines) init_engine(e, rv, *comm);
    if (comm->store != nullptr) comm->store->barrier(joined_key(), comm->world_size);
  } catch (...) {
    destroy_engines(*comm);
    throw;
  }
  return publish_comm(std::move(comm));
}

// Every communicator a process makes gets the next number: the ranks make theirs in the same
// order, so the number keeps one communicator's keys in the rendezvous apart from another's.
std::string next_prefix(const CommEngine& e) {
  static std::atomic<uint64_t> serial{0};
  return "kf_" + std::to_string(serial.fetch_add(1)) + "_" + e.device_type + "_" + e.name;
}

kf_comm_init_t engine_init(const Rendezvous& rv, const std::string& prefix, int64_t timeout_ms,
                           const HostStore* store) {
  kf_comm_init_t in{};
  in.struct_size = sizeof in;
  in.rendezvous = rv.url.c_str();
  in.prefix = prefix.c_str();
  in.rank = rv.rank;
  in.world_size = rv.world_size;
  in.timeout_ms = timeout_ms;
  in.store = store != nullptr ? store->table() : nullptr;
  return in;
}

// The key of the env:// barrier that ends kf_comm_create and kf_comm_split: numbered as the
// prefixes are.
std::string joined_key() {
  static std::atomic<uint64_t> serial{0};
  return "kf_joined_" + std::to_string(serial.fetch_add(1));
}

Comm* publish_comm(std::unique_ptr<Comm> comm) {
  LiveComms& l = live_comms();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.live.insert(comm.get());
  return comm.release();
}

void destroy_engines(Comm& c) noexcept {
  for (CommEngine& e : c.engines) {
    const auto destroy = e.slot(KF_COLLECTIVE_SLOT_END(comm_destroy), e.plugin->comm_destroy);
    if (e.state != nullptr && destroy != nullptr) (void)destroy(e.state);
    e.state = nullptr;
  }
}

void destroy_comm(Comm* comm) {
  if (comm == nullptr) return;
  destroy_engines(*comm);
  delete comm;
}

Comm& checked_comm(kf_comm_t handle, const char* what) {
  const auto* c = reinterpret_cast<const Comm*>(handle);
  LiveComms& l = live_comms();
  std::lock_guard<std::mutex> lock(l.mutex);
  if (c == nullptr || l.live.count(c) == 0) {
    fail(KF_INVALID_ARGUMENT, "{}: the communicator is {}", what,
         c == nullptr ? "NULL" : "not a live kf_comm_t (destroyed, or never made)");
  }
  return *const_cast<Comm*>(c);
}

Comm* take_comm(kf_comm_t handle, const char* what) {
  Comm& c = checked_comm(handle, what);
  LiveComms& l = live_comms();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.live.erase(&c);
  return &c;
}

}  // namespace kf
