// ctest-labels: unit
// The kinematics of frames and rolling contacts (nhs/rigid_frames.hpp,
// nhs/rolling_contact.hpp), each checked against an independent route:
//   - omega of a product of elementary rotations against the axial vector of
//     R' R^T, with R' by automatic differentiation of R itself;
//   - each surface's contact point against the lowest point found by
//     another way: a sampled and refined search over the rim (disc), over
//     the tube (torus), and the closed form min_{x in E} up . x = -h(u) with
//     the point on the ellipsoid's boundary;
//   - the normal component of the contact's material velocity against the
//     time derivative of the contact's height (the velocity form of the
//     holonomic contact condition: it must not be a constraint of its own);
//   - a body carried rigidly by a turntable has zero no-slip residuals.
// Fixed seeds only.
#include "nhs/autodiff.hpp"
#include "nhs/rigid_frames.hpp"
#include "nhs/rolling_contact.hpp"

#include <Eigen/LU>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace nhs::frames {
namespace {

using A = AD1<double>;  // one derivative: d/ds along a motion s -> q(s)

A along(double value, double rate) { return A(value, Vec<double>::Constant(1, rate)); }
double value(const A& a) { return a.value(); }
double rate(const A& a) { return a.derivatives().size() ? a.derivatives()(0) : 0.0; }

Matrix3<double> values(const Matrix3<A>& m) { return m.unaryExpr([](const A& a) { return value(a); }); }
Matrix3<double> rates(const Matrix3<A>& m) { return m.unaryExpr([](const A& a) { return rate(a); }); }
Vector3<double> values(const Vector3<A>& v) { return v.unaryExpr([](const A& a) { return value(a); }); }
Vector3<double> rates(const Vector3<A>& v) { return v.unaryExpr([](const A& a) { return rate(a); }); }

/// k elementary rotations with random axes, angles and rates, as AD numbers
/// (value e, derivative e') and as the rotations placement() takes.
std::vector<ElementaryRotation<A>> random_rotations(std::mt19937& rng, int k) {
  std::uniform_real_distribution<double> angle(-3.0, 3.0), rate_of(-2.0, 2.0);
  std::uniform_int_distribution<int> axis(0, 2);
  std::vector<ElementaryRotation<A>> r;
  for (int i = 0; i < k; ++i) {
    const double e = angle(rng), de = rate_of(rng);
    r.push_back({static_cast<Axis>(axis(rng)), along(e, de), along(de, 0.0)});
  }
  return r;
}

TEST(RigidFrames, ElementaryRotationsAreRightHandedAndComposeBodyFixed) {
  const double a = 0.7;
  const Vector3<double> ex = elementary_rotation(Axis::z, a) * unit<double>(Axis::x);
  EXPECT_NEAR(ex(0), std::cos(a), 1e-16);
  EXPECT_NEAR(ex(1), std::sin(a), 1e-16);  // Rz turns x towards y
  const Vector3<double> ey = elementary_rotation(Axis::x, a) * unit<double>(Axis::y);
  EXPECT_NEAR(ey(2), std::sin(a), 1e-16);  // Rx turns y towards z
  const Vector3<double> ez = elementary_rotation(Axis::y, a) * unit<double>(Axis::z);
  EXPECT_NEAR(ez(0), std::sin(a), 1e-16);  // Ry turns z towards x
  // [Rz(psi), Rx(phi), Ry(theta)] is R = Rz(psi) Rx(phi) Ry(theta).
  const std::vector<ElementaryRotation<double>> r{{Axis::z, 0.3, 0}, {Axis::x, -1.1, 0}, {Axis::y, 2.0, 0}};
  const Matrix3<double> R = placement(r, Vector3<double>::Zero()).rotation;
  const Matrix3<double> expected =
      elementary_rotation(Axis::z, 0.3) * elementary_rotation(Axis::x, -1.1) * elementary_rotation(Axis::y, 2.0);
  EXPECT_LT((R - expected).norm(), 1e-15);
  EXPECT_LT((R.transpose() * R - Matrix3<double>::Identity()).norm(), 1e-15);
  EXPECT_NEAR(R.determinant(), 1.0, 1e-15);
}

TEST(RigidFrames, OmegaIsTheAxialVectorOfRdotRtranspose) {
  std::mt19937 rng(59);
  for (int trial = 0; trial < 200; ++trial) {
    const auto rotations = random_rotations(rng, 1 + trial % 5);
    const Placement<A> p = placement(rotations, Vector3<A>::Zero());
    const Matrix3<double> R = values(p.rotation), Rdot = rates(p.rotation);
    const Vector3<double> omega = values(p.omega);
    const Vector3<double> reference = axial<double>(Rdot * R.transpose());
    EXPECT_LT((omega - reference).norm(), 1e-13 * (1 + reference.norm())) << "trial " << trial;
    // In the frame's own components: the axial vector of R^T R'.
    const Vector3<double> body = axial<double>(R.transpose() * Rdot);
    EXPECT_LT((values(p.omega_body) - body).norm(), 1e-13 * (1 + body.norm())) << "trial " << trial;
    // R' R^T is skew: its symmetric part vanishes (R stays a rotation).
    EXPECT_LT((Rdot * R.transpose() + R * Rdot.transpose()).norm(), 1e-13) << "trial " << trial;
  }
}

TEST(RigidFrames, ComposedFramesAddAngularVelocitiesAndCarryOrigins) {
  std::mt19937 rng(60);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    Vector3<A> o1, o2;
    for (int i = 0; i < 3; ++i) {
      o1(i) = along(u(rng), u(rng));
      o2(i) = along(u(rng), u(rng));
    }
    const Placement<A> parent = placement(random_rotations(rng, 3), o1);
    const Placement<A> child = compose(parent, placement(random_rotations(rng, 2), o2));
    const Matrix3<double> R = values(child.rotation), Rdot = rates(child.rotation);
    EXPECT_LT((values(child.omega) - axial<double>(Rdot * R.transpose())).norm(), 1e-13) << "trial " << trial;
    EXPECT_LT((values(child.omega_body) - axial<double>(R.transpose() * Rdot)).norm(), 1e-13) << "trial " << trial;
    // The origin is a point of the parent: its velocity is the parent's
    // material velocity at it plus R_parent o2'.
    const Vector3<double> expected =
        material_velocity(values(parent.origin), rates(parent.origin), values(parent.omega), values(child.origin)) +
        values(parent.rotation) * rates(o2);
    EXPECT_LT((rates(child.origin) - expected).norm(), 1e-13) << "trial " << trial;
  }
}

