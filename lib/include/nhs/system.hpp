// The description of a mechanical system with (possibly non-linear)
// non-holonomic constraints, immutable once built. Everything the
// formulations need beyond these functions -- g_ij, Gamma_ij,k, dC/dqdot,
// dC/dq, psi^i_alpha, dpsi/dq, the active forces -- is derived by automatic
// differentiation (ad_derivations.hpp), through the one binding
// System::derivations that describe() makes (derivatives.hpp calls it).
#pragma once

#include "nhs/ad_derivations.hpp"
#include "nhs/autodiff.hpp"
#include "nhs/bodies.hpp"
#include "nhs/body_kinematics.hpp"
#include "nhs/errors.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nhs {

/// A named parameter of a system, with its default as exact decimal text
/// (so that "0.1" is the nearest value in every precision).
struct Parameter {
  std::string name;
  std::string default_value;
  std::string meaning;
};

/// What a system is, independently of the scalar type: the contract of
/// docs/studies.md (coordinate order, parameter names and defaults).
struct SystemInfo {
  std::string name;                           ///< study id, e.g. "skate"
  std::string title;                          ///< one line for `nhs list`
  std::string source;                         ///< seed section, e.g. "001 §9.1"
  std::vector<std::string> coordinates;       ///< q^i names, size n
  std::vector<Parameter> parameters;          ///< by name, with defaults
  std::vector<std::string> constraint_names;  ///< C^a names, size r
  std::vector<std::string> quasi_velocities;  ///< z^alpha names, size m (empty: no psi)
  bool linear_constraints = false;            ///< C^a linear and homogeneous in qdot: A(q) qdot
  /// Every C^a linear in qdot, and at least one with a term free of the
  /// velocities: C = A(q) qdot + a0(q), a0 != 0 (a moving support, or time
  /// as a clock coordinate; docs/affine-constraints.md). linear_constraints
  /// is then false: what needs A(q) qdot = 0 (the discrete
  /// Lagrange-d'Alembert integrator, the naive reduced Lagrangian) refuses.
  bool affine_constraints = false;
  /// Index (into q) of the clock coordinate, or -1. A rheonomic system (its
  /// T, V, forces or constraints depend on the time t) is written with t as
  /// this coordinate, under the affine constraint t_dot - 1 = 0 and with a
  /// kinetic term 1/2 t_dot^2, so that every formulation, field backend and
  /// stepper takes it unchanged (docs/affine-constraints.md A5). A system
  /// file that uses t gets it from the loader (named "time", after the
  /// others); a built-in study declares its own. -1: scleronomic (no
  /// explicit t). The state's t is q[clock_coordinate]; `nhs accel --t`,
  /// `nhs run --t0` and ProblemSpec::t set it.
  int clock_coordinate = -1;
  /// Indices (into q) of the r velocities that linear or affine constraints
  /// are solved for, qdot_dep = a(q) qdot_indep + a0(q) (Voronec, 002 eq. 8
  /// and its affine extension, docs/affine-constraints.md A6; the naive
  /// reduced Lagrangian). Empty: the system declares no such split.
  std::vector<int> dependent_velocities = {};
  /// The metric g_ij = d^2T/dqdot^i dqdot^j is only positive semidefinite
  /// (massless parts): the constraints determine qddot ([g; A] has full
  /// rank, semidefinite_mass.hpp), but the second kind, which inverts g,
  /// does not apply. Udwadia-Kalaba then uses M_A (seed 003); the first kind,
  /// Maggi, Gibbs-Appell, Voronec and KKT need only G = psi^T g psi, the
  /// reduced metric or the KKT matrix (000 eq. 27). Declared by a study;
  /// set by the loader for a system file whose g is singular at its
  /// initial state.
  bool semidefinite_metric = false;
};

/// A named distance of a state to a singular set of the system: 0 on the
/// set, positive off it (e.g. the bipendulum's max(|x1|, |x2|), which
/// vanishes on 000 eq. 72a). `condition` names the singular set, as
/// SingularState::condition does.
template <class S>
struct Margin {
  std::string name;       ///< CSV-friendly, e.g. "margin_72a"
  S value;                ///< >= 0; 0 on the singular set
  std::string condition;  ///< e.g. "P0 undefined (000 eq. 72a: x1 = x2 = 0)"
};

