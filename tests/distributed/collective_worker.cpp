// One rank of the collective tests (run_ranks.py starts them; docs/distributed.md). Through the
// C ABI only, it makes a communicator over "cpu:gloo" with a file:// rendezvous, or over
// "cpu:mpi" when <folder> is "mpi://" (under mpirun; <rank> may be -1, from the launcher), and
// checks every collective and reduction, for every dtype the engine reduces and for sizes 0, 1,
// 7 and 1003, against a double-precision reference it computes itself. Modes:
//   collectives <rank> <world> <folder> <timeout_ms>  every call, against the reference
//                                                     (folder "env://": that rendezvous, where
//                                                     rank and world -1 take RANK, WORLD_SIZE)
//   absent <rank> <world> <folder> <timeout_ms>       a rank never arrives: KF_TIMEOUT from
//                                                     kf_comm_create (env://: every rank is
//                                                     started; KF_TEST_ABSENT_RANK, else the
//                                                     last, stays away)
//   stall <rank> <world> <folder> <timeout_ms>        every rank arrives; the last never calls
//                                                     all_reduce: the others get KF_TIMEOUT
//                                                     (mpi: then KF_FAILED_PRECONDITION)
//   split <rank> <world> <folder> <timeout_ms>        kf_comm_split by parity and with a rank
//                                                     left out; the splits outlive the parent
//   async <rank> <world> <folder> <timeout_ms>        works started before any is waited for
//   abort <rank> <world> <folder> <timeout_ms>        a rank aborts: the other's wait ends at
//                                                     once, later calls fail at once
//   exit <rank> <world> <folder> <timeout_ms>         the last rank exits mid-job: a clear error
//                                                     inside the timeout
//   one-rank <folder>                                 kf_comm_split's checks and kf_comm_abort on
//                                                     a communicator of one rank
//   null-slot <manifest> <folder>                     a plugin without slots: KF_UNIMPLEMENTED
//                                                     naming the engine and the call
//   store-minor <manifest 1.1> <manifest 1.0>         one rank over env://: a plugin of collective
//                                                     ABI 1.1 joins, one of 1.0 is refused
//   mpi-refusals <folder>                             outside mpirun: mpi:// says so, the mpi
//                                                     engine refuses file://, gloo mpi://
// Prints what failed and exits 1, or exits 0.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernforge/kernforge.h"

#if !defined(_WIN32)
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

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
  expect(s == KF_OK, what + ": " + kf_status_name(s) + " " + (s == KF_OK ? "" : kf_last_error_message()));
  return s == KF_OK;
}

struct Job {
  int rank = 0;
  int world = 1;
  std::string folder;
  int64_t timeout_ms = 5000;

  bool mpi() const { return folder == "mpi://"; }
  bool env() const { return folder == "env://"; }
  std::string url() const { return mpi() || env() ? folder : "file://" + folder; }
  const char* engine() const { return mpi() ? "cpu:mpi" : "cpu:gloo"; }
  const char* engine_name() const { return mpi() ? "mpi" : "gloo"; }
};

kf_status_t make_comm(const Job& j, const char* engine, kf_comm_t* out,
                      const std::string& url) {
  kf_comm_options_t o{};
  o.struct_size = sizeof o;
  o.engine = engine;
  o.rendezvous = url.c_str();
  o.rank = j.rank;
  o.world_size = j.world;
  o.timeout_ms = j.timeout_ms;
  return kf_comm_create(&o, out);
}

kf_status_t make_comm(const Job& j, const char* engine, kf_comm_t* out) {
  return make_comm(j, engine, out, j.url());
}

// The job's communicator; the rank the launcher gave (-1 on the command line) is read back.
kf_status_t make_job_comm(Job& j, kf_comm_t* out) {
  const kf_status_t s = make_comm(j, j.engine(), out);
  int32_t rank = -1;
  if (s == KF_OK && kf_comm_rank(*out, &rank) == KF_OK) j.rank = rank;
  return s;
}

// The value rank r holds at element i: small (a product of 4 fits int8), negative at some
// places for signed dtypes.
double value(int r, int64_t i, bool is_signed) {
  const double v = 1.0 + static_cast<double>((i + r) % 3);
  return is_signed && (i + 2 * r) % 4 == 0 ? -v : v;
}

// bool: true at two places of three; sum and max are "any", prod and min "all".
double bool_value(int r, int64_t i) { return (i + r) % 3 != 0 ? 1.0 : 0.0; }

double bool_ref(kf_reduce_op_t op, int world, int64_t i) {
  double acc = bool_value(0, i);
  for (int r = 1; r < world; ++r) {
    const double v = bool_value(r, i);
    acc = op == KF_REDUCE_SUM || op == KF_REDUCE_MAX ? std::fmax(acc, v) : std::fmin(acc, v);
  }
  return acc;
}

