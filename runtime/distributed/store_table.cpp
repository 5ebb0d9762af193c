#include "distributed/store_table.hpp"

#include <cstdint>
#include <utility>

namespace kf::store {
namespace {

int64_t counter_of(const std::string& bytes) {
  uint64_t u = 0;
  for (size_t i = 0; i < 8 && i < bytes.size(); ++i) {
    u |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return static_cast<int64_t>(u);
}

std::string counter_bytes(int64_t v) {
  std::string out(8, '\0');
  const auto u = static_cast<uint64_t>(v);
  for (size_t i = 0; i < 8; ++i) out[i] = static_cast<char>((u >> (8 * i)) & 0xffu);
  return out;
}

Reply error(std::string text) { return Reply{ReplyKind::error, std::move(text)}; }

}  // namespace

Reply Table::put(const std::string& key, std::string value) {
  const auto it = values_.find(key);
  const size_t old = it == values_.end() ? 0 : key.size() + it->second.size();
  const size_t now = key.size() + value.size();
  if (bytes_ - old + now > kMaxTableBytes) {
    return error("the store is full (" + std::to_string(kMaxTableBytes) + " bytes of keys and "
                 "values); it holds rendezvous data, not tensors");
  }
  bytes_ = bytes_ - old + now;
  values_[key] = std::move(value);
  return Reply{};
}

Reply Table::apply(const Request& r) {
  if (r.op == Op::set) return put(r.key, r.value);
  const auto it = values_.find(r.key);
  if (r.op == Op::get) {
    if (it == values_.end()) return Reply{ReplyKind::missing, {}};
    return Reply{ReplyKind::value, it->second};
  }
  if (r.op == Op::add) {
    const int64_t was = it == values_.end() ? 0 : counter_of(it->second);
    const int64_t now = static_cast<int64_t>(static_cast<uint64_t>(was) +
                                             static_cast<uint64_t>(r.delta));
    Reply done = put(r.key, counter_bytes(now));
    if (done.kind == ReplyKind::error) return done;
    return Reply{ReplyKind::value, counter_bytes(now)};
  }
  return error("an unknown op " + op_name(r.op));
}

}  // namespace kf::store
