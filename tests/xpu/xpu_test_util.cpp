// xpu_test_util.cpp — see xpu_test_util.hpp.
#include "xpu_test_util.hpp"

#include "ze_result.hpp"

namespace xpu_test {

HostRecord& host_record() {
  static HostRecord record;
  return record;
}

namespace {
void record_log(int32_t, const char*, const char* message) {
  host_record().logs.push_back(message);
}
void record_error(const char* message) { host_record().error = message; }
kf_status_t no_ops(const char*, int32_t*) { return KF_NOT_FOUND; }

const unsigned char* fake_find(kf::clk::ProgramKey, bool, size_t* size) noexcept {
  return fake::fake_module(size);
}
}  // namespace

const kf_host_api_t* test_host() {
  static kf_host_api_t host = [] {
    kf_host_api_t h{};
    h.struct_size = sizeof(h);
    h.abi_major = KF_PLUGIN_ABI_MAJOR;
    h.abi_minor = KF_PLUGIN_ABI_MINOR;
    h.log = record_log;
    h.set_error = record_error;
    h.op_find = no_ops;
    return h;
  }();
  return &host;
}

kf::xpu::ModuleLibrary fake_library() {
  kf::xpu::ModuleLibrary library;
  library.find = fake_find;
  library.count = 1;
  return library;
}

void XpuTest::SetUp() {
  fake::reset();
  host_record() = HostRecord{};
  kf::plugin::host() = test_host();
}

void XpuTest::TearDown() {
  fake::run_all();
  EXPECT_EQ(fake::state().bad_frees, 0) << "the backend freed memory it did not allocate";
  EXPECT_EQ(fake::live_objects(), 0) << "ze objects or memory left after the test";
  fake::reset();
}

std::unique_ptr<kf::xpu::Runtime> XpuTest::make_runtime(const char* filter) {
  try {
    return kf::xpu::Runtime::create(fake::api(), fake_library(), filter);
  } catch (const kf::xpu::ZeError& e) {
    ADD_FAILURE() << "Runtime::create threw " << e.what();
    return nullptr;
  }
}

std::string XpuTest::create_error(kf_status_t* status, const char* filter) {
  try {
    auto runtime = kf::xpu::Runtime::create(fake::api(), fake_library(), filter);
  } catch (const kf::xpu::ZeError& e) {
    *status = e.status();
    return e.what();
  }
  *status = KF_OK;
  return "";
}

}  // namespace xpu_test
