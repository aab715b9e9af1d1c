// Shared by test_special_motions.cpp (quick) and
// test_special_motions_all.cpp (slow): integrates every analytic special
// motion of every study (docs/special-motions.md) with the selected formulations
// to its t_end (20) and compares with the closed form; along the same runs,
// the energy (where conserved), the study's conserved invariants and the
// constraint residuals stay within the same bound as the trajectory. The
// runs and their figures are check_motion's (nhs/studies/verification.hpp),
// the bounds and tolerances the strict budget of nhs/precision_policy.hpp.
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/verification.hpp"

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
        // The library's motion check (nhs/studies/verification.hpp), held
        // to the strict budget unscaled.
        const MotionCheck<S> m = check_motion<S>(sys, *f, x0, opts, motion_reference(st, sys, mo.exact));
        const std::string what = st.info.name + " / " + mo.name + " / " + f->name();
        EXPECT_TRUE(m.completed()) << what << ": " << m.failure;
        EXPECT_EQ(m.t_last, mo.t_end) << what;
        EXPECT_LE(m.max_error, Tolerance<S>::analytic) << what;
        // First integrals and C are kept at least as well as the trajectory.
        if (m.energy_declared) EXPECT_LE(m.energy_drift, Tolerance<S>::analytic) << what;
        for (const InvariantDrift<S>& inv : m.invariants)
          if (inv.conserved) EXPECT_LE(inv.drift, Tolerance<S>::analytic) << what << " " << inv.name;
        EXPECT_LE(m.max_C, Tolerance<S>::analytic) << what;
        std::cout << "[ motion   ] " << what << ": error " << double(m.max_error) << ", energy drift "
                  << double(m.energy_drift) << ", max|C| " << double(m.max_C) << ", "
                  << m.stats.rhs_calls << " RHS calls\n";
        ++checked;
      }
    }
  }
}

}  // namespace nhs
