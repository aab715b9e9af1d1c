// Benenti's non-holonomic bipendulum (000 §13): two points P1 = (x1, y1),
// P2 = (x2, y2) of masses m1, m2 in the plane, whose velocities must be
// normal to lines through a common hidden point P0 = (0, y0) on the y axis
// (each point turns about P0). Eliminating y0 (000 eqs. 74-75) gives the
// non-linear constraint (000 eq. 73)
//   C = x1 x1d y2d - x2 x2d y1d + (y1 - y2) y1d y2d = 0.
// Forces: the incline g along +x on both points (000 eq. 91) and, our
// addition for a second case of separate potentials (eqs. 85-86), a harmonic
// pull k/2 |P_k|^2 towards the origin on each point (default k = 0).
//
// Parametrization (docs/studies.md): z = (y0, w1, w2),
//   x1d = -w1 (y1 - y0), y1d = w1 x1, x2d = -w2 (y2 - y0), y2d = w2 x2.
// Singular states (docs/errata.md on eq. 72): where dC/dqdot vanishes
// (detected generically), and where P0 is undefined: x1 = x2 = 0 (72a) and
// y1d = y2d = 0 (72b, which contains 72c, v1 = v2 = 0). The last two are the
// study's own singular margins.
//
// AD note: see studies/parallel_points.cpp (variable-first products).
#include "nhs/studies/all.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/studies/bipendulum.hpp"
#include "nhs/studies/bipendulum_findings.hpp"

#include "nhs/format.hpp"

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>

