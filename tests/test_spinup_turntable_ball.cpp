// The ball on a turntable that spins up, Omega(t) = Omega0 + alpha t
// (docs/affine-constraints.md, T5-T8; time as the clock coordinate tau):
//  (a) off the centred orbit the integrated centre follows the spiral (T7),
//      r(t) = Rz(beta) [r0 + Integral_0^t Rz(-beta(s)) u0 ds], with the
//      integral (a Fresnel-type integral) by adaptive Gauss-Kronrod
//      quadrature, an independent method: Tolerance<S>::analytic (1e-9
//      double, 1e-40 mp50);
//  (b) the clock changes nothing but the time dependence: at random states,
//      the centre's acceleration is turntable-ball's at Omega = Omega(tau)
//      plus (2/7) alpha J r (T5), and equals it when alpha = 0 (all five
//      accelerations), Tolerance<S>::cross;
//  (c) tau_ddot = 0 and the reaction on the clock balances nothing but the
//      clock: the sphere's equations do not see it (covered by (b)).
//  (d) examples/spinup-turntable-ball.toml, which names t in its constraints
//      (the loader's clock coordinate `time`), is this study: the same
//      accelerations and invariants at random states, Tolerance<S>::cross;
//  (e) the state's time (ProblemSpec::t, `nhs accel --t`) is the clock's
//      value, and a q without the clock takes it; t is refused for a
//      system without time, and beside a q that has its clock;
//  (f) the work-energy balance along a run: E(t) - E(0) = Integral_0^t
//      (F . qdot + R . qdot) ds, E = T + V, with the second kind's motion
//      and the reaction R of KKT (an independent formulation) integrated
//      together (Fehlberg 7(8) at 1e-13), to 1e-9: the power of the
//      moving table (R . qdot = -lambda_a a0^a, A4), and for
//      examples/pushed-skate.toml the push's F . qdot and the clock's
//      reaction, which carries -dL/dt.
// The cross-formulation agreement, the special motion (T8), the invariants
// (T6) and the energy rate -lambda_a a0^a are the generic tests' (every
// study of the registry).
// ctest-labels: unit study
#include "file_is_study.hpp"
#include "scalar_test.hpp"

#include "nhs/session/problem.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/numeric/odeint.hpp>

#include <iostream>
#include <random>
#include <string>
#include <type_traits>

