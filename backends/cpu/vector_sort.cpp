// Highway's vqsort behind vqsort_keys (vector_sort.hpp).
#include "vector_sort.hpp"

#if KF_CPU_HAVE_HWY

#include "hwy/contrib/sort/vqsort.h"

namespace kf::cpu {

/// A Sorter holds a small buffer of its own, made per call: no state outlives it (a
/// thread_local one would stay in the pool's threads after the plugin is unloaded).
template <class K>
void vqsort_keys(K* keys, int64_t n) {
  if (n < 2) return;
  hwy::Sorter sorter;
  sorter(keys, static_cast<size_t>(n), hwy::SortAscending());
}

template void vqsort_keys<uint32_t>(uint32_t*, int64_t);
template void vqsort_keys<uint64_t>(uint64_t*, int64_t);

}  // namespace kf::cpu

#endif  // KF_CPU_HAVE_HWY
