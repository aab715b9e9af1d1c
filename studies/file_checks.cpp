// The numerical checks of a loaded system file
// (detail::check_system_file_numerically, nhs/systemfile/system_file.hpp):
// at the default parameters in 50 digits, on the file's study.
#include "file_description.hpp"

#include "nhs/manifold.hpp"
#include "nhs/semidefinite_mass.hpp"

#include <Eigen/Eigenvalues>

#include <optional>
#include <string>

namespace nhs {
namespace {

using namespace file_detail;

// A failure of describe()'s self-consistency checks (nhs/description_check.hpp)
// on a file's system, in the file's terms and at the table concerned. They
// name the description member found inconsistent ("system '<name>':
// description member `bodies` disagrees with ..."), which a file does not
// have: the bodies' kinetic energy ([[bodies]]), the rank of dC/dqdot
// against m = n - r, or linearity ([constraints]; the loader refuses the
// affine constraints that reached it before). Another UsageError is kept,
// at the file.
FileError description_error(const SystemFile& f, const std::string& message) {
  const std::string prefix = "system '" + f.info.name + "': description member `";
  if (message.rfind(prefix, 0) != 0) return FileError(f.path, message);
  const std::string rest = message.substr(prefix.size());
  const std::size_t colon = rest.find(": ");
  const std::string detail = colon == std::string::npos ? rest : rest.substr(colon + 2);
  const auto member = [&](const std::string& m) { return rest.rfind(m + "`", 0) == 0; };
  if (member("bodies"))
    return FileError(f.where("bodies"), "the kinetic energy of [[bodies]] differs from [dynamics] kinetic_energy: " +
                                            detail);
  if (member("quasi_velocities"))
    return FileError(f.where("constraints"),
                     "the constraints are not independent: at a random state dC/dq_dot has rank below r, so "
                     "that m = n - r quasi_velocities do not parametrize the velocities: quasi_velocities" +
                         rest.substr(std::string("quasi_velocities`").size()));
  if (member("linear_constraints"))
    return FileError(f.where("constraints"),
                     "a constraint found linear in q_dot symbolically is not A(q) q_dot numerically: " + detail);
  if (member("affine_constraints"))
    return FileError(f.where("constraints"),
                     "a constraint found affine in q_dot symbolically is not A(q) q_dot + a0(q) numerically: " +
                         detail);
  return FileError(f.path, message);
}

/// The system of a file at its default parameters; a failure of
/// describe()'s checks as description_error.
template <class S>
System<S> checked_default_system(const SystemFile& file, const Study<S>& st) {
  try {
    return st.build(st.default_parameters());
  } catch (const UsageError& e) {
    throw description_error(file, e.what());
  }
}

/// The initial z of a file with [parametrization] (given, or the chart's),
/// checked against the domain before psi refuses it with less context;
/// nullopt without [parametrization].
template <class S>
std::optional<Vec<S>> initial_z_in_domain(const SystemFile& file, const System<S>& sys) {
  std::optional<Vec<S>> z0;
  if (!sys.has_parametrization()) return z0;
  const Vec<S> q0 = evaluate_constant<S>(file.initial_q, sys.parameters);
  z0 = Vec<S>(sys.m);
  if (file.initial_z)
    *z0 = evaluate_constant<S>(*file.initial_z, sys.parameters);
  else
    sys.chart(q0, evaluate_constant<S>(*file.initial_qdot, sys.parameters), *z0);
  if (file.domain)
    if (const auto why = outside_domain<S>(file, constants_of<S>(*file.domain), Params<S>(sys.parameters), q0, *z0))
      throw FileError(file.where("initial"), std::string("the initial state is outside the domain of the "
                                                         "parametrization: ") + why->second +
                                                 (file.initial_z ? "" : " (z = chart(q, qdot))"));
  return z0;
}

/// The file's initial state (Study::default_state), evaluated and finite;
/// FileError at [initial] otherwise.
template <class S>
State<S> checked_initial_state(const SystemFile& file, const Study<S>& st, const System<S>& sys) {
  const State<S> s0 = [&] {
    try {
      return st.default_state(sys);
    } catch (const std::exception& e) {
      throw FileError(file.where("initial"), std::string("the initial state cannot be evaluated: ") + e.what());
    }
  }();
  if (!s0.q.allFinite() || !s0.qdot.allFinite())
    throw FileError(file.where("initial"), "the initial state is not finite: q = " + to_string(s0.q) +
                                               ", qdot = " + to_string(s0.qdot));
  return s0;
}

/// State x of system s is off the singular sets of [singular] (nhs run
/// refuses a state on one); else a FileError at `where` naming `what`.
template <class S>
void require_regular(const SystemFile& file, const System<S>& s, const State<S>& x, const std::string& where,
                     const std::string& what) {
  if (!s.singular_margins) return;
  const auto& domain = file.domain_conditions;
  for (const Margin<S>& mg : s.singular_margins(x.q, x.qdot))
    if (!(mg.value > 0)) {
      // A margin of a domain condition names its condition, not a singular set.
      const bool of_domain = std::any_of(domain.begin(), domain.end(),
                                         [&](const FileDomainCondition& d) { return d.name == mg.name; });
      throw FileError(file.where(where), what + (of_domain ? " is " : " is on a singular set of [singular]: ") +
                                             mg.condition + " (" + mg.name + " = " + to_string<S>(mg.value) +
                                             ", expected > 0) " + state_context(x.q, x.qdot));
    }
}

/// g positive definite (true), or (massless parts) positive semidefinite
/// with the accelerations determined, [g; A] of full rank (false;
/// semidefinite_mass.hpp); else a FileError at `where`.
template <class S>
bool positive_definite_metric(const SystemFile& file, const System<S>& s, const State<S>& x, const std::string& where,
                              const std::string& what) {
  const Inertia<S> in = inertia(s, x.q, x.qdot);
  Eigen::SelfAdjointEigenSolver<Mat<S>> eig(in.g, Eigen::EigenvaluesOnly);
  if (in.g.allFinite() && eig.eigenvalues().minCoeff() > 0) return true;
  const std::string metric = std::string("the metric g = d^2T/dqdot^2") +
                             (file.kinetic_energy_from_bodies ? " (T from [[bodies]])" : "");
  try {
    auxiliary_mass<S>(in.g, constraint_jacobians(s, x.q, x.qdot).C_qdot, s.info.coordinates,
                      [&] { return state_context(x.q, x.qdot); });
  } catch (const SingularState& e) {
    throw FileError(file.where(where),
                    metric + " is not positive definite at " + what + " (eigenvalues " +
                        to_string(Vec<S>(eig.eigenvalues())) + ")" +
                        (e.condition == "accelerations undetermined"
                             ? ", and the constraints do not determine the accelerations: "
                             : ": ") +
                        e.what());
  }
  return false;
}

/// At (q, z): psi satisfies C, C(q, psi(q, z)) = 0 (each C^a to tol times
/// max(1 + |psi(q, z)| + |z|, sum_i |dC^a/dqdot^i psi^i|)), and the chart
/// inverts psi, to tol times 1 + |psi(q, z)| + |z|; else a FileError. Nothing is
/// checked where psi, C or the chart is not finite (outside the chart's domain).
template <class S>
void check_parametrization_at(const SystemFile& file, const System<S>& sys, const Vec<S>& q, const Vec<S>& z,
                              const S& tol) {
  Vec<S> qd(sys.n), C(sys.r), z2(sys.m);
  sys.parametrization(q, z, qd);
  sys.constraints(q, qd, C);
  sys.chart(q, qd, z2);
  if (!qd.allFinite() || !C.allFinite() || !z2.allFinite()) return;  // outside the chart's domain
  const S scale = S(1) + qd.norm() + z.norm();
  // Where psi or the chart holds on part of z only (v > 0 for a chart
  // v = sqrt(...)), the file says so by a domain.
  const std::string hint =
      file.domain ? std::string()
                  : " (checked at z within 1 of the initial z; if psi and its chart hold on part of z "
                    "only, declare it: [parametrization] domain = [\"...\"], docs/system-files.md)";
  // Each C^a also against its terms' size, sum_i |dC^a/dqdot^i psi^i|: a
  // constraint written times 1e150 is judged by its own size.
  const Mat<S> A = constraint_jacobians(sys, q, qd).C_qdot;
  const Vec<S> terms = (A.cwiseAbs() * qd.cwiseAbs()).cwiseMax(scale);
  if (!(C.cwiseAbs().array() <= tol * terms.array()).all())
    throw FileError(file.where("parametrization"),
                    "the parametrization does not satisfy the constraints: C(q, psi(q, z)) = " +
                        to_string(C) + " at q = " + to_string(q) + ", z = " + to_string(z) + hint);
  if ((z2 - z).cwiseAbs().maxCoeff() > tol * scale)
    throw FileError(file.where("chart"), "the chart does not invert the parametrization: z(q, psi(q, z)) = " +
                                             to_string(z2) + " at q = " + to_string(q) +
                                             ", z = " + to_string(z) + hint);
}

/// check_parametrization_at the initial state (s0.q and its z, z0), then
/// at 8 states with q within 1 of s0.q and z within 1 of z0, drawn inside
/// the domain (at most 400 draws). Precondition: sys has a parametrization.
template <class S>
void check_parametrization(const SystemFile& file, const System<S>& sys, const State<S>& s0, const Vec<S>& z0,
                           const S& tol) {
  std::mt19937_64 rng(20261124);
  const Constants<S> domain = file.domain ? constants_of<S>(*file.domain) : Constants<S>{};
  const Params<S> params(sys.parameters);
  int states = 0;
  for (int draw = 0; draw < 400 && states < 9; ++draw) {
    Vec<S> q = s0.q;
    Vec<S> z = z0;
    if (draw > 0) {
      for (auto& v : q) v += uniform<S>(rng, -1, 1);
      for (auto& v : z) v += uniform<S>(rng, -1, 1);
      if (file.domain && outside_domain<S>(file, domain, params, q, z)) continue;
    }
    ++states;
    check_parametrization_at(file, sys, q, z, tol);
  }
}

/// Each [[exact]] motion builds at its parameters, starts on C (its closed
/// form at t = 0, to tol times 1 + |qdot|^2) off the singular sets, with
/// positive_definite_metric there; else a FileError at the motion.
template <class S>
void check_exact_motions(const SystemFile& file, const Study<S>& st, const S& tol) {
  const auto motions = st.special_motions();
  for (std::size_t k = 0; k < motions.size(); ++k) {
    const SpecialMotion<S>& mo = motions[k];
    System<S> msys;
    try {
      msys = st.build(mo.parameters);
    } catch (const UsageError& e) {
      throw FileError(file.where("exact." + std::to_string(k)),
                      "exact motion '" + mo.name + "', at its parameters: " + description_error(file, e.what()).reason);
    }
    Vec<S> C(msys.r);
    msys.constraints(mo.initial.q, mo.initial.qdot, C);
    const S scale = S(1) + mo.initial.qdot.squaredNorm();
    if (!mo.initial.q.allFinite() || !mo.initial.qdot.allFinite() || !C.allFinite() ||
        C.cwiseAbs().maxCoeff() > tol * scale)
      throw FileError(file.where("exact." + std::to_string(k)),
                      "exact motion '" + mo.name + "' does not start on the constraint manifold: C = " +
                          to_string(C) + " at t = 0, q = " + to_string(mo.initial.q) +
                          ", qdot = " + to_string(mo.initial.qdot));
    require_regular(file, msys, mo.initial, "exact." + std::to_string(k), "exact motion '" + mo.name + "' at t = 0");
    positive_definite_metric(file, msys, mo.initial, "exact." + std::to_string(k),
                             "the start of exact motion '" + mo.name + "'");
  }
}

}  // namespace

namespace detail {

// At the default parameters in 50 digits: the initial state is inside
// [parametrization] domain; psi satisfies C and the chart inverts psi (the
// initial state and 8 random states near it, inside the domain); g is
// positive definite, or positive semidefinite with the accelerations
// determined, at the initial state and at each [[exact]] motion's start
// (the bodies' T is checked by describe(): description_error).
/// The metric g at the initial state in double: finite, else a FileError
/// at T naming the overflow. Each value of a file must be finite in every
/// precision, and T may overflow where its constants do not: a body at
/// 1e200*x has T = m/2 (1e200 x_dot)^2, whose g is 1e400 m.
void require_finite_metric_in_double(const std::shared_ptr<const SystemFile>& file) {
  const Study<double> st = file_study<double>(file);
  const System<double> sys = checked_default_system(*file, st);
  const State<double> s0 = checked_initial_state(*file, st, sys);
  const Inertia<double> in = inertia(sys, s0.q, s0.qdot);
  if (in.g.allFinite()) return;
  throw FileError(file->where("dynamics.kinetic_energy"),
                  std::string("the metric g = d^2T/dqdot^2") +
                      (file->kinetic_energy_from_bodies ? " (T from [[bodies]])" : "") +
                      " is not finite in double at the initial state (a value beyond double's range, about "
                      "1.8e308: rescale the units): " + state_context(s0.q, s0.qdot));
}

bool check_system_file_numerically(const std::shared_ptr<const SystemFile>& file) {
  using S = mp50;
  const Study<S> st = file_study<S>(file);
  const System<S> sys = checked_default_system(*file, st);
  const std::optional<Vec<S>> z0 = initial_z_in_domain(*file, sys);
  const State<S> s0 = checked_initial_state(*file, st, sys);
  const S tol = S(1e-30);
  if (sys.has_parametrization()) check_parametrization(*file, sys, s0, *z0, tol);
  // After the chart's check: a margin of the domain at the initial state
  // reads z = chart(q, qdot).
  require_regular(*file, sys, s0, "initial", "the initial state");
  // Each [[exact]] motion starts on C (its closed form at t = 0).
  check_exact_motions(*file, st, tol);
  const bool semidefinite = !positive_definite_metric(*file, sys, s0, "dynamics.kinetic_energy", "the initial state");
  require_finite_metric_in_double(file);
  return semidefinite;
}

}  // namespace detail

}  // namespace nhs
