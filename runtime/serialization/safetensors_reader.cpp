// Reads and checks a safetensors header (Note [The safetensors format]): nlohmann's SAX parser
// drives a small state machine that fills the entries directly, then every size and range is
// checked against the dtype, the shape and the data section.
#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "kernforge/dtypes.hpp"
#include "serialization/safetensors_format.hpp"

namespace kf::safetensors {
namespace {

using json = nlohmann::json;

constexpr const char* kMetadataKey = "__metadata__";
constexpr const char* kAdvice =
    "the file is damaged or was not written as safetensors; write it again (save_file)";

template <class... A>
[[noreturn]] void bad(std::string_view source, fmt::format_string<A...> format, A&&... args) {
  fail(KF_INVALID_ARGUMENT, "safetensors file {}: {}; {}", source,
       fmt::format(format, std::forward<A>(args)...), kAdvice);
}

/// Where the SAX reader stands in the header's one allowed shape.
enum class At { Start, Root, Metadata, Entry, Shape, Offsets, Done };

enum Field : unsigned { kNone = 0, kDtype = 1, kShape = 2, kOffsets = 4 };

/// The SAX handler: each event either moves the state on or is refused with what was expected.
class HeaderReader : public nlohmann::json_sax<json> {
 public:
  HeaderReader(Header& h, std::string_view source) : h_(h), source_(source) {}
  bool done() const { return at_ == At::Done; }

  bool null() override { return unexpected("null"); }
  bool boolean(bool) override { return unexpected("true or false"); }
  bool number_integer(number_integer_t v) override {
    return unexpected(fmt::format("the negative number {}", v));
  }
  bool number_unsigned(number_unsigned_t v) override;
  bool number_float(number_float_t, const string_t& s) override {
    return unexpected(fmt::format("the number {} (not an integer of 64 bits)", s));
  }
  bool string(string_t& s) override;
  bool binary(binary_t&) override { return unexpected("binary data"); }
  bool start_object(std::size_t) override;
  bool key(string_t& k) override;
  bool end_object() override;
  bool start_array(std::size_t) override;
  bool end_array() override;
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    bad(source_, "the header is not valid JSON ({})", e.what());
  }

 private:
  [[noreturn]] bool unexpected(const std::string& got);
  Entry& entry() { return h_.entries.back(); }

  Header& h_;
  std::string_view source_;
  At at_ = At::Start;
  std::string key_;          // the root key or metadata key whose value comes next
  bool want_value_ = false;  // a key was read; its value comes next
  unsigned field_ = kNone, seen_ = kNone;
  int offsets_read_ = 0;
  std::set<std::string> names_, meta_keys_;
};

bool HeaderReader::unexpected(const std::string& got) {
  switch (at_) {
    case At::Start: bad(source_, "the header must be a JSON object, but it is {}", got);
    case At::Root:
      if (key_ == kMetadataKey) {
        bad(source_, "__metadata__ must be an object of strings, got {}", got);
      }
      bad(source_, "tensor '{}' must be an object with dtype, shape and data_offsets, got {}",
          key_, got);
    case At::Metadata: bad(source_, "__metadata__ '{}' must be a string, got {}", key_, got);
    case At::Entry:
      if (field_ == kDtype) {
        bad(source_, "tensor '{}': dtype must be a string such as \"F32\", got {}",
            entry().name, got);
      }
      bad(source_, "tensor '{}': {} must be an array of integers, got {}", entry().name,
          field_ == kShape ? "shape" : "data_offsets", got);
    case At::Shape:
      bad(source_, "tensor '{}': the entries of a shape must be non-negative integers, got {}",
          entry().name, got);
    case At::Offsets:
      bad(source_, "tensor '{}': data_offsets must be [begin, end], two non-negative integers, "
          "got {}", entry().name, got);
    case At::Done: break;
  }
  bad(source_, "unexpected {} after the header's object", got);
}

bool HeaderReader::number_unsigned(number_unsigned_t v) {
  if (at_ == At::Shape) {
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      bad(source_, "tensor '{}': shape entry {} does not fit in int64", entry().name, v);
    }
    if (entry().shape.size() >= KF_MAX_NDIM) {
      bad(source_, "tensor '{}': shape has more than {} dims, kernforge's most", entry().name,
          KF_MAX_NDIM);
    }
    entry().shape.push_back(static_cast<int64_t>(v));
    return true;
  }
  if (at_ == At::Offsets) {
    if (offsets_read_ == 2) unexpected(fmt::format("a third number {}", v));
    (offsets_read_++ == 0 ? entry().begin : entry().end) = v;
    return true;
  }
  return unexpected(fmt::format("the number {}", v));
}

