// The registry: each formulation's equations live in their own header
// (first_kind.hpp, second_kind.hpp, ...); these adapters only connect them
// to the common interface.
#include "nhs/first_kind.hpp"
#include "nhs/format.hpp"
#include "nhs/formulation.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/maggi.hpp"
#include "nhs/naive_reduced.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/udwadia_kalaba.hpp"
#include "nhs/voronec.hpp"

namespace nhs {
namespace {

template <class S>
class FirstKind final : public Formulation<S> {
 public:
  std::string name() const override { return "first-kind"; }
  std::string summary() const override {
    return "Benenti's equations of the first kind: field Z on C in (q, z), G = psi^T g psi "
           "(000 eq. 27; 001 Thm 7.1 corrected)";
  }
  std::string not_applicable_reason(const System<S>& sys) const override {
    return sys.has_parametrization() ? std::string()
                                     : "the system has no parametric representation psi(q, z)";
  }
  // z from the inverse chart; the chart must reproduce qdot (else the state
  // is outside the chart or off C).
  Vec<S> chart(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const {
    this->require_applicable(sys);
    Vec<S> z(sys.m);
    sys.chart(q, qd, z);
    Vec<S> back(sys.n);
    sys.parametrization(q, z, back);
    const S bound = S(1000) * epsilon<S>() * (S(1) + qd.cwiseAbs().maxCoeff());
    if (!((back - qd).cwiseAbs().maxCoeff() <= bound))
      throw InvalidState("state not represented by the chart z = " + to_string(z) +
                         ": psi(q, z) = " + to_string(back) + " differs from qdot " +
                         state_context(q, qd));
    return z;
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    return {first_kind(sys, q, chart(sys, q, qd)).qddot, std::nullopt, std::nullopt};
  }
  Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const override {
    Vec<S> x(sys.n + sys.m);
    const Vec<S> z = chart(sys, q, qd);  // may throw: not inside the comma initializer
    x << q, z;
    return x;
  }
  void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) const override {
    q = x.head(sys.n);
    qd.resize(sys.n);
    sys.parametrization(q, x.tail(sys.m), qd);
  }
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override {
    const FirstKindField<S> Z = first_kind<S>(sys, x.head(sys.n), x.tail(sys.m));
    Vec<S> dx(x.size());
    dx << Z.qdot, Z.zdot;
    return dx;
  }
};

// Formulations integrated in the first kind's coordinates (q, z): the chart
// (with its check that psi(q, z) reproduces qdot) and the state are the
// first kind's; each checks its own applicability first.
template <class S>
class OnChart : public Formulation<S> {
 public:
  Vec<S> chart(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const {
    this->require_applicable(sys);
    return FirstKind<S>().chart(sys, q, qd);
  }
  Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const override {
    Vec<S> x(sys.n + sys.m);
    const Vec<S> z = chart(sys, q, qd);  // may throw: not inside the comma initializer
    x << q, z;
    return x;
  }
  void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) const override {
    FirstKind<S>().from_state(sys, x, q, qd);
  }
};

template <class S>
class Maggi final : public OnChart<S> {
 public:
  std::string name() const override { return "maggi"; }
  std::string summary() const override {
    return "Maggi's equations, implicit form psi^T (d/dt dT/dqdot - dT/dq) = psi^T A in (q, z), "
           "solved for zdot by the zdot-derivative of the residual (AD), not via g, Gamma "
           "(000 eqs. 32-35)";
  }
  std::string not_applicable_reason(const System<S>& sys) const override {
    return sys.has_parametrization() ? std::string()
                                     : "the system has no parametric representation psi(q, z)";
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    return {maggi(sys, q, this->chart(sys, q, qd)).qddot, std::nullopt, std::nullopt};
  }
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override {
    const MaggiField<S> Z = maggi<S>(sys, x.head(sys.n), x.tail(sys.m));
    Vec<S> dx(x.size());
    dx << Z.qdot, Z.zdot;
    return dx;
  }
};

template <class S>
class GibbsAppell final : public OnChart<S> {
 public:
  std::string name() const override { return "gibbs-appell"; }
  std::string summary() const override {
    return "Gibbs-Appell equations dS/dzdot = A_alpha in (q, z), the Appellian S = 1/2 sum m a^2 "
           "(+ rigid-body terms) from the bodies' accelerations, differentiated in zdot by AD "
           "(001 §5-6; 000 eqs. 65-68)";
  }
  std::string not_applicable_reason(const System<S>& sys) const override {
    if (!sys.has_parametrization()) return "the system has no parametric representation psi(q, z)";
    if (!sys.has_bodies())
      return "the system has no body model (point masses, rigid bodies) to compute the "
             "Appellian from";
    return {};
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    return {gibbs_appell(sys, q, this->chart(sys, q, qd)).qddot, std::nullopt, std::nullopt};
  }
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override {
    const GibbsAppellField<S> Z = gibbs_appell<S>(sys, x.head(sys.n), x.tail(sys.m));
    Vec<S> dx(x.size());
    dx << Z.qdot, Z.zdot;
    return dx;
  }
};

template <class S>
class SecondKind final : public Formulation<S> {
 public:
  std::string name() const override { return "second-kind"; }
  std::string summary() const override {
    return "Benenti's equations of the second kind: field D on TQ, explicit multipliers and "
           "reactions (001 Thm 8.1-8.2; 000 eqs. 43-49 corrected)";
  }
  std::string not_applicable_reason(const System<S>& sys) const override {
    return sys.info.semidefinite_metric
               ? "the metric g is only positive semidefinite (massless parts) and the second "
                 "kind inverts g; udwadia-kalaba (with M_A) and lagrange-multipliers apply, and "
                 "first-kind, maggi, gibbs-appell and voronec where the system has what they "
                 "need (`nhs list`)"
               : std::string();
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    SecondKindField<S> D = second_kind(sys, q, qd);
    return {std::move(D.qddot), std::move(D.multipliers), std::move(D.reaction)};
  }
};

template <class S>
class UdwadiaKalaba final : public Formulation<S> {
 public:
  std::string name() const override { return "udwadia-kalaba"; }
  std::string summary() const override {
    return "Udwadia-Kalaba equation: M qddot = Q + Q_c, Q_c = M^1/2 (A M^-1/2)^+ (b - A M^-1 Q) "
           "by SVD pseudoinverse; redundant constraints allowed (003)";
  }
  // Multipliers only where dC/dqdot has full row rank (not unique otherwise).
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    UdwadiaKalabaField<S> U = udwadia_kalaba(sys, q, qd);
    return {std::move(U.qddot), std::move(U.multipliers), std::move(U.reaction)};
  }
};

template <class S>
class LagrangeMultipliers final : public Formulation<S> {
 public:
  std::string name() const override { return "lagrange-multipliers"; }
  std::string summary() const override {
    return "Lagrange multipliers by the augmented KKT system [g -C_qdot^T; C_qdot 0] "
           "[qddot; lambda] = [A - Gamma; -(dC/dq) qdot], solved directly (004; 001 eq. 3.11)";
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    LagrangeMultipliersField<S> L = lagrange_multipliers(sys, q, qd);
    return {std::move(L.qddot), std::move(L.multipliers), std::move(L.reaction)};
  }
};

// Voronec and the naive procedure integrate x = (q, qdot_indep) (voronec.hpp).
template <class S>
class Voronec final : public Formulation<S> {
 public:
  std::string name() const override { return "voronec"; }
  bool round_off_grows_with_speed() const override { return true; }
  std::string summary() const override {
    return "Voronec's equations: reduced Lagrangian Lbar(q, qdot_indep), b coefficients by AD, "
           "state (q, qdot_indep); needs linear or affine constraints and declared dependent velocities "
           "(002 eqs. 8-11; docs/affine-constraints.md A6-A7)";
  }
  std::string not_applicable_reason(const System<S>& sys) const override {
    return dependent_velocity_reason(sys.info);
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    this->require_applicable(sys);
    const Vec<S> qd_indep = qd(independent_velocities(sys.info));
    return {voronec(sys, q, qd_indep).qddot, std::nullopt, std::nullopt};
  }
  Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const override {
    this->require_applicable(sys);
    return reduced_state(sys, q, qd);
  }
  void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) const override {
    from_reduced_state(sys, x, q, qd);
  }
  std::vector<Margin<S>> singular_margins(const System<S>& sys, const Vec<S>& q,
                                          const Vec<S>&) const override {
    return {split_margin(sys, q)};
  }
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override {
    const VoronecField<S> V = voronec<S>(sys, x.head(sys.n), x.tail(sys.n - sys.r));
    Vec<S> dx(x.size());
    dx << V.qdot, V.qddot_indep;
    return dx;
  }
};

