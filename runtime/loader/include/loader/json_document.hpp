// nlohmann::json documents that survive running out of memory: parsed and freed without ever
// handing a partly built or non-empty document to nlohmann::json's destructor.
//
// Note [nlohmann::json and out of memory]
// nlohmann::json's destructor moves the children of a non-empty array or object onto a
// heap-allocated stack before freeing them (so deep documents do not recurse), so destroying a
// document can need memory; a destructor is noexcept, and running out there calls
// std::terminate. json::parse destroys its partly built document that way when the parse throws
// (out of memory included). So the loader parses with parse_json_document (nlohmann's SAX parser
// building into a document that empties itself first when the parse fails) and empties each
// document it keeps before it is destroyed (ReleaseJsonOnExit). Emptying goes children first,
// recursively: it frees everything and allocates nothing. Documents deeper than
// kMaxReleaseDepth are left to the destructor (parse_json_document refuses deeper ones).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace kf {

constexpr int kMaxReleaseDepth = 64;

/// Empties `j` (an nlohmann::json or ordered_json) without allocating.
template <class Json>
void release_json(Json& j, int depth = 0) noexcept {
  if (depth > kMaxReleaseDepth) return;
  if (j.is_array()) {
    auto& items = j.template get_ref<typename Json::array_t&>();
    for (Json& item : items) release_json(item, depth + 1);
    items.clear();
  } else if (j.is_object()) {
    auto& members = j.template get_ref<typename Json::object_t&>();
    for (auto& member : members) release_json(member.second, depth + 1);
    members.clear();
  }
}

/// Calls release_json on `j` when the scope ends. Declare it right after the document.
template <class Json>
class ReleaseJsonOnExit {
 public:
  explicit ReleaseJsonOnExit(Json& j) noexcept : j_(j) {}
  ~ReleaseJsonOnExit() { release_json(j_); }
  ReleaseJsonOnExit(const ReleaseJsonOnExit&) = delete;
  ReleaseJsonOnExit& operator=(const ReleaseJsonOnExit&) = delete;

 private:
  Json& j_;
};

/// Called when an array or object would nest deeper than allowed, with the top-level key being
/// parsed ("" outside any); it must throw.
using TooDeep = std::function<void(const std::string& top_key)>;
/// Called when an object gives `key` a second time, with the top-level key being parsed (equal
/// to `key` at the top level, where `top_level` is true); it must throw (nlohmann-json alone
/// would keep the last value silently).
using KeyTwice =
    std::function<void(const std::string& top_key, const std::string& key, bool top_level)>;

namespace json_detail {

using json = nlohmann::json;

// A SAX handler (nlohmann's json_sax interface) that builds the document. When the parse
// throws, the handler is destroyed with the partly built document, which it empties first
// (Note [nlohmann::json and out of memory]).
class DocumentBuilder {
 public:
  DocumentBuilder(int max_depth, const TooDeep& too_deep, const KeyTwice& key_twice)
      : max_depth_(static_cast<size_t>(max_depth)), too_deep_(too_deep), key_twice_(key_twice) {}
  ~DocumentBuilder() { release_json(root_); }
  DocumentBuilder(const DocumentBuilder&) = delete;
  DocumentBuilder& operator=(const DocumentBuilder&) = delete;

  bool null() { return put(json(nullptr)) != nullptr; }
  bool boolean(bool v) { return put(json(v)) != nullptr; }
  bool number_integer(json::number_integer_t v) { return put(json(v)) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)) != nullptr; }
  bool number_float(json::number_float_t v, const json::string_t&) {
    return put(json(v)) != nullptr;
  }
  bool string(json::string_t& v) { return put(json(std::move(v))) != nullptr; }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))) != nullptr; }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    key_ = k;
    if (open_.size() == 1) top_key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception& e) {
    throw e;  // json::parse's exception and message
  }

  json take() noexcept { return std::move(root_); }

 private:
  // Stores `v` where the parse is: the root, the next item of the open array, or the member of
  // the open object named by the last key. Returns where it is.
  json* put(json&& v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      auto& items = parent.get_ref<json::array_t&>();
      items.push_back(std::move(v));
      return &items.back();
    }
    if (parent.contains(key_)) key_twice_(top_key_, key_, open_.size() == 1);
    json& slot = parent[key_];
    slot = std::move(v);
    return &slot;
  }
  bool open(json&& container) {
    if (open_.size() >= max_depth_) too_deep_(top_key_);
    open_.reserve(open_.size() + 1);  // room first: the new container is never left unreachable
    open_.push_back(put(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  size_t max_depth_;
  const TooDeep& too_deep_;
  const KeyTwice& key_twice_;
  json root_;
  std::vector<json*> open_;  // the arrays and objects being filled, outermost first
  std::string key_;
  std::string top_key_;
};

}  // namespace json_detail

/// Parses `text` as one JSON document (nothing may follow it), like json::parse; an array or
/// object opened when `max_depth` are already open calls `too_deep`, a key given twice in one
/// object calls `key_twice`. Invalid JSON throws
/// nlohmann::json::exception (json::parse's message); out of memory throws std::bad_alloc, and
/// nothing terminates (Note [nlohmann::json and out of memory]). Header-only, so the fuzz
/// targets that compile the manifest parser alone need nothing more.
inline nlohmann::json parse_json_document(const std::string& text, int max_depth,
                                          const TooDeep& too_deep, const KeyTwice& key_twice) {
  json_detail::DocumentBuilder builder(max_depth, too_deep, key_twice);
  nlohmann::json::sax_parse(text, &builder);
  return builder.take();
}

}  // namespace kf
