// A gloo rendezvous store over the host's key-value store (kf_rendezvous_store_t, collective ABI
// 1.1), which an env:// communicator is given: gloo's set, get and wait become the table's
// calls, and the host's failures gloo's exceptions (a timeout's text says "Wait timeout", which
// gloo_errors.hpp reads as KF_TIMEOUT; anything else is a PluginError of the host's status).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <gloo/rendezvous/store.h>

#include "kernforge/collective.h"

namespace kfgloo {

class HostStore : public gloo::rendezvous::Store {
 public:
  HostStore(const kf_rendezvous_store_t& table, std::chrono::milliseconds timeout)
      : table_(table), timeout_(timeout) {}
  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

 private:
  const kf_rendezvous_store_t& table_;
  std::chrono::milliseconds timeout_;
};

}  // namespace kfgloo