/// Parameter values lifted into the evaluation type T, indexed in the order
/// of SystemInfo::parameters (descriptions use an enum for the indices).
template <class T>
class Params {
 public:
  Params() = default;
  /// Values as constants of T with derivative vectors of `outer` (and, for
  /// AD2, `inner`) zeros: the number of variables of the derivation they
  /// enter (see sized_constant).
  template <class S>
  explicit Params(const std::vector<S>& values, Eigen::Index outer = 0, Eigen::Index inner = 0) {
    values_.reserve(values.size());
    for (const auto& v : values) values_.push_back(sized_constant<T>(v, outer, inner));
  }
  const T& operator[](int i) const { return values_[static_cast<std::size_t>(i)]; }
  std::size_t size() const { return values_.size(); }

 private:
  std::vector<T> values_;
};

/// Which AD types describe() binds System::derivations to: the fastest the
/// system and scalar allow (fixed-size, inline, else dynamic), or the
/// dynamic AD1/AD2 always (the reference the fast bindings are tested and
/// benchmarked against).
enum class AdBinding { fastest, dynamic };

/// A system in scalar type S: its metadata, parameter values, the defining
/// functions in S and their derivatives (g_ij, Gamma_ij,k, dC/dqdot, ...)
/// through one AD binding (derivations). Built by
/// `describe<S, Description>(values)`.
///
/// Shapes: n = coordinates, r = constraints, m = n - r parameters z^alpha
/// (m = 0 when the system has no parametric representation psi).
template <class S>
struct System {
  SystemInfo info;
  std::vector<S> parameters;  ///< values, in info.parameters order
  int n = 0, r = 0, m = 0;

  template <class T>
  using Fn0 = std::function<T(const Vec<T>&)>;
  template <class T>
  using Fn1 = std::function<T(const Vec<T>&, const Vec<T>&)>;
  template <class T>
  using VecFn = std::function<void(const Vec<T>&, const Vec<T>&, Vec<T>&)>;

  Fn1<S> kinetic_energy;           ///< T(q, qdot)
  Fn0<S> potential;                ///< V(q)
  VecFn<S> constraints;            ///< (q, qdot) -> C^a, size r
  VecFn<S> nonconservative_force;  ///< (q, qdot) -> F_i, size n; may be empty
  /// (q, qdot) -> C_i, size n; may be empty: seed 003's vector C of a
  /// non-ideal constraint, the virtual work of the constraint forces
  /// delta W_c = C_i delta q^i on displacements with (dC^a/dqdot^i) delta q^i
  /// = 0 (003, "Equazione di Udwadia-Kalaba", the display after K). The total
  /// constraint force is then R_i = lambda_a dC^a/dqdot^i + C_i. Udwadia-Kalaba
  /// adds it as the term K; every other formulation as a generalized force
  /// (active_force, derivatives.hpp; docs/numerics.md, non-ideal constraints).
  VecFn<S> nonideal_constraint_force;
  VecFn<S> parametrization;        ///< (q, z) -> qdot = psi(q, z); empty if none
  VecFn<S> chart;                  ///< inverse chart (q, qdot) -> z; empty if none

  bool has_parametrization() const { return static_cast<bool>(parametrization); }

  /// The derivations of derivatives.hpp (ad_derivations.hpp), bound by
  /// describe() to the fastest AD type the system allows: in the hardware
  /// types (has_inline_ad<S>) fixed-size (FixedAD1/2) when the description
  /// declares its n at compile time (`static constexpr int n`), inline
  /// (InlineAD1/2) when 2n <= 16; the dynamic AD1/AD2 otherwise (MPFR,
  /// large runtime n, the tracing type) or when describe() is asked for
  /// them (AdBinding::dynamic). Same results to rounding
  /// (test_fast_derivations). Always bound: the one path of every
  /// derivation.
  struct Derivations {
    std::string ad_type = "dynamic";  ///< "fixed", "inline" or "dynamic"
    std::function<Inertia<S>(const Vec<S>&, const Vec<S>&)> inertia;
    std::function<KineticEnergyJet<S>(const KineticEnergySeed<S>&)> kinetic_energy_jet;
    std::function<Vec<S>(const Vec<S>&)> minus_potential_gradient;  ///< -dV/dq, size n
    std::function<ConstraintJacobians<S>(const Vec<S>&, const Vec<S>&)> constraint_jacobians;
    /// empty also when the system has no psi
    std::function<ParametrizationJacobians<S>(const Vec<S>&, const Vec<S>&)>
        parametrization_jacobians;
    /// The bodies' kinematics (body_kinematics.hpp); empty also when the
    /// description has no bodies.
    std::function<BodyKinematics<S>(const Vec<S>&, const Vec<S>&)> body_kinematics;
  };
  Derivations derivations;