namespace nhs {
namespace {

enum Param { m1, m2, g, k };

/// The description of docs/studies.md `bipendulum` for describe<S, Bipendulum>:
/// n = 4, r = 1, m = 3.
struct Bipendulum {
  static constexpr int n = 4;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "bipendulum",
            .title = "Benenti's non-holonomic bipendulum, non-linear constraint (hidden point P0)",
            .source = "000 §13",
            .coordinates = {"x1", "y1", "x2", "y2"},
            .parameters = {{"m1", "1", "mass of P1"},
                           {"m2", "1", "mass of P2"},
                           {"g", "0", "incline field along +x on both points (000 eq. 91)"},
                           {"k", "0",
                            "harmonic pull k/2 |P_k|^2 towards the origin on each point (ours)"}},
            .constraint_names = {"C1"},
            .quasi_velocities = {"y0", "w1", "w2"},
            .linear_constraints = false};
  }
  /// T = m1/2 |v1|^2 + m2/2 |v2|^2; q, qd size 4.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);
    return (qd[0] * qd[0] + qd[1] * qd[1]) * half * p[m1] +
           (qd[2] * qd[2] + qd[3] * qd[3]) * half * p[m2];
  }
  /// V = V1 + V2, V_k = -m_k g x_k + k/2 (x_k^2 + y_k^2); q size 4.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    T half = ratio<T>(1, 2);
    return -(q[0] * p[m1] * p[g]) - q[2] * p[m2] * p[g] +
           (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) * half * p[k];
  }
  /// C = x1 x1d y2d - x2 x2d y1d + (y1 - y2) y1d y2d (000 eq. 73); C size 1.
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    C[0] = q[0] * qd[0] * qd[3] - q[2] * qd[2] * qd[1] + (q[1] - q[3]) * qd[1] * qd[3];
  }
  /// qdot = psi(q, z), z = (y0, w1, w2): each point turns about P0 = (0, y0)
  /// with angular rate w_k (000 eq. 74; docs/studies.md); z size 3, qd size 4.
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    qd[0] = -(z[1] * (q[1] - z[0]));
    qd[1] = z[1] * q[0];
    qd[2] = -(z[2] * (q[3] - z[0]));
    qd[3] = z[2] * q[2];
  }
  /// y0 of the inverse chart (see chart); throws SingularState at
  /// y1d = y2d = 0 (eq. 72b).
  template <class S>
  static S hidden_y0(const Vec<S>& q, const Vec<S>& qd) {
    const S den = qd[1] * qd[1] + qd[3] * qd[3];
    if (den == 0)
      throw SingularState("P0 undefined (000 eq. 72b: y1d = y2d = 0)",
                          "singular state: P0 undefined (000 eq. 72b: y1d = y2d = 0) " +
                              state_context(q, qd));
    return (qd[1] * (q[0] * qd[0] + q[1] * qd[1]) + qd[3] * (q[2] * qd[2] + q[3] * qd[3])) / den;
  }
  /// Inverse chart (000 eq. 75): y0 is where the normals to v1 and v2 meet
  /// the y axis, (P0 - P_k) . v_k = 0, solved in the least-squares sense
  /// y0 = sum_k y_kd (x_k x_kd + y_k y_kd) / sum_k y_kd^2 (both equations
  /// agree on C; this uses whichever is defined); then
  /// w_k = v_k . J(P_k - P0) / |P_k - P0|^2 with J(a, b) = (-b, a).
  /// Throws SingularState("P0 undefined ...") at y1d = y2d = 0 (eq. 72b)
  /// and SingularState("rank loss of dpsi/dz") where P_k = P0 with v_k != 0.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    const S y0 = hidden_y0(q, qd);
    z[0] = y0;
    for (int j = 0; j < 2; ++j) {
      const S x = q[2 * j], dy = q[2 * j + 1] - y0;
      const S vx = qd[2 * j], vy = qd[2 * j + 1];
      const S r2 = x * x + dy * dy;
      if (r2 == 0) {
        if (vx != 0 || vy != 0)
          throw SingularState("rank loss of dpsi/dz",
                              "singular state: rank loss of dpsi/dz (P" + std::to_string(j + 1) +
                                  " = P0 moves: its rate w is undefined) " + state_context(q, qd));
        z[1 + j] = S(0);
      } else {
        z[1 + j] = (vy * x - vx * dy) / r2;
      }
    }
  }
  /// The study's own singular sets (docs/errata.md, eq. 72): P0 undefined
  /// at x1 = x2 = 0 (72a) and at y1d = y2d = 0 (72b, containing 72c).
  template <class S>
  static std::vector<Margin<S>> singular_margins(const Params<S>&, const Vec<S>& q,
                                                 const Vec<S>& qd) {
    using std::abs;
    using std::max;
    return {{"margin_72a", max(abs(q[0]), abs(q[2])), "P0 undefined (000 eq. 72a: x1 = x2 = 0)"},
            {"margin_72b", max(abs(qd[1]), abs(qd[3])),
             "P0 undefined (000 eq. 72b: y1d = y2d = 0)"}};
  }
  /// The bodies (bodies.hpp): point masses m1 at P1 and m2 at P2.
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    (void)qd;
    out.add_point(p[m1], plane_position(q[0], q[1]));
    out.add_point(p[m2], plane_position(q[2], q[3]));
  }
};

template <class S>
S num(const char* text) {
  return from_string<S>(text);
}

// The parameter vector (m1, m2, g, k = 0).
template <class S>
std::vector<S> params(const S& mass1, const S& mass2, const S& gr) {
  return {mass1, mass2, gr, S(0)};
}

// docs/special-motions.md bipendulum (b): P1 = (1, 0.5), P2 = (0.8, 0) at rest,
// P0 = (0, -0.4), w1 = 0.9, m1 = m2 = 1, g = 0. The state is regular
// (|dC/dqdot| = 0.81); lambda = 0 and the motion is P2 at rest with P1 in
// uniform rectilinear motion, not the circle of 000 eq. 89. P1 crosses the
// y axis at t = 1/0.81 = 1.2346, but x2 = 0.8 keeps the state away from eq.
// 72a and dC/dqdot has full rank; there, though, the normal to v1 meets the
// y axis at P1 itself, P1 = P0 moves, and the chart z = (y0, w1, w2) is
// singular (w1 = y1d / x1): the formulations in (q, z) follow the motion
// only before that (t_end = 1.2).
template <class S>
SpecialMotion<S> straight_line_motion(const std::string& t_end_text) {
  const S t_end = from_string<S>(t_end_text);
  SpecialMotion<S> mo;
  mo.name = "v2 = 0 with x2 != 0: P1 on a straight line (not eq. 89's circle), t <= " +
            t_end_text;
  if (t_end > S(1) / from_string<S>("0.81"))
    for (const char* f : {"first-kind", "maggi", "gibbs-appell"})
      mo.excluded[f] = "the chart z = (y0, w1, w2) is singular where P1 crosses the y axis "
                       "(P1 = P0 moves, w1 = y1d / x1 unbounded), at t = 1/0.81";
  mo.source = "docs/special-motions.md bipendulum (b)";
  mo.parameters = params<S>(S(1), S(1), S(0));
  mo.initial = bipendulum_state(bipendulum_vector<S>(S(1), num<S>("0.5"), num<S>("0.8"), S(0)),
                                num<S>("-0.4"), num<S>("0.9"), S(0));
  mo.t_end = t_end;
  const State<S> x0 = mo.initial;
  mo.exact = [=](const S& t) { return State<S>{Vec<S>(x0.q + x0.qdot * t), x0.qdot}; };
  return mo;
}