bool HeaderReader::string(string_t& s) {
  if (at_ == At::Metadata && want_value_) {
    h_.metadata.emplace_back(key_, s);
    want_value_ = false;
    return true;
  }
  if (at_ == At::Entry && field_ == kDtype) {
    entry().dtype = dtype_from_code(s);
    if (entry().dtype == KF_DTYPE_UNDEFINED) {
      bad(source_, "tensor '{}': unknown dtype \"{}\" (kernforge reads BOOL, U8, I8, U16, I16, "
          "U32, I32, U64, I64, F16, BF16, F32, F64 and C64)", entry().name, s);
    }
    seen_ |= kDtype;
    field_ = kNone;
    return true;
  }
  return unexpected("a string");
}

bool HeaderReader::start_object(std::size_t) {
  if (at_ == At::Start) {
    at_ = At::Root;
  } else if (at_ == At::Root && want_value_) {
    want_value_ = false;
    if (key_ == kMetadataKey) {
      at_ = At::Metadata;
    } else {
      h_.entries.push_back(Entry{key_, KF_DTYPE_UNDEFINED, {}, 0, 0});
      at_ = At::Entry;
      seen_ = field_ = kNone;
    }
  } else {
    return unexpected("an object");
  }
  return true;
}

bool HeaderReader::key(string_t& k) {
  if (k.find('\0') != std::string::npos) {
    bad(source_, "the key \"{}\" holds a NUL character, which kernforge's names cannot",
        json(k).dump(-1, ' ', true, json::error_handler_t::replace));
  }
  if (at_ == At::Root || at_ == At::Metadata) {
    std::set<std::string>& seen = at_ == At::Root ? names_ : meta_keys_;
    if (!seen.insert(k).second) {
      bad(source_, "{} '{}' appears twice in the header", at_ == At::Root ? "the name" :
          "the __metadata__ key", k);
    }
    key_ = k;
    want_value_ = true;
    return true;
  }
  // At::Entry: one of the three fields, once each.
  const unsigned f = k == "dtype"          ? kDtype
                     : k == "shape"        ? kShape
                     : k == "data_offsets" ? kOffsets
                                           : kNone;
  if (f == kNone) {
    bad(source_, "tensor '{}': unknown field '{}' (a tensor has dtype, shape and data_offsets)",
        entry().name, k);
  }
  if (seen_ & f) bad(source_, "tensor '{}': field '{}' appears twice", entry().name, k);
  field_ = f;
  return true;
}

bool HeaderReader::end_object() {
  if (at_ == At::Root) {
    at_ = At::Done;
  } else if (at_ == At::Metadata) {
    at_ = At::Root;
  } else {  // At::Entry (objects open nowhere else)
    if (seen_ != (kDtype | kShape | kOffsets)) {
      bad(source_, "tensor '{}' lacks {}", entry().name,
          !(seen_ & kDtype) ? "its dtype" : !(seen_ & kShape) ? "its shape" : "its data_offsets");
    }
    at_ = At::Root;
  }
  return true;
}

bool HeaderReader::start_array(std::size_t) {
  if (at_ != At::Entry || (field_ != kShape && field_ != kOffsets)) return unexpected("an array");
  at_ = field_ == kShape ? At::Shape : At::Offsets;
  offsets_read_ = 0;
  return true;
}

bool HeaderReader::end_array() {
  if (at_ == At::Offsets && offsets_read_ != 2) {
    unexpected(fmt::format("{} number{}", offsets_read_, offsets_read_ == 1 ? "" : "s"));
  }
  seen_ |= field_;
  field_ = kNone;
  at_ = At::Entry;
  return true;
}

