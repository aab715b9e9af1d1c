// Typed errors of the library. Each carries a message that names the
// condition and the offending values; callers (the `nhs` tool) map them to
// exit codes: UsageError -> 2, InvalidState/SingularState -> 3,
// IntegrationFailure and NonFiniteValue -> 4, IoError -> 5, Interrupted ->
// 130 (README, "Exit codes").
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace nhs {

/// Bad input that is not a state: unknown study, formulation, precision or
/// parameter, a malformed number, a vector of the wrong length.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A state that is not admissible: off the constraint manifold C beyond the
/// tolerance, or not representable in a chart.
struct InvalidState : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A state where the equations are not defined: rank loss of [dC^a/dqdot^i]
/// (r x n) or [psi^i_alpha] (n x m), a metric g or a matrix G that is not
/// positive definite. `condition` names which; the message gives the values.
struct SingularState : InvalidState {
  SingularState(std::string which, const std::string& message, std::string when = std::string())
      : InvalidState(message), condition(std::move(which)), time(std::move(when)) {}
  std::string condition;
  /// Where a motion reached the set (nhs::integrate): the time t as decimal
  /// text; empty for a state refused outside a motion.
  std::string time;
};

/// The integration could not continue: step size underflow, too many steps,
/// non-finite values. The message says at which time.
struct IntegrationFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A value that overflowed or became NaN: a matrix, a vector field, an
/// energy or an acceleration that is not finite at a finite input (e.g. T
/// at |qdot| = 1e155 overflows double). Never reported as a singular state:
/// the state may be regular, the scalar type is what runs out. The message
/// names the quantity and the state or time.
struct NonFiniteValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Output that could not be written (a full disk, a closed stream); the
/// message names the destination and the system's reason.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run stopped on request (SIGINT in the `nhs` tool): the samples up to
/// the stop have been delivered.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A formulation that does not apply to a system (e.g. first kind without a
/// parametrization psi). A usage error (exit code 2) with the reason.
struct NotApplicable : UsageError {
  using UsageError::UsageError;
};

}  // namespace nhs
