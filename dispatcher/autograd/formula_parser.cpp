// The reader of run-time backward formulas (Note [One formula grammar, two readers]): the
// grammar of derivatives.yaml's header, as tools/codegen/derivatives.py reads it,
//
//   expr := NUMBER | True | False | NAME | NAME '.' ('shape' | 'dtype')
//         | CALLEE '(' [arg (','? arg)*] ')' | '[' [expr (','? expr)*] ']'
//   arg  := expr | NAME '=' expr
//
// with CALLEE a NAME or, here only, a NAME of an op a plugin defines ("toy::scale"). A number
// may start with '-'; separators between items are optional, as in derivatives.py. Nesting
// stops at 64 levels.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "autograd/formula_expr.hpp"

namespace kf::autograd {
namespace {

struct Token {
  enum class Kind { Number, Name, Punct, End } kind = Kind::End;
  std::string text;
  size_t pos = 0;
};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

size_t skip_digits(const std::string& s, size_t i) {
  while (i < s.size() && digit(s[i])) ++i;
  return i;
}

// -?\d+(\.\d*)?(e-?\d+)?
size_t number_end(const std::string& s, size_t i) {
  if (s[i] == '-') ++i;
  i = skip_digits(s, i);
  if (i < s.size() && s[i] == '.') i = skip_digits(s, i + 1);
  if (i < s.size() && s[i] == 'e') {
    size_t j = i + 1;
    if (j < s.size() && s[j] == '-') ++j;
    if (j < s.size() && digit(s[j])) i = skip_digits(s, j);
  }
  return i;
}

// NAME, or NAME::NAME (an op a plugin defines).
size_t name_end(const std::string& s, size_t i) {
  while (i < s.size() && name_char(s[i])) ++i;
  if (i + 2 < s.size() && s[i] == ':' && s[i + 1] == ':' && name_start(s[i + 2])) {
    i += 2;
    while (i < s.size() && name_char(s[i])) ++i;
  }
  return i;
}

std::vector<Token> tokens(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.pos = i;
    size_t end = i + 1;
    if (digit(c) || (c == '-' && i + 1 < s.size() && digit(s[i + 1]))) {
      t.kind = Token::Kind::Number;
      end = number_end(s, i);
    } else if (name_start(c)) {
      t.kind = Token::Kind::Name;
      end = name_end(s, i);
    } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == ',' || c == '.' || c == '=') {
      t.kind = Token::Kind::Punct;
    } else {
      throw FormulaProblem{i, std::string("cannot read '") + c + "'"};
    }
    t.text = s.substr(i, end - i);
    out.push_back(std::move(t));
    i = end;
  }
  Token last;
  last.pos = s.size();
  out.push_back(last);
  return out;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : toks_(tokens(text)) {}

  FormulaExpr whole() {
    FormulaExpr e = expr();
    if (peek().kind != Token::Kind::End) {
      throw FormulaProblem{peek().pos, "unexpected '" + peek().text + "' after the formula"};
    }
    return e;
  }

 private:
  const Token& peek(size_t ahead = 0) const {
    return toks_[std::min(i_ + ahead, toks_.size() - 1)];
  }
  bool at(const char* punct) const {
    return peek().kind == Token::Kind::Punct && peek().text == punct;
  }
  const Token& take() {
    const Token& t = peek();
    if (t.kind == Token::Kind::End) throw FormulaProblem{t.pos, "the formula ends too early"};
    ++i_;
    return t;
  }
  void expect(const char* punct) {
    if (!at(punct)) {
      const Token& t = peek();
      throw FormulaProblem{t.pos, std::string("expected '") + punct + "', found " +
                                      (t.kind == Token::Kind::End ? "the end" : "'" + t.text + "'")};
    }
    ++i_;
  }

  // Nesting is bounded, so that no formula a plugin gives can exhaust the stack.
  struct Depth {
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) {
        throw FormulaProblem{p_.peek().pos, "nested more than " + std::to_string(kMaxDepth) +
                                                " deep"};
      }
    }
    ~Depth() { --p_.depth_; }
    Parser& p_;
  };
  static constexpr int kMaxDepth = 64;

  FormulaExpr expr() {
    const Depth depth(*this);
    const Token& t = take();
    FormulaExpr e;
    e.pos = t.pos;
    e.text = t.text;
    if (t.kind == Token::Kind::Punct && t.text == "[") return list(std::move(e));
    if (t.kind == Token::Kind::Number) return number(std::move(e));
    if (t.kind != Token::Kind::Name) throw FormulaProblem{t.pos, "unexpected '" + t.text + "'"};
    if (at(".")) {
      ++i_;
      const Token& a = take();
      if (a.text != "shape" && a.text != "dtype") {
        throw FormulaProblem{a.pos, "'" + t.text + "." + a.text + "': only .shape and .dtype exist"};
      }
      e.kind = a.text == "shape" ? FormulaExpr::Kind::Shape : FormulaExpr::Kind::Dtype;
      e.attr = a.text;
      return e;
    }
    if (!at("(")) {
      e.kind = FormulaExpr::Kind::Name;
      return e;
    }
    return call(std::move(e));
  }

  FormulaExpr list(FormulaExpr e) {
    e.kind = FormulaExpr::Kind::List;
    while (!at("]")) {
      e.items.push_back(expr());
      if (at(",")) ++i_;
    }
    expect("]");
    return e;
  }

  static FormulaExpr number(FormulaExpr e) {
    e.kind = FormulaExpr::Kind::Number;
    e.is_float = e.text.find_first_of(".e") != std::string::npos;
    if (e.is_float) {
      e.f = std::strtod(e.text.c_str(), nullptr);
    } else {
      e.i = std::strtoll(e.text.c_str(), nullptr, 10);
    }
    return e;
  }

  FormulaExpr call(FormulaExpr e) {
    e.kind = FormulaExpr::Kind::Call;
    expect("(");
    while (!at(")")) {
      if (peek().kind == Token::Kind::Name && peek(1).kind == Token::Kind::Punct &&
          peek(1).text == "=") {
        e.keyword_names.push_back(take().text);
        ++i_;  // '='
        e.keyword_values.push_back(expr());
      } else {
        if (!e.keyword_names.empty()) {
          throw FormulaProblem{peek().pos, "a positional argument after a keyword"};
        }
        e.items.push_back(expr());
      }
      if (at(",")) ++i_;
    }
    expect(")");
    return e;
  }

  std::vector<Token> toks_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

FormulaExpr parse_formula(const std::string& text) { return Parser(text).whole(); }

}  // namespace kf::autograd
