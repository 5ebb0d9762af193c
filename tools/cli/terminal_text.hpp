// terminal_text.hpp — what the `kernforge` command writes, made safe. Every string that comes
// from outside the command (plugin names, versions and messages, manifest fields, paths,
// dynamic-loader texts, variables) may hold any bytes: the text printers pass each one through
// terminal_safe() before it reaches a terminal, and JSON goes out through json_text().
//
// Note [Outside text on a terminal]
// A terminal obeys what it is sent: ESC sequences (ESC [ ... in C0, or the 8-bit CSI, 0x9b, in
// C1) move the cursor, clear the screen, retitle the window or fake lines such as "kernforge
// doctor: all well"; a newline in a plugin's reason starts a line the reader takes for the
// command's own. So terminal_safe() writes every C0 control (newlines and tabs included), DEL
// and every C1 control as a visible escape (\n, \t, \r, \x1b, \u009b), the Unicode line
// separators and bidirectional overrides too (\u2028, \u202e: text that reads differently from
// what it is), and each byte that is not part of valid UTF-8 as \xNN. Everything else, printable
// UTF-8 included, passes unchanged, and so does the backslash: the result is for people to read,
// not to be parsed back. The function is idempotent, so text escaped twice reads the same.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kf::cli {

/// `s` with every control character, line separator, bidirectional override and invalid UTF-8
/// byte written as a visible escape (Note [Outside text on a terminal]).
std::string terminal_safe(std::string_view s);

/// The JSON text of `j` (indented by 2), with invalid UTF-8 in its strings replaced by U+FFFD.
std::string json_text(const nlohmann::ordered_json& j);

}  // namespace kf::cli