double reduce_ref(kf_reduce_op_t op, int world, int64_t i, bool is_signed, bool integer) {
  double acc = value(0, i, is_signed);
  for (int r = 1; r < world; ++r) {
    const double v = value(r, i, is_signed);
    if (op == KF_REDUCE_PROD) acc *= v;
    if (op == KF_REDUCE_MIN) acc = std::fmin(acc, v);
    if (op == KF_REDUCE_MAX) acc = std::fmax(acc, v);
    if (op == KF_REDUCE_SUM || op == KF_REDUCE_AVG) acc += v;
  }
  if (op != KF_REDUCE_AVG) return acc;
  return integer ? std::trunc(acc / world) : acc / world;
}

// Host values <-> the bytes of a dtype.
template <class T>
void fill_as(std::vector<unsigned char>& bytes, const std::vector<double>& v) {
  bytes.resize(v.size() * sizeof(T));
  for (size_t i = 0; i < v.size(); ++i) {
    const T x = static_cast<T>(v[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
  }
}

template <class T>
double read_as(const unsigned char* p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return static_cast<double>(x);
}

#define KF_WORKER_DTYPES(X)                                                                  \
  X(KF_FLOAT32, float) X(KF_FLOAT64, double) X(KF_INT8, int8_t) X(KF_UINT8, uint8_t)         \
  X(KF_INT16, int16_t) X(KF_UINT16, uint16_t) X(KF_INT32, int32_t) X(KF_UINT32, uint32_t)    \
  X(KF_INT64, int64_t) X(KF_UINT64, uint64_t)

// The dtypes the mpi engine adds to gloo's: made from float64 and read back through
// kf_tensor_to (complex: read as pairs, the real parts compared, the imaginary ones zero).
bool converted(kf_dtype_t d) {
  return d == KF_FLOAT16 || d == KF_BFLOAT16 || d == KF_BOOL || d == KF_COMPLEX64 ||
         d == KF_COMPLEX128;
}

bool is_complex(kf_dtype_t d) { return d == KF_COMPLEX64 || d == KF_COMPLEX128; }

kf_tensor_t tensor_of(kf_dtype_t dtype, const std::vector<double>& v);

kf_tensor_t converted_tensor(kf_dtype_t dtype, const std::vector<double>& v) {
  kf_tensor_t wide = tensor_of(KF_FLOAT64, v);
  kf_tensor_t t = nullptr;
  ok(kf_tensor_to(wide, kf_device_cpu(), dtype, &t), std::string("kf_tensor_to ") + kf_dtype_name(dtype));
  kf_tensor_release(wide);
  return t;
}

kf_tensor_t tensor_of(kf_dtype_t dtype, const std::vector<double>& v) {
  if (converted(dtype)) return converted_tensor(dtype, v);
  std::vector<unsigned char> bytes;
#define KF_FILL_(d, T) if (dtype == d) fill_as<T>(bytes, v);
  KF_WORKER_DTYPES(KF_FILL_)
#undef KF_FILL_
  const int64_t shape[1] = {static_cast<int64_t>(v.size())};
  kf_tensor_t t = nullptr;
  static unsigned char none = 0;  // an empty tensor's data: any address
  ok(kf_tensor_from_data(bytes.empty() ? &none : bytes.data(), shape, 1, dtype, kf_device_cpu(),
                         &t), "kf_tensor_from_data");
  return t;
}

std::vector<double> values_of(kf_tensor_t t, kf_dtype_t dtype, size_t n);

// Complex elements as (real, imaginary) pairs of their part type: the real parts, NaN where an
// imaginary part is not zero.
std::vector<double> complex_values(kf_tensor_t t, kf_dtype_t dtype, size_t n) {
  std::vector<unsigned char> bytes(n * kf_dtype_size(dtype) + 1);
  ok(kf_tensor_copy_to_host(t, bytes.data(), bytes.size() - 1), "kf_tensor_copy_to_host");
  const bool wide = dtype == KF_COMPLEX128;
  const size_t part = wide ? sizeof(double) : sizeof(float);
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* p = bytes.data() + 2 * i * part;
    const double re = wide ? read_as<double>(p) : read_as<float>(p);
    const double im = wide ? read_as<double>(p + part) : read_as<float>(p + part);
    out[i] = im == 0.0 ? re : NAN;
  }
  return out;
}

std::vector<double> converted_values(kf_tensor_t t, kf_dtype_t dtype, size_t n) {
  if (is_complex(dtype)) return complex_values(t, dtype, n);
  kf_tensor_t wide = nullptr;
  if (!ok(kf_tensor_to(t, kf_device_cpu(), KF_FLOAT64, &wide), "kf_tensor_to float64")) return {};
  std::vector<double> out = values_of(wide, KF_FLOAT64, n);
  kf_tensor_release(wide);
  return out;
}

std::vector<double> values_of(kf_tensor_t t, kf_dtype_t dtype, size_t n) {
  if (converted(dtype)) return converted_values(t, dtype, n);
  std::vector<unsigned char> bytes(n * kf_dtype_size(dtype) + 1);  // never empty
  ok(kf_tensor_copy_to_host(t, bytes.data(), bytes.size() - 1), "kf_tensor_copy_to_host");
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) {
#define KF_READ_(d, T) if (dtype == d) out[i] = read_as<T>(bytes.data() + i * sizeof(T));
    KF_WORKER_DTYPES(KF_READ_)
#undef KF_READ_
  }
  return out;
}

