// Typed errors of the library. Each carries a message that names the
// condition and the offending values; callers (the `nhs` tool) map them to
// exit codes: UsageError -> 2, InvalidState/SingularState -> 3,
// IntegrationFailure -> 4.
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
  SingularState(std::string which, const std::string& message)
      : InvalidState(message), condition(std::move(which)) {}
  std::string condition;
};

/// The integration could not continue: step size underflow, too many steps,
/// non-finite values. The message says at which time.
struct IntegrationFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A formulation that does not apply to a system (e.g. first kind without a
/// parametrization psi). A usage error (exit code 2) with the reason.
struct NotApplicable : UsageError {
  using UsageError::UsageError;
};

}  // namespace nhs
