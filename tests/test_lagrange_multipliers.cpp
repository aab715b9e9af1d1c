// The KKT system of seed 004 vs the second kind (001 §8, eq. 3.11): qddot, lambda, R; a singular KKT matrix.
// ctest-labels: unit cross
#include "agreement.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

template <class S>
class LagrangeMultipliers : public ::testing::Test {};
TYPED_TEST_SUITE(LagrangeMultipliers, TestScalars, ScalarNames);

TYPED_TEST(LagrangeMultipliers, AgreesWithSecondKindAtRandomRegularStates) {
  using S = TypeParam;
  const Formulation<S>& registered = find_formulation<S>("lagrange-multipliers");
  expect_agreement_at_random_regular_states<S>(
      "lagrange-multipliers", 20261125, 60, [&](Agreement<S>& a, const RandomState<S>& s) {
        const LagrangeMultipliersField<S> L = lagrange_multipliers(s.sys, s.x.q, s.x.qdot);
        expect_multiplier_formulation_agrees<S>(a, registered, s, L.qddot, L.multipliers,
                                                L.reaction);
        // The sign convention on its own: g qddot + Gamma = A + R with
        // R_i = lambda_a dC^a/dqdot^i (001 eqs. 3.11, 3.14).
        const Inertia<S> I = inertia(s.sys, s.x.q, s.x.qdot);
        const Vec<S> lhs = I.g * L.qddot + I.gamma;
        const Vec<S> rhs = active_force(s.sys, s.x.q, s.x.qdot) + L.reaction;
        const SecondKindField<S> D = second_kind(s.sys, s.x.q, s.x.qdot);
        a.expect("g qddot + Gamma vs A + R",
                 difference_over(lhs, rhs, force_scale(s.sys, s.x.q, s.x.qdot, D).reaction), s);
      });
}

// A particle in polar coordinates with the constraint rd = phid written
// twice (C2 = 2 C1): dC/dqdot has rank 1 < 2 and the KKT matrix is singular.
enum PolarParam { pm };
struct TwicePolar {
  static SystemInfo info() {
    return {"twice-polar", "test particle", "test", {"r", "phi"}, {{"m", "1", "mass"}},
            {"C1", "C2"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    T half = ratio<T>(1, 2);
    return (qd[0] * qd[0] + q[0] * q[0] * qd[1] * qd[1]) * half * p[pm];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0] - qd[1];
    C[1] = (qd[0] - qd[1]) * ratio<T>(2);
  }
};

TYPED_TEST(LagrangeMultipliers, SingularKKTMatrixIsReported) {
  using S = TypeParam;
  const System<S> sys = describe<S, TwicePolar>({from_string<S>("1.7")});
  Vec<S> q(2), qd(2);
  q << from_string<S>("0.8"), from_string<S>("-0.3");
  qd << from_string<S>("0.45"), from_string<S>("0.45");
  std::string condition = "(no SingularState thrown)";
  try {
    lagrange_multipliers(sys, q, qd);
  } catch (const SingularState& e) {
    condition = e.condition;
  }
  EXPECT_EQ(condition, "singular KKT matrix (rank loss of dC/dqdot or singular g)");
}

}  // namespace
}  // namespace nhs