bool is_half(kf_dtype_t d) { return d == KF_FLOAT16 || d == KF_BFLOAT16; }

bool is_integer(kf_dtype_t d) {
  return d != KF_FLOAT32 && d != KF_FLOAT64 && !is_half(d) && !is_complex(d) && d != KF_BOOL;
}

bool close(double got, double want, kf_dtype_t dtype) {
  const double tolerance = is_half(dtype) ? 1e-2 : 1e-5;
  return is_integer(dtype) || dtype == KF_BOOL
             ? got == want
             : std::fabs(got - want) <= tolerance * std::fmax(1.0, std::fabs(want));
}

void compare(const std::vector<double>& got, const std::vector<double>& want, kf_dtype_t dtype,
             const std::string& what) {
  bool same = got.size() == want.size();
  size_t bad = 0;
  for (size_t i = 0; same && i < got.size(); ++i) {
    if (!close(got[i], want[i], dtype)) {
      same = false;
      bad = i;
    }
  }
  expect(same, what + " " + kf_dtype_name(dtype) + (same || got.size() != want.size() ? "" :
         " at " + std::to_string(bad) + ": got " + std::to_string(got[bad]) + ", want " +
         std::to_string(want[bad])));
}

bool is_signed(kf_dtype_t d) {
  return d != KF_UINT8 && d != KF_UINT16 && d != KF_UINT32 && d != KF_UINT64 && d != KF_BOOL;
}

double value_of(int rank, int64_t i, kf_dtype_t d) {
  return d == KF_BOOL ? bool_value(rank, i) : value(rank, i, is_signed(d));
}

double ref(kf_reduce_op_t op, int world, int64_t i, kf_dtype_t d) {
  return d == KF_BOOL ? bool_ref(op, world, i) : reduce_ref(op, world, i, is_signed(d), is_integer(d));
}

std::vector<double> rank_values(int rank, int64_t n, kf_dtype_t d, int64_t offset = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = value_of(rank, offset + i, d);
  return v;
}

// kf_all_reduce through a work handle: test, wait, release.
void check_all_reduce(const Job& j, kf_comm_t c, kf_dtype_t d, int64_t n, kf_reduce_op_t op) {
  kf_tensor_t t = tensor_of(d, rank_values(j.rank, n, d));
  kf_work_t w = nullptr;
  const std::string what = std::string("all_reduce ") + kf_reduce_op_name(op) + " n=" + std::to_string(n);
  if (ok(kf_all_reduce(c, t, op, &w), what)) {
    bool done = false;
    ok(kf_work_test(w, &done), what + " test");
    ok(kf_work_wait(w), what + " wait");
    ok(kf_work_test(w, &done), what + " test after wait");
    expect(done, what + ": done after wait");
    ok(kf_work_release(w), what + " release");
  }
  std::vector<double> want(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i)] = ref(op, j.world, i, d);
  compare(values_of(t, d, static_cast<size_t>(n)), want, d, what);
  kf_tensor_release(t);
}

void check_broadcast(const Job& j, kf_comm_t c, kf_dtype_t d, int64_t n) {
  for (int root = 0; root < j.world; ++root) {
    kf_tensor_t t = tensor_of(d, rank_values(j.rank, n, d));
    const std::string what = "broadcast root " + std::to_string(root) + " n=" + std::to_string(n);
    ok(kf_broadcast(c, t, root, nullptr), what);
    compare(values_of(t, d, static_cast<size_t>(n)), rank_values(root, n, d), d, what);
    kf_tensor_release(t);
  }
}

void check_all_gather(const Job& j, kf_comm_t c, kf_dtype_t d, int64_t n) {
  kf_tensor_t in = tensor_of(d, rank_values(j.rank, n, d));
  kf_tensor_t out = tensor_of(d, std::vector<double>(static_cast<size_t>(n * j.world), 0.0));
  const std::string what = "all_gather n=" + std::to_string(n);
  ok(kf_all_gather(c, out, in, nullptr), what);
  std::vector<double> want;
  for (int r = 0; r < j.world; ++r) {
    const std::vector<double> v = rank_values(r, n, d);
    want.insert(want.end(), v.begin(), v.end());
  }
  compare(values_of(out, d, want.size()), want, d, what);
  kf_tensor_release(in);
  kf_tensor_release(out);
}

void check_reduce_scatter(const Job& j, kf_comm_t c, kf_dtype_t d, int64_t n, kf_reduce_op_t op) {
  kf_tensor_t in = tensor_of(d, rank_values(j.rank, n * j.world, d));
  kf_tensor_t out = tensor_of(d, std::vector<double>(static_cast<size_t>(n), 0.0));
  const std::string what = std::string("reduce_scatter ") + kf_reduce_op_name(op) + " n=" + std::to_string(n);
  ok(kf_reduce_scatter(c, out, in, op, nullptr), what);
  std::vector<double> want(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    want[static_cast<size_t>(i)] = ref(op, j.world, j.rank * n + i, d);
  }
  compare(values_of(out, d, static_cast<size_t>(n)), want, d, what);
  kf_tensor_release(in);
  kf_tensor_release(out);
}

