// On a GPU (CTest label requires-gpu-nvidia; requires-gpu-amd for rocm): every kernel family
// of the backend against the CPU backend on the same inputs, contiguous and strided, in each
// floating dtype. The conformance suite checks both against a double-precision reference; this
// checks that the two backends agree with each other to a few units in the last place.
#include <string>
#include <vector>

#include "gpu_test_util.hpp"

namespace cuda_test {
namespace {

const kf::Dtype kFloats[] = {kf::Dtype::Float32, kf::Dtype::Float64, kf::Dtype::Float16,
                             kf::Dtype::BFloat16};

/// Keeps the tensors of a call's arguments alive: a kf::Value holds a tensor's handle, not a
/// reference.
struct Keep {
  std::vector<kf::Tensor> tensors;
  kf::Value operator()(const kf::Tensor& t) {
    tensors.push_back(t);
    return kf::Value(tensors.back());
  }
};

/// `op` called with `args` built by `make(device, keep)` on the GPU and on the CPU; the results
/// agree.
template <class Make>
void expect_same(const char* op, kf::Dtype d, Make make, double rtol_scale = 1.0) {
  Keep keep_cpu, keep_gpu;
  keep_cpu.tensors.reserve(16);
  keep_gpu.tensors.reserve(16);
  const std::vector<kf::Value> on_cpu = make(kf::Device::cpu(), keep_cpu);
  const std::vector<kf::Value> on_gpu = make(kf::Device(KF_TEST_GPU_BACKEND ":0"), keep_gpu);
  kf_op_t handle = nullptr;
  ASSERT_EQ(kf_op_find(op, &handle), KF_OK) << op;
  auto run = [&](const std::vector<kf::Value>& args) {
    std::vector<kf_value_t> boxed;
    for (const kf::Value& a : args) boxed.push_back(a.c());
    kf_value_t result{};
    kf::detail::check(kf_op_call(handle, boxed.data(), static_cast<int32_t>(boxed.size()),
                                 &result, 1));
    return kf::Tensor::adopt(result.v.tensor);
  };
  const kf::Tensor want = run(on_cpu);
  const kf::Tensor got = run(on_gpu);
  EXPECT_EQ(got.device(), kf::Device(KF_TEST_GPU_BACKEND ":0")) << op;
  const double rtol = rtol_for(want.dtype()) * rtol_scale;
  EXPECT_TRUE(close(got, want, rtol, rtol)) << op << " in " << kf::dtype_name(d);
}

/// A (rows x cols) input of dtype d on `device`, transposed when `strided` (a non-contiguous
/// view); `positive` shifts it above 0.1 (for log, sqrt, rsqrt, pow).
kf::Tensor input(kf::Device device, kf::Dtype d, bool strided, bool positive = false,
                 uint64_t seed = 7) {
  kf::Tensor x = strided ? cpu_randn({65, 33}, seed).transpose(0, 1) : cpu_randn({33, 65}, seed);
  if (positive) x = x.abs().add(kf::full({1}, 0.1, kf::Dtype::Float32));
  return x.to(device, d);
}

TEST_F(Gpu, UnaryOpsAgreeWithTheCpu) {
  const char* any_sign[] = {"neg", "abs", "exp", "relu", "sigmoid", "tanh", "sin", "cos",
                            "erf", "gelu", "silu", "floor", "ceil", "round", "sign"};
  const char* positive[] = {"log", "sqrt", "rsqrt", "reciprocal"};
  for (kf::Dtype d : kFloats) {
    for (bool strided : {false, true}) {
      for (const char* op : any_sign) {
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided))};
        });
      }
      for (const char* op : positive) {
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided, true))};
        });
      }
    }
  }
}

