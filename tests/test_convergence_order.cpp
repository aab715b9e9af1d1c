// Observed order of each stepper against the closed form of the skate on
// the incline (docs/special-motions.md, 001 §9.1; omega = 0.9), Bulirsch-Stoer's
// error against its tolerance in float128, mp50 (16 columns) and mp100 (20
// columns), Fehlberg 7(8)'s on a uniform motion, and exactness of Odeint's
// method coefficients in 100 digits.
// ctest-labels: mp
//
// (1) Coefficients: one step of y' = J y (a rotation, y(h) = exp(hJ) y0)
//     with h = 1e-12 in mp100. A Runge-Kutta step of order p differs from
//     the exact flow by O(h^(p+1)); a coefficient rounded through a double
//     (relative error ~1e-17) would leave an error of ~1e-17 h = 1e-29 (in
//     the weights b_i) or ~1e-17 h^2 (in the a_ij). Odeint 1.74 writes its
//     dopri5, Fehlberg 7(8) and Bulirsch-Stoer constants as ratios of
//     integers converted to the value type (static_cast<value_type>(n) /
//     static_cast<value_type>(d)), so they are correctly rounded in S; this
//     test is the proof.
// (2) Fixed steps (plain do_step, no error control) in mp50, the first-kind
//     field of the skate: the error at t = 1 against the step h, for h =
//     2^-k. The fitted log-log slope must be the nominal order +- 0.5: 5
//     for Dormand-Prince 5(4), 8 for Fehlberg 7(8) (Odeint propagates the
//     8th-order solution). The smallest errors reach ~1e-20 and below: a
//     double-rounded coefficient would flatten the curve at ~1e-17.
// (3) Bulirsch-Stoer's order adapts to the tolerance, so there is no fixed
//     order to observe; what is meaningful is that the error follows the
//     tolerance: error at t = 2 against rtol = atol from 1e-15 to 1e-45
//     (mp50, nhs::integrate), log-log slope 1 +- 0.5, and the error never
//     above 100 x the tolerance. From 50 digits on, "bulirsch-stoer" (and
//     "auto") is the controlled variant with 16 columns (20 from 60
//     digits on)
//     (third_party/odeint/bulirsch_stoer_kmax.hpp); in float128, from 1e-12 to
//     1e-30, it is Odeint's 8-column dense-output one.
// (4) The same in mp100 from 1e-50 to 1e-90.
// (5) Fehlberg 7(8)'s error control on the rolling disc's circle (a uniform
//     motion, where Fehlberg's embedded estimate vanishes: Odeint's
//     controlled stepper crossed t in [0, 20] in 3 steps at any tolerance,
//     error 0.64): nhs's "fehlberg78" (step doubling,
//     lib/src/detail/fehlberg78_step_doubling.hpp), output only at t = 20,
//     double rtol 1e-7 .. 1e-12 and mp50 1e-15, 1e-20: each error <= 1000
//     x the tolerance, slope 1 +- 0.5.
#include "loglog.hpp"
#include "motion_error.hpp"
#include "rolling_disc_circle.hpp"
#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <boost/numeric/odeint.hpp>

#include <iostream>
#include <vector>

