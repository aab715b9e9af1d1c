// The accelerations of a problem at its state: what `nhs accel` prints and
// the Python module's System.accel returns.
#pragma once

#include "nhs/formulation.hpp"
#include "nhs/session/field_jacobian.hpp"
#include "nhs/session/problem.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// The accelerations at a problem's admitted state (Problem: qdot projected
/// onto C), the formulation's Acceleration (qddot size n; multipliers size
/// r and reaction size n where the formulation defines them) and Gauss's Z
/// at qddot (nhs/gauss.hpp).
template <class S>
struct AccelAnswer {
  /// formulation: the formulation's name (Problem::formulation_name,
  /// e.g. "second-kind"); field: the backend that evaluated it
  /// (field_backend_name, e.g. "generated").
  std::string study, formulation, field;
  std::vector<std::pair<std::string, S>> parameters;  ///< every parameter, with its value
  Vec<S> q, qdot;
  Acceleration<S> acceleration;
  S gauss_z;
  /// With `jacobian`: field_jacobian_at at (q, qdot).
  std::optional<FieldJacobian<S>> jacobian;
};

/// The accelerations of problem p at its state, which is refused within
/// `singular_margin` of a singular set of its formulation
/// (require_formulation_margins: rank loss of dC/dqdot is none for
/// udwadia-kalaba, nhs/redundant_constraints.hpp; the tool's default
/// is 100 epsilon, regularity_tolerance<S>), with the Jacobian of the
/// library formulation's traced field when `jacobian`
/// (field_jacobian_at). Throws SingularState near a singular set,
/// NonFiniteValue where qddot, the multipliers, the reaction or Z is not
/// finite, and what field_jacobian_at throws. Source: docs/cli.md, "accel".
template <class S>
AccelAnswer<S> accelerations_at(const Problem<S>& p, const S& singular_margin, bool jacobian);

}  // namespace nhs
