// complex_part_kernels.cpp — conj, real, imag (tag pointwise). Every dtype. conj keeps the
// dtype; real and imag of a complex input write its parts in their real dtype (float32 for
// complex64, meta unary_complex_part), and of a real input keep its dtype: real is a copy,
// imag zeros, as numpy. Each writes a new tensor (PyTorch's conj and real are lazy views). The
// output may be any strided view and may alias the input exactly (conj_ in place is a copy of
// each element onto itself).
#include <complex>
#include <string>

#include "dtype_dispatch.hpp"
#include "elementwise.hpp"
#include "kernels.hpp"
#include "strided.hpp"

namespace kf::cpu {
namespace {

namespace ops = kf::plugin::ops;

constexpr uint32_t kPartMask = kAllMask;

template <class C>
void require_part_dtype(const kf_tensor_view_t& out, const kf_tensor_view_t& self,
                        const char* op) {
  using R = typename C::value_type;
  if (kf_dtype_kind(out.dtype) != 'f' || kf_dtype_itemsize(out.dtype) != sizeof(R)) {
    throw kf::plugin::KernelError(KF_INTERNAL, std::string("out has dtype ") +
                                                   dtype_name(out.dtype) + ", not the real "
                                                   "dtype of " + dtype_name(self.dtype) +
                                                   "'s parts (cpu " + op + ")");
  }
}

// real (Imag false) or imag (Imag true) of `self` into `out`.
template <bool Imag>
void part(const kf_tensor_view_t& self, const kf_tensor_view_t& out, const char* op) {
  dispatch<kPartMask>(self.dtype, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      require_part_dtype<T>(out, self, op);
      map1<R, T>(out, self, [](T x) { return Imag ? x.imag() : x.real(); });
    } else {
      require_dtype(out, self.dtype, "out", op);
      if constexpr (Imag) {
        map0<T>(out, [] { return T{}; });
      } else {
        map1<T, T>(out, self, [](T x) { return x; });
      }
    }
  });
}

void conj_kernel(const ops::conj::Args& a) {
  require_dtype(a.self, a.out.dtype, "self", "conj");
  dispatch<kPartMask>(a.out.dtype, "conj", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>) {
      map1<T, T>(a.out, a.self, [](T x) { return std::conj(x); });
    } else {
      map1<T, T>(a.out, a.self, [](T x) { return x; });
    }
  });
}
void real_kernel(const ops::real::Args& a) { part<false>(a.self, a.out, "real"); }
void imag_kernel(const ops::imag::Args& a) { part<true>(a.self, a.out, "imag"); }

}  // namespace

kf_status_t register_complex_part_kernels(const kf_registrar_t* reg) {
  KF_CPU_KERNEL(reg, conj, conj_kernel, kPartMask);
  KF_CPU_KERNEL(reg, real, real_kernel, kPartMask);
  KF_CPU_KERNEL(reg, imag, imag_kernel, kPartMask);
  return KF_OK;
}

}  // namespace kf::cpu
