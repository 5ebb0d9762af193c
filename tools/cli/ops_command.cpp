#include "ops_command.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "abi_names.hpp"
#include "cli_error.hpp"
#include "close_names.hpp"
#include "load_report.hpp"
#include "terminal_text.hpp"
#include "text_table.hpp"

namespace kf::cli {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  const int32_t count = kf_backend_count();
  for (int32_t i = 0; i < count; ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    check(kf_backend_info(i, &info), "kf_backend_info(" + std::to_string(i) + ")");
    names.push_back(str(info.name));
  }
  return names;
}

std::vector<kf_op_t> all_ops() {
  std::vector<kf_op_t> ops;
  const int32_t count = kf_op_count();
  for (int32_t i = 0; i < count; ++i) {
    kf_op_t op = nullptr;
    check(kf_op_at(i, &op), "kf_op_at(" + std::to_string(i) + ")");
    ops.push_back(op);
  }
  return ops;
}

kf_kernel_info_t kernel_info(kf_op_t op, int32_t backend, const std::string& backend_name) {
  kf_kernel_info_t info{};
  info.struct_size = sizeof info;
  check(kf_op_kernel_info(op, backend, &info),
        "kf_op_kernel_info(" + str(kf_op_name(op)) + ", " + backend_name + ")");
  return info;
}

/// The index of the loaded CPU backend when the CPU fallback is on (KERNFORGE_CPU_FALLBACK is
/// not 0), else -1.
int32_t cpu_fallback_backend() {
  const char* env = std::getenv("KERNFORGE_CPU_FALLBACK");
  if (env != nullptr && std::string(env) == "0") return -1;
  for (int32_t i = 0; i < kf_backend_count(); ++i) {
    kf_backend_info_t info{};
    info.struct_size = sizeof info;
    if (kf_backend_info(i, &info) == KF_OK && info.state == KF_BACKEND_LOADED &&
        info.device_type == KF_DEVICE_CPU) {
      return i;
    }
  }
  return -1;
}

/// Per backend (kf_backend_info's order), what an unavailable one would run: op -> dtype mask,
/// from the load report's "catalogue" (plugin ABI 2.2; empty for the others).
using Catalogues = std::vector<std::map<std::string, uint32_t>>;

Catalogues catalogues(const std::vector<std::string>& backends) {
  const LoadReport report = parse_load_report(fetch_report_json());
  Catalogues out(backends.size());
  for (size_t i = 0; i < backends.size(); ++i) {
    for (const ReportBackend& b : report.backends) {
      if (b.name != backends[i] || b.state == "loaded") continue;
      for (const auto& [op, mask] : b.catalogue) out[i][op] = mask;
    }
  }
  return out;
}

Json dtype_list(uint32_t mask) {
  Json dtypes = Json::array();
  for (const std::string& d : dtype_short_names(mask)) dtypes.push_back(d);
  return dtypes;
}

/// One backend's kernel for `op`: its kind and native dtypes, and the dtypes its calls take to
/// the CPU fallback (those the CPU backend's kernel has and this backend's does not).
Json kernel_json(kf_op_t op, int32_t backend, const std::string& backend_name, int32_t cpu,
                 const std::map<std::string, uint32_t>& catalogue) {
  const kf_kernel_info_t info = kernel_info(op, backend, backend_name);
  const bool own_dtypes = info.kind != KF_KERNEL_VIEW && info.kind != KF_KERNEL_COMPOSITE;
  uint32_t fallback = 0;
  if (cpu >= 0 && cpu != backend && info.kind == KF_KERNEL_BACKEND) {
    const kf_kernel_info_t c = kernel_info(op, cpu, "cpu");
    if (c.kind == KF_KERNEL_BACKEND) fallback = c.dtype_mask & ~info.dtype_mask;
  }
  const auto listed = catalogue.find(str(kf_op_name(op)));
  return Json{{"backend", backend_name},
              {"kind", kf_kernel_kind_name(info.kind)},
              {"dtypes", dtype_list(own_dtypes ? info.dtype_mask : 0)},
              {"fallback_dtypes", dtype_list(fallback)},
              {"unavailable_dtypes", dtype_list(listed != catalogue.end() ? listed->second : 0)},
              {"provenance", str(info.provenance)}};
}

Json op_json(kf_op_t op, const std::vector<std::string>& backends, const Catalogues& listed) {
  Json kernels = Json::array();
  const int32_t cpu = cpu_fallback_backend();
  for (std::size_t b = 0; b < backends.size(); ++b) {
    kernels.push_back(kernel_json(op, static_cast<int32_t>(b), backends[b], cpu, listed[b]));
  }
  return Json{{"name", str(kf_op_name(op))},
              {"schema", str(kf_op_schema(op))},
              {"doc", str(kf_op_doc(op))},
              {"kernels", kernels}};
}

