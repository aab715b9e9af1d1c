#include "nhs/format.hpp"
#include "nhs/integrate.hpp"

#include <boost/numeric/odeint.hpp>

#include <functional>

namespace nhs {
namespace {

namespace odeint = boost::numeric::odeint;

template <class S>
using OdeState = std::vector<S>;

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

}  // namespace

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
  if (stepper == "auto") stepper = std::is_same_v<S, double> ? "dopri5" : "bulirsch-stoer";
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

  try {
    if (stepper == "dopri5") {
      auto s = odeint::make_dense_output(opts.atol, opts.rtol,
                                         odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
      st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                         observer, checker);
    } else if (stepper == "fehlberg78") {
      auto s = odeint::make_controlled(
          opts.atol, opts.rtol, odeint::runge_kutta_fehlberg78<OdeState<S>, S, OdeState<S>, S>());
      st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                         observer, checker);
    } else if (stepper == "bulirsch-stoer") {
      odeint::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> s(opts.atol, opts.rtol);
      st.steps = odeint::integrate_times(s, std::ref(rhs), x, times.begin(), times.end(), dt0,
                                         observer, checker);
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
