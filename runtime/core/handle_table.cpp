#include "core/handle_table.hpp"

namespace kf {

std::string handle_problem(HandleState state, const char* kind) {
  switch (state) {
    case HandleState::Null: return "is NULL";
    case HandleState::Released:
      return fmt::format("was already released: the {} it named is gone, and the handle stays "
                         "invalid for good (even once a new {} takes its place)", kind, kind);
    case HandleState::Live: return "is valid";  // not a problem; callers do not ask
    case HandleState::Foreign: break;
  }
  return fmt::format("is not a kernforge {} handle (a corrupted or made-up value)", kind);
}

}  // namespace kf
