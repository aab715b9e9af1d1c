// A ball on a turntable that spins up (docs/affine-constraints.md,
// "A table whose angular velocity changes"): the homogeneous sphere of
// turntable-ball (mass m, radius R, rolling without sliding, no forces) on
// a table whose angular velocity grows linearly in time,
//   Omega(t) = Omega0 + alpha t.
// The library's systems are autonomous; time enters as the clock
// coordinate tau with the affine constraint tau_dot - 1 = 0 (docs/
// affine-constraints.md, "Time as a coordinate"), so tau = t along a motion
// that starts at tau = 0. q = (phi, theta, psi, x, y, tau): the sphere's
// five (sphere_on_plane.hpp), then the clock. Constraints (T1 with Omega
// replaced by Omega(tau); turntable.hpp):
//   C1 = xd - R (thetad sin phi - psid sin theta cos phi) + Omega(tau) y,
//   C2 = yd + R (thetad cos phi + psid sin theta sin phi) - Omega(tau) x,
//   C3 = taud - 1,
// all affine in qdot. T is the sphere's plus the clock's m/2 taud^2: with no
// cross term in taud and taud = 1 on C, the clock's term changes nothing in
// the sphere's equations (its reaction, on tau alone, absorbs it) and keeps
// g regular. Voronec solves them for (xd, yd, taud) (affine split, A6-A7,
// with a0_tau = 1); the discrete integrator and the naive reduced
// Lagrangian need A(q) qdot = 0 and do not apply (info.affine_constraints).
//
// For every Omega(t), v - (2/7) Omega(t) J r is conserved (the centre's
// acceleration is (2/7) J d/dt(Omega r)), and omega_z is: the invariants
// circle_u, circle_w and omega_z. Energy is not conserved, and with alpha
// != 0 there is no Jacobi integral. The metric is singular where
// sin theta = 0; random states keep |sin theta| >= 1/5.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/sphere_on_plane.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/studies/turntable.hpp"

#include <cmath>

namespace nhs {
namespace {

enum Param { m, R, Omega0, alpha };

/// The description of docs/studies.md `spinup-turntable-ball` for
/// describe<S, SpinupTurntableBall>: n = 6, r = 3, m = 3. The sphere's
/// T, bodies, chart and Euler-angle margin (sphere_on_plane.hpp) read the
/// first five coordinates; the clock adds m/2 taud^2 to T and a point of
/// mass m at (tau, 0, 0) to the bodies. Every function is generic over the
/// evaluation type T (S, AD1<S>, AD2<S>, the tracing scalar) except the
/// chart (S only).
struct SpinupTurntableBall : SphereOnPlane {
  static constexpr int n = 6;
  static SystemInfo info() {
    return {.name = "spinup-turntable-ball",
            .title = "homogeneous ball rolling on a turntable spun up at a constant rate, Omega = Omega0 + alpha t "
                     "(Euler angles, clock coordinate tau), affine constraints",
            .source = "docs/affine-constraints.md",
            .coordinates = {"phi", "theta", "psi", "x", "y", "tau"},
            .parameters = {{"m", "1", "mass"},
                           {"R", "1", "radius"},
                           {"Omega0", "1", "angular velocity of the table at t = 0"},
                           {"alpha", "0.5", "angular acceleration of the table"}},
            .constraint_names = {"C1", "C2", "C3"},
            .quasi_velocities = {"phid", "thetad", "psid"},
            .affine_constraints = true,
            .clock_coordinate = 5,
            .dependent_velocities = {3, 4, 5}};
  }
  /// T = the sphere's T (SphereOnPlane) + m/2 taud^2; q, qd size 6.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    return SphereOnPlane::kinetic_energy(p, q, qd) + qd[5] * qd[5] * half * p[m];
  }
  /// The sphere, and the clock as a point of mass m at (tau, 0, 0).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    SphereOnPlane::bodies(p, q, qd, out);
    const T zero = ratio<T>(0);
    out.add_point(p[m], space_position(q[5], zero, zero));
  }
  /// C1, C2 of turntable_contact with Omega = Omega0 + alpha tau, and
  /// C3 = taud - 1; C size 3.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    const T table = q[5] * p[alpha] + p[Omega0];
    turntable_contact(p[R], table, q, qd, C);
    C[2] = qd[5] - ratio<T>(1);
  }
  /// qdot = psi(q, z): turntable_parametrization with Omega = Omega0 +
  /// alpha tau, and taud = 1; z = (phid, thetad, psid) size 3, qd size 6.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    const T table = q[5] * p[alpha] + p[Omega0];
    turntable_parametrization(p[R], table, q, z, qd);
    qd[5] = ratio<T>(1);
  }
};

