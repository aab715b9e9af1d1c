// Frames of rigid bodies and the contact of a convex surface with a plane:
// the kinematics that a system written as frames, bodies and rolling
// contacts derives (issue 59; docs/bodies.md), written once over the
// evaluation type T: a scalar type of scalar.hpp, an AD type (autodiff.hpp),
// or the tracing scalar codegen::Expr, which records the same operations as
// nodes of a graph (the system-file loader's path).
//
// Conventions (docs/bodies.md, "Conventions"): right-handed frames; an
// orientation is a product of elementary rotations Rx, Ry, Rz applied
// body-fixed (intrinsic) in the order written, R = R_1(e_1) R_2(e_2) ...
// R_k(e_k), as sympy.physics.mechanics' orient_body_fixed; R maps a frame's
// components to its parent's (v_parent = R v_frame). Angular velocities
// are in the space frame.
#pragma once

#include "nhs/bodies.hpp"

#include <Eigen/Geometry>

#include <type_traits>
#include <utility>
#include <vector>

namespace nhs::frames {

/// The axis of an elementary rotation, in the frame it turns.
enum class Axis { x = 0, y = 1, z = 2 };

/// The rotation by `angle` (radians, right-handed) about `axis`:
/// Rx(e) = [[1, 0, 0], [0, cos e, -sin e], [0, sin e, cos e]] and its
/// cyclic permutations. Maps the turned frame's components to the frame it
/// turns in. Source: any text on rigid-body kinematics, e.g. Goldstein,
/// Poole and Safko, Classical Mechanics, 3rd ed. (2002), ch. 4.
template <class T>
Matrix3<T> elementary_rotation(Axis axis, const T& angle) {
  using std::cos;
  using std::sin;
  const T c = cos(angle), s = sin(angle);
  const int i = static_cast<int>(axis), j = (i + 1) % 3, k = (i + 2) % 3;
  Matrix3<T> r = Matrix3<T>::Zero();
  r(i, i) = T(1);
  r(j, j) = c;
  r(k, k) = c;
  r(j, k) = -s;
  r(k, j) = s;
  return r;
}

/// The unit vector along `axis`.
template <class T>
Vector3<T> unit(Axis axis) {
  Vector3<T> e = Vector3<T>::Zero();
  e(static_cast<int>(axis)) = T(1);
  return e;
}

/// One factor of an orientation: the angle e(q, t) and its rate de/dt
/// along the motion (sum_i de/dq^i qdot^i, t being a coordinate when the
/// system is rheonomic).
template <class T>
struct ElementaryRotation {
  Axis axis;
  T angle;
  T rate;
};

/// A frame's placement relative to its parent: R (3 x 3, parent <- frame),
/// the origin's position in the parent's components, and omega, the
/// frame's angular velocity relative to the parent, in the parent's
/// components; omega_body is the same angular velocity in the frame's own
/// components, R^T omega (the axial vector of R^T R'), built by its own
/// recursion so that it needs no product with R (the body-frame angular
/// velocity of the kinetic energy 1/2 Omega . J Omega).
template <class T>
struct Placement {
  Matrix3<T> rotation = Matrix3<T>::Identity();
  Vector3<T> origin = Vector3<T>::Zero();
  Vector3<T> omega = Vector3<T>::Zero();
  Vector3<T> omega_body = Vector3<T>::Zero();
};

/// The placement of R = R_1(e_1) ... R_k(e_k) with origin `origin`:
/// omega = sum_k e_k' (R_1 ... R_{k-1}) a_k, the sum of the elementary
/// rates each along its own axis as it lies after the rotations before it,
/// which is the axial vector of R' R^T (R' = dR/dt). An empty product is
/// the identity. In the frame's own components, Omega_k = E_k^T Omega_{k-1}
/// + e_k' a_k after each factor E_k = R_k(e_k) (Omega_0 = 0), which is
/// R^T omega. Source: the addition of angular velocities of successive
/// rotations (Goldstein, Poole and Safko, Classical Mechanics, 3rd ed.,
/// ch. 4); tests/test_rigid_frames.cpp checks omega against axial(R' R^T)
/// and omega_body against axial(R^T R'), with R' by automatic
/// differentiation.
template <class T>
Placement<T> placement(const std::vector<ElementaryRotation<T>>& rotations, std::type_identity_t<Vector3<T>> origin) {
  Placement<T> p;
  p.origin = std::move(origin);
  for (const ElementaryRotation<T>& r : rotations) {
    const Vector3<T> axis_now = p.rotation * unit<T>(r.axis);
    p.omega += axis_now * r.rate;
    const Matrix3<T> e = elementary_rotation(r.axis, r.angle);
    p.omega_body = (e.transpose() * p.omega_body).eval();
    p.omega_body(static_cast<int>(r.axis)) += r.rate;
    p.rotation = (p.rotation * e).eval();
  }
  return p;
}

/// A frame's placement in space from its parent's (in space) and its own
/// relative to the parent: R = R_parent R_rel, origin = o_parent + R_parent
/// o_rel, omega = omega_parent + R_parent omega_rel (the addition theorem of
/// angular velocities), and in the frame's components omega_body =
/// R_rel^T omega_body_parent + omega_body_rel.
template <class T>
Placement<T> compose(const Placement<T>& parent, const Placement<T>& relative) {
  Placement<T> p;
  p.rotation = parent.rotation * relative.rotation;
  p.origin = parent.origin + parent.rotation * relative.origin;
  p.omega = parent.omega + parent.rotation * relative.omega;
  p.omega_body = relative.rotation.transpose() * parent.omega_body + relative.omega_body;
  return p;
}

/// The axial vector w of a 3 x 3 matrix's skew part, W = (M - M^T)/2 = [w]x:
/// w = (W_32, W_13, W_21). For M = R' R^T of a rotation R, the angular
/// velocity in space.
template <class T>
Vector3<T> axial(const Matrix3<T>& m) {
  return Vector3<T>((m(2, 1) - m(1, 2)) / T(2), (m(0, 2) - m(2, 0)) / T(2), (m(1, 0) - m(0, 1)) / T(2));
}

/// A central inertia tensor given in a frame, in space: R J R^T.
template <class T>
Matrix3<T> inertia_in_space(const Matrix3<T>& rotation, const Matrix3<T>& inertia_in_frame) {
  return rotation * inertia_in_frame * rotation.transpose();
}

}  // namespace nhs::frames
