// Two points with parallel velocities (001 §9.4): P1 = (x1, y1) of mass m1
// and P2 = (x2, y2) of mass m2 in the plane, with the non-linear constraint
// C = x1d y2d - x2d y1d = 0 (001 eq. 9.14), on an incline g along +x
// (V = -m1 g x1 - m2 g x2). Parametrization z = (rho, sigma, theta) of
// 001 eq. 9.15: v1 = rho (cos theta, sin theta), v2 = sigma (cos theta,
// sin theta). The singular states are v1 = v2 = 0, where dC/dqdot and
// dpsi/dz both lose rank (001 §9.4 (ii)).
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

#include "nhs/format.hpp"

namespace nhs {
namespace {

enum Param { m1, m2, g };

/// The description of docs/studies.md `parallel-points` for
/// describe<S, ParallelPoints>: n = 4, r = 1, m = 3. Generic over the
/// evaluation type T (S, AD1<S>, AD2<S>) except the chart (S only).
struct ParallelPoints {
  static constexpr int n = 4;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "parallel-points",
            .title = "two points with parallel velocities on an incline, non-linear constraint",
            .source = "001 §9.4",
            .coordinates = {"x1", "y1", "x2", "y2"},
            .parameters = {{"m1", "1", "mass of P1"},
                           {"m2", "1", "mass of P2"},
                           {"g", "0", "incline field along +x (on both points)"}},
            .constraint_names = {"C1"},
            .quasi_velocities = {"rho", "sigma", "theta"},
            .linear_constraints = false};
  }
  /// T = m1/2 (x1d^2 + y1d^2) + m2/2 (x2d^2 + y2d^2) (001 §9.4); q, qd size 4.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    return (qd[0] * qd[0] + qd[1] * qd[1]) * half * p[m1] +
           (qd[2] * qd[2] + qd[3] * qd[3]) * half * p[m2];
  }
  /// V(q) = -m1 g x1 - m2 g x2 (incline along +x); q size 4.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    return -(q[0] * p[m1] * p[g]) - q[2] * p[m2] * p[g];
  }
  /// C = x1d y2d - x2d y1d (001 eq. 9.14, quadratic in qdot); C size 1.
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    (void)q;
    C[0] = qd[0] * qd[3] - qd[2] * qd[1];
  }
  /// qdot = psi(q, z) = (rho cos theta, rho sin theta, sigma cos theta,
  /// sigma sin theta), z = (rho, sigma, theta) (001 eq. 9.15); z size 3,
  /// qd size 4.
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    (void)q;
    const T c = cos(z[2]), s = sin(z[2]);
    qd[0] = z[0] * c;
    qd[1] = z[0] * s;
    qd[2] = z[1] * c;
    qd[3] = z[1] * s;
  }
  /// Inverse chart: theta = atan2 of the larger of v1, v2 (so that the
  /// larger of rho, sigma is positive), rho = v1 . (cos theta, sin theta),
  /// sigma = v2 . (cos theta, sin theta); z size 3. Throws
  /// SingularState("rank loss of dpsi/dz") at v1 = v2 = 0, where theta is
  /// undefined.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    using std::atan2;
    using std::cos;
    using std::sin;
    const S v1sq = qd[0] * qd[0] + qd[1] * qd[1], v2sq = qd[2] * qd[2] + qd[3] * qd[3];
    if (v1sq == 0 && v2sq == 0)
      throw SingularState("rank loss of dpsi/dz",
                          "singular state: rank loss of dpsi/dz (v1 = v2 = 0: the direction "
                          "theta of the parallel velocities is undefined) " +
                              state_context(q, qd));
    const S th = v1sq >= v2sq ? atan2(qd[1], qd[0]) : atan2(qd[3], qd[2]);
    const S c = cos(th), s = sin(th);
    z[0] = qd[0] * c + qd[1] * s;
    z[1] = qd[2] * c + qd[3] * s;
    z[2] = th;
  }
  /// The bodies (bodies.hpp): the point masses m1 at (x1, y1) and m2 at
  /// (x2, y2) in the plane (001 §9.4).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    (void)qd;
    out.add_point(p[m1], plane_position(q[0], q[1]));
    out.add_point(p[m2], plane_position(q[2], q[3]));
  }
};

