// The named fields of a linearized steady motion and of a stability scan
// (steady_linearization.hpp), in one place: each result walks its fields
// in order and hands each, by name and with its type, to a writer. The
// Python module's nhs.Linearization and nhs.StabilityScan are such writers
// (python/src/results.cpp); the documents of `nhs linearize` and `nhs
// stability` (linearization_report.hpp) have the same names and order.
//
// A writer `out` has, for a field `key`:
//   out.text(key, std::string)                       a name, a verdict
//   out.names(key, std::vector<std::string>)         names (state, cyclic)
//   out.count(key, long long)                        a count
//   out.number(key, S)                               a value
//   out.numbers(key, std::vector<S>)                 a list of values
//   out.vector(key, Vec<S>)                          a vector
//   out.matrix(key, Mat<S>)                          a matrix
//   out.complex(key, std::vector<std::pair<S, S>>)   complex numbers (re, im)
//   out.named(key, std::vector<std::string>, Vec<S>) {name: value}
//   out.begin(key) ... out.end()                     an object of fields
//   out.begin_list(key), then per item out.begin("") ... out.end(),
//     then out.end_list()                            a list of objects
#pragma once

#include "nhs/session/steady_linearization.hpp"

#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// The fields of `s` (precision: its name, as given) to `out`: system,
/// formulation, precision, steady, source, at, parameters, state, x,
/// field, cyclic, reduced, eigenvalues, error_bounds, unstable, marginal,
/// undecided, verdict, zero_eigenvalues {family, cyclic, holonomic},
/// residuals {steady, family, holonomic, tolerance}, tangent,
/// reduced_matrix, jacobian.
template <class S, class Out>
void linearization_fields(const SteadyLinearization<S>& s, const std::string& precision, Out& out) {
  const Linearization<S>& L = s.lin;
  const auto names_of = [&](const std::vector<int>& idx) {
    std::vector<std::string> n;
    for (const int i : idx) n.push_back(s.state[static_cast<std::size_t>(i)]);
    return n;
  };
  out.text("system", s.system);
  out.text("formulation", s.formulation);
  out.text("precision", precision);
  out.text("steady", s.family);
  out.text("source", s.source);
  out.named("at", s.family_parameters, s.mu);
  std::vector<std::string> parameter_names;
  Vec<S> parameter_values(static_cast<Eigen::Index>(s.parameters.size()));
  for (std::size_t k = 0; k < s.parameters.size(); ++k) {
    parameter_names.push_back(s.parameters[k].first);
    parameter_values[static_cast<Eigen::Index>(k)] = s.parameters[k].second;
  }
  out.named("parameters", parameter_names, parameter_values);
  out.names("state", s.state);
  out.vector("x", s.x);
  out.vector("field", L.f);
  out.names("cyclic", names_of(L.cyclic));
  out.names("reduced", names_of(L.reduced));
  out.complex("eigenvalues", L.eigenvalues);
  out.numbers("error_bounds", L.bounds);
  out.count("unstable", L.unstable);
  out.count("marginal", L.marginal);
  out.count("undecided", L.undecided);
  out.text("verdict", stability_verdict(L));
  out.begin("zero_eigenvalues");
  out.complex("family", L.family_eigenvalues);
  out.complex("cyclic", L.cyclic_eigenvalues);
  out.complex("holonomic", L.holonomic_eigenvalues);
  out.end();
  out.begin("residuals");
  out.number("steady", L.steady_residual);
  out.number("family", L.family_residual);
  out.number("holonomic", L.holonomic_residual);
  out.number("tolerance", L.tolerance);
  out.end();
  out.matrix("tangent", L.tangent);
  out.matrix("reduced_matrix", L.D);
  out.matrix("jacobian", L.J);
}

/// The fields of `scan` to `out`: system, formulation, precision, steady,
/// vary, from and to (the user's text where the scan has it, else the
/// values), points, csv (where the table was written; left out when
/// empty), crossings (each at, kind, frequency, unstable_below,
/// unstable_above, method, bracket [lo, hi]), undecided (the grid values
/// where some eigenvalue is undecided).
template <class S, class Out>
void stability_fields(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv, Out& out) {
  out.text("system", scan.system);
  out.text("formulation", scan.formulation);
  out.text("precision", precision);
  out.text("steady", scan.family);
  out.text("vary", scan.vary);
  if (scan.from_text.empty()) out.number("from", scan.from); else out.text("from", scan.from_text);
  if (scan.to_text.empty()) out.number("to", scan.to); else out.text("to", scan.to_text);
  out.count("points", static_cast<long long>(scan.grid.size()));
  if (!csv.empty()) out.text("csv", csv);
  out.begin_list("crossings");
  for (const Crossing<S>& c : scan.crossings) {
    out.begin("");
    out.number("at", c.at);
    out.text("kind", c.kind);
    out.number("frequency", c.frequency);
    out.count("unstable_below", c.unstable_before);
    out.count("unstable_above", c.unstable_after);
    out.text("method", c.method);
    out.numbers("bracket", std::vector<S>{c.lo, c.hi});
    out.end();
  }
  out.end_list();
  out.numbers("undecided", scan.undecided);
}

}  // namespace nhs
