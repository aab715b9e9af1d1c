// The names of the fields of a result, written once: the keys of `nhs
// accel`'s JSON (apps/nhs/accel.cpp) and the names under which the Python
// module returns the same values (its AccelResult's properties and dict),
// so that a field is named the same by every front end. Add a result
// field here first, then to each front end.
#pragma once

namespace nhs::result_keys {

/// AccelAnswer (nhs/session/accelerations.hpp): the problem it answers...
inline constexpr const char* kStudy = "study";
inline constexpr const char* kFormulation = "formulation";
inline constexpr const char* kField = "field";  ///< the backend; in a Jacobian, the field f(x)
inline constexpr const char* kPrecision = "precision";
inline constexpr const char* kParameters = "parameters";
/// ...its state and the answer: each a vector of size n (multipliers r,
/// reaction n), gauss_z a number.
inline constexpr const char* kQ = "q";
inline constexpr const char* kQdot = "qdot";
inline constexpr const char* kQddot = "qddot";
inline constexpr const char* kMultipliers = "multipliers";
inline constexpr const char* kReaction = "reaction";
inline constexpr const char* kGaussZ = "gauss_z";
/// FieldJacobian (nhs/session/field_jacobian.hpp), under kJacobian: the
/// traced formulation (kFormulation), the names of x, f(x) (kField), the
/// rows of J and its eigenvalues as (re, im).
inline constexpr const char* kJacobian = "jacobian";
inline constexpr const char* kState = "state";
inline constexpr const char* kRows = "rows";
inline constexpr const char* kEigenvalues = "eigenvalues";

}  // namespace nhs::result_keys
