/* A dependency of os_needs_dep (test_os.cpp): built into its own folder, which is never on the
 * library search path, so os_needs_dep only loads once the loader has made this one findable. */
#if defined(_WIN32)
#  define KF_OS_FIXTURE_EXPORT __declspec(dllexport)
#else
#  define KF_OS_FIXTURE_EXPORT __attribute__((visibility("default")))
#endif

KF_OS_FIXTURE_EXPORT int kf_unit_os_dep_value(void);

int kf_unit_os_dep_value(void) { return 41; }
