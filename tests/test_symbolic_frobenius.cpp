// ctest-labels: unit
// The symbolic Frobenius test (nhs/symbolic/frobenius.hpp) against
//  - the numerical one (nhs/constraint_classification.hpp), an independent
//    route (automatic differentiation and nested central differences in
//    mp100): with the same independent velocities, the symbolic forms
//    A [X_alpha, X_beta] evaluated at the numerical test's first sample
//    point equal its bracket evidence, and "involutive" agrees with its
//    verdict, for every study and example file with linear constraints;
//  - a closed form: the skate's one bracket, A [X_x, X_theta] with y_dot
//    dependent, is 1/cos(theta) (derived below);
//  - an exact constraint (tests/systems/integrable.toml), whose forms are
//    identically 0, and the non-linear bipendulum, where it is not done.
#include "nhs/constraint_classification.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/equations.hpp"
#include "nhs/symbolic/frobenius.hpp"

#include "all_systems.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

using namespace nhs;

namespace {

symbolic::SymbolicSystem symbolic_of(const std::string& name) {
  const TracedStudy traced = find_traced_study(name);
  return symbolic::symbolic_system(traced.build, traced.info);
}

std::vector<std::string> systems_with_files() {
  std::vector<std::string> names = studies_and_example_files();
  names.push_back(std::string(NHS_SOURCE_DIR) + "/tests/systems/hidden-holonomic.toml");
  names.push_back(std::string(NHS_SOURCE_DIR) + "/tests/systems/integrable.toml");
  return names;
}

}  // namespace

TEST(SymbolicFrobenius, AgreesWithTheNumericalTestOnEverySystem) {
  int compared = 0;
  for (const auto& name : systems_with_files()) {
    SCOPED_TRACE(name);
    const Study<mp100>& st = find_study<mp100>(name);
    const System<mp100> sys = st.build(st.default_parameters());
    const ConstraintClassification c = classify_constraints(sys, st.default_state(sys).q);
    const symbolic::SymbolicSystem s = symbolic_of(name);
    if (!c.frobenius_done) {
      EXPECT_FALSE(symbolic::symbolic_frobenius(s).done) << "the numerical test was not done: " << c.frobenius_skipped;
      continue;
    }
    const symbolic::SymbolicFrobenius f = symbolic::symbolic_frobenius(s, c.frame);
    ASSERT_TRUE(f.done) << f.skipped;
    EXPECT_EQ(f.independent, c.frame);
    EXPECT_EQ(f.involutive, c.hidden_holonomic == sys.r) << "growth vector size " << c.growth.size();
    ASSERT_EQ(f.brackets.size(), c.brackets.size());
    // The symbolic forms at the numerical test's first sample point, with
    // the default parameters, against its bracket evidence.
    GiNaC::exmap at;
    for (std::size_t i = 0; i < s.q.size(); ++i)
      at[s.q[i]] = GiNaC::numeric(to_string<mp100>(c.sample_points.front()[static_cast<Eigen::Index>(i)]).c_str());
    for (std::size_t k = 0; k < s.parameters.size(); ++k)
      at[s.parameters[k]] = GiNaC::numeric(st.info.parameters[k].default_value.c_str());
    for (std::size_t b = 0; b < f.brackets.size(); ++b) {
      EXPECT_EQ(f.brackets[b].first, c.brackets[b].first);
      EXPECT_EQ(f.brackets[b].second, c.brackets[b].second);
      for (std::size_t a = 0; a < f.brackets[b].constraint_forms.size(); ++a) {
        GiNaC::Digits = 60;
        const GiNaC::ex value = GiNaC::evalf(f.brackets[b].constraint_forms[a].subs(at));
        ASSERT_TRUE(GiNaC::is_a<GiNaC::numeric>(value)) << value;
        const double symbolic_value = GiNaC::ex_to<GiNaC::numeric>(value).to_double();
        const double numerical_value = static_cast<double>(c.brackets[b].constraint_forms[static_cast<Eigen::Index>(a)]);
        EXPECT_NEAR(symbolic_value, numerical_value, 1e-12 * (1 + std::abs(numerical_value)))
            << "A [X_" << c.brackets[b].first << ", X_" << c.brackets[b].second << "]_" << a;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 10);
}

// The skate, C = x_dot sin(theta) - y_dot cos(theta), with theta_dot and x_dot
// independent: X_x = (1, tan(theta), 0), X_theta = (0, 0, 1), so
// [X_x, X_theta] = -d_theta X_x = (0, -1/cos(theta)^2, 0) and
// A [X_x, X_theta] = cos(theta) / cos(theta)^2 = 1/cos(theta).
TEST(SymbolicFrobenius, SkateBracketClosedForm) {
  const symbolic::SymbolicSystem s = symbolic_of("skate");
  const symbolic::SymbolicFrobenius f = symbolic::symbolic_frobenius(s, {"x", "theta"});
  ASSERT_TRUE(f.done) << f.skipped;
  EXPECT_EQ(f.dependent, std::vector<std::string>{"y"});
  ASSERT_EQ(f.brackets.size(), 1u);
  const GiNaC::ex theta = s.q[2];
  EXPECT_TRUE(symbolic::normal_form(f.brackets[0].constraint_forms[0] - 1 / GiNaC::cos(theta),
                                    std::numeric_limits<std::size_t>::max())
                  .is_zero())
      << f.brackets[0].constraint_forms[0];
  EXPECT_FALSE(f.involutive);
}

TEST(SymbolicFrobenius, AnExactConstraintIsInvolutiveAndANonLinearOneIsNotTested) {
  const symbolic::SymbolicFrobenius f =
      symbolic::symbolic_frobenius(symbolic_of(std::string(NHS_SOURCE_DIR) + "/tests/systems/integrable.toml"));
  ASSERT_TRUE(f.done) << f.skipped;
  ASSERT_EQ(f.brackets.size(), 1u);
  for (const GiNaC::ex& e : f.brackets[0].constraint_forms) EXPECT_TRUE(e.is_zero()) << e;
  EXPECT_TRUE(f.involutive);
  const symbolic::SymbolicFrobenius b = symbolic::symbolic_frobenius(symbolic_of("bipendulum"));
  EXPECT_FALSE(b.done);
  EXPECT_NE(b.skipped.find("not linear"), std::string::npos) << b.skipped;
  EXPECT_THROW(symbolic::symbolic_frobenius(symbolic_of("skate"), {"x", "nosuch"}), UsageError);
}