template <class S>
class NaiveReduced final : public Formulation<S> {
 public:
  std::string name() const override { return "naive-reduced"; }
  bool round_off_grows_with_speed() const override { return true; }
  std::string summary() const override {
    return "NEGATIVE CONTROL: the naive reduced Lagrangian of Hand-Finch that 002 refutes "
           "(eq. 6): Lagrange's equations of Lbar(q, qdot_indep) for the independent "
           "coordinates only; not a valid formulation";
  }
  bool is_negative_control() const override { return true; }
  std::string not_applicable_reason(const System<S>& sys) const override {
    if (sys.info.affine_constraints)
      return "the constraints are affine in qdot (A(q) qdot + a0(q) = 0), and the naive reduced Lagrangian "
             "is written for the homogeneous split qdot_dep = a(q) qdot_indep only";
    return dependent_velocity_reason(sys.info);
  }
  Acceleration<S> acceleration(const System<S>& sys, const Vec<S>& q,
                               const Vec<S>& qd) const override {
    this->require_applicable(sys);
    const Vec<S> qd_indep = qd(independent_velocities(sys.info));
    return {naive_reduced(sys, q, qd_indep).qddot, std::nullopt, std::nullopt};
  }
  Vec<S> to_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) const override {
    this->require_applicable(sys);
    return reduced_state(sys, q, qd);
  }
  void from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) const override {
    from_reduced_state(sys, x, q, qd);
  }
  std::vector<Margin<S>> singular_margins(const System<S>& sys, const Vec<S>& q,
                                          const Vec<S>&) const override {
    return {split_margin(sys, q)};
  }
  Vec<S> field(const System<S>& sys, const Vec<S>& x) const override {
    const NaiveReducedField<S> N = naive_reduced<S>(sys, x.head(sys.n), x.tail(sys.n - sys.r));
    Vec<S> dx(x.size());
    dx << N.qdot, N.qddot_indep;
    return dx;
  }
};

}  // namespace

template <class S>
const std::vector<std::unique_ptr<const Formulation<S>>>& formulations() {
  static const auto all = [] {
    std::vector<std::unique_ptr<const Formulation<S>>> v;
    v.push_back(std::make_unique<FirstKind<S>>());
    v.push_back(std::make_unique<Maggi<S>>());
    v.push_back(std::make_unique<GibbsAppell<S>>());
    v.push_back(std::make_unique<SecondKind<S>>());
    v.push_back(std::make_unique<UdwadiaKalaba<S>>());
    v.push_back(std::make_unique<LagrangeMultipliers<S>>());
    v.push_back(std::make_unique<Voronec<S>>());
    v.push_back(std::make_unique<NaiveReduced<S>>());
    return v;
  }();
  return all;
}

template <class S>
const Formulation<S>& find_formulation(const std::string& name) {
  std::string known;
  for (const auto& f : formulations<S>()) {
    if (f->name() == name) return *f;
    known += (known.empty() ? "" : ", ") + f->name();
  }
  throw UsageError("unknown formulation '" + name + "' (known: " + known + ")");
}

}  // namespace nhs
