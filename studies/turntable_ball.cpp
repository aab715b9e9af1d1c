// A ball on a turntable (docs/affine-constraints.md; Lewis & Murray 1995,
// Bloch 2003 §1.7, Neimark & Fufaev 1972 ch. II): a homogeneous sphere of
// mass m and radius R rolling without sliding on a horizontal table that
// turns at the constant angular velocity Omega about the vertical axis
// through the origin; no forces. q = (phi, theta, psi, x, y) as in
// rolling-sphere (sphere_on_plane.hpp). The contact point of the ball moves
// with the table, v - R e_z x omega = Omega e_z x r, which reads
//   C1 = xd - R (thetad sin phi - psid sin theta cos phi) + Omega y = 0
//   C2 = yd + R (thetad cos phi + psid sin theta sin phi) - Omega x = 0:
// affine in qdot (A(q) qdot + a0(q) with a0 = Omega (y, -x)), so the
// reaction does work (-lambda_a a0^a) and T is not conserved; the Jacobi
// integral T - Omega L_z is. Voronec solves them for the centre's
// velocity, (xd, yd) = a(q) (phid, thetad, psid) + a0(q) (affine split,
// A6-A7); the discrete Lagrange-d'Alembert integrator and the naive
// reduced Lagrangian need A(q) qdot = 0 and do not apply
// (info.affine_constraints, not linear_constraints).
//
// The centre moves on a circle at the angular velocity nu = 2 Omega / 7
// (a = nu J v, J the rotation by +pi/2), about c = r + J v / nu; the
// invariants v - nu J r (so the circle's centre and radius) follow from the
// initial state. The metric is singular where sin theta = 0, as for
// rolling-sphere; random states keep |sin theta| >= 1/5.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/sphere_on_plane.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/studies/turntable.hpp"

#include <cmath>

namespace nhs {
namespace {

enum Param { m, R, Omega };

/// The description of docs/studies.md `turntable-ball` for
/// describe<S, TurntableBall>: n = 5, r = 2, m = 3. T, the bodies, the
/// chart and the Euler-angle margin are the sphere's (sphere_on_plane.hpp).
/// Every function is generic over the evaluation type T (S, AD1<S>, AD2<S>,
/// the tracing scalar) except the chart (S only).
struct TurntableBall : SphereOnPlane {
  static SystemInfo info() {
    return {.name = "turntable-ball",
            .title = "homogeneous ball rolling on a uniformly rotating turntable (Euler angles), affine constraints",
            .source = "docs/affine-constraints.md",
            .coordinates = {"phi", "theta", "psi", "x", "y"},
            .parameters = {{"m", "1", "mass"}, {"R", "1", "radius"}, {"Omega", "1", "angular velocity of the table"}},
            .constraint_names = {"C1", "C2"},
            .quasi_velocities = {"phid", "thetad", "psid"},
            .affine_constraints = true,
            .dependent_velocities = {3, 4}};
  }
  /// C1 = xd - R (thetad sin phi - psid sin theta cos phi) + Omega y,
  /// C2 = yd + R (thetad cos phi + psid sin theta sin phi) - Omega x
  /// (docs/affine-constraints.md eq. T1: the contact point moves with the
  /// table); C size 2.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    turntable_contact(p[R], p[Omega], q, qd, C);
  }
  /// qdot = psi(q, z) = (z1, z2, z3, R (z2 sin phi - z3 sin theta cos phi)
  /// - Omega y, -R (z2 cos phi + z3 sin theta sin phi) + Omega x), z =
  /// (phid, thetad, psid): affine in z; z size 3, qd size 5.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    turntable_parametrization(p[R], p[Omega], q, z, qd);
  }
};

