// z-x-z Euler angles for the sphere tests, written here independently of
// the studies' own helpers (nhs/studies/sphere_on_plane.hpp), so that a
// test does not check a closed form with the code that built it.
// Convention (docs/studies.md): body to space Rz(phi) Rx(theta) Rz(psi),
// q = (phi, theta, psi, ...).
#pragma once

#include "nhs/autodiff.hpp"  // Vec

#include <Eigen/Dense>

#include <cmath>

namespace nhs::test {

template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using M3 = Eigen::Matrix<S, 3, 3>;

/// The rotation by a about e_z.
template <class S>
M3<S> rot_z(const S& a) {
  using std::cos;
  using std::sin;
  M3<S> r;
  r << cos(a), -sin(a), S(0), sin(a), cos(a), S(0), S(0), S(0), S(1);
  return r;
}

/// The rotation by a about e_x.
template <class S>
M3<S> rot_x(const S& a) {
  using std::cos;
  using std::sin;
  M3<S> r;
  r << S(1), S(0), S(0), S(0), cos(a), -sin(a), S(0), sin(a), cos(a);
  return r;
}

/// Body to space, Rz(phi) Rx(theta) Rz(psi), from q's first three entries.
template <class S>
M3<S> attitude(const Vec<S>& q) {
  return rot_z<S>(q[0]) * rot_x<S>(q[1]) * rot_z<S>(q[2]);
}

/// The space angular velocity from the Euler rates (q, qdot: first three
/// entries).
template <class S>
V3<S> space_omega(const Vec<S>& q, const Vec<S>& qd) {
  using std::cos;
  using std::sin;
  V3<S> w;
  w << qd[1] * cos(q[0]) + qd[2] * sin(q[1]) * sin(q[0]), qd[1] * sin(q[0]) - qd[2] * sin(q[1]) * cos(q[0]),
      qd[0] + qd[2] * cos(q[1]);
  return w;
}

}  // namespace nhs::test
