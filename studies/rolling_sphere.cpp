// The rolling sphere (002, Lemos 2003): a homogeneous sphere of mass m and
// radius R rolling without sliding on a horizontal plane, no forces.
// q = (phi, theta, psi, x, y): Euler angles in Goldstein's z-x-z convention
// (the rotation body -> space is Rz(phi) Rx(theta) Rz(psi)) and the centre
// (x, y). T = m/2 (xd^2 + yd^2) + (m R^2/5)(phid^2 + thetad^2 + psid^2
// + 2 phid psid cos theta) (002 eq. 3); two linear constraints (002 eq. 2)
//   C1 = xd - R thetad sin phi + R psid sin theta cos phi   (xd = R omega_y)
//   C2 = yd + R thetad cos phi + R psid sin theta sin phi   (yd = -R omega_x)
// solved for the dependent velocities xd, yd (Voronec, 002 eqs. 8, 12).
// Parametrization z = (phid, thetad, psid).
//
// The metric is singular where sin theta = 0 (the Euler-angle chart
// degenerates: phi and psi turn about the same axis); the formulations raise
// SingularState there ("singular metric g" in the second kind, "singular G
// = psi^T g psi" in the first, "accelerations undetermined" in
// Udwadia-Kalaba: the constraints do not fix phidd - psidd), and the study's margin
// margin_sin_theta = |sin theta| lets a run stop before it. Random states
// keep |sin theta| >= 1/5.
//
// AD note: every product is written variable-first (a factor that depends on
// q, qdot or z comes before the parameters and the ratio<T> constants), as in
// rolling_disc.cpp.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/sphere_on_plane.hpp"
#include "nhs/studies/traced.hpp"

#include <cmath>
#include <stdexcept>

namespace nhs {
namespace {

enum Param { m, R };

/// The description of docs/studies.md `rolling-sphere` for
/// describe<S, RollingSphere>: n = 5, r = 2, m = 3. T, the bodies, the chart
/// and the Euler-angle margin are the sphere's (sphere_on_plane.hpp). Every
/// function is generic over the evaluation type T (S, AD1<S>, AD2<S>)
/// except the chart (S only).
struct RollingSphere : SphereOnPlane {
  static SystemInfo info() {
    return {.name = "rolling-sphere",
            .title = "homogeneous sphere rolling on a horizontal plane (Euler angles), linear constraints",
            .source = "002",
            .coordinates = {"phi", "theta", "psi", "x", "y"},
            .parameters = {{"m", "1", "mass"}, {"R", "1", "radius"}},
            .constraint_names = {"C1", "C2"},
            .quasi_velocities = {"phid", "thetad", "psid"},
            .linear_constraints = true,
            .dependent_velocities = {3, 4}};
  }
  /// C1 = xd - R thetad sin phi + R psid sin theta cos phi,
  /// C2 = yd + R thetad cos phi + R psid sin theta sin phi (002 eq. 2); C size 2.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[3] - qd[1] * sin(q[0]) * p[R] + qd[2] * sin(q[1]) * cos(q[0]) * p[R];
    C[1] = qd[4] + qd[1] * cos(q[0]) * p[R] + qd[2] * sin(q[1]) * sin(q[0]) * p[R];
  }
  /// qdot = psi(q, z) = (z1, z2, z3, R (z2 sin phi - z3 sin theta cos phi),
  /// -R (z2 cos phi + z3 sin theta sin phi)), z = (phid, thetad, psid)
  /// (002 eqs. 2, 12: xd = R omega_y, yd = -R omega_x); z size 3, qd size 5.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = z[0];
    qd[1] = z[1];
    qd[2] = z[2];
    qd[3] = (z[1] * sin(q[0]) - z[2] * sin(q[1]) * cos(q[0])) * p[R];
    qd[4] = -((z[1] * cos(q[0]) + z[2] * sin(q[1]) * sin(q[0])) * p[R]);
  }
};

