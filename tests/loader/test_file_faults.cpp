// test_file_faults.cpp — faults in the files rather than the code: a zero-byte file, a text file
// and a library for another architecture under a plugin's name; broken manifests (unknown
// version, missing field, wrong type, oversized, invalid JSON, nested too deep, a key given
// twice); `requires` that cannot hold (the library is never opened) or that has an unknown or
// repeated key; KERNFORGE_DISABLE_PLUGINS; and FIFOs under a manifest's or a library's name,
// refused without blocking start-up.
#include <cstdint>
#include <string>

#include "loader_fixture.hpp"

#if !defined(_WIN32)
#  include <dlfcn.h>
#  include <fcntl.h>
#  include <sys/stat.h>
#  include <unistd.h>
#endif

#include <chrono>
#include <future>

namespace loader_test {
namespace {

using FileFaults = LoaderTest;

/// What the system's dynamic loader says about opening `path`, without the "<path>: " prefix
/// glibc puts first ("" on Windows or when it opens).
std::string dynamic_loader_text(const fs::path& path) {
#if defined(_WIN32)
  (void)path;
  return "";
#else
  dlerror();
  void* h = dlopen(path.string().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h != nullptr) {
    ADD_FAILURE() << path << " opened; the test expected it to be refused";
    return "";
  }
  const char* e = dlerror();
  std::string text = e != nullptr ? e : "";
  const std::string prefix = path.string() + ": ";
  if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
  return text;
#endif
}

/// A rejected garbage file: REJECTED, the reason names the file and quotes the dynamic loader.
void expect_garbage_rejected(const Staged& s) {
  const BackendView b = backend("fault_x");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(b.reason, s.library.string());
  const std::string dl = dynamic_loader_text(s.library);
  if (!dl.empty()) {
    EXPECT_HAS(b.reason, dl);
  }
}

TEST_F(FileFaults, ZeroByteLibrary) {
  const Staged s = stage_fake_library(tmp() / "plugins", "x", "");
  init_ok({s.folder});
  expect_garbage_rejected(s);
}

TEST_F(FileFaults, TextFileLibrary) {
  std::string text;
  for (int i = 0; i < 8; ++i) {
    text += "This is a text file under a plugin library's name, not a shared library.\n";
  }
  const Staged s = stage_fake_library(tmp() / "plugins", "x", text);
  init_ok({s.folder});
  expect_garbage_rejected(s);
}

/// Patches the machine field of a copy of a library for this host: ELF e_machine (offset 18)
/// to AArch64 (183), or x86-64 (62) on an AArch64 host; PE's Machine to ARM64 (0xAA64).
void patch_machine(const fs::path& path) {
  std::string bytes = read_file(path);
  ASSERT_GT(bytes.size(), 64u);
  if (bytes.compare(0, 4, "\x7f" "ELF") == 0) {
    const bool le = bytes[5] == 1;
    ASSERT_TRUE(le) << "big-endian ELF is not handled";
    const uint16_t host = static_cast<uint16_t>(static_cast<unsigned char>(bytes[18]) |
                                                (static_cast<unsigned char>(bytes[19]) << 8));
    const uint16_t other = host == 183 ? 62 : 183;
    bytes[18] = static_cast<char>(other & 0xff);
    bytes[19] = static_cast<char>(other >> 8);
  } else {
    ASSERT_EQ(bytes.compare(0, 2, "MZ"), 0) << path << " is neither ELF nor PE";
    const uint32_t pe = static_cast<uint32_t>(static_cast<unsigned char>(bytes[0x3c])) |
                        static_cast<uint32_t>(static_cast<unsigned char>(bytes[0x3d])) << 8;
    ASSERT_LT(pe + 6, bytes.size());
    bytes[pe + 4] = static_cast<char>(0x64);
    bytes[pe + 5] = static_cast<char>(0xAA);
  }
  write_file(path, bytes);
}

TEST_F(FileFaults, WrongArchitectureLibrary) {
  const fs::path folder = tmp() / "plugins";
  const Staged s = stage_fake_library(folder, "x", "");
  const std::string foreign = KF_TEST_FOREIGN_ARCH_LIB;
  if (!foreign.empty() && fs::exists(foreign)) {
    fs::copy_file(foreign, s.library, fs::copy_options::overwrite_existing);
    RecordProperty("library", "cross-built " + foreign);
  } else {
    fs::remove(s.library);  // MinGW libstdc++ copy_file(overwrite_existing) reports EEXIST
    fs::copy_file(built_plugin("ok"), s.library, fs::copy_options::overwrite_existing);
    patch_machine(s.library);
    RecordProperty("library", "the ok plugin with its machine field patched");
  }
  init_ok({s.folder});
  expect_garbage_rejected(s);
}

// ------------------------------------------------------------------ manifests

/// Writes `text` as folder/fault_bad.json next to a good plugin library it names.
fs::path write_bad_manifest(const fs::path& folder, const std::string& text) {
  fs::create_directories(folder);
  fs::copy_file(built_plugin("ok"), folder / plugin_file_name("bad"));
  const fs::path path = fs::canonical(folder) / "fault_bad.json";
  write_file(path, text);
  return path;
}

/// REJECTED with KF_INVALID_ARGUMENT; the reason names the manifest and one of `words`.
void expect_bad_manifest(const fs::path& manifest, const std::vector<std::string>& words) {
  const BackendView b = backend_with_manifest(manifest);
  ASSERT_TRUE(b.found()) << "no backend for " << manifest << ":" << describe_backends();
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, manifest.string());
  bool named = false;
  for (const std::string& w : words) named = named || contains(lower(b.reason), lower(w));
  std::string list;
  for (const std::string& w : words) list += " '" + w + "'";
  EXPECT_TRUE(named) << "the reason says none of" << list << ": " << b.reason;
}

TEST_F(FileFaults, ManifestUnknownVersion) {
  json m = manifest_for("bad");
  m["manifest_version"] = 7;
  const fs::path p = write_bad_manifest(tmp() / "plugins", m.dump(2));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"manifest_version"});
}

