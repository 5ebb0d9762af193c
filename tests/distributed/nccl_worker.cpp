// The nccl plugin's checks (backends/nccl; docs/distributed.md), through the C ABI only. Modes:
//   unavailable <folder>          where the plugin is not loaded (no NVIDIA driver: its gate):
//                                 kf_comm_create with "cuda:nccl" is KF_NOT_FOUND, and the
//                                 message names the plugin and why (libcuda.so.1). Where it is
//                                 loaded, prints SKIPPED and exits 0.
//   gpu <rank> <world> <folder> <timeout_ms>
//                                 one rank (world 1 in ctest: one GPU) over file://: every
//                                 collective and reduction for float32, float64, float16,
//                                 bfloat16, int8, uint8, int32 and int64 against a host
//                                 reference, sizes 0, 1, 7 and 1003; a work tested and waited
//                                 for; barrier; bool refused naming the dtype; a send to its
//                                 own rank refused; split by color and with no color. Where
//                                 the plugin is not loaded (no GPU driver, no NCCL), prints
//                                 SKIPPED with the reason and exits 0.
// Rank r's element i is (i % 5) + r + 1, which every dtype holds exactly, and so do the
// results for a few ranks. Prints what failed and exits 1, or exits 0.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernforge/kernforge.h"

namespace {

int g_failures = 0;
int g_checks = 0;

void expect(bool ok, const std::string& what) {
  ++g_checks;
  if (ok) return;
  ++g_failures;
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
}

bool ok(kf_status_t s, const std::string& what) {
  expect(s == KF_OK, what + ": " + kf_status_name(s) + " " +
                         (s == KF_OK ? "" : kf_last_error_message()));
  return s == KF_OK;
}

struct Job {
  int rank = 0;
  int world = 1;
  std::string folder;
  int64_t timeout_ms = 30000;
  kf_device_t gpu{};
};

kf_status_t make_comm(const Job& j, kf_comm_t* out) {
  const std::string url = "file://" + j.folder;
  kf_comm_options_t o{};
  o.struct_size = sizeof o;
  o.engine = "cuda:nccl";
  o.rendezvous = url.c_str();
  o.rank = j.rank;
  o.world_size = j.world;
  o.timeout_ms = j.timeout_ms;
  return kf_comm_create(&o, out);
}

double value(int rank, int64_t i) { return static_cast<double>(i % 5 + rank + 1); }

std::vector<double> values(int rank, int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = value(rank, i);
  return v;
}

// A tensor of `dtype` on the GPU holding `v` (made as float64 on the cpu, then converted).
kf_tensor_t gpu_tensor(const Job& j, const std::vector<double>& v, kf_dtype_t dtype) {
  const int64_t shape[1] = {static_cast<int64_t>(v.size())};
  kf_tensor_t host = nullptr, out = nullptr;
  const double none = 0;
  ok(kf_tensor_from_data(v.empty() ? &none : v.data(), shape, 1, KF_FLOAT64, kf_device_cpu(),
                         &host), "kf_tensor_from_data");
  ok(kf_tensor_to(host, j.gpu, dtype, &out), "kf_tensor_to cuda");
  kf_tensor_release(host);
  return out;
}

std::vector<double> read_back(kf_tensor_t t) {
  int64_t n = 0;
  kf_tensor_numel(t, &n);
  std::vector<double> v(static_cast<size_t>(n));
  kf_tensor_t host = nullptr;
  if (ok(kf_tensor_to(t, kf_device_cpu(), KF_FLOAT64, &host), "kf_tensor_to cpu") && n > 0) {
    ok(kf_tensor_copy_to_host(host, v.data(), v.size() * sizeof(double)), "copy_to_host");
  }
  kf_tensor_release(host);
  return v;
}

void expect_equal(const std::vector<double>& got, const std::vector<double>& want,
                  const std::string& what) {
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = got[i] == want[i];
  expect(same, what + ": the result differs from the host reference");
}

double reduce(kf_reduce_op_t op, int world, int64_t i, bool integral) {
  double acc = value(0, i);
  for (int r = 1; r < world; ++r) {
    const double x = value(r, i);
    if (op == KF_REDUCE_SUM || op == KF_REDUCE_AVG) acc += x;
    if (op == KF_REDUCE_PROD) acc *= x;
    if (op == KF_REDUCE_MIN) acc = std::min(acc, x);
    if (op == KF_REDUCE_MAX) acc = std::max(acc, x);
  }
  if (op != KF_REDUCE_AVG) return acc;
  return integral ? std::trunc(acc / world) : acc / world;
}

std::vector<double> reduced(kf_reduce_op_t op, int world, int64_t n, bool integral) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = reduce(op, world, i, integral);
  return v;
}

