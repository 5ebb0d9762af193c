// env:// rendezvous: torchrun's variables (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT; LOCAL_RANK
// is the launcher's, for the program to pick its device, and not read here). An explicit rank or
// world size (not -1) is taken as given, and must equal its variable when that is set too; -1
// takes the variable, which must then be set. MASTER_ADDR and MASTER_PORT are always needed.
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "distributed/rendezvous.hpp"

namespace kf {
#if !defined(_WIN32)
namespace {

// A variable's value as an integer in [lo, hi]; throws naming it when it is not one.
int64_t integer_variable(const char* name, const std::string& text, int64_t lo, int64_t hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0' || v < lo || v > hi) {
    fail(KF_INVALID_ARGUMENT, "env:// rendezvous: {}='{}' is not an integer in {}..{}", name,
         text, lo, hi);
  }
  return v;
}

// The rank or world size: the one given, or its variable's.
int32_t given_or_variable(int32_t given, const char* name, const char* field, int64_t lo) {
  const std::optional<std::string> text = env::job_variable(name);
  if (!text) {
    if (given != -1) return given;
    fail(KF_INVALID_ARGUMENT, "env:// rendezvous: options.{} is -1 (take it from {}), but {} is "
         "not set; start the job with `kernforge run -n N` or torchrun, or give the {}", field,
         name, name, field);
  }
  const auto v = static_cast<int32_t>(integer_variable(name, *text, lo, INT32_MAX));
  if (given != -1 && given != v) {
    fail(KF_INVALID_ARGUMENT, "env:// rendezvous: options.{} is {}, but {}={}; give -1 to take "
         "{}, or the same value", field, given, name, v, name);
  }
  return v;
}

std::string required(const char* name) {
  std::optional<std::string> v = env::job_variable(name);
  if (!v) {
    fail(KF_INVALID_ARGUMENT, "env:// rendezvous: {} is not set; it names where rank 0 serves "
         "the rendezvous (`kernforge run` and torchrun set MASTER_ADDR and MASTER_PORT)", name);
  }
  return *v;
}

}  // namespace
#endif  // !_WIN32

Rendezvous env_rendezvous(int32_t rank, int32_t world_size) {
#if defined(_WIN32)
  (void)rank;
  (void)world_size;
  fail(KF_UNIMPLEMENTED, "rendezvous 'env://' is not available on Windows (the core's key-value "
       "store is POSIX sockets only); use file://<a folder every rank sees>");
#else
  Rendezvous rv;
  rv.world_size = given_or_variable(world_size, "WORLD_SIZE", "world_size", 1);
  rv.rank = given_or_variable(rank, "RANK", "rank", 0);
  check_rank(rv.rank, rv.world_size);
  rv.store_host = required("MASTER_ADDR");
  rv.store_port = static_cast<uint16_t>(
      integer_variable("MASTER_PORT", required("MASTER_PORT"), 1, 65535));
  const bool v6 = rv.store_host.find(':') != std::string::npos;
  rv.url = "tcp://" + (v6 ? "[" + rv.store_host + "]" : rv.store_host) + ":" +
           std::to_string(rv.store_port);
  return rv;
#endif
}

}  // namespace kf
