// The work-energy balance carried along a run (nhs/work_energy.hpp;
// IntegrationOptions::power; docs/affine-constraints.md A8):
//  (a) the work W integrated by the steppers is the closed form: the
//      pushed skate (examples/pushed-skate.toml) gains m/2 (s^2 - s0^2)
//      with s = s0 + k t^2/(2 m), in double and mp50, to the strict
//      analytic bound (1e-9, 1e-40) x (1 + |W|), with the reaction from
//      the KKT system and from the second kind's traced field;
//  (b) the balance can fail: the spun-up turntable's run with the reaction
//      left out of the power is far over the bound, with it within;
//  (c) a power that is 0 changes nothing: every stepper's samples are bit
//      for bit those of the run without it (also projected), with W = 0;
//  (d) the discrete steppers leave the work empty, and the CSV's work
//      column (last) is then empty;
//  (e) the CSV columns: "work" last, and a constraint named "work" renamed.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/session/motion_table.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/motion_run.hpp"
#include "nhs/work_energy.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace nhs {
namespace {

template <class S>
class WorkEnergy : public ::testing::Test {};
TYPED_TEST_SUITE(WorkEnergy, TestScalars, ScalarNames);

TYPED_TEST(WorkEnergy, PushedSkatesWorkIsTheClosedForm) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sin;
  const Study<S>& st = find_study<S>(std::string(NHS_SOURCE_DIR) + "/examples/pushed-skate.toml");
  const SpecialMotion<S> sm = st.special_motions().at(0);
  const System<S> sys = st.build(sm.parameters);
  const S m = sys.parameter("m"), k = sys.parameter("k");
  const Vec<S>& q0 = sm.initial.q;
  const Vec<S>& v0 = sm.initial.qdot;
  const S s0 = v0[0] * cos(q0[2]) + v0[1] * sin(q0[2]);  // the speed along the blade
  // The reaction from the KKT system (the library), and from the second
  // kind's traced field (reaction_field: what nhs run and check use).
  const MotionReference<S> kkt = motion_reference(st, sys, sm.exact);
  const MultipliersAt<S> traced = reaction_multipliers<S>(std::string(NHS_SOURCE_DIR) + "/examples/pushed-skate.toml");
  ASSERT_TRUE(bool(traced));
  const MotionReference<S> fast = motion_reference(st, sys, sm.exact, traced);
  ASSERT_TRUE(bool(kkt.power)) << "energy is not conserved: the run must carry the work";
  IntegrationOptions<S> io;
  io.t_end = S(5);
  io.dt_out = S(1) / S(2);
  io.rtol = io.atol = integration_tolerance<S>();
  for (const char* name : {"first-kind", "second-kind", "lagrange-multipliers", "first-kind + traced lambda"}) {
    const bool with_traced = std::string(name).find("traced") != std::string::npos;
    const MotionReference<S>& ref = with_traced ? fast : kkt;
    const Formulation<S>& f = find_formulation<S>(with_traced ? "first-kind" : name);
    S worst(0);
    MotionObservers<S> obs;
    obs.record = [&](const Sample<S>& smp) {
      ASSERT_TRUE(smp.work.has_value());
      const S s = s0 + k * smp.t * smp.t / (S(2) * m);
      const S W = m / S(2) * (s * s - s0 * s0);
      const S err = abs(*smp.work - W) / (S(1) + abs(W));
      worst = err > worst ? err : worst;
    };
    const MotionRun<S> run = run_motion<S>(sys, f, sm.initial, io, ref, obs);
    ASSERT_TRUE(run.completed()) << run.figures.failure;
    EXPECT_LE(worst, Tolerance<S>::analytic) << name;
    const MotionCheck<S>& mc = run.figures;
    EXPECT_EQ(mc.work_samples, mc.samples);
    EXPECT_GT(mc.work_scale, S(1)) << "the push does work";
    EXPECT_LE(mc.balance_drift, mc.balance_bound(Tolerance<S>::analytic)) << name;
    EXPECT_GT(mc.energy_drift, S(1)) << "E - E0 is the work, not 0";
    std::cout << "[ work     ] " << ScalarName<S>::value << " " << name << ": max |W - W_exact| / (1 + |W|) = "
              << static_cast<double>(worst) << ", max |E - E0 - W| = " << static_cast<double>(mc.balance_drift)
              << ", max |W| = " << static_cast<double>(mc.work_scale) << ", " << mc.stats.rhs_calls << " RHS calls\n";
  }
}

