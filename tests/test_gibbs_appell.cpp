// Gibbs-Appell from the bodies' Appellian (001 §5-6; 000 eqs. 65-68) against the second kind (001 Thm 8.1-8.2) and the first kind: qddot at random regular states of every study; T of the bodies against each study's T; a free rigid body's Appellian against Appell's body-frame formula and its Euler equations; singular and not applicable by name.
// ctest-labels: unit cross
#include "agreement.hpp"
#include "scalar_test.hpp"
#include "slider.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/formulation.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/maggi.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {
namespace {

template <class S>
class GibbsAppell : public ::testing::Test {};
TYPED_TEST_SUITE(GibbsAppell, TestScalars, ScalarNames);

TYPED_TEST(GibbsAppell, AgreesWithSecondAndFirstKindAtRandomRegularStates) {
  using S = TypeParam;
  const Formulation<S>& registered = find_formulation<S>("gibbs-appell");
  std::mt19937_64 zdot_rng(20261205);  // the states come from for_each_random_regular_state
  const int applicable = expect_agreement_at_random_regular_states<S>(
      "gibbs-appell", 20261201, 60,
      [&](Agreement<S>& a, const RandomState<S>& s) {
        using std::max;
        Vec<S> z(s.sys.m);
        s.sys.chart(s.x.q, s.x.qdot, z);
        const GibbsAppellField<S> GA = gibbs_appell(s.sys, s.x.q, z);
        // S is quadratic in zdot (001 §6): the gradient at a random zdot is
        // h + H zdot, and H = G = psi^T g psi (001 eq. 4.4).
        Vec<S> zd(s.sys.m);
        for (auto& v : zd) v = uniform<S>(zdot_rng, -1, 1);
        const Appellian<S> S0 = appellian(s.sys, s.x.q, z, Vec<S>(Vec<S>::Zero(s.sys.m)));
        const Appellian<S> S1 = appellian(s.sys, s.x.q, z, zd);
        const Vec<S> predicted = S0.gradient + S0.hessian * zd;
        a.expect("Appellian gradient vs h + H zdot",
                 difference_relative_to<S>(max_abs<S>(S1.gradient - predicted),
                                           max(max_abs(S1.gradient), max_abs<S>(S0.hessian * zd))),
                 s);
        expect_chart_formulation_agrees<S>(a, registered, s, z, GA.qddot, GA.zdot, S0.hessian);
      },
      [&](const System<S>& sys0) { return registered.not_applicable_reason(sys0).empty(); });
  EXPECT_GE(applicable, 4);
}

// T from the bodies, 1/2 sum m v^2 + sum (1/2 M v_G^2 + 1/2 omega . J omega),
// equals the study's T: on C (random regular states) and anywhere in TQ
// (q in [-3, 3]^n, qdot in [-1, 1]^n).
TYPED_TEST(GibbsAppell, BodiesReproduceEveryStudysKineticEnergy) {
  using S = TypeParam;
  using std::abs;
  const S tol = Tolerance<S>::cross;
  std::mt19937_64 rng(20261202);
  for (const Study<S>& st : studies<S>()) {
    for (int k = 0; k < 60; ++k) {
      const System<S> sys =
          st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
      if (!sys.has_bodies()) {
        ADD_FAILURE() << st.info.name << " has no body model";
        break;
      }
      State<S> x = st.random_state(sys, rng);
      if (k >= 30)
        for (Eigen::Index i = 0; i < sys.n; ++i) {
          x.q[i] = uniform<S>(rng, -3, 3);
          x.qdot[i] = uniform<S>(rng, -1, 1);
        }
      const S T = sys.kinetic_energy(x.q, x.qdot);
      const S Tb = body_kinetic_energy(sys, x.q, x.qdot);
      ASSERT_GT(T, S(0)) << st.info.name;
      EXPECT_LE(abs(Tb - T), tol * T) << st.info.name << " state " << k << ": T = " << T
                                      << ", bodies " << Tb;
    }
  }
}

// A free rigid body: q = (x, y, zc, phi, theta, psi), the centre and
// Goldstein's z-x-z Euler angles (rotation body -> space
// Rot = Rz(phi) Rx(theta) Rz(psi)); principal moments A, B, C; no
// constraints, qdot = psi(q, z) = z. The body model gives omega and
// J = Rot diag(A, B, C) Rot^T in the space frame.
enum FreeParam { fM, fA, fB, fC };
struct FreeBody {
  static SystemInfo info() {
    return {"free-body",
            "test rigid body",
            "test",
            {"x", "y", "zc", "phi", "theta", "psi"},
            {{"M", "1.3", "mass"},
             {"A", "0.7", "principal moment 1"},
             {"B", "1.1", "principal moment 2"},
             {"C", "1.6", "principal moment 3"}},
            {},
            {"xd", "yd", "zcd", "phid", "thetad", "psid"},
            false};
  }
  template <class T>
  static Matrix3<T> rotation(const Vec<T>& q) {
    using std::cos;
    using std::sin;
    T cf = cos(q[3]), sf = sin(q[3]), ct = cos(q[4]), st = sin(q[4]), cp = cos(q[5]),
      sp = sin(q[5]);
    Matrix3<T> R;
    R << cf * cp - sf * ct * sp, -(cf * sp) - sf * ct * cp, sf * st,  //
        sf * cp + cf * ct * sp, -(sf * sp) + cf * ct * cp, -(cf * st),  //
        st * sp, st * cp, ct;
    return R;
  }
  // omega in space components (z-x-z): phid e_z + thetad (cos phi, sin phi, 0)
  // + psid (sin theta sin phi, -sin theta cos phi, cos theta).
  template <class T>
  static Vector3<T> space_omega(const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    T w1 = qd[4] * cos(q[3]) + qd[5] * sin(q[4]) * sin(q[3]);
    T w2 = qd[4] * sin(q[3]) - qd[5] * sin(q[4]) * cos(q[3]);
    T w3 = qd[3] + qd[5] * cos(q[4]);
    Vector3<T> w;
    w << w1, w2, w3;
    return w;
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    // 1/2 M v^2 + 1/2 omega_b . diag(A, B, C) omega_b, omega_b = Rot^T omega.
    const Matrix3<T> R = rotation(q);
    const Vector3<T> w = space_omega(q, qd);
    T half = ratio<T>(1, 2);
    T out = (qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2]) * half * p[fM];
    for (int k = 0; k < 3; ++k) {
      T wb = R(0, k) * w[0] + R(1, k) * w[1] + R(2, k) * w[2];
      out += wb * wb * half * p[fA + k];
    }
    return out;
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>&, Vec<T>&) {}
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    (void)q;
    qd = z;
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>&, const Vec<S>& qd, Vec<S>& z) {
    z = qd;
  }
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    const Matrix3<T> R = rotation(q);
    Matrix3<T> J;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        T e = R(i, 0) * R(j, 0) * p[fA];
        e += R(i, 1) * R(j, 1) * p[fB];
        e += R(i, 2) * R(j, 2) * p[fC];
        J(i, j) = e;
      }
    out.add_rigid_body(p[fM], space_position(q[0], q[1], q[2]), space_omega(q, qd), J);
  }
};

