// ctest-labels: unit
// The run's singular-set watch (lib/src/integrate/watches.ipp) on a
// system with linear constraints whose dC/dqdot = A(q) loses rank along the
// motion: it stops the motion there, also when the loss lies inside a step,
// with every stepper, in double and mp50. Written for issue 61 (a run costs
// what its field costs), to hold the watch's semantics while its margin
// evaluations are made cheaper.
#include "nhs/system.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nhs {
namespace {

// A free point in the plane, q = (x, y), T = (xd^2 + yd^2) / 2, under the
// linear constraint C = x yd (A(q) = (0, x)): sent along y = 0 from x = -1
// with xd = 1, it moves as x = t - 1 (no force, lambda = 0) and dC/dqdot
// loses rank at t = 1, where sigma_min = |x| = |t - 1| (a V touching 0).
struct PointOnAFoldingRail {
  static SystemInfo info() {
    return {.name = "folding-rail", .title = "test", .source = "test", .coordinates = {"x", "y"},
            .parameters = {}, .constraint_names = {"C1"}, .linear_constraints = true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>&, const Vec<T>&, const Vec<T>& qd) {
    return (qd[0] * qd[0] + qd[1] * qd[1]) * ratio<T>(1, 2);
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    C[0] = q[0] * qd[1];
  }
};

// The time "reached at t = ..." of a crossing message, -1 if none.
double reached_at(const std::string& message) {
  const std::size_t k = message.find("reached at t = ");
  return k == std::string::npos ? -1 : std::stod(message.substr(k + 15));
}

template <class S>
void expect_stop_at_rank_loss(const std::string& stepper) {
  const System<S> sys = describe<S, PointOnAFoldingRail>(std::vector<S>{});
  IntegrationOptions<S> o;
  o.t_end = S(3);
  o.dt_out = S(1);  // the loss at t = 1 inside a step: samples at 0, 1, 2, 3 only
  o.stepper = parse_stepper(stepper);
  o.singular_margin = S(1) / S(1000000);
  const Vec<S> q = (Vec<S>(2) << S(-1), S(0)).finished(), qd = (Vec<S>(2) << S(1), S(0)).finished();
  S last_t(-1);
  try {
    integrate<S>(sys, find_formulation<S>("second-kind"), q, qd, o, [&](const Sample<S>& s) { last_t = s.t; },
                 nullptr);
    FAIL() << stepper << ": crossed the rank loss of dC/dqdot at t = 1";
  } catch (const SingularState& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.condition, "rank loss of dC/dqdot") << stepper << ": " << m;
    EXPECT_LE(last_t, S(1)) << stepper;
    // sigma_min = |t - 1| reaches the margin 1e-6 at t = 1 - 1e-6
    EXPECT_NEAR(reached_at(m), 1.0 - 1e-6, 1e-9) << stepper << ": " << m;
    EXPECT_NE(m.find("sigma_min_dC_dqdot"), std::string::npos) << m;
  }
}

TEST(RunWatch, LinearConstraintsStopAtRankLossDouble) {
  for (const char* stepper : {"verner87", "dopri5", "fehlberg78", "bulirsch-stoer"})
    expect_stop_at_rank_loss<double>(stepper);
}

TEST(RunWatch, LinearConstraintsStopAtRankLossMp50) {
  for (const char* stepper : {"bulirsch-stoer", "verner87"}) expect_stop_at_rank_loss<mp50>(stepper);
}

}  // namespace
}  // namespace nhs
