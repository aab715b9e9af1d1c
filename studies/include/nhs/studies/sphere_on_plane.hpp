// A homogeneous sphere on a horizontal plane, in Goldstein's z-x-z Euler
// angles: the kinematics and the mass distribution that the sphere studies
// share (rolling-sphere, 002; turntable-ball, docs/affine-constraints.md),
// and the conversions between a rotation matrix, its Euler angles and the
// Euler-angle rates that their closed forms need.
//
// q = (phi, theta, psi, x, y): the rotation body -> space is
// Rz(phi) Rx(theta) Rz(psi), (x, y) is the centre, at height R. The
// parameters m (mass) and R (radius) are the first two of the study's.
//
// AD note: every product is written variable-first (a factor that depends
// on q, qdot or z comes before the parameters and the ratio<T> constants),
// as in rolling_disc.cpp.
#pragma once

#include "nhs/bodies.hpp"
#include "nhs/scalar.hpp"
#include "nhs/singular_set.hpp"
#include "nhs/system.hpp"
#include "nhs/studies/study.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace nhs {

/// The parts of a sphere description (describe<S, D>) that do not depend on
/// the support: T, the bodies, the chart z = (phid, thetad, psid) and the
/// Euler-angle singular set. A description derives from it and adds its
/// info(), constraints and parametrization. Parameter 0 is m, 1 is R.
struct SphereOnPlane {
  static constexpr int n = 5;  // coordinates: derivations in fixed-size AD
  /// T = m/2 (xd^2 + yd^2) + (m R^2/5)(phid^2 + thetad^2 + psid^2
  /// + 2 phid psid cos theta) (002 eq. 3); q, qd size 5.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    T half = ratio<T>(1, 2);   // not const: Eigen's make_coherent resizes its derivatives
    T fifth = ratio<T>(1, 5);  // likewise
    T two = ratio<T>(2);       // likewise
    const T rot = qd[0] * qd[0] + qd[1] * qd[1] + qd[2] * qd[2] + qd[0] * qd[2] * cos(q[1]) * two;
    return (qd[3] * qd[3] + qd[4] * qd[4]) * half * p[0] + rot * fifth * p[0] * p[1] * p[1];
  }
  /// Inverse chart z = (phid, thetad, psid); z size 3.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>&, const Vec<S>& qd, Vec<S>& z) {
    z[0] = qd[0];
    z[1] = qd[1];
    z[2] = qd[2];
  }
  /// The Euler-angle chart's singular set, sin theta = 0 (det g is
  /// proportional to sin^2 theta).
  template <class S>
  static std::vector<Margin<S>> singular_margins(const Params<S>&, const Vec<S>& q, const Vec<S>&) {
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
    T moment = p[0] * p[1];
    moment = moment * p[1];
    moment = moment * ratio<T>(2, 5);
    T zero = ratio<T>(0);
    Matrix3<T> J;
    J << moment, zero, zero, zero, moment, zero, zero, zero, moment;
    out.add_rigid_body(p[0], space_position(q[3], q[4], p[1]), omega, J);
  }
};

/// The space components of the angular velocity (docs/special-motions.md
/// rolling-sphere): omega_x = thetad cos phi + psid sin theta sin phi,
/// omega_y = thetad sin phi - psid sin theta cos phi, omega_z = phid + psid
/// cos theta; q, qd size 5.
template <class S>
Vector3<S> space_angular_velocity(const Vec<S>& q, const Vec<S>& qd) {
  using std::cos;
  using std::sin;
  Vector3<S> w;
  w << qd[1] * cos(q[0]) + qd[2] * sin(q[1]) * sin(q[0]),
      qd[1] * sin(q[0]) - qd[2] * sin(q[1]) * cos(q[0]), qd[0] + qd[2] * cos(q[1]);
  return w;
}

/// The Euler-angle rates (phid, thetad, psid) for the space angular velocity
/// w at angles phi, theta (the inverse of space_angular_velocity):
/// thetad = w . (cos phi, sin phi, 0), psid sin theta = w . (sin phi,
/// -cos phi, 0), phid = w_z - psid cos theta. Needs sin theta != 0.
template <class S>
Vector3<S> euler_rates(const Vector3<S>& w, const S& phi, const S& theta) {
  using std::cos;
  using std::sin;
  const S cp = cos(phi), sp = sin(phi);
  const S psid = (w[0] * sp - w[1] * cp) / sin(theta);
  Vector3<S> rates;
  rates << w[2] - psid * cos(theta), w[0] * cp + w[1] * sp, psid;
  return rates;
}

/// The rotation by angle a about the z axis (3 x 3).
template <class S>
Matrix3<S> rot_z(const S& a) {
  using std::cos;
  using std::sin;
  Matrix3<S> r;
  r << cos(a), -sin(a), S(0), sin(a), cos(a), S(0), S(0), S(0), S(1);
  return r;
}