/// The matrix cell of one kernel: its dtypes for a backend kernel (and after "+fallback:" those
/// that go to the CPU fallback), else the kind ("-" = none); for an unavailable backend, the
/// dtypes it would run in parentheses.
std::string cell(const Json& kernel) {
  const std::string kind = kernel["kind"].get<std::string>();
  const auto would = kernel["unavailable_dtypes"].get<std::vector<std::string>>();
  if (kind == "none" && !would.empty()) return "(" + join(would, ",") + ")";
  if (kind == "backend") {
    std::vector<std::string> dtypes = kernel["dtypes"].get<std::vector<std::string>>();
    std::string text = dtypes.empty() ? "backend" : join(dtypes, ",");
    const auto fallback = kernel["fallback_dtypes"].get<std::vector<std::string>>();
    if (!fallback.empty()) text += " +fallback:" + join(fallback, ",");
    return text;
  }
  if (kind == "backend fallback") return "own fallback";
  return kind == "none" ? "-" : kind;
}

void print_matrix(const Json& ops, const std::vector<std::string>& backends) {
  std::vector<std::string> header{"op"};
  header.insert(header.end(), backends.begin(), backends.end());
  TextTable table(header);
  for (const Json& op : ops) {
    std::vector<std::string> row{op["name"].get<std::string>()};
    for (const Json& k : op["kernels"]) row.push_back(cell(k));
    table.add_row(row);
  }
  table.print(std::cout);
  std::cout << "\n" << ops.size() << " ops x " << backends.size()
            << " backends. Cells: the dtypes of a backend kernel (+fallback: the dtypes its "
               "calls run on the CPU fallback), composite (built from other ops), view (computed "
               "in the core), own fallback (the backend's boxed fallback), fallback (CPU "
               "fallback), (dtypes) (what an unavailable backend would run natively), - "
               "(none).\n";
}

void print_op(const Json& op) {
  std::cout << terminal_safe(op["schema"].get<std::string>()) << "\n"
            << terminal_safe(op["doc"].get<std::string>()) << "\n\n";
  TextTable table({"backend", "kind", "dtypes", "fallback dtypes", "provenance"});
  for (const Json& k : op["kernels"]) {
    const auto would = k["unavailable_dtypes"].get<std::vector<std::string>>();
    const bool listed = k["kind"].get<std::string>() == "none" && !would.empty();
    table.add_row({k["backend"].get<std::string>(),
                   listed ? "unavailable, would run" : k["kind"].get<std::string>(),
                   join(listed ? would : k["dtypes"].get<std::vector<std::string>>(), ","),
                   join(k["fallback_dtypes"].get<std::vector<std::string>>(), ","),
                   k["provenance"].get<std::string>()});
  }
  if (op["kernels"].empty()) {
    std::cout << "no backends loaded\n";
  } else {
    table.print(std::cout);
  }
}

[[noreturn]] void unknown_op(const std::string& name, const std::vector<kf_op_t>& ops) {
  std::vector<std::string> names;
  for (kf_op_t op : ops) names.push_back(str(kf_op_name(op)));
  const std::vector<std::string> close = close_names(name, names);
  std::string message = "unknown op '" + terminal_safe(name) + "'";
  if (!close.empty()) message += "; did you mean: " + terminal_safe(join(close, ", ")) + "?";
  message += " (`kernforge ops` lists all " + std::to_string(names.size()) + " ops)";
  throw CliError(message, kExitUsage);
}

}  // namespace

CLI::App* add_ops_command(CLI::App& app, OpsOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "ops", "The op x backend coverage matrix, or one op's schema and kernels");
  cmd->add_option_function<std::string>(
      "op", [&options](const std::string& name) { options.op = name; },
      "Show this op (e.g. add) instead of the matrix");
  cmd->add_flag("--json", options.json, "Print JSON (schema_version 1) instead of text");
  return cmd;
}

int run_ops(const OpsOptions& options) {
  const std::vector<std::string> backends = backend_names();
  const Catalogues listed = catalogues(backends);
  const std::vector<kf_op_t> ops = all_ops();
  if (options.op) {
    kf_op_t op = nullptr;
    if (options.op->empty() || kf_op_find(options.op->c_str(), &op) != KF_OK || op == nullptr) {
      unknown_op(*options.op, ops);
    }
    const Json entry = op_json(op, backends, listed);
    if (options.json) {
      std::cout << json_text(Json{{"schema_version", 1}, {"op", entry}}) << "\n";
    } else {
      print_op(entry);
    }
    return kExitOk;
  }
  Json entries = Json::array();
  for (kf_op_t op : ops) entries.push_back(op_json(op, backends, listed));
  if (options.json) {
    std::cout << json_text(Json{{"schema_version", 1}, {"backends", backends}, {"ops", entries}})
              << "\n";
  } else {
    print_matrix(entries, backends);
  }
  return kExitOk;
}

}  // namespace kf::cli