// docs/special-motions.md rolling-sphere: m = 1.3, R = 0.6,
// (phi, theta, psi) = (0.3, 1.0, -0.4), (phid, thetad, psid) = (0, 0.36, 1.2),
// (x, y) = (0.2, -0.1). There is no reaction (002 errata: both multipliers
// are zero), so the sphere moves freely: omega is constant in space (and in
// the body), the centre moves uniformly,
//   Rot(t) = exp(t [omega]x) Rot0,  Rot0 = Rz(phi0) Rx(theta0) Rz(psi0),
//   x = x0 + R omega_y t,  y = y0 - R omega_x t,
// with exp by Rodrigues' formula. The body z axis Rot e3 sweeps a cone of
// half-angle alpha = 0.2915 about omega, whose axis is beta = 1.0266 from
// the vertical; theta(t) therefore stays in [beta - alpha, beta + alpha] =
// [0.735, 1.318] for all t (the motion is periodic with period 2 pi/|omega|
// = 5.015), so |sin theta| >= 0.67 on all of [0, 20] and t_end = 20.
//
// Angles from the matrix: theta = atan2(|(R13, R23)|, R33) in (0, pi) (theta
// stays in (0, pi) here); phi = atan2(R13, -R23) and psi = atan2(R31, R32)
// are unwrapped by following the closed form from 0 to t in steps of at
// most 1/4: at each step the branch nearest to the previous angles plus
// step * (Euler-angle rates) is taken. The rates are bounded by
// |omega| (1 + 1/sin theta) < 3.2 (along this motion they stay below 1.6),
// so an angle moves by less than 0.4 per step and the prediction misses by
// O(step^2) (0.02 at most here, measured; 0.0008 at step 1/20); the branch
// is ambiguous only at a miss of pi. A miss above 1/2 throws
// std::logic_error rather than return a wrong branch. psi winds (2 pi per period: the body
// turns once about omega), phi oscillates in [0.30, 0.99]. The value at t
// comes from the matrix at t itself; the stepping only picks the 2 pi
// multiple. qdot(t): the Euler-angle rates of omega at the angles (see
// euler_rates), xd = R omega_y, yd = -R omega_x.
template <class S>
SpecialMotion<S> constant_omega_motion() {
  const S mass = from_string<S>("1.3"), rad = from_string<S>("0.6");
  const S phi0 = from_string<S>("0.3"), theta0 = from_string<S>("1.0"), psi0 = from_string<S>("-0.4");
  const S x0 = from_string<S>("0.2"), y0 = from_string<S>("-0.1");
  const S phid0 = S(0), thetad0 = from_string<S>("0.36"), psid0 = from_string<S>("1.2");
  SpecialMotion<S> mo;
  mo.name = "constant angular velocity";
  mo.source = "docs/special-motions.md rolling-sphere";
  mo.parameters = {mass, rad};
  Vec<S> q0(5);
  q0 << phi0, theta0, psi0, x0, y0;
  mo.initial = state_from_chart(describe<S, RollingSphere>(mo.parameters), q0, {phid0, thetad0, psid0});
  mo.t_end = S(20);

  const Vector3<S> w = space_angular_velocity<S>(mo.initial.q, mo.initial.qdot);
  const Matrix3<S> rot0 = rot_z(phi0) * rot_x(theta0) * rot_z(psi0);
  Vector3<S> angles0;
  angles0 << phi0, theta0, psi0;
  mo.exact = [=](const S& t) {
    const auto rotation = [&](const S& s) { return Matrix3<S>(rotation_exp<S>(w, s) * rot0); };
    const auto omega = [&](const S&) { return w; };
    const Vector3<S> a = follow_euler_zxz<S>(rotation, omega, angles0, t, "rolling-sphere");
    const Vector3<S> rates = euler_rates<S>(w, a[0], a[1]);
    Vec<S> q(5), qd(5);
    q << a[0], a[1], a[2], x0 + rad * w[1] * t, y0 - rad * w[0] * t;
    qd << rates[0], rates[1], rates[2], rad * w[1], -(rad * w[0]);
    return State<S>{q, qd};
  };
  return mo;
}

}  // namespace

/// The `rolling-sphere` study (002): system, default state (q = (0, 1, 0, 0,
/// 0), z = (1, 1/2, 1/4)), the invariants omega_x, omega_y, omega_z (the
/// space components of the angular velocity, constant: there is no reaction;
/// the centre velocity is constant too but is already the columns x_dot,
/// y_dot), the special motion "constant angular velocity" (t in [0, 20]) and
/// random states from the chart redrawn while |sin theta| < 1/5 (the metric
/// is singular at sin theta = 0).
template <class S>
Study<S> rolling_sphere_study() {
  Study<S> st = study_of<S, RollingSphere>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(Vec<S>::Zero(5));
    q[1] = S(1);
    return state_from_chart<S>(sys, q, {S(1), S(1) / S(2), S(1) / S(4)});
  };
  st.invariants = [](const System<S>&) {
    std::vector<Invariant<S>> inv;
    const char* names[] = {"omega_x", "omega_y", "omega_z"};
    for (int i = 0; i < 3; ++i)
      inv.push_back({names[i],
                     [i](const Vec<S>& q, const Vec<S>& qd) {
                       return space_angular_velocity<S>(q, qd)[i];
                     },
                     true});
    return inv;
  };
  st.special_motions = [] { return std::vector<SpecialMotion<S>>{constant_omega_motion<S>()}; };
  st.random_state = random_sphere_state<S>;
  return st;
}

#define NHS_ROLLING_SPHERE_(S, NAME) template Study<S> rolling_sphere_study<S>();
NHS_FOR_EACH_SCALAR(NHS_ROLLING_SPHERE_)

TracedStudy rolling_sphere_traced() { return traced_study_of<RollingSphere>(); }

}  // namespace nhs
