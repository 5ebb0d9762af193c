// The loader's registry port (Note [The loader's registry port], loader/registry_port.hpp)
// over the dispatcher's Registrar and op registry.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "autograd/plugin_backward.hpp"
#include "capi/startup.hpp"
#include "kernforge/kernforge.h"
#include "registry/op_registry.hpp"
#include "registry/registrar.hpp"

namespace kf {
namespace {

class RegistrarTransaction final : public Registration {
 public:
  explicit RegistrarTransaction(const std::string& plugin)
      : reg_(plugin, &autograd::plugin_backward_port()) {}
  const kf_registrar_t* registrar() const noexcept override { return reg_.c_api(); }
  void commit(Backend& backend) override { reg_.commit(backend); }
  std::string summary() const override {
    return fmt::format("{} kernels, {} ops defined", reg_.kernel_count(),
                       reg_.defined_op_count());
  }
  std::string warnings() const override {
    std::string out;
    for (const std::string& w : reg_.warnings()) out += (out.empty() ? "" : "; ") + w;
    return out;
  }

 private:
  Registrar reg_;
};

std::unique_ptr<Registration> begin_registration(const std::string& plugin) {
  return std::make_unique<RegistrarTransaction>(plugin);
}

int32_t find_op_id(const char* name) noexcept {
  try {
    const OpDef* def = find_op(name);
    return def != nullptr ? def->id : -1;
  } catch (...) {
    return -1;
  }
}

// kf_host_api_t.op_call: kf_op_call by op id (the C ABI's handle is the id + 1).
kf_status_t call_op(int32_t op, const kf_value_t* args, int32_t nargs, kf_value_t* results,
                    int32_t nresults) noexcept {
  const OpDef* def = op_by_id(op);
  return kf_op_call(def != nullptr ? op_handle(*def) : nullptr, args, nargs, results, nresults);
}

void release_tensor(kf_tensor_t t) noexcept { kf_tensor_release(t); }

constexpr RegistryPort kPort{&begin_registration, &find_op_id, &call_op, &release_tensor};

}  // namespace

const RegistryPort& op_registry_port() noexcept { return kPort; }

}  // namespace kf