// Body-frame omega (Goldstein 4.125) and its time derivative by hand, for
// Euler angles e, rates ed and accelerations edd (each (phi, theta, psi)).
template <class S>
void body_omega_by_hand(const Vec<S>& e, const Vec<S>& ed, const Vec<S>& edd, Vector3<S>& w,
                        Vector3<S>& eps) {
  using std::cos;
  using std::sin;
  const S sth = sin(e[1]), cth = cos(e[1]), sps = sin(e[2]), cps = cos(e[2]);
  const S fd = ed[0], td = ed[1], pd = ed[2], fdd = edd[0], tdd = edd[1], pdd = edd[2];
  w << fd * sth * sps + td * cps, fd * sth * cps - td * sps, fd * cth + pd;
  eps << fdd * sth * sps + fd * td * cth * sps + fd * pd * sth * cps + tdd * cps - td * pd * sps,
      fdd * sth * cps + fd * td * cth * cps - fd * pd * sth * sps - tdd * sps - td * pd * cps,
      fdd * cth - fd * td * sth + pdd;
}

// A random free body: its moments (M, A, B, C) uniform in [0.5, 2], q
// uniform in [-3, 3]^6 but theta in [0.3, 2.8] (sin theta away from 0: the
// Euler chart), z = qdot uniform in [-1, 1]^6.
template <class S>
struct RandomFreeBody {
  std::vector<S> par;
  System<S> sys;
  Vec<S> q, z;
};
template <class S>
RandomFreeBody<S> random_free_body(std::mt19937_64& rng) {
  const std::vector<S> par = {uniform<S>(rng, 0.5, 2), uniform<S>(rng, 0.5, 2),
                              uniform<S>(rng, 0.5, 2), uniform<S>(rng, 0.5, 2)};
  RandomFreeBody<S> b{par, describe<S, FreeBody>(par), Vec<S>(6), Vec<S>(6)};
  for (auto& v : b.q) v = uniform<S>(rng, -3, 3);
  b.q[4] = uniform<S>(rng, 0.3, 2.8);
  for (auto& v : b.z) v = uniform<S>(rng, -1, 1);
  return b;
}

