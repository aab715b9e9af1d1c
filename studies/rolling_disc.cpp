// The vertical rolling disc (001 §9.2; viscous torque as in 004): a disc of
// radius R kept vertical, rolling without sliding on a plane.
// q = (x, y, theta, psi): (x, y) the centre (= contact point), theta the
// rotation about the disc's axis, psi the heading; two linear constraints
// C1 = xd - R cos(psi) thetad, C2 = yd - R sin(psi) thetad (001 eq. 9.2);
// T = m/2 (xd^2 + yd^2) + A/2 thetad^2 + B/2 psid^2 (001 eq. 9.3); incline g
// along +x on the centre (V = -m g x) and the non-conservative torque
// -k thetad on theta. Parametrization z = (thetad, psid) (001 eq. 9.4).
//
// AD note: every product is written variable-first (a factor that depends on
// q, qdot or z comes before the parameters), e.g. `q[0] * p[m] * p[g]`, not
// `p[m] * p[g] * q[0]`. Eigen's AutoDiffScalar gives a constant an empty
// derivative vector and resizes it only when it meets a plain derivative
// vector; a constant-by-constant subexpression keeps an unevaluated size-0
// derivative that is never resized, and combining it with a variable reads
// out of bounds (Eigen's size assertion in debug builds; a crash in AD2).
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

namespace nhs {
namespace {

enum Param { m, R, A, B, g, k };

/// The description of docs/studies.md `rolling-disc` for describe<S, RollingDisc>:
/// n = 4, r = 2, m = 2. Every function is generic over the evaluation type T
/// (S, AD1<S>, AD2<S>) except the chart and the non-conservative force
/// (evaluated in S only).
struct RollingDisc {
  static constexpr int n = 4;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "rolling-disc",
            .title = "vertical rolling disc on an incline, with viscous rolling torque, linear constraints",
            .source = "001 §9.2; 004",
            .coordinates = {"x", "y", "theta", "psi"},
            .parameters = {{"m", "1", "mass"},
                           {"R", "1", "radius"},
                           {"A", "0.5", "moment of inertia about the disc's axis"},
                           {"B", "0.25", "moment of inertia about a diameter"},
                           {"g", "0", "incline field along +x"},
                           {"k", "0", "viscous torque coefficient on theta (torque -k thetad)"}},
            .constraint_names = {"C1", "C2"},
            .quasi_velocities = {"thetad", "psid"},
            .linear_constraints = true,
            .dependent_velocities = {0, 1}};  // x, y dependent: (xd, yd) = R thetad (cos psi, sin psi)
  }
  /// T(q, qdot) = m/2 (xd^2 + yd^2) + A/2 thetad^2 + B/2 psid^2 (001 eq. 9.3);
  /// q, qd size 4.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    return (qd[0] * qd[0] + qd[1] * qd[1]) * half * p[m] + qd[2] * qd[2] * half * p[A] +
           qd[3] * qd[3] * half * p[B];
  }
  /// V(q) = -m g x (incline along +x); q size 4.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    return -(q[0] * p[m] * p[g]);
  }
  /// C = (xd - R cos(psi) thetad, yd - R sin(psi) thetad) (001 eq. 9.2); C size 2.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[0] - cos(q[3]) * qd[2] * p[R];
    C[1] = qd[1] - sin(q[3]) * qd[2] * p[R];
  }
  /// qdot = psi(q, z) = (R cos(psi) z1, R sin(psi) z1, z1, z2) (001 eq. 9.4);
  /// z size 2, qd size 4.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = cos(q[3]) * z[0] * p[R];
    qd[1] = sin(q[3]) * z[0] * p[R];
    qd[2] = z[0];
    qd[3] = z[1];
  }
  /// Inverse chart z = (thetad, psid); z size 2.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    (void)q;
    z[0] = qd[2];
    z[1] = qd[3];
  }
  /// Non-conservative Lagrangian force F = (0, 0, -k thetad, 0) (viscous
  /// rolling torque, 004); F arrives sized 4 and zeroed.
  template <class S>
  static void nonconservative_force(const Params<S>& p, const Vec<S>& q, const Vec<S>& qd,
                                    Vec<S>& F) {
    (void)q;
    F[2] = -p[k] * qd[2];
  }
  /// The bodies (bodies.hpp): the disc, mass m with its centre at (x, y, R);
  /// axle u = (-sin psi, cos psi, 0), the sign for which rolling reads
  /// v_G = R omega x e_z (001 eq. 9.2); omega = thetad u + psid e_z; central
  /// inertia A about u, B about every diameter (001 eq. 9.3); space frame.
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    using std::cos;
    using std::sin;
    T ux = -sin(q[3]), uy = cos(q[3]), uz = ratio<T>(0);
    Vector3<T> u, omega;
    u << ux, uy, uz;
    T wx = qd[2] * ux, wy = qd[2] * uy;
    omega << wx, wy, qd[3];
    out.add_rigid_body(p[m], space_position(q[0], q[1], p[R]), omega,
                       axisymmetric_inertia(u, p[A], p[B]));
  }
};

