// backend.hpp — the opencl plugin's state: what discovery found, one ClDevice per usable
// OpenCL device (kernforge device i = devices[i]) and the FFT plans. Made by init, deleted by
// shutdown; read-only in between (the plans guard themselves), so any thread may use it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cl_device.hpp"
#include "clkernels/device.hpp"
#include "discovery.hpp"
#include "fft_plans.hpp"

namespace kf::opencl {

class ClBackend final : public clk::Backend {
 public:
  clk::Device* device(int32_t index) noexcept override { return get(index); }
  const char* name() const noexcept override { return "opencl"; }

  ClDevice* get(int32_t index) noexcept {
    return index >= 0 && static_cast<size_t>(index) < devices.size()
               ? devices[static_cast<size_t>(index)].get()
               : nullptr;
  }

  Discovery discovery;
  std::vector<std::unique_ptr<ClDevice>> devices;
  bool fine_grain_host = false;  // host_allocate gives fine-grained SVM of device 0
  // The fft kernels' VkFFT applications (Note [VkFFT applications]); after `devices`, so that
  // they are deleted before the contexts they were made in.
  FftPlans fft_plans;
};

/// The state pointer the host passes to every slot, as the backend (init stored a Backend*).
inline ClBackend* backend_of(void* state) {
  return static_cast<ClBackend*>(static_cast<clk::Backend*>(state));
}

/// Reports `message` as the error of the current call ("opencl: " prefixed).
void report(const std::string& message);

/// The device `index` of the state, or nullptr after reporting it does not exist.
ClDevice* device_or_report(void* state, int32_t index);

}  // namespace kf::opencl
