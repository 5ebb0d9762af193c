// Note [Programs on first use]: a program (one family of kernels/*.cl for one dtype) is built
// the first time a launch needs it, not at init: init runs in every kernforge process, most of
// which never touch the device, and a cold build of all 70 programs takes PoCL minutes. Init
// builds one (copy for float32), so a platform whose compiler rejects the kernels is
// KF_UNAVAILABLE at load time with the build log. With the program cache (program_cache.hpp)
// warm, a later build costs a few milliseconds.
#include "cl_device.hpp"

#include <cstdio>

#include "cl_status.hpp"
#include "program_cache.hpp"

namespace kf::opencl {

ClDevice::ClDevice(const DeviceInfo& info) : info_(info) {
  caps_.fp64 = info.fp64;
  caps_.max_work_group = info.max_work_group;
  caps_.local_memory = static_cast<size_t>(info.local_memory);
  caps_.items_in_sequence = info.cpu;
}

std::unique_ptr<ClDevice> ClDevice::create(const DeviceInfo& info, std::string& error) {
  std::unique_ptr<ClDevice> d(new ClDevice(info));
  cl_int e = CL_SUCCESS;
  d->context_ = clCreateContext(nullptr, 1, &info.device, nullptr, nullptr, &e);
  if (d->context_ == nullptr || e != CL_SUCCESS) {
    error = cl_failure("clCreateContext", e);
    return nullptr;
  }
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  d->default_queue_ = clCreateCommandQueueWithProperties(d->context_, info.device, props, &e);
  if (d->default_queue_ == nullptr || e != CL_SUCCESS) {
    error = cl_failure("clCreateCommandQueueWithProperties", e);
    return nullptr;
  }
  return d;
}

ClDevice::~ClDevice() {
  if (default_queue_ != nullptr) clFinish(default_queue_);
  for (auto& family : programs_) {
    for (auto& p : family) {
      if (p == nullptr) continue;
      for (auto& k : p->kernels) clReleaseKernel(k.second->kernel);
      clReleaseProgram(p->program);
    }
  }
  if (default_queue_ != nullptr) clReleaseCommandQueue(default_queue_);
  if (context_ != nullptr) clReleaseContext(context_);
}

cl_int ClDevice::new_queue(cl_command_queue* out) {
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int e = CL_SUCCESS;
  *out = clCreateCommandQueueWithProperties(context_, info_.device, props, &e);
  if (*out == nullptr) return e != CL_SUCCESS ? e : CL_OUT_OF_HOST_MEMORY;
  std::lock_guard<std::mutex> lock(queues_mutex_);
  stream_queues_.push_back(*out);
  return CL_SUCCESS;
}

void ClDevice::forget_queue(cl_command_queue queue) {
  std::lock_guard<std::mutex> lock(queues_mutex_);
  for (size_t i = 0; i < stream_queues_.size(); ++i) {
    if (stream_queues_[i] != queue) continue;
    stream_queues_[i] = stream_queues_.back();
    stream_queues_.pop_back();
    return;
  }
}

cl_int ClDevice::finish_all() {
  cl_int first = clFinish(default_queue_);
  std::lock_guard<std::mutex> lock(queues_mutex_);
  for (cl_command_queue q : stream_queues_) {
    const cl_int e = clFinish(q);
    if (first == CL_SUCCESS) first = e;
  }
  return first;
}

ClDevice::Program* ClDevice::program(clk::ProgramKey key, kf_status_t& status,
                                     std::string& error) {
  const auto f = static_cast<size_t>(key.family);
  const auto t = static_cast<size_t>(key.dtype);
  if (f >= static_cast<size_t>(clk::kFamilyCount) || t >= static_cast<size_t>(KF_DTYPE_COUNT)) {
    status = KF_INTERNAL;
    error = "no program for family " + std::to_string(f) + ", dtype " + std::to_string(t);
    return nullptr;
  }
  if (Program* p = ready_[f][t].load(std::memory_order_acquire)) return p;
  std::lock_guard<std::mutex> lock(build_mutex_);
  if (Program* p = ready_[f][t].load(std::memory_order_acquire)) return p;
  const char* source = clk::family_source(key.family);
  if (source == nullptr) {
    status = KF_INTERNAL;
    error = std::string("no kernel source for ") + clk::family_name(key.family);
    return nullptr;
  }
  std::string text = source;
#ifdef KF_OPENCL_TEST_BROKEN_FAMILY
  // A test build (tests/opencl): this family's source does not compile.
  if (std::string(clk::family_name(key.family)) == KF_OPENCL_TEST_BROKEN_FAMILY) {
    text += "\n#error deliberately broken by the test build\n";
  }
#endif
  const BuildResult built = build_program(context_, info_, text, clk::build_options(key, caps_));
  if (built.program == nullptr) {
    status = built.error == CL_BUILD_PROGRAM_FAILURE ? KF_INTERNAL : cl_status(built.error);
    error = "building kernels/" + std::string(clk::family_name(key.family)) + ".cl for " +
            clk::short_name(key.dtype) + " on " + info_.name + ": " +
            cl_failure("clBuildProgram", built.error) +
            (built.log.empty() ? std::string() : "; build log:\n" + built.log);
    return nullptr;
  }
  programs_[f][t] = std::make_unique<Program>();
  programs_[f][t]->program = built.program;
  ready_[f][t].store(programs_[f][t].get(), std::memory_order_release);
  return programs_[f][t].get();
}

ClDevice::Kernel* ClDevice::kernel(Program& program, clk::ProgramKey key, const char* name,
                                   std::string& error) {
  std::lock_guard<std::mutex> lock(program.mutex);
  auto it = program.kernels.find(name);
  if (it != program.kernels.end()) return it->second.get();
  cl_int e = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program.program, name, &e);
  if (k == nullptr || e != CL_SUCCESS) {
    error = std::string("no kernel '") + name + "' in kernels/" + clk::family_name(key.family) +
            ".cl for " + clk::short_name(key.dtype) + ": " + cl_failure("clCreateKernel", e);
    return nullptr;
  }
  auto kernel = std::make_unique<Kernel>();
  kernel->kernel = k;
  Kernel* raw = kernel.get();
  program.kernels.emplace(name, std::move(kernel));
  return raw;
}

