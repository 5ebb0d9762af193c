// Python text handed to the C ABI. C strings end at their first NUL, so a Python str or path that
// holds one would be cut and another name or file used: every name and path that crosses into
// C is converted here, and one with a NUL is a ValueError that says so.
#pragma once

#include <string>

#include <nanobind/nanobind.h>

namespace kfpy {

/// The UTF-8 text of `o`, a str, for a C call; `what` names it in errors ("device name").
/// Raises TypeError for a non-str and ValueError for a str holding a NUL character. The
/// pointer lives as long as `o`.
const char* c_text(nanobind::handle o, const char* what);

/// A file path (str, bytes or os.PathLike, as os.fsencode takes them) as the bytes of a C call,
/// a name that is not UTF-8 included. Raises ValueError for a path holding a NUL byte.
std::string c_path(nanobind::handle o);

/// Text from the C ABI as a str: UTF-8, with any byte that is not shown as a \\x escape (the
/// core's reasons quote names from outside, which may be any bytes).
nanobind::str py_text(const char* s);

/// A path from the C ABI as os.fsdecode gives it: a name that is not UTF-8 keeps its bytes
/// (surrogate escapes), so that it opens the same file again. NULL is "".
nanobind::str py_path(const char* s);

}  // namespace kfpy
