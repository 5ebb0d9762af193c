// sort, argsort and searchsorted (kernels/sort.cl), with the CPU backend's semantics and dtype
// sets (every real dtype and bool): every sort stable, NaN above +inf, -0 equal to +0 with each
// zero's sign kept in input order, positions int64. A line is sorted by the bitonic network in
// local-memory blocks of B places and global passes between them (Note [Bitonic lines]):
// n log^2 n comparisons, no scratch memory (argsort sorts in its int64 output, sort in its
// output).
//
// The block width B: a power of two whose keys and elements (16 bytes a place) fit the
// device's local memory, at most kCpuBlock on devices that run a work-group's items in
// sequence (PoCL: local memory is ordinary memory; a sort of 1M float32 took 268 ms with
// 8192, 314 ms with 2048, 293 ms with 16384, load 4) and kGpuBlock elsewhere (using half of
// the local memory, leaving room for a second work-group); no wider than the line's power of
// two. It depends on the shapes and the device only.
#include <string>

#include "clkernels/kernels.hpp"
#include "kernforge/dtypes.hpp"
#include "ops.hpp"
#include "rows.hpp"
#include "run.hpp"
#include "schedule.hpp"

namespace kf::clk {
namespace {

namespace ops = kf::plugin::ops;

constexpr int64_t kCpuBlock = int64_t{1} << 13;
constexpr int64_t kGpuBlock = int64_t{1} << 11;
constexpr int64_t kPlaceBytes = 16;  // a key and an element (argsort's: 8 + 8)
constexpr size_t kZeroGroup = 256;   // KF_SORT_GROUP in sort.cl

int64_t ceil_pow2(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

/// The block width for lines whose power of two is P (see the file's comment).
int64_t block_width(const Capabilities& caps, int64_t P) {
  const bool cpu = items_run_in_sequence(caps);
  const int64_t local = static_cast<int64_t>(caps.local_memory) / (cpu ? 1 : 2);
  int64_t b = cpu ? kCpuBlock : kGpuBlock;
  while (b > 2 && b * kPlaceBytes > local) b /= 2;
  return b < P ? b : P;
}

/// The work-group of a block kernel: one item where the device runs items in sequence (the
/// barrier between steps then costs more than the comparators of a step; measured on PoCL at
/// load 4.7, before the selects: 1M float32 in 355 ms with one item, 490 ms with 16, 700 ms
/// with 64), else up to 256 items (and the device's limit), one per comparator of a step at
/// most.
size_t block_group(const Capabilities& caps, int64_t B) {
  if (items_run_in_sequence(caps)) return 1;
  size_t g = 256;
  while (g > caps.max_work_group && g > 1) g /= 2;
  while (g > 1 && static_cast<int64_t>(g) > B / 2) g /= 2;
  return g;
}

/// One sort of lines: the arguments every kernel of sort.cl starts with.
struct SortCall {
  const kf_kernel_call_t* call;
  Device* device;
  ProgramKey program;
  std::string name;  // "sort" or "argsort"
  const kf_tensor_view_t* out;
  const kf_tensor_view_t* self;
  Rows r;
  int32_t flags;

  Launch start(const std::string& kernel) const {
    Launch launch;
    launch.program = program;
    launch.kernel = kernel.c_str();
    launch.arg(pointer_arg(out->data)).arg(pointer_arg(self->data));
    launch.arg(value_arg(r.n)).arg(value_arg(r.si)).arg(value_arg(r.so));
    launch.arg(value_arg(r.rows)).arg(value_arg(r.layout)).arg(value_arg(flags));
    return launch;
  }
};

/// NAME_block over every block of every line: mode bit 0 merge, 1 first, 2 last.
void run_blocks(const SortCall& s, int32_t mode, const int64_t& B, int64_t element_bytes) {
  const std::string kernel = s.name + "_block";
  Launch launch = s.start(kernel);
  launch.arg(value_arg(mode)).arg(value_arg(B));
  launch.arg(local_arg(static_cast<size_t>(B) * 8));
  launch.arg(local_arg(static_cast<size_t>(B * element_bytes)));
  const size_t group = block_group(s.device->capabilities(), B);
  const int64_t blocks = (s.r.n + B - 1) / B;
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = static_cast<size_t>(s.r.rows * blocks) * group;
  run(*s.call, *s.device, launch);
}

/// NAME_step (k, j) over every line.
void run_step(const SortCall& s, const int64_t& k, const int64_t& j, const int64_t& half) {
  const std::string kernel = s.name + "_step";
  Launch launch = s.start(kernel);
  launch.arg(value_arg(k)).arg(value_arg(j)).arg(value_arg(half));
  set_range_1d(launch, *s.device, s.r.rows * half);
  run(*s.call, *s.device, launch);
}

/// Sorts the lines of self along dim into out: values, or (positions) argsort's int64.
void sort_lines(const kf_kernel_call_t& call, const kf_tensor_view_t& out,
                const kf_tensor_view_t& self, int64_t dim, bool descending, bool positions) {
  if (out.numel == 0) return;
  SortCall s{&call, &device_of(call, out), {Family::Sort, self.dtype},
             positions ? "argsort" : "sort", &out, &self, rows_of(out, self, dim), 0};
  const int64_t key_bytes = dtype_bytes(self.dtype);
  const bool packed = positions && key_bytes <= 4 && s.r.n <= (int64_t{1} << 32);
  s.flags = (descending ? 1 : 0) | (packed ? 2 : 0);
  const int64_t P = ceil_pow2(s.r.n), half = P / 2;
  const int64_t B = block_width(s.device->capabilities(), P);
  const int64_t element_bytes = positions ? 8 : key_bytes;
  run_blocks(s, B == P ? 2 | 4 : 2, B, element_bytes);
  for (int64_t k = 2 * B; k <= P; k *= 2) {
    for (int64_t j = k / 2; j >= B; j /= 2) run_step(s, k, j, half);
    run_blocks(s, k == P ? 1 | 4 : 1, B, element_bytes);
  }
  if (positions || dtype_kind(self.dtype) != 'f') return;
  const std::string kernel = "sort_zero_signs";
  Launch launch = s.start(kernel);
  // One item a row on a CPU device (a work-group's items would run in turn, with barriers).
  size_t group = items_run_in_sequence(s.device->capabilities()) ? 1 : kZeroGroup;
  while (group > s.device->capabilities().max_work_group && group > 1) group /= 2;
  launch.dims = 1;
  launch.local[0] = group;
  launch.global[0] = static_cast<size_t>(s.r.rows) * group;
  run(call, *s.device, launch);
}

void require_same_dtype(const kf_tensor_view_t& t, int32_t dtype, const char* what,
                        const char* op) {
  if (t.dtype == dtype) return;
  throw kf::plugin::KernelError(KF_INVALID_ARGUMENT, std::string(op) + ": " + what + " is " +
                                                         short_name(t.dtype) + ", expected " +
                                                         short_name(dtype));
}

void sort_kernel(const ops::sort::Args& a) {
  require_same_dtype(a.self, a.out.dtype, "self", "sort");
  sort_lines(a.call, a.out, a.self, a.dim, a.descending, false);
}

void argsort_kernel(const ops::argsort::Args& a) {
  sort_lines(a.call, a.out, a.self, a.dim, a.descending, true);
}

/// searchsorted: an item per element of self, a binary search of the 1-D sequence each.
void searchsorted_kernel(const ops::searchsorted::Args& a) {
  require_same_dtype(a.sorted_sequence, a.self.dtype, "sorted_sequence", "searchsorted");
  const kf_tensor_view_t& seq = a.sorted_sequence;
  const int64_t m = seq.numel;
  const int64_t ss = seq.ndim > 0 ? seq.strides[0] : 0;
  const int32_t right = a.right ? 1 : 0;
  run_elementwise(a.call, {Family::Sort, a.self.dtype}, "searchsorted", {&a.out, &a.self},
                  {pointer_arg(seq.data), value_arg(m), value_arg(ss), value_arg(right)});
}

}  // namespace

// Note [Sorts on CPU devices]
// On a CPU device the bitonic network loses to the CPU fallback by far: PoCL on 2 cores sorted
// 1M float32 in one line in 267-297 ms natively against 16-17 ms through the fallback (whose
// copies to and from the device are host memory copies, and whose sort is the cpu backend's,
// on both cores), and 4096 lines of 256 in 58 ms against 2 ms. So a backend registers the sorts
// only when one of its devices runs a work-group's items side by side (a GPU, where the
// fallback's copies cross the bus); the tests run them on PoCL as if it were one
// (KERNFORGE_CLKERNELS_SCHEDULE=gpu: cts.sort_gpu_work_group_shapes).
bool sorts_natively(const Capabilities& caps) { return !items_run_in_sequence(caps); }

kf_status_t register_sort_ops(const kf_registrar_t* reg, uint32_t mask) {
  constexpr uint32_t kOrderedMask = kRealMask;  // the CPU's
  KF_CLK_REGISTER(reg, sort, sort_kernel, kOrderedMask);
  KF_CLK_REGISTER(reg, argsort, argsort_kernel, kOrderedMask);
  KF_CLK_REGISTER(reg, searchsorted, searchsorted_kernel, kOrderedMask);
  return KF_OK;
}

}  // namespace kf::clk
