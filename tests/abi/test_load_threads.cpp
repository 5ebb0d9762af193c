// Loading plugins while other threads read what the loader publishes: kf_load_plugin on one
// thread (plugins that load, and paths that fail), kf_backend_count / kf_backend_info and
// kf_runtime_report_json in a loop on others. A backend must become visible only when it is
// complete: ThreadSanitizer (the tsan stage runs abi.AbiThreads.*) reports any read of a record
// or backend that is still being written, and every string read here must be whole.
//
// The plugins are the dispatch tests' (tests/dispatch/plugins), which are not built on Windows.
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "abi_util.hpp"

namespace kfabi {
namespace {

#if defined(KF_ABI_TEST_PLUGIN_DIR)

// Reads every field of every record; false when a string is missing.
bool read_backends() {
  const int32_t n = kf_backend_count();
  for (int32_t i = 0; i < n; ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) != KF_OK) return false;
    for (const char* s : {info.name, info.version, info.device_type_name, info.reason,
                          info.library_path, info.manifest_path, info.details}) {
      if (s == nullptr) return false;
      volatile size_t len = std::strlen(s);
      (void)len;
    }
    if (info.state == KF_BACKEND_LOADED && (info.device_count < 1 || info.name[0] == '\0')) {
      return false;
    }
  }
  return true;
}

// What dispatch sees of the backends: each one's kernel for `neg`, every backend seeded, and the
// devices of the test plugins once their types exist.
bool read_dispatch() {
  kf_op_t op = nullptr;
  if (kf_op_find("neg", &op) != KF_OK) return false;
  const int32_t n = kf_backend_count();
  for (int32_t i = 0; i < n; ++i) {
    kf_kernel_info_t k{};
    k.struct_size = sizeof k;
    if (kf_op_kernel_info(op, i, &k) != KF_OK) return false;
  }
  if (kf_manual_seed(7) != KF_OK) return false;
  for (const char* name : {"testdev", "cdev", "testasync:1"}) {
    kf_device_t dev{};
    if (kf_device_parse(name, &dev) != KF_OK) continue;  // not loaded yet
    kf_memory_stats_t stats{};
    stats.struct_size = sizeof stats;
    char buf[64];
    if (kf_device_name(dev, buf, sizeof buf) != KF_OK) return false;
    (void)kf_memory_stats(dev, &stats);  // KF_UNAVAILABLE until the backend is published
  }
  return true;
}

// The names of the loaded backends, as a lookup that finds none lists them. Nothing else is
// read, so no lock orders this thread after the loader's later writes: a backend that changed
// after it was published shows up as a race.
bool read_backend_names() {
  kf_memory_stats_t stats{};
  stats.struct_size = sizeof stats;
  return kf_memory_stats(kf_device_t{120, 0}, &stats) == KF_UNAVAILABLE &&
         std::strstr(kf_last_error_message(), "cpu") != nullptr;
}

// The whole report; false when it cannot be had (the size may grow between the two calls).
bool read_report() {
  size_t needed = 0;
  kf_status_t s = kf_runtime_report_json(nullptr, 0, &needed);
  for (int attempt = 0; s == KF_BUFFER_TOO_SMALL && attempt < 8; ++attempt) {
    std::vector<char> buf(needed + 4096);
    s = kf_runtime_report_json(buf.data(), buf.size(), &needed);
  }
  return s == KF_OK;
}

TEST(AbiThreads, LoadWhileReading) {
  ASSERT_EQ(kf_init(nullptr), KF_OK) << kf_last_error_message();
  const std::string dir = KF_ABI_TEST_PLUGIN_DIR;
  const std::vector<std::string> good = {dir + "/testdev.json", dir + "/cdev.json",
                                         dir + "/testasync.json"};
  constexpr int kReaders = 5;
  // Nothing shared among the readers but relaxed loads of `loading`: a counter they all
  // incremented, or an acquire load of the flag, would order one reader after another and after
  // the loader, and hide from TSan a write made after publication.
  std::atomic<bool> loading{true};
  std::vector<long> reads(kReaders, 0), bad_reads(kReaders, 0);
  std::vector<std::thread> readers;
  for (int t = 0; t < kReaders; ++t) {
    readers.emplace_back([&, t] {
      do {
        const bool ok = t == 0   ? read_report()
                        : t == 1 ? read_dispatch()
                        : t == 2 ? read_backend_names()
                                 : read_backends();
        bad_reads[static_cast<size_t>(t)] += ok ? 0 : 1;
        ++reads[static_cast<size_t>(t)];
      } while (loading.load(std::memory_order_relaxed));
    });
  }
  std::vector<std::string> failures;
  for (size_t i = 0; i < good.size(); ++i) {
    if (kf_load_plugin(good[i].c_str()) != KF_OK) failures.push_back(kf_last_error_message());
    // A failed load publishes a record too.
    const std::string missing = dir + "/missing_" + std::to_string(i) + ".json";
    EXPECT_NE(kf_load_plugin(missing.c_str()), KF_OK);
  }
  // Readers keep reading what was published last, with nothing ordering them after it.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  loading.store(false, std::memory_order_relaxed);
  for (std::thread& th : readers) th.join();
  for (const std::string& f : failures) ADD_FAILURE() << "a test plugin did not load: " << f;
  for (int t = 0; t < kReaders; ++t) {
    EXPECT_EQ(bad_reads[static_cast<size_t>(t)], 0) << "reader " << t;
    EXPECT_GT(reads[static_cast<size_t>(t)], 0) << "reader " << t;
  }
  EXPECT_TRUE(read_backends());
  kf_device_t dev{};
  EXPECT_EQ(kf_device_parse("testasync:1", &dev), KF_OK) << kf_last_error_message();
}

#endif

}  // namespace
}  // namespace kfabi
