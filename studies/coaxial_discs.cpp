// Two co-axial rolling discs (001 §9.3): two identical vertical discs of
// radius R, mass m and moments of inertia A (axis) and B (diameter), on a
// common massless axle at fixed distance a, each rolling without sliding.
// q = (x, y, theta1, theta2, psi): (x, y) the centre of disc 1, theta_k the
// rotation of disc k about the axle, psi the heading; disc 2's centre is at
// (x + a sin psi, y - a cos psi). Three linear constraints (001 eqs. 9.11,
// 9.12 with a constant):
//   C1 = xd - R cos(psi) theta1d, C2 = yd - R sin(psi) theta1d,
//   C3 = psid - (R/a)(theta2d - theta1d);
// T as in 001 §9.3; incline g along +x on both centres,
// V = -m g x - m g (x + a sin psi). Parametrization z = (theta1d, theta2d)
// in q's order (docs/errata.md: the printed [psi^i_alpha] of 9.13 uses the
// order (xd, yd, psid, theta1d, theta2d)).
//
// AD note: every product is written variable-first (a factor that depends on
// q, qdot or z comes before the parameters), e.g. `q[0] * p[m] * p[g]`, not
// `p[m] * p[g] * q[0]`. Eigen's AutoDiffScalar gives a constant an empty
// derivative vector and resizes it only when it meets a plain derivative
// vector; a constant-by-constant subexpression keeps an unevaluated size-0
// derivative that is never resized, and combining it with a variable reads
// out of bounds (Eigen's size assertion in debug builds; a crash in AD2).
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

namespace nhs {
namespace {

enum Param { m, R, A, B, a, g };

/// The description of docs/studies.md `coaxial-discs` for
/// describe<S, CoaxialDiscs>: n = 5, r = 3, m = 2. Generic over the
/// evaluation type T (S, AD1<S>, AD2<S>) except the chart (S only).
struct CoaxialDiscs {
  static constexpr int n = 5;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "coaxial-discs",
            .title = "two co-axial rolling discs on a common axle, on an incline, linear constraints",
            .source = "001 §9.3",
            .coordinates = {"x", "y", "theta1", "theta2", "psi"},
            .parameters = {{"m", "1", "mass of each disc"},
                           {"R", "1", "radius of each disc"},
                           {"A", "0.5", "moment of inertia of each disc about the axle"},
                           {"B", "0.25", "moment of inertia of each disc about a diameter"},
                           {"a", "2", "distance between the disc centres"},
                           {"g", "0", "incline field along +x (on both centres)"}},
            .constraint_names = {"C1", "C2", "C3"},
            .quasi_velocities = {"theta1d", "theta2d"},
            .linear_constraints = true,
            .dependent_velocities = {0, 1, 4}};  // x, y, psi dependent on (theta1d, theta2d)
  }
  /// T = m (xd^2 + yd^2) + A/2 (theta1d^2 + theta2d^2) + (m a^2/2 + B) psid^2
  ///     + m a psid (xd cos psi + yd sin psi) (001 §9.3); q, qd size 5.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    return (qd[0] * qd[0] + qd[1] * qd[1]) * p[m] +
           (qd[2] * qd[2] + qd[3] * qd[3]) * half * p[A] +
           qd[4] * qd[4] * half * p[m] * p[a] * p[a] + qd[4] * qd[4] * p[B] +
           qd[4] * (qd[0] * cos(q[4]) + qd[1] * sin(q[4])) * p[m] * p[a];
  }
  /// V(q) = -m g x - m g (x + a sin psi): incline along +x on both centres;
  /// q size 5.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    using std::sin;
    return -(q[0] * p[m] * p[g]) - (q[0] + sin(q[4]) * p[a]) * p[m] * p[g];
  }
  /// C = (xd - R cos(psi) theta1d, yd - R sin(psi) theta1d,
  ///      psid - (R/a)(theta2d - theta1d)) (001 eqs. 9.11-9.12); C size 3.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[0] - cos(q[4]) * qd[2] * p[R];
    C[1] = qd[1] - sin(q[4]) * qd[2] * p[R];
    C[2] = qd[4] - (qd[3] - qd[2]) * p[R] / p[a];
  }
  /// qdot = psi(q, z) = (R cos(psi) z1, R sin(psi) z1, z1, z2, (R/a)(z2 - z1))
  /// (001 eq. 9.12 in q's order, docs/errata.md); z size 2, qd size 5.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = cos(q[4]) * z[0] * p[R];
    qd[1] = sin(q[4]) * z[0] * p[R];
    qd[2] = z[0];
    qd[3] = z[1];
    qd[4] = (z[1] - z[0]) * p[R] / p[a];
  }
  /// Inverse chart z = (theta1d, theta2d); z size 2.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    (void)q;
    z[0] = qd[2];
    z[1] = qd[3];
  }
  /// The bodies (bodies.hpp): the two discs, mass m each, centres (x, y, R)
  /// and (x + a sin psi, y - a cos psi, R) (so the axle is
  /// u = (-sin psi, cos psi, 0), from centre 2 to centre 1; rolling reads
  /// v_Gk = R omega_k x e_z); omega_k = thetakd u + psid e_z; central inertia A
  /// about u, B about every diameter; space frame. Their energies sum to T
  /// (001 §9.3: each disc contributes B psid^2 / 2).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    using std::cos;
    using std::sin;
    T ux = -sin(q[4]), uy = cos(q[4]), uz = ratio<T>(0);
    Vector3<T> u;
    u << ux, uy, uz;
    for (int k = 0; k < 2; ++k) {
      T wx = qd[2 + k] * ux, wy = qd[2 + k] * uy;
      Vector3<T> omega;
      omega << wx, wy, qd[4];
      T cx = q[0], cy = q[1];
      if (k == 1) {
        cx = q[0] - ux * p[a];
        cy = q[1] - uy * p[a];
      }
      out.add_rigid_body(p[m], space_position(cx, cy, p[R]), omega,
                         axisymmetric_inertia(u, p[A], p[B]));
    }
  }
};

