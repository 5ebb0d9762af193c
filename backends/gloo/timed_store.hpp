// A gloo rendezvous store whose every wait ends after the communicator's timeout: gloo's own
// stores wait 30 s in get() whatever the context's timeout is, and a rank that never arrives
// must end in the timeout the caller gave (then gloo throws "Wait timeout for key(s)").
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <gloo/rendezvous/store.h>

namespace kfgloo {

class TimedStore : public gloo::rendezvous::Store {
 public:
  TimedStore(gloo::rendezvous::Store& inner, std::chrono::milliseconds timeout)
      : inner_(inner), timeout_(timeout) {}

  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

 private:
  gloo::rendezvous::Store& inner_;
  std::chrono::milliseconds timeout_;
};

}  // namespace kfgloo
