// The contact of a convex surface fixed in a rigid body with a plane, and
// the rolling constraints it gives (issue 59; docs/bodies.md, "Rolling
// contacts"): the contact point, where the surface's outer normal is the
// plane's downward normal -up; the holonomic contact condition, that point
// on the plane; the two no-slip constraints, the material point at the
// contact without velocity along the plane. Written once over the
// evaluation type T (a scalar, an AD type or the tracing codegen::Expr, as
// nhs/rigid_frames.hpp). All vectors are in the space frame; `up` is the
// plane's unit upward normal.
#pragma once

#include "nhs/rigid_frames.hpp"

namespace nhs::frames {

/// A contact point and how far the surface is from the set where it is not
/// unique or not defined: the regularity margin, 1 for a sphere, |sin| of
/// the angle between the disc's axis and the vertical for a disc or torus
/// (0: the disc lies face down and touches along a whole face).
template <class T>
struct ContactPoint {
  Vector3<T> point;
  T margin;
};

/// The lowest point of a sphere of radius rho (> 0) centred at `centre`:
/// centre - rho up. Margin 1 (never singular).
template <class T>
ContactPoint<T> sphere_contact(const Vector3<T>& centre, const T& rho, const Vector3<T>& up) {
  return {centre - up * rho, T(1)};
}

/// The lowest point of a circle of radius rho (> 0), centred at `centre`,
/// in the plane normal to the unit `axis` (a knife-edge disc): with
/// w = up - (up . axis) axis, the rim point centre - rho w/|w|. Margin |w|
/// = |sin beta|, beta the angle between the axis and the vertical; at 0 the
/// disc lies flat and the lowest point is not unique (w/|w| then is 0/0).
/// Source: the rolling disc's contact (O'Reilly, The dynamics of rolling
/// disks and sliding disks, Nonlinear Dyn. 10 (1996) 287-305); derived in
/// docs/bodies.md.
template <class T>
ContactPoint<T> disc_contact(const Vector3<T>& centre, const Vector3<T>& axis, const T& rho,
                             const Vector3<T>& up) {
  using std::sqrt;
  const T along = up.dot(axis);
  const Vector3<T> w = up - axis * along;
  const T norm = sqrt(w.dot(w));
  return {centre - w * (rho / norm), norm};
}

/// The lowest point of a torus: the circle of tube centres of radius rho
/// about `axis` through `centre` (as disc_contact), with a tube (crown)
/// radius r >= 0: the disc's lowest point moved down by r. Only the outer,
/// convex half of the torus can touch a plane below it, and does for
/// r < rho. r = 0 is the knife-edge disc. Source: derived in
/// docs/bodies.md (the outer normal at the tube circle's lowest point is
/// -up, so the surface's lowest point is r below it).
template <class T>
ContactPoint<T> torus_contact(const Vector3<T>& centre, const Vector3<T>& axis, const T& rho, const T& r,
                              const Vector3<T>& up) {
  ContactPoint<T> c = disc_contact(centre, axis, rho, up);
  c.point -= up * r;
  return c;
}

/// The lowest point of a smooth strictly convex body given by the gradient
/// of its support function h (1-homogeneous, in the body frame): at the
/// direction u = -R^T up, the point of the body with outer normal u is
/// grad h(u) (Schneider, Convex Bodies: the Brunn-Minkowski Theory, 2nd
/// ed., CUP 2014, Cor. 1.7.3), in space origin + R grad h(u). `gradient`:
/// (const Vector3<T>& u) -> Vector3<T>, the body-frame grad h. Margin 1:
/// the curvature's margin (the smallest radius of curvature) is the
/// caller's, from h's Hessian (principal_radii).
template <class T, class Gradient>
ContactPoint<T> support_contact(const Placement<T>& body, const Gradient& gradient, const Vector3<T>& up) {
  const Vector3<T> u = -(body.rotation.transpose() * up);
  return {body.origin + body.rotation * gradient(u), T(1)};
}

/// grad h of the ellipsoid with semi-axes (a, b, c) (> 0) along the body
/// frame's axes, h(u) = sqrt(a^2 u_x^2 + b^2 u_y^2 + c^2 u_z^2): grad h(u) =
/// A u / h(u), A = diag(a^2, b^2, c^2). Source: h(u) = sqrt(u^T A u) is the
/// support function of {x : x^T A^-1 x <= 1} (Schneider, §1.7).
template <class T>
Vector3<T> ellipsoid_support_gradient(const Vector3<T>& semi_axes, const Vector3<T>& u) {
  using std::sqrt;
  const Vector3<T> au(semi_axes(0) * semi_axes(0) * u(0), semi_axes(1) * semi_axes(1) * u(1),
                      semi_axes(2) * semi_axes(2) * u(2));
  return au / sqrt(u.dot(au));
}

/// The principal radii of curvature (r_min, r_max) of a smooth convex body
/// at its boundary point with outer unit normal u, from the Hessian H
/// (3 x 3, symmetric) of its 1-homogeneous support function h at u: H u = 0,
/// and the other two eigenvalues of H, those of its restriction to u's
/// orthogonal plane, are the radii (Schneider, Convex Bodies: the
/// Brunn-Minkowski Theory, 2nd ed., CUP 2014, Section 2.5: the radii of
/// curvature as eigenvalues of the differential of grad h). In floating
/// point H u is not exactly 0: its eigenvalue along u is d = u . H u (a
/// rounding residue of the size of eps |h|, which would otherwise enter
/// r_min r_max through H's 2 x 2 minors). With the third eigenvalue d,
/// r_min + r_max = tr H - d and r_min r_max = sigma_2(H) - d (tr H - d),
/// sigma_2 the sum of H's principal 2 x 2 minors; then r_max = (t +
/// sqrt|t^2 - 4 p|)/2 and r_min = p / r_max (the stable root, without t -
/// sqrt's cancellation; the discriminant (r_max - r_min)^2 >= 0 in absolute
/// value against round-off where the radii are equal), with no basis of u's
/// plane. The body is strictly convex and smooth at that point iff r_min >
/// 0: the curvature margin of a rolling support surface (docs/bodies.md).
/// r_max = 0 (both radii 0) gives r_min NaN, which every margin test
/// refuses. Precondition: u is a unit vector (H at a non-unit u scales as
/// 1/|u|).
template <class T>
std::pair<T, T> principal_radii(const Matrix3<T>& H, const Vector3<T>& u) {
  using std::abs;
  using std::sqrt;
  const T along = u.dot(H * u);
  const T trace = H(0, 0) + H(1, 1) + H(2, 2);
  const T sigma2 = (H(0, 0) * H(1, 1) - H(0, 1) * H(1, 0)) + (H(0, 0) * H(2, 2) - H(0, 2) * H(2, 0)) +
                   (H(1, 1) * H(2, 2) - H(1, 2) * H(2, 1));
  const T sum = trace - along, product = sigma2 - along * sum;
  const T r_max = (sum + sqrt(abs(sum * sum - product * 4))) / 2;
  return {product / r_max, r_max};
}

/// The velocity of the body's material point that is at `point` now:
/// v_ref + omega x (point - ref), for a point `ref` of the body moving with
/// v_ref. Source: Euler's velocity formula of a rigid body.
template <class T>
Vector3<T> material_velocity(const Vector3<T>& ref, const Vector3<T>& v_ref, const Vector3<T>& omega,
                             const Vector3<T>& point) {
  return v_ref + omega.cross(point - ref);
}

/// The no-slip constraints of a contact: the components, along the plane's
/// two tangent unit vectors t1, t2, of the contact's material velocity
/// relative to the plane, v_P - v_plane(P), where the plane turns about the
/// vertical through `pivot` at the rate Omega (0 for a fixed plane):
/// v_plane(P) = Omega up x (P - pivot). With Omega(t) != 0 the constraints
/// are affine in qdot. The normal component is the velocity form of the
/// holonomic contact condition up . P = height and is not a constraint of
/// its own (test: tests/test_rigid_frames.cpp). Source: the condition of
/// rolling without slipping (Neimark and Fufaev, Dynamics of Nonholonomic
/// Systems, AMS 1972).
template <class T>
std::pair<T, T> no_slip(const Vector3<T>& v_contact, const Vector3<T>& point, const Vector3<T>& up,
                        const Vector3<T>& t1, const Vector3<T>& t2, const T& Omega, const Vector3<T>& pivot) {
  const Vector3<T> relative = v_contact - up.cross(point - pivot) * Omega;
  return {relative.dot(t1), relative.dot(t2)};
}

}  // namespace nhs::frames
