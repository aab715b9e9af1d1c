// A study: a system of docs/studies.md with its default state, its invariants,
// its analytic special motions (closed forms from docs/special-motions.md, kept
// as library code with their own tests, as Drake does) and a generator of
// random regular states for cross-validation.
#pragma once

#include "nhs/system.hpp"

#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// A kinematic state (q, qdot), both size n.
template <class S>
struct State {
  Vec<S> q;
  Vec<S> qdot;
};

/// A quantity along the motion, recorded as a named CSV column.
template <class S>
struct Invariant {
  std::string name;
  std::function<S(const Vec<S>& q, const Vec<S>& qd)> value;
  bool conserved = true;  ///< asserted constant along motions when true
};

/// An analytic solution: parameters, exact initial state, closed form.
template <class S>
struct SpecialMotion {
  std::string name;                 ///< e.g. "circle (k = 0)"
  std::string source;               ///< e.g. "docs/special-motions.md rolling-disc"
  std::vector<S> parameters;        ///< full parameter vector of the study
  State<S> initial;                 ///< on C, exact in S
  S t_end;                          ///< closed form valid (and regular) on [0, t_end]
  std::function<State<S>(const S& t)> exact;  ///< (q(t), qdot(t))
  /// Formulations that cannot follow this motion, with the reason (e.g. a
  /// fixed choice of dependent velocities that is singular on the way).
  std::map<std::string, std::string> excluded = {};
};

/// Holonomic constraints f^k(q) = 0, k = 1 .. h (a file's [holonomic]).
/// Their velocity forms df^k/dq qdot = 0 are among the system's
/// constraints C, so that every formulation takes them; f itself serves
/// the admission of q (admit_holonomic) and the drift along a run.
template <class S>
struct HolonomicConstraints {
  std::vector<std::string> names;  ///< h
  std::vector<int> dependent;      ///< empty, or h coordinate indices solved for on admission
  /// f(q) (size h) for the system's parameters and, when `jacobian` is not
  /// null, df/dq (h x n) into it (forward AD, exact).
  std::function<Vec<S>(const System<S>& sys, const Vec<S>& q, Mat<S>* jacobian)> f;
};

/// Admits q onto the holonomic constraints f(q) = 0: with dependent
/// coordinates, solves for them by Newton's method from the given values
/// (the others held), to a step of a few epsilon in S; then requires each
/// |f^k(q)| <= tol (1 + max |q|) |df^k/dq|, q's distance to the level set
/// to first order, so that a constraint's scale (f times 1e200 or 1e-200)
/// does not matter. Throws InvalidState naming each constraint off by
/// more, with its value, or when Newton's method does not converge in 60
/// steps (with max |f|); SingularState ("holonomic constraints singular")
/// where df/dq on the dependent coordinates is singular, or at a root
/// where a constraint's gradient vanishes (Newton's steps shrinking only
/// linearly, or df^k/dq = 0 at q), naming the constraint and q.
template <class S>
void admit_holonomic(const HolonomicConstraints<S>& h, const System<S>& sys, Vec<S>& q, const S& tol);

/// A point of a family of steady motions (SteadyFamily::at) with the
/// derivatives of the state along the family's parameters mu (size p).
template <class S>
struct SteadyPoint {
  Vec<S> q;   ///< n
  Mat<S> dq;  ///< n x p, dq/dmu
  /// The velocities: the quasi-velocities z (size m) when `in_z`, else
  /// qdot (size n); dv their derivatives (m x p or n x p).
  bool in_z = false;
  Vec<S> v;
  Mat<S> dv;
};

/// A family of steady motions: states x(mu) along which every velocity and
/// every coordinate but the ignorable ones stay constant (the upright
/// rolling disc at speed v; docs/linearization.md). `nhs linearize` and
/// `nhs stability` take them by name.
template <class S>
struct SteadyFamily {
  std::string name;                     ///< e.g. "upright"
  std::string source;                   ///< where it is stated (a file position, a docs section)
  std::vector<std::string> parameters;  ///< mu, size p >= 1
  /// The state at mu (size p) of the system `sys`, with its derivatives
  /// along mu (exact: automatic differentiation of the family's formulas).
  std::function<SteadyPoint<S>(const System<S>& sys, const Vec<S>& mu)> at;
};

template <class S>
struct Study {
  SystemInfo info;
  /// Makes the system for given parameter values (size and order of
  /// info.parameters) with its derivations bound as asked (describe(),
  /// nhs/system.hpp). Call it through build().
  std::function<System<S>(const std::vector<S>&, AdBinding)> builder;
  /// The system for given parameter values (size and order of
  /// info.parameters; UsageError otherwise), derivations bound to the
  /// fastest AD types unless `binding` asks for the dynamic ones.
  System<S> build(const std::vector<S>& p, AdBinding binding = AdBinding::fastest) const {
    return builder(p, binding);
  }
  /// Why build() would refuse the parameter values p (size and order of
  /// info.parameters) as physically meaningless, e.g. a file's inertia that
  /// breaks the triangle inequality or a negative radius, or "" when it
  /// would not. Empty: every value is admissible. Drawn parameters
  /// (randomized_parameters) are drawn again until admissible.
  std::function<std::string(const std::vector<S>&)> parameter_violation;
  /// The default initial state for given parameters (on C, regular).
  std::function<State<S>(const System<S>&)> default_state;
  /// Formulations that cannot follow the motion from the default state,
  /// with the reason (as SpecialMotion::excluded).
  std::map<std::string, std::string> default_run_excluded = {};
  /// Study-specific quantities along the motion (energy is added
  /// generically); none unless the study declares them.
  std::function<std::vector<Invariant<S>>(const System<S>&)> invariants =
      [](const System<S>&) { return std::vector<Invariant<S>>{}; };
  /// Whether T + V is a first integral for this system (false where a
  /// non-conservative force acts, e.g. rolling-disc with k != 0). Empty:
  /// always conserved.
  std::function<bool(const System<S>&)> conserves_energy;
  /// Analytic special motions (may be empty).
  std::function<std::vector<SpecialMotion<S>>()> special_motions;
  /// A random regular state on C (exact in S) for cross-validation.
  std::function<State<S>(const System<S>&, std::mt19937_64&)> random_state;
  /// Holonomic constraints (a file's [holonomic]); none when empty.
  std::optional<HolonomicConstraints<S>> holonomic;
  /// Families of steady motions (may be empty).
  std::function<std::vector<SteadyFamily<S>>()> steady_families = [] { return std::vector<SteadyFamily<S>>{}; };