TEST(WorkEnergyBalance, LeavingTheReactionOutFailsIt) {
  const Study<double>& st = find_study<double>("spinup-turntable-ball");
  const System<double> sys = st.build({1.3, 0.6, 0.9, 0.2});
  Vec<double> q(6);
  q << 0.3, 1.0, -0.4, 0.5, -0.2, 0.0;
  const State<double> x0 = state_from_chart<double>(sys, q, {0.2, 0.3, -0.4});
  const Formulation<double>& f = find_formulation<double>("first-kind");
  IntegrationOptions<double> io;
  io.t_end = 5;
  io.dt_out = 0.5;
  io.rtol = io.atol = 1e-12;
  MotionReference<double> ref = motion_reference(st, sys);
  ASSERT_TRUE(bool(ref.power));
  const MotionCheck<double> right = run_motion<double>(sys, f, x0, io, ref).figures;
  ASSERT_TRUE(right.completed()) << right.failure;
  EXPECT_GT(right.work_scale, 0.1);
  EXPECT_LE(right.balance_drift, right.balance_bound(1e-9));
  // The moving table's reaction does all the work here (-lambda_a a0^a):
  // without it W = 0 while E changes.
  ref.power = [&sys](const Vec<double>& qq, const Vec<double>& qd) {
    Vec<double> F = Vec<double>::Zero(sys.n);
    if (sys.nonconservative_force) sys.nonconservative_force(qq, qd, F);
    return F.dot(qd);
  };
  const MotionCheck<double> wrong = run_motion<double>(sys, f, x0, io, ref).figures;
  ASSERT_TRUE(wrong.completed()) << wrong.failure;
  EXPECT_EQ(wrong.work_scale, 0.0);
  EXPECT_GT(wrong.balance_drift, 1e3 * wrong.balance_bound(1e-9));
  EXPECT_NEAR(wrong.balance_drift, right.work_scale, 1e-6 * (1 + right.work_scale) + right.balance_drift);
  std::cout << "[ balance  ] spun-up table: max |E - E0 - W| = " << right.balance_drift << " (max |W| = "
            << right.work_scale << "); without the reaction: " << wrong.balance_drift << "\n";
}

// The samples of the skate's default run with `stepper`, with and without a
// power that is 0 (a conservative system's), projected or not.
std::vector<Sample<double>> skate_samples(Stepper stepper, bool zero_power, bool project) {
  const Study<double>& st = find_study<double>("skate");
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  IntegrationOptions<double> io;
  io.t_end = 3;
  io.dt_out = 0.25;
  io.rtol = io.atol = 1e-11;
  io.stepper = stepper;
  io.project = project;
  if (zero_power) io.power = [](const Vec<double>&, const Vec<double>&) { return 0.0; };
  std::vector<Sample<double>> out;
  integrate<double>(sys, find_formulation<double>("second-kind"), x0.q, x0.qdot, io,
                    [&](const Sample<double>& s) { out.push_back(s); }, nullptr);
  return out;
}

TEST(WorkEnergyBalance, AZeroPowerChangesNoSample) {
  for (Stepper stepper : {Stepper::dopri5, Stepper::fehlberg78, Stepper::verner87, Stepper::bulirsch_stoer})
    for (bool project : {false, true}) {
      const std::vector<Sample<double>> plain = skate_samples(stepper, false, project);
      const std::vector<Sample<double>> carried = skate_samples(stepper, true, project);
      ASSERT_EQ(plain.size(), carried.size());
      for (std::size_t k = 0; k < plain.size(); ++k) {
        const std::string at = std::string(stepper_name(stepper)) + (project ? " projected" : "") +
                               ", sample " + std::to_string(k);
        EXPECT_FALSE(plain[k].work.has_value()) << at;
        ASSERT_TRUE(carried[k].work.has_value()) << at;
        EXPECT_EQ(*carried[k].work, 0.0) << at;
        EXPECT_EQ(plain[k].t, carried[k].t) << at;
        EXPECT_TRUE(plain[k].q == carried[k].q) << at;
        EXPECT_TRUE(plain[k].qdot == carried[k].qdot) << at;
      }
    }
}

TEST(WorkEnergyBalance, DiscreteSteppersLeaveTheWorkEmpty) {
  const std::vector<Sample<double>> dla = skate_samples(Stepper::dla, true, false);
  ASSERT_GT(dla.size(), 2u);
  for (const Sample<double>& s : dla) EXPECT_FALSE(s.work.has_value()) << "t = " << s.t;
  const Study<double>& st = find_study<double>("skate");
  const System<double> sys = st.build(st.default_parameters());
  const MotionTable<double> table(sys, {}, {}, true);
  ASSERT_EQ(table.columns().back(), "work");
  const std::vector<double> row = table.values(dla.back());
  EXPECT_TRUE(std::isnan(row.back())) << "an empty cell";
}

TEST(WorkEnergyBalance, TheWorkColumnIsLastAndItsNameIsKept) {
  SystemInfo info;
  info.coordinates = {"x", "y"};
  info.constraint_names = {"work"};
  const CsvColumns with = csv_column_names(info, 1, {"energy_2"}, {"sigma_min_dC_dqdot"}, true, true);
  const std::vector<std::string> expected = {"t", "x", "y", "x_dot", "y_dot", "energy", "constraint_work",
                                             "energy_2", "sigma_min_dC_dqdot", "error", "work"};
  EXPECT_EQ(with.all, expected);
  const CsvColumns without = csv_column_names(info, 1, {}, {}, false);
  EXPECT_EQ(without.all.back(), "work") << "a constraint's own name, where no column is called work";
}

}  // namespace
}  // namespace nhs
