// The plugin manifest parser (docs/loader.md): strict, capped, and every rejection names the
// file and the field.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

#include "loader/manifest.hpp"
#include "unit_util.hpp"

namespace {

using json = nlohmann::json;
using kfunit::mentions;
using kfunit::thrown_by;

// Absolute paths of this system (Windows: with a drive letter).
#if defined(_WIN32)
#define KF_TEST_ROOT "C:"
#else
#define KF_TEST_ROOT ""
#endif
constexpr const char* kDir = KF_TEST_ROOT "/opt/kf/plugins/cuda";
constexpr const char* kPath = KF_TEST_ROOT "/opt/kf/plugins/cuda/kernforge_cuda.json";
constexpr const char* kAbsoluteLibrary = KF_TEST_ROOT "/abs/libcpu.so";

/// The same path, whichever separators each uses (Windows takes both '/' and '\\').
::testing::AssertionResult same_path(const std::string& got, const std::string& want) {
  namespace fs = std::filesystem;
  if (fs::path(got).lexically_normal() == fs::path(want).lexically_normal()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "path '" << got << "' is not '" << want << "'";
}

json valid() {
  return json::parse(R"({
    "manifest_version": 1, "name": "cuda", "library": "libkernforge_cuda.so",
    "abi": [1, 0], "device_type": "cuda", "priority": 100,
    "requires": { "os": "linux", "arch": "x86_64", "cpu_features": ["avx2"] },
    "global_deps": ["libgomp.so.1"],
    "preload": [ {"soname": "libcublasLt.so.13", "folders": ["cublas", "cu13"]},
                 {"soname": "libcublas.so.13", "folders": ["cublas", "cu13"]},
                 {"soname": "libnvrtc.so.13", "folders": ["cuda_nvrtc"], "required": false} ],
    "search": ["$ORIGIN", "$CUDA_HOME/lib64"] })");
}

kf::Error reject(const json& j) {
  return thrown_by([&] { kf::parse_manifest_text(j.dump(), kPath); });
}

TEST(Manifest, ValidManifestParsesEveryField) {
  const kf::Manifest m = kf::parse_manifest_text(valid().dump(2), kPath);
  EXPECT_EQ(m.path, kPath);
  EXPECT_TRUE(same_path(m.dir, kDir));
  EXPECT_EQ(m.name, "cuda");
  EXPECT_EQ(m.library, "libkernforge_cuda.so");
  EXPECT_TRUE(same_path(m.library_path(), std::string(kDir) + "/libkernforge_cuda.so"));
  EXPECT_EQ(m.abi_major, 1);
  EXPECT_EQ(m.abi_minor, 0);
  EXPECT_EQ(m.device_type, "cuda");
  EXPECT_EQ(m.priority, 100);
  EXPECT_EQ(m.requires_os, "linux");
  EXPECT_EQ(m.requires_arch, "x86_64");
  ASSERT_EQ(m.cpu_features.size(), 1u);
  EXPECT_EQ(m.cpu_features[0], "avx2");
  ASSERT_EQ(m.global_deps.size(), 1u);
  ASSERT_EQ(m.preload.size(), 3u);  // in the manifest's order: cublasLt before cublas
  EXPECT_EQ(m.preload[0].soname, "libcublasLt.so.13");
  EXPECT_EQ(m.preload[1].soname, "libcublas.so.13");
  EXPECT_EQ(m.preload[0].folders, (std::vector<std::string>{"cublas", "cu13"}));
  EXPECT_TRUE(m.preload[0].required);
  EXPECT_FALSE(m.preload[2].required);
  EXPECT_EQ(m.search, (std::vector<std::string>{"$ORIGIN", "$CUDA_HOME/lib64"}));
}

TEST(Manifest, OptionalFieldsDefault) {
  const json j = {{"manifest_version", 1}, {"name", "cpu"}, {"library", kAbsoluteLibrary},
                  {"abi", {1, 2}}, {"device_type", "cpu"}};
  const kf::Manifest m = kf::parse_manifest_text(j.dump(), kPath);
  EXPECT_EQ(m.priority, 0);
  EXPECT_EQ(m.abi_minor, 2);
  EXPECT_TRUE(m.preload.empty());
  EXPECT_TRUE(m.search.empty());
  EXPECT_TRUE(m.requires_os.empty());
  EXPECT_EQ(m.library_path(), kAbsoluteLibrary);  // absolute library paths stay as they are
}

TEST(Manifest, EveryRequiredFieldMissingIsNamed) {
  for (const char* f : {"manifest_version", "name", "library", "abi", "device_type"}) {
    json j = valid();
    j.erase(f);
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << f;
    EXPECT_TRUE(mentions(e.what(), {kPath, std::string("'") + f + "'", "missing"})) << f;
  }
  json j = valid();
  j["preload"][1].erase("soname");
  const kf::Error e = reject(j);
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {kPath, "'soname'", "missing"}));
}