  /// Default parameter values, parsed exactly in S.
  std::vector<S> default_parameters() const;
  /// conserves_energy(sys), true when not set.
  bool energy_is_conserved(const System<S>& sys) const {
    return !conserves_energy || conserves_energy(sys);
  }
};

/// The separate energy E = m/2 |v|^2 - m g x of a point of mass m in the
/// plane on the incline g along +x, with position (q[2k], q[2k+1]) and
/// velocity (qd[2k], qd[2k+1]): a conserved invariant named `name` (where
/// the point's reaction is normal to its velocity, as in parallel-points and
/// linear-bipendulum).
template <class S>
Invariant<S> incline_point_energy(std::string name, const S& mass, const S& g, int k) {
  return {std::move(name),
          [=](const Vec<S>& q, const Vec<S>& qd) {
            return mass * (qd[2 * k] * qd[2 * k] + qd[2 * k + 1] * qd[2 * k + 1]) / S(2) -
                   mass * g * q[2 * k];
          },
          true};
}

/// All built-in studies, in the order of docs/studies.md.
template <class S>
const std::vector<Study<S>>& studies();

/// The study with this id, or the system file at this path when
/// is_system_file_name(name) (loaded once and cached: cached_file_study,
/// nhs/studies/system_file.hpp; FileError or IoError when it cannot be
/// used); UsageError listing the known ids otherwise.
template <class S>
const Study<S>& find_study(const std::string& name);

/// The index of the parameter `name` in info.parameters; UsageError "study
/// '<id>' has no parameter '<name>' (known: ...)" otherwise.
std::size_t parameter_index(const SystemInfo& info, const std::string& name);

/// Parameters (size and order of study.info.parameters): the defaults with
/// the given name=value overrides applied in order (UsageError on an
/// unknown name, or a value that is not a number, "parameter <name>: ...").
template <class S>
std::vector<S> parameters_with(const Study<S>& study,
                               const std::vector<std::pair<std::string, std::string>>& overrides);
/// The same with values already in S (ProblemSpec::parameters): UsageError
/// on an unknown name only.
template <class S>
std::vector<S> parameters_with_values(const Study<S>& study,
                                      const std::vector<std::pair<std::string, S>>& overrides);

/// Uniform random value in [lo, hi], drawn as a double and converted exactly.
template <class S>
S uniform(std::mt19937_64& rng, double lo, double hi) {
  return S(std::uniform_real_distribution<double>(lo, hi)(rng));
}

/// Randomized parameters for cross-validation: each default times
/// U(0.5, 1.5); a zero default (fields, friction) becomes U(0.5, 2), so that
/// every force is active. Size and order of study.info.parameters. A draw
/// that the study's parameter_violation refuses (a rigid body's inertia
/// that breaks the triangle inequality, say) is drawn again, up to 256
/// draws; then UsageError naming the study and the last reason. A study
/// without parameter_violation takes its first draw, so its draws are
/// those of a plain loop over the defaults.
template <class S>
std::vector<S> randomized_parameters(const Study<S>& study, std::mt19937_64& rng) {
  const std::vector<S> defaults = study.default_parameters();
  std::string why;
  for (int draw = 0; draw < 256; ++draw) {
    std::vector<S> p = defaults;
    for (auto& v : p) v = (v == 0) ? uniform<S>(rng, 0.5, 2) : v * uniform<S>(rng, 0.5, 1.5);
    if (!study.parameter_violation) return p;
    why = study.parameter_violation(p);
    if (why.empty()) return p;
  }
  throw UsageError("study '" + study.info.name + "': no admissible random parameters in 256 draws around the " +
                   "defaults (the last: " + why + ")");
}

/// The standard random regular state: q uniform in [-3, 3]^n (angles on
/// both sides of every quadrant), z uniform in
/// [-1, 1]^m, qdot = psi(q, z). Requires a parametrization.
template <class S>
State<S> random_state_from_chart(const System<S>& sys, std::mt19937_64& rng);

/// A Study of the description D (describe() in nhs/system.hpp) with its
/// info and build filled, and, when D has a parametrization psi, the
/// standard random_state (random_state_from_chart). The study's file adds
/// the rest: default state, invariants, special motions, exclusions, or a
/// random_state of its own.
template <class S, class D>
Study<S> study_of() {
  Study<S> st;
  st.info = D::info();
  st.builder = [](const std::vector<S>& p, AdBinding b) { return describe<S, D>(p, b); };
  if constexpr (requires(const Params<S>& p, const Vec<S>& q, Vec<S>& out) {
                  D::parametrization(p, q, q, out);
                })
    st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
      return random_state_from_chart(sys, rng);
    };
  return st;
}

}  // namespace nhs
