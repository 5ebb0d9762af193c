// kernforge_bench_allreduce: kf_all_reduce through the collective engines next to the engines
// called directly, float32 sum, 1 KiB to 256 MiB, in the manner of osu_allreduce (a timed loop
// per size, about 20 ms of calls; the slowest rank's time per call; the median of the
// repetitions). Not a test.
//
//   mpirun -np 2 --oversubscribe <build>/bin/kernforge_bench_allreduce
//          [--min-kib 1] [--max-mib 256]       (sizes: powers of 4 between them)
//          [--mpi-only]                        (not the gloo pair)
//
// Five ways, on one buffer per rank, interleaved within each repetition:
//   mpi      MPI_Allreduce(MPI_IN_PLACE, ...) on a duplicate of MPI_COMM_WORLD
//   mpi nb   MPI_Iallreduce(MPI_IN_PLACE, ...) and MPI_Wait: MPI's nonblocking collective,
//            which kf's mpi plugin starts below 4 MiB (Open MPI: libnbc's algorithms)
//   kf mpi   kf_all_reduce over "cpu:mpi" (mpi:// rendezvous), waiting for it (out = NULL)
//   gloo     gloo::allreduce (gloo::AllreduceOptions) on a gloo context over the TCP transport
//            on loopback, met through gloo's FileStore, as the gloo plugin makes its own
//   kf gloo  kf_all_reduce over "cpu:gloo" (file:// rendezvous in the same folder)
// The benchmark starts MPI itself (so the mpi plugin takes the application's MPI) and uses
// MPI only for its own barriers and the slowest rank's time. docs/benchmarks.md has the figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "kernforge/kernforge.h"

#if defined(KF_BENCH_HAVE_GLOO)
#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>
#endif

namespace {

struct Setup {
  int rank = 0;
  int world = 1;
  MPI_Comm comm = MPI_COMM_NULL;  // the benchmark's own: barriers and the slowest time
  std::string folder;             // gloo's rendezvous, made by rank 0
  size_t min_bytes = size_t{1} << 10;
  size_t max_bytes = size_t{256} << 20;
  bool gloo = true;                // --mpi-only: not the gloo pair
};

using Call = std::function<void(float*, size_t)>;

struct Way {
  const char* name;
  Call call;
};

void check(kf_status_t s, const char* what) {
  if (s == KF_OK) return;
  std::fprintf(stderr, "%s: %s %s\n", what, kf_status_name(s), kf_last_error_message());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// Rank 0 makes a fresh folder; every rank gets its name.
std::string shared_folder(const Setup& s) {
  char name[256] = "/tmp/kf-bench-allreduce-XXXXXX";
  if (s.rank == 0 && mkdtemp(name) == nullptr) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, s.comm);
  return name;
}

kf_comm_t kf_comm(const char* engine, const std::string& url, const Setup& s) {
  kf_comm_options_t o{};
  o.struct_size = sizeof o;
  o.engine = engine;
  o.rendezvous = url.c_str();
  o.rank = s.rank;
  o.world_size = s.world;
  o.timeout_ms = 600000;
  kf_comm_t c = nullptr;
  check(kf_comm_create(&o, &c), "kf_comm_create");
  return c;
}

// kf_all_reduce on a tensor over the caller's buffer (no copy).
Call kf_way(kf_comm_t comm) {
  return [comm](float* data, size_t n) {
    const int64_t shape[1] = {static_cast<int64_t>(n)};
    kf_tensor_t t = nullptr;
    check(kf_tensor_from_blob(data, shape, nullptr, 1, KF_FLOAT32, kf_device_cpu(), nullptr,
                              nullptr, &t), "kf_tensor_from_blob");
    check(kf_all_reduce(comm, t, KF_REDUCE_SUM, nullptr), "kf_all_reduce");
    kf_tensor_release(t);
  };
}

Call mpi_way(MPI_Comm comm) {
  return [comm](float* data, size_t n) {
    MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_FLOAT, MPI_SUM, comm);
  };
}

Call mpi_nonblocking_way(MPI_Comm comm) {
  return [comm](float* data, size_t n) {
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Iallreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_FLOAT, MPI_SUM, comm, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  };
}

#if defined(KF_BENCH_HAVE_GLOO)
std::shared_ptr<gloo::Context> gloo_context(const Setup& s) {
  gloo::transport::tcp::attr attr;
  attr.iface = "lo";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  gloo::rendezvous::FileStore files(s.folder);
  gloo::rendezvous::PrefixStore store("bench", files);
  auto context = std::make_shared<gloo::rendezvous::Context>(s.rank, s.world);
  context->setTimeout(std::chrono::minutes(10));
  context->connectFullMesh(store, device);
  return context;
}

