// env:// rendezvous (runtime/distributed/rendezvous_env.cpp): the rank and world size given or
// from RANK and WORLD_SIZE, their agreement, MASTER_ADDR and MASTER_PORT, and the messages that
// name the variable at fault. POSIX only (env:// is not available on Windows).
#if !defined(_WIN32)

#include <gtest/gtest.h>

#include <stdlib.h>

#include <map>
#include <string>

#include "core/error.hpp"
#include "distributed/rendezvous.hpp"

namespace {

// Sets the job's variables for one test ("" unsets) and unsets them after it.
class JobVariables : public ::testing::Test {
 protected:
  void set(const std::map<std::string, std::string>& vars) {
    for (const auto& [name, value] : vars) {
      if (value.empty()) {
        unsetenv(name.c_str());
      } else {
        setenv(name.c_str(), value.c_str(), 1);
      }
    }
  }
  void TearDown() override {
    for (const char* n : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}) unsetenv(n);
  }
  // The status and message of env:// for these arguments.
  static kf_status_t refused(int32_t rank, int32_t world, std::string& message) {
    try {
      (void)kf::resolve_rendezvous("env://", rank, world);
      return KF_OK;
    } catch (const kf::Error& e) {
      message = e.what();
      return e.status();
    }
  }
};

TEST_F(JobVariables, TakesTheVariables) {
  set({{"RANK", "1"}, {"WORLD_SIZE", "3"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "29500"}});
  const kf::Rendezvous rv = kf::resolve_rendezvous("env://", -1, -1);
  EXPECT_EQ(rv.rank, 1);
  EXPECT_EQ(rv.world_size, 3);
  EXPECT_EQ(rv.url, "tcp://127.0.0.1:29500");
  EXPECT_EQ(rv.store_port, 29500);
  const kf::Rendezvous same = kf::resolve_rendezvous("env://", 1, 3);  // agreeing values
  EXPECT_EQ(same.rank, 1);
}

TEST_F(JobVariables, ExplicitValuesWithoutRankVariables) {
  set({{"MASTER_ADDR", "::1"}, {"MASTER_PORT", "29501"}});
  const kf::Rendezvous rv = kf::resolve_rendezvous("env://", 0, 2);
  EXPECT_EQ(rv.world_size, 2);
  EXPECT_EQ(rv.url, "tcp://[::1]:29501");
}

TEST_F(JobVariables, EachFaultIsNamed) {
  const struct {
    std::map<std::string, std::string> vars;
    int32_t rank, world;
    const char* named;
  } cases[] = {
      {{{"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}}, -1, 2, "RANK"},
      {{{"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}}, 0, -1, "WORLD_SIZE"},
      {{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}}, 1, -1,
       "RANK=0"},
      {{{"RANK", "0"}, {"WORLD_SIZE", "two"}, {"MASTER_ADDR", "h"}}, -1, -1, "WORLD_SIZE='two'"},
      {{{"RANK", "5"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}, -1, -1, "rank 5"},
      {{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "1"}}, -1, -1, "MASTER_ADDR"},
      {{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "70000"}}, -1,
       -1, "MASTER_PORT='70000'"},
  };
  for (const auto& c : cases) {
    TearDown();
    set(c.vars);
    std::string message;
    EXPECT_EQ(refused(c.rank, c.world, message), KF_INVALID_ARGUMENT) << c.named;
    EXPECT_NE(message.find(c.named), std::string::npos) << message;
  }
}

}  // namespace

#endif  // !_WIN32
