#include "registry/schema_parser.hpp"

#include <cctype>
#include <cstdlib>
#include <string_view>

#include "core/error.hpp"
#include "registry/boxing.hpp"
#include "registry/op_def.hpp"

namespace kf {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The name rule, the same for every name a schema holds, so that every frontend can bind the
// names as they are or rename them in one collision-free way (docs/plugins.md, "Names"):
// lower-case letters, digits and '_', starting with a letter, never two '_' in a row. A namespace and an
// argument name do not end with '_' either (an op's name may: its in-place form). So a
// frontend's flat "namespace__name" is never another op's, and a frontend that appends '_' to an
// argument named like one of its keywords ("lambda" -> "lambda_") never meets another argument.
enum class NameRole { Namespace, Op, Argument };

bool valid_name(std::string_view s, NameRole role) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  if (s.find("__") != std::string_view::npos) return false;
  return role == NameRole::Op || s.back() != '_';
}

// "a" or "a!" (one lower-case letter, optionally written to).
bool alias_text(std::string_view s) {
  return (s.size() == 1 || (s.size() == 2 && s[1] == '!')) && s[0] >= 'a' && s[0] <= 'z';
}

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  fail(KF_INVALID_ARGUMENT, "op schema '{}': {}", text.size() > 200 ? text.substr(0, 200) + "..."
                                                                    : text, why);
}