namespace nhs {
namespace {

template <class S>
class SpinupTurntableBall : public ::testing::Test {};
TYPED_TEST_SUITE(SpinupTurntableBall, TestScalars, ScalarNames);

TYPED_TEST(SpinupTurntableBall, CentreFollowsTheSpiral) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sin;
  const Study<S>& st = find_study<S>("spinup-turntable-ball");
  const Formulation<S>& f = find_formulation<S>("second-kind");
  const S table0 = from_string<S>("0.9"), accel = from_string<S>("0.2");
  const System<S> sys = st.build({from_string<S>("1.3"), from_string<S>("0.6"), table0, accel});
  // A launch off the centred orbit (u0 != 0) whose Euler-angle chart stays
  // regular to t = 10 (|sin theta| >= 0.24 along it, from `nhs run`'s
  // smallest margin_sin_theta). To t = 10 in double; to t = 3 in mp50,
  // where the library's second kind takes about 4 s per unit of t.
  Vec<S> q(6);
  q << from_string<S>("0.3"), S(1), from_string<S>("-0.4"), from_string<S>("0.5"), from_string<S>("-0.2"), S(0);
  const State<S> x0 =
      state_from_chart<S>(sys, q, {from_string<S>("0.2"), from_string<S>("0.3"), from_string<S>("-0.4")});
  const S two_sevenths = S(2) / S(7);
  // u0 = v0 - (2/7) Omega0 J r0 (T6), J (a, b) = (-b, a).
  const S ux = x0.qdot[3] + two_sevenths * table0 * x0.q[4], uy = x0.qdot[4] - two_sevenths * table0 * x0.q[3];
  const auto beta = [&](const S& s) { return S(two_sevenths * (table0 * s + accel * s * s / S(2))); };
  // Integral_0^t (cos beta, sin beta) ds, accumulated from sample to sample.
  using boost::math::quadrature::gauss_kronrod;
  const S quad_tol = Tolerance<S>::cross;
  S t_prev = 0, int_cos = 0, int_sin = 0;
  IntegrationOptions<S> opts;
  opts.t_end = std::is_same_v<S, double> ? S(10) : S(3);
  opts.dt_out = S(1) / S(2);
  opts.rtol = opts.atol = integration_tolerance<S>();
  S worst = 0, drift = 0;
  int samples = 0;
  integrate<S>(sys, f, x0.q, x0.qdot, opts,
               [&](const Sample<S>& s) {
                 if (s.t > t_prev) {
                   int_cos += gauss_kronrod<S, 31>::integrate([&](const S& u) { return S(cos(beta(u))); }, t_prev,
                                                               s.t, 15, quad_tol);
                   int_sin += gauss_kronrod<S, 31>::integrate([&](const S& u) { return S(sin(beta(u))); }, t_prev,
                                                               s.t, 15, quad_tol);
                   t_prev = s.t;
                 }
                 // Rz(-beta(s)) u0 integrated: (ux C + uy S, -ux S + uy C).
                 const S px = x0.q[3] + ux * int_cos + uy * int_sin, py = x0.q[4] - ux * int_sin + uy * int_cos;
                 const S b = beta(s.t), c = cos(b), sn = sin(b);
                 const S x = c * px - sn * py, y = sn * px + c * py;
                 const S nu = two_sevenths * (table0 + accel * s.t);
                 Vec<S> e(5);
                 e << s.q[3] - x, s.q[4] - y, s.qdot[3] - (ux - nu * y), s.qdot[4] - (uy + nu * x), s.q[5] - s.t;
                 const S scale = S(1) + abs(x) + abs(y);
                 if (max_abs(e) / scale > worst) worst = max_abs(e) / scale;
                 drift = abs(x - x0.q[3]) + abs(y - x0.q[4]);
                 ++samples;
               },
               nullptr);
  EXPECT_EQ(samples, (std::is_same_v<S, double> ? 21 : 7));
  EXPECT_LE(worst, Tolerance<S>::analytic);
  EXPECT_GT(abs(ux) + abs(uy), S(1) / S(10));  // off the centred orbit: the integral matters
  EXPECT_GT(drift, S(1) / S(10));
  std::cout << "[ spiral   ] " << ScalarName<S>::value << ": |u0| = " << double(abs(ux) + abs(uy))
            << ", worst relative error " << double(worst) << "\n";
}

TYPED_TEST(SpinupTurntableBall, SpinUpAddsTwoSeventhsAlphaJrToTheCentre) {
  using S = TypeParam;
  using std::abs;
  const Study<S>& spin = find_study<S>("spinup-turntable-ball");
  const Study<S>& steady = find_study<S>("turntable-ball");
  const Formulation<S>& f = find_formulation<S>("second-kind");
  std::mt19937_64 rng(20261203);
  for (int k = 0; k < 20; ++k) {
    std::vector<S> p = randomized_parameters(spin, rng);  // (m, R, Omega0, alpha)
    if (k % 4 == 0) p[3] = S(0);                          // alpha = 0: the same system
    const System<S> a = spin.build(p);
    const State<S> x = spin.random_state(a, rng);
    const S table = p[2] + p[3] * x.q[5];
    const System<S> b = steady.build({p[0], p[1], table});
    const Vec<S> qa = f.acceleration(a, x.q, x.qdot).qddot;
    const Vec<S> qb = f.acceleration(b, Vec<S>(x.q.head(5)), Vec<S>(x.qdot.head(5))).qddot;
    const S scale = S(1) + max_abs(qb);
    EXPECT_LE(abs(qa[5]), Tolerance<S>::cross * scale) << "tau_ddot, state " << k;
    const S extra_x = -(S(2) * p[3] * x.q[4] / S(7)), extra_y = S(2) * p[3] * x.q[3] / S(7);
    EXPECT_LE(abs(qa[3] - qb[3] - extra_x), Tolerance<S>::cross * scale) << "x_ddot, state " << k;
    EXPECT_LE(abs(qa[4] - qb[4] - extra_y), Tolerance<S>::cross * scale) << "y_ddot, state " << k;
    if (p[3] == S(0))
      EXPECT_LE(max_abs<S>(Vec<S>(qa.head(5)) - qb), Tolerance<S>::cross * scale) << "alpha = 0, state " << k;
  }
}

#ifndef NHS_SOURCE_DIR
#define NHS_SOURCE_DIR ".."
#endif
const std::string kFile = std::string(NHS_SOURCE_DIR) + "/examples/spinup-turntable-ball.toml";

TYPED_TEST(SpinupTurntableBall, ExampleFileIsTheBuiltInStudy) {
  using S = TypeParam;
  using std::abs;
  const Study<S>& builtin = find_study<S>("spinup-turntable-ball");
  const Study<S>& file = find_study<S>(kFile);
  // q = (phi, theta, psi, x, y) and the clock: tau in the study, the
  // loader's `time` in the file, both at index 5 and both solved for by
  // Voronec's split with (x, y).
  ASSERT_EQ(file.info.coordinates.size(), 6u);
  EXPECT_EQ(file.info.coordinates[5], "time");
  EXPECT_EQ(file.info.clock_coordinate, builtin.info.clock_coordinate);
  EXPECT_TRUE(file.info.affine_constraints);
  EXPECT_EQ(file.info.dependent_velocities, builtin.info.dependent_velocities);
  test::expect_file_is_the_study(builtin, file, 36);
}

TEST(SpinupTurntableBallTime, TheStatesTimeIsTheClock) {
  const std::string t_text = "0.7";
  ProblemSpec<double> with_clock;
  with_clock.names.q = "--q";  // the tool's names (session/ has none): its message
  with_clock.names.t = "--t";
  with_clock.system = "spinup-turntable-ball";
  with_clock.formulation = "lagrange-multipliers";
  with_clock.q = Vec<double>(6);
  *with_clock.q << 0.3, 1.0, -0.4, 0.5, -0.2, 0.7;
  with_clock.qdot = Vec<double>(6);
  const Problem<double> ref = [&] {
    // qdot on C at tau = 0.7: from the chart, through the study's psi.
    const Study<double>& st = find_study<double>("spinup-turntable-ball");
    const System<double> sys = st.build(st.default_parameters());
    const State<double> x = state_from_chart<double>(sys, *with_clock.q, {0.2, 0.3, -0.4});
    with_clock.qdot = x.qdot;
    return make_problem<double>(with_clock);
  }();
  // The same state given without the clock, its time as t.
  ProblemSpec<double> without = with_clock;
  without.q = Vec<double>(with_clock.q->head(5));
  without.qdot = Vec<double>(with_clock.qdot->head(5));
  without.t = from_string<double>(t_text);
  const Problem<double> p = make_problem<double>(without);
  EXPECT_EQ(p.q, ref.q);
  EXPECT_EQ(p.qdot, ref.qdot);
  EXPECT_EQ(p.qdot[5], 1.0);
  const Vec<double> a = p.formulation->acceleration(p.sys, p.q, p.qdot).qddot;
  EXPECT_EQ(a, ref.formulation->acceleration(ref.sys, ref.q, ref.qdot).qddot);
  // The default state at t: its clock set, nothing else changed.
  ProblemSpec<double> at_t;
  at_t.system = "spinup-turntable-ball";
  const Problem<double> d0 = make_problem<double>(at_t);
  at_t.t = 2.5;
  const Problem<double> d = make_problem<double>(at_t);
  EXPECT_EQ(d.q[5], 2.5);
  EXPECT_EQ(Vec<double>(d.q.head(5)), Vec<double>(d0.q.head(5)));
  // Refusals, by name: t beside a q that has its clock; t for a system
  // without time; a q of neither n nor n - 1 values.
  ProblemSpec<double> both = with_clock;
  both.t = 0.7;
  EXPECT_THROW(
      {
        try {
          (void)make_problem<double>(both);
        } catch (const UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("--t sets t, which --q gives already"), std::string::npos) << e.what();
          throw;
        }
      },
      UsageError);
  ProblemSpec<double> steady;
  steady.system = "turntable-ball";
  steady.t = 1.0;
  EXPECT_THROW(
      {
        try {
          (void)make_problem<double>(steady);
        } catch (const UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("does not depend on the time t"), std::string::npos) << e.what();
          throw;
        }
      },
      UsageError);
  ProblemSpec<double> short_q = without;
  short_q.q = Vec<double>(with_clock.q->head(4));
  EXPECT_THROW(
      {
        try {
          (void)make_problem<double>(short_q);
        } catch (const UsageError& e) {
          EXPECT_NE(std::string(e.what()).find("or 5 without its clock coordinate tau"), std::string::npos)
              << e.what();
          throw;
        }
      },
      UsageError);
}

