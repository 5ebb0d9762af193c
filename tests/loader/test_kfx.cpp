// test_kfx.cpp — libkfx, a versioned library as system libraries are: its file is
// libkfx.so.1.2.3 and its SONAME libkfx.so.1 (as libgomp.so.1.0.0 answers to libgomp.so.1).
// Built on Linux only. The needs_kfx fault plugin links it without RPATH; the loader tests open
// one copy as the application's own before kf_init and check that the loader uses that copy,
// found by soname, instead of loading a second one. kfx_touch() counts its calls in kfx_calls,
// so a test can tell which copy the plugin's code resolved to.
#define KFX_EXPORT __attribute__((visibility("default")))

extern "C" {
KFX_EXPORT extern int kfx_calls;
KFX_EXPORT int kfx_touch(void);

/// How many times kfx_touch() of THIS copy ran.
int kfx_calls = 0;

/// Counts a call in this copy's kfx_calls and returns the new count.
int kfx_touch(void) { return ++kfx_calls; }
}
