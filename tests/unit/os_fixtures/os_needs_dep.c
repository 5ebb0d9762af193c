/* A library that imports os_dep (test_os.cpp), built into a folder of its own, without RPATH. */
#if defined(_WIN32)
#  define KF_OS_FIXTURE_EXPORT __declspec(dllexport)
#  define KF_OS_FIXTURE_IMPORT __declspec(dllimport)
#else
#  define KF_OS_FIXTURE_EXPORT __attribute__((visibility("default")))
#  define KF_OS_FIXTURE_IMPORT
#endif

KF_OS_FIXTURE_IMPORT int kf_unit_os_dep_value(void);
KF_OS_FIXTURE_EXPORT int kf_unit_os_answer(void);

int kf_unit_os_answer(void) { return kf_unit_os_dep_value() + 1; }
