#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/integrate.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/discrete_lagrange_dalembert.hpp"

#include "odeint/bulirsch_stoer_dense_out.hpp"
#include "odeint/bulirsch_stoer_kmax.hpp"
#include "detail/fehlberg78_step_doubling.hpp"
#include "detail/verner87.hpp"
#include "detail/verner87_dense.hpp"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iomanip>
#include <sstream>
#include <optional>
#include <utility>
#include <vector>

namespace nhs {
namespace {

namespace odeint = boost::numeric::odeint;

template <class S>
using OdeState = std::vector<S>;

// "bulirsch-stoer" is Odeint's dense-output Gragg-Bulirsch-Stoer (8
// extrapolation columns) up to this many digits (float128), and above it
// (mp50, mp100) the controlled one with kHighOrderColumns columns
// (third_party/odeint/bulirsch_stoer_kmax.hpp; docs/numerics.md "Steppers"). 8 columns cap the
// order near 16: at 100 digits the cost grew x5.7 per 10 digits of
// tolerance, and at 50 digits the steps stay small (mp50, skate to t = 20,
// second kind, rtol 1e-46, output every 0.5: 1268 steps, 195k RHS calls,
// 23.4 s with 8 dense columns; 50 steps, 9.4k calls, 1.1 s with 16
// controlled ones, error against mp100 1.8e-45 and 1.0e-44). The controlled
// stepper ends a step on every output time, so very fine output costs more
// (rolling disc, mp50, t = 10, default tolerance: output every 0.1, 9.5k
// calls against 26.7k; every 0.01, 57k against 26k). A dense-output copy
// with 16 columns was measured and not kept: without interpolation error
// control its interpolant lost 8 digits (max|C| 2e-38 at rtol 1e-45), with
// it the run took 98k calls.
constexpr int kDenseBulirschStoerDigits = 33;
// Verner 8(7)'s interpolant has 40-digit coefficients (detail/verner87_dense.hpp):
// verner87 interpolates up to float128's 33 digits and, beyond, ends its steps
// on the output times.
constexpr int kVerner87DenseDigits = 33;
// Columns of the controlled Bulirsch-Stoer: 16 up to 60 digits (mp50), 20
// above (mp100). With 16 the order stops near 32, and at 1e-90 the steps
// shrink to ~0.006 (mp100, rolling sphere, first kind, t in [0, 1], output
// every 0.5, rtol 1e-90: 168 steps, 49.4k RHS calls). More columns give
// longer steps but a higher round-off floor (the extrapolation amplifies
// the rounding of the high columns). Measured, rolling sphere as above /
// the symmetric bipendulum near its singular turning point (test_precision_
// near_singular_mp100, error at 0.9 and 1 - 1e-5 of T/4, rtol 1e-90):
//   16 columns: 49.4k calls / 2.8e-92, 1.7e-89
//   20 columns: 16.4k calls / 1.4e-91, 1.1e-88
//   24 columns: 10.2k calls / 9.4e-91, 9.3e-88
//   32 columns: 10.2k calls / 3.3e-90, 6.5e-86 (4.7e-90, 2.0e-87 at rtol
//               1e-92: a floor, not the tolerance)
// 20 keeps the digits the near-singular and literal checks assert. In mp50
// 32 columns were not kept either: rolling sphere to t = 20 at rtol 1e-46,
// 51.3k -> 45.6k calls, energy drift 6.4e-46 -> 3.9e-44.
template <class S>
constexpr std::size_t kHighOrderColumns = decimal_digits<S>() > 60 ? 20 : 16;
template <class S>
using HighOrderBulirschStoer =
    odeint_patched::bulirsch_stoer_kmax<OdeState<S>, S, OdeState<S>, S,
                                typename odeint::algebra_dispatcher<OdeState<S>>::algebra_type,
                                typename odeint::operations_dispatcher<OdeState<S>>::operations_type,
                                odeint::initially_resizer, kHighOrderColumns<S>>;

template <class S>
Vec<S> to_vec(const OdeState<S>& x) {
  return Eigen::Map<const Vec<S>>(x.data(), static_cast<Eigen::Index>(x.size()));
}

// Odeint's system concept f(x, dxdt, t); passed with std::ref (Odeint copies).
// The margins to the singular sets are not checked here but on the accepted
// steps (SingularSetWatch): a stage state is a trial, and checking every
// call cost 75-90% of a generated-field run.
//
// With a power P (IntegrationOptions::power) the state is x = (x_f, W), x_f
// the formulation's (size `size`), and dW/dt = P(q, qdot) at (q, qdot) =
// f.from_state(x_f).
template <class S>
struct Rhs {
  const System<S>& sys;
  const Formulation<S>& f;
  IntegrationStats& stats;
  std::uint64_t max_calls;
  const std::function<S(const Vec<S>&, const Vec<S>&)>& power;
  Eigen::Index size;  ///< of the formulation's state x_f
  Vec<S> xf{};        ///< scratch: x_f, reused from call to call (no allocation per call)

