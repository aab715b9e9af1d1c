// Maggi's equations in implicit form (000 eqs. 32-35) against the second kind (001 Thm 8.1-8.2) and the first kind (000 eq. 27): qddot and zdot at random regular states of every study; singular states and non-applicability by name.
// ctest-labels: unit cross
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/maggi.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"
#include "random_states.hpp"

namespace nhs {
namespace {

template <class S>
class Maggi : public ::testing::Test {};
TYPED_TEST_SUITE(Maggi, TestScalars, ScalarNames);

TYPED_TEST(Maggi, AgreesWithSecondAndFirstKindAtRandomRegularStates) {
  using S = TypeParam;
  using std::max;
  const S tol = Tolerance<S>::cross;
  const Formulation<S>& registered = find_formulation<S>("maggi");
  const int applicable = for_each_random_regular_state<S>(
      20261130, 60,
      [&](const Study<S>& st, const System<S>& sys, const State<S>& x, int k) {
        Vec<S> z(sys.m);
        sys.chart(x.q, x.qdot, z);

        const MaggiField<S> M = maggi(sys, x.q, z);
        const SecondKindField<S> D = second_kind(sys, x.q, x.qdot);
        EXPECT_LE(relative_difference<S>(M.qddot, D.qddot), tol) << st.info.name << " state " << k;
        EXPECT_LE(relative_difference<S>(M.qdot, x.qdot), tol) << st.info.name << " state " << k;
        // zdot against the first kind, relative to the size of zdot and of the
        // accelerations (zdot vanishes, up to rounding, wherever the forces
        // have no component along the constraint, e.g. the free skate).
        const FirstKindField<S> F = first_kind(sys, x.q, z);
        EXPECT_LE(max_abs<S>(M.zdot - F.zdot), tol * max(max_abs(F.zdot), max_abs(F.qddot)))
            << st.info.name << " zdot, state " << k;
        // The assembled matrix is G = psi^T g psi (000 eq. 35), found here as
        // the zdot-derivative of the residual.
        const Mat<S> psi_z = parametrization_jacobians(sys, x.q, z).psi_z;
        const Mat<S> G = psi_z.transpose() * inertia(sys, x.q, x.qdot).g * psi_z;
        EXPECT_LE((M.matrix - G).cwiseAbs().maxCoeff(), tol * G.cwiseAbs().maxCoeff())
            << st.info.name << " state " << k;

        // Through the registry: the same numbers, and the (q, z) field.
        EXPECT_EQ(registered.acceleration(sys, x.q, x.qdot).qddot, M.qddot);
        const Vec<S> xs = registered.to_state(sys, x.q, x.qdot);
        ASSERT_EQ(xs.size(), sys.n + sys.m);
        EXPECT_EQ(Vec<S>(registered.field(sys, xs).tail(sys.m)), M.zdot);
      },
      [](const System<S>& sys0) { return sys0.has_parametrization(); });
  EXPECT_GE(applicable, 4);
}

// A slider: q = (x, y), T = m/2 xd^2 (y carries no mass), the constraint
// xd = 0 and qdot = psi(q, z) = (0, z). [psi^i_alpha] has full rank but the
// Maggi matrix psi^T g psi = 0: every state is singular.
enum SliderParam { sm };
struct SliderCore {
  static SystemInfo info() {
    return {"slider", "test system", "test", {"x", "y"}, {{"m", "1", "mass"}}, {"C1"}, {"yd"},
            true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);
    return qd[0] * qd[0] * half * p[sm];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
  }
};
struct Slider : SliderCore {
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    (void)q;
    qd[0] = z[0] * ratio<T>(0);
    qd[1] = z[0];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>&, const Vec<S>& qd, Vec<S>& z) {
    z[0] = qd[1];
  }
};

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