namespace nhs {
namespace {

namespace odeint = boost::numeric::odeint;

template <class S>
using OdeState = std::vector<S>;

/// log10 of a positive S as a double (for the fits; S may be far below
/// the double range's precision but not its exponent range here).
template <class S>
double log10_of(const S& x) {
  using std::log10;
  return static_cast<double>(log10(x));
}

// --- (1) exact coefficients --------------------------------------------------

using M = mp100;

struct Rotation {  // y' = (y2, -y1)
  void operator()(const OdeState<M>& y, OdeState<M>& dy, const M&) const {
    dy[0] = y[1];
    dy[1] = -y[0];
  }
};

// exp(hJ) y0 for the rotation, y0 = (1, 0): (cos h, -sin h).
M one_step_error(const OdeState<M>& y, const M& h) {
  using std::cos;
  using std::sin;
  using std::max;
  return max(abs(y[0] - cos(h)), abs(y[1] + sin(h)));
}

TEST(CoefficientsExactIn100Digits, OneTinyStepOfEachStepper) {
  const M h = from_string<M>("1e-12");
  const OdeState<M> y0 = {M(1), M(0)};
  {
    odeint::runge_kutta_dopri5<OdeState<M>, M, OdeState<M>, M> st;
    OdeState<M> y = y0;
    st.do_step(Rotation(), y, M(0), h);
    // order 5: local error ~ h^6 / 720 ~ 1e-75.
    EXPECT_LE(one_step_error(y, h), from_string<M>("1e-70")) << "dopri5";
    std::cout << "[ coeff    ] dopri5 one-step error " << static_cast<double>(one_step_error(y, h))
              << "\n";
  }
  {
    // dopri5's dense output (the calc_state interpolant, order 4): at the
    // middle of the step, error ~ h^5 ~ 1e-60.
    auto dense = odeint::make_dense_output(from_string<M>("1e-50"), from_string<M>("1e-50"),
                                           odeint::runge_kutta_dopri5<OdeState<M>, M, OdeState<M>, M>());
    dense.initialize(y0, M(0), h);
    dense.do_step(Rotation());
    OdeState<M> ym(2);
    const M tm = dense.previous_time() + (dense.current_time() - dense.previous_time()) / M(3);
    dense.calc_state(tm, ym);
    EXPECT_LE(one_step_error(ym, tm), from_string<M>("1e-55")) << "dopri5 dense output";
    std::cout << "[ coeff    ] dopri5 dense-output error " << static_cast<double>(one_step_error(ym, tm))
              << " at t = " << static_cast<double>(tm) << "\n";
  }
  {
    odeint::runge_kutta_fehlberg78<OdeState<M>, M, OdeState<M>, M> st;
    OdeState<M> y = y0;
    st.do_step(Rotation(), y, M(0), h);
    // order 8: local error ~ h^9 ~ 1e-108, below mp100's round-off.
    EXPECT_LE(one_step_error(y, h), from_string<M>("1e-97")) << "fehlberg78";
    std::cout << "[ coeff    ] fehlberg78 one-step error "
              << static_cast<double>(one_step_error(y, h)) << "\n";
  }
  {
    // Bulirsch-Stoer with dense output: a step at tolerance 1e-95 (the
    // extrapolation tableau's coefficients are built from the integer step
    // sequence in S), and its interpolant at a third of the step.
    odeint::bulirsch_stoer_dense_out<OdeState<M>, M, OdeState<M>, M> st(from_string<M>("1e-95"),
                                                                        from_string<M>("1e-95"));
    st.initialize(y0, M(0), from_string<M>("1e-3"));
    st.do_step(Rotation());
    OdeState<M> y(2), ym(2);
    const M t1 = st.current_time();
    st.calc_state(t1, y);
    EXPECT_LE(one_step_error(y, t1), from_string<M>("1e-95")) << "bulirsch-stoer, t = " << t1;
    const M tm = st.previous_time() + (t1 - st.previous_time()) / M(3);
    st.calc_state(tm, ym);
    EXPECT_LE(one_step_error(ym, tm), from_string<M>("1e-90")) << "bulirsch-stoer dense output";
    std::cout << "[ coeff    ] bulirsch-stoer step to t = " << static_cast<double>(t1) << ": error "
              << static_cast<double>(one_step_error(y, t1)) << ", dense output "
              << static_cast<double>(one_step_error(ym, tm)) << "\n";
  }
}

// --- (2), (3) observed order on the skate ----------------------------------------

using P = mp50;

template <class T = P>
struct SkateSetup {
  const Study<T>& study = find_study<T>("skate");
  SpecialMotion<T> motion = study.special_motions().front();  // omega = 0.9
  System<T> sys = study.build(motion.parameters);
  const Formulation<T>& f = find_formulation<T>("first-kind");
};

struct Field {
  const SkateSetup<>& s;
  void operator()(const OdeState<P>& x, OdeState<P>& dx, const P&) const {
    const Vec<P> d = s.f.field(s.sys, Eigen::Map<const Vec<P>>(x.data(), static_cast<Eigen::Index>(x.size())));
    dx.assign(d.data(), d.data() + d.size());
  }
};

/// Max-norm error over (q, qdot) at t = 1 after 2^k fixed steps.
template <class Stepper>
P fixed_step_error(const SkateSetup<>& s, int k) {
  const Vec<P> x0 = s.f.to_state(s.sys, s.motion.initial.q, s.motion.initial.qdot);
  OdeState<P> x(x0.data(), x0.data() + x0.size());
  const int steps = 1 << k;
  const P h = P(1) / P(steps);
  Stepper st;
  for (int i = 0; i < steps; ++i) st.do_step(Field{s}, x, P(i) * h, h);
  Vec<P> q, qd;
  s.f.from_state(s.sys, Eigen::Map<const Vec<P>>(x.data(), static_cast<Eigen::Index>(x.size())), q, qd);
  const State<P> e = s.motion.exact(P(1));
  using std::max;
  return max((q - e.q).cwiseAbs().maxCoeff(), (qd - e.qdot).cwiseAbs().maxCoeff());
}

template <class Stepper>
void check_fixed_order(const std::string& name, int k_min, int k_max, double order,
                       double below) {
  const SkateSetup<> s;
  std::vector<double> hs, errs;
  for (int k = k_min; k <= k_max; ++k) {
    const P err = fixed_step_error<Stepper>(s, k);
    hs.push_back(std::ldexp(1.0, -k));
    errs.push_back(std::pow(10.0, log10_of(err)));
    std::cout << "[ order    ] " << name << " h = 2^-" << k << ": error " << errs.back() << "\n";
  }
  const double slope = loglog_slope(hs, errs);
  std::cout << "[ order    ] " << name << ": fitted order " << slope << " (nominal " << order << ")\n";
  EXPECT_NEAR(slope, order, 0.5) << name;
  // The curve goes below what a double-rounded coefficient would allow.
  EXPECT_LT(errs.back(), below) << name;
}

TEST(ConvergenceOrder, DormandPrince5FixedSteps) {
  check_fixed_order<odeint::runge_kutta_dopri5<OdeState<P>, P, OdeState<P>, P>>(
      "dopri5", 4, 10, 5.0, 1e-17);
}

TEST(ConvergenceOrder, Fehlberg78FixedSteps) {
  check_fixed_order<odeint::runge_kutta_fehlberg78<OdeState<P>, P, OdeState<P>, P>>(
      "fehlberg78", 2, 7, 8.0, 1e-18);
}

/// A stepper through nhs::integrate on a setup (sys, f, motion) to t_end,
/// output at t_end only: error against rtol = atol = 10^-e for e = e_min,
/// e_min + e_step, ..., e_max; each error <= factor x the tolerance and the
/// log-log slope 1 +- 0.5.
template <class T, class Setup>
void check_error_follows_tolerance(const Setup& s, const std::string& stepper, const T& t_end,
                                   int e_min, int e_max, int e_step, int factor = 100) {
  std::vector<double> tols, errs;
  for (int e = e_min; e <= e_max; e += e_step) {
    IntegrationOptions<T> opts;
    opts.t_end = t_end;
    opts.dt_out = t_end;
    opts.stepper = parse_stepper(stepper);
    opts.rtol = opts.atol = power_of_ten<T>(-e);
    IntegrationStats stats;
    const T err = motion_error<T>(s.sys, s.f, s.motion, opts, &stats);
    tols.push_back(std::pow(10.0, -e));
    errs.push_back(std::pow(10.0, log10_of(err)));
    std::cout << "[ order    ] " << ScalarName<T>::value << " " << stepper << " rtol 1e-" << e
              << ": error " << errs.back() << ", " << stats.rhs_calls << " RHS calls\n";
    EXPECT_LE(err, T(factor) * opts.rtol) << stepper << " rtol 1e-" << e;
  }
  const double slope = loglog_slope(tols, errs);
  std::cout << "[ order    ] " << ScalarName<T>::value << " " << stepper << ": error ~ tol^" << slope
            << "\n";
  EXPECT_NEAR(slope, 1.0, 0.5) << stepper;
}

/// Bulirsch-Stoer on the skate to t = 2 in T (nhs::integrate, first kind,
/// stepper "bulirsch-stoer": Odeint's dense-output one up to 33 digits, the
/// controlled one above, 16 columns in mp50 and 20 in mp100):
/// check_error_follows_tolerance with factor 100.
template <class T>
void check_bulirsch_stoer_follows_tolerance(int e_min, int e_max, int e_step) {
  check_error_follows_tolerance<T>(SkateSetup<T>(), "bulirsch-stoer", T(2), e_min, e_max, e_step);
}

TEST(ConvergenceOrder, BulirschStoerErrorFollowsTolerance) {
  check_bulirsch_stoer_follows_tolerance<P>(15, 45, 5);
}

TEST(ConvergenceOrder, DenseBulirschStoerErrorFollowsToleranceInFloat128) {
  ASSERT_EQ(default_stepper<float128>(from_string<float128>("1e-12")), Stepper::bulirsch_stoer);
  check_bulirsch_stoer_follows_tolerance<float128>(12, 30, 6);
}

// (4) The 20-column Bulirsch-Stoer (third_party/odeint/bulirsch_stoer_kmax.hpp)
//     in mp100, at rtol = atol from 1e-50 to 1e-90.
// (5) Fehlberg 7(8) on the rolling disc's circle, where its embedded error
//     estimate vanishes (lib/src/detail/fehlberg78_step_doubling.hpp).
//     The tolerance bounds each step's error, and the error at t = 20 sums
//     those of 10^2 .. 10^3 steps: <= 1000 x the tolerance is asserted
//     (measured in mp50: 27 x at 1e-20 over ~150 steps, 380 x at 1e-30 over
//     ~1900); Odeint's estimate left 0.64 at every tolerance.
TEST(ConvergenceOrder, Fehlberg78ErrorFollowsToleranceOnAUniformMotion) {
  check_error_follows_tolerance<double>(RollingDiscCircle<double>(), "fehlberg78", 20.0, 7, 12, 1,
                                        1000);
}

TEST(ConvergenceOrder, Fehlberg78ErrorFollowsToleranceOnAUniformMotionInMp50) {
  check_error_follows_tolerance<P>(RollingDiscCircle<P>(), "fehlberg78", P(20), 15, 20, 5, 1000);
}

TEST(ConvergenceOrder, ControlledBulirschStoerErrorFollowsToleranceInMp100) {
  ASSERT_EQ(default_stepper<mp100>(from_string<mp100>("1e-50")), Stepper::bulirsch_stoer);
  check_bulirsch_stoer_follows_tolerance<mp100>(50, 90, 10);
}

}  // namespace
}  // namespace nhs
