#include "nhs/format.hpp"
#include "nhs/integrate.hpp"

#include "detail/bulirsch_stoer_kmax.hpp"
#include "detail/fehlberg78_step_doubling.hpp"

#include <boost/numeric/odeint.hpp>

#include <functional>

namespace nhs {
namespace {

namespace odeint = boost::numeric::odeint;

template <class S>
using OdeState = std::vector<S>;

// "bulirsch-stoer" is Odeint's dense-output Gragg-Bulirsch-Stoer (8
// extrapolation columns) up to this many digits (float128), and above it
// (mp50, mp100) the controlled one with kHighOrderColumns columns
// (detail/bulirsch_stoer_kmax.hpp; README "Precisions"). 8 columns cap the
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
    odeint::bulirsch_stoer_kmax<OdeState<S>, S, OdeState<S>, S,
                                typename odeint::algebra_dispatcher<OdeState<S>>::algebra_type,
                                typename odeint::operations_dispatcher<OdeState<S>>::operations_type,
                                odeint::initially_resizer, kHighOrderColumns<S>>;

template <class S>
Vec<S> to_vec(const OdeState<S>& x) {
  return Eigen::Map<const Vec<S>>(x.data(), static_cast<Eigen::Index>(x.size()));
}

// Odeint's system concept f(x, dxdt, t); passed with std::ref (Odeint copies).
template <class S>
struct Rhs {
  const System<S>& sys;
  const Formulation<S>& f;
  IntegrationStats& stats;
  std::uint64_t max_calls;
  S singular_margin;