  void operator()(const OdeState<S>& x, OdeState<S>& dx, const S& t) {
    if (++stats.rhs_calls > max_calls)
      throw IntegrationFailure("more than " + std::to_string(max_calls) +
                               " vector-field evaluations before t = " + to_string<S>(t));
    // A state beyond 1e300 in magnitude is an overflow in every precision:
    // MPFR's exponent range reaches 1e(3e8), where one sin() of a coordinate
    // (its argument reduction) takes minutes (docs/numerics.md).
    if constexpr (!std::is_same_v<S, double>) {
      using std::abs;
      static const S limit = S(1e300);
      for (const auto& v : x)
        if (!(abs(v) <= limit))
          throw NonFiniteValue("non-finite value: the state exceeds 1e300 in magnitude (overflow) at t = " +
                               to_string<S>(t) + ", x = " + to_string(to_vec(x)));
    }
    Vec<S> d;
    S P(0);
    try {
      xf = Eigen::Map<const Vec<S>>(x.data(), size);
      d = f.field(sys, xf);
      if (power) {
        Vec<S> q, qd;
        f.from_state(sys, xf, q, qd);
        P = power(q, qd);
      }
    } catch (const SingularState& e) {
      throw SingularState(e.condition, std::string(e.what()) + " (reached at t = " +
                                           to_string<S>(t) + ")", to_string<S>(t));
    } catch (const NonFiniteValue& e) {
      throw NonFiniteValue(std::string(e.what()) + " (reached at t = " + to_string<S>(t) + ")");
    }
    if (!d.allFinite())
      throw NonFiniteValue("non-finite value: the vector field of " + f.name() + " at t = " +
                           to_string<S>(t) + ", x = " + to_string(to_vec(x)));
    using boost::multiprecision::isfinite;
    using boost::multiprecision::isnan;
    using std::isfinite;
    using std::isnan;
    if (power && !isfinite(P))
      throw NonFiniteValue("non-finite value: the power of the forces and reactions P = " + to_string<S>(P) +
                           (isnan(P) ? " (not a number)" : " (overflow)") + " at t = " + to_string<S>(t) +
                           ", x = " + to_string(to_vec(x)));
    dx.assign(d.data(), d.data() + d.size());
    if (power) dx.push_back(P);
  }
};

// The output times 0, dt_out, 2 dt_out, ... below t_end (1 - 16 eps) and
// t_end itself, computed when asked for: a run holds none of them.
template <class S>
class OutputTimes {
 public:
  OutputTimes(const S& t_end, const S& dt_out, std::uint64_t max_samples)
      : t_end_(t_end), dt_(dt_out) {
    using std::ceil;
    const S end = t_end * (S(1) - S(16) * epsilon<S>());
    const S ratio = end / dt_out;
    if (!(ratio < S(max_samples)))
      throw UsageError("t-end / dt-out = " + to_string<S>(t_end / dt_out) +
                       " output samples; at most " + std::to_string(max_samples) +
                       " are written (raise dt-out)");
    std::uint64_t k = static_cast<std::uint64_t>(ceil(ratio));
    while (k > 1 && S(k - 1) * dt_ >= end) --k;
    while (S(k) * dt_ < end) ++k;
    count_ = k + 1;
  }
  std::uint64_t size() const { return count_; }
  S operator[](std::uint64_t k) const { return k + 1 == count_ ? t_end_ : S(k) * dt_; }
  const S& back() const { return t_end_; }

