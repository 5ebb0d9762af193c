// text_table.hpp — a plain, left-aligned text table for the CLI's human-readable output. Every
// cell goes through terminal_safe() when printed.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace kf::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  /// Writes the header, a rule and the rows, columns padded to their widest cell.
  void print(std::ostream& os, const std::string& indent = "") const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace kf::cli
