#include "close_names.hpp"

#include <algorithm>
#include <utility>

namespace kf::cli {
namespace {

// Levenshtein distance with one rolling row.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> close_names(const std::string& query,
                                     const std::vector<std::string>& candidates,
                                     std::size_t limit) {
  const std::size_t threshold = std::max<std::size_t>(2, query.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& name : candidates) {
    std::size_t d = edit_distance(query, name);
    const bool related = !query.empty() && (name.find(query) != std::string::npos ||
                                            query.find(name) != std::string::npos);
    if (related) d = std::min<std::size_t>(d, 1);
    if (d <= threshold) scored.emplace_back(d, name);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& entry : scored) {
    if (out.size() == limit) break;
    out.push_back(entry.second);
  }
  return out;
}

}  // namespace kf::cli