// docs/special-motions.md bipendulum (c): uniform rectilinear motion under the
// corrected condition y1d v2^2 = y2d v1^2 (docs/errata.md, eq. 90):
// m1 = 1.1, m2 = 0.7, g = 0; P1 = (1.3, 0.8), P2 = (-0.9, 0), y0 = -0.5,
// w2 = 0.6, w1 = w2 x1 r2^2 / (x2 r1^2), r_k = |P_k - P0|. Both points move
// away from the y axis and y1d, y2d stay constant: regular for all t.
template <class S>
SpecialMotion<S> uniform_motion() {
  SpecialMotion<S> mo;
  mo.name = "uniform rectilinear motion (y1d v2^2 = y2d v1^2)";
  mo.source = "docs/special-motions.md bipendulum (c); docs/errata.md eq. 90";
  mo.parameters = params<S>(num<S>("1.1"), num<S>("0.7"), S(0));
  mo.initial = bipendulum_uniform_state<S>(false);
  mo.t_end = S(20);
  const State<S> x0 = mo.initial;
  mo.exact = [=](const S& t) { return State<S>{Vec<S>(x0.q + x0.qdot * t), x0.qdot}; };
  return mo;
}

// docs/special-motions.md bipendulum (d): coincident motions on the incline are
// free fall, for any masses: m1 = 0.6, m2 = 1.7, g = 2, P1 = P2 = (0.5, 0.3),
// v1 = v2 = (0.4, 0.7). x(t) = 0.5 + 0.4 t + t^2 > 0 and y_d = 0.7: regular.
// The hidden point recedes as y0 = y + x xd / yd ~ t^3, and the chart's
// G = psi^T g psi becomes numerically singular (its condition grows like
// y0^2: 1e14 at t ~ 17 in double): the formulations in (q, z) follow it
// only on t <= 2 (the span of docs/special-motions.md).
template <class S>
SpecialMotion<S> coincident_motion(const std::string& t_end_text) {
  SpecialMotion<S> mo;
  mo.name = "coincident motion on the incline g = 2: free fall, t <= " + t_end_text;
  if (from_string<S>(t_end_text) > S(2))
    for (const char* f : {"first-kind", "maggi", "gibbs-appell"})
      mo.excluded[f] = "P0 recedes (y0 ~ t^3) and the chart's G = psi^T g psi becomes "
                       "numerically singular (condition ~ y0^2)";
  mo.source = "docs/special-motions.md bipendulum (d); 000 §13.6";
  const S gr = S(2), x0 = num<S>("0.5"), y0 = num<S>("0.3"), vx = num<S>("0.4"),
          vy = num<S>("0.7");
  mo.parameters = params<S>(num<S>("0.6"), num<S>("1.7"), gr);
  mo.initial = {bipendulum_vector<S>(x0, y0, x0, y0), bipendulum_vector<S>(vx, vy, vx, vy)};
  mo.t_end = from_string<S>(t_end_text);
  mo.exact = [=](const S& t) {
    const S x = x0 + vx * t + gr * t * t / S(2), y = y0 + vy * t, xd = vx + gr * t;
    return State<S>{bipendulum_vector<S>(x, y, x, y), bipendulum_vector<S>(xd, vy, xd, vy)};
  };
  return mo;
}

}  // namespace