// docs/special-motions.md coaxial-discs: m = 1.3, R = 0.7, A = 0.4, B = 0.15,
// a = 1.6; q0 = (0.2, -0.4, 0.3, -1.1, 0.5), z0 = (1.2, 0.4), so
// psid = Omega = (R/a)(z20 - z10) = -0.35 throughout.
//   g = 0: z constant, theta_k = theta_k0 + z_k t, psi = psi0 + Omega t,
//     x = x0 + (R z1/Omega)(sin psi - sin psi0), y = y0 - (R z1/Omega)(cos psi - cos psi0)
//     (disc 1's centre on a circle of radius |a z1/(z2 - z1)|).
//   g = 2.5: with c = m g R/(A + m R^2), zdot_1 = zdot_2 = c cos psi, so
//     z_k = z_k0 + c (sin psi - sin psi0)/Omega,
//     theta_k = theta_k0 + z_k0 t - (c/Omega)((cos psi - cos psi0)/Omega + sin psi0 t),
//     x + i y = x0 + i y0 + K0 (e^{i psi} - e^{i psi0})/(i Omega)
//               + (R c/Omega)/(2i) [(e^{2i psi} - e^{2i psi0})/(2i Omega) - t],
//     K0 = R (z10 - c sin psi0/Omega); in real form
//     x = x0 + K0 (sin psi - sin psi0)/Omega - (R c/Omega)(cos 2psi - cos 2psi0)/(4 Omega),
//     y = y0 - K0 (cos psi - cos psi0)/Omega + (R c/Omega)(t/2 - (sin 2psi - sin 2psi0)/(4 Omega)).
// Regular always (linear constraints of full rank, positive definite metric).
template <class S>
SpecialMotion<S> discs_motion(const std::string& g_text) {
  const S mass = from_string<S>("1.3"), rad = from_string<S>("0.7");
  const S a_in = from_string<S>("0.4"), b_in = from_string<S>("0.15");
  const S dist = from_string<S>("1.6"), gr = from_string<S>(g_text);
  const S x0 = from_string<S>("0.2"), y0 = from_string<S>("-0.4");
  const S th10 = from_string<S>("0.3"), th20 = from_string<S>("-1.1"), ps0 = from_string<S>("0.5");
  const S z10 = from_string<S>("1.2"), z20 = from_string<S>("0.4");
  const S om = rad / dist * (z20 - z10);
  const S c = mass * gr * rad / (a_in + mass * rad * rad);
  SpecialMotion<S> mo;
  mo.name = gr == 0 ? "no forces (circular orbit)" : "incline g = " + g_text;
  mo.source = "docs/special-motions.md coaxial-discs";
  mo.parameters = {mass, rad, a_in, b_in, dist, gr};
  Vec<S> q0(5);
  q0 << x0, y0, th10, th20, ps0;
  mo.initial = state_from_chart(describe<S, CoaxialDiscs>(mo.parameters), q0, {z10, z20});
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    const S ps = ps0 + om * t;
    const S lift_z = c * (sin(ps) - sin(ps0)) / om;  // z_k - z_k0
    const S lift_th = -(c / om) * ((cos(ps) - cos(ps0)) / om + sin(ps0) * t);  // its integral
    const S z1 = z10 + lift_z, z2 = z20 + lift_z;
    const S K0 = rad * (z10 - c * sin(ps0) / om);
    const S drift = rad * c / om;
    const S x = x0 + K0 * (sin(ps) - sin(ps0)) / om -
                drift * (cos(S(2) * ps) - cos(S(2) * ps0)) / (S(4) * om);
    const S y = y0 - K0 * (cos(ps) - cos(ps0)) / om +
                drift * (t / S(2) - (sin(S(2) * ps) - sin(S(2) * ps0)) / (S(4) * om));
    Vec<S> q(5), qd(5);
    q << x, y, th10 + z10 * t + lift_th, th20 + z20 * t + lift_th, ps;
    qd << rad * cos(ps) * z1, rad * sin(ps) * z1, z1, z2, om;
    return State<S>{q, qd};
  };
  return mo;
}

}  // namespace