  /// The bodies (bodies.hpp) at (q, qdot); empty if the description has none.
  template <class T>
  using BodiesFn = std::function<void(const Vec<T>&, const Vec<T>&, Bodies<T>&)>;
  BodiesFn<S> bodies;
  bool has_bodies() const { return static_cast<bool>(bodies); }

  /// The system's own singular sets beyond rank loss of dC/dqdot and
  /// dpsi/dz (which the formulations detect generically), as margins at
  /// (q, qdot); empty if the description declares none (singular_set.hpp).
  std::function<std::vector<Margin<S>>(const Vec<S>&, const Vec<S>&)> singular_margins;

  /// Maps q (size n) onto the system's holonomic constraints f(q) = 0 (a
  /// system file's [holonomic], whose velocity forms are among C):
  /// IntegrationOptions::project applies it before the velocities are
  /// projected. Empty: the system has none.
  std::function<void(Vec<S>& q)> project_coordinates;

  /// Value of the named parameter; throws UsageError for an unknown name.
  const S& parameter(const std::string& name) const {
    for (std::size_t i = 0; i < info.parameters.size(); ++i)
      if (info.parameters[i].name == name) return parameters[i];
    throw UsageError("system '" + info.name + "' has no parameter '" + name + "'");
  }
};

namespace detail {

/// d.declares(member) when the description has that run-time hook (see
/// describe()), true otherwise: a description without data has every
/// member it compiles with.
template <class D>
bool declares(const D& d, std::string_view member) {
  if constexpr (requires { d.declares(member); })
    return d.declares(member);
  else
    return true;
}

/// Binds sys.derivations to D's functions evaluated in AV (first order over q, n
/// variables: V), AX (first order over (q, qdot), 2n, and over (q, z),
/// n + m: C and psi), A2 (second order, outer (q, qdot), inner qdot: T) and
/// AB (second order, outer (q, qdot), inner one direction: the bodies).
/// Parameters are sized to each derivation (sized_constant).
template <class S, class D, class AV, class AX, class A2, class AB>
void bind_derivations(System<S>& sys, const D& d, const std::vector<S>& values,
                           const char* ad_type) {
  const Eigen::Index n = sys.n, m = static_cast<Eigen::Index>(sys.info.quasi_velocities.size());
  const Eigen::Index r = sys.r;
  sys.derivations.ad_type = ad_type;
  const Params<A2> pT(values, ad::slots<A2>(2 * n), ad::slots<typename A2::Real>(n));
  sys.derivations.inertia = [pT, d](const Vec<S>& q, const Vec<S>& qd) {
    return ad::inertia<S, A2>(
        [&pT, &d](const Vec<A2>& Q, const Vec<A2>& QD) { return d.kinetic_energy(pT, Q, QD); }, q,
        qd);
  };
  sys.derivations.kinetic_energy_jet = [pT, d](const KineticEnergySeed<S>& seed) {
    return ad::kinetic_energy_jet<S, A2>(
        [&pT, &d](const Vec<A2>& Q, const Vec<A2>& QD) { return d.kinetic_energy(pT, Q, QD); },
        seed);
  };
  sys.derivations.minus_potential_gradient = [](const Vec<S>& q) { return Vec<S>::Zero(q.size()); };
  if constexpr (requires(const Params<S>& p, const Vec<S>& q) { d.potential(p, q); }) {
    if (detail::declares(d, "potential")) {
      const Params<AV> pV(values, ad::slots<AV>(n));
      sys.derivations.minus_potential_gradient = [pV, d](const Vec<S>& q) {
        return ad::minus_potential_gradient<S, AV>(
            [&pV, &d](const Vec<AV>& Q) { return d.potential(pV, Q); }, q);
      };
    }
  }
  const Params<AX> pC(values, ad::slots<AX>(2 * n));
  sys.derivations.constraint_jacobians = [pC, r, d](const Vec<S>& q, const Vec<S>& qd) {
    return ad::constraint_jacobians<S, AX>(
        [&pC, &d](const Vec<AX>& Q, const Vec<AX>& QD, Vec<AX>& C) {
          d.constraints(pC, Q, QD, C);
        },
        r, q, qd);
  };
  if constexpr (requires(const Params<S>& p, const Vec<S>& q, Vec<S>& out) {
                  d.parametrization(p, q, q, out);
                }) {
    if (sys.has_parametrization()) {
      const Params<AX> pPsi(values, ad::slots<AX>(n + m));
      sys.derivations.parametrization_jacobians = [pPsi, d](const Vec<S>& q, const Vec<S>& z) {
        return ad::parametrization_jacobians<S, AX>(
            [&pPsi, &d](const Vec<AX>& Q, const Vec<AX>& Z, Vec<AX>& qd) {
              d.parametrization(pPsi, Q, Z, qd);
            },
            q, z);
      };
    }
  }
  if constexpr (requires(const Params<S>& p, const Vec<S>& q, Bodies<S>& b) {
                  d.bodies(p, q, q, b);
                }) {
    if (sys.has_bodies()) {
      const Params<AB> pB(values, ad::slots<AB>(2 * n), ad::slots<typename AB::Real>(1));
      sys.derivations.body_kinematics = [pB, d, name = sys.info.name](const Vec<S>& q, const Vec<S>& qd) {
        return ad::body_kinematics<S, AB>(
            [&pB, &d](const Vec<AB>& Q, const Vec<AB>& QD, Bodies<AB>& b) {
              d.bodies(pB, Q, QD, b);
            },
            q, qd, name);
      };
    }
  }
}

}  // namespace detail

