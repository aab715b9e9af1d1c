// Verner's 8(7) pair ("verner87", lib/src/detail/verner87.hpp): its
// coefficients, its order and its error control.
// ctest-labels: unit mp
//
// (1) Order conditions in mp100, on the tableau as the stepper builds it
//     (from_string<S>(num) / from_string<S>(den)): the row sums c_i =
//     sum_j a_ij, and sum_i b_i Phi_i(t) = 1 / gamma(t) for every rooted
//     tree t of order <= 8 (200 trees; Butcher's elementary weights, Hairer,
//     Norsett, Wanner, Solving ODE I, II.2), for bhat = b - e every tree of
//     order <= 7 (85), and the quadrature conditions sum b_i c_i^(k-1) = 1/k
//     (k = 1..8; 1..7 for bhat) among them (the bushy trees). The rationals
//     satisfy them exactly, so the residuals are round-off in mp100 (<=
//     1e-95); a mistyped digit in the n-th of a coefficient's digits
//     leaves ~10^-n. bhat must fail order 8 (otherwise e would vanish).
// (2) One step of 1e-12 of the rotation y' = J y in mp100: error ~h^9 /
//     9! ~ 1e-114, below mp100's round-off; a coefficient rounded through
//     a double (~1e-17 relative) would leave ~1e-17 h = 1e-29. The same
//     through nhs::integrate on the skate in mp100 (rtol 1e-40 to t = 1/8;
//     1e-45 to t = 1/4 took 14 s): error <= 1e-38, far beyond double.
// (3) Fixed steps (do_step, no error control) in mp50 on the first-kind
//     field of the skate on the incline (omega = 0.9; docs/special-motions.md,
//     001 §9.1): error at t = 1 against h = 2^-k, k = 2..7; fitted log-log
//     slope 8 +- 0.5 (observed 8.0), the smallest error below 1e-18.
// (4) Error control through nhs::integrate (output at t_end only): the
//     error against the closed form follows the tolerance (each error <=
//     factor x rtol, log-log slope 1 +- 0.5) on the skate to t = 2 in
//     double (rtol 1e-7 .. 1e-13) and mp50 (1e-15 .. 1e-35), and on the
//     rolling disc's circle to t = 20 in double (a uniform motion, where
//     Fehlberg's embedded estimate vanishes; Verner's does not).
// (5) The interpolant (detail/verner87_dense.hpp; verner87 up to float128):
//     its weights b_i(theta) satisfy the continuous order conditions
//     sum_i b_i(theta) Phi_i(t) = theta^rho / gamma for the 200 trees of
//     order <= 8 at theta = 1/3, 7/10 and 1 (b_i(1) = b_i), in mp100, to
//     1e-32: Verner's coefficients are 40-digit decimals whose monomial
//     form sums to 4e6 (residuals measured: 4e-36, 1e-34, 7e-34); a digit
//     wrong in the 30th place of one coefficient shows. Through nhs::integrate with output every
//     1/32 on the skate to t = 2, the error at every sample stays within
//     100 rtol in double, long double and float128, and the output times
//     cost no step (at most 5 more steps than with output at t_end only,
//     from the smaller first step; each interpolated step costs its 7 extra
//     stages).
// (6) `auto` (default_stepper, nhs/stepper.hpp): verner87 in double and
//     long double at rtol <= 1e-7, dopri5 above and for a field whose
//     round-off grows with speed (Voronec's), Bulirsch-Stoer from float128
//     on; integrate reports the stepper it used.
#include "loglog.hpp"
#include "rk_order_conditions.hpp"
#include "motion_error.hpp"
#include "rolling_disc_circle.hpp"
#include "scalar_test.hpp"

