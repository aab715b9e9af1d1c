// Projection onto C during integration (IntegrationOptions::project): a
// no-op to round-off on states already on C (every study x formulation x
// scalar); over a long second-kind run max |C| stays at round-off with it
// and grows without it (energy error of both runs printed); with it, every
// stepper still follows an analytic special motion (SPECIAL_MOTIONS.md) to
// the verify tolerance, which checks the restart of the dense-output
// steppers after the state is changed.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/manifold.hpp"
#include "nhs/studies/all.hpp"

#include <cmath>
#include <iostream>
#include <random>

namespace nhs {
namespace {

template <class S>
class Projection : public ::testing::Test {};
TYPED_TEST_SUITE(Projection, TestScalars, ScalarNames);

// On C (default state and random regular states, admitted in full
// precision), project_state changes x by at most 10 eps (1 + |x|).
TYPED_TEST(Projection, IsANoOpOnStatesOnC) {
  using S = TypeParam;
  std::mt19937_64 rng(20240601);
  for (const auto& st : studies<S>()) {
    const System<S> sys = st.build(st.default_parameters());
    std::vector<State<S>> states = {st.default_state(sys)};
    for (int k = 0; k < 3; ++k) states.push_back(st.random_state(sys, rng));
    for (auto& x : states) x.qdot = admit_state(sys, x.q, x.qdot, default_manifold_tolerance<S>());
    for (const auto& f : formulations<S>()) {
      if (!f->not_applicable_reason(sys).empty()) continue;
      for (const auto& s : states) {
        Vec<S> x;
        try {
          x = f->to_state(sys, s.q, s.qdot);
        } catch (const SingularState&) {
          continue;  // e.g. Voronec's split singular at a random state
        }
        const Vec<S> xp = project_state(sys, *f, x);
        ASSERT_EQ(xp.size(), x.size());
        const S bound = S(10) * epsilon<S>() * (S(1) + max_abs<S>(x));
        EXPECT_LE(max_abs<S>(Vec<S>(xp - x)), bound) << st.info.name << " " << f->name();
        // Positions are never changed.
        Vec<S> q, qd, qp, qdp;
        f->from_state(sys, x, q, qd);
        f->from_state(sys, xp, qp, qdp);
        EXPECT_LE(max_abs<S>(Vec<S>(qp - q)), bound) << st.info.name << " " << f->name();
      }
    }
  }
}

struct RunFigures {
  double max_C = 0, energy_error = 0, max_qdot2 = 0;
  IntegrationStats stats;
};

RunFigures long_run(const std::string& study, const std::string& formulation, double t_end,
                    bool project, const std::string& stepper = "dopri5") {
  const Study<double>& st = find_study<double>(study);
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  IntegrationOptions<double> io;
  io.t_end = t_end;
  io.dt_out = 1;
  io.stepper = stepper;
  io.project = project;
  RunFigures r;
  double E0 = 0;
  bool first = true;
  integrate<double>(
      sys, find_formulation<double>(formulation), x0.q, x0.qdot, io,
      [&](const Sample<double>& s) {
        const double E = sys.kinetic_energy(s.q, s.qdot) + sys.potential(s.q);
        if (first) E0 = E;
        first = false;
        r.energy_error = std::max(r.energy_error, std::abs(E - E0));
        r.max_C = std::max(r.max_C, constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
        r.max_qdot2 = std::max(r.max_qdot2, s.qdot.squaredNorm());
      },
      &r.stats);
  return r;
}

// Second kind on the non-linear parallel points (default state, g != 0) to
// t = 2000: the field is only tangent to C, so the residual random-walks
// up from round-off; projected, it stays within the projection's own
// target 10 eps (1 + |qdot|^2) at every sample.
TEST(ProjectionRun, KeepsSecondKindOnCWhereItOtherwiseDrifts) {
  for (const std::string study : {"parallel-points", "skate"}) {
    const RunFigures free = long_run(study, "second-kind", 2000, false);
    const RunFigures proj = long_run(study, "second-kind", 2000, true);
    std::cout << study << " second-kind dopri5 1e-12 to t = 2000: max|C| " << free.max_C
              << " -> " << proj.max_C << " with --project; energy error " << free.energy_error
              << " -> " << proj.energy_error << "; RHS calls " << free.stats.rhs_calls << " -> "
              << proj.stats.rhs_calls << "\n";
    const double round_off = 10 * epsilon<double>() * (1 + proj.max_qdot2);
    EXPECT_LE(proj.max_C, round_off) << study;
    EXPECT_GT(free.max_C, 10 * round_off) << study << ": no drift to remove";
    EXPECT_GT(proj.stats.projections, proj.stats.steps) << study;  // steps and samples
    EXPECT_TRUE(std::isfinite(free.energy_error) && std::isfinite(proj.energy_error));
  }
}

// Every stepper with the projection still follows the special motions of
// the skate and the parallel points to the verify tolerance (1e-9 in
// double): the dense-output steppers are restarted correctly.
TEST(ProjectionRun, EveryStepperFollowsSpecialMotions) {
  for (const std::string study : {"skate", "parallel-points", "rolling-disc"}) {
    const Study<double>& st = find_study<double>(study);
    for (const auto& m : st.special_motions()) {
      const System<double> sys = st.build(m.parameters);
      for (const std::string stepper : {"dopri5", "fehlberg78", "bulirsch-stoer"}) {
        for (const std::string form : {"second-kind", "udwadia-kalaba"}) {
          if (m.excluded.count(form)) continue;
          IntegrationOptions<double> io;
          io.t_end = m.t_end;
          io.dt_out = m.t_end / 7;
          io.stepper = stepper;
          io.project = true;
          double err = 0, max_C = 0, max_qdot2 = 0;
          integrate<double>(
              sys, find_formulation<double>(form), m.initial.q, m.initial.qdot, io,
              [&](const Sample<double>& s) {
                const State<double> x = m.exact(s.t);
                err = std::max({err, (s.q - x.q).cwiseAbs().maxCoeff(),
                                (s.qdot - x.qdot).cwiseAbs().maxCoeff()});
                max_C = std::max(max_C,
                                 constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
                max_qdot2 = std::max(max_qdot2, s.qdot.squaredNorm());
              },
              nullptr);
          EXPECT_LE(err, Tolerance<double>::analytic) << study << " " << m.name << " " << form
                                                      << " " << stepper;
          EXPECT_LE(max_C, 10 * epsilon<double>() * (1 + max_qdot2))
              << study << " " << m.name << " " << form << " " << stepper;
        }
      }
    }
  }
}

}  // namespace
}  // namespace nhs
