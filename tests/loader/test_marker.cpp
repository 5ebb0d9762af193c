// test_marker.cpp — libkf_test_marker.so.1, a library whose constructor writes "mapped" to the
// file KF_TEST_MARKER_FILE names: a test that preloads it learns whether it was ever mapped
// (test_driver_gate.cpp: a plugin whose driver gate fails must map none of its preloads).
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void write_marker() {
  const char* path = std::getenv("KF_TEST_MARKER_FILE");
  if (path == nullptr || *path == '\0') return;
  if (FILE* f = std::fopen(path, "w")) {
    std::fputs("mapped\n", f);
    std::fclose(f);
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int kf_test_marker_value() { return 7; }