#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include "../lib/src/detail/verner87.hpp"
#include "../lib/src/detail/verner87_dense.hpp"

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace nhs {
namespace {

template <class S>
using OdeState = std::vector<S>;

/// A positive S as a double, through its log10 (mp values below 1e-308).
template <class S>
double as_double(const S& x) {
  using std::log10;
  return std::pow(10.0, static_cast<double>(log10(x)));
}

// --- (1) order conditions ------------------------------------------------------

using M = mp100;

/// The largest |sum_i w_i Phi_i(t) - 1/gamma(t)| over the trees of order
/// <= max_order, and the number of trees.
std::pair<M, int> order_residual(const detail::Verner87Tableau<M>& tab, const std::array<M, 13>& w,
                                 const RootedTrees& trees, int max_order) {
  return continuous_order_residual<M>(tab.a, w, trees, max_order, M(1));
}

TEST(Verner87, OrderConditionsHoldIn100Digits) {
  const RootedTrees trees(8);
  ASSERT_EQ(trees.order.size(), 200u);  // 1 + 1 + 2 + 4 + 9 + 20 + 48 + 115
  const detail::Verner87Tableau<M> tab;

  M rows(0);
  for (std::size_t i = 0; i < 13; ++i) {
    M sum(0);
    for (std::size_t j = 0; j < i; ++j) sum += tab.a[i][j];
    using std::abs;
    using std::max;
    rows = max(rows, abs(sum - tab.c[i]));
  }
  std::array<M, 13> bhat;
  for (std::size_t i = 0; i < 13; ++i) bhat[i] = tab.b[i] - tab.e[i];
  const auto [b8, n8] = order_residual(tab, tab.b, trees, 8);
  const auto [bh7, n7] = order_residual(tab, bhat, trees, 7);
  const auto [bh8, n78] = order_residual(tab, bhat, trees, 8);
  std::cout << "[ verner87 ] row sums " << static_cast<double>(rows) << "; b, " << n8
            << " trees of order <= 8: " << static_cast<double>(b8) << "; bhat, " << n7
            << " trees of order <= 7: " << static_cast<double>(bh7) << ", order 8: "
            << static_cast<double>(bh8) << "\n";
  EXPECT_EQ(n8, 200);
  EXPECT_EQ(n7, 85);
  EXPECT_LE(rows, from_string<M>("1e-95"));
  EXPECT_LE(b8, from_string<M>("1e-95"));
  EXPECT_LE(bh7, from_string<M>("1e-95"));
  EXPECT_GT(bh8, from_string<M>("1e-8"));  // the embedded solution is of order 7 only

  // The quadrature conditions (bushy trees) on their own, as the check a
  // reader would write first.
  for (int k = 1; k <= 8; ++k) {
    M sb(0), sh(0);
    for (std::size_t i = 0; i < 13; ++i) {
      using std::pow;
      const M ck = k == 1 ? M(1) : M(pow(tab.c[i], k - 1));
      sb += tab.b[i] * ck;
      sh += bhat[i] * ck;
    }
    using std::abs;
    EXPECT_LE(abs(sb - M(1) / M(k)), from_string<M>("1e-95")) << "b, k = " << k;
    if (k <= 7) EXPECT_LE(abs(sh - M(1) / M(k)), from_string<M>("1e-95")) << "bhat, k = " << k;
  }

  // A coefficient off in its 60th digit is seen.
  detail::Verner87Tableau<M> off = tab;
  off.b[8] *= M(1) + from_string<M>("1e-60");
  EXPECT_GT(order_residual(off, off.b, trees, 8).first, from_string<M>("1e-62"));
}

// --- (2) a step in mp100 beyond double ---------------------------------------

struct Rotation {  // y' = (y2, -y1)
  void operator()(const OdeState<M>& y, OdeState<M>& dy, const M&) const {
    dy[0] = y[1];
    dy[1] = -y[0];
  }
};

TEST(Verner87, OneTinyStepIsExactIn100Digits) {
  const M h = from_string<M>("1e-12");
  detail::Verner87<OdeState<M>, M> st;
  OdeState<M> y = {M(1), M(0)}, err(2);
  st.do_step(Rotation(), y, M(0), h, err);
  using std::abs;
  using std::cos;
  using std::max;
  using std::sin;
  const M e = max(abs(y[0] - cos(h)), abs(y[1] + sin(h)));
  std::cout << "[ verner87 ] mp100 one step of 1e-12: error " << static_cast<double>(e)
            << ", estimate " << static_cast<double>(max(abs(err[0]), abs(err[1]))) << "\n";
  EXPECT_LE(e, from_string<M>("1e-97"));
}

template <class T>
struct Skate {
  const Study<T>& study = find_study<T>("skate");
  SpecialMotion<T> motion = study.special_motions().front();  // omega = 0.9
  System<T> sys = study.build(motion.parameters);
  const Formulation<T>& f = find_formulation<T>("first-kind");
};


/// verner87 through nhs::integrate, output at t_end only: the max-norm
/// error of (q, qdot) against the closed form at t_end.
template <class T, class Setup>
T integrated_error(const Setup& s, const T& t_end, const T& rtol, IntegrationStats& stats) {
  IntegrationOptions<T> opts;
  opts.t_end = t_end;
  opts.dt_out = t_end;
  opts.stepper = Stepper::verner87;
  opts.rtol = opts.atol = rtol;
  const T err = motion_error<T>(s.sys, s.f, s.motion, opts, &stats);
  EXPECT_EQ(stats.stepper, Stepper::verner87);
  return err;
}

TEST(Verner87, IntegrateInMp100IsAccurateBeyondDouble) {
  const Skate<M> s;
  IntegrationStats stats;
  const M err = integrated_error<M>(s, M(1) / M(8), from_string<M>("1e-40"), stats);
  std::cout << "[ verner87 ] mp100 skate to t = 1/8, rtol 1e-40: error "
            << as_double(err) << ", " << stats.rhs_calls << " RHS calls\n";
  EXPECT_LE(err, from_string<M>("1e-38"));
}

// --- (3) observed order -------------------------------------------------------

using P = mp50;

TEST(Verner87, ObservedOrderIsEightOnTheSkate) {
  const Skate<P> s;
  const auto field = [&](const OdeState<P>& x, OdeState<P>& dx, const P&) {
    const Vec<P> d =
        s.f.field(s.sys, Eigen::Map<const Vec<P>>(x.data(), static_cast<Eigen::Index>(x.size())));
    dx.assign(d.data(), d.data() + d.size());
  };
  const Vec<P> x0 = s.f.to_state(s.sys, s.motion.initial.q, s.motion.initial.qdot);
  std::vector<double> hs, errs;
  for (int k = 2; k <= 7; ++k) {
    OdeState<P> x(x0.data(), x0.data() + x0.size()), err(x.size());
    const int steps = 1 << k;
    const P h = P(1) / P(steps);
    detail::Verner87<OdeState<P>, P> st;
    for (int i = 0; i < steps; ++i) st.do_step(field, x, P(i) * h, h, err);
    Vec<P> q, qd;
    s.f.from_state(s.sys, Eigen::Map<const Vec<P>>(x.data(), static_cast<Eigen::Index>(x.size())),
                   q, qd);
    const State<P> e = s.motion.exact(P(1));
    using std::max;
    hs.push_back(std::ldexp(1.0, -k));
    errs.push_back(as_double(P(max((q - e.q).cwiseAbs().maxCoeff(), (qd - e.qdot).cwiseAbs().maxCoeff()))));
    std::cout << "[ verner87 ] h = 2^-" << k << ": error " << errs.back() << "\n";
  }
  const double slope = loglog_slope(hs, errs);
  std::cout << "[ verner87 ] fitted order " << slope << " (nominal 8)\n";
  EXPECT_NEAR(slope, 8.0, 0.5);
  EXPECT_LT(errs.back(), 1e-18);
}

// --- (4) error follows the tolerance ----------------------------------------

template <class T, class Setup>
void check_error_follows_tolerance(const Setup& s, const T& t_end, int e_min, int e_max,
                                   int e_step, int factor) {
  std::vector<double> tols, errs;
  for (int e = e_min; e <= e_max; e += e_step) {
    IntegrationStats stats;
    const T rtol = power_of_ten<T>(-e);
    const T err = integrated_error<T>(s, t_end, rtol, stats);
    tols.push_back(std::pow(10.0, -e));
    errs.push_back(as_double(err));
    std::cout << "[ verner87 ] " << ScalarName<T>::value << " rtol 1e-" << e << ": error "
              << errs.back() << ", " << stats.rhs_calls << " RHS calls\n";
    EXPECT_LE(err, T(factor) * rtol) << "rtol 1e-" << e;
  }
  const double slope = loglog_slope(tols, errs);
  std::cout << "[ verner87 ] " << ScalarName<T>::value << ": error ~ tol^" << slope << "\n";
  EXPECT_NEAR(slope, 1.0, 0.5);
}

TEST(Verner87, ErrorFollowsToleranceOnTheSkateInDouble) {
  check_error_follows_tolerance<double>(Skate<double>(), 2.0, 7, 13, 1, 100);
}

TEST(Verner87, ErrorFollowsToleranceOnTheSkateInMp50) {
  check_error_follows_tolerance<P>(Skate<P>(), P(2), 15, 35, 5, 100);
}

TEST(Verner87, ErrorFollowsToleranceOnAUniformMotion) {
  check_error_follows_tolerance<double>(RollingDiscCircle<double>(), 20.0, 7, 12, 1, 1000);
}

// --- (5) the interpolant ------------------------------------------------------

TEST(Verner87, InterpolantOrderConditionsHold) {
  const RootedTrees trees(8);
  const detail::Verner87DenseTableau<M> tab;
  const M bound = from_string<M>("1e-32");
  for (const M theta : {M(1) / M(3), M(7) / M(10), M(1)}) {
    const auto [worst, count] = continuous_order_residual<M>(tab.a, tab.weights(theta), trees, 8, theta);
    std::cout << "[ verner87 ] interpolant, theta = " << static_cast<double>(theta) << ": " << count
              << " trees, largest residual " << as_double(M(worst + from_string<M>("1e-300")))
              << "\n";
    EXPECT_EQ(count, 200);
    EXPECT_LE(worst, bound) << "theta = " << static_cast<double>(theta);
  }
  const auto w1 = tab.weights(M(1));
  for (std::size_t i = 0; i < 13; ++i) {
    using std::abs;
    EXPECT_LE(abs(w1[i] - tab.pair.b[i]), bound) << "b_" << i + 1 << "(1)";
  }
  // One coefficient off in its 30th digit is seen.
  detail::Verner87DenseTableau<M> off = tab;
  off.s[8][3] *= M(1) + from_string<M>("1e-30");
  const M theta = M(7) / M(10);
  EXPECT_GT(continuous_order_residual<M>(off.a, off.weights(theta), trees, 8, theta).first, bound);
}

template <class T>
void check_dense_output(const T& rtol) {
  const Skate<T> s;
  IntegrationOptions<T> opts;
  opts.t_end = T(2);
  opts.dt_out = T(1) / T(32);
  opts.stepper = Stepper::verner87;
  opts.rtol = opts.atol = rtol;
  IntegrationStats fine, coarse;
  const T err = motion_error<T>(s.sys, s.f, s.motion, opts, &fine);
  opts.dt_out = opts.t_end;
  const T err_end = motion_error<T>(s.sys, s.f, s.motion, opts, &coarse);
  std::cout << "[ verner87 ] " << ScalarName<T>::value << " rtol " << as_double(rtol)
            << ", output every 1/32: max error " << as_double(T(err + T(1e-300))) << ", "
            << fine.steps << " steps, " << fine.rhs_calls << " RHS calls; output at t = 2 only: error "
            << as_double(T(err_end + T(1e-300))) << ", " << coarse.steps << " steps, "
            << coarse.rhs_calls << " RHS calls\n";
  EXPECT_LE(err, T(100) * rtol);
  // The first step is dt_out / 16 (integrate.ipp): a few more steps to grow
  // from 1/512 instead of 1/8; none for the output times themselves.
  EXPECT_LE(fine.steps, coarse.steps + 5);
}

TEST(Verner87, DenseOutputInDoubleLongDoubleAndFloat128) {
  check_dense_output<double>(1e-10);
  check_dense_output<long double>(1e-15L);
  check_dense_output<float128>(from_string<float128>("1e-25"));
}

// --- (6) auto -----------------------------------------------------------------

TEST(Verner87, AutoByPrecisionToleranceAndField) {
  EXPECT_EQ(default_stepper<double>(1e-12), Stepper::verner87);
  EXPECT_EQ(default_stepper<double>(1e-7), Stepper::verner87);
  EXPECT_EQ(default_stepper<double>(1e-6), Stepper::dopri5);
  EXPECT_EQ(default_stepper<double>(1e-12, true), Stepper::dopri5);
  EXPECT_EQ(default_stepper<long double>(1e-15L), Stepper::verner87);
  EXPECT_EQ(default_stepper<float128>(from_string<float128>("1e-30")), Stepper::bulirsch_stoer);
  EXPECT_EQ(default_stepper<P>(from_string<P>("1e-12")), Stepper::bulirsch_stoer);

  // integrate resolves auto with the formulation's round_off_grows_with_speed.
  const Skate<double> s;
  for (const char* name : {"first-kind", "second-kind", "voronec"}) {
    const Formulation<double>& f = find_formulation<double>(name);
    IntegrationOptions<double> opts;  // auto, rtol 1e-12
    opts.t_end = 0.5;
    opts.dt_out = 0.5;
    IntegrationStats stats;
    (void)motion_error<double>(s.sys, f, s.motion, opts, &stats);
    EXPECT_EQ(stats.stepper, f.round_off_grows_with_speed() ? Stepper::dopri5 : Stepper::verner87)
        << name;
    EXPECT_EQ(validated_stepper(opts, f.round_off_grows_with_speed()), stats.stepper) << name;
  }
  EXPECT_TRUE(find_formulation<double>("voronec").round_off_grows_with_speed());
  EXPECT_FALSE(find_formulation<double>("second-kind").round_off_grows_with_speed());
}

}  // namespace
}  // namespace nhs
