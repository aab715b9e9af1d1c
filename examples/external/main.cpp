// A system of one's own with the installed nhs library (nhs::nhs only, no
// studies): the Chaplygin sleigh, a rigid body on a plane resting on a knife
// edge at P = (x, y) that cannot slide sideways, its centre of mass G at
// distance a from P along the blade.
//   q = (x, y, theta); v_G = (xd - a sin(theta) thetad, yd + a cos(theta) thetad)
//   T = m/2 |v_G|^2 + I/2 thetad^2   (I about G)
//   C = -xd sin(theta) + yd cos(theta) = 0   (linear)
//   z = (v, omega): xd = v cos(theta), yd = v sin(theta), thetad = omega
// Its equations in z are known in closed form (J = I + m a^2):
//   vd = a omega^2,  omegad = -m a v omega / J,
// with the energy m/2 v^2 + J/2 omega^2 conserved, and omega too when a = 0.
//
// Checks, in double: qddot of "second-kind" (from T and C) against
// "first-kind" (from T and psi) and against the closed form at a few states,
// to 1e-12 relative; a short integrated motion keeps the energy (and omega
// for a = 0). Exits 1 when a check fails, 2 on an exception.
#include <nhs/formulation.hpp>
#include <nhs/integrate.hpp>
#include <nhs/system.hpp>
#include <nhs/verification.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <vector>

namespace {

using nhs::Params;
using nhs::Vec;

struct Sleigh {
  enum Param { m, I, a };
  static constexpr int n = 3;  // coordinates: derivations in fixed-size AD
  static nhs::SystemInfo info() {
    return {"chaplygin-sleigh",
            "Chaplygin sleigh: knife edge with the centre of mass at distance a",
            "examples/external",
            {"x", "y", "theta"},
            {{"m", "1", "mass"},
             {"I", "0.2", "moment of inertia about the centre of mass"},
             {"a", "0.3", "distance from the contact point to the centre of mass"}},
            {"C1"},
            {"v", "omega"},
            true};
  }
  // Products variable-first, constants as ratio<T> (nhs/system.hpp describe()).
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    const T vx = qd[0] - sin(q[2]) * qd[2] * p[a];
    const T vy = qd[1] + cos(q[2]) * qd[2] * p[a];
    const T half = nhs::ratio<T>(1, 2);
    return (vx * vx + vy * vy) * p[m] * half + qd[2] * qd[2] * p[I] * half;
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[1] * cos(q[2]) - qd[0] * sin(q[2]);
  }
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = z[0] * cos(q[2]);
    qd[1] = z[0] * sin(q[2]);
    qd[2] = z[1];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    using std::cos;
    using std::sin;
    z[0] = qd[0] * cos(q[2]) + qd[1] * sin(q[2]);
    z[1] = qd[2];
  }
};

struct Checker {
  int failures = 0;
  void check(bool ok, const char* what, double value, double limit) {
    std::printf("  %-44s %9.2e  (limit %.0e)  %s\n", what, value, limit, ok ? "ok" : "FAILED");
    if (!ok) ++failures;
  }
};

double relative_difference(const Vec<double>& u, const Vec<double>& w) {
  const double scale = std::max(u.lpNorm<Eigen::Infinity>(), w.lpNorm<Eigen::Infinity>());
  const double diff = (u - w).lpNorm<Eigen::Infinity>();
  return diff == 0 ? 0 : diff / scale;
}

// qddot of the closed form at (theta, v, omega).
Vec<double> closed_form(double m, double I, double a, double theta, double v, double omega) {
  const double vd = a * omega * omega, omegad = -m * a * v * omega / (I + m * a * a);
  Vec<double> qdd(3);
  qdd << vd * std::cos(theta) - v * omega * std::sin(theta),
      vd * std::sin(theta) + v * omega * std::cos(theta), omegad;
  return qdd;
}