// A ring, even ranks sending first (the sends wait for their receivers).
void check_send_recv(const Job& j, kf_comm_t c, kf_dtype_t d, int64_t n) {
  const int next = (j.rank + 1) % j.world;
  const int prev = (j.rank + j.world - 1) % j.world;
  kf_tensor_t mine = tensor_of(d, rank_values(j.rank, n, d));
  kf_tensor_t got = tensor_of(d, std::vector<double>(static_cast<size_t>(n), 0.0));
  const std::string what = "send/recv n=" + std::to_string(n);
  for (int phase = 0; phase < 2; ++phase) {
    if ((j.rank % 2 == 0) == (phase == 0)) {
      ok(kf_send(c, mine, next, 7, nullptr), what + " send");
    } else {
      ok(kf_recv(c, got, prev, 7, nullptr), what + " recv");
    }
  }
  compare(values_of(got, d, static_cast<size_t>(n)), rank_values(prev, n, d), d, what);
  kf_tensor_release(mine);
  kf_tensor_release(got);
}

// What the engine reduces: complex numbers have no order, bool no average.
bool reducible(kf_dtype_t d, kf_reduce_op_t op) {
  if (is_complex(d)) return op != KF_REDUCE_MIN && op != KF_REDUCE_MAX;
  return d != KF_BOOL || op != KF_REDUCE_AVG;
}

// The sizes checked; the mpi engine runs a large collective as an arrival barrier and MPI's
// blocking call, from 64 KiB on in the tests (KF_MPI_BLOCKING_BYTES, mpi_tests.cmake), and
// 70000 elements are that much for every dtype.
std::vector<int64_t> sizes(const Job& j) {
  std::vector<int64_t> out = {0, 1, 7, 1003};
  if (j.mpi()) out.push_back(70000);
  return out;
}

void check_dtype(const Job& j, kf_comm_t c, kf_dtype_t d) {
  for (const int64_t n : sizes(j)) {
    for (const kf_reduce_op_t op : {KF_REDUCE_SUM, KF_REDUCE_PROD, KF_REDUCE_MIN, KF_REDUCE_MAX,
                                    KF_REDUCE_AVG}) {
      if (!reducible(d, op)) continue;
      check_all_reduce(j, c, d, n, op);
      check_reduce_scatter(j, c, d, n, op);
    }
    check_broadcast(j, c, d, n);
    check_all_gather(j, c, d, n);
    if (j.world % 2 == 0) check_send_recv(j, c, d, n);
  }
}

bool says(const std::string& what, const char* word);

// What the mpi engine refuses, by its message: an order of complex numbers, an average of bools.
void check_mpi_refusals(kf_comm_t c) {
  kf_tensor_t z = tensor_of(KF_COMPLEX64, std::vector<double>(3, 1.0));
  expect(kf_all_reduce(c, z, KF_REDUCE_MAX, nullptr) == KF_INVALID_ARGUMENT, "complex max");
  says("complex max", "complex numbers have no order");
  kf_tensor_t b = tensor_of(KF_BOOL, std::vector<double>(3, 1.0));
  expect(kf_all_reduce(c, b, KF_REDUCE_AVG, nullptr) == KF_INVALID_ARGUMENT, "bool avg");
  says("bool avg", "bool has no average");
  kf_tensor_release(z);
  kf_tensor_release(b);
}

// Works ended in another order than they started, differently on each rank: rank 0 tests the
// large all_reduce until it is done before it starts the small one; the others start both,
// wait for the small one, then the large one. Both are right on every rank.
void check_out_of_order(const Job& j, kf_comm_t c) {
  const int64_t large = 70000, small = 7;
  kf_tensor_t a = tensor_of(KF_FLOAT32, rank_values(j.rank, large, KF_FLOAT32));
  kf_tensor_t b = tensor_of(KF_FLOAT32, rank_values(j.rank, small, KF_FLOAT32));
  kf_work_t wa = nullptr, wb = nullptr;
  ok(kf_all_reduce(c, a, KF_REDUCE_SUM, &wa), "out of order: the large all_reduce");
  bool done = false;
  while (j.rank == 0 && !done && ok(kf_work_test(wa, &done), "out of order: test")) {}
  ok(kf_all_reduce(c, b, KF_REDUCE_SUM, &wb), "out of order: the small all_reduce");
  ok(kf_work_wait(wb), "out of order: wait for the small one");
  ok(kf_work_wait(wa), "out of order: wait for the large one");
  kf_work_release(wb);
  kf_work_release(wa);
  for (const auto& [t, n] : {std::pair{a, large}, std::pair{b, small}}) {
    std::vector<double> want(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i)] = ref(KF_REDUCE_SUM, j.world, i, KF_FLOAT32);
    compare(values_of(t, KF_FLOAT32, static_cast<size_t>(n)), want, KF_FLOAT32, "out of order n=" + std::to_string(n));
    kf_tensor_release(t);
  }
}