TEST_F(Gpu, BinaryAndCompareOpsAgreeWithTheCpu) {
  const char* ops[] = {"sub", "mul", "div", "maximum", "minimum", "eq", "ne", "lt",
                       "le",  "gt",  "ge",  "logical_and", "logical_or"};
  for (kf::Dtype d : kFloats) {
    for (bool strided : {false, true}) {
      for (const char* op : ops) {
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided, false, 7)),
                                        k(input(dev, d, !strided, false, 8))};
        });
      }
      expect_same("add", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided)),
                                      k(input(dev, d, false, false, 9)), kf::Scalar(0.5)};
      });
      expect_same("pow", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided, true)),
                                      k(input(dev, d, false, false, 9))};
      }, 4.0);
      expect_same("where", d, [&](kf::Device dev, Keep& k) {
        const kf::Tensor c = input(dev, d, false).gt(input(dev, d, true, false, 8));
        return std::vector<kf::Value>{k(c), k(input(dev, d, strided)),
                                      k(input(dev, d, false, false, 9))};
      });
      expect_same("clamp", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided)), kf::Scalar(-0.5),
                                      kf::Scalar(0.7)};
      });
    }
  }
}

TEST_F(Gpu, ReductionsAgreeWithTheCpu) {
  for (kf::Dtype d : kFloats) {
    for (bool strided : {false, true}) {
      for (const char* op : {"sum", "mean", "amax", "amin"}) {
        for (int64_t dim : {0, 1}) {
          expect_same(op, d, [&](kf::Device dev, Keep& k) {
            return std::vector<kf::Value>{k(input(dev, d, strided)), kf::IntArrayRef{dim},
                                          true};
          }, 8.0);
        }
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided))};
        }, 64.0);
      }
      for (const char* op : {"argmax", "argmin"}) {
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided)), int64_t{1}, false};
        });
      }
      for (const char* op : {"var", "std"}) {
        expect_same(op, d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided)), kf::IntArrayRef{1},
                                        kf::Scalar(int64_t{1}), false};
        }, 8.0);
      }
      expect_same("logsumexp", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided)), kf::IntArrayRef{0}, false};
      }, 8.0);
      expect_same("cumsum", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided)), int64_t{1}};
      }, 64.0);
      expect_same("prod", d, [&](kf::Device dev, Keep& k) {
        return std::vector<kf::Value>{k(input(dev, d, strided, true)), kf::IntArrayRef{0},
                                      false};
      }, 64.0);
    }
  }
}

TEST_F(Gpu, LongReductionsAgreeWithTheCpu) {
  // One output of 2^24 elements: the split into partial results and their combination.
  expect_same("sum", kf::Dtype::Float64, [&](kf::Device dev, Keep& k) {
    return std::vector<kf::Value>{k(cpu_randn({1 << 24}).to(dev, kf::Dtype::Float64))};
  });
  expect_same("amax", kf::Dtype::Float32, [&](kf::Device dev, Keep& k) {
    return std::vector<kf::Value>{k(cpu_randn({1 << 24}).to(dev))};
  });
}

TEST_F(Gpu, RowOpsAgreeWithTheCpu) {
  for (kf::Dtype d : kFloats) {
    for (bool strided : {false, true}) {
      for (const char* op : {"softmax", "log_softmax"}) {
        for (int64_t dim : {0, 1}) {
          expect_same(op, d, [&](kf::Device dev, Keep& k) {
            return std::vector<kf::Value>{k(input(dev, d, strided)), dim};
          }, 8.0);
        }
      }
    }
    expect_same("layer_norm", d, [&](kf::Device dev, Keep& k) {
      return std::vector<kf::Value>{k(input(dev, d, false)), kf::IntArrayRef{65},
                                    k(cpu_randn({65}, 3).to(dev, d)),
                                    k(cpu_randn({65}, 4).to(dev, d)), 1e-5};
    }, 8.0);
    expect_same("rms_norm", d, [&](kf::Device dev, Keep& k) {
      return std::vector<kf::Value>{k(input(dev, d, false)), kf::IntArrayRef{65},
                                    k(cpu_randn({65}, 3).to(dev, d)), 1e-6};
    }, 8.0);
  }
}

