// Meta functions of the data movements that keep a tensor's shape and dtype: flip (each dim named
// at most once, in range; an empty list moves nothing).
#include <cstdint>

#include "meta/meta_util.hpp"

namespace kf::meta {

// flip(self, dims): self's shape and dtype; every dim in range and named once.
void flip(const CallArgs& a, MetaResult& m) {
  const TensorImpl& self = a.tensor(0);
  const IntListView dims = a.ints(1);
  if (dims.len > 0) {
    bool flipped[KF_MAX_NDIM];
    reduced_dims(a.name(), &dims, self.ndim, flipped);  // throws on a bad or repeated dim
  }
  same_shape(self, m.out[0]);
  m.out[0].dtype = self.dtype;
  m.compute_dtype = self.dtype;
}

}  // namespace kf::meta