// docs/special-motions.md parallel-points, "v1 = v2 on the incline: free fall"
// (any masses): m1 = 0.7, m2 = 1.9, g = 4, q0 = (0.1, 0.2, -0.7, 1.1),
// v1 = v2 = v = (-0.5, 0.9). Closed form x_k = x_k0 + v_x t + g t^2/2,
// y_k = y_k0 + v_y t. Regular while v != 0, i.e. always since v_y != 0.
template <class S>
SpecialMotion<S> free_fall_motion() {
  const S mass1 = from_string<S>("0.7"), mass2 = from_string<S>("1.9"), gr = S(4);
  const S vx = from_string<S>("-0.5"), vy = from_string<S>("0.9");
  Vec<S> q0(4);
  q0 << from_string<S>("0.1"), from_string<S>("0.2"), from_string<S>("-0.7"),
      from_string<S>("1.1");
  SpecialMotion<S> mo;
  mo.name = "free fall with v1 = v2 (incline g = 4)";
  mo.source = "docs/special-motions.md parallel-points";
  mo.parameters = {mass1, mass2, gr};
  Vec<S> qd0(4);
  qd0 << vx, vy, vx, vy;
  mo.initial = {q0, qd0};
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    const S dx = vx * t + gr * t * t / S(2), dy = vy * t;
    Vec<S> q(4), qd(4);
    q << q0[0] + dx, q0[1] + dy, q0[2] + dx, q0[3] + dy;
    const S vxt = vx + gr * t;
    qd << vxt, vy, vxt, vy;
    return State<S>{q, qd};
  };
  return mo;
}

// docs/special-motions.md parallel-points, "g = 0: uniform rectilinear motion from
// any state": m1 = 0.8, m2 = 1.4, v1 = 1.3 (cos 0.7, sin 0.7),
// v2 = -0.4 (cos 0.7, sin 0.7), q0 = (0.3, -0.2, -0.5, 0.6) (our choice).
// With no forces the multiplier vanishes (dC/dq = 0), so q = q0 + qdot0 t.
template <class S>
SpecialMotion<S> uniform_motion() {
  const S mass1 = from_string<S>("0.8"), mass2 = from_string<S>("1.4");
  Vec<S> q0(4);
  q0 << from_string<S>("0.3"), from_string<S>("-0.2"), from_string<S>("-0.5"),
      from_string<S>("0.6");
  SpecialMotion<S> mo;
  mo.name = "uniform motion (g = 0)";
  mo.source = "docs/special-motions.md parallel-points";
  mo.parameters = {mass1, mass2, S(0)};
  mo.initial = state_from_chart(describe<S, ParallelPoints>(mo.parameters), q0,
                                {from_string<S>("1.3"), from_string<S>("-0.4"),
                                 from_string<S>("0.7")});
  mo.t_end = S(20);
  const Vec<S> qd0 = mo.initial.qdot;
  mo.exact = [=](const S& t) { return State<S>{Vec<S>(q0 + qd0 * t), qd0}; };
  return mo;
}

}  // namespace

/// The `parallel-points` study (001 §9.4): system, default state
/// (q = (0, 0, 0, 1), z = (1, 1/2, 1/4)), the separate energies
/// E1 = m1/2 v1^2 - m1 g x1 and E2 = m2/2 v2^2 - m2 g x2 (each conserved:
/// v_k . R_k = lambda C = 0 for each point, the analogue of 000 eqs. 85-86),
/// the special motions "free fall with v1 = v2" and "uniform motion (g = 0)"
/// (t in [0, 20]) and random states from the chart (q, z uniform in
/// [-1, 1]) with max(|rho|, |sigma|) >= 1/4 (away from the singular zero
/// section).
template <class S>
Study<S> parallel_points_study() {
  Study<S> st = study_of<S, ParallelPoints>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(4);
    q << S(0), S(0), S(0), S(1);
    return state_from_chart<S>(sys, q, {S(1), S(1) / S(2), S(1) / S(4)});
  };
  st.invariants = [](const System<S>& sys) {
    const S mass1 = sys.parameter("m1"), mass2 = sys.parameter("m2"), gr = sys.parameter("g");
    std::vector<Invariant<S>> inv{incline_point_energy<S>("E1", mass1, gr, 0),
                                  incline_point_energy<S>("E2", mass2, gr, 1)};
    return inv;
  };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{free_fall_motion<S>(), uniform_motion<S>()};
  };
  st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
    // The standard chart draw, redrawn while both speeds |rho|, |sigma| are
    // below 1/4 (near the singular zero section v1 = v2 = 0).
    const S floor_sq = S(1) / S(16);
    for (;;) {
      State<S> s = random_state_from_chart(sys, rng);
      const S v1sq = s.qdot[0] * s.qdot[0] + s.qdot[1] * s.qdot[1];
      const S v2sq = s.qdot[2] * s.qdot[2] + s.qdot[3] * s.qdot[3];
      if (v1sq >= floor_sq || v2sq >= floor_sq) return s;
    }
  };
  return st;
}

#define NHS_PARALLEL_POINTS_(S, NAME) template Study<S> parallel_points_study<S>();
NHS_FOR_EACH_SCALAR(NHS_PARALLEL_POINTS_)

TracedStudy parallel_points_traced() { return traced_study_of<ParallelPoints>(); }

}  // namespace nhs