TEST_F(FileFaults, ManifestMissingRequiredField) {
  json m = manifest_for("bad");
  m.erase("library");
  const fs::path p = write_bad_manifest(tmp() / "plugins", m.dump(2));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"library"});
}

TEST_F(FileFaults, ManifestWrongType) {
  json m = manifest_for("bad");
  m["priority"] = "high";
  const fs::path p = write_bad_manifest(tmp() / "plugins", m.dump(2));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"priority"});
}

TEST_F(FileFaults, ManifestOversized) {
  json m = manifest_for("bad");
  m["padding"] = std::string(70 * 1024, 'x');
  const fs::path p = write_bad_manifest(tmp() / "plugins", m.dump(2));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"65536", "64 KiB", "64KiB", "limit", "too large", "too big"});
}

TEST_F(FileFaults, ManifestInvalidJson) {
  const fs::path p = write_bad_manifest(
      tmp() / "plugins", R"({ "manifest_version": 1, "name": "fault_bad", "library": )");
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"json"});
}

TEST_F(FileFaults, ManifestNestedTooDeep) {
  std::string text = manifest_for("bad").dump();
  text.pop_back();  // the closing brace
  text += R"(, "x_deep": )" + std::string(200, '[') + std::string(200, ']') + "}";
  const fs::path p = write_bad_manifest(tmp() / "plugins", text);
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"depth", "deep", "nest"});
}

/// The other architecture's name in manifests.
std::string other_arch() {
#if defined(__aarch64__) || defined(_M_ARM64)
  return "x86_64";
#else
  return "aarch64";
#endif
}

/// The manifest text of `variant` with `extra` (raw JSON members) inserted first, so that a key
/// can be given twice (json objects cannot hold that).
std::string manifest_text_with(const std::string& variant, const std::string& extra) {
  std::string text = manifest_for(variant).dump();
  return "{" + extra + "," + text.substr(1);
}

