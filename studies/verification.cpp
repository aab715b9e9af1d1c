// The verification of a study (nhs/studies/verification.hpp), instantiated
// for every scalar.
#include "nhs/studies/verification.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"

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
                                    std::function<State<S>(const S&)> exact) {
  MotionReference<S> ref;
  if (st.invariants) ref.invariants = st.invariants(sys);
  ref.energy_conserved = st.energy_is_conserved(sys);
  ref.exact = std::move(exact);
  return ref;
}

namespace {

/// Folds one sample into m (the figures of MotionCheck).
template <class S>
void fold_sample(const System<S>& sys, const MotionReference<S>& ref, const Sample<S>& s,
                 std::vector<std::optional<S>>& invariant0, MotionCheck<S>& m, S& E0) {
  using std::abs;
  using std::max;
  using boost::multiprecision::isfinite;
  using std::isfinite;
  const S T = sys.kinetic_energy(s.q, s.qdot);
  const S V = sys.potential(s.q);
  const S E = T + V;
  const Vec<S> C = constraint_residuals(sys, s.q, s.qdot);
  const auto require_finite = [&](const std::string& what, const S& v) {
    if (!isfinite(v))
      throw NonFiniteValue("non-finite value: " + what + " = " + to_string<S>(v) + " at t = " + to_string<S>(s.t) +
                           " " + state_context(s.q, s.qdot));
  };
  require_finite("energy", E);
  for (Eigen::Index a = 0; a < C.size(); ++a) require_finite("constraint C" + std::to_string(a + 1), C[a]);
  if (m.samples == 0) E0 = E;
  ++m.samples;
  m.t_last = s.t;
  m.energy_drift = max(m.energy_drift, abs(E - E0));
  m.energy_scale = max(m.energy_scale, abs(T) + abs(V));
  if (C.size()) m.max_C = max(m.max_C, S(C.cwiseAbs().maxCoeff()));
  m.max_qdot2 = max(m.max_qdot2, S(s.qdot.squaredNorm()));
  for (std::size_t k = 0; k < ref.invariants.size(); ++k) {
    const S v = ref.invariants[k].value(s.q, s.qdot);
    InvariantDrift<S>& d = m.invariants[k];
    if (!isfinite(v)) {
      ++d.undefined;
      continue;
    }
    if (!invariant0[k]) invariant0[k] = v;  // its first finite value
    d.drift = max(d.drift, abs(v - *invariant0[k]));
    d.scale = max(d.scale, abs(v));
  }
  if (ref.exact) {
    const State<S> x = ref.exact(s.t);
    const S err = max(S((s.q - x.q).cwiseAbs().maxCoeff()), S((s.qdot - x.qdot).cwiseAbs().maxCoeff()));
    m.exact_scale = max(m.exact_scale, max(S(x.q.cwiseAbs().maxCoeff()), S(x.qdot.cwiseAbs().maxCoeff())));
    m.max_error = max(m.max_error, err);
  }
  if (sys.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(sys.n);
    sys.nonconservative_force(s.q, s.qdot, F);
    m.nonconservative_power = max(m.nonconservative_power, abs(S(F.dot(s.qdot))));
  }
}

}  // namespace

template <class S>
MotionCheck<S> check_motion(const System<S>& sys, const Formulation<S>& f, const State<S>& x0,
                            const IntegrationOptions<S>& options, const MotionReference<S>& reference,
                            const std::function<void(const Sample<S>&)>& record) {
  MotionCheck<S> m;
  m.energy_declared = reference.energy_conserved;
  m.exact = bool(reference.exact);
  for (const Invariant<S>& inv : reference.invariants) m.invariants.push_back({inv.name, inv.conserved});
  std::vector<std::optional<S>> invariant0(reference.invariants.size());
  S E0(0);
  try {
    integrate<S>(
        sys, f, x0.q, x0.qdot, options,
        [&](const Sample<S>& s) {
          if (record) record(s);
          fold_sample(sys, reference, s, invariant0, m, E0);
        },
        &m.stats);
  } catch (const std::exception& e) {
    m.failure = "integration failed after " + std::to_string(m.samples) + " samples: " + e.what();
  }
  if (m.samples == 0 && m.failure.empty()) m.failure = "no sample recorded";
  return m;
}

#define NHS_STUDY_VERIFICATION_INSTANTIATE_(S, NAME)                                                          \
  template void for_each_random_state<S>(const Study<S>&, const System<S>&, std::mt19937_64&, int,           \
                                         const std::function<void(int, const System<S>&, const State<S>&)>&, \
                                         const std::function<void(int, const InvalidState&)>&);              \
  template RandomStatesCheck<S> cross_check_random_states<S>(const Study<S>&, const System<S>&,              \
                                                             std::mt19937_64&, int,                          \
                                                             const std::vector<const Formulation<S>*>&,      \
                                                             bool);                                          \
  template MotionReference<S> motion_reference<S>(const Study<S>&, const System<S>&,                         \
                                                  std::function<State<S>(const S&)>);                        \
  template MotionCheck<S> check_motion<S>(const System<S>&, const Formulation<S>&, const State<S>&,          \
                                          const IntegrationOptions<S>&, const MotionReference<S>&,           \
                                          const std::function<void(const Sample<S>&)>&);
NHS_FOR_EACH_SCALAR(NHS_STUDY_VERIFICATION_INSTANTIATE_)
#undef NHS_STUDY_VERIFICATION_INSTANTIATE_

}  // namespace nhs
