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
#include "nhs/studies/traced.hpp"

#include <cmath>
#include <stdexcept>

namespace nhs {
namespace {

enum Param { m, R };

/// The description of docs/studies.md `rolling-sphere` for
/// describe<S, RollingSphere>: n = 5, r = 2, m = 3. Every function is
/// generic over the evaluation type T (S, AD1<S>, AD2<S>) except the chart
/// (S only).
struct RollingSphere {
  static constexpr int n = 5;  // coordinates: derivations in fixed-size AD
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
  /// T = m/2 (xd^2 + yd^2) + (m R^2/5)(phid^2 + thetad^2 + psid^2
  /// + 2 phid psid cos theta) (002 eq. 3); q, qd size 5.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    T half = ratio<T>(1, 2);   // not const: Eigen's make_coherent resizes its derivatives
    T fifth = ratio<T>(1, 5);  // likewise
    T two = ratio<T>(2);       // likewise
    const T rot = qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2] + qd[0] * qd[2] * cos(q[1]) * two;
    return (qd[3] * qd[3] + qd[4] * qd[4]) * half * p[m] + rot * fifth * p[m] * p[R] * p[R];
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
  /// Inverse chart z = (phid, thetad, psid); z size 3.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    (void)q;
    z[0] = qd[0];
    z[1] = qd[1];
    z[2] = qd[2];
  }
  /// The study's own singular set: the Euler-angle chart, singular where
  /// sin theta = 0 (det g is proportional to sin^2 theta).
  template <class S>
  static std::vector<Margin<S>> singular_margins(const Params<S>&, const Vec<S>& q,
                                                 const Vec<S>&) {
    using std::abs;
    using std::sin;
    return {{"margin_sin_theta", abs(sin(q[1])),
             "Euler-angle chart singular (sin theta = 0: phi and psi turn about one axis)"}};
  }
  /// The bodies (bodies.hpp): the homogeneous sphere, mass m, centre
  /// (x, y, R); omega in space components from the Euler rates (z-x-z):
  /// (thetad cos phi + psid sin theta sin phi, thetad sin phi - psid sin theta
  /// cos phi, phid + psid cos theta); J = (2/5) m R^2 1 (isotropic, so the
  /// same in every frame).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    using std::cos;
    using std::sin;
    T wx = qd[1] * cos(q[0]) + qd[2] * sin(q[1]) * sin(q[0]);
    T wy = qd[1] * sin(q[0]) - qd[2] * sin(q[1]) * cos(q[0]);
    T wz = qd[0] + qd[2] * cos(q[1]);
    Vector3<T> omega;
    omega << wx, wy, wz;
    T moment = p[m] * p[R];
    moment = moment * p[R];
    moment = moment * ratio<T>(2, 5);
    T zero = ratio<T>(0);
    Matrix3<T> J;
    J << moment, zero, zero, zero, moment, zero, zero, zero, moment;
    out.add_rigid_body(p[m], space_position(q[3], q[4], p[R]), omega, J);
  }
};

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;

/// The space components of the angular velocity (docs/special-motions.md
/// rolling-sphere): omega_x = thetad cos phi + psid sin theta sin phi,
/// omega_y = thetad sin phi - psid sin theta cos phi, omega_z = phid + psid
/// cos theta; q, qd size 5.
template <class S>
Vec3<S> space_angular_velocity(const Vec<S>& q, const Vec<S>& qd) {
  using std::cos;
  using std::sin;
  Vec3<S> w;
  w << qd[1] * cos(q[0]) + qd[2] * sin(q[1]) * sin(q[0]),
      qd[1] * sin(q[0]) - qd[2] * sin(q[1]) * cos(q[0]), qd[0] + qd[2] * cos(q[1]);
  return w;
}

/// The Euler-angle rates (phid, thetad, psid) for the space angular velocity
/// w at angles phi, theta (the inverse of space_angular_velocity):
/// thetad = w . (cos phi, sin phi, 0), psid sin theta = w . (sin phi,
/// -cos phi, 0), phid = w_z - psid cos theta. Needs sin theta != 0.
template <class S>
Vec3<S> euler_rates(const Vec3<S>& w, const S& phi, const S& theta) {
  using std::cos;
  using std::sin;
  const S cp = cos(phi), sp = sin(phi);
  const S psid = (w[0] * sp - w[1] * cp) / sin(theta);
  Vec3<S> rates;
  rates << w[2] - psid * cos(theta), w[0] * cp + w[1] * sp, psid;
  return rates;
}

template <class S>
Mat3<S> rot_z(const S& a) {
  using std::cos;
  using std::sin;
  Mat3<S> r;
  r << cos(a), -sin(a), S(0), sin(a), cos(a), S(0), S(0), S(0), S(1);
  return r;
}

