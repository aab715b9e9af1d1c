// Shared by test_cross_formulations.cpp (double, mp50: quick) and
// test_precision_cross.cpp (long double, float128, mp100: label mp): every
// pair of applicable formulations gives the same qddot, to
// Tolerance<S>::cross (relative, max-norm), at random regular states of
// every study (half at default parameters, half randomized). The first
// applicable formulation is the reference of each state; the negative
// control (naive-reduced) is left out (test_naive_reduced.cpp).
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// Checks `states` random regular states per study; prints the largest
/// disagreement per study (and its ratio to epsilon<S>()).
template <class S>
void check_cross_formulations(int states) {
  std::mt19937_64 rng(20261122);
  for (const Study<S>& st : studies<S>()) {
    S worst(0);
    for (int k = 0; k < states; ++k) {
      const System<S> sys = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
      const State<S> x = st.random_state(sys, rng);
      ASSERT_LE(constraint_residuals(sys, x.q, x.qdot).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>())
          << st.info.name;
      std::vector<std::pair<std::string, Vec<S>>> results;
      for (const auto& f : formulations<S>()) {
        if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
        results.emplace_back(f->name(), f->acceleration(sys, x.q, x.qdot).qddot);
      }
      ASSERT_GE(results.size(), 2u) << st.info.name;
      for (std::size_t i = 1; i < results.size(); ++i) {
        const S d = relative_difference<S>(results[0].second, results[i].second);
        using std::max;
        worst = max(worst, d);
        EXPECT_LE(d, Tolerance<S>::cross) << st.info.name << " " << results[0].first << " vs "
                                          << results[i].first << " state " << k;
      }
    }
    std::cout << "[ cross    ] " << ScalarName<S>::value << " " << st.info.name
              << ": max disagreement " << static_cast<double>(worst) << " = "
              << static_cast<double>(worst / epsilon<S>()) << " eps\n";
  }
}

}  // namespace nhs