TEST(Manifest, WrongTypesNameTheFieldAndTheTypeFound) {
  const struct {
    const char* field;
    json value;
  } cases[] = {{"manifest_version", "1"}, {"name", 5}, {"library", json::array({"a"})},
               {"device_type", true}, {"abi", "1.0"}, {"priority", "high"},
               {"requires", json::array()}, {"global_deps", "libgomp.so.1"},
               {"preload", json::object()}, {"search", 3}};
  for (const auto& c : cases) {
    json j = valid();
    j[c.field] = c.value;
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << c.field;
    EXPECT_TRUE(mentions(e.what(), {kPath, std::string("'") + c.field + "'", "must be",
                                    c.value.type_name()}))
        << c.field;
  }
}

TEST(Manifest, WrongTypesInsideArraysAndObjects) {
  const struct {
    const char* pointer;
    json value;
    const char* field;
  } cases[] = {{"/search/1", 7, "search"},
               {"/preload/0", "libcublasLt.so.13", "preload"},
               {"/preload/0/required", "no", "required"},
               {"/preload/0/folders", "cublas", "folders"},
               {"/requires/os", 1, "os"},
               {"/requires/cpu_features/0", json::object(), "cpu_features"},
               {"/requires/kernforge", json::array({"0.1.0"}), "kernforge"},
               {"/requires/kernforge", "", "requires.kernforge"},
               {"/abi", json::array({1}), "abi"},
               {"/abi", json::array({1, -1}), "abi"},
               {"/abi", json::array({1, 0.5}), "abi"}};
  for (const auto& c : cases) {
    json j = valid();
    j[json::json_pointer(c.pointer)] = c.value;
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << c.pointer;
    EXPECT_TRUE(mentions(e.what(), {kPath, std::string("'") + c.field + "'"})) << c.pointer;
  }
}

TEST(Manifest, IntegerFieldsRejectFractionsWithAClearMessage) {
  // 1.5 is a JSON number but not an integer: the message must say an integer is wanted, not
  // "must be number, got number".
  for (const char* f : {"manifest_version", "priority"}) {
    json j = valid();
    j[f] = 1.5;
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << f;
    EXPECT_TRUE(mentions(e.what(), {kPath, std::string("'") + f + "'", "integer"})) << f;
  }
}

TEST(Manifest, OutOfRangeIntegersAreRejectedNotTruncated) {
  json j = valid();
  j["priority"] = 4294967297LL;  // 2^32 + 1 would silently become priority 1
  kf::Error e = reject(j);
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << "priority 2^32+1 was accepted";
  EXPECT_TRUE(mentions(e.what(), {kPath, "'priority'"}));

  j = valid();
  j["abi"] = json::array({4294967297LL, 0});  // would become ABI major 1
  e = reject(j);
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << "abi major 2^32+1 was accepted";
  EXPECT_TRUE(mentions(e.what(), {kPath, "'abi'"}));
}

TEST(Manifest, OtherManifestVersionsAreRefused) {
  for (int v : {0, 3, 100}) {
    json j = valid();
    j["manifest_version"] = v;
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << v;
    EXPECT_TRUE(mentions(e.what(), {kPath, "'manifest_version'", std::to_string(v), "1 and 2"}))
        << v;
  }
}