template <class S>
Mat3<S> rot_x(const S& a) {
  using std::cos;
  using std::sin;
  Mat3<S> r;
  r << S(1), S(0), S(0), S(0), cos(a), -sin(a), S(0), sin(a), cos(a);
  return r;
}

/// The z-x-z Euler angles (phi, theta, psi) of a rotation matrix
/// Rm = Rz(phi) Rx(theta) Rz(psi), with theta in [0, pi]:
/// cos theta = R33, (R13, R23) = sin theta (sin phi, -cos phi),
/// (R31, R32) = sin theta (sin psi, cos psi). phi and psi are taken on the
/// branch (the 2 pi multiple) nearest to `near`'s. Needs sin theta != 0.
template <class S>
Vec3<S> euler_zxz(const Mat3<S>& Rm, const Vec3<S>& near, const S& two_pi) {
  using std::atan2;
  using std::round;
  using std::sqrt;
  const S theta = atan2(sqrt(Rm(0, 2) * Rm(0, 2) + Rm(1, 2) * Rm(1, 2)), Rm(2, 2));
  const S phi = atan2(Rm(0, 2), -Rm(1, 2));
  const S psi = atan2(Rm(2, 0), Rm(2, 1));
  Vec3<S> a;
  a << phi + two_pi * round((near[0] - phi) / two_pi), theta,
      psi + two_pi * round((near[2] - psi) / two_pi);
  return a;
}

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
  using std::abs;
  using std::acos;
  using std::ceil;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S mass = from_string<S>("1.3"), rad = from_string<S>("0.6");
  const S phi0 = from_string<S>("0.3"), theta0 = from_string<S>("1.0"),
          psi0 = from_string<S>("-0.4");
  const S x0 = from_string<S>("0.2"), y0 = from_string<S>("-0.1");
  const S phid0 = S(0), thetad0 = from_string<S>("0.36"), psid0 = from_string<S>("1.2");
  SpecialMotion<S> mo;
  mo.name = "constant angular velocity";
  mo.source = "docs/special-motions.md rolling-sphere";
  mo.parameters = {mass, rad};
  Vec<S> q0(5);
  q0 << phi0, theta0, psi0, x0, y0;
  mo.initial =
      state_from_chart(describe<S, RollingSphere>(mo.parameters), q0, {phid0, thetad0, psid0});
  mo.t_end = S(20);

  const Vec3<S> w = space_angular_velocity<S>(mo.initial.q, mo.initial.qdot);
  const S wn = sqrt(w.squaredNorm());
  Mat3<S> K;  // [omega]x
  K << S(0), -w[2], w[1], w[2], S(0), -w[0], -w[1], w[0], S(0);
  const Mat3<S> K2 = K * K;
  const Mat3<S> rot0 = rot_z(phi0) * rot_x(theta0) * rot_z(psi0);
  const S two_pi = S(2) * acos(S(-1));
  const S max_step = S(1) / S(4);
  Vec3<S> angles0;
  angles0 << phi0, theta0, psi0;

  mo.exact = [=](const S& t) {
    // Rot(s) = (I + sin(|w| s)/|w| K + (1 - cos(|w| s))/|w|^2 K^2) Rot0.
    const auto rotation = [&](const S& s) {
      const Mat3<S> e =
          Mat3<S>::Identity() + K * (sin(wn * s) / wn) + K2 * ((S(1) - cos(wn * s)) / (wn * wn));
      return Mat3<S>(e * rot0);
    };
    const int steps = static_cast<int>(ceil(abs(t) / max_step));
    Vec3<S> a = euler_zxz<S>(rotation(S(0)), angles0, two_pi);
    S t_prev = 0;
    for (int k = 1; k <= steps; ++k) {
      const S tk = k == steps ? t : t * S(k) / S(steps);
      const Vec3<S> predicted = a + euler_rates<S>(w, a[0], a[1]) * (tk - t_prev);
      a = euler_zxz<S>(rotation(tk), predicted, two_pi);
      const S miss = (a - predicted).cwiseAbs().maxCoeff();
      if (!(miss <= S(1) / S(2)))
        throw std::logic_error("rolling-sphere closed form: angle unwrapping step too coarse at t = " +
                               to_string<S>(tk));
      t_prev = tk;
    }
    const Vec3<S> rates = euler_rates<S>(w, a[0], a[1]);
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
  st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
    using std::abs;
    using std::sin;
    const S floor = S(1) / S(5);
    for (;;) {
      State<S> s = random_state_from_chart(sys, rng);
      if (abs(sin(s.q[1])) >= floor) return s;
    }
  };
  return st;
}

#define NHS_ROLLING_SPHERE_(S, NAME) template Study<S> rolling_sphere_study<S>();
NHS_FOR_EACH_SCALAR(NHS_ROLLING_SPHERE_)

TracedStudy rolling_sphere_traced() { return traced_study_of<RollingSphere>(); }

}  // namespace nhs