std::string label(const char* call, kf_dtype_t dtype, int64_t n) {
  return std::string(call) + " " + kf_dtype_name(dtype) + " n=" + std::to_string(n);
}

void check_all_reduce(const Job& j, kf_comm_t c, kf_dtype_t dtype, int64_t n) {
  const bool integral = dtype != KF_FLOAT32 && dtype != KF_FLOAT64 && dtype != KF_FLOAT16 &&
                        dtype != KF_BFLOAT16;
  for (kf_reduce_op_t op : {KF_REDUCE_SUM, KF_REDUCE_PROD, KF_REDUCE_MIN, KF_REDUCE_MAX,
                            KF_REDUCE_AVG}) {
    kf_tensor_t t = gpu_tensor(j, values(j.rank, n), dtype);
    const std::string what = label("all_reduce", dtype, n) + " " + kf_reduce_op_name(op);
    if (ok(kf_all_reduce(c, t, op, nullptr), what)) {
      expect_equal(read_back(t), reduced(op, j.world, n, integral), what);
    }
    kf_tensor_release(t);
  }
}

void check_broadcast(const Job& j, kf_comm_t c, kf_dtype_t dtype, int64_t n) {
  kf_tensor_t t = gpu_tensor(j, values(j.rank, n), dtype);
  const std::string what = label("broadcast", dtype, n);
  if (ok(kf_broadcast(c, t, 0, nullptr), what)) expect_equal(read_back(t), values(0, n), what);
  kf_tensor_release(t);
}

void check_all_gather(const Job& j, kf_comm_t c, kf_dtype_t dtype, int64_t n) {
  kf_tensor_t in = gpu_tensor(j, values(j.rank, n), dtype);
  kf_tensor_t out = gpu_tensor(j, std::vector<double>(static_cast<size_t>(n * j.world)), dtype);
  std::vector<double> want;
  for (int r = 0; r < j.world; ++r) {
    const std::vector<double> part = values(r, n);
    want.insert(want.end(), part.begin(), part.end());
  }
  const std::string what = label("all_gather", dtype, n);
  if (ok(kf_all_gather(c, out, in, nullptr), what)) expect_equal(read_back(out), want, what);
  kf_tensor_release(in);
  kf_tensor_release(out);
}

void check_reduce_scatter(const Job& j, kf_comm_t c, kf_dtype_t dtype, int64_t n) {
  kf_tensor_t in = gpu_tensor(j, values(j.rank, n * j.world), dtype);
  kf_tensor_t out = gpu_tensor(j, std::vector<double>(static_cast<size_t>(n)), dtype);
  const std::vector<double> all = reduced(KF_REDUCE_SUM, j.world, n * j.world, false);
  const std::vector<double> want(all.begin() + j.rank * n, all.begin() + (j.rank + 1) * n);
  const std::string what = label("reduce_scatter", dtype, n);
  if (ok(kf_reduce_scatter(c, out, in, KF_REDUCE_SUM, nullptr), what)) {
    expect_equal(read_back(out), want, what);
  }
  kf_tensor_release(in);
  kf_tensor_release(out);
}

// A work handed back, tested, then waited for.
void check_work(const Job& j, kf_comm_t c) {
  kf_tensor_t t = gpu_tensor(j, values(j.rank, 1003), KF_FLOAT32);
  kf_work_t w = nullptr;
  if (ok(kf_all_reduce(c, t, KF_REDUCE_SUM, &w), "all_reduce with a work")) {
    bool done = false;
    ok(kf_work_test(w, &done), "kf_work_test");
    ok(kf_work_wait(w), "kf_work_wait");
    ok(kf_work_test(w, &done), "kf_work_test after the wait");
    expect(done, "kf_work_test says done after kf_work_wait");
    expect_equal(read_back(t), reduced(KF_REDUCE_SUM, j.world, 1003, false), "the work's result");
  }
  kf_work_release(w);
  kf_tensor_release(t);
}

