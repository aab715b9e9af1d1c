// ctest-labels: unit study
// examples/sleigh-on-turntable.toml, the Chaplygin sleigh on a table turning
// at Omega (written in space-frame coordinates, its blade's constraint
// affine in the velocities), against independent formulations:
//  (a) at Omega = 0 it is examples/chaplygin-sleigh.toml: the same qddot at
//      random states and parameters, Tolerance<S>::cross;
//  (b) at Omega != 0 its qddot (second kind and first kind) gives the
//      table-frame accelerations of Newton and Euler written out by hand
//      (the file's comment): with u = (v_C - Omega e_z x C) . e1,
//      w = theta_dot - Omega, J = I + m a^2,
//        u_dot = a w^2 + 2 Omega a w + Omega^2 (C . e1),
//        J w_dot = -m a u (w + 2 Omega) + m a Omega^2 (C . e2),
//      at random states and parameters, Tolerance<S>::cross.
// Its special motions, invariant and cross-formulation agreement are
// `nhs check`'s (ctest ExampleCheck.sleigh-on-turntable).
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

#include <random>
#include <string>
#include <vector>

namespace nhs {
namespace {

const std::string kTurntable = std::string(NHS_SOURCE_DIR) + "/examples/sleigh-on-turntable.toml";
const std::string kSleigh = std::string(NHS_SOURCE_DIR) + "/examples/chaplygin-sleigh.toml";

template <class S>
class SleighOnTurntable : public ::testing::Test {};
TYPED_TEST_SUITE(SleighOnTurntable, TestScalars, ScalarNames);

TYPED_TEST(SleighOnTurntable, StillTableIsChaplyginsSleigh) {
  using S = TypeParam;
  const Study<S>& turntable = find_study<S>(kTurntable);
  const Study<S>& sleigh = find_study<S>(kSleigh);
  ASSERT_EQ(turntable.info.parameters.size(), 4u);  // m, I, a, Omega
  const Formulation<S>& f = find_formulation<S>("second-kind");
  std::mt19937_64 rng(61005);
  for (int k = 0; k < 20; ++k) {
    std::vector<S> p = k % 2 ? randomized_parameters(sleigh, rng) : sleigh.default_parameters();
    const System<S> a = sleigh.build(p);
    p.push_back(S(0));
    const System<S> b = turntable.build(p);
    const State<S> x = sleigh.random_state(a, rng);
    const Vec<S> qa = f.acceleration(a, x.q, x.qdot).qddot, qb = f.acceleration(b, x.q, x.qdot).qddot;
    EXPECT_LE(max_abs<S>(qa - qb), Tolerance<S>::cross * (S(1) + max_abs(qa))) << "state " << k;
  }
}

TYPED_TEST(SleighOnTurntable, TurningTableIsNewtonEulerInTheTablesFrame) {
  using S = TypeParam;
  using std::abs;
  using std::cos;
  using std::sin;
  const Study<S>& st = find_study<S>(kTurntable);
  std::mt19937_64 rng(61006);
  for (const char* name : {"second-kind", "first-kind"}) {
    const Formulation<S>& f = find_formulation<S>(name);
    for (int k = 0; k < 20; ++k) {
      const std::vector<S> p = k % 2 ? randomized_parameters(st, rng) : st.default_parameters();
      const S &m = p[0], &I = p[1], &a = p[2], &Om = p[3];
      ASSERT_NE(Om, S(0));
      const System<S> sys = st.build(p);
      const State<S> x = st.random_state(sys, rng);
      const Vec<S> qdd = f.acceleration(sys, x.q, x.qdot).qddot;
      const S &X = x.q[0], &Y = x.q[1], &th = x.q[2];
      const S &xd = x.qdot[0], &yd = x.qdot[1], &thd = x.qdot[2];
      const S c = cos(th), s = sin(th), J = I + m * a * a;
      // Relative velocity of C in space components, its e1 and e2 parts.
      const S vx = xd + Om * Y, vy = yd - Om * X;
      const S u = vx * c + vy * s, w = thd - Om;
      ASSERT_LE(abs(-vx * s + vy * c - a * w), Tolerance<S>::cross * (S(1) + abs(u))) << "on C, state " << k;
      // d/dt of u from the file's qddot (u is a dot product of two vectors
      // that turn with the table: the same in either frame).
      const S u_dot = (qdd[0] + Om * yd) * c + (qdd[1] - Om * xd) * s + thd * (-vx * s + vy * c);
      const S u_dot_ne = a * w * w + S(2) * Om * a * w + Om * Om * (X * c + Y * s);
      const S w_dot_ne = (-m * a * u * (w + S(2) * Om) + m * a * Om * Om * (-X * s + Y * c)) / J;
      EXPECT_LE(abs(u_dot - u_dot_ne), Tolerance<S>::cross * (S(1) + abs(u_dot_ne))) << name << " state " << k;
      EXPECT_LE(abs(qdd[2] - w_dot_ne), Tolerance<S>::cross * (S(1) + abs(w_dot_ne))) << name << " state " << k;
    }
  }
}

}  // namespace
}  // namespace nhs