TEST_F(Gpu, MatrixProductsAgreeWithTheCpu) {
  for (kf::Dtype d : kFloats) {
    const double scale = d == kf::Dtype::Float64 ? 1e3 : 64.0;  // K = 129 terms
    expect_same("mm", d, [&](kf::Device dev, Keep& k) {
      return std::vector<kf::Value>{k(cpu_randn({257, 129}, 1).to(dev, d)),
                                    k(cpu_randn({129, 65}, 2).to(dev, d))};
    }, scale);
    expect_same("mm", d, [&](kf::Device dev, Keep& k) {  // transposed operands
      return std::vector<kf::Value>{k(cpu_randn({129, 257}, 1).to(dev, d).transpose(0, 1)),
                                    k(cpu_randn({65, 129}, 2).to(dev, d).transpose(0, 1))};
    }, scale);
    expect_same("bmm", d, [&](kf::Device dev, Keep& k) {
      return std::vector<kf::Value>{k(cpu_randn({3, 40, 50}, 1).to(dev, d)),
                                    k(cpu_randn({3, 50, 30}, 2).to(dev, d))};
    }, scale);
    expect_same("addmm", d, [&](kf::Device dev, Keep& k) {
      return std::vector<kf::Value>{k(cpu_randn({65}, 5).to(dev, d)),
                                    k(cpu_randn({33, 129}, 1).to(dev, d)),
                                    k(cpu_randn({129, 65}, 2).to(dev, d)), kf::Scalar(0.5),
                                    kf::Scalar(2.0)};
    }, scale);
  }
  expect_same("mm", kf::Dtype::Int32, [&](kf::Device dev, Keep& k) {
    const kf::Tensor nine = kf::full({1}, 9.0);
    return std::vector<kf::Value>{k(cpu_randn({37, 41}, 1).mul(nine).to(dev, kf::Dtype::Int32)),
                                  k(cpu_randn({41, 23}, 2).mul(nine).to(dev, kf::Dtype::Int32))};
  });
}

TEST_F(Gpu, CastsAgreeWithTheCpu) {
  for (int from = 0; from < KF_DTYPE_COUNT; ++from) {
    for (int to = 0; to < KF_DTYPE_COUNT; ++to) {
      expect_same("to_dtype", static_cast<kf::Dtype>(to), [&](kf::Device dev, Keep& k) {
        const kf::Tensor x = cpu_randn({17, 9}).mul(kf::full({1}, 50.0));
        return std::vector<kf::Value>{k(x.to(dev, static_cast<kf::Dtype>(from))),
                                      static_cast<kf::Dtype>(to)};
      });
    }
  }
}

TEST_F(Gpu, IndexingAgreesWithTheCpu) {
  expect_same("index_select", kf::Dtype::Float32, [&](kf::Device dev, Keep& k) {
    return std::vector<kf::Value>{
        k(input(dev, kf::Dtype::Float32, true)), int64_t{1},
        k(kf::tensor({int64_t{3}, int64_t{0}, int64_t{64}, int64_t{3}}).to(dev))};
  });
  expect_same("gather", kf::Dtype::Float32, [&](kf::Device dev, Keep& k) {
    return std::vector<kf::Value>{
        k(input(dev, kf::Dtype::Float32, false)), int64_t{0},
        k(kf::tensor({int64_t{0}, int64_t{32}, int64_t{5}, int64_t{1}}, {2, 2}).to(dev))};
  });
  for (kf::Dtype d : {kf::Dtype::Float32, kf::Dtype::Float16, kf::Dtype::Int64}) {
    for (bool strided : {false, true}) {
      for (const std::vector<int64_t>& dims :
           {std::vector<int64_t>{0}, std::vector<int64_t>{-1}, std::vector<int64_t>{0, 1}}) {
        expect_same("flip", d, [&](kf::Device dev, Keep& k) {
          return std::vector<kf::Value>{k(input(dev, d, strided)), kf::IntArrayRef(dims)};
        });
      }
    }
  }
}

}  // namespace
}  // namespace cuda_test