void check_sleigh(double m, double I, double a, Checker& c) {
  const nhs::System<double> sys = nhs::describe<double, Sleigh>({m, I, a});
  const auto& second = nhs::find_formulation<double>("second-kind");
  const auto& first = nhs::find_formulation<double>("first-kind");
  std::printf("Chaplygin sleigh m = %g, I = %g, a = %g\n", m, I, a);

  const double states[][5] = {  // x, y, theta, v, omega
      {0.1, -0.2, 0.3, 0.7, -0.4},
      {1.5, 2.0, 2.9, -1.2, 0.8},
      {-0.4, 0.6, -1.3, 0.25, 2.1}};
  double worst_kinds = 0, worst_closed = 0;
  for (const auto& s : states) {
    Vec<double> q(3), z(2), qd(3);
    q << s[0], s[1], s[2];
    z << s[3], s[4];
    sys.parametrization(q, z, qd);
    // second-kind against first-kind by the library's cross-check
    // (nhs/verification.hpp): the largest relative disagreement of the pair.
    const nhs::CrossCheck<double> cc = nhs::cross_check_state(sys, q, qd, {&second, &first});
    for (const auto& r : cc.results)
      if (!r.evaluated()) throw std::runtime_error(r.name + ": " + r.error + r.skipped);
    worst_kinds = std::max(worst_kinds, cc.worst);
    const Vec<double> a2 = cc.find("second-kind")->acceleration->qddot;
    worst_closed = std::max(worst_closed, relative_difference(a2, closed_form(m, I, a, s[2], s[3], s[4])));
  }
  c.check(worst_kinds <= 1e-12, "qddot second-kind vs first-kind (3 states)", worst_kinds, 1e-12);
  c.check(worst_closed <= 1e-12, "qddot second-kind vs closed form", worst_closed, 1e-12);

  // A short motion with first-kind (in (q, z): it stays on C).
  Vec<double> q0(3), z0(2), qd0(3);
  q0 << 0.1, -0.2, 0.3;
  z0 << 0.7, -0.4;
  sys.parametrization(q0, z0, qd0);
  const double e0 = sys.kinetic_energy(q0, qd0);
  nhs::IntegrationOptions<double> opts;  // dopri5, rtol = atol = 1e-12
  opts.t_end = 5;
  opts.dt_out = 0.5;
  double energy_drift = 0, omega_drift = 0, constraint = 0;
  Vec<double> C(1);
  nhs::IntegrationStats stats;
  nhs::integrate<double>(
      sys, first, q0, qd0, opts,
      [&](const nhs::Sample<double>& smp) {
        energy_drift = std::max(energy_drift, std::abs(sys.kinetic_energy(smp.q, smp.qdot) - e0) / e0);
        omega_drift = std::max(omega_drift, std::abs(smp.qdot[2] - qd0[2]));
        sys.constraints(smp.q, smp.qdot, C);
        constraint = std::max(constraint, std::abs(C[0]));
      },
      &stats);
  std::printf("  integrated to t = 5 with first-kind (%s): %llu steps, %llu RHS calls\n",
              std::string(nhs::stepper_name(stats.stepper)).c_str(),
              static_cast<unsigned long long>(stats.steps),
              static_cast<unsigned long long>(stats.rhs_calls));
  c.check(energy_drift <= 1e-9, "relative energy drift", energy_drift, 1e-9);
  c.check(constraint <= 1e-12, "|C| along the motion", constraint, 1e-12);
  if (a == 0) c.check(omega_drift <= 1e-10, "omega drift (a = 0: omega is conserved)", omega_drift, 1e-10);
}

}  // namespace

int main() {
  try {
    Checker c;
    check_sleigh(1.0, 0.2, 0.3, c);
    check_sleigh(1.3, 0.5, 0.0, c);
    std::printf(c.failures == 0 ? "all checks passed\n" : "%d check(s) FAILED\n", c.failures);
    return c.failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
