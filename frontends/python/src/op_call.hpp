// One op of the registry as Python calls it: its handle and what its argument table (the C ABI's
// kf_op_arg_info) says about converting each argument. op_call.cpp converts and calls;
// op_table.cpp hands the tables to the package (_ops.py), which builds the Python functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>

#include "kernforge/kernforge.h"

namespace kfpy {

struct OpArg {
  std::string name;
  int32_t kind = KF_ARG_KIND_TENSOR;  // kf_arg_kind_t
  bool optional = false;              // None is passed on as KF_VALUE_NONE
};

struct Op {
  kf_op_t op = nullptr;
  std::vector<OpArg> args;  // in schema order
  int32_t nreturns = 0;
  bool inplace = false;     // returns its first argument (fill_, copy_): the same Python object
};

/// Whether this frontend converts arguments of `kind` (a newer core may have kinds it does not).
bool converts(int32_t kind) noexcept;

/// The Op of `op`, from the C ABI's argument table. ValueError when an argument has a kind this
/// frontend does not convert.
Op make_op(kf_op_t op);

/// The table of one argument (the C ABI's failure raises).
kf_op_arg_info_t arg_info(kf_op_t op, int32_t index);

void bind_op_table(nanobind::module_& m);

}  // namespace kfpy