template <class S>
State<S> bipendulum_state(const Vec<S>& q, const S& y0, const S& w1, const S& w2) {
  Vec<S> z(3);
  z << y0, w1, w2;
  Vec<S> qd(4);
  Bipendulum::parametrization(Params<S>(std::vector<S>(4, S(0))), q, z, qd);
  return {q, qd};
}

template <class S>
State<S> bipendulum_uniform_state(bool printed_eq_90) {
  using std::sqrt;
  const Vec<S> q = bipendulum_vector<S>(num<S>("1.3"), num<S>("0.8"), num<S>("-0.9"), S(0));
  const S y0 = num<S>("-0.5"), w2 = num<S>("0.6");
  const S r1sq = q[0] * q[0] + (q[1] - y0) * (q[1] - y0);
  const S r2sq = q[2] * q[2] + (q[3] - y0) * (q[3] - y0);
  // Corrected condition: y1d v2^2 = y2d v1^2 with y_kd = w_k x_k and
  // v_k^2 = w_k^2 r_k^2 gives w1 = w2 x1 r2^2 / (x2 r1^2).
  S w1 = w2 * q[0] * r2sq / (q[2] * r1sq);
  if (printed_eq_90) {
    // 000 eq. 90 as printed: |v1| = x1 x2d |v2| / (y1 y2d - x2 x2d), with
    // v1 along the same direction J(P1 - P0) as the corrected state.
    const State<S> ref = bipendulum_state<S>(q, y0, w1, w2);
    const S v2 = sqrt(ref.qdot[2] * ref.qdot[2] + ref.qdot[3] * ref.qdot[3]);
    using std::abs;
    const S v1 =
        abs(q[0] * ref.qdot[2] * v2 / (q[1] * ref.qdot[3] - q[2] * ref.qdot[2]));
    w1 = (w1 < 0 ? -v1 : v1) / sqrt(r1sq);
  }
  return bipendulum_state<S>(q, y0, w1, w2);
}

template <class S>
PendulumMotion<S>::PendulumMotion(const S& mass, const S& gr, const S& length,
                                  const S& amplitude)
    : m(mass), g(gr), l(length), amplitude(amplitude) {
  using std::sin;
  using std::sqrt;
  omega = sqrt(g / l);
  k = sin(amplitude / S(2));
  quarter_period = boost::math::ellint_1(k) / omega;
}

template <class S>
State<S> PendulumMotion<S>::operator()(const S& t) const {
  using std::asin;
  using std::cos;
  using std::sin;
  S cn, dn;
  const S sn = boost::math::jacobi_elliptic(k, omega * t, &cn, &dn);
  const S th = S(2) * asin(k * sn);
  const S thd = S(2) * k * omega * cn;  // d/dt 2 asin(k sn) = 2 k omega cn dn / dn
  const S c = cos(th), s = sin(th);
  return {bipendulum_vector<S>(l * c, l * s, l * c, -(l * s)),
          bipendulum_vector<S>(-(l * thd * s), l * thd * c, -(l * thd * s), -(l * thd * c))};
}

template <class S>
PendulumMotion<S> symmetric_pendulum() {
  return PendulumMotion<S>(num<S>("1.2"), S(3), num<S>("1.5"), S(1));
}

template <class S>
SpecialMotion<S> symmetric_pendulum_motion(const S& fraction_of_quarter_period) {
  // docs/special-motions.md bipendulum (e), from theta = 0.
  const PendulumMotion<S> p = symmetric_pendulum<S>();
  SpecialMotion<S> mo;
  mo.name = "symmetric motion (m1 = m2): the pendulum l thetadd + g sin theta = 0";
  mo.source = "docs/special-motions.md bipendulum (e); 000 eqs. 93-94";
  mo.parameters = params<S>(p.m, p.m, p.g);
  mo.initial = p(S(0));
  // The turning point (v = 0, eq. 72c) is singular: stop short of it.
  mo.t_end = fraction_of_quarter_period * p.quarter_period;
  mo.exact = p;
  return mo;
}