 private:
  S t_end_, dt_;
  std::uint64_t count_ = 0;
};

// A time t_k counts as reached by a step ending at t when t_k <= t, or
// within 4 eps |t_k| above it (the sum t + (t_end - t) of the last step can
// round below t_end). Relative: Odeint's own loops compare with the
// absolute epsilon, which took every output time below eps (t_end = 1e-16
// in double) as reached at t = 0 and read past the end of the times.
template <class S>
bool reached(const S& tk, const S& t) {
  using std::abs;
  return tk <= t || tk - t <= S(4) * epsilon<S>() * abs(tk);
}

#include "integrate/watches.ipp"
#include "integrate/loops.ipp"

}  // namespace

template <class S>
Vec<S> project_state(const System<S>& sys, const Formulation<S>& f, const Vec<S>& x) {
  Vec<S> q, qd;
  f.from_state(sys, x, q, qd);
  if (sys.project_coordinates) sys.project_coordinates(q);
  return f.to_state(sys, q, project_velocity(sys, q, qd));
}

template <class S>
Stepper validated_stepper(const IntegrationOptions<S>& opts, bool round_off_grows_with_speed) {
  if (!(opts.t_end > 0) || !(opts.dt_out > 0) || !(opts.rtol > 0) || !(opts.atol >= 0))
    throw UsageError("t-end, dt-out and rtol must be positive and atol non-negative");
  using boost::multiprecision::isfinite;
  using std::isfinite;
  if (!isfinite(opts.t_end) || !isfinite(opts.dt_out) || !isfinite(opts.rtol) ||
      !isfinite(opts.atol))
    throw UsageError("t-end, dt-out, rtol and atol must be finite");

  const Stepper stepper = resolved_stepper<S>(opts.stepper, opts.rtol, round_off_grows_with_speed);
  if (const S floor = minimum_tolerance<S>(stepper); opts.rtol < floor) {
    const auto figure = [](const S& v) {  // 3 digits: a tolerance, not a result
      std::ostringstream os;
      os << std::setprecision(3) << static_cast<double>(v);
      return os.str();
    };
    throw UsageError("rtol " + figure(opts.rtol) + " is below what " +
                     std::string(stepper_name(stepper)) + " reaches in " +
                     std::string(ScalarName<S>::value) + ": " + figure(floor) +
                     (floor > S(10) * epsilon<S>()
                          ? " (about 10^6 steps per unit time on a motion of size 1); give a "
                            "larger rtol or use bulirsch-stoer"
                          : " (10 epsilon of the precision)"));
  }
  (void)OutputTimes<S>(opts.t_end, opts.dt_out, opts.max_samples);  // the grid's size
  if (is_discrete_stepper(stepper)) {
    if (!(opts.step >= 0) || !isfinite(opts.step))
      throw UsageError("the step must be positive and finite (0: the default 1/100)");
    if (opts.project)
      throw UsageError(std::string("--project: stepper ") + std::string(stepper_name(stepper)) +
                       " keeps its own constraints (the discrete constraint at every step; nh-rattle and nh-midpoint also C "
                       "at the step's ends): run it without --project");
    const S step = opts.step > 0 ? opts.step : S(1) / S(100);
    if (!(opts.t_end / step < S(1e12)))
      throw UsageError("t-end / step = " + to_string<S>(opts.t_end / step) +
                       " fixed steps; at most 1e12 (raise the step)");
  }
  return stepper;
}

namespace {

// Interval i of the output grid, [times[i], times[i + 1]], in the fewest
// equal steps not longer than `requested`: their count and length.
template <class S>
std::pair<std::uint64_t, S> discrete_steps(const OutputTimes<S>& times, std::uint64_t i, const S& requested) {
  using std::ceil;
  const S length = times[i + 1] - times[i];
  const S ratio = ceil(length / requested * (S(1) - S(16) * epsilon<S>()));
  const std::uint64_t count = ratio < S(1) ? 1 : static_cast<std::uint64_t>(ratio);
  return std::pair<std::uint64_t, S>{count, length / S(count)};
}

// IntegrationFailure when a discrete run has evaluated its equations more
// often than opts.max_rhs_calls before t.
template <class S>
void require_discrete_budget(const IntegrationStats& st, const IntegrationOptions<S>& opts, const S& t) {
  if (st.rhs_calls > opts.max_rhs_calls)
    throw IntegrationFailure("more than " + std::to_string(opts.max_rhs_calls) +
                             " evaluations of the discrete equations before t = " + to_string<S>(t));
}

// The check of a discrete run's step [t_node, t] from (q_node, v_node) to
// (q1, p1): finite, and clear of the singular sets (the watch, along the
// cubic Hermite interpolant of the nodes' q and velocities). The step's
// end becomes the next node.
template <class S>
struct DiscreteStepCheck {
  const DiscreteLagrangeDAlembert<S>& method;
  SingularSetWatch<S>& watch;
  S t_node;
  Vec<S> q_node, v_node;

