// The bodies a system is made of: an optional part of a system description
// (system.hpp), needed by the Gibbs-Appell equations, whose Appellian
// S = 1/2 sum_nu m_nu a_nu^2 is defined from the bodies' accelerations
// (001 eqs. 3.3, 5.3; 000 eq. 67), not from T.
//
// A description that provides
//   template <class T>
//   static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out);
// appends its point masses and rigid bodies to `out` (which arrives empty)
// at the state (q, qdot), in the evaluation type T (S, or AD2<S> when
// gibbs_appell.hpp differentiates them). Every body is a function of the
// state only, with:
//   - positions r_nu(q), r_G(q) depending on q alone (scleronomic: no t, no
//     qdot; checked, UsageError otherwise), in 3-space (size 3) or in the
//     plane (size 2);
//   - angular velocity omega(q, qdot) and inertia tensor J(q) about the
//     centre of mass G, both in the SPACE frame (fixed axes), so that
//     J = Rot J_body Rot^T depends on q through the attitude, and the time
//     derivative of omega's components is the angular acceleration epsilon.
//     (A body-fixed frame with constant J would also do; a frame that turns
//     otherwise, e.g. with a heading angle only, would not: there
//     d/dt of omega's components is not epsilon.)
// Masses and J enter only by their values; positions and omega are
// differentiated (twice for positions) by automatic differentiation.
//
// The same rules as for the rest of a description apply (system.hpp): write
// constants with ratio<T>(num, den), never double literals; call functions
// unqualified after `using std::sin;`; write products variable-first and
// keep intermediate results in named T variables, so that Eigen's
// AutoDiffScalar sizes every derivative vector (see rolling_disc.cpp).
//
// With these, sum 1/2 m v^2 + sum (1/2 M v_G^2 + 1/2 omega . J omega) must be
// the system's kinetic energy T(q, qdot); tests/test_gibbs_appell.cpp checks
// it for every study.
#pragma once

#include "nhs/autodiff.hpp"

#include <utility>
#include <vector>

namespace nhs {

template <class T>
using Vector3 = Eigen::Matrix<T, 3, 1>;
template <class T>
using Matrix3 = Eigen::Matrix<T, 3, 3>;

/// A material point (P_nu, m_nu) (001 §3).
template <class T>
struct PointMass {
  T mass;          ///< m_nu
  Vec<T> position; ///< r_nu(q), size 2 (plane) or 3
};

/// A rigid body: mass, centre of mass, angular velocity and central inertia
/// tensor, all in the space frame (see the file comment).
template <class T>
struct RigidBody {
  T mass;             ///< M
  Vec<T> centre;      ///< r_G(q), size 2 (plane) or 3
  Vector3<T> omega;   ///< angular velocity omega(q, qdot), space frame
  Matrix3<T> inertia; ///< J about G, space frame, J(q); symmetric
};

/// The bodies of a system at one state, as a description fills them in.
template <class T>
struct Bodies {
  std::vector<PointMass<T>> points;
  std::vector<RigidBody<T>> rigid_bodies;

  /// Appends a point mass m at r(q) (size 2 or 3).
  void add_point(const T& mass, Vec<T> position) {
    points.push_back({mass, std::move(position)});
  }
  /// Appends a rigid body: mass M, centre r_G(q), omega and J (space frame).
  void add_rigid_body(const T& mass, Vec<T> centre, const Vector3<T>& omega,
                      const Matrix3<T>& inertia) {
    rigid_bodies.push_back({mass, std::move(centre), omega, inertia});
  }
  /// Appends a body moving in the plane and turning about the fixed normal
  /// e_z with angular velocity omega_z and moment of inertia I_z about the
  /// normal through G: omega = (0, 0, omega_z), J = diag(0, 0, I_z). The
  /// in-plane moments never meet omega or epsilon (both along e_z) and do
  /// not enter T or S, so they are left 0.
  void add_planar_body(const T& mass, Vec<T> centre, const T& omega_z, const T& inertia_z) {
    const T zero = ratio<T>(0);
    Vector3<T> omega;
    omega << zero, zero, omega_z;
    Matrix3<T> J;
    J << zero, zero, zero, zero, zero, zero, zero, zero, inertia_z;
    add_rigid_body(mass, std::move(centre), omega, J);
  }
};

/// (x, y) as a position in the plane.
template <class T>
Vec<T> plane_position(const T& x, const T& y) {
  Vec<T> r(2);
  r << x, y;
  return r;
}

/// (x, y, z) as a position in 3-space.
template <class T>
Vec<T> space_position(const T& x, const T& y, const T& z) {
  Vec<T> r(3);
  r << x, y, z;
  return r;
}

/// The central inertia tensor of a body symmetric about the unit axis u:
/// J = transverse 1 + (axial - transverse) u u^T (moment `axial` about u,
/// `transverse` about every axis through G orthogonal to u).
template <class T>
Matrix3<T> axisymmetric_inertia(const Vector3<T>& u, const T& axial, const T& transverse) {
  Vector3<T> v = u;  // local copies: Eigen's make_coherent may resize their derivatives
  T across = transverse;
  T difference = axial - across;
  Matrix3<T> J;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      T entry = v[i] * v[j];
      entry = entry * difference;
      if (i == j) entry = entry + across;
      J(i, j) = entry;
    }
  return J;
}

}  // namespace nhs
