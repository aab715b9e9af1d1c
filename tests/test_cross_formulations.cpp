// Compares every pair of formulations: the same qddot at >= 50 random
// regular states of every study, in every precision (Pinocchio/MuJoCo
// pattern: one algorithm against another, no stored numbers).
// ctest-labels: unit cross
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

template <class S>
class CrossFormulations : public ::testing::Test {};
TYPED_TEST_SUITE(CrossFormulations, TestScalars, ScalarNames);

TYPED_TEST(CrossFormulations, AllPairsAgreeAtRandomRegularStates) {
  using S = TypeParam;
  std::mt19937_64 rng(20261122);
  for (const Study<S>& st : studies<S>()) {
    for (int k = 0; k < 60; ++k) {
      const System<S> sys = st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
      const State<S> x = st.random_state(sys, rng);
      ASSERT_LE(constraint_residuals(sys, x.q, x.qdot).cwiseAbs().maxCoeff(),
                S(100) * epsilon<S>())
          << st.info.name;
      std::vector<std::pair<std::string, Vec<S>>> results;
      for (const auto& f : formulations<S>()) {
        // A negative control (naive-reduced) is expected to disagree: test_naive_reduced.cpp.
        if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
        results.emplace_back(f->name(), f->acceleration(sys, x.q, x.qdot).qddot);
      }
      ASSERT_GE(results.size(), 2u) << st.info.name;
      for (std::size_t i = 1; i < results.size(); ++i)
        EXPECT_LE(relative_difference<S>(results[0].second, results[i].second),
                  Tolerance<S>::cross)
            << st.info.name << " " << results[0].first << " vs " << results[i].first
            << " state " << k;
    }
  }
}

}  // namespace
}  // namespace nhs
