// The session's typed run API (nhs/session/run_plan.hpp,
// nhs/session/motion_table.hpp) as a C++ user calls it, without the tool or
// its option text: a RunSpec asking for a special motion, planned and
// integrated, follows the motion's closed form (docs/special-motions.md) to
// 1e-9 in double and 1e-30 in mp50; the table's "error" column is that
// distance; every refusal of a RunSpec names the input as RunNames names it.
// The Jacobian of a system file's field (field_jacobian_at) follows the file
// when it is edited in the same process, against the Chaplygin sleigh's
// closed rate -(m a V + c)/(I + m a^2) of a turn damped by -c theta_dot, and
// a system made from the earlier version is refused, never read past its
// parameters.
// A problem's model made once (make_problem_model, share_state_derivations)
// answers 20 seeded states of the Whipple bicycle (traced, holonomic) and of
// the rolling disc (generated), second and first kind, in double and mp50,
// exactly as a fresh make_problem of each state: every digit of q, qdot,
// qddot, the multipliers, the reaction and Gauss's Z (to_string<S>, which
// tells -0 from 0), or the same refusal.
// ctest-labels: unit
#include "../apps/nhs/names.hpp"  // the tool's names of the inputs, for its messages
#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/accelerations.hpp"
#include "nhs/session/field_jacobian.hpp"
#include "nhs/session/motion_table.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/session/simulate.hpp"
#include "nhs/studies/motion_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace nhs {
namespace {

template <class S>
class SessionRun : public ::testing::Test {};
using SessionScalars = ::testing::Types<double, mp50>;
TYPED_TEST_SUITE(SessionRun, SessionScalars);

/// The bound of docs/special-motions.md: 1e-9 in double, 1e-30 in mp50.
template <class S>
S motion_bound() {
  return std::is_same_v<S, double> ? S(1e-9) : power_of_ten<S>(-30);
}

/// The rolling disc's circle (k = 0) to t = 3, a row every 0.25, by the
/// first kind.
template <class S>
RunSpec<S> circle_run() {
  RunSpec<S> spec;
  spec.problem.system = "rolling-disc";
  spec.problem.formulation = "first-kind";
  spec.motion = "circle (k = 0)";
  spec.t_end = S(3);
  spec.dt_out = S(1) / S(4);
  return spec;
}

TYPED_TEST(SessionRun, PlannedMotionFollowsItsClosedForm) {
  using S = TypeParam;
  const RunPlan<S> plan = plan_run<S>(circle_run<S>());
  ASSERT_TRUE(plan.motion.has_value());
  const Problem<S>& p = plan.problem;
  // The motion's initial state, admitted unchanged (it lies on C exactly).
  EXPECT_EQ(p.q, plan.motion->initial.q);

  const MotionReference<S> reference = plan_reference(plan);
  const MotionTable<S> table(p.sys, reference);
  const std::vector<std::string>& columns = table.columns();
  ASSERT_EQ(columns.back(), "error");
  std::vector<std::vector<S>> rows;
  MotionObservers<S> observers;
  observers.record = [&](const Sample<S>& s) { rows.push_back(table.values(s)); };
  const MotionRun<S> run =
      run_motion<S>(p.sys, *p.formulation, State<S>{p.q, p.qdot}, plan.options, reference, observers);
  ASSERT_FALSE(run.error);
  ASSERT_EQ(rows.size(), 13u);  // t = 0, 0.25, ..., 3
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), columns.size());
    // The error column against an independent evaluation of the closed form.
    const State<S> x = plan.motion->exact(row[0]);
    S distance(0);
    for (Eigen::Index i = 0; i < p.sys.n; ++i) {
      using std::abs;
      using std::max;
      distance = max(distance, S(abs(row[1 + static_cast<std::size_t>(i)] - x.q[i])));
      distance = max(distance, S(abs(row[1 + static_cast<std::size_t>(p.sys.n + i)] - x.qdot[i])));
    }
    EXPECT_EQ(row.back(), distance);
    EXPECT_LE(row.back(), motion_bound<S>()) << "t = " << to_string<S>(row[0]);
  }
}