// docs/special-motions.md turntable-ball: m = 1.3, R = 0.6, Omega = 1.4
// (nu = 2 Omega / 7 = 0.4), (phi, theta, psi) = (0.3, 1.0, -0.4), r0 =
// (x, y) = (0.5, -0.2), omega_z = -0.6, on the orbit centred on the axis:
//   v0 = nu J r0,  omega0 = ((5/7)(Omega/R) r0, omega_z).
// Then r(t) = Rz(nu t) r0, v = nu J r, omega(t) = Rz(nu t) omega0, and the
// attitude is Rot(t) = Rz(nu t) exp(t [omega0 - nu e_z]x) Rot0. In the frame
// turning at nu the body z axis sweeps a cone about omega0 - nu e_z, so
// theta(t) stays in [0.79, 2.26] (|sin theta| >= 0.71) for all t; the
// attitude's period there is 2 pi / |omega0 - nu e_z| = 4.68, the centre's
// 2 pi / nu = 15.7, and t_end = 20 covers more than one turn. Angles from
// the matrix on the branch that continues the initial ones
// (follow_euler_zxz: the Euler-angle rates stay below 2 along this motion);
// qdot(t): the Euler-angle rates of omega(t), and v(t).
template <class S>
SpecialMotion<S> centred_orbit_motion() {
  const S mass = from_string<S>("1.3"), rad = from_string<S>("0.6"), table = from_string<S>("1.4");
  const S nu = S(2) * table / S(7);
  const S phi0 = from_string<S>("0.3"), theta0 = from_string<S>("1.0"), psi0 = from_string<S>("-0.4");
  const S x0 = from_string<S>("0.5"), y0 = from_string<S>("-0.2"), omega_z = from_string<S>("-0.6");
  SpecialMotion<S> mo;
  mo.name = "orbit centred on the axis";
  mo.source = "docs/special-motions.md turntable-ball";
  mo.parameters = {mass, rad, table};
  Vector3<S> omega0;
  omega0 << S(5) * table * x0 / (S(7) * rad), S(5) * table * y0 / (S(7) * rad), omega_z;
  const Vector3<S> rates0 = euler_rates<S>(omega0, phi0, theta0);
  Vec<S> q0(5);
  q0 << phi0, theta0, psi0, x0, y0;
  mo.initial = state_from_chart(describe<S, TurntableBall>(mo.parameters), q0, {rates0[0], rates0[1], rates0[2]});
  mo.t_end = S(20);

  const Matrix3<S> rot0 = rot_z(phi0) * rot_x(theta0) * rot_z(psi0);
  Vector3<S> body_rate = omega0;  // omega0 - nu e_z: the attitude's rate in the frame turning at nu
  body_rate[2] -= nu;
  Vector3<S> angles0;
  angles0 << phi0, theta0, psi0;
  mo.exact = [=](const S& t) {
    const auto rotation = [&](const S& s) { return Matrix3<S>(rot_z(nu * s) * rotation_exp<S>(body_rate, s) * rot0); };
    const auto omega = [&](const S& s) { return Vector3<S>(rot_z(nu * s) * omega0); };
    const Vector3<S> a = follow_euler_zxz<S>(rotation, omega, angles0, t, "turntable-ball");
    const Vector3<S> rates = euler_rates<S>(omega(t), a[0], a[1]);
    const Matrix3<S> turn = rot_z(nu * t);
    const S x = turn(0, 0) * x0 + turn(0, 1) * y0, y = turn(1, 0) * x0 + turn(1, 1) * y0;
    Vec<S> q(5), qd(5);
    q << a[0], a[1], a[2], x, y;
    qd << rates[0], rates[1], rates[2], -(nu * y), nu * x;
    return State<S>{q, qd};
  };
  return mo;
}

/// The invariants of docs/affine-constraints.md, all conserved: the
/// circle's u = xd + nu y and w = yd - nu x (v - nu J r: the centre's
/// velocity turns at nu about c = r + J v / nu), omega_z (the reaction is
/// horizontal and acts at the contact point below the centre) and the
/// Jacobi integral T - Omega L_z, L_z = m (x yd - y xd) + (2/5) m R^2
/// omega_z.
template <class S>
std::vector<Invariant<S>> turntable_invariants(const System<S>& sys) {
  const S mass = sys.parameters[m], rad = sys.parameters[R], table = sys.parameters[Omega];
  const S nu = S(2) * table / S(7);
  std::vector<Invariant<S>> inv;
  inv.push_back({"circle_u", [nu](const Vec<S>& q, const Vec<S>& qd) { return S(qd[3] + nu * q[4]); }, true});
  inv.push_back({"circle_w", [nu](const Vec<S>& q, const Vec<S>& qd) { return S(qd[4] - nu * q[3]); }, true});
  inv.push_back({"omega_z", [](const Vec<S>& q, const Vec<S>& qd) { return space_angular_velocity<S>(q, qd)[2]; },
                 true});
  // T = m/2 |v|^2 + (1/5) m R^2 |omega|^2 (the sphere's J = (2/5) m R^2 1).
  inv.push_back({"jacobi",
                 [=](const Vec<S>& q, const Vec<S>& qd) {
                   const Vector3<S> w = space_angular_velocity<S>(q, qd);
                   const S T = mass * (qd[3] * qd[3] + qd[4] * qd[4]) / S(2) + mass * rad * rad * w.squaredNorm() / S(5);
                   const S Lz = mass * (q[3] * qd[4] - q[4] * qd[3]) + S(2) * mass * rad * rad * w[2] / S(5);
                   return S(T - table * Lz);
                 },
                 true});
  return inv;
}

}  // namespace

/// The `turntable-ball` study (docs/affine-constraints.md): system, default
/// state (q = (0, 1, 0, 0, 0), z = (1, 1/2, 1/4)), the invariants circle_u,
/// circle_w, omega_z and jacobi (turntable_invariants), energy not
/// conserved (the reaction of an affine constraint does work), the special
/// motion "orbit centred on the axis" (t in [0, 20]) and random states from
/// the chart redrawn while |sin theta| < 1/5.
template <class S>
Study<S> turntable_ball_study() {
  Study<S> st = study_of<S, TurntableBall>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(Vec<S>::Zero(5));
    q[1] = S(1);
    return state_from_chart<S>(sys, q, {S(1), S(1) / S(2), S(1) / S(4)});
  };
  st.invariants = [](const System<S>& sys) { return turntable_invariants<S>(sys); };
  st.conserves_energy = [](const System<S>& sys) { return sys.parameters[Omega] == 0; };
  st.special_motions = [] { return std::vector<SpecialMotion<S>>{centred_orbit_motion<S>()}; };
  st.random_state = random_sphere_state<S>;
  return st;
}

#define NHS_TURNTABLE_BALL_(S, NAME) template Study<S> turntable_ball_study<S>();
NHS_FOR_EACH_SCALAR(NHS_TURNTABLE_BALL_)

TracedStudy turntable_ball_traced() { return traced_study_of<TurntableBall>(); }

}  // namespace nhs
