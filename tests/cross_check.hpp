// Shared by test_cross_formulations.cpp (double, mp50: quick) and
// test_precision_cross.cpp (long double, float128, mp100: label mp): every
// pair of applicable formulations gives the same qddot, to
// Tolerance<S>::cross (relative, max-norm), at random regular states of
// every study (half at default parameters, half randomized), by the
// library's cross_check_state (nhs/verification.hpp). The first applicable
// formulation is the reference of each state; the negative control
// (naive-reduced) is left out (test_naive_reduced.cpp).
#pragma once

#include "random_states.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/verification.hpp"
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
        const CrossCheck<S> check = cross_check_state(sys, x.q, x.qdot);
        for (const FormulationResult<S>& r : check.results)
          EXPECT_TRUE(r.error.empty()) << st.info.name << " " << r.name << " state " << k << ": " << r.error;
        ASSERT_GE(check.compared(), 2u) << st.info.name;
        const FormulationResult<S>& ref = check.results[*check.reference];
        S& w = worst.try_emplace(st.info.name, S(0)).first->second;
        for (const FormulationResult<S>& r : check.results) {
          if (!r.versus_reference) continue;
          using std::max;
          w = max(w, *r.versus_reference);
          EXPECT_LE(*r.versus_reference, Tolerance<S>::cross)
              << st.info.name << " " << ref.name << " vs " << r.name << " state " << k;
        }
      });
  for (const Study<S>& st : studies<S>())
    std::cout << "[ cross    ] " << ScalarName<S>::value << " " << st.info.name
              << ": max disagreement " << static_cast<double>(worst[st.info.name]) << " = "
              << static_cast<double>(worst[st.info.name] / epsilon<S>()) << " eps\n";
}

}  // namespace nhs
