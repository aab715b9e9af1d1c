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
// The cross-formulation agreement, the special motion (T8), the invariants
// (T6) and the energy rate -lambda_a a0^a are the generic tests' (every
// study of the registry).
// ctest-labels: unit study
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"

#include <boost/math/quadrature/gauss_kronrod.hpp>

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

}  // namespace
}  // namespace nhs