int run_collectives(Job j) {
  const int given_rank = j.rank, given_world = j.world;
  kf_comm_t c = nullptr;
  if (!ok(make_job_comm(j, &c), "kf_comm_create")) return 1;
  int32_t world = -1;
  ok(kf_comm_world_size(c, &world), "kf_comm_world_size");
  expect((given_rank == -1 || given_rank == j.rank) && (given_world == -1 || world == given_world),
         "rank and world size");
  j.world = world;  // env:// with -1: the rendezvous's
  std::vector<kf_dtype_t> dtypes;
#define KF_LIST_DTYPE_(d, T) dtypes.push_back(d);
  KF_WORKER_DTYPES(KF_LIST_DTYPE_)
#undef KF_LIST_DTYPE_
  if (j.mpi()) {
    dtypes.insert(dtypes.end(), {KF_FLOAT16, KF_BFLOAT16, KF_BOOL, KF_COMPLEX64, KF_COMPLEX128});
  }
  for (const kf_dtype_t d : dtypes) check_dtype(j, c, d);
  if (j.mpi()) {
    check_out_of_order(j, c);
    check_mpi_refusals(c);
  }
  ok(kf_barrier(c, nullptr), "kf_barrier");
  ok(kf_comm_destroy(c), "kf_comm_destroy");
  expect(kf_comm_destroy(c) == KF_INVALID_ARGUMENT, "a destroyed communicator is refused");
  return 0;
}

bool says(const std::string& what, const char* word) {
  const std::string message = kf_last_error_message();
  const bool found = message.find(word) != std::string::npos;
  expect(found, what + ": the message names '" + word + "': " + message);
  return found;
}

// env://: the ranks are all started (`kernforge run`); rank KF_TEST_ABSENT_RANK (else the last)
// stays away until the others have timed out.
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

bool stays_away(const Job& j) {
  if (j.folder != "env://") return false;
  const int away = env_int("KF_TEST_ABSENT_RANK", env_int("WORLD_SIZE", 0) - 1);
  if (env_int("RANK", -1) != away) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(3 * j.timeout_ms));
  return true;
}

int run_absent(Job j) {
  if (stays_away(j)) return 0;
  kf_comm_t c = nullptr;
  const kf_status_t s = make_job_comm(j, &c);
  expect(s == KF_TIMEOUT, std::string("a rank that never arrives: KF_TIMEOUT, got ") +
                              kf_status_name(s) + " " + kf_last_error_message());
  if (s == KF_OK) kf_comm_destroy(c);
  return 0;
}

int run_stall(Job j) {
  kf_comm_t c = nullptr;
  if (!ok(make_job_comm(j, &c), "kf_comm_create")) return 1;
  if (j.rank == j.world - 1) {  // never calls: stays alive past the others' timeout
    std::this_thread::sleep_for(std::chrono::milliseconds(3 * j.timeout_ms));
  } else {
    kf_tensor_t t = tensor_of(KF_FLOAT32, std::vector<double>(16, 1.0));
    const kf_status_t s = kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr);
    expect(s == KF_TIMEOUT, std::string("a rank that never calls: KF_TIMEOUT, got ") +
                                kf_status_name(s) + " " + kf_last_error_message());
    says("the timeout", j.engine_name());
    if (j.mpi()) {  // MPI cannot cancel the call: the communicator refuses the next one
      const kf_status_t again = kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr);
      expect(again == KF_FAILED_PRECONDITION, std::string("a call after a timeout: "
             "KF_FAILED_PRECONDITION, got ") + kf_status_name(again));
      says("a call after a timeout", "timed out");
    }
    kf_tensor_release(t);
  }
  kf_comm_destroy(c);
  return 0;
}

// The sum of rank + 1 over the ranks r for which keep(r).
template <class Keep>
double sum_of_ranks(int world, Keep keep) {
  double sum = 0;
  for (int r = 0; r < world; ++r) sum += keep(r) ? r + 1 : 0;
  return sum;
}

// kf_all_reduce of this rank's rank + 1 over `c` equals `want`.
void check_rank_sum(kf_comm_t c, int rank, double want, const std::string& what) {
  kf_tensor_t t = tensor_of(KF_FLOAT64, std::vector<double>(3, rank + 1.0));
  ok(kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr), what);
  compare(values_of(t, KF_FLOAT64, 3), std::vector<double>(3, want), KF_FLOAT64, what);
  kf_tensor_release(t);
}

// The parity split: ranks of one parity, ranked by key -rank (the highest first).
kf_comm_t check_parity_split(const Job& j, kf_comm_t c) {
  kf_comm_t sub = nullptr;
  if (!ok(kf_comm_split(c, j.rank % 2, -j.rank, &sub), "kf_comm_split by parity")) return nullptr;
  int32_t rank = -1, world = -1;
  ok(kf_comm_rank(sub, &rank), "kf_comm_rank of the split");
  ok(kf_comm_world_size(sub, &world), "kf_comm_world_size of the split");
  int want_rank = 0, want_world = 0;
  for (int r = 0; r < j.world; ++r) {
    if (r % 2 != j.rank % 2) continue;
    ++want_world;
    want_rank += r > j.rank ? 1 : 0;
  }
  expect(rank == want_rank && world == want_world, "the split's rank " + std::to_string(rank) +
         " of " + std::to_string(world) + ", want " + std::to_string(want_rank) + " of " +
         std::to_string(want_world));
  check_rank_sum(sub, j.rank, sum_of_ranks(j.world, [&](int r) { return r % 2 == j.rank % 2; }),
                 "all_reduce on the parity split");
  return sub;
}