/// A RunSpec that names its inputs as the tool does (apps/nhs/names.hpp):
/// session/ has no names of its own.
template <class S>
RunSpec<S> tool_spec() {
  RunSpec<S> spec;
  spec.names = cli::cli_run_names();
  spec.problem.names = cli::cli_input_names("--t0");
  return spec;
}

TYPED_TEST(SessionRun, RefusalsNameTheInput) {
  using S = TypeParam;
  const auto refusal = [](RunSpec<S> spec) -> std::string {
    spec.problem.system = "skate";
    try {
      plan_run<S>(spec);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  RunSpec<S> spec = tool_spec<S>();
  spec.t_end = S(-1);
  EXPECT_EQ(refusal(spec), "--t-end must be positive, got '-1'");
  spec.names.t_end = "t_end";  // the Python module could name its own argument
  EXPECT_EQ(refusal(spec), "t_end must be positive, got '-1'");

  spec = tool_spec<S>();
  spec.atol = S(-2);
  EXPECT_EQ(refusal(spec), "--atol must be non-negative, got '-2'");

  spec = tool_spec<S>();
  spec.step = S(1) / S(100);
  EXPECT_NE(refusal(spec).find("--step sets the fixed step of dla"), std::string::npos) << refusal(spec);

  spec = tool_spec<S>();
  spec.t_end = S(10);
  spec.dt_out = S(1) / S(10);
  spec.max_rows = 50;  // 101 rows asked for
  EXPECT_NE(refusal(spec).find("asks for 101 output rows, more than the budget of 50"), std::string::npos)
      << refusal(spec);

  spec = tool_spec<S>();
  spec.motion = "1";
  spec.problem.q = Vec<S>::Zero(3);
  EXPECT_EQ(refusal(spec), "--motion sets the parameters and the initial state: give no --param, --q, --qdot, --z "
                           "or --t0 with it");
  spec.names.motion = "motion";  // the names are the front end's, every one of them
  spec.problem.names = InputNames{.q = "q0", .qdot = "qdot0", .z = "z0", .params = "params", .t = "t0"};
  EXPECT_EQ(refusal(spec), "motion sets the parameters and the initial state: give no params, q0, qdot0, z0 or t0 "
                           "with it");

  spec = tool_spec<S>();
  spec.motion = "no such motion";
  EXPECT_NE(refusal(spec).find("has no motion 'no such motion'"), std::string::npos) << refusal(spec);
}

// simulate owns the run: its rows are those of plan_run, plan_reference
// and run_motion composed by hand, bit for bit; a run past max_rhs_calls
// ends in the error table's budget row with its figures; the front end's
// interrupt stops it, classified; a refusal before the run is thrown.
TYPED_TEST(SessionRun, SimulateIsThePlannedRunWithItsEndClassified) {
  using S = TypeParam;
  const RunSpec<S> spec = circle_run<S>();
  const RunPlan<S> plan = plan_run<S>(spec);
  const Problem<S>& p = plan.problem;
  const MotionReference<S> reference = plan_reference(plan);
  const MotionTable<S> table(p.sys, reference);
  std::vector<std::vector<S>> by_hand, simulated;
  MotionObservers<S> hand;
  hand.record = [&](const Sample<S>& s) { by_hand.push_back(table.values(s)); };
  const MotionRun<S> run = run_motion<S>(p.sys, *p.formulation, State<S>{p.q, p.qdot}, plan.options, reference, hand);
  ASSERT_FALSE(run.error);

  std::optional<MotionTable<S>> its_table;
  RunObservers<S> observers;
  observers.planned = [&](const RunPlan<S>& planned, const MotionReference<S>& ref) {
    its_table.emplace(planned.problem.sys, ref);
  };
  observers.motion.record = [&](const Sample<S>& s) { simulated.push_back(its_table->values(s)); };
  const Simulation<S> sim = simulate<S>(spec, observers);
  ASSERT_TRUE(sim.completed());
  ASSERT_EQ(simulated.size(), 13u);
  EXPECT_TRUE(simulated == by_hand);
  EXPECT_EQ(sim.figures.stats.rhs_calls, run.figures.stats.rhs_calls);

  RunSpec<S> small = spec;
  small.max_rhs_calls = 20;
  const Simulation<S> over = simulate<S>(small, {});
  ASSERT_FALSE(over.completed());
  EXPECT_EQ(over.outcome.category, ErrorCategory::budget) << over.outcome.message;
  EXPECT_GT(over.figures.stats.rhs_calls, 20u);

  RunObservers<S> stop;
  int watched = 0;
  stop.interrupt = [&](const S&) {
    if (++watched == 3) throw Interrupted("stopped by the front end");
  };
  const Simulation<S> stopped = simulate<S>(spec, stop);
  EXPECT_EQ(stopped.outcome.category, ErrorCategory::interrupted);
  EXPECT_EQ(stopped.outcome.message, "stopped by the front end");

  RunSpec<S> refused = spec;
  refused.t_end = S(-1);
  EXPECT_THROW(simulate<S>(refused, {}), UsageError);
}

// A Chaplygin sleigh (blade a behind the centre of mass) whose turning is
// damped by the force `damping` (none when empty, nor its parameter c); m is
// given.
std::string sleigh_file(const std::string& m, const std::string& damping) {
  const bool damped = !damping.empty();
  return std::string("name = \"damped-sleigh\"\ntitle = \"a sleigh\"\nsource = \"tests/test_session.cpp\"\n") +
         "coordinates = [\"x\", \"y\", \"theta\"]\nquasi_velocities = [\"v\", \"omega\"]\n\n[parameters]\n" +
         "m = { default = \"" + m + "\", meaning = \"mass\" }\nI = { default = \"0.25\", meaning = \"inertia\" }\n" +
         "a = { default = \"0.5\", meaning = \"blade distance\" }\n" +
         (damped ? "c = { default = \"0.3\", meaning = \"damping\" }\n" : "") +
         "\n[dynamics]\nkinetic_energy = \"m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2\"\n" +
         (damped ? "forces = { theta = \"" + damping + "\" }\n" : "") +
         "\n[constraints]\nblade = \"-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot\"\n\n" +
         "[parametrization]\nx_dot = \"v*cos(theta) - a*omega*sin(theta)\"\n" +
         "y_dot = \"v*sin(theta) + a*omega*cos(theta)\"\ntheta_dot = \"omega\"\n\n" +
         "[chart]\nv = \"x_dot*cos(theta) + y_dot*sin(theta)\"\nomega = \"theta_dot\"\n\n" +
         "[initial]\nq = [\"0\", \"0\", \"0\"]\nz = [\"1\", \"0.5\"]\n";
}

TEST(SessionJacobian, FollowsAnEditedFileAndRefusesASystemOfTheEarlierVersion) {
  std::string dir = (std::filesystem::temp_directory_path() / "nhs_session_jacobian_XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string path = dir + "/sleigh.toml";
  const auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  // The first-kind field at the straight line (q = 0, v = V = 2, omega = 0):
  // J(omega, omega) = d omega_dot / d omega = -(m a V + c) / (I + m a^2).
  const Vec<double> q = Vec<double>::Zero(3);
  Vec<double> qdot(3);
  qdot << 2, 0, 0;
  const auto system_now = [&] {
    const Study<double>& st = find_study<double>(path);
    return st.build(st.default_parameters());
  };
  write(sleigh_file("1.5", "-c*theta_dot"));
  const System<double> damped = system_now();
  const double rate1 = -(1.5 * 0.5 * 2 + 0.3) / (0.25 + 1.5 * 0.25);
  EXPECT_NEAR(field_jacobian_at<double>(path, "first-kind", damped, q, qdot, "--jacobian").J(4, 4), rate1, 1e-14);
  // Edited in place: the damping doubled (another expression, the same
  // parameters), then removed with c (one parameter fewer).
  write(sleigh_file("1.5", "-2*c*theta_dot"));
  const double rate_doubled = -(1.5 * 0.5 * 2 + 0.6) / (0.25 + 1.5 * 0.25);
  EXPECT_NEAR(field_jacobian_at<double>(path, "first-kind", system_now(), q, qdot, "--jacobian").J(4, 4), rate_doubled, 1e-14);
  write(sleigh_file("3", ""));
  const System<double> undamped = system_now();
  ASSERT_EQ(undamped.parameters.size(), 3u);
  const double rate2 = -(3 * 0.5 * 2) / (0.25 + 3 * 0.25);
  EXPECT_NEAR(field_jacobian_at<double>(path, "first-kind", undamped, q, qdot, "--jacobian").J(4, 4), rate2, 1e-14);
  // The earlier system has 4 parameters; the file's field now reads 3.
  try {
    field_jacobian_at<double>(path, "first-kind", damped, q, qdot, "--jacobian");
    ADD_FAILURE() << "a system of the earlier version of the file was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("reads 3 parameters; the system has 4"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

template <class S>
class ProblemReuse : public ::testing::Test {};
TYPED_TEST_SUITE(ProblemReuse, SessionScalars);

/// An answer as text, every digit (or the refusal's type and message).
template <class S>
std::string answer_text(const std::function<AccelAnswer<S>()>& answer) {
  try {
    const AccelAnswer<S> a = answer();
    const auto text = [](const std::optional<Vec<S>>& v) { return v ? to_string<S>(*v) : std::string("none"); };
    return "q " + to_string<S>(a.q) + " qdot " + to_string<S>(a.qdot) + " qddot " + to_string<S>(a.acceleration.qddot) +
           " lambda " + text(a.acceleration.multipliers) + " reaction " + text(a.acceleration.reaction) + " Z " +
           to_string<S>(a.gauss_z);
  } catch (const std::exception& e) {
    return std::string("refused: ") + e.what();
  }
}

TYPED_TEST(ProblemReuse, OneModelAnswersEveryStateAsAFreshProblem) {
  using S = TypeParam;
  const S margin = regularity_tolerance<S>();
  for (const std::string system : {"whipple-bicycle", "rolling-disc"})
    for (const std::string formulation : {"second-kind", "first-kind"}) {
      ProblemSpec<S> base{.system = system, .formulation = formulation, .names = cli::cli_input_names()};
      base.precision = std::is_same_v<S, double> ? "double" : "mp50";
      Problem<S> model = make_problem_model<S>(checked_problem_request<S>(base));
      share_state_derivations(model);
      const Vec<S> q0 = make_problem<S>(base).q;
      std::mt19937 rng(61);
      std::normal_distribution<double> normal;
      int answered = 0;
      for (int k = 0; k < 20; ++k) {
        ProblemSpec<S> spec = base;
        spec.q = q0;
        for (Eigen::Index i = 0; i < q0.size(); ++i) (*spec.q)[i] += S(0.05 * normal(rng));
        spec.z = Vec<S>(model.sys.m);
        for (Eigen::Index i = 0; i < model.sys.m; ++i) (*spec.z)[i] = S(normal(rng));
        const std::string fresh = answer_text<S>([&] { return accelerations_at<S>(make_problem<S>(spec), margin, false); });
        const std::string reused = answer_text<S>([&] {
          admit_problem_state<S>(model, checked_problem_request<S>(spec));
          return accelerations_at<S>(model, margin, false);
        });
        EXPECT_EQ(reused, fresh) << system << " " << formulation << " state " << k;
        answered += fresh.rfind("refused", 0) != 0;
      }
      EXPECT_GE(answered, 15) << system << " " << formulation << ": too few states answered to compare";
    }
}

TEST(SessionPrecision, DispatchesEveryNameAndRefusesOthers) {
  for (const std::string& name : precision_names())
    EXPECT_EQ(with_scalar(name, [&]<class S>() { return decimal_digits<S>(); }) > 0, true) << name;
  try {
    with_scalar("mp7", [&]<class S>() { return 0; });
    FAIL() << "mp7 accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown precision 'mp7' (known: double"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nhs