// nlohmann-json keeps the last of two equal keys: the manifest would say one thing to a reader
// and another to the loader. A key given twice is an error.
TEST_F(FileFaults, ManifestDuplicateTopLevelKey) {
  const fs::path p = write_bad_manifest(tmp() / "plugins",
                                        manifest_text_with("bad", R"("device_type": "cpu")"));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"'device_type' appears twice"});
}

// ------------------------------------------------------------------ requires

// A misspelt requirement ("cpu_feature") would be ignored and the plugin loaded on any CPU.
TEST_F(FileFaults, RequiresUnknownKeyIsAManifestError) {
  json m = manifest_for("bad");
  m["requires"] = {{"cpu_feature", {"avx512_nonexistent_feature"}}};
  const fs::path p = write_bad_manifest(tmp() / "plugins", m.dump(2));
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"unknown key 'cpu_feature'"});
}

TEST_F(FileFaults, RequiresDuplicateKeyIsAManifestError) {
  json m = manifest_for("bad");
  std::string text = m.dump();
  const std::string arch = other_arch();
  text.pop_back();
  text += R"(, "requires": {"arch": ")" + arch + R"(", "arch": ")" +
          (arch == "x86_64" ? "aarch64" : "x86_64") + R"("}})";
  const fs::path p = write_bad_manifest(tmp() / "plugins", text);
  init_ok({tmp() / "plugins"});
  expect_bad_manifest(p, {"has the key 'arch' twice"});
}

/// UNAVAILABLE without the library ever being opened: it is a zero-byte file, which opening
/// would have turned into REJECTED with the dynamic loader's error.
void expect_unmet_requirement(const Staged& s, const std::string& what) {
  const BackendView b = backend("fault_x");
  expect_state(b, KF_BACKEND_UNAVAILABLE);
  EXPECT_HAS(b.reason, what);
  expect_message_names(b, {s.manifest, s.library});
  for (const json& st : steps(report(), "fault_x", "dlopen")) {
    EXPECT_EQ(str_of(st, "result"), "skipped") << "the library was opened: " << st.dump();
  }
}

TEST_F(FileFaults, RequiresArchitectureUnmetNeverOpensLibrary) {
  json m = manifest_for("x");
  m["requires"] = {{"arch", other_arch()}};
  fs::create_directories(tmp() / "plugins");
  write_file(tmp() / "plugins" / plugin_file_name("x"), "");
  const Staged s{fs::canonical(tmp() / "plugins"),
                 fs::canonical(tmp() / "plugins") / plugin_file_name("x"),
                 write_manifest(fs::canonical(tmp() / "plugins"), m)};
  init_ok({s.folder});
  expect_unmet_requirement(s, other_arch());
}

TEST_F(FileFaults, RequiresCpuFeatureUnmetNeverOpensLibrary) {
  json m = manifest_for("x");
  m["requires"] = {{"cpu_features", {"avx512_nonexistent_feature"}}};
  fs::create_directories(tmp() / "plugins");
  write_file(tmp() / "plugins" / plugin_file_name("x"), "");
  const Staged s{fs::canonical(tmp() / "plugins"),
                 fs::canonical(tmp() / "plugins") / plugin_file_name("x"),
                 write_manifest(fs::canonical(tmp() / "plugins"), m)};
  init_ok({s.folder});
  expect_unmet_requirement(s, "avx512_nonexistent_feature");
}

// A plugin built for another core version (a backend's wheel of another release) is refused
// before it is opened, naming both versions; the same requirement with this core's version
// loads (requires.kernforge).
TEST_F(FileFaults, RequiresAnotherCoreVersionIsRefusedNamingBoth) {
  json m = manifest_for("ok");
  m["requires"] = {{"kernforge", "0.0.1-other"}};
  const Staged s = stage(tmp() / "plugins", "ok", m);
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_REJECTED);
  EXPECT_HAS(b.reason, "built for kernforge 0.0.1-other");
  EXPECT_HAS(b.reason, std::string("this is kernforge ") + kf_version());
  expect_message_names(b, {s.manifest});
  for (const json& st : steps(report(), "fault_ok", "dlopen")) {
    EXPECT_EQ(str_of(st, "result"), "skipped") << "the library was opened: " << st.dump();
  }
}

