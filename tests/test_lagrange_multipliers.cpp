// The KKT system of seed 004 vs the second kind (001 §8, eq. 3.11): qddot, lambda, R; a singular KKT matrix.
// ctest-labels: unit cross
#include "force_scale.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "random_states.hpp"

namespace nhs {
namespace {

template <class S>
class LagrangeMultipliers : public ::testing::Test {};
TYPED_TEST_SUITE(LagrangeMultipliers, TestScalars, ScalarNames);

TYPED_TEST(LagrangeMultipliers, AgreesWithSecondKindAtRandomRegularStates) {
  using S = TypeParam;
  const S tol = Tolerance<S>::cross;
  for_each_random_regular_state<S>(
      20261125, 60, [&](const Study<S>& st, const System<S>& sys, const State<S>& x, int k) {
        const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
        const LagrangeMultipliersField<S> L = lagrange_multipliers(sys, x.q, x.qdot);
        EXPECT_LE(relative_difference<S>(L.qddot, D.qddot), tol) << st.info.name << " state " << k;
        const ForceScale<S> f = force_scale(sys, x.q, x.qdot, D);
        EXPECT_LE(difference_over(L.multipliers, D.multipliers, f.multipliers), tol)
            << st.info.name << " lambda, state " << k;
        EXPECT_LE(difference_over(L.reaction, D.reaction, f.reaction), tol)
            << st.info.name << " R, state " << k;

        // The sign convention on its own: g qddot + Gamma = A + R with
        // R_i = lambda_a dC^a/dqdot^i (001 eqs. 3.11, 3.14).
        const Inertia<S> I = inertia(sys, x.q, x.qdot);
        const Vec<S> lhs = I.g * L.qddot + I.gamma;
        const Vec<S> rhs = active_force(sys, x.q, x.qdot) + L.reaction;
        EXPECT_LE(difference_over(lhs, rhs, f.reaction), tol) << st.info.name << " state " << k;

        // Through the registry: the same numbers, multipliers and reaction passed on.
        const Acceleration<S> acc =
            find_formulation<S>("lagrange-multipliers").acceleration(sys, x.q, x.qdot);
        EXPECT_EQ(acc.qddot, L.qddot);
        ASSERT_TRUE(acc.multipliers && acc.reaction);
        EXPECT_EQ(*acc.multipliers, L.multipliers);
        EXPECT_EQ(*acc.reaction, L.reaction);
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