/// The rotation by angle a about the x axis (3 x 3).
template <class S>
Matrix3<S> rot_x(const S& a) {
  using std::cos;
  using std::sin;
  Matrix3<S> r;
  r << S(1), S(0), S(0), S(0), cos(a), -sin(a), S(0), sin(a), cos(a);
  return r;
}

/// exp(t [w]x) by Rodrigues' formula: I + sin(|w| t)/|w| K + (1 - cos(|w|
/// t))/|w|^2 K^2 with K = [w]x (the rotation by |w| t about w). Needs w != 0.
template <class S>
Matrix3<S> rotation_exp(const Vector3<S>& w, const S& t) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S wn = sqrt(w.squaredNorm());
  Matrix3<S> K;
  K << S(0), -w[2], w[1], w[2], S(0), -w[0], -w[1], w[0], S(0);
  return Matrix3<S>(Matrix3<S>::Identity() + K * (sin(wn * t) / wn) + (K * K) * ((S(1) - cos(wn * t)) / (wn * wn)));
}

/// The z-x-z Euler angles (phi, theta, psi) of a rotation matrix
/// Rm = Rz(phi) Rx(theta) Rz(psi), with theta in [0, pi]:
/// cos theta = R33, (R13, R23) = sin theta (sin phi, -cos phi),
/// (R31, R32) = sin theta (sin psi, cos psi). phi and psi are taken on the
/// branch (the 2 pi multiple) nearest to `near`'s. Needs sin theta != 0.
template <class S>
Vector3<S> euler_zxz(const Matrix3<S>& Rm, const Vector3<S>& near, const S& two_pi) {
  using std::atan2;
  using std::round;
  using std::sqrt;
  const S theta = atan2(sqrt(Rm(0, 2) * Rm(0, 2) + Rm(1, 2) * Rm(1, 2)), Rm(2, 2));
  const S phi = atan2(Rm(0, 2), -Rm(1, 2));
  const S psi = atan2(Rm(2, 0), Rm(2, 1));
  Vector3<S> a;
  a << phi + two_pi * round((near[0] - phi) / two_pi), theta, psi + two_pi * round((near[2] - psi) / two_pi);
  return a;
}

/// The Euler angles at time t of a closed-form attitude, on the branch that
/// continues `angles0` (the angles at time 0): `rotation(s)` is the matrix
/// at time s and `omega(s)` the space angular velocity. The value at t comes
/// from rotation(t) itself; following the motion from 0 to t in steps of at
/// most 1/4, at each step the branch nearest to the previous angles plus
/// step * euler_rates is taken, so only the 2 pi multiple depends on the
/// stepping. With Euler-angle rates below 2 the prediction misses by
/// O(step^2) (a few 0.01); the branch is ambiguous only at a miss of pi. A
/// miss above 1/2 throws std::logic_error naming `who` and t rather than
/// return a wrong branch. Needs sin theta != 0 along [0, t].
template <class S, class Rotation, class Omega>
Vector3<S> follow_euler_zxz(const Rotation& rotation, const Omega& omega, const Vector3<S>& angles0, const S& t,
                            const std::string& who) {
  using std::abs;
  using std::acos;
  using std::ceil;
  const S two_pi = S(2) * acos(S(-1));
  const S max_step = S(1) / S(4);
  const int steps = static_cast<int>(ceil(abs(t) / max_step));
  Vector3<S> a = euler_zxz<S>(rotation(S(0)), angles0, two_pi);
  S t_prev = 0;
  for (int k = 1; k <= steps; ++k) {
    const S tk = k == steps ? t : t * S(k) / S(steps);
    const Vector3<S> predicted = a + euler_rates<S>(omega(t_prev), a[0], a[1]) * (tk - t_prev);
    a = euler_zxz<S>(rotation(tk), predicted, two_pi);
    const S miss = (a - predicted).cwiseAbs().maxCoeff();
    if (!(miss <= S(1) / S(2)))
      throw std::logic_error(who + " closed form: angle unwrapping step too coarse at t = " + to_string<S>(tk));
    t_prev = tk;
  }
  return a;
}

/// A random state of a sphere study: the standard chart draw
/// (random_state_from_chart), redrawn while |sin theta| < 1/5 (theta =
/// q[1]; the metric is singular at sin theta = 0 and loses digits near it).
template <class S>
State<S> random_sphere_state(const System<S>& sys, std::mt19937_64& rng) {
  using std::abs;
  using std::sin;
  const S floor = S(1) / S(5);
  for (;;) {
    State<S> s = random_state_from_chart(sys, rng);
    if (abs(sin(s.q[1])) >= floor) return s;
  }
}

}  // namespace nhs