// kf_comm_split by parity, then with the last rank in no group; the sub-communicators outlive
// their parent.
int run_split(Job j) {
  kf_comm_t c = nullptr;
  if (!ok(make_job_comm(j, &c), "kf_comm_create")) return 1;
  ok(kf_comm_world_size(c, &j.world), "kf_comm_world_size");  // env:// with -1: the rendezvous's
  kf_comm_t sub = nullptr;
  expect(kf_comm_split(c, -5, 0, &sub) == KF_INVALID_ARGUMENT && sub == nullptr,
         "a negative color other than KF_COMM_NO_COLOR is refused");
  says("a negative color", "KF_COMM_NO_COLOR");
  sub = check_parity_split(j, c);
  const bool last = j.rank == j.world - 1;
  kf_comm_t part = nullptr;
  ok(kf_comm_split(c, last ? KF_COMM_NO_COLOR : 7, j.rank, &part), "kf_comm_split, one left out");
  expect((part == nullptr) == last, "only the rank of no color gets no communicator");
  ok(kf_comm_destroy(c), "the parent destroyed before its sub-communicators");
  if (part != nullptr) {
    check_rank_sum(part, j.rank, sum_of_ranks(j.world, [&](int r) { return r != j.world - 1; }),
                   "all_reduce on the split without the last rank");
    ok(kf_comm_destroy(part), "kf_comm_destroy of the split");
  }
  if (sub != nullptr) {
    ok(kf_barrier(sub, nullptr), "a barrier on the parity split after its parent was destroyed");
    ok(kf_comm_destroy(sub), "kf_comm_destroy of the parity split");
  }
  return 0;
}

// Several calls started before any is waited for, waited for in reverse, and one released
// without a wait: each ends with its own result.
int run_async(const Job& j) {
  kf_comm_t c = nullptr;
  if (!ok(make_comm(j, "cpu:gloo", &c), "kf_comm_create")) return 1;
  const int64_t n = 4099;
  std::vector<kf_tensor_t> ts;
  std::vector<kf_work_t> ws(4, nullptr);
  for (int k = 0; k < 3; ++k) {
    ts.push_back(tensor_of(KF_FLOAT32, std::vector<double>(n, j.rank + k)));
    ok(kf_all_reduce(c, ts.back(), KF_REDUCE_SUM, &ws[k]), "an all_reduce started");
  }
  ts.push_back(tensor_of(KF_FLOAT32, std::vector<double>(n, j.rank + 10)));
  ok(kf_broadcast(c, ts.back(), j.world - 1, &ws[3]), "a broadcast started after them");
  for (int k = 3; k >= 0; --k) {
    ok(kf_work_wait(ws[k]), "kf_work_wait, in reverse");
    ok(kf_work_release(ws[k]), "kf_work_release");
  }
  const double ranks = j.world * (j.world - 1) / 2.0;
  for (int k = 0; k < 3; ++k) {
    compare(values_of(ts[k], KF_FLOAT32, n), std::vector<double>(n, ranks + j.world * k),
            KF_FLOAT32, "an asynchronous all_reduce");
  }
  compare(values_of(ts[3], KF_FLOAT32, n), std::vector<double>(n, j.world - 1 + 10), KF_FLOAT32,
          "an asynchronous broadcast");
  kf_work_t w = nullptr;
  ok(kf_all_reduce(c, ts[0], KF_REDUCE_MAX, &w), "an all_reduce released without a wait");
  ok(kf_work_release(w), "kf_work_release of a running work");
  compare(values_of(ts[0], KF_FLOAT32, n), std::vector<double>(n, ranks), KF_FLOAT32,
          "a work released without a wait has ended");
  for (kf_tensor_t t : ts) kf_tensor_release(t);
  ok(kf_comm_destroy(c), "kf_comm_destroy");
  return 0;
}

// Rank 0 waits for an all_reduce that rank 1 never makes; rank 1 aborts its communicator
// instead. Rank 0's wait ends with KF_UNAVAILABLE (its peer closed the connections) long before
// the timeout, and its later calls fail at once naming that failure; rank 1's later calls fail
// at once naming the abort.
int run_abort(const Job& j) {
  kf_comm_t c = nullptr;
  if (!ok(make_comm(j, "cpu:gloo", &c), "kf_comm_create")) return 1;
  kf_tensor_t t = tensor_of(KF_FLOAT32, std::vector<double>(64, 1.0));
  if (j.rank != 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ok(kf_comm_abort(c), "kf_comm_abort");
    expect(kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr) == KF_UNAVAILABLE, "a call after abort");
    says("a call after the abort", "aborted");
    std::this_thread::sleep_for(std::chrono::milliseconds(j.timeout_ms / 2));
  } else {
    kf_work_t w = nullptr;
    ok(kf_all_reduce(c, t, KF_REDUCE_SUM, &w), "an all_reduce started");
    const auto start = std::chrono::steady_clock::now();
    const kf_status_t s = kf_work_wait(w);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start).count();
    expect(s == KF_UNAVAILABLE && ms < j.timeout_ms / 4, std::string("the wait on a peer that "
           "aborted: ") + kf_status_name(s) + " after " + std::to_string(ms) + " ms");
    ok(kf_work_release(w), "kf_work_release of the failed work");
    expect(kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr) == KF_UNAVAILABLE, "a call after a failure");
    says("a call after a failure", "earlier call");
  }
  kf_tensor_release(t);
  ok(kf_comm_destroy(c), "kf_comm_destroy");
  return 0;
}

