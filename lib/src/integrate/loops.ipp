// The integration loops of the continuous steppers (included by
// integrate.ipp, inside its anonymous namespace): what they share (Loop),
// the controlled steppers' loop and the dense-output steppers' loop.

// What both integration loops share: the right-hand side, the output times,
// the observer, the optional projection onto C, the singular-set watch and
// the per-step callback.
template <class S>
struct Loop {
  Rhs<S>& rhs;
  const OutputTimes<S>& times;
  std::function<void(const OdeState<S>&, const S&)> observe;
  std::function<void(OdeState<S>&)> project;  ///< empty: no projection
  SingularSetWatch<S>& watch;
  ReachWatch<S>& reach;
  const std::function<void(const S&, const IntegrationStats&)>& on_step;
  IntegrationStats& stats;
  StepFloor<S> floor;
  // A singular state met at a trial stage while the watch is active
  // (defer): the set may be one the watch follows (e.g. Voronec's split,
  // whose field refuses only within 100 eps of it), and the watch then
  // names it at its crossing, on the shorter steps that follow. The error
  // is kept and raised as the stage raised it once an accepted step ends
  // beyond the failed trial's span without the watch stopping the run (a
  // set the watch does not follow), at the 20th such trial, or where the
  // steps would fail otherwise (a field that refuses farther from the set
  // than the watch's threshold: the steps shrink towards it).
  std::optional<SingularState> deferred = std::nullopt;
  S deferred_until = S(0);
  int deferred_trials = 0;

  // Whether the caller may retry the trial [t, t + h] that raised e, shorter.
  bool defer(const SingularState& e, const S& t, const S& h) {
    if (!watch.active() || ++deferred_trials > 20) return false;
    if (!deferred) {
      deferred = e;
      deferred_until = t + h;
    }
    return true;
  }

  // The reach watch on a controlled stepper's accepted step [t0, t1] from
  // x0 to x1, along the cubic Hermite interpolant of its ends (their
  // derivatives computed here, once, when the end is beyond the reach; the
  // straight line between them if the field fails there). Its output
  // samples are the ends of steps: those before t0 have been delivered.
  void check_reach(const S& t0, const S& t1, const OdeState<S>& x0, const OdeState<S>& x1) {
    if (!reach.active()) return;
    std::optional<OdeState<S>> f0, f1;
    const auto e = reach.check(t0, t1, x1, [&](const S& ti, Vec<S>& out) {
      if (!f0) {
        f0.emplace();
        f1.emplace();
        try {
          rhs(x0, *f0, t0);
          rhs(x1, *f1, t1);
        } catch (const std::exception&) {
          f0->assign(x0.size(), S(0));
          f1->assign(x0.size(), S(0));
          for (std::size_t i = 0; i < x0.size(); ++i) (*f0)[i] = (*f1)[i] = (x1[i] - x0[i]) / (t1 - t0);
        }
      }
      hermite(t0, t1, x0, *f0, x1, *f1, ti, out);
    });
    if (e) throw InvalidState(e->message);
  }

  // After every accepted step ending at t (the watch has scanned it).
  void stepped(const S& t) {
    if (deferred && t >= deferred_until) throw *deferred;
    ++stats.steps;
    if (on_step) on_step(t, stats);
  }
};

// Controlled steppers (fehlberg78, verner87, the high-order Bulirsch-Stoer): every
// output time is the end of a step, as in Odeint's integrate_times, with
// exact comparisons of times; the step cut for an output time ends on it
// exactly.
template <class S, class Stepper>
void run_controlled(Stepper& stepper, OdeState<S>& x, S dt, Loop<S>& L) {
  odeint::max_step_checker checker(10000000);
  odeint::failed_step_checker fail_checker;
  S t = L.times[0];
  L.observe(x, t);
  OdeState<S> x0, f0, f1, xr;  // xr: the step's start, for the reach watch
  bool have_f0 = false;
  int overflows = 0;  // trial steps in a row whose stages overflowed
  for (std::uint64_t k = 1; k < L.times.size(); ++k) {
    const S tk = L.times[k];
    while (t < tk) {
      using std::max;
      const bool to_output = !(dt < tk - t);
      S dt_step = to_output ? tk - t : dt;
      if (t + dt_step == t) {
        if (L.deferred) throw *L.deferred;
        throw IntegrationFailure("step size underflow at t = " + to_string<S>(t) + " (step " +
                                 to_string<S>(dt_step) + ")");
      }
      const S t0 = t;
      if (L.watch.active()) {
        x0 = x;
        if (!have_f0) L.rhs(x0, f0, t0);
        have_f0 = true;
      }
      // A trial step whose stages overflow (a first step dt_out/16 far too
      // long for the motion) is rejected and retried 10 times shorter; 20
      // such in a row (a factor 1e-20) report the overflow itself.
      odeint::controlled_step_result result;
      if (L.reach.active()) xr = x;
      const S tried = dt_step;  // try_step changes it to the next step's
      try {
        result = stepper.try_step(std::ref(L.rhs), x, t, dt_step);
        L.floor.attempted(t0, tried, L.stats);
        overflows = 0;
      } catch (const NonFiniteValue&) {
        if (++overflows > 20) throw;
        dt = dt_step / S(10);
        continue;
      } catch (const SingularState& e) {
        if (!L.defer(e, t, dt_step)) throw;
        dt = dt_step / S(10);
        continue;
      }
      if (result == odeint::success) {
        if (to_output) t = tk;
        if (L.watch.active()) {
          L.rhs(x, f1, t);
          if (const auto c = L.watch.scan(t0, t, [&](const S& ti, Vec<S>& xi) {
                hermite(t0, t, x0, f0, x, f1, ti, xi);
              }))
            throw SingularState(c->condition, c->message, to_string<S>(c->t));
          std::swap(f0, f1);
        }
        L.check_reach(t0, t, xr, x);
        if (L.project) {
          L.project(x);
          have_f0 = false;
          L.watch.forget();
        }
        L.stepped(t);
        checker();
        fail_checker.reset();
        dt = max(dt, dt_step);  // continue with the step size cut for the output time
      } else {
        fail_checker();
        dt = dt_step;
      }
    }
    L.observe(x, tk);
    checker.reset();
  }
}

