// The random regular states every cross-check test walks: for each study
// of the registry, `per_study` states, half at the study's default
// parameters (even k) and half at randomized ones (odd k,
// randomized_parameters), drawn from one generator in one order, so that a
// seed names the same states in every test and precision.
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/verification.hpp"

#include <cstdint>
#include <functional>
#include <random>

namespace nhs {

/// Calls body(study, sys, state, k) for k = 0 .. per_study - 1 at random
/// regular states of every study for which applies(study's system at its
/// default parameters) holds (empty: every study whose metric g is
/// positive definite, i.e. not SystemInfo::semidefinite_metric: the walk's
/// tests hold formulations to the second kind, which inverts g;
/// test_semidefinite_mass walks the massless-part study), drawn by
/// for_each_random_state (nhs/studies/verification.hpp, as `nhs verify`
/// draws them) from one generator seeded with `seed` across the studies;
/// each state is first checked to lie on C (|C| <= 100 eps). Returns the
/// number of studies walked.
template <class S, class Body>
int for_each_random_regular_state(std::uint64_t seed, int per_study, Body&& body,
                                  const std::function<bool(const System<S>&)>& applies = {}) {
  std::mt19937_64 rng(seed);
  int walked = 0;
  for (const Study<S>& st : studies<S>()) {
    const System<S> sys0 = st.build(st.default_parameters());
    if (applies ? !applies(sys0) : sys0.info.semidefinite_metric) continue;
    ++walked;
    for_each_random_state<S>(st, sys0, rng, per_study, [&](int k, const System<S>& sys, const State<S>& x) {
      EXPECT_LE(max_abs<S>(constraint_residuals(sys, x.q, x.qdot)), S(100) * epsilon<S>())
          << st.info.name << " state " << k << " off C";
      body(st, sys, x, k);
    });
  }
  return walked;
}

}  // namespace nhs