// Calls body(b, rng, k) for k = 0 .. 49 at random free bodies b drawn from
// one generator seeded with `seed` (which body may draw from further).
template <class S, class Body>
void for_each_random_free_body(std::uint64_t seed, Body&& body) {
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 50; ++k) body(random_free_body<S>(rng), rng, k);
}

TYPED_TEST(GibbsAppell, FreeRigidBodyAppellianMatchesAppellsFormula) {
  using S = TypeParam;
  using std::abs;
  const S tol = Tolerance<S>::cross;
  for_each_random_free_body<S>(20261203, [&](const RandomFreeBody<S>& b, std::mt19937_64& rng,
                                             int k) {
    const auto& [par, sys, q, z] = b;
    Vec<S> zd(6);
    for (auto& v : zd) v = uniform<S>(rng, -1, 1);
    // qdot = z, qddot = zdot: a = (xdd, ydd, zcdd); body-frame omega, eps by hand.
    Vector3<S> w, eps;
    body_omega_by_hand<S>(q.tail(3), z.tail(3), zd.tail(3), w, eps);
    const S M = par[0], A = par[1], B = par[2], C = par[3];
    const S translation = M * zd.head(3).squaredNorm() / S(2);
    const S rotation = (A * eps[0] * eps[0] + B * eps[1] * eps[1] + C * eps[2] * eps[2]) / S(2);
    // eps . (omega x J omega) in body axes (Appell):
    const S gyro1 = (C - B) * w[1] * w[2] * eps[0], gyro2 = (A - C) * w[2] * w[0] * eps[1],
            gyro3 = (B - A) * w[0] * w[1] * eps[2];
    const S hand = translation + rotation + gyro1 + gyro2 + gyro3;
    const S scale = translation + rotation + abs(gyro1) + abs(gyro2) + abs(gyro3);
    const Appellian<S> Sa = appellian(sys, q, z, zd);
    EXPECT_LE(abs(Sa.value - hand), tol * scale) << "state " << k;
    // The body model's T is the description's T.
    EXPECT_LE(abs(body_kinetic_energy(sys, q, z) - sys.kinetic_energy(q, z)),
              tol * sys.kinetic_energy(q, z))
        << "state " << k;
  });
}

