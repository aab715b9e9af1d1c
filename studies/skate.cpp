// The skate (001 §9.1): a blade on a plane, free to turn, that cannot slide
// sideways. q = (x, y, theta); C = xd sin(theta) - yd cos(theta) (linear);
// incline g along +x. Parametrization z = (s, omega): s the speed along the
// blade, omega = thetad.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

#include <boost/math/constants/constants.hpp>

namespace nhs {
namespace {

enum Param { m, I, g };

struct Skate {
  static constexpr int n = 3;  // coordinates: derivations in fixed-size AD
  static SystemInfo info() {
    return {.name = "skate",
            .title = "skate (Chaplygin sleigh blade) on an incline, linear constraint",
            .source = "001 §9.1",
            .coordinates = {"x", "y", "theta"},
            .parameters = {{"m", "1", "mass"},
                           {"I", "0.5", "moment of inertia about the blade point"},
                           {"g", "0", "incline field along +x"}},
            .constraint_names = {"C1"},
            .quasi_velocities = {"s", "omega"},
            .linear_constraints = true,
            .dependent_velocities = {1}};  // y dependent: ydot = tan(theta) xdot (singular at cos theta = 0)
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    const T half = ratio<T>(1, 2);
    return half * p[m] * (qd[0] * qd[0] + qd[1] * qd[1]) + half * p[I] * qd[2] * qd[2];
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    return -p[m] * p[g] * q[0];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    C[0] = qd[0] * sin(q[2]) - qd[1] * cos(q[2]);
  }
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    qd[0] = z[0] * cos(q[2]);
    qd[1] = z[0] * sin(q[2]);
    qd[2] = z[1];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    using std::cos;
    using std::sin;
    z[0] = qd[0] * cos(q[2]) + qd[1] * sin(q[2]);
    z[1] = qd[2];
  }
  /// The bodies (bodies.hpp): one rigid body in the plane, mass m with its
  /// centre of mass at the blade point (x, y), turning with thetad about the
  /// vertical, moment of inertia I about it (T of 001 §9.1, corrected K).
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    out.add_planar_body(p[m], plane_position(q[0], q[1]), qd[2], p[I]);
  }
};

// docs/special-motions.md "skate on an incline": m = 1.2, I = 0.3, g = 3,
// q0 = (0.5, -0.2, 0.4), s0 = 0.7, thetad = omega. The skate drifts across
// the slope at mean speed g/(2 omega); omega = 0 is a straight line.
template <class S>
SpecialMotion<S> incline_motion(const std::string& omega_text, const std::string& t_end_text) {
  const S t_end = from_string<S>(t_end_text);
  const S mass = from_string<S>("1.2"), inertia = from_string<S>("0.3"), gr = S(3);
  const S x0 = from_string<S>("0.5"), y0 = from_string<S>("-0.2"), th0 = from_string<S>("0.4");
  const S s0 = from_string<S>("0.7"), w = from_string<S>(omega_text);
  SpecialMotion<S> mo;
  mo.name = "incline g = 3, omega = " + omega_text + ", t <= " + t_end_text;
  mo.source = "docs/special-motions.md skate on an incline";
  mo.parameters = {mass, inertia, gr};
  Vec<S> q0(3);
  q0 << x0, y0, th0;
  mo.initial = state_from_chart(describe<S, Skate>(mo.parameters), q0, {s0, w});
  mo.t_end = t_end;
  // theta = 0.4 + omega t reaches pi/2 at t = 1.30 for omega = 0.9: there the
  // Voronec split ydot = tan(theta) xdot is singular (docs/special-motions.md).
  if (w != 0 && th0 + w * t_end >= boost::math::constants::half_pi<S>())
    mo.excluded["voronec"] = "the split ydot = tan(theta) xdot is singular at cos(theta) = 0, "
                             "which this motion crosses at t = (pi/2 - theta0)/omega";
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    Vec<S> q(3), qd(3);
    if (w == 0) {
      const S s = s0 + gr * cos(th0) * t;
      const S along = s0 * t + gr * cos(th0) * t * t / S(2);
      q << x0 + cos(th0) * along, y0 + sin(th0) * along, th0;
      qd << s * cos(th0), s * sin(th0), S(0);
    } else {
      const S th = th0 + w * t;
      const S s = s0 + (gr / w) * (sin(th) - sin(th0));
      const S K = s0 - (gr / w) * sin(th0);
      q << x0 + K * (sin(th) - sin(th0)) / w +
               gr * (sin(th) * sin(th) - sin(th0) * sin(th0)) / (S(2) * w * w),
          y0 - K * (cos(th) - cos(th0)) / w +
              (gr / w) * (t / S(2) - (sin(S(2) * th) - sin(S(2) * th0)) / (S(4) * w)),
          th;
      qd << s * cos(th), s * sin(th), w;
    }
    return State<S>{q, qd};
  };
  return mo;
}

}  // namespace

template <class S>
Study<S> skate_study() {
  Study<S> st = study_of<S, Skate>();
  st.default_state = [](const System<S>& sys) {
    return state_from_chart<S>(sys, Vec<S>(Vec<S>::Zero(3)), {S(1), S(1) / S(2)});
  };
  // The default motion turns at thetad = 1/2 and reaches theta = pi/2 at
  // t = pi, where Voronec's split ydot = tan(theta) xdot is singular.
  st.default_run_excluded["voronec"] =
      "the split ydot = tan(theta) xdot is singular at cos(theta) = 0, reached at t = pi";
  st.invariants = [](const System<S>& sys) {
    std::vector<Invariant<S>> inv;
    // thetad is constant for any g: the blade's reaction has no moment.
    inv.push_back({"omega", [](const Vec<S>&, const Vec<S>& qd) { return qd[2]; }, true});
    // The speed along the blade is constant when g = 0.
    inv.push_back({"s",
                   [](const Vec<S>& q, const Vec<S>& qd) {
                     using std::cos;
                     using std::sin;
                     return qd[0] * cos(q[2]) + qd[1] * sin(q[2]);
                   },
                   sys.parameter("g") == 0});
    return inv;
  };
  st.special_motions = [] {
    // The turning motion to t = 20, the same motion on the span before
    // theta reaches pi/2 (every formulation applies there), the straight line.
    return std::vector<SpecialMotion<S>>{incline_motion<S>("0.9", "20"),
                                         incline_motion<S>("0.9", "1.2"),
                                         incline_motion<S>("0", "20")};
  };
  return st;
}

#define NHS_SKATE_(S, NAME) template Study<S> skate_study<S>();
NHS_FOR_EACH_SCALAR(NHS_SKATE_)

TracedStudy skate_traced() { return traced_study_of<Skate>(); }

}  // namespace nhs