template <class S>
void check_description(const System<S>& sys);  // nhs/description_check.hpp

/// True inside a template over S and D (detail::check_member_signatures)
/// when D declares a member `member` (a function or a function template
/// taking the evaluation type), whatever its signature.
#define NHS_DESCRIPTION_DECLARES_(member) \
  (requires { &D::member; } || requires { &D::template member<S>; })

namespace detail {

/// describe()'s compile-time check of D's optional members: one declared
/// under its expected name but with another signature would otherwise be
/// ignored silently (a `potential` without its Params argument: V = 0).
/// Each is a compile error naming the member.
template <class S, class D>
void check_member_signatures(const D& d, const std::vector<S>& values) {
  const Params<S> pS(values);
  static_assert(!NHS_DESCRIPTION_DECLARES_(potential) ||
                    requires(const Vec<S>& q) { d.potential(pS, q); },
                "description member `potential` must be "
                "template <class T> static T potential(const Params<T>&, const Vec<T>& q)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(parametrization) ||
                    requires(const Vec<S>& q, Vec<S>& out) { d.parametrization(pS, q, q, out); },
                "description member `parametrization` must be template <class T> static void "
                "parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(parametrization) ||
                    requires(const Vec<S>& q, Vec<S>& z) { d.chart(pS, q, q, z); },
                "description member `chart` (the inverse of parametrization) must be template "
                "<class S> static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& "
                "qd, Vec<S>& z)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(bodies) ||
                    requires(const Vec<S>& q, Bodies<S>& b) { d.bodies(pS, q, q, b); },
                "description member `bodies` must be template <class T> static void "
                "bodies(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(nonconservative_force) ||
                    requires(const Vec<S>& q, Vec<S>& F) {
                      d.nonconservative_force(pS, q, q, F);
                    },
                "description member `nonconservative_force` must be template <class S> static "
                "void nonconservative_force(const Params<S>&, const Vec<S>& q, const Vec<S>& "
                "qd, Vec<S>& F)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(nonideal_work) ||
                    requires(const Vec<S>& q, Vec<S>& C) { d.nonideal_work(pS, q, q, C); },
                "description member `nonideal_work` must be template <class S> static void "
                "nonideal_work(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& C)");
  static_assert(!NHS_DESCRIPTION_DECLARES_(singular_margins) ||
                    requires(const Vec<S>& q) { d.singular_margins(pS, q, q); },
                "description member `singular_margins` must be template <class S> static "
                "std::vector<Margin<S>> singular_margins(const Params<S>&, const Vec<S>& q, "
                "const Vec<S>& qd)");
}

/// describe()'s closures in S over D's members (the parameters pS
/// captured): T, V (0 when D has none), C, and the optional F, non-ideal
/// C, psi and its chart (which set sys.m), singular margins and bodies,
/// each where D has it and declares it (detail::declares).
template <class S, class D>
void bind_functions(System<S>& sys, const D& d, const Params<S>& pS) {
  sys.kinetic_energy = [pS, d](const Vec<S>& q, const Vec<S>& qd) {
    return d.kinetic_energy(pS, q, qd);
  };
  if constexpr (requires(const Vec<S>& q) { d.potential(pS, q); }) {
    if (detail::declares(d, "potential")) {
      sys.potential = [pS, d](const Vec<S>& q) { return d.potential(pS, q); };
    }
  }
  if (!sys.potential) sys.potential = [](const Vec<S>&) { return S(0); };
  sys.constraints = [pS, d](const Vec<S>& q, const Vec<S>& qd, Vec<S>& C) {
    d.constraints(pS, q, qd, C);
  };
  if constexpr (requires(const Vec<S>& q, Vec<S>& F) { d.nonconservative_force(pS, q, q, F); }) {
    if (detail::declares(d, "nonconservative_force"))
      sys.nonconservative_force = [pS, d](const Vec<S>& q, const Vec<S>& qd, Vec<S>& F) {
        d.nonconservative_force(pS, q, qd, F);
      };
  }
  if constexpr (requires(const Vec<S>& q, Vec<S>& C) { d.nonideal_work(pS, q, q, C); }) {
    if (detail::declares(d, "nonideal_work"))
      sys.nonideal_constraint_force = [pS, d](const Vec<S>& q, const Vec<S>& qd, Vec<S>& C) {
        d.nonideal_work(pS, q, qd, C);
      };
  }
  if constexpr (requires(const Vec<S>& q, Vec<S>& out) { d.parametrization(pS, q, q, out); }) {
    if (detail::declares(d, "parametrization")) {
      sys.m = static_cast<int>(sys.info.quasi_velocities.size());
      sys.parametrization = [pS, d](const Vec<S>& q, const Vec<S>& z, Vec<S>& qd) {
        d.parametrization(pS, q, z, qd);
      };
      sys.chart = [pS, d](const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
        d.chart(pS, q, qd, z);
      };
    }
  }
  if constexpr (requires(const Vec<S>& q) { d.singular_margins(pS, q, q); }) {
    if (detail::declares(d, "singular_margins"))
      sys.singular_margins = [pS, d](const Vec<S>& q, const Vec<S>& qd) {
        return d.singular_margins(pS, q, qd);
      };
  }
  if constexpr (requires(const Vec<S>& q, Bodies<S>& b) { d.bodies(pS, q, q, b); }) {
    if (detail::declares(d, "bodies")) {
      sys.bodies = [pS, d](const Vec<S>& q, const Vec<S>& qd, Bodies<S>& b) {
        d.bodies(pS, q, qd, b);
      };
    }
  }
}

/// Binds sys.derivations (bind_derivations) to the fastest AD types that
/// `binding` allows: fixed-size when D declares its n, inline when 2n <=
/// kInlineADVariables (hardware types only), the dynamic AD1/AD2 otherwise.
template <class S, class D>
void bind_fastest_derivations(System<S>& sys, const D& d, const std::vector<S>& values, AdBinding binding) {
  bool bound = false;
  if constexpr (has_inline_ad<S>) {
    if (binding == AdBinding::fastest) {
      if constexpr (requires { D::n; }) {
        constexpr int N = D::n;
        detail::bind_derivations<S, D, FixedAD1<S, N>, FixedAD1<S, 2 * N>, FixedAD2<S, 2 * N, N>,
                                 FixedAD2<S, 2 * N, 1>>(sys, d, values, "fixed");
        bound = true;
      } else if (2 * sys.n <= kInlineADVariables) {
        detail::bind_derivations<S, D, InlineAD1<S>, InlineAD1<S>, InlineAD2<S>, InlineAD2<S>>(
            sys, d, values, "inline");
        bound = true;
      }
    }
  }
  if (!bound)
    detail::bind_derivations<S, D, AD1<S>, AD1<S>, AD2<S>, AD2<S>>(sys, d, values, "dynamic");
}

}  // namespace detail