cl_int ClDevice::set_args(cl_kernel kernel, const clk::Launch& launch) {
  for (int32_t i = 0; i < launch.nargs; ++i) {
    const clk::Arg& a = launch.args[i];
    const auto index = static_cast<cl_uint>(i);
    cl_int e = CL_SUCCESS;
    switch (a.kind) {
      case clk::Arg::kPointer: e = clSetKernelArgSVMPointer(kernel, index, a.pointer); break;
      case clk::Arg::kValue: e = clSetKernelArg(kernel, index, a.size, a.bytes); break;
      case clk::Arg::kLocal: e = clSetKernelArg(kernel, index, a.size, nullptr); break;
    }
    if (e != CL_SUCCESS) return e;
  }
  return CL_SUCCESS;
}

kf_status_t ClDevice::read_back(void* dst, const void* src, size_t bytes, void* stream,
                                std::string& error) noexcept {
  const cl_int e = clEnqueueSVMMemcpy(queue(stream), CL_TRUE, dst, src, bytes, 0, nullptr, nullptr);
  if (e == CL_SUCCESS) return KF_OK;
  try {
    error = cl_failure("clEnqueueSVMMemcpy", e);
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  }
  return cl_status(e);
}

kf_status_t ClDevice::launch(const clk::Launch& launch, void* stream,
                             std::string& error) noexcept {
  try {
    kf_status_t status = KF_INTERNAL;
    Program* p = program(launch.program, status, error);
    if (p == nullptr) return status;
    Kernel* k = kernel(*p, launch.program, launch.kernel, error);
    if (k == nullptr) return KF_INTERNAL;
    std::lock_guard<std::mutex> lock(k->mutex);
    cl_int e = set_args(k->kernel, launch);
    if (e == CL_SUCCESS) {
      e = clEnqueueNDRangeKernel(queue(stream), k->kernel, launch.dims, nullptr, launch.global,
                                 launch.local, 0, nullptr, nullptr);
    }
    if (e == CL_SUCCESS) e = clFlush(queue(stream));
    if (e != CL_SUCCESS) {
      error = std::string("launching ") + launch.kernel + ": " +
              cl_failure("clEnqueueNDRangeKernel", e);
      return cl_status(e);
    }
    return KF_OK;
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  } catch (const std::exception& ex) {
    error = ex.what();
    return KF_INTERNAL;
  }
}

kf_status_t ClDevice::prepare(clk::ProgramKey key, std::string& error) noexcept {
  try {
    kf_status_t status = KF_INTERNAL;
    return program(key, status, error) != nullptr ? KF_OK : status;
  } catch (const std::bad_alloc&) {
    return KF_OUT_OF_MEMORY;
  }
}

}  // namespace kf::opencl