// max over the run to t_end of |E(t) - E(0) - W(t)|, W = Integral of
// (F + R) . qdot: x = (q, qdot, W) integrated by odeint's Fehlberg 7(8),
// qddot by the second kind, R by KKT. Also the largest |W| seen (so that
// the test knows the balance is not 0 = 0).
std::pair<double, double> work_energy_defect(const System<double>& sys, const State<double>& x0, double t_end) {
  namespace odeint = boost::numeric::odeint;
  const Formulation<double>& second = find_formulation<double>("second-kind");
  const Formulation<double>& kkt = find_formulation<double>("lagrange-multipliers");
  const int n = sys.n;
  const auto energy = [&](const Vec<double>& q, const Vec<double>& qd) {
    return sys.kinetic_energy(q, qd) + (sys.potential ? sys.potential(q) : 0.0);
  };
  using X = std::vector<double>;
  const auto rhs = [&](const X& x, X& dx, double) {
    const Vec<double> q = Eigen::Map<const Vec<double>>(x.data(), n);
    const Vec<double> qd = Eigen::Map<const Vec<double>>(x.data() + n, n);
    const Vec<double> qdd = second.acceleration(sys, q, qd).qddot;
    const std::optional<Vec<double>> R = kkt.acceleration(sys, q, qd).reaction;
    if (!R) throw std::runtime_error("KKT gives no reaction");
    double power = R->dot(qd);
    if (sys.nonconservative_force) {
      Vec<double> F(n);
      sys.nonconservative_force(q, qd, F);
      power += F.dot(qd);
    }
    for (int i = 0; i < n; ++i) {
      dx[static_cast<std::size_t>(i)] = qd[i];
      dx[static_cast<std::size_t>(n + i)] = qdd[i];
    }
    dx[static_cast<std::size_t>(2 * n)] = power;
  };
  X x(static_cast<std::size_t>(2 * n + 1), 0.0);
  for (int i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = x0.q[i];
    x[static_cast<std::size_t>(n + i)] = x0.qdot[i];
  }
  const double e0 = energy(x0.q, x0.qdot);
  double defect = 0, largest_work = 0;
  const auto observe = [&](const X& y, double) {
    const Vec<double> q = Eigen::Map<const Vec<double>>(y.data(), n);
    const Vec<double> qd = Eigen::Map<const Vec<double>>(y.data() + n, n);
    const double w = y[static_cast<std::size_t>(2 * n)];
    defect = std::max(defect, std::abs(energy(q, qd) - e0 - w));
    largest_work = std::max(largest_work, std::abs(w));
  };
  odeint::integrate_const(odeint::make_controlled<odeint::runge_kutta_fehlberg78<X>>(1e-13, 1e-13), rhs, x, 0.0,
                          t_end, 0.1, observe);
  return {defect, largest_work};
}