TEST_F(FileFaults, RequiresThisCoreVersionLoads) {
  json m = manifest_for("ok");
  m["requires"] = {{"kernforge", kf_version()}};
  const Staged s = stage(tmp() / "plugins", "ok", m);
  init_ok({s.folder});
  expect_state(backend("fault_ok"), KF_BACKEND_LOADED);
}

TEST_F(FileFaults, DisabledByEnvironment) {
  const Staged s = stage(tmp() / "plugins", "ok");
  set_env("KERNFORGE_DISABLE_PLUGINS", "xpu,fault_ok");
  init_ok({s.folder});
  const BackendView b = backend("fault_ok");
  expect_state(b, KF_BACKEND_UNAVAILABLE);
  EXPECT_HAS(b.reason, "KERNFORGE_DISABLE_PLUGINS");
  expect_message_names(b, {s.manifest, s.library});
}

// ------------------------------------------------------- files that are not files

#if !defined(_WIN32)
/// Runs start-up with `paths` on another thread. A loader that opens `fifo` blocks in open()
/// until a writer comes: after `patience` the test fails and plays the writer (opening and
/// closing the FIFO, as often as the loader opens it) so that the process can still finish.
kf_status_t init_watching_fifo(LoaderTest& t, const std::vector<fs::path>& paths,
                               const fs::path& fifo, std::chrono::seconds patience) {
  const auto start = std::chrono::steady_clock::now();
  std::future<kf_status_t> done =
      std::async(std::launch::async, [&] { return t.init_for_test(paths); });
  if (done.wait_for(patience) == std::future_status::timeout) {
    ADD_FAILURE() << "start-up blocked on the FIFO " << fifo << " for "
                  << patience.count() << " s";
    while (done.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
    }
  }
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, patience) << "start-up took too long";
  return done.get();
}
#endif

// A FIFO under a manifest's name: open() of it would block until someone writes. It is refused
// without being opened, and start-up goes on.
TEST_F(FileFaults, FifoManifestIsRefusedWithoutBlocking) {
#if defined(_WIN32)
  GTEST_SKIP() << "FIFOs are POSIX";
#else
  fs::create_directories(tmp() / "plugins");
  const fs::path fifo = fs::canonical(tmp() / "plugins") / "fault_fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << "mkfifo " << fifo;
  EXPECT_EQ(init_watching_fifo(*this, {tmp() / "plugins"}, fifo, std::chrono::seconds(10)),
            KF_OK);
  const BackendView b = backend_with_manifest(fifo);
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, fifo.string());
  EXPECT_HAS(b.reason, "FIFO");
#endif
}

// The same for a FIFO under the plugin library's name: dlopen would block in open().
TEST_F(FileFaults, FifoLibraryIsRefusedWithoutBlocking) {
#if defined(_WIN32)
  GTEST_SKIP() << "FIFOs are POSIX";
#else
  fs::create_directories(tmp() / "plugins");
  const fs::path folder = fs::canonical(tmp() / "plugins");
  const fs::path fifo = folder / plugin_file_name("x");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << "mkfifo " << fifo;
  write_manifest(folder, manifest_for("x"));
  EXPECT_EQ(init_watching_fifo(*this, {folder}, fifo, std::chrono::seconds(10)), KF_OK);
  const BackendView b = backend("fault_x");
  expect_state(b, KF_BACKEND_REJECTED, KF_INVALID_ARGUMENT);
  EXPECT_HAS(b.reason, fifo.string());
  EXPECT_HAS(b.reason, "FIFO");
#endif
}

}  // namespace
}  // namespace loader_test
