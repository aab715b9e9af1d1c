// The discrete Lagrange-d'Alembert steppers dla and nh-rattle
// (nhs/discrete_lagrange_dalembert.hpp): their order against closed forms,
// the constraints they impose, nh-rattle's symmetry, and bounded energy on
// the reversible contact oscillator.
// ctest-labels: unit integrate mp
#include "loglog.hpp"
#include "motion_error.hpp"

#include "nhs/discrete_lagrange_dalembert.hpp"
#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace nhs {
namespace {

// A run of `stepper` at a fixed step.
template <class S>
IntegrationOptions<S> fixed_step(Stepper stepper, const S& t_end, const S& dt_out, const S& step) {
  IntegrationOptions<S> o;
  o.t_end = t_end;
  o.dt_out = dt_out;
  o.stepper = stepper;
  o.step = step;
  return o;
}

// Error against the closed form at the output samples, for steps h.
std::vector<double> errors_for_steps(const std::string& study, std::size_t motion, Stepper stepper,
                                     const std::vector<double>& steps, double t_end) {
  const Study<double>& st = find_study<double>(study);
  const SpecialMotion<double> mo = st.special_motions().at(motion);
  const System<double> sys = st.build(mo.parameters);
  std::vector<double> errs;
  for (const double h : steps) {
    const IntegrationOptions<double> o = fixed_step(stepper, t_end, 0.5, h);
    errs.push_back(motion_error<double>(sys, find_formulation<double>("second-kind"), mo, o));
  }
  return errs;
}

// Both methods are of order 2 (the trapezoidal discrete Lagrangian and
// midpoint constraint are second-order; dla's velocity is reported from the
// mean of the two momenta at a node, nh-rattle is symmetric): the slope of
// log(error) against log(h) within 0.2 of 2, on motions whose reaction is
// not zero (the contact oscillator with x frozen: lambda = x0 (1 + eps z^2);
// the skate's first special motion).
TEST(DiscreteLagrangeDAlembert, SecondOrderOnClosedForms) {
  const std::vector<double> steps = {0.04, 0.02, 0.01, 0.005};
  for (const Stepper stepper : kDiscreteSteppers) {
    for (const auto& [study, motion] : std::vector<std::pair<std::string, std::size_t>>{
             {"contact-oscillator", 0}, {"skate", 0}}) {
      const std::vector<double> errs = errors_for_steps(study, motion, stepper, steps, 4.0);
      const double slope = loglog_slope(steps, errs);
      SCOPED_TRACE(std::string(stepper_name(stepper)) + " on " + study + ": errors " +
                   std::to_string(errs.front()) + " .. " + std::to_string(errs.back()));
      std::printf("%s on %s: errors %.3g .. %.3g, slope %.3f\n", std::string(stepper_name(stepper)).c_str(),
                  study.c_str(), errs.front(), errs.back(), slope);
      EXPECT_NEAR(slope, 2.0, 0.2);
      EXPECT_LT(errs.back(), 1e-3);
    }
  }
}

// nh-rattle and nh-midpoint keep every reported state on C: |C(q, qdot)|
// at round-off at every sample, in double and mp50, on the skate (A(q) turns with theta) and
// the contact oscillator; dla, which imposes the discrete constraint
// A((q0 + q1)/2)(q1 - q0) = 0, does so to round-off at each step.
template <class S>
void expect_constraints_per_step(const S& bound) {
  for (const std::string study : {"skate", "contact-oscillator", "rolling-disc"}) {
    const Study<S>& st = find_study<S>(study);
    const System<S> sys = st.build(st.default_parameters());
    const State<S> x0 = st.default_state(sys);
    for (const Stepper stepper : {Stepper::nh_rattle, Stepper::nh_midpoint}) {
      const IntegrationOptions<S> o = fixed_step<S>(stepper, S(2), S(1) / S(10), S(1) / S(20));
      S worst(0);
      integrate<S>(sys, find_formulation<S>("second-kind"), x0.q, x0.qdot, o,
                   [&](const Sample<S>& s) {
                     using std::max;
                     const S scale = S(1) + s.qdot.squaredNorm();
                     worst = max(worst, S(constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff() / scale));
                   },
                   nullptr);
      std::printf("%s, %s: max |C| / (1 + |qdot|^2) = %.3g\n", study.c_str(),
                  std::string(stepper_name(stepper)).c_str(), static_cast<double>(worst));
      EXPECT_LE(worst, bound) << stepper_name(stepper) << " on " << study;
    }

    const DiscreteLagrangeDAlembert<S> dla(sys, DiscreteScheme::dla, x0.q, x0.qdot);
    Vec<S> q = x0.q, p = dla.momentum(x0.q, x0.qdot), v = x0.qdot, l = Vec<S>::Zero(sys.r);
    S worst_discrete(0);
    for (int k = 0; k < 40; ++k) {
      const DiscreteStep<S> s = dla.step(q, p, S(1) / S(20), v, l, l, nullptr);
      using std::max;
      const Vec<S> qm = (q + s.q1) / S(2);
      worst_discrete = max(worst_discrete, S(constraint_residuals(sys, qm, s.v).cwiseAbs().maxCoeff() /
                                             (S(1) + s.v.squaredNorm())));
      q = s.q1;
      p = s.p1;
      v = s.v;
      l = s.lambda;
    }
    std::printf("%s, dla: max discrete constraint %.3g\n", study.c_str(), static_cast<double>(worst_discrete));
    EXPECT_LE(worst_discrete, bound) << "dla's discrete constraint on " << study;
  }
}

TEST(DiscreteLagrangeDAlembert, ConstraintsPerStepDouble) { expect_constraints_per_step<double>(1e-14); }
TEST(DiscreteLagrangeDAlembert, ConstraintsPerStepMp50) {
  expect_constraints_per_step<mp50>(from_string<mp50>("1e-47"));
}

// nh-rattle and nh-midpoint are symmetric: n steps of h from (q0, p0),
// then n steps of -h, return to (q0, p0) at round-off (the step's
// equations solved to round-off each way).
template <class S>
void expect_symmetric(const S& bound) {
  for (const auto scheme : {DiscreteScheme::nh_rattle, DiscreteScheme::nh_midpoint})
  for (const std::string study : {"skate", "contact-oscillator"}) {
    const Study<S>& st = find_study<S>(study);
    const System<S> sys = st.build(st.default_parameters());
    const State<S> x0 = st.default_state(sys);
    const DiscreteLagrangeDAlembert<S> m(sys, scheme, x0.q, x0.qdot);
    const Vec<S> p0 = m.momentum(x0.q, x0.qdot);
    Vec<S> q = x0.q, p = p0, v = x0.qdot, l = Vec<S>::Zero(sys.r), mu = l;
    const S h = S(1) / S(10);
    for (int k = 0; k < 30; ++k) {
      const DiscreteStep<S> s = m.step(q, p, h, v, l, mu, nullptr);
      q = s.q1, p = s.p1, v = s.v, l = s.mu, mu = s.lambda;  // guesses for the way back
    }
    for (int k = 0; k < 30; ++k) {
      const DiscreteStep<S> s = m.step(q, p, -h, v, l, mu, nullptr);
      q = s.q1, p = s.p1, v = s.v, l = s.lambda, mu = s.mu;
    }
    using std::max;
    const S err = max(S((q - x0.q).cwiseAbs().maxCoeff()), S((p - p0).cwiseAbs().maxCoeff()));
    const char* name = scheme == DiscreteScheme::nh_rattle ? "nh-rattle" : "nh-midpoint";
    std::printf("%s: %s forward and back: %.3g\n", study.c_str(), name, static_cast<double>(err));
    EXPECT_LE(err, bound) << name << " forward and back on " << study;
  }
}

TEST(DiscreteLagrangeDAlembert, SymmetricDouble) { expect_symmetric<double>(1e-12); }
TEST(DiscreteLagrangeDAlembert, SymmetricMp50) { expect_symmetric<mp50>(from_string<mp50>("1e-45")); }

// nh-rattle's configurations are dla's (the header's argument: the same
// two-step recurrence from the same first step), to round-off over 400
// steps; nh-midpoint's are others (a different discrete Lagrangian), apart
// by O(h^2), on the contact oscillator (on the skate, whose metric is
// constant and V linear, the two discrete Lagrangians coincide).
TEST(DiscreteLagrangeDAlembert, NhRattleSharesDlasConfigurations) {
  const Study<double>& st = find_study<double>("contact-oscillator");
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  std::vector<Vec<double>> q[3];
  int k = 0;
  for (const Stepper stepper : kDiscreteSteppers) {
    const IntegrationOptions<double> o = fixed_step(stepper, 4.0, 0.01, 0.01);
    integrate<double>(sys, find_formulation<double>("second-kind"), x0.q, x0.qdot, o,
                      [&](const Sample<double>& s) { q[k].push_back(s.q); }, nullptr);
    ++k;
  }
  double rattle = 0, midpoint = 0;
  for (std::size_t i = 0; i < q[0].size(); ++i) {
    rattle = std::max(rattle, (q[1][i] - q[0][i]).cwiseAbs().maxCoeff());
    midpoint = std::max(midpoint, (q[2][i] - q[0][i]).cwiseAbs().maxCoeff());
  }
  std::printf("contact oscillator: max |q| apart from dla: nh-rattle %.3g, nh-midpoint %.3g\n", rattle, midpoint);
  EXPECT_LE(rattle, 1e-12);
  EXPECT_GE(midpoint, 1e-7);
  EXPECT_LE(midpoint, 1e-3);
}

// Energy on the reversible contact oscillator (McLachlan & Perlmutter 2006,
// Ex. 5.2; reversible and integrable: Modin & Verdier 2020) with h = 0.1 to
// t = 1000: bounded, not drifting. Asserted: the largest |E - E0| over the
// last 100 time units is at most 1.5 times that over the first 100, and
// that below h^2 |E0| / 2. The estimate: Stormer-Verlet on a unit
// oscillator conserves H~ = (p^2 + x^2 (1 - h^2/4))/2 exactly, so E - H~ =
// h^2 x^2 / 8 <= h^2 E / 4, and |E - E0| <= h^2 E / 4 twice over.
TEST(DiscreteLagrangeDAlembert, EnergyBoundedOnTheContactOscillator) {
  const Study<double>& st = find_study<double>("contact-oscillator");
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  const double E0 = energy(sys, x0.q, x0.qdot);
  for (const Stepper stepper : kDiscreteSteppers) {
    const IntegrationOptions<double> o = fixed_step(stepper, 1000.0, 0.1, 0.1);
    double early = 0, late = 0;
    integrate<double>(sys, find_formulation<double>("second-kind"), x0.q, x0.qdot, o,
                      [&](const Sample<double>& s) {
                        const double e = std::abs(energy(sys, s.q, s.qdot) - E0);
                        if (s.t <= 100) early = std::max(early, e);
                        if (s.t >= 900) late = std::max(late, e);
                      },
                      nullptr);
    SCOPED_TRACE(std::string(stepper_name(stepper)) + ": early " + std::to_string(early) + ", late " +
                 std::to_string(late));
    std::printf("%s: max |E - E0| over t <= 100: %.3g, t >= 900: %.3g (bound %.3g)\n",
                std::string(stepper_name(stepper)).c_str(), early, late, 0.01 * std::abs(E0) / 2);
    EXPECT_LE(late, 1.5 * early);
    EXPECT_LE(early, 0.01 * std::abs(E0) / 2);
  }
}

// Non-linear constraints are refused by name (a NotApplicable, exit 2 in
// the tool); so is a semidefinite metric.
TEST(DiscreteLagrangeDAlembert, RefusesWhatItCannotTake) {
  for (const std::string study : {"parallel-points", "bipendulum", "massless-trailer"}) {
    const Study<double>& st = find_study<double>(study);
    const System<double> sys = st.build(st.default_parameters());
    const State<double> x0 = st.default_state(sys);
    IntegrationOptions<double> o;
    o.t_end = 1;
    o.stepper = Stepper::dla;
    try {
      integrate<double>(sys, find_formulation<double>(st.info.semidefinite_metric ? "udwadia-kalaba" : "second-kind"),
                        x0.q, x0.qdot, o, [](const Sample<double>&) {}, nullptr);
      ADD_FAILURE() << study << " was not refused";
    } catch (const NotApplicable& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("stepper dla"), std::string::npos) << what;
      EXPECT_NE(what.find(study), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace nhs