// docs/special-motions.md spinup-turntable-ball: m = 1.3, R = 0.6,
// Omega0 = 1.4, alpha = 0.1, (phi, theta, psi) = (1.0, 1.6, -0.4), r0 =
// (0.5, -0.2), tau0 = 0, on the orbit centred on the axis with omega_z = 0:
//   v0 = (2/7) Omega0 J r0,  omega0 = ((5/7)(Omega0/R) r0, 0).
// With Phi(t) = Omega0 t + alpha t^2/2 and beta = (2/7) Phi: r(t) =
// Rz(beta) r0, v = (2/7) Omega(t) J r, omega(t) = (5/7)(Omega(t)/R) Rz(beta)
// r0, and the attitude is Rot(t) = Rz(beta) exp(Phi [n]x) Rot0 with the
// constant n = ((5/7) r0/R, -2/7): in the frame turning by beta the ball
// turns about the fixed axis n at the rate Omega(t) |n|. Along [0, 10]
// (Omega from 1.4 to 2.4, the centre turns by 5.4 rad) |sin theta| stays
// above 0.66 (sampled on 4000 points). Angles from the matrix on the
// branch that continues the initial ones (follow_euler_zxz).
template <class S>
SpecialMotion<S> spinup_centred_orbit_motion() {
  const S mass = from_string<S>("1.3"), rad = from_string<S>("0.6");
  const S table0 = from_string<S>("1.4"), accel = from_string<S>("0.1");
  const S phi0 = from_string<S>("1.0"), theta0 = from_string<S>("1.6"), psi0 = from_string<S>("-0.4");
  const S x0 = from_string<S>("0.5"), y0 = from_string<S>("-0.2");
  SpecialMotion<S> mo;
  mo.name = "orbit centred on the axis, table spinning up";
  mo.source = "docs/special-motions.md spinup-turntable-ball";
  mo.parameters = {mass, rad, table0, accel};
  const auto table = [=](const S& t) { return S(table0 + accel * t); };
  const auto turned = [=](const S& t) { return S(table0 * t + accel * t * t / S(2)); };  // Phi(t)
  Vector3<S> r0;
  r0 << x0, y0, S(0);
  Vector3<S> axis;  // n
  axis << S(5) * x0 / (S(7) * rad), S(5) * y0 / (S(7) * rad), S(-2) / S(7);
  const auto omega = [=](const S& t) {
    return Vector3<S>(rot_z<S>(S(2) * turned(t) / S(7)) * r0 * (S(5) * table(t) / (S(7) * rad)));
  };
  const Vector3<S> rates0 = euler_rates<S>(omega(S(0)), phi0, theta0);
  Vec<S> q0(6);
  q0 << phi0, theta0, psi0, x0, y0, S(0);
  mo.initial =
      state_from_chart(describe<S, SpinupTurntableBall>(mo.parameters), q0, {rates0[0], rates0[1], rates0[2]});
  mo.t_end = S(10);
  const Matrix3<S> rot0 = rot_z(phi0) * rot_x(theta0) * rot_z(psi0);
  Vector3<S> angles0;
  angles0 << phi0, theta0, psi0;
  mo.exact = [=](const S& t) {
    // exp(Phi [n]x) = rotation_exp(n, Phi).
    const auto rotation = [&](const S& s) {
      return Matrix3<S>(rot_z<S>(S(2) * turned(s) / S(7)) * rotation_exp<S>(axis, turned(s)) * rot0);
    };
    const Vector3<S> a = follow_euler_zxz<S>(rotation, omega, angles0, t, "spinup-turntable-ball");
    const Vector3<S> rates = euler_rates<S>(omega(t), a[0], a[1]);
    const Vector3<S> r = rot_z<S>(S(2) * turned(t) / S(7)) * r0;
    const S nu = S(2) * table(t) / S(7);
    Vec<S> q(6), qd(6);
    q << a[0], a[1], a[2], r[0], r[1], t;
    qd << rates[0], rates[1], rates[2], -(nu * r[1]), nu * r[0], S(1);
    return State<S>{q, qd};
  };
  return mo;
}

/// The invariants of docs/affine-constraints.md for a table spinning up,
/// all conserved: circle_u = xd + (2/7) Omega(tau) y and circle_w = yd -
/// (2/7) Omega(tau) x (v - (2/7) Omega J r), and omega_z.
template <class S>
std::vector<Invariant<S>> spinup_invariants(const System<S>& sys) {
  const S table0 = sys.parameters[Omega0], accel = sys.parameters[alpha];
  const auto nu = [=](const Vec<S>& q) { return S(S(2) * (table0 + accel * q[5]) / S(7)); };
  std::vector<Invariant<S>> inv;
  inv.push_back({"circle_u", [nu](const Vec<S>& q, const Vec<S>& qd) { return S(qd[3] + nu(q) * q[4]); }, true});
  inv.push_back({"circle_w", [nu](const Vec<S>& q, const Vec<S>& qd) { return S(qd[4] - nu(q) * q[3]); }, true});
  inv.push_back({"omega_z", [](const Vec<S>& q, const Vec<S>& qd) { return space_angular_velocity<S>(q, qd)[2]; },
                 true});
  return inv;
}

}  // namespace

/// The `spinup-turntable-ball` study (docs/affine-constraints.md): system,
/// default state (q = (0, 1, 0, 0, 0, 0), z = (1, 1/2, 1/4)), the
/// invariants circle_u, circle_w and omega_z (spinup_invariants), energy
/// not conserved, the special motion "orbit centred on the axis, table
/// spinning up" (t in [0, 10]) and random states from the chart redrawn
/// while |sin theta| < 1/5.
template <class S>
Study<S> spinup_turntable_ball_study() {
  Study<S> st = study_of<S, SpinupTurntableBall>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(Vec<S>::Zero(6));
    q[1] = S(1);
    return state_from_chart<S>(sys, q, {S(1), S(1) / S(2), S(1) / S(4)});
  };
  st.invariants = [](const System<S>& sys) { return spinup_invariants<S>(sys); };
  // A table at rest for all t (Omega0 = alpha = 0) does no work; otherwise it does.
  st.conserves_energy = [](const System<S>& sys) {
    return sys.parameter("Omega0") == 0 && sys.parameter("alpha") == 0;
  };
  st.special_motions = [] { return std::vector<SpecialMotion<S>>{spinup_centred_orbit_motion<S>()}; };
  st.random_state = random_sphere_state<S>;
  return st;
}

#define NHS_SPINUP_TURNTABLE_BALL_(S, NAME) template Study<S> spinup_turntable_ball_study<S>();
NHS_FOR_EACH_SCALAR(NHS_SPINUP_TURNTABLE_BALL_)

TracedStudy spinup_turntable_ball_traced() { return traced_study_of<SpinupTurntableBall>(); }

}  // namespace nhs
