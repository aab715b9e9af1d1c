// The checks of a body's constants at the default parameters (docs/bodies.md,
// "What the loader refuses"): a central inertia tensor in a frame must be
// symmetric and positive semidefinite, and its principal moments must satisfy
// the triangle inequality (A + B >= C for each ordering: the moments of a
// rigid body, Goldstein, Poole and Safko, Classical Mechanics, 3rd ed., ch.
// 5); a rolling surface's radius, crown and semi-axes must be positive (a
// crown may be 0). Each error names the table, the key and the values. The
// sizes are kept (SystemFile::sizes) so that every build checks them again
// at its own parameters (--param).
#include "loader.hpp"

#include "nhs/scalar.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <sstream>

namespace nhs {

std::string inertia_violation(const Eigen::Matrix3d& J) {
  const double scale = J.cwiseAbs().maxCoeff();
  const double tol = 64 * std::numeric_limits<double>::epsilon() * scale;
  std::ostringstream at;
  at.precision(17);
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (!(std::abs(J(i, j) - J(j, i)) <= tol)) {
        at << "is not symmetric: [" << i + 1 << "][" << j + 1 << "] = " << J(i, j) << ", [" << j + 1 << "][" << i + 1
           << "] = " << J(j, i);
        return at.str();
      }
  const Eigen::Vector3d m = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(J, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(m(0) >= -tol)) {
    at << "is not positive semidefinite: principal moments (" << m(0) << ", " << m(1) << ", " << m(2) << ")";
    return at.str();
  }
  if (!(m(0) + m(1) >= m(2) - tol)) {
    at << "breaks the triangle inequality of a rigid body's principal moments: " << m(0) << " + " << m(1) << " < "
       << m(2);
    return at.str();
  }
  return "";
}

namespace systemfile {

std::optional<double> Loader::at_defaults(const toml::node& n, const std::string& what) {
  Program p;
  try {
    p.add(expression::parse(string_of(n, what)), bind({}));
  } catch (const expression::ExpressionError&) {
    return std::nullopt;  // names q or t: not a constant (the expression's own errors come from its reader)
  }
  std::vector<double> defaults;
  for (const Parameter& par : f_.info.parameters) defaults.push_back(from_string<double>(par.default_value));
  const expression::Constants<double> c = expression::constants_of<double>(p);
  double out = 0;
  expression::evaluate(p, c, Params<double>(defaults), {}, &out);
  return out;
}

void Loader::check_inertia(const toml::node& Jn, const std::string& what,
                           const std::vector<std::vector<const toml::node*>>& rows) {
  Eigen::Matrix3d J;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const auto v = at_defaults(*rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)], what + " inertia");
      if (!v) return;  // not a constant: nothing to check here
      J(i, j) = *v;
    }
  // Kept for every build's parameters (file_description.hpp, file_parameter_violation).
  if (!f_.inertias) f_.inertias.emplace();
  for (const auto& row : rows)
    for (const toml::node* e : row) expression_into(*e, what + " inertia", bind({}), *f_.inertias);
  f_.inertia_conditions.push_back({what + " inertia", where(Jn)});
  if (const std::string why = inertia_violation(J); !why.empty())
    fail(Jn, what + " inertia " + why + " (at the default parameters)");
}

void Loader::check_size(const toml::node& n, const std::string& what, bool zero_allowed) {
  const auto v = at_defaults(n, what);
  if (!v) return;
  // Kept for every build's parameters (file_description.hpp, file_parameter_violation).
  if (!f_.sizes) f_.sizes.emplace();
  expression_into(n, what, bind({}), *f_.sizes);
  f_.size_conditions.push_back({what, where(n), zero_allowed});
  if (*v > 0 || (zero_allowed && *v == 0)) return;
  std::ostringstream at;
  at.precision(17);
  at << what << " = " << *v << " at the default parameters: it must be " << (zero_allowed ? ">= 0" : "> 0");
  fail(n, at.str());
}

}  // namespace systemfile
}  // namespace nhs