// Version 2 adds "kind" (required there): a collective plugin's manifest (docs/distributed.md).
TEST(Manifest, VersionTwoHasAKind) {
  EXPECT_EQ(kf::parse_manifest_text(valid().dump(), kPath).kind, "device");
  json j = valid();
  j["manifest_version"] = 2;
  j["kind"] = "collective";
  EXPECT_EQ(kf::parse_manifest_text(j.dump(), kPath).kind, "collective");
  j["kind"] = "device";
  EXPECT_EQ(kf::parse_manifest_text(j.dump(), kPath).kind, "device");
  j["kind"] = "network";
  EXPECT_TRUE(mentions(reject(j).what(), {kPath, "'kind'", "network", "collective"}));
  j.erase("kind");
  EXPECT_TRUE(mentions(reject(j).what(), {kPath, "'kind'", "missing"}));
  json one = valid();
  one["kind"] = "collective";  // an older loader would take it for a device: refused
  EXPECT_TRUE(mentions(reject(one).what(), {kPath, "'kind'", "manifest_version\": 2"}));
}

TEST(Manifest, EmptyNamesAreRefused) {
  for (const char* f : {"name", "library", "device_type"}) {
    json j = valid();
    j[f] = "";
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << f;
    EXPECT_TRUE(mentions(e.what(), {kPath, f, "empty"})) << f;
  }
}

TEST(Manifest, OversizedIsRefusedBeforeParsing) {
  std::string text = valid().dump();
  text.insert(text.size() - 1, ", \"padding\": \"" + std::string(kf::kMaxManifestBytes, 'x') + "\"");
  const kf::Error e = thrown_by([&] { kf::parse_manifest_text(text, kPath); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {kPath, std::to_string(text.size()),
                                  std::to_string(kf::kMaxManifestBytes)}));
  // Exactly at the limit is accepted by the size check (and parsed).
  std::string at_limit = valid().dump();
  at_limit.append(kf::kMaxManifestBytes - at_limit.size(), ' ');
  EXPECT_NO_THROW(kf::parse_manifest_text(at_limit, kPath));
}

TEST(Manifest, InvalidJsonIsRefusedNamingTheFile) {
  for (const std::string& text : {std::string("{"), std::string(""),
                                 std::string("{\"name\": \"cpu\",}"),
                                 std::string("\x01\x02garbage")}) {
    const kf::Error e = thrown_by([&] { kf::parse_manifest_text(text, kPath); });
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << text;
    EXPECT_TRUE(mentions(e.what(), {kPath, "JSON"})) << text;
  }
  for (const char* text : {"[1, 2]", "\"cuda\"", "42", "null"}) {
    const kf::Error e = thrown_by([&] { kf::parse_manifest_text(text, kPath); });
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << text;
    EXPECT_TRUE(mentions(e.what(), {kPath, "object"})) << text;
  }
}

TEST(Manifest, DeeplyNestedJsonIsRefusedWithoutCrashing) {
  // The parser caps depth (docs/loader.md): 20000 nested arrays must not blow the stack.
  std::string deep = "{\"manifest_version\": 1, \"search\": ";
  deep += std::string(20000, '[') + std::string(20000, ']') + "}";
  const kf::Error e = thrown_by([&] { kf::parse_manifest_text(deep, kPath); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {kPath}));
}

TEST(Manifest, KeysGivenTwiceAreRefused) {
  // nlohmann-json would keep the last value silently: the text would say two things.
  const std::string text = valid().dump();
  const struct {
    std::string text;
    const char* words;
  } cases[] = {
      {"{\"device_type\": \"cpu\"," + text.substr(1), "'device_type' appears twice"},
      {R"({"manifest_version": 1, "name": "a", "library": "l", "abi": [1, 0],
          "device_type": "x", "requires": {"os": "linux", "os": "windows"}})",
       "'requires' has the key 'os' twice"},
      {R"({"manifest_version": 1, "name": "a", "library": "l", "abi": [1, 0],
          "device_type": "x", "preload": [{"soname": "libx.so.1", "required": false,
                                           "required": true}]})",
       "'preload' has the key 'required' twice"}};
  for (const auto& c : cases) {
    const kf::Error e = thrown_by([&] { kf::parse_manifest_text(c.text, kPath); });
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << c.text;
    EXPECT_TRUE(mentions(e.what(), {kPath, c.words})) << c.text;
  }
  // The same key in two objects is not a repetition.
  json j = valid();
  j["requires"] = {{"os", "linux"}};
  j["x_extra"] = {{"os", "linux"}};
  EXPECT_NO_THROW(kf::parse_manifest_text(j.dump(), kPath));
}