// Splits at commas outside brackets; throws on unbalanced brackets.
std::vector<std::string_view> split_args(const std::string& text, std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(') ++depth;
    if (s[i] == ']' || s[i] == ')') --depth;
    if (depth < 0) bad(text, "unbalanced brackets in the argument list");
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (depth != 0) bad(text, "unbalanced brackets in the argument list");
  const std::string_view last = trim(s.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

// The number of leading decimal digits of `d`.
size_t digits(std::string_view d) {
  size_t n = 0;
  while (n < d.size() && d[n] >= '0' && d[n] <= '9') ++n;
  return n;
}

// -?[0-9]{1,18}: every such number fits int64 (schema.py's _INT_DEFAULT).
bool integer_text(std::string_view d) {
  if (!d.empty() && d[0] == '-') d.remove_prefix(1);
  return !d.empty() && d.size() <= 18 && digits(d) == d.size();
}

// -?[0-9]+(\.[0-9]*)?(e-?[0-9]{1,2})?, at most 32 characters: every such number is a finite,
// normal double or zero (schema.py's FLOAT_DEFAULT).
bool float_text(std::string_view d) {
  if (d.empty() || d.size() > 32) return false;
  std::string_view r = d.substr(d[0] == '-' ? 1 : 0);
  size_t n = digits(r);
  if (n == 0) return false;
  r.remove_prefix(n);
  if (!r.empty() && r[0] == '.') r.remove_prefix(1 + digits(r.substr(1)));
  if (r.empty()) return true;
  if (r[0] != 'e') return false;
  r.remove_prefix(r.size() > 1 && r[1] == '-' ? 2 : 1);
  n = digits(r);
  return n >= 1 && n <= 2 && n == r.size();
}

void check_default(const std::string& text, const ParsedArg& a) {
  const std::string_view d = a.default_text;
  bool ok = false;
  if (d == "None") {
    ok = a.optional;
  } else {
    switch (a.type) {
      case ArgType::Int: ok = integer_text(d); break;
      case ArgType::IntList: ok = d == "[]"; break;
      case ArgType::Float: ok = float_text(d); break;
      case ArgType::Bool: ok = d == "True" || d == "False"; break;
      case ArgType::Scalar: ok = integer_text(d) || float_text(d) || d == "True" || d == "False";
        break;
      default: ok = false; break;
    }
  }
  if (!ok) {
    bad(text, "default '" + std::string(d) + "' is not valid for argument '" + a.name + "'" +
                  (a.type == ArgType::IntList ? " (int[] defaults other than [] are not "
                                                "supported)" : ""));
  }
}

std::string type_text(const ParsedArg& a, bool with_alias) {
  std::string t = arg_type_name(a.type);  // "int[]" carries its own brackets
  if (with_alias && !a.alias.empty()) {
    t.insert(t.size() - (a.type == ArgType::TensorList ? 2 : 0), "(" + a.alias + ")");
  }
  return t + (a.optional ? "?" : "");
}

// "Tensor(a!)[]? name=default" -> ParsedArg.
ParsedArg parse_arg(const std::string& text, std::string_view part, bool kwarg_only) {
  ParsedArg a;
  a.kwarg_only = kwarg_only;
  const size_t space = part.find_last_of(" \t");
  if (space == std::string_view::npos) bad(text, "argument '" + std::string(part) + "' has no name");
  std::string_view type = trim(part.substr(0, space));
  std::string_view rest = trim(part.substr(space + 1));
  const size_t eq = rest.find('=');
  if (eq != std::string_view::npos) {
    a.default_text = std::string(trim(rest.substr(eq + 1)));
    a.has_default = true;
    rest = trim(rest.substr(0, eq));
  }
  a.name = std::string(rest);
  if (!valid_name(rest, NameRole::Argument)) {
    bad(text, "'" + a.name + "' is not a valid argument name (lower-case letters, digits and "
              "'_', starting with a letter, no '__', not ending with '_')");
  }
  if (!type.empty() && type.back() == '?') {
    a.optional = true;
    type.remove_suffix(1);
  }
  bool list = false;
  if (type.size() >= 2 && type.substr(type.size() - 2) == "[]") {
    list = true;
    type.remove_suffix(2);
  }
  if (!type.empty() && type.back() == ')') {
    const size_t open = type.find('(');
    if (open == std::string_view::npos) bad(text, "bad alias annotation on '" + a.name + "'");
    a.alias = std::string(type.substr(open + 1, type.size() - open - 2));
    type = type.substr(0, open);
    if (!alias_text(a.alias)) {
      bad(text, "bad alias annotation '(" + a.alias + ")' on '" + a.name + "'");
    }
    if (type != "Tensor") bad(text, "alias annotation on non-Tensor argument '" + a.name + "'");
  }
  const std::string spelled = std::string(type) + (list ? "[]" : "");
  if (!arg_type_from_name(spelled, &a.type)) {
    bad(text, "unknown type '" + spelled + "' of argument '" + a.name + "'");
  }
  return a;
}

// The returns an in-place op must declare: its written arguments' annotations, in order
// ("Tensor(a!)" or "(Tensor(a!), Tensor(b!))").
std::string written_returns(const ParsedSchema& p) {
  std::string text;
  int32_t n = 0;
  for (const ParsedArg& a : p.args) {
    if (!a.written()) continue;
    text += (n++ > 0 ? ", " : "") + std::string("Tensor(") + a.alias + ")";
  }
  return n > 1 ? "(" + text + ")" : text;
}

// An op that returns nothing ("-> ()") writes tensor lists, Tensor(a!)[], Tensor(b!)[], ... in
// order, through the ops its decomposition calls (each of which checks what it writes).
void check_written_lists(const std::string& text, const ParsedSchema& p) {
  char letter = 'a';
  for (const ParsedArg& a : p.args) {
    if (!a.written()) continue;
    const std::string want = std::string(1, letter++) + "!";
    if (a.alias != want || a.type != ArgType::TensorList || a.optional) {
      bad(text, "'" + p.name + "' returns nothing: written argument '" + a.name + "' must be "
                "'Tensor(" + want + ")[] " + a.name + "' (written lists are lettered a!, b!, "
                "... in order, and are not optional)");
    }
  }
  if (letter == 'a' || p.name.back() == '_') {
    bad(text, "'" + p.name + "' returns nothing: it must write tensor lists (Tensor(a!)[] ...) "
              "and its name must not end in '_'");
  }
}

// The core writes out= tensors and the written arguments of an in-place op only, after checking
// what they share memory with (Note [Written tensors that overlap]); a kernel writes nothing
// else. An in-place op writes self (a!) and may write further tensors (b!, c!, ... in order,
// none optional, no list), and returns what it writes.
void check_written(const std::string& text, const ParsedSchema& p, std::string_view returns) {
  if (p.nreturns == 0) return check_written_lists(text, p);
  const bool inplace = p.name.back() == '_';
  char letter = 'a';
  for (const ParsedArg& a : p.args) {
    if (!a.written()) continue;
    if (!inplace) {
      bad(text, "argument '" + a.name + "' is marked written (" + a.alias + "); only an "
                "in-place op (a name ending in '_') writes its arguments");
    }
    const std::string want = std::string(1, letter++) + "!";
    if (a.alias != want || a.type != ArgType::Tensor || a.optional) {
      bad(text, "in-place op '" + p.name + "': written argument '" + a.name + "' must be 'Tensor(" +
                    want + ") " + a.name + "' (written tensors are lettered a!, b!, ... in "
                    "order, and are neither lists nor optional)");
    }
  }
  if (inplace && returns != written_returns(p)) {
    bad(text, "in-place op '" + p.name + "' must return what it writes: '-> " +
                  written_returns(p) + "'");
  }
}

void check_args(const std::string& text, const ParsedSchema& p, SchemaOrigin origin) {
  bool seen_default = false;
  int32_t tensors = 0;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const ParsedArg& a = p.args[i];
    for (size_t j = 0; j < i; ++j) {
      if (p.args[j].name == a.name) bad(text, "argument '" + a.name + "' appears twice");
    }
    if (a.name == "op" || a.name == "args" || a.name == "call" || a.name.rfind("out", 0) == 0) {
      bad(text, "argument name '" + a.name + "' is reserved");
    }
    if (a.has_default) check_default(text, a);
    if (!a.has_default && seen_default && !a.kwarg_only) {
      bad(text, "argument '" + a.name + "' without a default follows one with a default");
    }
    seen_default = seen_default || a.has_default;
    if (a.type == ArgType::TensorList && origin == SchemaOrigin::Plugin) {
      bad(text, "argument '" + a.name + "' is a Tensor[]: an op a plugin defines takes tensors "
                "one by one");
    }
    if (a.type == ArgType::Tensor) ++tensors;
  }
  if (static_cast<int32_t>(p.args.size()) > kMaxArgs || tensors > kMaxTensorArgs) {
    bad(text, "too many arguments (at most " + std::to_string(kMaxArgs) + ", of which " +
                  std::to_string(kMaxTensorArgs) + " tensors)");
  }
  const bool inplace = p.name.back() == '_';
  if (inplace && (p.args.empty() || p.args[0].type != ArgType::Tensor ||
                  p.args[0].alias != "a!" || p.args[0].optional)) {
    bad(text, "in-place op '" + p.name + "' must take 'Tensor(a!) self' first");
  }
}

int32_t parse_returns(const std::string& text, std::string_view r) {
  if (r == "()") return 0;  // an op that writes its Tensor(a!)[] lists
  if (!r.empty() && r.front() == '(') {
    if (r.back() != ')') bad(text, "unbalanced parentheses in the returns");
    r = r.substr(1, r.size() - 2);
  }
  int32_t n = 0;
  size_t start = 0;
  while (start <= r.size()) {
    size_t comma = r.find(',', start);
    if (comma == std::string_view::npos) comma = r.size();
    const std::string_view one = trim(r.substr(start, comma - start));
    const bool ok = one == "Tensor" ||
                    (one.size() > 8 && one.substr(0, 7) == "Tensor(" && one.back() == ')' &&
                     alias_text(one.substr(7, one.size() - 8)));
    if (!ok) bad(text, "unsupported return type '" + std::string(one) + "' (only Tensor)");
    ++n;
    start = comma + 1;
  }
  if (n > kMaxOutputs) bad(text, "too many returns (at most " + std::to_string(kMaxOutputs) + ")");
  return n;
}

std::string canonical(const ParsedSchema& p, std::string_view returns_text) {
  std::string out = p.name + "(";
  bool star = false;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const ParsedArg& a = p.args[i];
    if (i > 0) out += ", ";
    if (a.kwarg_only && !star) {
      out += "*, ";
      star = true;
    }
    out += type_text(a, true) + " " + a.name + (a.has_default ? "=" + a.default_text : "");
  }
  std::string ret;
  for (char c : returns_text) {
    if (!std::isspace(static_cast<unsigned char>(c))) ret += c;
  }
  // "(Tensor,Tensor)" is written "(Tensor, Tensor)", as schema.py does.
  std::string spaced;
  for (char c : ret) spaced += c == ',' ? std::string(", ") : std::string(1, c);
  return out + ") -> " + spaced;
}

std::string rule_signature(const ParsedSchema& p) {
  std::string out;
  for (size_t i = 0; i < p.args.size(); ++i) {
    out += (i > 0 ? ", " : "") + type_text(p.args[i], false);
  }
  return out + " -> " + std::to_string(p.nreturns);
}

}  // namespace