// docs/special-motions.md rolling-disc: m = 1.1, R = 0.9, A = 0.45, B = 0.2, g = 0,
// q0 = (0.1, 0.3, 0.2, -0.7), thetad0 = 1.5, psid = Omega = 0.8. With
// kappa = k/(m R^2 + A):
//   thetad = thetad0 e^{-kappa t}, theta = theta0 + thetad0 (1 - e^{-kappa t})/kappa,
//   psi = psi0 + Omega t,
//   x + i y = x0 + i y0 + R thetad0 e^{i psi0} (e^{(i Omega - kappa) t} - 1)/(i Omega - kappa),
// a circle of radius R thetad0/Omega for k = 0, a spiral otherwise. Regular
// always; the complex formula is evaluated in real arithmetic.
template <class S>
SpecialMotion<S> disc_motion(const std::string& k_text) {
  const S mass = from_string<S>("1.1"), rad = from_string<S>("0.9");
  const S a_in = from_string<S>("0.45"), b_in = from_string<S>("0.2");
  const S kv = from_string<S>(k_text);
  const S x0 = from_string<S>("0.1"), y0 = from_string<S>("0.3");
  const S th0 = from_string<S>("0.2"), ps0 = from_string<S>("-0.7");
  const S thd0 = from_string<S>("1.5"), om = from_string<S>("0.8");
  const S kappa = kv / (mass * rad * rad + a_in);
  SpecialMotion<S> mo;
  mo.name = kv == 0 ? "circle (k = 0)" : "viscous decay (k = " + k_text + ")";
  mo.source = "docs/special-motions.md rolling-disc";
  mo.parameters = {mass, rad, a_in, b_in, S(0), kv};
  Vec<S> q0(4);
  q0 << x0, y0, th0, ps0;
  mo.initial = state_from_chart(describe<S, RollingDisc>(mo.parameters), q0, {thd0, om});
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::exp;
    using std::sin;
    const S decay = exp(-kappa * t);
    const S thd = thd0 * decay;
    const S th = kappa == 0 ? th0 + thd0 * t : th0 + thd0 * (S(1) - decay) / kappa;
    const S ps = ps0 + om * t;
    // (e^{(i Omega - kappa) t} - 1) = P + i Q; divided by (i Omega - kappa):
    // (P + i Q)(-kappa - i Omega)/(kappa^2 + Omega^2) = U + i W.
    const S P = decay * cos(om * t) - S(1), Q = decay * sin(om * t);
    const S den = kappa * kappa + om * om;
    const S U = (-kappa * P + om * Q) / den, W = (-om * P - kappa * Q) / den;
    // Times R thetad0 e^{i psi0}.
    const S c0 = cos(ps0), s0 = sin(ps0), amp = rad * thd0;
    Vec<S> q(4), qd(4);
    q << x0 + amp * (c0 * U - s0 * W), y0 + amp * (s0 * U + c0 * W), th, ps;
    qd << rad * cos(ps) * thd, rad * sin(ps) * thd, thd, om;
    return State<S>{q, qd};
  };
  return mo;
}

}  // namespace

/// The `rolling-disc` study (001 §9.2, 004): system, default state
/// (q = 0, z = (1, 1/2)), the invariant psid, energy a first integral only
/// when k = 0, the special motions "circle (k = 0)" and "viscous decay
/// (k = 0.8)" (t in [0, 20]) and random states from the chart (q, z uniform
/// in [-1, 1]).
template <class S>
Study<S> rolling_disc_study() {
  Study<S> st = study_of<S, RollingDisc>();
  st.default_state = [](const System<S>& sys) {
    return state_from_chart<S>(sys, Vec<S>(Vec<S>::Zero(4)), {S(1), S(1) / S(2)});
  };
  st.invariants = [](const System<S>&) {
    std::vector<Invariant<S>> inv;
    // psid is constant for any g and k: the reaction (along x, y and theta)
    // and the forces have no component on psi (001 eq. 9.5, A4 = 0).
    inv.push_back({"psi_dot", [](const Vec<S>&, const Vec<S>& qd) { return qd[3]; }, true});
    return inv;
  };
  // T + V is a first integral only without the viscous torque: with k != 0
  // it decreases at the rate k thetad^2.
  st.conserves_energy = [](const System<S>& sys) { return sys.parameter("k") == 0; };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{disc_motion<S>("0"), disc_motion<S>("0.8")};
  };
  return st;
}

#define NHS_ROLLING_DISC_(S, NAME) template Study<S> rolling_disc_study<S>();
NHS_FOR_EACH_SCALAR(NHS_ROLLING_DISC_)

TracedStudy rolling_disc_traced() { return traced_study_of<RollingDisc>(); }

}  // namespace nhs