/// The `bipendulum` study (000 §13): system, default state (that of
/// docs/special-motions.md (a): P1 = (1.2, 0.3), P2 = (-0.9, -0.5),
/// z = (y0, w1, w2) = (0.4, 0.6, -0.8); at the default masses its motion
/// stays regular, chart included, to t = 20), the separate energies
/// E1 = T1 + V1 and E2 = T2 + V2 (000 eqs. 85-86; conserved for any forces
/// with separate potentials), the hidden point y0 (eq. 75; not conserved),
/// the special motions (b)-(e) of docs/special-motions.md, and random regular
/// states from the chart, redrawn until every margin to the singular sets
/// (x's, y-velocities, |P_k - P0|, |dC/dqdot|, |w1| + |w2|) is >= 1/4.
template <class S>
Study<S> bipendulum_study() {
  Study<S> st = study_of<S, Bipendulum>();
  st.default_state = [](const System<S>&) {
    return setup_state<S>(bipendulum_setup_a("0"));
  };
  st.invariants = [](const System<S>& sys) {
    const S mass1 = sys.parameter("m1"), mass2 = sys.parameter("m2"), gr = sys.parameter("g"),
            kk = sys.parameter("k");
    std::vector<Invariant<S>> inv;
    for (int j = 0; j < 2; ++j) {
      const S mass = j == 0 ? mass1 : mass2;
      inv.push_back({"E" + std::to_string(j + 1),
                     [=](const Vec<S>& q, const Vec<S>& qd) {
                       const S x = q[2 * j], y = q[2 * j + 1], vx = qd[2 * j], vy = qd[2 * j + 1];
                       return mass * (vx * vx + vy * vy) / S(2) - mass * gr * x +
                              kk * (x * x + y * y) / S(2);
                     },
                     true});
    }
    inv.push_back({"y0",
                   [](const Vec<S>& q, const Vec<S>& qd) { return bipendulum_hidden_y0(q, qd); },
                   false});
    return inv;
  };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{
        straight_line_motion<S>("20"), straight_line_motion<S>("1.2"), uniform_motion<S>(), coincident_motion<S>("20"),
        coincident_motion<S>("2"),
        symmetric_pendulum_motion<S>(S(9) / S(10))};
  };
  st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
    using std::abs;
    using std::max;
    const S floor = S(1) / S(4);
    for (;;) {
      const State<S> s = random_state_from_chart(sys, rng);
      Vec<S> z(3);
      try {
        sys.chart(s.q, s.qdot, z);
      } catch (const SingularState&) {
        continue;
      }
      bool ok = abs(z[1]) + abs(z[2]) >= floor;
      for (int j = 0; j < 2; ++j) {
        const S x = s.q[2 * j], dy = s.q[2 * j + 1] - z[0];
        ok = ok && x * x + dy * dy >= floor * floor;
      }
      for (const Margin<S>& mg : regularity_margins(sys, s.q, s.qdot)) ok = ok && mg.value >= floor;
      if (ok) return s;
    }
  };
  return st;
}

template <class S>
S bipendulum_hidden_y0(const Vec<S>& q, const Vec<S>& qd) {
  return Bipendulum::hidden_y0(q, qd);
}

#define NHS_BIPENDULUM_(S, NAME)            \
  template Study<S> bipendulum_study<S>(); \
  template State<S> bipendulum_state<S>(const Vec<S>&, const S&, const S&, const S&); \
  template State<S> bipendulum_uniform_state<S>(bool); \
  template S bipendulum_hidden_y0<S>(const Vec<S>&, const Vec<S>&); \
  template struct PendulumMotion<S>; \
  template PendulumMotion<S> symmetric_pendulum<S>(); \
  template SpecialMotion<S> symmetric_pendulum_motion<S>(const S&);
NHS_FOR_EACH_SCALAR(NHS_BIPENDULUM_)

TracedStudy bipendulum_traced() { return traced_study_of<Bipendulum>(); }

}  // namespace nhs
