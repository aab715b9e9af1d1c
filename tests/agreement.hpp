// "Formulation A agrees with formulation B (or a reference) at random
// regular states": the walk of for_each_random_regular_state (same seed,
// same states), every comparison asserted to Tolerance<S>::cross and its
// worst case printed per comparison, with the study and state where it
// occurred. Shared by the tests of the formulations that are checked
// against the second kind (test_maggi.cpp, test_gibbs_appell.cpp,
// test_lagrange_multipliers.cpp, test_udwadia_kalaba.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "force_scale.hpp"
#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "random_states.hpp"
#include "scalar_test.hpp"

namespace nhs {

/// One random regular state of the walk: its study, system, state (on C)
/// and index k (what a failure names).
template <class S>
struct RandomState {
  const Study<S>& study;
  const System<S>& sys;
  const State<S>& x;
  int k;
};

/// |a - b| measured against `scale` (a relative difference), and 0 when
/// a = b exactly, so that an exact agreement at scale 0 passes.
template <class S>
S difference_relative_to(const S& difference, const S& scale) {
  return difference == S(0) ? S(0) : difference / scale;
}

/// The comparisons of one agreement test: each is asserted to
/// Tolerance<S>::cross and its worst case over the walk is kept, per label,
/// for print().
template <class S>
class Agreement {
 public:
  explicit Agreement(std::string name) : name_(std::move(name)) {}

  /// Asserts d <= Tolerance<S>::cross (d a relative difference) for the
  /// comparison `what` at state s, and keeps the worst.
  void expect(const std::string& what, const S& d, const RandomState<S>& s) {
    EXPECT_LE(d, Tolerance<S>::cross)
        << name_ << ": " << what << ", " << s.study.info.name << " state " << s.k;
    Worst& w = worst_[what];
    if (!w.where || d > w.value) w = {d, s.study.info.name + " state " + std::to_string(s.k)};
  }

  /// One line per comparison: its worst relative difference (and in eps)
  /// and where.
  void print() const {
    for (const auto& [what, w] : worst_)
      std::cout << "[ agree    ] " << ScalarName<S>::value << " " << name_ << ", " << what
                << ": max " << static_cast<double>(w.value) << " = "
                << static_cast<double>(w.value / epsilon<S>()) << " eps (" << w.where.value_or("-")
                << ")\n";
  }

 private:
  struct Worst {
    S value = S(0);
    std::optional<std::string> where;
  };
  std::string name_;
  std::map<std::string, Worst> worst_;
};

/// Walks `per_study` random regular states of every study for which
/// applies(default system) holds and the second kind applies (g positive
/// definite: not SystemInfo::semidefinite_metric) (for_each_random_regular_state
/// with `seed`), calls body(agreement, state) at each, then prints the worst
/// cases. Returns the number of studies walked.
template <class S, class Body>
int expect_agreement_at_random_regular_states(
    const std::string& name, std::uint64_t seed, int per_study, Body&& body,
    const std::function<bool(const System<S>&)>& applies = {}) {
  Agreement<S> agreement(name);
  const int walked = for_each_random_regular_state<S>(
      seed, per_study,
      [&](const Study<S>& st, const System<S>& sys, const State<S>& x, int k) {
        body(agreement, RandomState<S>{st, sys, x, k});
      },
      [&](const System<S>& sys0) {
        return !sys0.info.semidefinite_metric && (!applies || applies(sys0));
      });
  agreement.print();
  return walked;
}

/// A formulation in (q, z) against the second kind and the first kind at
/// state s, z = chart(q, qdot): its qddot against the second kind's
/// (relative); its zdot against the first kind's, relative to the size of
/// zdot and of the accelerations (zdot vanishes, up to rounding, wherever
/// the forces have no component along the constraint, e.g. the free skate);
/// its matrix in zdot (the Maggi matrix, the Appellian's Hessian) against
/// G = psi^T g psi (000 eq. 35, 001 eq. 4.4); and, through the registry
/// (`registered`), exactly the same qddot and zdot.
template <class S>
void expect_chart_formulation_agrees(Agreement<S>& a, const Formulation<S>& registered,
                                     const RandomState<S>& s, const Vec<S>& z, const Vec<S>& qddot,
                                     const Vec<S>& zdot, const Mat<S>& matrix) {
  using std::max;
  const System<S>& sys = s.sys;
  const State<S>& x = s.x;
  a.expect("qddot vs second-kind",
           relative_difference<S>(qddot, second_kind(sys, x.q, x.qdot).qddot), s);
  const FirstKindField<S> F = first_kind(sys, x.q, z);
  a.expect(
      "zdot vs first-kind",
      difference_relative_to<S>(max_abs<S>(zdot - F.zdot), max(max_abs(F.zdot), max_abs(F.qddot))),
      s);
  const Mat<S> psi_z = parametrization_jacobians(sys, x.q, z).psi_z;
  const Mat<S> G = psi_z.transpose() * inertia(sys, x.q, x.qdot).g * psi_z;
  a.expect("matrix vs G = psi^T g psi",
           difference_relative_to<S>((matrix - G).cwiseAbs().maxCoeff(), G.cwiseAbs().maxCoeff()),
           s);

  EXPECT_EQ(registered.acceleration(sys, x.q, x.qdot).qddot, qddot)
      << registered.name() << ", " << s.study.info.name << " state " << s.k;
  const Vec<S> xs = registered.to_state(sys, x.q, x.qdot);
  ASSERT_EQ(xs.size(), sys.n + sys.m);
  EXPECT_EQ(Vec<S>(registered.field(sys, xs).tail(sys.m)), zdot)
      << registered.name() << ", " << s.study.info.name << " state " << s.k;
}

/// A formulation with multipliers against the second kind at state s: its
/// qddot (relative), its reaction and multipliers against the scales of
/// force_scale (the terms a reaction balances); and, through the registry
/// (`registered`), exactly the same qddot, reaction and multipliers.
template <class S>
void expect_multiplier_formulation_agrees(Agreement<S>& a, const Formulation<S>& registered,
                                          const RandomState<S>& s, const Vec<S>& qddot,
                                          const Vec<S>& multipliers, const Vec<S>& reaction) {
  const System<S>& sys = s.sys;
  const State<S>& x = s.x;
  const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
  a.expect("qddot vs second-kind", relative_difference<S>(qddot, D.qddot), s);
  const ForceScale<S> f = force_scale(sys, x.q, x.qdot, D);
  a.expect("reaction vs second-kind", difference_over(reaction, D.reaction, f.reaction), s);
  a.expect("lambda vs second-kind", difference_over(multipliers, D.multipliers, f.multipliers), s);

  const Acceleration<S> acc = registered.acceleration(sys, x.q, x.qdot);
  EXPECT_EQ(acc.qddot, qddot) << registered.name() << ", " << s.study.info.name << " state " << s.k;
  ASSERT_TRUE(acc.multipliers && acc.reaction) << registered.name();
  EXPECT_EQ(*acc.multipliers, multipliers) << registered.name();
  EXPECT_EQ(*acc.reaction, reaction) << registered.name();
}

}  // namespace nhs