/// The `coaxial-discs` study (001 §9.3): system, default state (q = 0,
/// z = (1, 1/2)), the invariants psid and theta2d - theta1d (both conserved
/// for any g), the special motions "no forces (circular orbit)" and
/// "incline g = 2.5" (t in [0, 20]) and random states from the chart.
template <class S>
Study<S> coaxial_discs_study() {
  Study<S> st = study_of<S, CoaxialDiscs>();
  st.default_state = [](const System<S>& sys) {
    return state_from_chart<S>(sys, Vec<S>(Vec<S>::Zero(5)), {S(1), S(1) / S(2)});
  };
  st.invariants = [](const System<S>&) {
    std::vector<Invariant<S>> inv;
    // psid = (R/a)(z2 - z1) and z2 - z1 are constant for any g: on the
    // incline zdot_1 = zdot_2 (docs/errata.md, corrected §9.3 system).
    inv.push_back({"psi_dot", [](const Vec<S>&, const Vec<S>& qd) { return qd[4]; }, true});
    inv.push_back(
        {"z2_minus_z1", [](const Vec<S>&, const Vec<S>& qd) { return qd[3] - qd[2]; }, true});
    return inv;
  };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{discs_motion<S>("0"), discs_motion<S>("2.5")};
  };
  return st;
}

#define NHS_COAXIAL_DISCS_(S, NAME) template Study<S> coaxial_discs_study<S>();
NHS_FOR_EACH_SCALAR(NHS_COAXIAL_DISCS_)

TracedStudy coaxial_discs_traced() { return traced_study_of<CoaxialDiscs>(); }

}  // namespace nhs
