// schema_plugin.cpp — a test plugin ("schemadev") that defines the ops whose schemas a test
// hands it: one per line of the file named by KF_SCHEMADEV_SCHEMAS, read when it registers.
// Every op gets the same meta function (a 0-dim float32 result) and no kernel: the tests of the
// Python op surface (test_plugin_names.py) bind them and never run them. A schema the core
// refuses makes the whole plugin rejected, with the core's reason in the load report.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "kernforge/host_memory.hpp"
#include "kernforge/plugin.hpp"
#include "kernforge/plugin_table.hpp"

namespace {

std::vector<std::string>& schemas() {
  static std::vector<std::string> lines;
  return lines;
}

void read_schemas() {
  schemas().clear();
  const char* path = std::getenv("KF_SCHEMADEV_SCHEMAS");
  if (path == nullptr) return;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) schemas().push_back(line);
  }
}

kf_status_t scalar_meta(const kf_meta_call_t* m) {
  m->outputs[0].dtype = KF_FLOAT32;
  m->outputs[0].ndim = 0;
  return KF_OK;
}

kf_status_t schemadev_register(void*, const kf_registrar_t* reg) {
  read_schemas();
  for (const std::string& schema : schemas()) {
    kf_op_definition_t def{};
    def.struct_size = sizeof(def);
    def.schema = schema.c_str();
    def.doc = "An op of the test plugin schemadev (never run).";
    def.meta = scalar_meta;
    def.file = __FILE__;
    def.line = __LINE__;
    const kf_status_t s = reg->define_op(reg->ctx, &def);
    if (s != KF_OK) return s;
  }
  return KF_OK;
}

kf_status_t schemadev_init(const kf_host_api_t* host, void** out_state) {
  kf::plugin::host() = host;
  *out_state = nullptr;
  return KF_OK;
}

int32_t schemadev_device_count(void*) { return 1; }

kf_plugin_t make_plugin() {
  kf_plugin_t p = kf::plugin::table("schemadev", "0.1.0");
  p.init = schemadev_init;
  p.device_count = schemadev_device_count;
  p.register_kernels = schemadev_register;
  kf::plugin::host_memory::set_slots(p);
  return p;
}

}  // namespace

KF_PLUGIN_DEFINE(make_plugin)