#undef NHS_DESCRIPTION_DECLARES_

/// Builds System<S> from a description D with parameter values (in the
/// order of D::info().parameters; size checked, UsageError otherwise).
///
/// D provides, as static member templates over the evaluation type T:
///   SystemInfo info();
///   T kinetic_energy(const Params<T>&, const Vec<T>& q, const Vec<T>& qd);
///   void constraints(const Params<T>&, q, qd, Vec<T>& C);      // C sized r
/// and optionally
///   T potential(const Params<T>&, const Vec<T>& q);            // default 0
///   void parametrization(const Params<T>&, q, z, Vec<T>& qd);  // qd sized n
///   void chart(const Params<S>&, q, qd, Vec<S>& z);            // z sized m
///   void bodies(const Params<T>&, q, qd, Bodies<T>& out);      // bodies.hpp
///   void nonconservative_force(const Params<S>&, q, qd, Vec<S>& F);
///   void nonideal_work(const Params<S>&, q, qd, Vec<S>& C);   // C sized n:
///        // seed 003's non-ideal constraint vector (System::nonideal_constraint_force)
///   std::vector<Margin<S>> singular_margins(const Params<S>&, q, qd);
///   static constexpr int n;  // coordinates, when fixed: derivations in
///                            // fixed-size AD (System::derivations); must equal
///                            // info().coordinates.size() (UsageError)
/// Descriptions write constants with ratio<T>(num, den), never double
/// literals, and call functions unqualified after `using std::sin;`.
/// Parameters arrive as AD constants with allocated zero derivatives, so
/// products of parameters may be written in any order; a ratio<T> constant
/// has empty derivatives: multiply it into a parameter or a variable, not
/// into another ratio.
///
/// An optional member declared with another signature than the one above
/// is a compile error naming it (static_assert). The description is
/// checked against itself (check_description,
/// nhs/description_check.hpp: the count of quasi-velocities, the bodies'
/// kinetic energy against T, declared linearity of C): UsageError naming
/// the member.
///
/// The overload with an explicit `info` serves descriptions whose size is
/// chosen at run time (e.g. the N-trailer, n = N + 3): D then needs no
/// static info(), and its functions take the sizes from their arguments
/// (n = q.size(), r = C.size(), m = z.size()), which describe() sizes
/// from `info` (coordinates, constraint_names, quasi_velocities).
///
/// The overload with a description object `d` serves descriptions that
/// carry data (a system file's expressions, nhs/studies/system_file.hpp):
/// the members above are then called on `d` (copied into the System's
/// closures; static members work the same way), and `d` may declare
///   bool declares(std::string_view member) const;
/// to say at run time which optional members ("potential",
/// "parametrization", "bodies", "nonconservative_force", "nonideal_work",
/// "singular_margins") it really has.
template <class S, class D>
System<S> describe(const D& d, const std::vector<S>& values, SystemInfo info,
                   AdBinding binding = AdBinding::fastest) {
  // An optional member under its expected name but with another signature
  // is a compile error naming it.
  detail::check_member_signatures<S>(d, values);
  System<S> sys;
  sys.info = std::move(info);
  if (values.size() != sys.info.parameters.size())
    throw UsageError("system '" + sys.info.name + "' takes " +
                     std::to_string(sys.info.parameters.size()) + " parameters, got " +
                     std::to_string(values.size()));
  sys.parameters = values;
  sys.n = static_cast<int>(sys.info.coordinates.size());
  sys.r = static_cast<int>(sys.info.constraint_names.size());
  const Params<S> pS(values);
  detail::bind_functions(sys, d, pS);
  if constexpr (requires { D::n; }) {
    if (sys.n != D::n)
      throw UsageError("system '" + sys.info.name + "': description declares n = " +
                       std::to_string(D::n) + " but names " + std::to_string(sys.n) +
                       " coordinates");
  }
  detail::bind_fastest_derivations(sys, d, values, binding);
  // The self-consistency checks of nhs/description_check.hpp, in every
  // supported scalar type (not the tracing one of code generation, which has
  // no values to compare).
  if constexpr (requires { ScalarName<S>::value; }) check_description(sys);
  return sys;
}

/// describe(D{}, values, info, binding): a description without data.
template <class S, class D>
System<S> describe(const std::vector<S>& values, SystemInfo info,
                   AdBinding binding = AdBinding::fastest) {
  return describe<S>(D{}, values, std::move(info), binding);
}

/// describe<S, D>(values, D::info(), binding): the description's static info().
template <class S, class D>
System<S> describe(const std::vector<S>& values, AdBinding binding = AdBinding::fastest) {
  return describe<S, D>(values, D::info(), binding);
}

}  // namespace nhs
