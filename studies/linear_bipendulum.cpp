// The linear bipendulum (000 §13.7): the bipendulum with a massive hidden
// point P0 = (0, y0) of mass m0 sliding on the y axis. q = (x1, y1, x2, y2,
// y0); the constraints (P_k - P0) . v_k = 0,
//   x1 x1d + (y1 - y0) y1d = 0,  x2 x2d + (y2 - y0) y2d = 0,
// are linear in qdot. Neither contains y0d, so the reaction on y0 vanishes,
// m0 y0dd = 0 and the motion does not depend on m0 > 0: Hertz's limit
// m0 -> 0 does not give back the bipendulum (docs/errata.md §13.7).
// Incline g along +x on P1 and P2 only.
//
// Parametrization z = (w1, w2, y0d) (docs/errata.md on 001 (7.1)): each
// point turns about P0 with rate w_k, P0 slides with y0d.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

#include "nhs/format.hpp"

namespace nhs {
namespace {

enum Param { m1, m2, m0, g };

/// The description of docs/studies.md `linear-bipendulum` for
/// describe<S, LinearBipendulum>: n = 5, r = 2, m = 3.
struct LinearBipendulum {
  static constexpr int n = 5;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "linear-bipendulum",
            .title = "bipendulum with a massive hidden point P0 on the y axis, linear constraints",
            .source = "000 §13.7",
            .coordinates = {"x1", "y1", "x2", "y2", "y0"},
            .parameters = {{"m1", "1", "mass of P1"},
                           {"m2", "1", "mass of P2"},
                           {"m0", "1", "mass of P0 (on the y axis)"},
                           {"g", "0", "incline field along +x on P1 and P2"}},
            .constraint_names = {"C1", "C2"},
            .quasi_velocities = {"w1", "w2", "y0_dot"},
            .linear_constraints = true,
            .dependent_velocities = {0, 2}};  // x1d, x2d dependent: x_kd = -(y_k - y0) y_kd / x_k (singular at x_k = 0)
  }
  /// T = m1/2 |v1|^2 + m2/2 |v2|^2 + m0/2 y0d^2; q, qd size 5.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);
    return (qd[0] * qd[0] + qd[1] * qd[1]) * half * p[m1] +
           (qd[2] * qd[2] + qd[3] * qd[3]) * half * p[m2] + qd[4] * qd[4] * half * p[m0];
  }
  /// V = -m1 g x1 - m2 g x2; q size 5.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    return -(q[0] * p[m1] * p[g]) - q[2] * p[m2] * p[g];
  }
  /// C^k = x_k x_kd + (y_k - y0) y_kd (000 §13.7); C size 2.
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    C[0] = q[0] * qd[0] + (q[1] - q[4]) * qd[1];
    C[1] = q[2] * qd[2] + (q[3] - q[4]) * qd[3];
  }
  /// qdot = psi(q, z), z = (w1, w2, y0d); z size 3, qd size 5.
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    qd[0] = -(z[0] * (q[1] - q[4]));
    qd[1] = z[0] * q[0];
    qd[2] = -(z[1] * (q[3] - q[4]));
    qd[3] = z[1] * q[2];
    qd[4] = z[2];
  }
  /// Inverse chart: w_k = v_k . J(P_k - P0) / |P_k - P0|^2, J(a, b) = (-b, a);
  /// y0d read off. Throws SingularState("rank loss of dpsi/dz") where
  /// P_k = P0 (there dC/dqdot loses rank too).
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    for (int j = 0; j < 2; ++j) {
      const S x = q[2 * j], dy = q[2 * j + 1] - q[4];
      const S r2 = x * x + dy * dy;
      if (r2 == 0)
        throw SingularState("rank loss of dpsi/dz",
                            "singular state: rank loss of dpsi/dz (P" + std::to_string(j + 1) +
                                " = P0) " + state_context(q, qd));
      z[j] = (qd[2 * j + 1] * x - qd[2 * j] * dy) / r2;
    }
    z[2] = qd[4];
  }
  /// The bodies: point masses m1 at P1, m2 at P2, m0 at P0 = (0, y0).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    (void)qd;
    out.add_point(p[m1], plane_position(q[0], q[1]));
    out.add_point(p[m2], plane_position(q[2], q[3]));
    T zero = q[4] - q[4];  // an AD zero with the variables' derivative size
    out.add_point(p[m0], plane_position(zero, q[4]));
  }
};

