// Runge-Kutta-Fehlberg 7(8) under step-doubling error control: the
// controlled stepper behind nhs's "fehlberg78".
//
// Why not Fehlberg's embedded estimate: it is err = 41/840 (k1 + k11 - k12
// - k13) h (stages at c = 0, 1, 0, 1). When the field does not depend on
// the state along the step (a quadrature y' = f(t)) k1 = k12 and k11 = k13,
// and the estimate vanishes whatever h (Hairer, Norsett, Wanner, Solving
// ODE I, II.10). Uniform motions come close to that: on the rolling disc's
// circle the state's only driver is theta(t), which the stages integrate
// exactly, and Odeint's controlled Fehlberg 7(8) crossed t in [0, 20] in 3
// steps, 39 RHS calls, at every tolerance (double, rtol 1e-12: max|C|
// 1.6e-2, energy drift 4.8e-3, error 0.64; mp50 the same from 1e-15 to
// 1e-45), and the run was reported as a success.
//
// Step doubling: each step of size h is also taken as two steps of h / 2
// with the same 8th-order formula (the solution Odeint propagates); their
// difference / (2^8 - 1) is Richardson's estimate of the local error of the
// two half steps (local error ~ C h^9), which are the result. It estimates
// the error of the propagated solution itself, with no blind spot for
// quadratures. The error is scaled as Odeint's default_error_checker does
// (atol + rtol |x_i|, max over i; accepted when <= 1), and the step-size
// rules are Odeint's default_step_adjuster's, with the estimate's order 9
// (Fehlberg's own: 7 and 8). Cost: 1 + 12 + 12 + 12 = 37 RHS calls per step
// instead of 13. Measured (nhs run, t_end = dt_out = 20, double, rtol
// 1e-12): rolling disc, 608 calls, max|C| 2.2e-13 (was 39 calls, 1.6e-2);
// skate, 1254 calls, energy drift 1.8e-11 (was 741 calls, 2.2e-11); taking
// the larger of this and Fehlberg's estimate cost 2280 calls on the skate
// (drift 1.7e-13: the embedded estimate is of the 7th-order solution and
// overestimates). mp50, rtol 1e-40: skate 1.38M calls (was 1.81M).
//
// Private to lib/src (used by integrate.ipp only).
#pragma once

#include <boost/numeric/odeint/stepper/controlled_step_result.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <boost/numeric/odeint/util/unwrap_reference.hpp>

#include <algorithm>
#include <cstddef>

namespace nhs {
namespace detail {

/// Controlled Fehlberg 7(8) with a step-doubling error estimate (see the
/// file comment).
/// State: a std::vector-like container of Value; Odeint's controlled
/// stepper concept (try_step(system, x, t, dt)).
template <class State, class Value>
class Fehlberg78StepDoubling {
 public:
  typedef State state_type;
  typedef Value value_type;
  typedef State deriv_type;
  typedef Value time_type;
  typedef boost::numeric::odeint::controlled_stepper_tag stepper_category;

  Fehlberg78StepDoubling(const value_type& atol, const value_type& rtol) : m_atol(atol), m_rtol(rtol) {}

  template <class System>
  boost::numeric::odeint::controlled_step_result try_step(System system, state_type& x,
                                                          time_type& t, time_type& dt) {
    using boost::numeric::odeint::fail;
    using boost::numeric::odeint::success;
    using std::abs;
    using std::max;
    using std::pow;
    typename boost::numeric::odeint::unwrap_reference<System>::type& sys = system;
    resize(x);
    sys(x, m_dxdt, t);
    m_rk.do_step(system, x, m_dxdt, t, m_full, dt);  // one step of h
    const time_type h2 = dt / static_cast<value_type>(2);
    m_rk.do_step(system, x, m_dxdt, t, m_half, h2);
    m_rk.do_step(system, m_half, t + h2, m_two, h2);  // two steps of h / 2

    const value_type richardson = static_cast<value_type>(255);  // 2^8 - 1
    value_type err = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const value_type scale = m_atol + m_rtol * abs(x[i]);
      err = max(err, abs(m_two[i] - m_full[i]) / richardson / scale);
    }
    if (!(err <= static_cast<value_type>(1))) {  // also refuses a NaN error
      // Odeint's decrease, dt *= max(0.9 err^(-1/(p - 1)), 0.2), with the
      // estimate's order p = 9.
      const value_type factor = err == err ? value_type(pow(err, static_cast<value_type>(-1) /
                                                                     static_cast<value_type>(8)))
                                           : value_type(0);
      dt *= max(static_cast<value_type>(9) / static_cast<value_type>(10) * factor,
                static_cast<value_type>(1) / static_cast<value_type>(5));
      return fail;
    }
    x = m_two;
    t += dt;
    if (err < static_cast<value_type>(1) / static_cast<value_type>(2)) {
      // Odeint's increase, dt *= 0.9 err^(-1/p) with err >= 5^-p (at most
      // x5), p = 9.
      err = max(err, value_type(pow(static_cast<value_type>(5), static_cast<value_type>(-9))));
      dt *= static_cast<value_type>(9) / static_cast<value_type>(10) *
            pow(err, static_cast<value_type>(-1) / static_cast<value_type>(9));
    }
    return success;
  }

 private:
  void resize(const state_type& x) {
    m_dxdt.resize(x.size());
    m_full.resize(x.size());
    m_half.resize(x.size());
    m_two.resize(x.size());
  }

  value_type m_atol, m_rtol;
  boost::numeric::odeint::runge_kutta_fehlberg78<State, Value, State, Value> m_rk;
  state_type m_dxdt, m_full, m_half, m_two;
};

}  // namespace detail
}  // namespace nhs
