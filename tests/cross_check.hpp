// Shared by test_cross_formulations.cpp (double, mp50: quick) and
// test_precision_cross.cpp (long double, float128, mp100: label mp): every
// pair of applicable formulations gives the same qddot, to
// Tolerance<S>::cross (relative, max-norm), at random regular states of
// every study (half at default parameters, half randomized). The first
// applicable formulation is the reference of each state; the negative
// control (naive-reduced) is left out (test_naive_reduced.cpp).
#pragma once

#include "random_states.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

#include <iostream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// Checks `states` random regular states per study; prints the largest
/// disagreement per study (and its ratio to epsilon<S>()).
template <class S>
void check_cross_formulations(int states) {
  std::map<std::string, S> worst;  // by study
  for_each_random_regular_state<S>(
      20261122, states, [&](const Study<S>& st, const System<S>& sys, const State<S>& x, int k) {
        std::vector<std::pair<std::string, Vec<S>>> results;
        for (const auto& f : formulations<S>()) {
          if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
          results.emplace_back(f->name(), f->acceleration(sys, x.q, x.qdot).qddot);
        }
        ASSERT_GE(results.size(), 2u) << st.info.name;
        S& w = worst.try_emplace(st.info.name, S(0)).first->second;
        for (std::size_t i = 1; i < results.size(); ++i) {
          const S d = relative_difference<S>(results[0].second, results[i].second);
          using std::max;
          w = max(w, d);
          EXPECT_LE(d, Tolerance<S>::cross) << st.info.name << " " << results[0].first << " vs "
                                            << results[i].first << " state " << k;
        }
      });
  for (const Study<S>& st : studies<S>())
    std::cout << "[ cross    ] " << ScalarName<S>::value << " " << st.info.name
              << ": max disagreement " << static_cast<double>(worst[st.info.name]) << " = "
              << static_cast<double>(worst[st.info.name] / epsilon<S>()) << " eps\n";
}

}  // namespace nhs
