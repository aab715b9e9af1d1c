// The documents of `nhs linearize` and `nhs stability` (docs/cli.md,
// "linearize", "stability"), which the Python module's System.linearize
// and System.stability read too: one JSON object, numbers as decimal
// strings in the full precision of S, and the eigenvalue table as CSV.
#pragma once

#include "nhs/session/steady_linearization.hpp"

#include <string>

namespace nhs {

/// The JSON text (indented by 2) of a linearized steady motion: system,
/// formulation, precision (its name, as given), steady, source, at,
/// parameters, state, x, field, cyclic, reduced, eigenvalues, unstable,
/// marginal, verdict, zero_eigenvalues, residuals, tangent, reduced_matrix,
/// jacobian.
template <class S>
std::string linearization_json(const SteadyLinearization<S>& s, const std::string& precision);

/// The JSON text of a stability scan: system, formulation, precision,
/// steady, vary, from, to, points, csv (when `csv` is not empty: where the
/// table was written), crossings (each at, kind, frequency, unstable_below,
/// unstable_above, method, bracket).
template <class S>
std::string stability_json(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv);

/// The eigenvalue table of a scan as CSV: a header `<vary>,unstable,
/// marginal,re_1,im_1,...`, then one row per grid value.
template <class S>
std::string stability_csv(const StabilityScan<S>& scan);

}  // namespace nhs
