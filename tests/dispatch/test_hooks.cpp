// The test hooks the test backends look up with dlsym (testdev_hooks.hpp), exported from this
// executable (ENABLE_EXPORTS); declared in dispatch_util.hpp.
#include <atomic>

#define KF_TEST_HOOK __attribute__((visibility("default")))

extern "C" {
KF_TEST_HOOK std::atomic<long long> kf_testdev_live_allocations[2];
KF_TEST_HOOK std::atomic<long long> kf_testdev_add_calls{0};

KF_TEST_HOOK std::atomic<long long> kf_testasync_live_allocations[2];
KF_TEST_HOOK std::atomic<long long> kf_testasync_add_calls{0};
KF_TEST_HOOK std::atomic<long long> kf_testasync_linear_calls{0};
KF_TEST_HOOK std::atomic<long long> kf_testasync_scale_calls{0};
KF_TEST_HOOK std::atomic<long long> kf_testasync_fallback_calls{0};
KF_TEST_HOOK std::atomic<long long> kf_testasync_pinned_live{0};
KF_TEST_HOOK std::atomic<long long> kf_testasync_pinned_total{0};
KF_TEST_HOOK std::atomic<int> kf_testasync_kernel_delay_ms{0};
KF_TEST_HOOK std::atomic<bool> kf_testasync_hold{false};
KF_TEST_HOOK std::atomic<void*> kf_testasync_last_kernel_stream{nullptr};
}
