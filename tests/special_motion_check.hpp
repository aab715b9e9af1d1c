// Shared by test_special_motions.cpp (quick) and
// test_special_motions_all.cpp (slow): integrates every analytic special
// motion of every study (docs/special-motions.md) with the selected formulations
// to its t_end (20) and compares with the closed form; along the same runs,
// the energy (where conserved), the study's conserved invariants and the
// constraint residuals stay within the same bound as the trajectory.
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <functional>
#include <iostream>

namespace nhs {

/// Runs the check for every formulation f with select(f) true; counts the
/// (study, motion, formulation) runs checked in `checked`.
template <class S>
void check_special_motions(const std::function<bool(const Formulation<S>&)>& select,
                           int& checked) {
  checked = 0;
  for (const Study<S>& st : studies<S>()) {
    for (const SpecialMotion<S>& mo : st.special_motions()) {
      const System<S> sys = st.build(mo.parameters);
      const State<S> x0 = mo.initial;
      // The exact initial state lies on C and agrees with the closed form at t = 0.
      ASSERT_LE(constraint_residuals(sys, x0.q, x0.qdot).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>())
          << st.info.name << " " << mo.name;
      const State<S> e0 = mo.exact(S(0));
      ASSERT_LE((e0.q - x0.q).cwiseAbs().maxCoeff() + (e0.qdot - x0.qdot).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>())
          << st.info.name << " " << mo.name;

      const S E0 = energy(sys, x0.q, x0.qdot);
      const auto invariants = st.invariants(sys);
      std::vector<S> inv0;
      for (const auto& inv : invariants) inv0.push_back(inv.value(x0.q, x0.qdot));

      for (const auto& f : formulations<S>()) {
        // A negative control moves wrongly by design; a formulation the
        // motion excludes (its chart is singular on the way) is not run.
        if (!f->not_applicable_reason(sys).empty() || f->is_negative_control() ||
            mo.excluded.count(f->name()) || !select(*f))
          continue;
        IntegrationOptions<S> opts;
        opts.t_end = mo.t_end;
        opts.dt_out = S(1) / S(2);
        opts.rtol = opts.atol = integration_tolerance<S>();
        S err = 0, energy_drift = 0, residual = 0, inv_drift = 0;
        S t_last = 0;
        IntegrationStats stats;
        integrate<S>(
            sys, *f, x0.q, x0.qdot, opts,
            [&](const Sample<S>& s) {
              using std::max;
              const State<S> e = mo.exact(s.t);
              err = max(err, max((s.q - e.q).cwiseAbs().maxCoeff(),
                                 (s.qdot - e.qdot).cwiseAbs().maxCoeff()));
              energy_drift = max(energy_drift, abs(energy(sys, s.q, s.qdot) - E0));
              residual = max(residual,
                             constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
              for (std::size_t i = 0; i < invariants.size(); ++i)
                if (invariants[i].conserved)
                  inv_drift = max(inv_drift, abs(invariants[i].value(s.q, s.qdot) - inv0[i]));
              t_last = s.t;
            },
            &stats);
        const std::string what = st.info.name + " / " + mo.name + " / " + f->name();
        EXPECT_EQ(t_last, mo.t_end) << what;
        EXPECT_LE(err, Tolerance<S>::analytic) << what;
        // First integrals and C are kept at least as well as the trajectory.
        if (st.energy_is_conserved(sys)) EXPECT_LE(energy_drift, Tolerance<S>::analytic) << what;
        EXPECT_LE(inv_drift, Tolerance<S>::analytic) << what;
        EXPECT_LE(residual, Tolerance<S>::analytic) << what;
        std::cout << "[ motion   ] " << what << ": error " << double(err) << ", energy drift "
                  << double(energy_drift) << ", max|C| " << double(residual) << ", "
                  << stats.rhs_calls << " RHS calls\n";
        ++checked;
      }
    }
  }
}

}  // namespace nhs