/// Checks one entry's byte count against its dtype and shape, and its range against the data
/// section.
void check_entry(const Entry& e, const Header& h, std::string_view source) {
  int64_t numel = 1, bytes = 0;
  for (int64_t d : e.shape) {
    if (!checked_mul(numel, d, &numel)) {
      bad(source, "tensor '{}': shape {} has more elements than int64 holds", e.name,
          shape_text(e.shape));
    }
  }
  const size_t item = dtype_bytes(e.dtype);
  if (!checked_bytes(numel, item, &bytes)) {
    bad(source, "tensor '{}': shape {} of {} is more bytes than int64 holds", e.name,
        shape_text(e.shape), dtype_code(e.dtype));
  }
  if (e.begin > e.end) {
    bad(source, "tensor '{}': data_offsets [{}, {}] end before they begin", e.name, e.begin,
        e.end);
  }
  if (e.end - e.begin != static_cast<uint64_t>(bytes)) {
    bad(source, "tensor '{}': data_offsets [{}, {}] hold {} bytes, but {} of shape {} is {} "
        "bytes ({} elements of {})", e.name, e.begin, e.end, e.end - e.begin,
        dtype_code(e.dtype), shape_text(e.shape), bytes, numel, item);
  }
  if (e.end > h.data_bytes) {
    bad(source, "tensor '{}': data_offsets [{}, {}] run past the data section, which holds {} "
        "bytes (the file was cut short?)", e.name, e.begin, e.end, h.data_bytes);
  }
}

/// The tensors must cover the data section exactly: sorted by offsets, each starts where the
/// one before ends, and the last ends at the section's end.
void check_coverage(const Header& h, std::string_view source) {
  std::vector<const Entry*> order;
  order.reserve(h.entries.size());
  for (const Entry& e : h.entries) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t at = 0;
  const Entry* before = nullptr;
  for (const Entry* e : order) {
    if (e->begin < at) {
      bad(source, "tensors '{}' [{}, {}] and '{}' [{}, {}] overlap", before->name,
          before->begin, before->end, e->name, e->begin, e->end);
    }
    if (e->begin > at) {
      bad(source, "bytes [{}, {}) of the data section belong to no tensor (before '{}'); the "
          "format requires every byte to be indexed", at, e->begin, e->name);
    }
    at = e->end;
    before = e;
  }
  if (at != h.data_bytes) {
    bad(source, "the data section holds {} bytes but the tensors end at byte {}: {} trailing "
        "bytes belong to no tensor", h.data_bytes, at, h.data_bytes - at);
  }
}

}  // namespace

uint64_t header_length(const unsigned char* first8, uint64_t file_size, std::string_view source) {
  if (file_size < 8) {
    bad(source, "it is {} bytes, shorter than the 8-byte header length every safetensors file "
        "starts with", file_size);
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | first8[i];  // little-endian on every host
  if (n > kMaxHeaderBytes) {
    bad(source, "the header length is {} bytes, above the format's limit of {}", n,
        kMaxHeaderBytes);
  }
  if (n > file_size - 8) {
    bad(source, "the header length is {} bytes but the file holds only {} after the 8-byte "
        "length (the file was cut short?)", n, file_size - 8);
  }
  return n;
}

Header parse_header(const char* json_text, uint64_t n, uint64_t file_size,
                    std::string_view source) {
  Header h;
  h.data_start = 8 + n;
  h.data_bytes = file_size - h.data_start;
  HeaderReader reader(h, source);
  const auto* first = reinterpret_cast<const uint8_t*>(json_text);
  json::sax_parse(first, first + n, &reader);
  if (!reader.done()) bad(source, "the header ends before its object does");
  for (const Entry& e : h.entries) check_entry(e, h, source);
  check_coverage(h, source);
  return h;
}

Header parse(const void* bytes, size_t size, std::string_view source) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  const uint64_t n = header_length(p, size, source);
  return parse_header(reinterpret_cast<const char*>(p + 8), n, size, source);
}

}  // namespace kf::safetensors
