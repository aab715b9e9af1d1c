// A point mass towing a massless trailer: the massless-part study of issue
// 23. P = (x, y) of mass m pulls, by a hitch of length L, a trailer whose
// single knife-edge wheel W = P - L (cos theta, sin theta) cannot slide
// sideways,
//   C = xd sin(theta) - yd cos(theta) + L thetad = 0,
// while a torque -k sin(theta) acts on the trailer (a vane in a wind along
// +x) and a field g along +x on P (an incline). The trailer carries no mass,
// so g = diag(m, m, 0) is singular everywhere; the constraint fixes thetad
// (A e_theta = L), so [g; A] has full rank and the motion is determined
// (seed 003's paragraph on a semidefinite M; docs/numerics.md). theta's row
// of the equations reads 0 = -k sin(theta) + lambda L: the trailer passes its
// torque to P as the sideways pull lambda (sin(theta), -cos(theta)).
// z = (u, v) = (xd, yd): thetad = (v cos(theta) - u sin(theta)) / L.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

namespace nhs {
namespace {

enum Param { pm, pL, pk, pg };

struct MasslessTrailer {
  static constexpr int n = 3;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "massless-trailer",
            .title = "point mass towing a massless knife-edge trailer (g singular)",
            .source = "Udwadia & Phohomsiri 2006 (semidefinite M); ours",
            .coordinates = {"x", "y", "theta"},
            .parameters = {{"m", "1.3", "mass of the towing point P"},
                           {"L", "0.7", "hitch length, from P to the trailer's wheel"},
                           {"k", "0.9", "torque on the trailer, V_k = k (1 - cos theta)"},
                           {"g", "0.4", "field along +x on P, V_g = -m g x"}},
            .constraint_names = {"C1"},
            .quasi_velocities = {"u", "v"},
            .linear_constraints = true,
            .dependent_velocities = {2},  // thetad = (yd cos - xd sin) / L: never singular
            .semidefinite_metric = true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    return ratio<T>(1, 2) * p[pm] * (qd[0] * qd[0] + qd[1] * qd[1]);
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    using std::cos;
    return p[pk] * (T(1) - cos(q[2])) - p[pm] * p[pg] * q[0];
  }
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[0] * sin(q[2]) - qd[1] * cos(q[2]) + p[pL] * qd[2];
  }
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = z[0];
    qd[1] = z[1];
    qd[2] = (z[1] * cos(q[2]) - z[0] * sin(q[2])) / p[pL];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    (void)q;
    z[0] = qd[0];
    z[1] = qd[1];
  }
  /// P alone carries mass; the trailer is massless.
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>&, Bodies<T>& out) {
    out.add_point(p[pm], plane_position(q[0], q[1]));
  }
};

template <class S>
std::vector<S> trailer_parameters(const char* k, const char* g) {
  return {from_string<S>("1.3"), from_string<S>("0.7"), from_string<S>(k), from_string<S>(g)};
}

// docs/special-motions.md massless-trailer (a): theta = 0 is an equilibrium
// of the trailer (lambda = k sin(theta) / L = 0), so P falls freely along
// its axis: x = x0 + u0 t + g t^2 / 2, y = y0. Default parameters.
template <class S>
SpecialMotion<S> towed_straight_motion() {
  const std::vector<S> p = trailer_parameters<S>("0.9", "0.4");
  const S g = p[pg], x0 = from_string<S>("0.2"), y0 = from_string<S>("-0.3"),
          u0 = from_string<S>("0.5");
  SpecialMotion<S> mo;
  mo.name = "theta = 0: P accelerates along the trailer's axis";
  mo.source = "docs/special-motions.md massless-trailer (a)";
  mo.parameters = p;
  mo.t_end = S(10);
  mo.exact = [=](const S& t) {
    Vec<S> q(3), qd(3);
    q << x0 + u0 * t + g * t * t / S(2), y0, S(0);
    qd << u0 + g * t, S(0), S(0);
    return State<S>{q, qd};
  };
  mo.initial = mo.exact(S(0));
  return mo;
}

// docs/special-motions.md massless-trailer (b): k = g = 0, so lambda = 0, P
// moves uniformly, (x, y) = (x0 + u0 t, y0), and the trailer follows the
// tractrix L thetad = -u0 sin(theta): tan(theta/2) = tan(theta0/2)
// exp(-u0 t / L), swinging from theta0 = 2.5 (nearly ahead of P) to 0.
template <class S>
SpecialMotion<S> tractrix_motion() {
  const std::vector<S> p = trailer_parameters<S>("0", "0");
  const S L = p[pL], x0 = from_string<S>("-1"), y0 = from_string<S>("0.4"),
          u0 = from_string<S>("1.1"), theta0 = from_string<S>("2.5");
  using std::tan;
  const S c = tan(theta0 / S(2));
  SpecialMotion<S> mo;
  mo.name = "k = g = 0: the trailer's wheel traces a tractrix";
  mo.source = "docs/special-motions.md massless-trailer (b)";
  mo.parameters = p;
  mo.t_end = S(10);
  mo.exact = [=](const S& t) {
    using std::atan;
    using std::exp;
    using std::sin;
    const S theta = S(2) * atan(c * exp(-u0 * t / L));
    Vec<S> q(3), qd(3);
    q << x0 + u0 * t, y0, theta;
    qd << u0, S(0), -u0 / L * sin(theta);
    return State<S>{q, qd};
  };
  mo.initial = mo.exact(S(0));
  return mo;
}

}  // namespace

template <class S>
Study<S> massless_trailer_study() {
  Study<S> st = study_of<S, MasslessTrailer>();
  st.default_state = [](const System<S>& sys) {
    Vec<S> q(3);
    q << S(0), S(0), S(1) / S(2);
    return state_from_chart(sys, q, {S(1), S(3) / S(10)});
  };
  st.special_motions = [] {
    return std::vector<SpecialMotion<S>>{towed_straight_motion<S>(), tractrix_motion<S>()};
  };
  return st;
}

#define NHS_MASSLESS_TRAILER_(S, NAME) template Study<S> massless_trailer_study<S>();
NHS_FOR_EACH_SCALAR(NHS_MASSLESS_TRAILER_)

TracedStudy massless_trailer_traced() { return traced_study_of<MasslessTrailer>(); }

}  // namespace nhs