/// The minimum over [0, 2 pi) of f, sampled then refined by golden section.
template <class F>
double minimum_over_circle(const F& f, int samples = 720) {
  const double two_pi = 2 * std::acos(-1.0);
  int best = 0;
  for (int i = 1; i < samples; ++i)
    if (f(two_pi * i / samples) < f(two_pi * best / samples)) best = i;
  double a = two_pi * (best - 1) / samples, b = two_pi * (best + 1) / samples;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 200; ++it) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (f(c) < f(d))
      b = d;
    else
      a = c;
  }
  return f((a + b) / 2);
}

/// A random unit vector and a unit vector in a random direction for `up`.
Vector3<double> random_unit(std::mt19937& rng) {
  std::normal_distribution<double> n;
  Vector3<double> v(n(rng), n(rng), n(rng));
  return v / v.norm();
}

TEST(RollingContact, DiscAndTorusContactsAreTheLowestPoints) {
  std::mt19937 rng(61);
  for (int trial = 0; trial < 100; ++trial) {
    const Vector3<double> up = trial % 2 ? random_unit(rng) : Vector3<double>::UnitZ();
    const Vector3<double> axis = random_unit(rng), centre = random_unit(rng) * 2.0;
    const double rho = 0.5 + trial * 0.01, r = 0.1;
    // Two unit vectors spanning the disc's plane.
    const Vector3<double> e1 = axis.unitOrthogonal(), e2 = axis.cross(e1);
    const auto rim = [&](double t) { return centre + rho * (std::cos(t) * e1 + std::sin(t) * e2); };
    const double lowest_rim = minimum_over_circle([&](double t) { return up.dot(rim(t)); });
    const ContactPoint<double> disc = disc_contact(centre, axis, rho, up);
    EXPECT_NEAR(up.dot(disc.point), lowest_rim, 1e-12) << "trial " << trial;
    EXPECT_NEAR((disc.point - centre).norm(), rho, 1e-12);     // on the rim
    EXPECT_NEAR((disc.point - centre).dot(axis), 0.0, 1e-12);  // in the disc's plane
    EXPECT_NEAR(disc.margin, axis.cross(up).norm(), 1e-14);    // |sin beta|
    // The torus: over the tube at each rim angle the lowest point is r below
    // the tube centre's height when the outer normal can point down.
    if (trial % 4) continue;  // the nested search costs 0.2 million evaluations
    const ContactPoint<double> torus = torus_contact(centre, axis, rho, r, up);
    const double lowest_tube = minimum_over_circle([&](double t) {
      const Vector3<double> radial = (rim(t) - centre) / rho;
      return minimum_over_circle([&](double s) {
        return up.dot(rim(t) + r * (std::cos(s) * radial + std::sin(s) * axis));
      }, 36);
    });
    EXPECT_NEAR(up.dot(torus.point), lowest_tube, 1e-10) << "trial " << trial;
  }
}