// P0 at rest (y0d = 0) and g = 0: y0 stays fixed (y0dd = 0 always) and each
// point is held on the circle about P0 through it ((P_k - P0) . v_k = 0 with
// P0 fixed), with no force along it: uniform circular motion,
// P_k = P0 + r_k (cos(phi_k0 + w_k t), sin(phi_k0 + w_k t)). Our choice:
// m1 = 0.9, m2 = 1.3, m0 = 0.4, P1 = (1.1, 0.6), P2 = (-0.7, -0.8),
// y0 = 0.2, w1 = 0.8, w2 = -1.1. Voronec's split (x_kd dependent) is
// singular where x_k = 0, which these circles cross.
template <class S>
SpecialMotion<S> circles_motion() {
  SpecialMotion<S> mo;
  mo.name = "P0 at rest, g = 0: uniform circular motions about P0";
  mo.source = "ours (000 §13.7 constraints with y0d = 0)";
  mo.parameters = {from_string<S>("0.9"), from_string<S>("1.3"), from_string<S>("0.4"), S(0)};
  Vec<S> q0(5);
  q0 << from_string<S>("1.1"), from_string<S>("0.6"), from_string<S>("-0.7"),
      from_string<S>("-0.8"), from_string<S>("0.2");
  const S w1 = from_string<S>("0.8"), w2 = from_string<S>("-1.1");
  mo.initial = state_from_chart(describe<S, LinearBipendulum>(mo.parameters), q0, {w1, w2, S(0)});
  mo.t_end = S(20);
  mo.excluded["voronec"] = "the split x_kd = -(y_k - y0) y_kd / x_k is singular at x_k = 0, "
                           "which the circles about P0 cross";
  mo.excluded["naive-reduced"] = "same split as voronec";
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    Vec<S> q(5), qd(5);
    const S y0 = q0[4];
    q[4] = y0;
    qd[4] = S(0);
    for (int j = 0; j < 2; ++j) {
      const S w = j == 0 ? w1 : w2;
      const S dx = q0[2 * j], dy = q0[2 * j + 1] - y0;
      const S c = cos(w * t), s = sin(w * t);
      const S ex = dx * c - dy * s, ey = dx * s + dy * c;  // rotated P_k(0) - P0
      q[2 * j] = ex;
      q[2 * j + 1] = y0 + ey;
      qd[2 * j] = -(w * ey);
      qd[2 * j + 1] = w * ex;
    }
    return State<S>{q, qd};
  };
  return mo;
}

}  // namespace

/// The `linear-bipendulum` study (000 §13.7): system, default state
/// (P1 = (1, 0.5), P2 = (-1, -0.5), y0 = 0, z = (1, 1/2, 1/4)), invariants
/// y0d (conserved: the constraints do not contain y0d, so no reaction acts
/// on P0) and the separate energies E_k = m_k/2 |v_k|^2 - m_k g x_k (the
/// reaction on P_k is along P_k - P0, normal to v_k), the special motion
/// "P0 at rest: circles", and random states from the chart with
/// |x_k| >= 1/4 (away from Voronec's singular split) and |P_k - P0| >= 1/4.
template <class S>
Study<S> linear_bipendulum_study() {
  Study<S> st = study_of<S, LinearBipendulum>();
  for (const char* f : {"voronec", "naive-reduced"})
    st.default_run_excluded[f] = "the split x_kd = -(y_k - y0) y_kd / x_k is singular at x_k = 0, "
                                 "which P1 reaches before t = 20 (each point circles the moving P0)";
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(5);
    q << S(1), S(1) / S(2), S(-1), -(S(1) / S(2)), S(0);
    return state_from_chart<S>(sys, q, {S(1), S(1) / S(2), S(1) / S(4)});
  };
  st.invariants = [](const System<S>& sys) {
    const S mass1 = sys.parameter("m1"), mass2 = sys.parameter("m2"), gr = sys.parameter("g");
    std::vector<Invariant<S>> inv{incline_point_energy<S>("E1", mass1, gr, 0),
                                  incline_point_energy<S>("E2", mass2, gr, 1)};
    inv.push_back({"y0_dot", [](const Vec<S>&, const Vec<S>& qd) { return qd[4]; }, true});
    return inv;
  };
  st.special_motions = [] { return std::vector<SpecialMotion<S>>{circles_motion<S>()}; };
  st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
    using std::abs;
    const S floor = S(1) / S(4);
    for (;;) {
      State<S> s = random_state_from_chart(sys, rng);
      bool ok = true;
      for (int j = 0; j < 2; ++j) {
        const S x = s.q[2 * j], dy = s.q[2 * j + 1] - s.q[4];
        ok = ok && abs(x) >= floor && x * x + dy * dy >= floor * floor;
      }
      if (ok) return s;
    }
  };
  return st;
}

#define NHS_LINEAR_BIPENDULUM_(S, NAME) template Study<S> linear_bipendulum_study<S>();
NHS_FOR_EACH_SCALAR(NHS_LINEAR_BIPENDULUM_)

TracedStudy linear_bipendulum_traced() { return traced_study_of<LinearBipendulum>(); }

}  // namespace nhs