// The last rank exits after a barrier without leaving; the others' next all_reduce ends with a
// clear error (the lost peer, or the timeout) inside the timeout.
int run_exit(const Job& j) {
  kf_comm_t c = nullptr;
  if (!ok(make_comm(j, "cpu:gloo", &c), "kf_comm_create")) return 1;
  ok(kf_barrier(c, nullptr), "kf_barrier");
  if (j.rank == j.world - 1) std::_Exit(0);
  kf_tensor_t t = tensor_of(KF_FLOAT32, std::vector<double>(1024, 1.0));
  const auto start = std::chrono::steady_clock::now();
  const kf_status_t s = kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start).count();
  expect((s == KF_UNAVAILABLE || s == KF_TIMEOUT) && ms < j.timeout_ms + 2000,
         std::string("a peer gone mid-job: ") + kf_status_name(s) + " after " +
         std::to_string(ms) + " ms: " + kf_last_error_message());
  says("a peer gone mid-job", "gloo");
  kf_tensor_release(t);
  kf_comm_destroy(c);
  return 0;
}

// A communicator of one rank: the argument checks of kf_comm_split, its splits (of no color and
// of one), and kf_comm_abort of the parent, whose split lives on.
int one_rank_checks(const Job& j) {
  kf_comm_t c = nullptr;
  if (!ok(make_comm(j, "cpu:gloo", &c), "kf_comm_create of one rank")) return 1;
  kf_comm_t sub = nullptr;
  expect(kf_comm_split(c, 0, 0, nullptr) == KF_INVALID_ARGUMENT, "a NULL out");
  says("a NULL out", "out");
  expect(kf_comm_split(c, -2, 0, &sub) == KF_INVALID_ARGUMENT, "color -2");
  says("color -2", "color -2");
  ok(kf_comm_split(c, KF_COMM_NO_COLOR, 0, &sub), "a split of no color");
  expect(sub == nullptr, "a split of no color gives no communicator");
  ok(kf_comm_split(c, 3, 9, &sub), "a split of one color");
  int32_t rank = -1, world = -1;
  ok(kf_comm_rank(sub, &rank), "kf_comm_rank of the split");
  ok(kf_comm_world_size(sub, &world), "kf_comm_world_size of the split");
  expect(rank == 0 && world == 1, "the split of one rank is rank 0 of 1");
  ok(kf_comm_abort(c), "kf_comm_abort");
  expect(kf_barrier(c, nullptr) == KF_UNAVAILABLE, "a barrier after the abort");
  says("a barrier after the abort", "aborted");
  kf_comm_t none = nullptr;
  expect(kf_comm_split(c, 0, 0, &none) == KF_UNAVAILABLE, "a split after the abort");
  says("a split after the abort", "aborted");
  ok(kf_barrier(sub, nullptr), "a split lives on when its parent is aborted");
  ok(kf_comm_destroy(c), "kf_comm_destroy of the aborted parent");
  ok(kf_comm_destroy(sub), "kf_comm_destroy of the split");
  return 0;
}

int run_one_rank(const char* folder) {
  namespace fs = std::filesystem;
  const fs::path fresh = fs::path(folder) / ("one-rank-" + std::to_string(
      std::chrono::steady_clock::now().time_since_epoch().count()));  // gloo's keys: a new folder
  fs::create_directories(fresh);
  Job j;
  j.folder = fresh.generic_string();
  const int rc = one_rank_checks(j);
  std::error_code ec;
  fs::remove_all(fresh, ec);
  return rc;
}

int run_null_slot(const char* manifest, const char* folder) {
  if (!ok(kf_load_plugin(manifest), std::string("kf_load_plugin ") + manifest)) return 1;
  Job j;
  j.folder = folder;
  kf_comm_t c = nullptr;
  if (!ok(make_comm(j, "cpu:nullcoll", &c), "kf_comm_create cpu:nullcoll")) return 1;
  kf_tensor_t t = tensor_of(KF_FLOAT32, std::vector<double>(4, 1.0));
  expect(kf_all_reduce(c, t, KF_REDUCE_SUM, nullptr) == KF_UNIMPLEMENTED, "an empty slot");
  says("an empty slot", "nullcoll") && says("an empty slot", "all_reduce");
  expect(kf_barrier(c, nullptr) == KF_UNIMPLEMENTED, "an empty barrier slot");
  says("an empty barrier slot", "barrier");
  kf_tensor_release(t);
  ok(kf_comm_destroy(c), "kf_comm_destroy");
  expect(make_comm(j, "cpu:nosuch", &c) == KF_NOT_FOUND, "an engine no plugin has");
  says("an engine no plugin has", "nullcoll");
  return 0;
}