  void operator()(const OdeState<S>& x, OdeState<S>& dx, const S& t) {
    if (++stats.rhs_calls > max_calls)
      throw IntegrationFailure("more than " + std::to_string(max_calls) +
                               " vector-field evaluations before t = " + to_string<S>(t));
    Vec<S> d;
    try {
      if (singular_margin > 0) {
        Vec<S> q, qd;
        f.from_state(sys, to_vec(x), q, qd);
        require_margins(sys, q, qd, singular_margin);
      }
      d = f.field(sys, to_vec(x));
    } catch (const SingularState& e) {
      throw SingularState(e.condition, std::string(e.what()) + " (reached at t = " +
                                           to_string<S>(t) + ")");
    }
    if (!d.allFinite())
      throw IntegrationFailure("non-finite vector field at t = " + to_string<S>(t) +
                               ", x = " + to_string(to_vec(x)));
    dx.assign(d.data(), d.data() + d.size());
  }
};

// The integration loops with a projection onto C after every accepted step
// (IntegrationOptions::project). They mirror Odeint's integrate_times
// (integrate/detail/integrate_times.hpp): the controlled stepper hits the
// output times exactly; the dense-output stepper interpolates them and never
// steps beyond the last one.
template <class S, class Stepper, class System, class Observer>
std::uint64_t integrate_times_projected(Stepper& stepper, odeint::controlled_stepper_tag,
                                        System rhs, OdeState<S>& x,
                                        const std::vector<S>& times, S dt, Observer observer,
                                        const std::function<void(OdeState<S>&)>& project) {
  using odeint::detail::less_with_sign;
  odeint::max_step_checker checker(10000000);
  odeint::failed_step_checker fail_checker;
  std::uint64_t steps = 0;
  S t = times.front();
  for (std::size_t k = 0; k < times.size(); ++k) {
    while (less_with_sign(t, times[k], dt)) {
      using std::max;
      using std::min;
      S dt_step = min(dt, times[k] - t);  // end exactly at the output time
      if (stepper.try_step(rhs, x, t, dt_step) == odeint::success) {
        ++steps;
        project(x);  // a controlled stepper keeps no state between steps
        checker();
        fail_checker.reset();
        dt = max(dt, dt_step);  // continue with the step size cut for the output time
      } else {
        fail_checker();
        dt = dt_step;
      }
    }
    observer(x, times[k]);
    checker.reset();
  }
  return steps;
}

template <class S, class Stepper, class System, class Observer>
std::uint64_t integrate_times_projected(Stepper& stepper, odeint::dense_output_stepper_tag,
                                        System rhs, OdeState<S>& x,
                                        const std::vector<S>& times, S dt, Observer observer,
                                        const std::function<void(OdeState<S>&)>& project) {
  using odeint::detail::less_eq_with_sign;
  odeint::max_step_checker checker(10000000);
  std::uint64_t steps = 0;
  const S last = times.back();
  OdeState<S> xs = x;
  project(x);
  stepper.initialize(x, times.front(), dt);
  observer(x, times.front());  // no step taken yet: nothing to interpolate
  std::size_t k = 1;
  while (true) {
    // Output times covered by the last step: interpolated by its dense
    // output (before the state is changed), then projected.
    while (k < times.size() &&
           less_eq_with_sign(times[k], stepper.current_time(), stepper.current_time_step())) {
      stepper.calc_state(times[k], xs);
      project(xs);
      observer(xs, times[k]);
      checker.reset();
      ++k;
    }
    if (k == times.size()) break;
    if (steps > 0) {
      // Restart from the projected state: the stored derivative (FSAL for
      // dopri5) and the interpolation data belong to the unprojected one.
      xs = stepper.current_state();
      project(xs);
      stepper.initialize(xs, stepper.current_time(), stepper.current_time_step());
    }
    if (!less_eq_with_sign(stepper.current_time() + stepper.current_time_step(), last,
                           stepper.current_time_step()))
      stepper.initialize(stepper.current_state(), stepper.current_time(),
                         last - stepper.current_time());
    stepper.do_step(rhs);
    ++steps;
    checker();
  }
  x = stepper.current_state();
  project(x);
  return steps;
}

}  // namespace

template <class S>
Vec<S> project_state(const System<S>& sys, const Formulation<S>& f, const Vec<S>& x) {
  Vec<S> q, qd;
  f.from_state(sys, x, q, qd);
  return f.to_state(sys, q, project_velocity(sys, q, qd));
}

template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats) {
  IntegrationStats local;
  IntegrationStats& st = stats ? *stats : local;
  f.require_applicable(sys);
  if (!(opts.t_end > 0) || !(opts.dt_out > 0) || !(opts.rtol > 0) || !(opts.atol >= 0))
    throw UsageError("t-end, dt-out and rtol must be positive and atol non-negative");

  std::string stepper = opts.stepper;
  if (stepper == "auto") stepper = default_stepper<S>();
  st.stepper = stepper;

  // Output times 0, dt, 2 dt, ... and t_end itself.
  std::vector<S> times;
  for (std::uint64_t k = 0;; ++k) {
    const S t = S(k) * opts.dt_out;
    if (t >= opts.t_end * (S(1) - S(16) * epsilon<S>())) break;
    times.push_back(t);
  }
  times.push_back(opts.t_end);

  const Vec<S> x0 = f.to_state(sys, q0, qd0);
  OdeState<S> x(x0.data(), x0.data() + x0.size());
  Rhs<S> rhs{sys, f, st, opts.max_rhs_calls, opts.singular_margin};
  auto observer = [&](const OdeState<S>& xs, const S& t) {
    const Vec<S> xv = to_vec(xs);
    if (!xv.allFinite())
      throw IntegrationFailure("non-finite state at t = " + to_string<S>(t));
    Sample<S> s{t, {}, {}};
    f.from_state(sys, xv, s.q, s.qdot);
    observe(s);
  };
  const S dt0 = opts.dt_out < opts.t_end ? opts.dt_out / S(16) : opts.t_end / S(16);
  const odeint::max_step_checker checker(10000000);

  std::function<void(OdeState<S>&)> project = [&](OdeState<S>& xs) {
    const Vec<S> xp = project_state(sys, f, to_vec(xs));
    xs.assign(xp.data(), xp.data() + xp.size());
    ++st.projections;
  };

  try {
    if (opts.project) {
      if (stepper == "dopri5") {
        auto s = odeint::make_dense_output(
            opts.atol, opts.rtol, odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
        st.steps = integrate_times_projected<S>(s, odeint::dense_output_stepper_tag(),
                                                std::ref(rhs), x, times, dt0, observer, project);
      } else if (stepper == "fehlberg78") {
        detail::Fehlberg78StepDoubling<OdeState<S>, S> s(opts.atol, opts.rtol);
        st.steps = integrate_times_projected<S>(s, odeint::controlled_stepper_tag(),
                                                std::ref(rhs), x, times, dt0, observer, project);
      } else if (stepper == "bulirsch-stoer") {
        if constexpr (decimal_digits<S>() > kDenseBulirschStoerDigits) {
          HighOrderBulirschStoer<S> s(opts.atol, opts.rtol);  // controlled: no state kept
          st.steps = integrate_times_projected<S>(s, odeint::controlled_stepper_tag(),
                                                  std::ref(rhs), x, times, dt0, observer, project);
        } else {
          odeint::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> s(opts.atol, opts.rtol);
          st.steps = integrate_times_projected<S>(s, odeint::dense_output_stepper_tag(),
                                                  std::ref(rhs), x, times, dt0, observer, project);
        }
      } else {
        std::string known;
        for (const auto& n : stepper_names()) known += " " + n;
        throw UsageError("unknown stepper '" + stepper + "' (known: auto" + known + ")");
      }
    } else if (stepper == "dopri5") {
      auto s = odeint::make_dense_output(opts.atol, opts.rtol,
                                         odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
      st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                         observer, checker);
    } else if (stepper == "fehlberg78") {
      // Fehlberg 7(8) under step-doubling error control
      // (detail/fehlberg78_step_doubling.hpp: Fehlberg's own estimate
      // vanishes on uniform motions).
      detail::Fehlberg78StepDoubling<OdeState<S>, S> s(opts.atol, opts.rtol);
      st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                         observer, checker);
    } else if (stepper == "bulirsch-stoer") {
      if constexpr (decimal_digits<S>() > kDenseBulirschStoerDigits) {
        // Beyond 33 digits: 16 (mp50) or 20 (mp100) extrapolation columns,
        // steps ending on the output times (detail/bulirsch_stoer_kmax.hpp).
        HighOrderBulirschStoer<S> s(opts.atol, opts.rtol);
        st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                           observer, checker);
      } else {
        odeint::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> s(opts.atol, opts.rtol);
        st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                           observer, checker);
      }
    } else {
      std::string known;
      for (const auto& n : stepper_names()) known += " " + n;
      throw UsageError("unknown stepper '" + stepper + "' (known: auto" + known + ")");
    }
  } catch (const odeint::odeint_error& e) {
    throw IntegrationFailure(std::string("integration failed: ") + e.what());
  }
}

}  // namespace nhs
