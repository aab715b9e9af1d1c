// The contact of a sphere (sphere_on_plane.hpp) with a horizontal table
// that turns about the vertical axis through the origin
// (docs/affine-constraints.md, T1): the contact point of the sphere moves
// with the table, v - R e_z x omega = Omega e_z x r. Shared by the studies
// turntable-ball (Omega a parameter) and spinup-turntable-ball (Omega =
// Omega0 + alpha tau, tau the clock coordinate).
//
// AD note: every product is written variable-first, as in
// sphere_on_plane.hpp; `table` may be a parameter or depend on q.
#pragma once

#include "nhs/scalar.hpp"

#include <cmath>

namespace nhs {

/// The rolling constraints on a table turning at the angular velocity
/// `table` (rad per unit time; T1):
///   C[0] = xd - R (thetad sin phi - psid sin theta cos phi) + Omega y,
///   C[1] = yd + R (thetad cos phi + psid sin theta sin phi) - Omega x,
/// affine in qdot (a0 = Omega (y, -x)). q, qd: at least the sphere's five
/// coordinates (phi, theta, psi, x, y), in that order; writes C[0], C[1].
template <class T>
void turntable_contact(const T& radius, const T& table, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
  using std::cos;
  using std::sin;
  C[0] = qd[3] - qd[1] * sin(q[0]) * radius + qd[2] * sin(q[1]) * cos(q[0]) * radius + q[4] * table;
  C[1] = qd[4] + qd[1] * cos(q[0]) * radius + qd[2] * sin(q[1]) * sin(q[0]) * radius - q[3] * table;
}

/// The rolling constraints solved for the centre's velocity, with the chart
/// z = (phid, thetad, psid):
///   qd = (z1, z2, z3, R (z2 sin phi - z3 sin theta cos phi) - Omega y,
///         -R (z2 cos phi + z3 sin theta sin phi) + Omega x),
/// affine in z. z size 3; writes qd[0..4].
template <class T>
void turntable_parametrization(const T& radius, const T& table, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
  using std::cos;
  using std::sin;
  qd[0] = z[0];
  qd[1] = z[1];
  qd[2] = z[2];
  qd[3] = (z[1] * sin(q[0]) - z[2] * sin(q[1]) * cos(q[0])) * radius - q[4] * table;
  qd[4] = q[3] * table - (z[1] * cos(q[0]) + z[2] * sin(q[1]) * sin(q[0])) * radius;
}

}  // namespace nhs