#if !defined(_WIN32)
// A port nobody listens on now, for MASTER_PORT.
std::string free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  (void)bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  (void)getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return std::to_string(ntohs(a.sin_port));
}

int run_store_minor(const char* manifest, const char* old_manifest) {
  if (!ok(kf_load_plugin(manifest), std::string("kf_load_plugin ") + manifest)) return 1;
  if (!ok(kf_load_plugin(old_manifest), std::string("kf_load_plugin ") + old_manifest)) return 1;
  setenv("MASTER_ADDR", "127.0.0.1", 1);
  setenv("MASTER_PORT", free_port().c_str(), 1);
  setenv("RANK", "0", 1);
  setenv("WORLD_SIZE", "1", 1);
  Job j{-1, -1, "env://", 5000};
  kf_comm_t c = nullptr;
  if (ok(make_comm(j, "cpu:nullcoll", &c), "kf_comm_create env:// cpu:nullcoll")) {
    ok(kf_comm_destroy(c), "kf_comm_destroy");
  }
  const kf_status_t s = make_comm(j, "cpu:nullcoll10", &c);
  expect(s == KF_UNIMPLEMENTED, std::string("a collective ABI 1.0 plugin over env://: ") +
                                    kf_status_name(s));
  says("a 1.0 plugin", "nullcoll10") && says("a 1.0 plugin", "1.0");
  j.rank = 1;  // RANK=0 says otherwise
  expect(make_comm(j, "cpu:nullcoll", &c) == KF_INVALID_ARGUMENT, "a rank RANK disagrees with");
  says("a rank RANK disagrees with", "RANK=0");
  return 0;
}
#else
int run_store_minor(const char*, const char*) { return 1; }  // env:// is POSIX only
#endif

void set_env(const char* name, const char* value) {
#if defined(_WIN32)
  _putenv_s(name, value);
#else
  setenv(name, value, 1);
#endif
}

// Outside mpirun: mpi:// says the process was not started by it; with a launcher's variables
// set by hand, the mpi engine refuses file:// and gloo refuses mpi://, each naming what it takes.
int run_mpi_refusals(const char* folder) {
  Job j;
  j.folder = "mpi://";
  j.rank = -1;
  j.world = -1;
  kf_comm_t c = nullptr;
  expect(make_comm(j, "cpu:mpi", &c) == KF_INVALID_ARGUMENT, "mpi:// outside mpirun");
  says("mpi:// outside mpirun", "mpirun");
  j.folder = folder;
  j.rank = 0;
  j.world = 1;
  expect(make_comm(j, "cpu:mpi", &c) == KF_UNIMPLEMENTED, "the mpi engine and file://");
  says("the mpi engine and file://", "mpi://");
  set_env("OMPI_COMM_WORLD_RANK", "0");
  set_env("OMPI_COMM_WORLD_SIZE", "1");
  expect(make_comm(j, "cpu:gloo", &c, "mpi://") == KF_UNIMPLEMENTED, "gloo and mpi://");
  says("gloo and mpi://", "file://");
  j.rank = 1;
  j.world = 2;
  expect(make_comm(j, "cpu:mpi", &c, "mpi://") == KF_INVALID_ARGUMENT, "a rank mpirun did not give");
  says("a rank mpirun did not give", "OMPI_COMM_WORLD_SIZE");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  int rc = 2;
  if (mode == "null-slot" && argc == 4) {
    rc = run_null_slot(argv[2], argv[3]);
  } else if (mode == "store-minor" && argc == 4) {
    rc = run_store_minor(argv[2], argv[3]);
  } else if (mode == "one-rank" && argc == 3) {
    rc = run_one_rank(argv[2]);
  } else if (mode == "mpi-refusals" && argc == 3) {
    rc = run_mpi_refusals(argv[2]);
  } else if (argc == 6) {
    Job j{std::atoi(argv[2]), std::atoi(argv[3]), argv[4], std::atoll(argv[5])};
    if (mode == "collectives") rc = run_collectives(j);
    if (mode == "absent") rc = run_absent(j);
    if (mode == "stall") rc = run_stall(j);
    if (mode == "split") rc = run_split(j);
    if (mode == "async") rc = run_async(j);
    if (mode == "abort") rc = run_abort(j);
    if (mode == "exit") rc = run_exit(j);
  }
  if (rc == 2) {
    std::fprintf(stderr, "usage: %s collectives|absent|stall|split|async|abort|exit <rank> "
                 "<world> <folder> <timeout_ms> | null-slot <manifest> <folder> | store-minor "
                 "<manifest> <manifest 1.0> | one-rank <folder> | mpi-refusals <folder>\n", argv[0]);
    return 2;
  }
  std::printf("%s: %d checks, %d failed\n", mode.c_str(), g_checks, g_failures);
  return g_failures == 0 && rc == 0 ? 0 : 1;
}
