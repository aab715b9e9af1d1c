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
/// parameters, state, x, field, cyclic, reduced, eigenvalues,
/// error_bounds (one per eigenvalue: eigenvalue_error_bounds), unstable,
/// marginal, undecided, verdict, zero_eigenvalues, residuals, tangent,
/// reduced_matrix, jacobian.
template <class S>
std::string linearization_json(const SteadyLinearization<S>& s, const std::string& precision);

/// The JSON text of a stability scan: system, formulation, precision,
/// steady, vary, from and to (the user's text when the scan has it),
/// points, csv (when `csv` is not empty: where the table was written),
/// crossings (each at, kind, frequency, unstable_below, unstable_above,
/// method, bracket), undecided (the grid values where some eigenvalue is
/// undecided: no crossing is bracketed by them).
template <class S>
std::string stability_json(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv);

/// The eigenvalue table of a scan as CSV: stability_csv_header, then
/// stability_csv_row for each grid value.
template <class S>
std::string stability_csv(const StabilityScan<S>& scan);

/// The CSV table's header line (with its newline): `<vary>,unstable,
/// marginal,undecided,re_1,im_1,...,re_E,im_E` for E eigenvalues.
std::string stability_csv_header(const std::string& vary, std::size_t eigenvalues);

/// One row of the table (with its newline): the value, the counts of
/// `lin`, and its eigenvalues.
template <class S>
std::string stability_csv_row(const S& value, const Linearization<S>& lin);

}  // namespace nhs
