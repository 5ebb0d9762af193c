// KF_TLS_INITIAL_EXEC: the initial-exec TLS model for a thread_local on the hot path. The core is
// a shared library, so its thread_locals default to the general-dynamic model: every access is a
// call to __tls_get_addr. Initial-exec reads them at a fixed offset from the thread pointer. It
// takes a little of the static TLS block, which the core can afford for a few words, because it
// is loaded with the program or early through Python's dlopen. The model is an ELF notion: on
// Windows the attribute is left out (MinGW's GCC emulates thread_local with a call per access,
// slower but the same behaviour).
#pragma once

#if defined(__GNUC__) && defined(__ELF__)
#define KF_TLS_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#else
#define KF_TLS_INITIAL_EXEC
#endif
