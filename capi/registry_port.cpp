// The loader's registry port (Note [The loader's registry port], loader/registry_port.hpp)
// over the dispatcher's Registrar and op registry.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "capi/startup.hpp"
#include "registry/op_registry.hpp"
#include "registry/registrar.hpp"

namespace kf {
namespace {

class RegistrarTransaction final : public Registration {
 public:
  explicit RegistrarTransaction(const std::string& plugin) : reg_(plugin) {}
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

constexpr RegistryPort kPort{&begin_registration, &find_op_id};

}  // namespace

const RegistryPort& op_registry_port() noexcept { return kPort; }

}  // namespace kf
