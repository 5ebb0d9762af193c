// first_use.hpp — backends started on first use.
//
// Note [Backends started on first use]
// A plugin whose manifest says "activation": "first_use" (a backend over a device driver) is
// found and checked at start-up like any other, but nothing of it is loaded, not even its
// preloads: loading a driver stack can cost tens of milliseconds (docs/backends.md measures
// one), paid by every process that starts kernforge, most of which never use the device. It is
// opened, initialised and its kernels registered the first time the process needs to know
// about backends beyond the ones already started: an enumeration (kf_backend_count,
// kf_backend_info, kf_manual_seed, kf_set_num_threads, kf_load_plugin), a device type name the
// core does not know yet (kf_device_parse) or a device type no started backend serves (any call
// on such a device). The CPU-only path never gets there.
//
// This floor holds only the switch: the loader (a floor above) registers the function that
// starts the deferred plugins; the floors between call start_deferred_backends() where they miss.
// A thread that is loading plugins (it holds the loader's lock) never starts them from inside:
// its lookups see what is started, as before.
#pragma once

namespace kf {

using DeferredStarter = void (*)();

/// The loader: `start` starts every deferred plugin (nullptr: none is deferred any more).
void set_deferred_starter(DeferredStarter start) noexcept;

/// Whether some plugin waits to be started. One acquire load.
bool deferred_pending() noexcept;

/// Starts the deferred plugins when there are some and this thread is not loading. Throws what
/// the start throws (KF_OUT_OF_MEMORY: the plugins stay deferred and the next call tries again).
void start_deferred_backends();

/// Marks the current thread as loading plugins for its lifetime (the loader's lock holders).
class LoadingScope {
 public:
  LoadingScope() noexcept;
  ~LoadingScope();
  LoadingScope(const LoadingScope&) = delete;
  LoadingScope& operator=(const LoadingScope&) = delete;

 private:
  bool outer_;
};

}  // namespace kf