TEST(Manifest, RequiresKernforgeIsTheExactCoreVersion) {
  json j = valid();
  EXPECT_EQ(kf::parse_manifest_text(j.dump(), kPath).requires_kernforge, "");
  j["requires"]["kernforge"] = "0.2.0-rc1";
  EXPECT_EQ(kf::parse_manifest_text(j.dump(), kPath).requires_kernforge, "0.2.0-rc1");
}

TEST(Manifest, UnknownRequiresKeysAreRefused) {
  for (const char* key : {"cpu_feature", "OS", "arch ", "gpu"}) {
    json j = valid();
    j["requires"][key] = "x";
    const kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << key;
    EXPECT_TRUE(mentions(e.what(), {kPath, "'requires'", std::string("'") + key + "'",
                                    "os, arch, cpu_features, driver and kernforge"}))
        << key;
  }
}

TEST(Manifest, DependenciesAreNamedBySonameOnly) {
  const std::string absolute = std::string(KF_TEST_ROOT) + "/opt/lib/libx.so.1";
  for (const std::string& bad :
       {std::string("sub/libx.so.1"), std::string("../libx.so.1"), absolute,
        std::string("..\\libx.dll"), std::string("C:libx.dll"), std::string(""),
        std::string("."), std::string("lib..x.so"), std::string("libx\n.so")}) {
    json j = valid();
    j["global_deps"] = {bad};
    kf::Error e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << bad;
    EXPECT_TRUE(mentions(e.what(), {kPath, "'global_deps'", "'" + bad + "'", "soname"})) << bad;
    j = valid();
    j["preload"][1]["soname"] = bad;
    e = reject(j);
    EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT) << bad;
    EXPECT_TRUE(mentions(e.what(), {kPath, "'preload'", "'" + bad + "'"})) << bad;
  }
  json j = valid();
  j["global_deps"] = {"libgomp.so.1", "libstdc++.so.6", "cublas64_13.dll", "libfoo-1.2_x+y.so"};
  EXPECT_NO_THROW(kf::parse_manifest_text(j.dump(), kPath));
}

TEST(Manifest, FileReading) {
  const std::string dir = kfunit::make_temp_dir("kf_unit_manifest_");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/cpu.json";
  {
    std::ofstream f(path);
    f << valid().dump();
  }
  const kf::Manifest m = kf::parse_manifest_file(path);
  EXPECT_TRUE(same_path(m.dir, dir));
  EXPECT_TRUE(same_path(m.library_path(), dir + "/libkernforge_cuda.so"));

  {  // a file over the cap is refused without reading all of it
    std::ofstream f(path, std::ios::trunc);
    f << std::string(kf::kMaxManifestBytes * 2, ' ');
  }
  kf::Error e = thrown_by([&] { kf::parse_manifest_file(path); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {path, std::to_string(kf::kMaxManifestBytes)}));

  std::remove(path.c_str());
  e = thrown_by([&] { kf::parse_manifest_file(path); });
  EXPECT_EQ(e.status(), KF_NOT_FOUND);
  EXPECT_TRUE(mentions(e.what(), {path}));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

#if !defined(_WIN32)
TEST(Manifest, FileThatIsNotARegularFileIsRefusedWithoutBlocking) {
  const std::string dir = kfunit::make_temp_dir("kf_unit_manifest_");
  ASSERT_FALSE(dir.empty());
  const std::string fifo = dir + "/fifo.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  // No writer ever comes: a blocking open would never return.
  kf::Error e = thrown_by([&] { kf::parse_manifest_file(fifo); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {fifo, "FIFO"}));
  e = thrown_by([&] { kf::parse_manifest_file(dir); });
  EXPECT_EQ(e.status(), KF_INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(e.what(), {dir}));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
#endif

}  // namespace