TEST(RollingContact, EllipsoidContactIsOnTheSurfaceAtTheSupportHeight) {
  std::mt19937 rng(62);
  std::uniform_real_distribution<double> axis_length(0.2, 3.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3<double> semi(axis_length(rng), axis_length(rng), axis_length(rng));
    const double angles[3] = {0.3 * trial, 1.0 - 0.02 * trial, -0.7 + 0.05 * trial};
    std::vector<ElementaryRotation<double>> r;
    for (int i = 0; i < 3; ++i) r.push_back({static_cast<Axis>(i), angles[i], 0.0});
    const Placement<double> body = placement(r, Vector3<double>(0.1, -0.4, 1.3));
    const Vector3<double> up = trial % 2 ? random_unit(rng) : Vector3<double>::UnitZ();
    const auto gradient = [&](const Vector3<double>& u) { return ellipsoid_support_gradient(semi, u); };
    const ContactPoint<double> c = support_contact(body, gradient, up);
    // In the body frame the point is on the boundary x^T A^-1 x = 1.
    const Vector3<double> x = body.rotation.transpose() * (c.point - body.origin);
    EXPECT_NEAR(x.cwiseQuotient(semi).squaredNorm(), 1.0, 1e-13) << "trial " << trial;
    // The lowest height over the ellipsoid: min_s (R^T up) . diag(semi) s over
    // unit s is -|diag(semi) R^T up|.
    const Vector3<double> v = semi.cwiseProduct(body.rotation.transpose() * up);
    EXPECT_NEAR(up.dot(c.point), up.dot(body.origin) - v.norm(), 1e-13) << "trial " << trial;
  }
}

/// A motion of a body: orientation Rz(psi) Rx(phi) Ry(theta) and the centre
/// moving, as AD numbers of s (value and rate).
Placement<A> moving_body(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<ElementaryRotation<A>> r;
  for (Axis axis : {Axis::z, Axis::x, Axis::y}) {
    const double de = 2 * u(rng);
    r.push_back({axis, along(1.5 * u(rng), de), along(de, 0.0)});
  }
  return placement(r, Vector3<A>(along(u(rng), u(rng)), along(u(rng), u(rng)), along(1 + u(rng), u(rng))));
}

TEST(RollingContact, TheNormalSlipIsTheRateOfTheContactHeight) {
  std::mt19937 rng(63);
  const Vector3<A> up = Vector3<A>::UnitZ();
  for (int trial = 0; trial < 100; ++trial) {
    const Placement<A> body = moving_body(rng);
    const Vector3<A> axis = body.rotation * unit<A>(Axis::y);
    const Vector3<A> semi(A(0.5), A(1.2), A(0.3));
    const auto gradient = [&](const Vector3<A>& u) { return ellipsoid_support_gradient(semi, u); };
    for (const ContactPoint<A>& c :
         {disc_contact(body.origin, axis, A(0.7), up), torus_contact(body.origin, axis, A(0.7), A(0.05), up),
          sphere_contact(body.origin, A(0.4), up), support_contact(body, gradient, up)}) {
      const Vector3<double> v = material_velocity(values(body.origin), rates(body.origin), values(body.omega),
                                                  values(c.point));
      EXPECT_NEAR(v.dot(values(up)), rate(up.dot(c.point)), 1e-12) << "trial " << trial;
    }
  }
}

TEST(RollingContact, ABodyCarriedByATurntableDoesNotSlip) {
  std::mt19937 rng(64);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vector3<double> up = Vector3<double>::UnitZ(), t1 = Vector3<double>::UnitX(), t2 = Vector3<double>::UnitY();
  for (int trial = 0; trial < 50; ++trial) {
    const double Omega = 2 * u(rng), t = u(rng);
    const Vector3<double> pivot(u(rng), u(rng), 0), rest(u(rng), u(rng), 0.8);
    // The body turns with the table: R = Rz(Omega t) R0, centre carried
    // about the pivot; omega = Omega up.
    const Placement<A> table = placement<A>({{Axis::z, along(Omega * t, Omega), along(Omega, 0)}},
                                            pivot.cast<A>());
    const Placement<A> body = compose(table, placement<A>({{Axis::x, A(0.4), A(0)}}, rest.cast<A>()));
    const Vector3<double> axis = values(body.rotation) * unit<double>(Axis::y);
    const ContactPoint<double> c = disc_contact(values(body.origin), axis, 0.7, up);
    const Vector3<double> v =
        material_velocity(values(body.origin), rates(body.origin), values(body.omega), c.point);
    const auto [s1, s2] = no_slip(v, c.point, up, t1, t2, Omega, pivot);
    EXPECT_NEAR(s1, 0.0, 1e-14) << "trial " << trial;
    EXPECT_NEAR(s2, 0.0, 1e-14) << "trial " << trial;
    // On a fixed plane the same motion slips at the table's speed.
    const auto [f1, f2] = no_slip(v, c.point, up, t1, t2, 0.0, pivot);
    EXPECT_NEAR(std::hypot(f1, f2), std::abs(Omega) * (c.point - pivot).head<2>().norm(), 1e-13);
  }
}

}  // namespace
}  // namespace nhs::frames
