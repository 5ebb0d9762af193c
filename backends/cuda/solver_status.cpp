// cuSOLVER's info codes as kernforge errors (solver_status.hpp).
#include "solver_status.hpp"

#include "kernforge/plugin.hpp"

namespace kf::cuda {
namespace {

std::string step_text(const SolverFailure& f) {
  const std::string k = std::to_string(f.info);
  switch (f.step) {
    case SolverStep::kLu:
      return "is singular (U[" + std::to_string(f.info - 1) + ", " + std::to_string(f.info - 1) +
             "] of its LU factorisation is exactly zero)";
    case SolverStep::kCholesky:
      return "is not positive-definite (its leading minor of order " + k + " is not)";
    case SolverStep::kEigh:
      return "did not converge: " + k + " off-diagonal elements of the tridiagonal form stayed "
             "nonzero (ill-conditioned input)";
    case SolverStep::kSvd:
      return "did not converge: the singular value iteration failed (ill-conditioned input)";
    case SolverStep::kQr:
      break;
  }
  return "failed with info " + k;
}

}  // namespace

std::optional<SolverFailure> first_failure(SolverStep step, const int32_t* info,
                                           const int32_t* non_finite, int64_t count) {
  for (int64_t b = 0; b < count; ++b) {
    if (non_finite != nullptr && non_finite[b] != 0) return SolverFailure{b, 0, step, true};
    if (info != nullptr && info[b] != 0) return SolverFailure{b, info[b], step, false};
  }
  return std::nullopt;
}

kf_status_t failure_status(const SolverFailure& f) {
  return !f.non_finite && f.info < 0 ? KF_INTERNAL : KF_INVALID_ARGUMENT;
}

std::string failure_message(const char* op, const SolverFailure& f) {
  const std::string where = std::string(op) + ": the matrix at batch index " +
                            std::to_string(f.batch);
  if (f.non_finite) {
    return where + " holds a NaN or an infinity; the decomposition needs finite input";
  }
  if (f.info < 0) {
    return std::string(op) + ": cuSOLVER refused argument " + std::to_string(-f.info) +
           " for the matrix at batch index " + std::to_string(f.batch) +
           " (a bug of the cuda plugin; please report it)";
  }
  return where + " " + step_text(f);
}

void check_solver_infos(const char* op, SolverStep step, const int32_t* info,
                        const int32_t* non_finite, int64_t count) {
  const std::optional<SolverFailure> f = first_failure(step, info, non_finite, count);
  if (f) throw kf::plugin::KernelError(failure_status(*f), failure_message(op, *f));
}

}  // namespace kf::cuda