TEST(SpinupTurntableBallTime, WorkEnergyBalanceAlongARun) {
  // The table spun up: the reaction's power -lambda_a a0^a is the only one.
  const Study<double>& st = find_study<double>("spinup-turntable-ball");
  const System<double> sys = st.build({1.3, 0.6, 0.9, 0.2});
  Vec<double> q(6);
  q << 0.3, 1.0, -0.4, 0.5, -0.2, 0.0;
  const auto [ball, ball_work] = work_energy_defect(sys, state_from_chart<double>(sys, q, {0.2, 0.3, -0.4}), 5.0);
  EXPECT_GT(ball_work, 0.1);
  EXPECT_LE(ball, 1e-9 * (1 + ball_work));
  // The pushed skate from its file: the push k t does work, and the clock's
  // reaction (on the loader's coordinate `time`) is in R.
  const Study<double>& skate = find_study<double>(std::string(NHS_SOURCE_DIR) + "/examples/pushed-skate.toml");
  ASSERT_EQ(skate.info.clock_coordinate, 3);
  const System<double> s = skate.build(skate.default_parameters());
  const auto [push, push_work] = work_energy_defect(s, skate.default_state(s), 5.0);
  EXPECT_GT(push_work, 1.0);
  EXPECT_LE(push, 1e-9 * (1 + push_work));
  std::cout << "[ balance  ] spun-up table: max |E - E0 - W| = " << ball << " (max |W| = " << ball_work
            << "); pushed skate: " << push << " (max |W| = " << push_work << ")\n";
}

}  // namespace
}  // namespace nhs
