// The verification of a study (nhs/studies/verification.hpp), instantiated
// for every scalar.
#include "nhs/studies/verification.hpp"

#include "nhs/studies/motion_run.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/work_energy.hpp"

#include <boost/multiprecision/number.hpp>

#include <cmath>
#include <exception>
#include <optional>

namespace nhs {

template <class S>
void for_each_random_state(const Study<S>& st, const System<S>& default_system, std::mt19937_64& rng,
                           int count,
                           const std::function<void(int, const System<S>&, const State<S>&)>& body,
                           const std::function<void(int, const InvalidState&)>& on_invalid) {
  if (!st.random_state) throw UsageError("study '" + st.info.name + "' has no random regular states");
  for (int k = 0; k < count; ++k) {
    std::optional<System<S>> randomized;
    if (k % 2) randomized = st.build(randomized_parameters(st, rng));
    const System<S>& sys = randomized ? *randomized : default_system;
    State<S> x;
    try {
      x = st.random_state(sys, rng);
    } catch (const InvalidState& e) {
      if (!on_invalid) throw;
      on_invalid(k, e);
      continue;
    }
    body(k, sys, x);
  }
}

template <class S>
RandomStatesCheck<S> cross_check_random_states(const Study<S>& st, const System<S>& default_system,
                                               std::mt19937_64& rng, int count,
                                               const std::vector<const Formulation<S>*>& formulations,
                                               bool skip_singular) {
  RandomStatesCheck<S> out;
  out.formulations = formulations;
  out.figures.resize(formulations.size());
  out.states = count;
  using std::max;
  const auto raise = [](std::optional<S>& slot, const S& v) { slot = slot ? max(*slot, v) : v; };
  for_each_random_state<S>(
      st, default_system, rng, count,
      [&](int k, const System<S>& sys, const State<S>& x) {
        CrossCheck<S> check = cross_check_state(sys, x.q, x.qdot, formulations, {.include_negative_controls = true});
        if (skip_singular && check.singular()) {
          ++out.skipped;
          return;
        }
        for (std::size_t i = 0; i < formulations.size(); ++i)
          if (!check.results[i].error.empty()) out.errors.push_back({k, i, check.results[i].error});
        for (std::size_t i = 0; i < formulations.size(); ++i) {
          const FormulationResult<S>& r = check.results[i];
          RandomStateFigures<S>& fig = out.figures[i];
          if (!r.disagreement) continue;
          if (!fig.qddot || !(*r.disagreement <= *fig.qddot)) {  // where it is worst: with whom, where
            fig.worst_with = r.worst_with;
            fig.worst_state = k;
            fig.worst_at = x;
          }
          raise(fig.qddot, *r.disagreement);
        }
        compare_reactions(sys, x.q, x.qdot, check);
        for (std::size_t i = 0; i < formulations.size(); ++i)
          if (check.results[i].reaction_disagreement)
            raise(out.figures[i].reaction, *check.results[i].reaction_disagreement);
      },
      skip_singular ? std::function<void(int, const InvalidState&)>([&](int, const InvalidState&) { ++out.skipped; })
                    : std::function<void(int, const InvalidState&)>());
  return out;
}

template <class S>
MotionReference<S> motion_reference(const Study<S>& st, const System<S>& sys,
                                    std::function<State<S>(const S&)> exact,
                                    MultipliersAt<S> multipliers) {
  MotionReference<S> ref;
  if (st.invariants) ref.invariants = st.invariants(sys);
  ref.energy_conserved = st.energy_is_conserved(sys);
  ref.exact = std::move(exact);
  if (!ref.energy_conserved)
    ref.power = [&sys, multipliers](const Vec<S>& q, const Vec<S>& qd) {
      return power_of_forces_and_reactions(sys, q, qd, multipliers);
    };
  return ref;
}

template <class S>
MotionFigures<S>::MotionFigures(const System<S>& sys, MotionReference<S> reference)
    : sys_(sys), ref_(std::move(reference)), invariant0_(ref_.invariants.size()) {
  m_.energy_declared = ref_.energy_conserved;
  m_.exact = bool(ref_.exact);
  for (const Invariant<S>& inv : ref_.invariants) m_.invariants.push_back({inv.name, inv.conserved});
}

template <class S>
void MotionFigures<S>::fold(const Sample<S>& s) {
  using std::abs;
  using std::max;
  using boost::multiprecision::isfinite;
  using std::isfinite;
  const S T = sys_.kinetic_energy(s.q, s.qdot);
  const S V = sys_.potential(s.q);
  const S E = T + V;
  const Vec<S> C = constraint_residuals(sys_, s.q, s.qdot);
  const std::vector<Margin<S>> margins = regularity_margins(sys_, s.q, s.qdot);
  const auto require_finite = [&](const std::string& what, const S& v) {
    if (!isfinite(v))
      throw NonFiniteValue("non-finite value: " + what + " = " + to_string<S>(v) + " at t = " + to_string<S>(s.t) +
                           " " + state_context(s.q, s.qdot));
  };
  require_finite("energy", E);
  for (Eigen::Index a = 0; a < C.size(); ++a) {
    const auto k = static_cast<std::size_t>(a);
    const std::string& name = k < sys_.info.constraint_names.size() ? sys_.info.constraint_names[k] : "";
    require_finite("constraint " + (name.empty() ? "C" + std::to_string(a + 1) : name), C[a]);
  }
  for (const Margin<S>& mg : margins) require_finite(mg.name, mg.value);
  if (s.work) require_finite("work W", *s.work);
  MotionCheck<S>& m = m_;
  if (m.samples == 0) m.E0 = E;
  ++m.samples;
  m.t_last = s.t;
  m.last_energy_error = abs(E - m.E0);
  m.energy_drift = max(m.energy_drift, m.last_energy_error);
  m.energy_scale = max(m.energy_scale, abs(T) + abs(V));
  m.last_C = C.size() ? S(C.cwiseAbs().maxCoeff()) : S(0);
  m.max_C = max(m.max_C, m.last_C);
  m.max_qdot2 = max(m.max_qdot2, S(s.qdot.squaredNorm()));
  for (std::size_t k = 0; k < ref_.invariants.size(); ++k) {
    const S v = ref_.invariants[k].value(s.q, s.qdot);
    InvariantDrift<S>& d = m.invariants[k];
    if (!isfinite(v)) {
      ++d.undefined;
      d.last_change.reset();
      continue;
    }
    if (!invariant0_[k]) invariant0_[k] = v;
    d.last_change = abs(v - *invariant0_[k]);
    d.drift = max(d.drift, *d.last_change);
    d.scale = max(d.scale, abs(v));
  }
  if (ref_.exact) {
    const State<S> x = ref_.exact(s.t);
    const S err = max(S((s.q - x.q).cwiseAbs().maxCoeff()), S((s.qdot - x.qdot).cwiseAbs().maxCoeff()));
    m.exact_scale = max(m.exact_scale, max(S(x.q.cwiseAbs().maxCoeff()), S(x.qdot.cwiseAbs().maxCoeff())));
    m.max_error = max(m.max_error, err);
  }
  if (sys_.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(sys_.n);
    sys_.nonconservative_force(s.q, s.qdot, F);
    m.nonconservative_power = max(m.nonconservative_power, abs(S(F.dot(s.qdot))));
  }
  if (sys_.nonideal_constraint_force) {  // a non-ideal constraint's power C . qdot
    const Vec<S> C = nonideal_constraint_force(sys_, s.q, s.qdot);
    m.nonconservative_power = max(m.nonconservative_power, abs(S(C.dot(s.qdot))));
  }
  if (s.work) {
    ++m.work_samples;
    m.balance_drift = max(m.balance_drift, S(abs(E - m.E0 - *s.work)));
    m.work_scale = max(m.work_scale, abs(*s.work));
  }
  for (const Margin<S>& mg : margins)
    if (m.min_margin_name.empty() || !(mg.value >= m.min_margin)) {
      m.min_margin = mg.value;
      m.min_margin_name = mg.name;
    }
}

template <class S>
MotionCheck<S> check_motion(const System<S>& sys, const Formulation<S>& f, const State<S>& x0,
                            const IntegrationOptions<S>& options, const MotionReference<S>& reference,
                            const std::function<void(const Sample<S>&)>& record) {
  MotionObservers<S> observers;
  observers.record = record;
  MotionRun<S> run = run_motion<S>(sys, f, x0, options, reference, observers);
  if (run.error && run.figures.failure.empty()) std::rethrow_exception(run.error);  // not a std::exception
  MotionCheck<S>& m = run.figures;
  if (m.samples == 0 && m.failure.empty()) m.failure = "no sample recorded";
  return std::move(m);
}

#define NHS_STUDY_VERIFICATION_INSTANTIATE_(S, NAME)                                                          \
  template class MotionFigures<S>;                                                                          \
  template void for_each_random_state<S>(const Study<S>&, const System<S>&, std::mt19937_64&, int,           \
                                         const std::function<void(int, const System<S>&, const State<S>&)>&, \
                                         const std::function<void(int, const InvalidState&)>&);              \
  template RandomStatesCheck<S> cross_check_random_states<S>(const Study<S>&, const System<S>&,              \
                                                             std::mt19937_64&, int,                          \
                                                             const std::vector<const Formulation<S>*>&,      \
                                                             bool);                                          \
  template MotionReference<S> motion_reference<S>(const Study<S>&, const System<S>&,                         \
                                                  std::function<State<S>(const S&)>,                         \
                                                  MultipliersAt<S>);                                         \
  template MotionCheck<S> check_motion<S>(const System<S>&, const Formulation<S>&, const State<S>&,          \
                                          const IntegrationOptions<S>&, const MotionReference<S>&,           \
                                          const std::function<void(const Sample<S>&)>&);
NHS_FOR_EACH_SCALAR(NHS_STUDY_VERIFICATION_INSTANTIATE_)
#undef NHS_STUDY_VERIFICATION_INSTANTIATE_

}  // namespace nhs
