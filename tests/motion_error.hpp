// The error of one integration run against a special motion's closed form,
// for the tests that measure how it follows the tolerance or the order
// (test_convergence_order, test_rk8, test_precision_quick,
// test_precision_literals, test_n_trailer, test_voronec).
#pragma once

#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {

/// Integrates `motion` from its initial state with formulation f of sys
/// (its system at motion.parameters) under opts and returns the largest
/// max-norm error of (q, qdot) against motion.exact over the output samples
/// (every opts.dt_out, t_end included); stats, when given, receives the
/// run's counts.
template <class T>
T motion_error(const System<T>& sys, const Formulation<T>& f, const SpecialMotion<T>& motion,
               const IntegrationOptions<T>& opts, IntegrationStats* stats = nullptr) {
  T err(0);
  integrate<T>(sys, f, motion.initial.q, motion.initial.qdot, opts,
               [&](const Sample<T>& x) {
                 using std::max;
                 const State<T> ex = motion.exact(x.t);
                 err = max(err, max((x.q - ex.q).cwiseAbs().maxCoeff(),
                                    (x.qdot - ex.qdot).cwiseAbs().maxCoeff()));
               },
               stats);
  return err;
}

}  // namespace nhs
