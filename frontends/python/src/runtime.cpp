// The runtime's functions: start-up with the package's options, versions, the backends and
// devices, the load report, plugins loaded by path, seeds and threads.
#include <climits>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "c_text.hpp"
#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

// kf_init with the roots of the interpreter's site-packages (for plugins' `nvidia/<folder>/lib`
// dependencies). Returns the status rather than raising: KF_FAILED_PRECONDITION only says the
// process started the runtime before (another embedding), which the package accepts.
int32_t init(const std::vector<std::string>& library_roots, int32_t autoload) {
  std::vector<const char*> roots;
  for (const std::string& r : library_roots) roots.push_back(r.c_str());
  kf_init_options_t o{};
  o.struct_size = sizeof o;
  o.autoload = autoload;
  o.log_level = KF_LOG_DEFAULT;
  o.library_roots = roots.empty() ? nullptr : roots.data();
  o.library_root_count = static_cast<int32_t>(roots.size());
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;
    s = kf_init(&o);
  }
  if (s != KF_OK && s != KF_FAILED_PRECONDITION) raise_status(s);
  return s;
}

nb::dict backend(int32_t i) {
  kf_backend_info_t b{};
  b.struct_size = sizeof b;
  check(kf_backend_info(i, &b));
  nb::dict d;
  d["name"] = py_text(b.name);
  d["version"] = py_text(b.version);
  d["device_type"] = py_text(b.device_type_name);
  d["device_count"] = b.device_count;
  d["state"] = kf_backend_state_name(b.state);
  d["reason"] = py_text(b.reason);
  d["library_path"] = py_path(b.library_path);
  d["manifest_path"] = py_path(b.manifest_path);
  d["failure"] = kf_status_name(static_cast<kf_status_t>(b.failure));
  d["details"] = py_text(b.details);
  return d;
}

std::string report_json() {
  size_t needed = 0;
  kf_status_t s = kf_runtime_report_json(nullptr, 0, &needed);
  if (s != KF_OK && s != KF_BUFFER_TOO_SMALL) raise_status(s);
  for (;;) {
    std::string buf(needed, '\0');
    s = kf_runtime_report_json(buf.data(), buf.size(), &needed);
    if (s == KF_OK) {
      buf.resize(buf.find('\0') == std::string::npos ? buf.size() : buf.find('\0'));
      return buf;
    }
    if (s != KF_BUFFER_TOO_SMALL) raise_status(s);  // the report grew meanwhile: try again
  }
}

// Any Python int: one outside int32 is handed to the core as the int32 bound it passes, so that
// the core's own rule (and its message, which names the bounds) refuses it.
void set_num_threads(nb::handle n) {
  if (PyBool_Check(n.ptr()) || !PyLong_Check(n.ptr())) {
    PyErr_Format(PyExc_TypeError, "set_num_threads(n): n must be an int, not %s",
                 Py_TYPE(n.ptr())->tp_name);
    throw nb::python_error();
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  const long long bound = overflow > 0 || v > INT32_MAX ? INT32_MAX
                          : overflow < 0 || v < INT32_MIN ? INT32_MIN : v;
  check(kf_set_num_threads(static_cast<int32_t>(bound)));
}

nb::dict memory_stats(nb::handle device) {
  kf_memory_stats_t m{};
  m.struct_size = sizeof m;
  check(kf_memory_stats(to_device(device, kf_device_cpu()), &m));
  nb::dict d;
  d["allocated_bytes"] = m.allocated_bytes;
  d["reserved_bytes"] = m.reserved_bytes;
  d["peak_allocated_bytes"] = m.peak_allocated_bytes;
  d["num_allocs"] = m.num_allocs;
  d["num_cache_hits"] = m.num_cache_hits;
  return d;
}

}  // namespace

void bind_runtime(nb::module_& m) {
  m.def("init", &init, nb::arg("library_roots"), nb::arg("autoload"));
  m.def("version", []() { return kf_version(); }, "The package version (kf_version()).");
  m.def("abi_version", []() {
    uint32_t major = 0, minor = 0;
    check(kf_abi_version(&major, &minor));
    return nb::make_tuple(major, minor);
  });
  m.def("backend_count", []() { return kf_backend_count(); });
  m.def("backend", &backend, nb::arg("index"), "One backend the loader knows of, as a dict.");
  m.def("report_json", &report_json, "The load report as JSON text.");
  m.def("load_plugin", [](nb::handle p) {
    const std::string path = c_path(p);
    kf_status_t s;
    {
      nb::gil_scoped_release unlocked;
      s = kf_load_plugin(path.c_str());
    }
    check(s);
  }, nb::arg("path"), "Loads a plugin from its manifest or library (an absolute path: str, "
                      "bytes or os.PathLike).");
  m.def("try_load_plugin", [](nb::handle p) {
    const std::string path = c_path(p);
    kf_status_t s;
    {
      nb::gil_scoped_release unlocked;
      s = kf_load_plugin(path.c_str());
    }
    return nb::make_tuple(kf_status_name(s), py_text(s == KF_OK ? "" : kf_last_error_message()));
  }, nb::arg("path"), "kf_load_plugin without raising: (status name, message).");
  m.def("manual_seed", [](uint64_t seed) { check(kf_manual_seed(seed)); }, nb::arg("seed"));
  m.def("synchronize", [](nb::handle device) {
    kf_status_t s;
    const kf_device_t d = to_device(device, kf_device_cpu());
    {
      nb::gil_scoped_release unlocked;
      s = kf_synchronize(d);
    }
    check(s);
  }, nb::arg("device").none() = nb::none());
  m.def("set_num_threads", &set_num_threads, nb::arg("n"));
  m.def("get_num_threads", []() {
    int32_t n = 0;
    check(kf_get_num_threads(&n));
    return n;
  });
  m.def("memory_stats", &memory_stats, nb::arg("device").none() = nb::none());
  m.def("empty_cache", [](nb::handle device) {
    check(kf_empty_cache(to_device(device, kf_device_cpu())));
  }, nb::arg("device").none() = nb::none());
  m.def("promote_types", [](nb::handle a, nb::handle b) {
    kf_dtype_t out;
    check(kf_promote_types(to_dtype(a), to_dtype(b), &out));
    return dtype_object(out);
  }, nb::arg("a"), nb::arg("b"), "PyTorch's promotion of two dtypes.");
}

}  // namespace kfpy