Call gloo_way(std::shared_ptr<gloo::Context> context) {
  auto tag = std::make_shared<uint32_t>(1);
  return [context, tag](float* data, size_t n) {
    using Fn = void (*)(void*, const void*, const void*, size_t);
    gloo::AllreduceOptions opts(context);
    opts.setOutput(data, n);
    opts.setReduceFunction(static_cast<Fn>(&gloo::sum<float>));
    opts.setTag((*tag)++);
    gloo::allreduce(opts);
  };
}
#endif

std::vector<Way> ways(const Setup& s) {
  MPI_Comm direct = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &direct);
  std::vector<Way> out = {{"mpi", mpi_way(direct)},
                          {"mpi nb", mpi_nonblocking_way(direct)},
                          {"kf mpi", kf_way(kf_comm("cpu:mpi", "mpi://", s))}};
#if defined(KF_BENCH_HAVE_GLOO)
  if (!s.gloo) return out;
  out.push_back({"gloo", gloo_way(gloo_context(s))});
  out.push_back({"kf gloo", kf_way(kf_comm("cpu:gloo", "file://" + s.folder, s))});
#endif
  return out;
}

// The slowest rank's seconds for `calls` calls, all ranks starting together.
double time_loop(const Setup& s, const Call& call, std::vector<float>& buffer, int calls) {
  MPI_Barrier(s.comm);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call(buffer.data(), buffer.size());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, s.comm);
  return seconds;
}

// Seconds per call: one timed warm-up call sets how many calls fill about 20 ms (1 to 100, the
// same on every rank), then those calls are timed.
double time_calls(const Setup& s, const Call& call, std::vector<float>& buffer) {
  const double first = time_loop(s, call, buffer, 1);
  const int calls = static_cast<int>(std::clamp(0.02 / std::max(first, 1e-9), 1.0, 100.0));
  return time_loop(s, call, buffer, calls) / calls;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string size_text(size_t bytes) {
  return bytes >= (size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB"
                                    : std::to_string(bytes >> 10) + " KiB";
}

void print_header(const Setup& s, const std::vector<Way>& w) {
  if (s.rank != 0) return;
  std::printf("ranks: %d; float32 sum; microseconds per call (median of the repetitions)\n",
              s.world);
  std::printf("| size | reps |");
  for (const Way& way : w) std::printf(" %s |", way.name);
  std::printf(" kf mpi / mpi | kf mpi / mpi nb | kf gloo / gloo |\n|---|---:|");
  for (size_t i = 0; i < w.size() + 3; ++i) std::printf("---:|");
  std::printf("\n");
}

void print_row(const Setup& s, size_t bytes, int reps, const std::vector<double>& us) {
  if (s.rank != 0) return;
  std::printf("| %s | %d |", size_text(bytes).c_str(), reps);
  for (const double u : us) std::printf(" %.1f |", u);
  // The speed of kf's call next to the engine's own: the engine's time over kf's.
  std::printf(" %.2fx | %.2fx |", us[0] / us[2], us[1] / us[2]);
  if (us.size() == 5) std::printf(" %.2fx |", us[3] / us[4]);
  std::printf("\n");
  std::fflush(stdout);
}

void run_size(const Setup& s, const std::vector<Way>& w, size_t bytes) {
  std::vector<float> buffer(bytes / sizeof(float), 0.0f);  // zeros: sums stay exact, no inf
  const int reps = bytes >= (size_t{64} << 20) ? 3 : bytes >= (size_t{4} << 20) ? 7 : 15;
  std::vector<std::vector<double>> seconds(w.size());
  for (int r = 0; r < reps; ++r) {
    for (size_t i = 0; i < w.size(); ++i) {
      seconds[i].push_back(time_calls(s, w[i].call, buffer));
    }
  }
  std::vector<double> us;
  for (const auto& v : seconds) us.push_back(median(v) * 1e6);
  print_row(s, bytes, reps, us);
}

Setup parse(int argc, char** argv) {
  Setup s;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.world);
  MPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mpi-only") == 0) s.gloo = false;
    if (i + 1 == argc) break;
    if (std::strcmp(argv[i], "--max-mib") == 0) {
      s.max_bytes = static_cast<size_t>(std::atol(argv[i + 1])) << 20;
    }
    if (std::strcmp(argv[i], "--min-kib") == 0) {
      s.min_bytes = static_cast<size_t>(std::atol(argv[i + 1])) << 10;
    }
  }
  s.folder = shared_folder(s);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  {
    const Setup s = parse(argc, argv);
    const std::vector<Way> w = ways(s);
    print_header(s, w);
    for (size_t bytes = s.min_bytes; bytes <= s.max_bytes; bytes *= 4) run_size(s, w, bytes);
    MPI_Barrier(s.comm);
  }
  MPI_Finalize();
  return 0;
}
