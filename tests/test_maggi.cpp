// Maggi's equations in implicit form (000 eqs. 32-35) against the second kind (001 Thm 8.1-8.2) and the first kind (000 eq. 27): qddot and zdot at random regular states of every study; singular states and non-applicability by name.
// ctest-labels: unit cross
#include "agreement.hpp"
#include "scalar_test.hpp"
#include "slider.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/maggi.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

template <class S>
class Maggi : public ::testing::Test {};
TYPED_TEST_SUITE(Maggi, TestScalars, ScalarNames);

TYPED_TEST(Maggi, AgreesWithSecondAndFirstKindAtRandomRegularStates) {
  using S = TypeParam;
  const Formulation<S>& registered = find_formulation<S>("maggi");
  const int applicable = expect_agreement_at_random_regular_states<S>(
      "maggi", 20261130, 60,
      [&](Agreement<S>& a, const RandomState<S>& s) {
        Vec<S> z(s.sys.m);
        s.sys.chart(s.x.q, s.x.qdot, z);
        const MaggiField<S> M = maggi(s.sys, s.x.q, z);
        a.expect("qdot = psi(q, z) vs qdot", relative_difference<S>(M.qdot, s.x.qdot), s);
        // The assembled matrix is G = psi^T g psi (000 eq. 35), found here as
        // the zdot-derivative of the residual.
        expect_chart_formulation_agrees<S>(a, registered, s, z, M.qddot, M.zdot, M.matrix);
      },
      [](const System<S>& sys0) { return sys0.has_parametrization(); });
  EXPECT_GE(applicable, 4);
}

// The slider (slider.hpp): full-rank psi_z, but the Maggi matrix
// psi^T g psi = 0: every state is singular.
using Slider = ChartedSlider;

TYPED_TEST(Maggi, SingularStatesByName) {
  using S = TypeParam;
  // parallel-points at v1 = v2 = 0 (001 §9.4 (ii)): dpsi/dz loses rank.
  {
    const Study<S>& st = find_study<S>("parallel-points");
    const System<S> sys = st.build(st.default_parameters());
    Vec<S> q(4), z(3);
    q << S(1), S(2), S(-1), S(1) / S(2);
    z << S(0), S(0), S(1) / S(3);
    EXPECT_EQ(singular_condition([&] { maggi<S>(sys, q, z); }), "rank loss of dpsi/dz");
  }
  // The slider: full-rank psi_z, singular Maggi matrix.
  {
    const System<S> sys = describe<S, Slider>({S(1)});
    Vec<S> q(2), z(1);
    q << S(3) / S(10), S(-1) / S(5);
    z << S(7) / S(10);
    EXPECT_EQ(singular_condition([&] { maggi<S>(sys, q, z); }), "singular Maggi matrix");
    Vec<S> qd(2);
    sys.parametrization(q, z, qd);
    EXPECT_THROW(find_formulation<S>("maggi").acceleration(sys, q, qd), SingularState);
  }
}

TYPED_TEST(Maggi, NotApplicableWithoutParametrization) {
  using S = TypeParam;
  const System<S> sys = describe<S, SliderCore>({S(1)});
  const Formulation<S>& f = find_formulation<S>("maggi");
  EXPECT_FALSE(f.not_applicable_reason(sys).empty());
  Vec<S> q = Vec<S>::Zero(2), qd = Vec<S>::Zero(2), z = Vec<S>::Zero(1);
  EXPECT_THROW(maggi<S>(sys, q, z), NotApplicable);
  EXPECT_THROW(f.acceleration(sys, q, qd), NotApplicable);
}

}  // namespace
}  // namespace nhs
