// Projection onto C during integration (IntegrationOptions::project): a
// no-op to round-off on states already on C (every study x formulation x
// scalar); over a long second-kind run max |C| stays at round-off with it
// and grows without it (energy error of both runs printed); with it, every
// stepper follows the analytic special motions (docs/special-motions.md) to the
// verify tolerance wherever it does without, which checks the restart of
// the dense-output steppers after the state is changed. Far from the
// origin, where the bipendulum's quadratic C grows with |q|, the projection
// still converges to C's round-off level.
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

// The projection's stopping test is relative to the size of C's terms:
// the bipendulum's C = x1 x1d y2d - x2 x2d y1d + (y1 - y2) y1d y2d (000
// eq. 73) grows with |q| |qdot|^2, so far from the origin its round-off
// exceeds any bound in 1 + |qdot|^2 alone (a run with --project stopped at
// t = 76 with "Newton did not converge" at the first state below, q ~ 70,
// before the bound included sum_i |C_i qdot^i|). C is homogeneous of degree
// 1 in q, so scaling q by 10^k keeps the state on C; qdot is perturbed by
// 1e-6 to give Newton work to do. The result must satisfy C to its round-off
// level, move qdot by about the perturbation, and be a fixed point.
TYPED_TEST(Projection, ReachesRoundOffFarFromTheOrigin) {
  using S = TypeParam;
  const Study<S>& st = find_study<S>("bipendulum");
  const System<S> sys = st.build(st.default_parameters());
  Vec<S> q0(4), qd(4);
  q0 << from_string<S>("39.071973251898577"), from_string<S>("39.90629650360421"),
      from_string<S>("-27.10819559756855"), from_string<S>("72.477539115488739");
  qd << from_string<S>("0.52711550458477752"), from_string<S>("0.49411460697553838"),
      from_string<S>("-0.32437057940730352"), from_string<S>("0.96518585112669464");
  for (int k = 0; k <= 3; ++k) {
    const Vec<S> q = q0 * power_of_ten<S>(k);
    Vec<S> perturbed = qd;
    perturbed[0] += power_of_ten<S>(-6);
    const Vec<S> v = project_velocity(sys, q, perturbed);
    const ConstraintJacobians<S> J = constraint_jacobians(sys, q, v);
    const S terms = (J.C_qdot.cwiseAbs() * v.cwiseAbs()).maxCoeff();
    EXPECT_LE(abs(J.C[0]), S(10) * epsilon<S>() * terms) << "q scaled by 1e" << k;
    EXPECT_LE(max_abs<S>(Vec<S>(v - perturbed)), S(2) * power_of_ten<S>(-6)) << "1e" << k;
    EXPECT_GE(max_abs<S>(Vec<S>(v - perturbed)), power_of_ten<S>(-8)) << "1e" << k;
    const Vec<S> again = project_velocity(sys, q, v);
    EXPECT_LE(max_abs<S>(Vec<S>(again - v)), S(10) * epsilon<S>() * (S(1) + max_abs<S>(v)))
        << "1e" << k;
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
  io.stepper = parse_stepper(stepper);
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

// Second kind on the skate and the coaxial discs (default states) to
// t = 100: the field is only tangent to C, so the residual grows from
// round-off (to ~1e-12 here); projected, it stays within the projection's
// own target 10 eps (1 + |qdot|^2) at every sample.
TEST(ProjectionRun, KeepsSecondKindOnCWhereItOtherwiseDrifts) {
  for (const std::string study : {"skate", "coaxial-discs"}) {
    const RunFigures free = long_run(study, "second-kind", 100, false);
    const RunFigures proj = long_run(study, "second-kind", 100, true);
    std::cout << study << " second-kind dopri5 1e-12 to t = 100: max|C| " << free.max_C
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

// The bipendulum with the projection, second kind, default state, to
// t = 300 (the points move off to |q| ~ 300): the projection converges at
// every step (it failed at t = 76 when its bound ignored the size of C's
// terms), and max |C| stays at that round-off level, below its value
// without projection.
TEST(ProjectionRun, FollowsTheBipendulumFarFromTheOrigin) {
  const RunFigures free = long_run("bipendulum", "second-kind", 300, false);
  const RunFigures proj = long_run("bipendulum", "second-kind", 300, true);
  std::cout << "bipendulum second-kind dopri5 1e-12 to t = 300: max|C| " << free.max_C << " -> "
            << proj.max_C << " with --project; energy error " << free.energy_error << " -> "
            << proj.energy_error << "\n";
  EXPECT_GT(proj.stats.projections, proj.stats.steps);
  EXPECT_LT(proj.max_C, free.max_C);
  EXPECT_LT(proj.energy_error, 1e-9);
}

// Every stepper with the projection follows the special motions of the
// skate, the parallel points and the rolling disc to the verify tolerance
// (1e-9 in double, at verify's rtol = atol = 1e-14) wherever the same run
// without projection does: the dense-output steppers are restarted
// correctly. (Fehlberg 7(8)'s error estimate lets the rolling disc's circle
// through with steps of ~2 and errors ~1e-8 with or without projection;
// there only max |C| is checked.)
TEST(ProjectionRun, EveryStepperFollowsSpecialMotions) {
  for (const std::string study : {"skate", "parallel-points", "rolling-disc"}) {
    const Study<double>& st = find_study<double>(study);
    for (const auto& m : st.special_motions()) {
      const System<double> sys = st.build(m.parameters);
      for (const std::string stepper : {"dopri5", "fehlberg78", "bulirsch-stoer"}) {
        for (const std::string form : {"second-kind", "udwadia-kalaba"}) {
          if (m.excluded.count(form)) continue;
          double err[2] = {0, 0}, max_C = 0, max_qdot2 = 0;
          for (bool project : {false, true}) {
            IntegrationOptions<double> io;
            io.t_end = m.t_end;
            io.dt_out = m.t_end / 7;
            io.rtol = io.atol = 1e-14;
            io.stepper = parse_stepper(stepper);
            io.project = project;
            integrate<double>(
                sys, find_formulation<double>(form), m.initial.q, m.initial.qdot, io,
                [&](const Sample<double>& s) {
                  const State<double> x = m.exact(s.t);
                  err[project] = std::max({err[project], (s.q - x.q).cwiseAbs().maxCoeff(),
                                           (s.qdot - x.qdot).cwiseAbs().maxCoeff()});
                  if (!project) return;
                  max_C = std::max(
                      max_C, constraint_residuals(sys, s.q, s.qdot).cwiseAbs().maxCoeff());
                  max_qdot2 = std::max(max_qdot2, s.qdot.squaredNorm());
                },
                nullptr);
          }
          const std::string what = study + " " + m.name + " " + form + " " + stepper;
          if (err[0] <= Tolerance<double>::analytic)
            EXPECT_LE(err[1], Tolerance<double>::analytic) << what << " (without: " << err[0] << ")";
          else
            std::cout << what << ": error " << err[0] << " without, " << err[1]
                      << " with projection (the stepper misses the tolerance either way)\n";
          EXPECT_LE(max_C, 10 * epsilon<double>() * (1 + max_qdot2)) << what;
        }
      }
    }
  }
}

}  // namespace
}  // namespace nhs