uint64_t fnv1a64(const std::string& text) noexcept {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

ParsedSchema parse_schema(const std::string& text, SchemaOrigin origin) {
  if (text.size() > kMaxSchemaLength) {
    fail(KF_INVALID_ARGUMENT, "op schema of {} characters is longer than the {} allowed",
         text.size(), kMaxSchemaLength);
  }
  const std::string_view s = trim(text);
  const size_t open = s.find('('), arrow = s.rfind("->");
  if (open == std::string_view::npos || arrow == std::string_view::npos || arrow < open) {
    bad(text, "expected 'namespace::name(Type arg, ...) -> Tensor'");
  }
  const size_t close = s.rfind(')', arrow);
  if (close == std::string_view::npos || close < open) bad(text, "missing ')' before '->'");
  ParsedSchema p;
  const std::string_view full = trim(s.substr(0, open));
  const size_t sep = full.find("::");
  const std::string_view base = sep == std::string_view::npos ? full : full.substr(sep + 2);
  p.ns = sep == std::string_view::npos ? "" : std::string(full.substr(0, sep));
  if ((sep != std::string_view::npos && !valid_name(p.ns, NameRole::Namespace)) ||
      !valid_name(base, NameRole::Op)) {
    bad(text, "'" + std::string(full) + "' is not a valid op name (lower-case letters, digits "
              "and '_', starting with a letter, no '__', optionally after 'namespace::' whose "
              "name does not end with '_')");
  }
  p.name = std::string(full);
  bool kwarg_only = false;
  for (std::string_view part : split_args(text, s.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      if (kwarg_only) bad(text, "'*' appears twice");
      kwarg_only = true;
      continue;
    }
    p.args.push_back(parse_arg(text, part, kwarg_only));
  }
  check_args(text, p, origin);
  if (!trim(s.substr(close + 1, arrow - close - 1)).empty()) bad(text, "text between ')' and '->'");
  const std::string_view returns = trim(s.substr(arrow + 2));
  p.nreturns = parse_returns(text, returns);
  check_written(text, p, returns);
  p.canonical = canonical(p, returns);
  p.hash = fnv1a64(p.canonical);
  p.rule_signature = rule_signature(p);
  return p;
}

kf_value_t default_value(const ParsedArg& a) {
  const std::string& d = a.default_text;
  if (!a.has_default || d == "None") return value_none();
  switch (a.type) {
    case ArgType::Int: return box_int(std::strtoll(d.c_str(), nullptr, 10));
    case ArgType::IntList: return box_int_list(nullptr, 0, false);
    case ArgType::Float: return box_float(std::strtod(d.c_str(), nullptr));
    case ArgType::Bool: return box_bool(d == "True");
    case ArgType::Scalar:
      if (d == "True" || d == "False") return box_scalar(kf_scalar_bool(d == "True"));
      if (integer_text(d)) return box_scalar(kf_scalar_i64(std::strtoll(d.c_str(), nullptr, 10)));
      return box_scalar(kf_scalar_f64(std::strtod(d.c_str(), nullptr)));
    default: return value_none();
  }
}

}  // namespace kf