// Gibbs-Appell for the free body without forces gives the torque-free Euler
// equations A eps1 + (C - B) omega2 omega3 = 0 (cyclic) in body axes, and
// an unaccelerated centre; Maggi gives the same zdot.
TYPED_TEST(GibbsAppell, FreeRigidBodyFollowsEulersEquations) {
  using S = TypeParam;
  using std::max;
  const S tol = Tolerance<S>::cross;
  for_each_random_free_body<S>(20261204, [&](const RandomFreeBody<S>& b, std::mt19937_64&, int k) {
    const auto& [par, sys, q, z] = b;
    const GibbsAppellField<S> GA = gibbs_appell(sys, q, z);
    Vector3<S> w, eps;
    body_omega_by_hand<S>(q.tail(3), z.tail(3), GA.zdot.tail(3), w, eps);
    const S A = par[1], B = par[2], C = par[3];
    Vec<S> euler(3), terms(6);
    terms << A * eps[0], (C - B) * w[1] * w[2], B * eps[1], (A - C) * w[2] * w[0], C * eps[2],
        (B - A) * w[0] * w[1];
    euler << terms[0] + terms[1], terms[2] + terms[3], terms[4] + terms[5];
    EXPECT_LE(max_abs(euler), tol * max_abs(terms)) << "state " << k;
    EXPECT_LE(max_abs<S>(GA.zdot.head(3)), tol * max_abs(terms)) << "state " << k;
    // Without constraints (m = n) Maggi needs 1 + 2n directions, more than
    // one AD2 pass holds: its chunked evaluation against Gibbs-Appell.
    EXPECT_LE(relative_difference<S>(maggi(sys, q, z).zdot, GA.zdot), tol) << "state " << k;
  });
}

// The slider (slider.hpp) with one point of mass m at (x, 0): the Appellian
// does not depend on zdot and its Hessian is 0 at every state.
using SliderNoBodies = ChartedSlider;
struct Slider : SliderNoBodies {
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>&, Bodies<T>& out) {
    T zero = q[1] * ratio<T>(0);
    out.add_point(p[sm], plane_position(q[0], zero));
  }
};
// A body whose position depends on qdot: refused.
struct BadSlider : SliderNoBodies {
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    out.add_point(p[sm], plane_position(q[0], qd[1]));
  }
};

TYPED_TEST(GibbsAppell, SingularAndNotApplicableByName) {
  using S = TypeParam;
  Vec<S> q(2), z(1), qd(2);
  q << S(3) / S(10), S(-1) / S(5);
  z << S(7) / S(10);
  const Formulation<S>& f = find_formulation<S>("gibbs-appell");
  {
    const System<S> sys = describe<S, Slider>({S(1)});
    EXPECT_TRUE(f.not_applicable_reason(sys).empty());
    EXPECT_EQ(singular_condition([&] { gibbs_appell<S>(sys, q, z); }),
              "singular Appellian Hessian");
    sys.parametrization(q, z, qd);
    EXPECT_THROW(f.acceleration(sys, q, qd), SingularState);
  }
  {
    const System<S> sys = describe<S, SliderNoBodies>({S(1)});
    EXPECT_FALSE(f.not_applicable_reason(sys).empty());
    EXPECT_THROW(gibbs_appell<S>(sys, q, z), NotApplicable);
    EXPECT_THROW(body_kinetic_energy<S>(sys, q, qd), NotApplicable);
    sys.parametrization(q, z, qd);
    EXPECT_THROW(f.acceleration(sys, q, qd), NotApplicable);
  }
  // describe() checks the bodies against T (check_description), which
  // evaluates their kinematics: the description is refused when built.
  EXPECT_THROW((describe<S, BadSlider>({S(1)})), UsageError);
  // parallel-points at v1 = v2 = 0 (001 §9.4 (ii)): dpsi/dz loses rank.
  {
    const Study<S>& st = find_study<S>("parallel-points");
    const System<S> sys = st.build(st.default_parameters());
    Vec<S> q4(4), z3(3);
    q4 << S(1), S(2), S(-1), S(1) / S(2);
    z3 << S(0), S(0), S(1) / S(3);
    EXPECT_EQ(singular_condition([&] { gibbs_appell<S>(sys, q4, z3); }), "rank loss of dpsi/dz");
  }
}

}  // namespace
}  // namespace nhs
