// test_dep.cpp — libkf_test_dep (SONAME libkf_test_dep.so.1): the dependency of the needs_dep
// fault plugin, which links it without RPATH, so that only the loader's preload (or global_deps)
// can make it resolve. The loader tests copy it into folders and layouts of their own.
#if defined(_WIN32)
#  define KF_TEST_DEP_EXPORT __declspec(dllexport)
#else
#  define KF_TEST_DEP_EXPORT __attribute__((visibility("default")))
#endif

extern "C" KF_TEST_DEP_EXPORT int kf_test_dep_answer(void);

extern "C" KF_TEST_DEP_EXPORT int kf_test_dep_answer(void) { return 42; }
