/* libkernforge_global_deps: see CMakeLists.txt. The OpenMP runtime is a DT_NEEDED entry of this
 * library (Windows: an imported DLL); omp_get_max_threads is referenced so the link keeps it on
 * every toolchain. Built without OpenMP, the library preloads nothing and reports 1 thread. */
#if defined(_OPENMP)
#  include <omp.h>
#endif

#if defined(_WIN32)
#  define KF_GLOBAL_DEPS_EXPORT __declspec(dllexport)
#else
#  define KF_GLOBAL_DEPS_EXPORT __attribute__((visibility("default")))
#endif

/* The number of threads the shared OpenMP runtime would use (1 without OpenMP). */
KF_GLOBAL_DEPS_EXPORT int kf_global_deps_openmp_threads(void);

int kf_global_deps_openmp_threads(void) {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}
