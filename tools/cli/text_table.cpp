#include "text_table.hpp"

#include "terminal_text.hpp"

#include <algorithm>
#include <cstddef>

namespace kf::cli {
namespace {

void print_row(std::ostream& os, const std::string& indent, const std::vector<std::string>& row,
               const std::vector<std::size_t>& widths) {
  std::string line = indent;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    const std::string cell = c < row.size() ? row[c] : "";
    line += cell;
    if (c + 1 < widths.size()) line += std::string(widths[c] - cell.size() + 2, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  os << line << '\n';
}

}  // namespace

void TextTable::print(std::ostream& os, const std::string& indent) const {
  // Cells hold outside text (names, paths, reasons): Note [Outside text on a terminal].
  std::vector<std::string> header;
  for (const std::string& h : header_) header.push_back(terminal_safe(h));
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : rows_) {
    rows.emplace_back();
    for (const std::string& cell : row) rows.back().push_back(terminal_safe(cell));
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (std::size_t c = 0; c < header.size(); ++c) widths[c] = header[c].size();
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  print_row(os, indent, header, widths);
  std::vector<std::string> rule;
  for (std::size_t w : widths) rule.emplace_back(w, '-');
  print_row(os, indent, rule, widths);
  for (const auto& row : rows) print_row(os, indent, row, widths);
}

}  // namespace kf::cli
