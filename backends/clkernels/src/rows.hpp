// rows.hpp — launches over the lines along one dim ("rows"), one work-group each: softmax,
// log_softmax (kernels/softmax.cl), cumsum, cumprod (kernels/scan.cl); and the lines themselves
// for kernels that launch otherwise (sort.cl).
#pragma once

#include <cstdint>

#include "clkernels/launch.hpp"
#include "kernforge/plugin.h"
#include "layout.hpp"

namespace kf::clk {

/// The lines of out and self along `dim` (negative wraps; a 0-dim tensor is one line of one
/// element): their length n, self's and out's strides si and so along dim, how many (rows), and
/// the rows' merged layout over the other dims (operand 0 = out, 1 = self).
struct Rows {
  int64_t n = 1;
  int64_t si = 0;
  int64_t so = 0;
  int64_t rows = 0;
  KernelLayout layout;
};
Rows rows_of(const kf_tensor_view_t& out, const kf_tensor_view_t& self, int64_t dim);

/// Launches `kernel` of `program` as kernel(out, self, n, si, so, rows, layout): n the length of
/// a line along `dim` (negative wraps; a 0-dim tensor is one line of one element), si and so
/// self's and out's strides along it, and the rows indexed over the other dims with their
/// merged layout (kf_layout: operand 0 = out, 1 = self). Work-groups of up to 256 items, one per
/// row; nothing runs for an empty output.
void run_rows(const kf_kernel_call_t& call, ProgramKey program, const char* kernel,
              const kf_tensor_view_t& out, const kf_tensor_view_t& self, int64_t dim);

}  // namespace kf::clk