void check_refusals(const Job& j, kf_comm_t c) {
  kf_tensor_t b = gpu_tensor(j, values(j.rank, 7), KF_BOOL);
  const kf_status_t s = kf_all_reduce(c, b, KF_REDUCE_MAX, nullptr);
  const std::string m = s == KF_OK ? "" : kf_last_error_message();
  expect(s == KF_INVALID_ARGUMENT && m.find("bool") != std::string::npos,
         "all_reduce of bool is KF_INVALID_ARGUMENT naming bool; got " +
             std::string(kf_status_name(s)) + " " + m);
  kf_tensor_release(b);
  kf_tensor_t t = gpu_tensor(j, values(j.rank, 7), KF_FLOAT32);
  const kf_status_t self = kf_send(c, t, j.rank, 0, nullptr);
  expect(self == KF_INVALID_ARGUMENT, std::string("a send to its own rank is refused; got ") +
                                          kf_status_name(self));
  kf_tensor_release(t);
}

void check_split(const Job& j, kf_comm_t c) {
  kf_comm_t sub = nullptr;
  if (ok(kf_comm_split(c, 0, j.rank, &sub), "kf_comm_split color 0")) {
    kf_tensor_t t = gpu_tensor(j, values(j.rank, 7), KF_FLOAT32);
    if (ok(kf_all_reduce(sub, t, KF_REDUCE_SUM, nullptr), "all_reduce on the split")) {
      expect_equal(read_back(t), reduced(KF_REDUCE_SUM, j.world, 7, false), "the split's sum");
    }
    kf_tensor_release(t);
    ok(kf_comm_destroy(sub), "kf_comm_destroy of the split");
  }
  kf_comm_t none = nullptr;
  if (ok(kf_comm_split(c, KF_COMM_NO_COLOR, 0, &none), "kf_comm_split with no color")) {
    expect(none == nullptr, "a rank of no color gets no communicator");
  }
}

int run_gpu(Job& j) {
  ok(kf_device_parse(("cuda:" + std::to_string(j.rank)).c_str(), &j.gpu), "kf_device_parse");
  if (j.world == 1) j.gpu.index = 0;
  kf_comm_t c = nullptr;
  const kf_status_t s = make_comm(j, &c);
  if (s == KF_NOT_FOUND) {  // no driver or no NCCL here: the plugin is not loaded
    std::printf("SKIPPED: %s\n", kf_last_error_message());
    return 0;
  }
  if (!ok(s, "kf_comm_create cuda:nccl")) return 1;
  for (kf_dtype_t dtype : {KF_FLOAT32, KF_FLOAT64, KF_FLOAT16, KF_BFLOAT16, KF_INT8, KF_UINT8,
                           KF_INT32, KF_INT64}) {
    for (int64_t n : {0, 1, 7, 1003}) {
      check_all_reduce(j, c, dtype, n);
      check_broadcast(j, c, dtype, n);
      check_all_gather(j, c, dtype, n);
      check_reduce_scatter(j, c, dtype, n);
    }
  }
  check_work(j, c);
  ok(kf_barrier(c, nullptr), "kf_barrier");
  check_refusals(j, c);
  check_split(j, c);
  ok(kf_comm_destroy(c), "kf_comm_destroy");
  return 0;
}

int run_unavailable(const std::string& folder) {
  Job j;
  j.folder = folder;
  j.timeout_ms = 5000;
  kf_comm_t c = nullptr;
  const kf_status_t s = make_comm(j, &c);
  if (s == KF_OK) {
    std::printf("SKIPPED: the nccl plugin is loaded here (an NVIDIA driver is present)\n");
    kf_comm_destroy(c);
    return 0;
  }
  const std::string m = kf_last_error_message();
  expect(s == KF_NOT_FOUND, std::string("kf_comm_create cuda:nccl is KF_NOT_FOUND; got ") +
                                kf_status_name(s) + " " + m);
  expect(m.find("nccl") != std::string::npos && m.find("libcuda.so.1") != std::string::npos,
         "the message names the plugin and why it is not loaded (libcuda.so.1): " + m);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  int rc = 2;
  if (mode == "unavailable" && argc == 3) {
    rc = run_unavailable(argv[2]);
  } else if (mode == "gpu" && argc == 6) {
    Job j;
    j.rank = std::atoi(argv[2]);
    j.world = std::atoi(argv[3]);
    j.folder = argv[4];
    j.timeout_ms = std::atoll(argv[5]);
    rc = run_gpu(j);
  } else {
    std::fprintf(stderr, "usage: %s unavailable <folder> | gpu <rank> <world> <folder> "
                         "<timeout_ms>\n", argv[0]);
    return 2;
  }
  std::printf("%d checks, %d failed\n", g_checks, g_failures);
  return rc != 0 || g_failures != 0 ? 1 : 0;
}