  void operator()(const S& t, const Vec<S>& q1, const Vec<S>& p1) {
    if (!q1.allFinite() || !p1.allFinite())
      throw NonFiniteValue("non-finite value: the state at t = " + to_string<S>(t) + ", q = " +
                           to_string(q1) + ", p = " + to_string(p1));
    if (!watch.active()) return;
    const Vec<S> v1 = method.velocity(q1, p1);
    if (const auto c = watch.scan_points(t_node, t, [&](const S& ti, Vec<S>& q, Vec<S>& qd) {
          hermite_point(t_node, t, q_node, v_node, q1, v1, ti, q, qd);
        }))
      throw SingularState(c->condition, c->message, to_string<S>(c->t));
    t_node = t;
    q_node = q1;
    v_node = v1;
  }
};

// The fixed-step run of the discrete Lagrange-d'Alembert steppers
// (nhs/discrete_lagrange_dalembert.hpp): each output interval in the fewest
// equal steps not longer than opts.step. Samples carry q at the nodes and
// the velocity of the node's momentum (dla: the mean of the momenta on
// either side, which needs the next step, made ahead; nh-rattle,
// nh-midpoint: the end momentum, on C). The margins to the singular sets are
// watched as for the continuous steppers (SingularSetWatch, at the same
// threshold), along the cubic Hermite interpolant of each step's nodes q
// and velocities g^-1 (p - b) of the momenta arriving there: the steppers
// have no dense output, and a node on either side of a set would let a
// run pass through it.
template <class S>
void run_discrete(const System<S>& sys, Stepper stepper, const Vec<S>& q0, const Vec<S>& qd0,
                  const IntegrationOptions<S>& opts, const OutputTimes<S>& times,
                  const std::function<void(const Sample<S>&)>& observe, IntegrationStats& st,
                  SingularSetWatch<S>& watch) {
  const DiscreteScheme scheme = stepper == Stepper::dla         ? DiscreteScheme::dla
                               : stepper == Stepper::nh_rattle ? DiscreteScheme::nh_rattle
                                                               : DiscreteScheme::nh_midpoint;
  const DiscreteLagrangeDAlembert<S> method(sys, scheme, q0, qd0);
  const S requested = opts.step > 0 ? opts.step : S(1) / S(100);
  const Eigen::Index r = sys.r;
  Vec<S> q = q0, v = qd0, lambda = Vec<S>::Zero(r), mu = Vec<S>::Zero(r);
  const Vec<S> p_given = method.momentum(q0, qd0);
  Vec<S> p = p_given;
  std::optional<DiscreteStep<S>> ahead;  // dla: the step from the current node, made to report it
  if (scheme == DiscreteScheme::dla) {
    // The momentum arriving at q0 such that the mean with the one leaving
    // (p + h A^T lambda) is the given momentum: p = p_given - h A^T lambda / 2,
    // by two passes (the second from the first's lambda).
    const S h = discrete_steps(times, 0, requested).second;
    DiscreteStep<S> first = method.step(q, p, h, v, lambda, mu, &st.rhs_calls);
    p = p_given - (first.p0_plus - p) / S(2);
    ahead = method.step(q, p, h, first.v, first.lambda, mu, &st.rhs_calls);
  }
  DiscreteStepCheck<S> check_step{method, watch, S(0), q0, method.velocity(q0, p)};
  observe(Sample<S>{S(0), q0, qd0, std::nullopt});
  for (std::uint64_t i = 0; i + 1 < times.size(); ++i) {
    const auto [count, h] = discrete_steps(times, i, requested);
    for (std::uint64_t j = 0; j < count; ++j) {
      const S t = j + 1 == count ? times[i + 1] : times[i] + S(j + 1) * h;
      DiscreteStep<S> s = ahead ? std::move(*ahead) : method.step(q, p, h, v, lambda, mu, &st.rhs_calls);
      ahead.reset();
      q = s.q1;
      p = s.p1;
      v = s.v;
      lambda = s.lambda;
      if (scheme != DiscreteScheme::dla) mu = s.mu;
      ++st.steps;
      require_discrete_budget(st, opts, t);
      check_step(t, q, p);
      if (opts.on_step) opts.on_step(t, st);
    }
    Vec<S> p_node = p;
    if (scheme == DiscreteScheme::dla) {
      const S h_next = i + 2 < times.size() ? discrete_steps(times, i + 1, requested).second : h;
      ahead = method.step(q, p, h_next, v, lambda, mu, &st.rhs_calls);
      require_discrete_budget(st, opts, times[i + 1]);
      p_node = (p + ahead->p0_plus) / S(2);
    }
    observe(Sample<S>{times[i + 1], q, method.velocity(q, p_node), std::nullopt});
  }
}

// Runs the continuous `stepper` from x over the output times of `loop`
// (first step dt0): IntegrationFailure when Odeint gives up, or the
// singular state it deferred.
template <class S>
void run_continuous(Stepper stepper, const IntegrationOptions<S>& opts, OdeState<S>& x, const S& dt0, Loop<S>& loop) {
  try {
    switch (stepper) {
    case Stepper::dopri5: {
      auto s = odeint::make_dense_output(opts.atol, opts.rtol,
                                         odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
      run_dense<S>(s, x, dt0, loop);
      break;
    }
    case Stepper::fehlberg78: {
      // Fehlberg 7(8) under step-doubling error control
      // (detail/fehlberg78_step_doubling.hpp: Fehlberg's own estimate
      // vanishes on uniform motions).
      detail::Fehlberg78StepDoubling<OdeState<S>, S> s(opts.atol, opts.rtol);
      run_controlled<S>(s, x, dt0, loop);
      break;
    }
    case Stepper::verner87:
      if constexpr (decimal_digits<S>() <= kVerner87DenseDigits) {
        // Verner 8(7) with its 8th-order interpolant (detail/verner87_dense.hpp):
        // output times interpolated, as dopri5's.
        detail::Verner87Dense<OdeState<S>, S> s(opts.atol, opts.rtol);
        run_dense<S>(s, x, dt0, loop);
      } else {
        // Verner 8(7), exact rational coefficients (detail/verner87.hpp), under
        // Odeint's controlled_runge_kutta (error checker and step adjuster):
        // the interpolant's 40-digit coefficients would cap mp50 and mp100.
        using Verner = detail::Verner87<OdeState<S>, S>;
        odeint::controlled_runge_kutta<Verner> s(
            odeint::default_error_checker<S, typename Verner::algebra_type,
                                          typename Verner::operations_type>(opts.atol, opts.rtol));
        run_controlled<S>(s, x, dt0, loop);
      }
      break;
    case Stepper::dla:
    case Stepper::nh_rattle:
    case Stepper::nh_midpoint:  // run_discrete: not reached
    case Stepper::bulirsch_stoer:
    case Stepper::automatic:  // resolved by validated_stepper: not reached
      if constexpr (decimal_digits<S>() > kDenseBulirschStoerDigits) {
        // Beyond 33 digits: 16 (mp50) or 20 (mp100) extrapolation columns,
        // steps ending on the output times (third_party/odeint/bulirsch_stoer_kmax.hpp).
        HighOrderBulirschStoer<S> s(opts.atol, opts.rtol);
        run_controlled<S>(s, x, dt0, loop);
      } else {
        // Odeint's, with its cost-table read kept in bounds (third_party/odeint).
        odeint_patched::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> s(opts.atol,
                                                                                   opts.rtol);
        run_dense<S>(s, x, dt0, loop);
      }
      break;
    }
  } catch (const odeint::odeint_error& e) {
    if (loop.deferred) throw *loop.deferred;
    throw IntegrationFailure(std::string("integration failed: ") + e.what());
  }
}

}  // namespace

template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats) {
  IntegrationStats local;
  IntegrationStats& st = stats ? *stats : local;
  f.require_applicable(sys);
  const Stepper stepper = validated_stepper(opts, f.round_off_grows_with_speed());
  st.stepper = stepper;
  const OutputTimes<S> times(opts.t_end, opts.dt_out, opts.max_samples);

  if (is_discrete_stepper(stepper)) {
    // The Lagrange-d'Alembert principle discretized itself: f's field is
    // not used (f is only checked applicable, as for every stepper), nor
    // are its own singular sets watched: the system's are.
    SingularSetWatch<S> watch(sys, nullptr, opts.singular_margin);
    if (watch.active()) watch.require(q0, qd0);
    run_discrete<S>(sys, stepper, q0, qd0, opts, times, observe, st, watch);
    return;
  }
  SingularSetWatch<S> watch(sys, &f, opts.singular_margin);
  if (watch.active()) watch.require(q0, qd0);

  const Vec<S> x0 = f.to_state(sys, q0, qd0);
  const Eigen::Index size = x0.size();  // of f's state; the work W, when carried, after it
  watch.state_size(size);
  OdeState<S> x(x0.data(), x0.data() + size);
  if (opts.power) x.push_back(S(0));
  Rhs<S> rhs{sys, f, st, opts.max_rhs_calls, opts.power, size};
  auto observer = [&](const OdeState<S>& xs, const S& t) {
    const Vec<S> xv = to_vec(xs);
    if (!xv.allFinite())
      throw NonFiniteValue("non-finite value: the state at t = " + to_string<S>(t) + ", x = " +
                           to_string(xv));
    Sample<S> s{t, {}, {}, std::nullopt};
    f.from_state(sys, xv.head(size), s.q, s.qdot);
    if (opts.power) s.work = xv[size];
    observe(s);
  };
  const S dt0 = opts.dt_out < opts.t_end ? opts.dt_out / S(16) : opts.t_end / S(16);

  std::function<void(OdeState<S>&)> project;
  if (opts.project)
    project = [&](OdeState<S>& xs) {  // x_f projected; the work W kept
      const Vec<S> xp = project_state(sys, f, Vec<S>(to_vec(xs).head(size)));
      std::copy(xp.data(), xp.data() + size, xs.begin());
      ++st.projections;
    };
  ReachWatch<S> reach(sys, f, size);
  Loop<S> loop{rhs, times, observer, project, watch, reach, opts.on_step, st, StepFloor<S>(opts.rtol)};
  run_continuous<S>(stepper, opts, x, dt0, loop);
}

}  // namespace nhs