// The checks of a dense-output stepper's accepted step `span`: the
// singular-set watch (along the stepper's dense output, or, where that costs
// RHS calls (verner87's extra stages), the cubic Hermite interpolant of the
// step's ends, as for the controlled steppers), the step floor and psi's
// reach. observe_until(t, false) delivers the samples before a stop; xi is
// scratch space.
template <class S, class Stepper, class ObserveUntil>
void check_dense_step(Stepper& stepper, const std::pair<S, S>& span, Loop<S>& L, OdeState<S>& xi,
                      const ObserveUntil& observe_until) {
  if (L.watch.active()) {
    if (const auto c = L.watch.scan(span.first, span.second, [&](const S& ti, Vec<S>& out) {
          if constexpr (requires { stepper.current_derivative(); }) {
            hermite(span.first, span.second, stepper.previous_state(), stepper.previous_derivative(),
                    stepper.current_state(), stepper.current_derivative(), ti, out);
          } else {
            stepper.calc_state(ti, xi);
            out = to_vec(xi);
          }
        })) {
      observe_until(c->t, false);  // the samples before the crossing are kept
      throw SingularState(c->condition, c->message, to_string<S>(c->t));
    }
  }
  L.floor.attempted(span.first, span.second - span.first, L.stats);
  if (const auto e = L.reach.check(span.first, span.second, stepper.current_state(), [&](const S& ti, Vec<S>& out) {
        stepper.calc_state(ti, xi);
        out = to_vec(xi);
      })) {
    observe_until(e->t, false);  // the samples before it are kept
    throw InvalidState(e->message);
  }
}

// Dense-output steppers (dopri5, Odeint's Bulirsch-Stoer): the output times
// are interpolated; the last step is cut to end on t_end, as in Odeint's
// integrate_times, with relative comparisons of times (reached()).
template <class S, class Stepper>
void run_dense(Stepper& stepper, OdeState<S>& x, S dt, Loop<S>& L) {
  odeint::max_step_checker checker(10000000);
  const S last = L.times.back();
  OdeState<S> xs = x, xi = x;  // xs: output samples, xi: states within a step (the watch)
  int overflows = 0;            // steps in a row whose trial stages overflowed
  if (L.project) L.project(x);
  stepper.initialize(x, L.times[0], dt);
  L.observe(x, L.times[0]);  // no step taken yet: nothing to interpolate
  std::uint64_t k = 1;
  const auto observe_until = [&](const S& t_stop, bool inclusive) {
    while (k < L.times.size() &&
           (inclusive ? reached(L.times[k], t_stop) : L.times[k] < t_stop)) {
      stepper.calc_state(L.times[k], xs);
      if (L.project) L.project(xs);
      L.observe(xs, L.times[k]);
      checker.reset();
      ++k;
    }
  };
  while (true) {
    observe_until(stepper.current_time(), true);
    if (k == L.times.size()) break;
    if (L.project && L.stats.steps > 0) {
      // Restart from the projected state: the stored derivative (FSAL for
      // dopri5) and the interpolation data belong to the unprojected one.
      xs = stepper.current_state();
      L.project(xs);
      stepper.initialize(xs, stepper.current_time(), stepper.current_time_step());
      L.watch.forget();
    }
    if (!(stepper.current_time() + stepper.current_time_step() <= last))
      stepper.initialize(stepper.current_state(), stepper.current_time(),
                         last - stepper.current_time());
    // As in run_controlled: a step whose trial stages overflow is retried
    // from the same state 10 times shorter, 20 times at most.
    std::pair<S, S> span;
    try {
      span = stepper.do_step(std::ref(L.rhs));
      overflows = 0;
    } catch (const NonFiniteValue&) {
      if (++overflows > 20) throw;
      stepper.initialize(stepper.current_state(), stepper.current_time(), stepper.current_time_step() / S(10));
      L.watch.forget();
      continue;
    } catch (const SingularState& e) {
      if (!L.defer(e, stepper.current_time(), stepper.current_time_step())) throw;
      stepper.initialize(stepper.current_state(), stepper.current_time(), stepper.current_time_step() / S(10));
      L.watch.forget();
      continue;
    }
    if (!(span.second > span.first)) {
      if (L.deferred) throw *L.deferred;
      throw IntegrationFailure("step size underflow at t = " + to_string<S>(span.first));
    }
    check_dense_step<S>(stepper, span, L, xi, observe_until);
    L.stepped(span.second);
    checker();
  }
  x = stepper.current_state();
  if (L.project) L.project(x);
}
