// The vectorised sort of vector_sort.hpp: vqsort per chunk, merge rounds split by merge path.
#include "vector_sort.hpp"

#if KF_CPU_HAVE_HWY

#include <algorithm>
#include <cstring>
#include <vector>

#include "hwy/contrib/sort/vqsort.h"
#include "parallel.hpp"

namespace kf::cpu {
namespace {

/// Chunks of fewer keys than this are not worth a thread of their own.
constexpr int64_t kMinChunk = int64_t{1} << 16;

/// How many of a's keys come first among the first d keys of merge(a, b) (a's first on ties).
template <class K>
int64_t merge_split(const K* a, int64_t na, const K* b, int64_t nb, int64_t d) {
  int64_t lo = std::max<int64_t>(0, d - nb), hi = std::min(d, na);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= b[d - mid - 1]) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// out[0..na+nb) = merge(a, b), without a branch on the comparison.
template <class K>
void merge_branchless(const K* a, int64_t na, const K* b, int64_t nb, K* out) {
  int64_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    const K x = a[i], y = b[j];
    const bool take_b = y < x;
    out[k++] = take_b ? y : x;
    i += take_b ? 0 : 1;
    j += take_b ? 1 : 0;
  }
  if (i < na) std::memcpy(out + k, a + i, sizeof(K) * static_cast<size_t>(na - i));
  if (j < nb) std::memcpy(out + k, b + j, sizeof(K) * static_cast<size_t>(nb - j));
}

/// One piece of work of a merge round: output [lo, hi) of the pair of runs [begin, mid), [mid, end).
struct MergePart {
  int64_t begin, mid, end, lo, hi;
};

/// The parts of one round over the runs at `bounds` (run r is [bounds[r], bounds[r+1])): each
/// pair of runs split into pieces of about n / nt keys; an odd last run is one copy part.
std::vector<MergePart> merge_parts(const std::vector<int64_t>& bounds, int64_t n, int nt) {
  std::vector<MergePart> parts;
  const int64_t piece = std::max<int64_t>(kMinChunk, (n + nt - 1) / nt);
  const size_t runs = bounds.size() - 1;
  for (size_t r = 0; r < runs; r += 2) {
    const int64_t begin = bounds[r];
    const int64_t mid = bounds[r + 1];
    const int64_t end = r + 1 < runs ? bounds[r + 2] : mid;  // an odd last run: copied
    for (int64_t lo = begin; lo < end; lo += piece) {
      parts.push_back({begin, mid, end, lo, std::min(end, lo + piece)});
    }
  }
  return parts;
}

/// Writes part p of a merge of src's runs into dst.
template <class K>
void merge_part(const K* src, K* dst, const MergePart& p) {
  const K* a = src + p.begin;
  const K* b = src + p.mid;
  const int64_t na = p.mid - p.begin, nb = p.end - p.mid;
  const int64_t d0 = p.lo - p.begin, d1 = p.hi - p.begin;
  const int64_t i0 = merge_split(a, na, b, nb, d0), i1 = merge_split(a, na, b, nb, d1);
  merge_branchless(a + i0, i1 - i0, b + (d0 - i0), (d1 - i1) - (d0 - i0), dst + p.lo);
}

/// Every second boundary of `bounds` (the runs after a round of pairwise merges).
std::vector<int64_t> merged_bounds(const std::vector<int64_t>& bounds) {
  std::vector<int64_t> next;
  for (size_t r = 0; r + 1 < bounds.size(); r += 2) next.push_back(bounds[r]);
  next.push_back(bounds.back());
  return next;
}

/// One chunk by vqsort. A Sorter holds a small buffer of its own, made per chunk: no state
/// outlives the call (a thread_local one would stay in the pool's threads after dlclose).
template <class K>
void sort_chunk(K* keys, int64_t n) {
  hwy::Sorter sorter;
  sorter(keys, static_cast<size_t>(n), hwy::SortAscending());
}

}  // namespace

template <class K>
K* vector_sort(K* keys, K* tmp, int64_t n, int nt) {
  const int chunks = static_cast<int>(std::clamp<int64_t>(n / kMinChunk, 1, std::max(nt, 1)));
  if (chunks == 1) {
    sort_chunk(keys, n);
    return keys;
  }
  std::vector<int64_t> bounds(static_cast<size_t>(chunks) + 1);
  for (int c = 0; c <= chunks; ++c) bounds[static_cast<size_t>(c)] = n * c / chunks;
#pragma omp parallel for num_threads(chunks) schedule(static, 1)
  for (int c = 0; c < chunks; ++c) {
    sort_chunk(keys + bounds[static_cast<size_t>(c)],
               bounds[static_cast<size_t>(c) + 1] - bounds[static_cast<size_t>(c)]);
  }
  K* src = keys;
  K* dst = tmp;
  while (bounds.size() > 2) {
    const std::vector<MergePart> parts = merge_parts(bounds, n, chunks);
    const int64_t count = static_cast<int64_t>(parts.size());
#pragma omp parallel for num_threads(chunks) schedule(dynamic, 1)
    for (int64_t i = 0; i < count; ++i) merge_part(src, dst, parts[static_cast<size_t>(i)]);
    bounds = merged_bounds(bounds);
    std::swap(src, dst);
  }
  return src;
}

template uint32_t* vector_sort<uint32_t>(uint32_t*, uint32_t*, int64_t, int);
template uint64_t* vector_sort<uint64_t>(uint64_t*, uint64_t*, int64_t, int);

}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_HWY
