// The N-trailer (the classic system of non-holonomic motion planning, here
// with masses and inertias): a tractor pulling N trailers in the plane,
// trailer k hitched at the midpoint P_{k-1} of the previous body's axle.
// Every body is a skate: its wheel axle (knife edge) passes through its
// centre of mass, the axle midpoint P_k, and P_k cannot move across the
// body's heading e_k = (cos theta_k, sin theta_k).
//
//   q = (x, y, theta_0, ..., theta_N), n = N + 3; P_0 = (x, y);
//   P_k = P_{k-1} - L e_k (distance L from hitch to axle), k = 1..N;
//   Pdot_k = Pdot_{k-1} + L thetad_k n_k, n_k = (sin theta_k, -cos theta_k);
//   C^k = Pdot_k . n_k, k = 0..N (r = N + 1, linear in qdot);
//   T = sum_k m/2 |Pdot_k|^2 + I/2 thetad_k^2;
//   V = -m g sum_k x_k (incline g along +x on every body, as in docs/studies.md).
// Parametrization z = (v, omega), v the tractor's speed along e_0 and
// omega = thetad_0 (m = 2), by the classic recursion (Pdot_k = v_k e_k):
//   thetad_k = (v_{k-1}/L) sin(theta_{k-1} - theta_k),
//   v_k = v_{k-1} cos(theta_{k-1} - theta_k),  v_0 = v,
// with the inverse chart v = xd cos theta_0 + yd sin theta_0, omega =
// thetad_0. psi_z has rank 2 and the metric is positive definite at every
// state (m, I > 0), so every state is regular for the first and second
// kind. thetad_0 enters no constraint: the tractor turns freely about P_0,
// where every force on it acts, so omega is a first integral for any g.
//
// Voronec's split: y and theta_1..theta_N dependent (C^0 solved for ydot,
// C^k for thetad_k, whose coefficient is L). The dependent block of dC/dqdot
// is lower triangular with diagonal (-cos theta_0, L, ..., L): singular
// exactly where cos theta_0 = 0, as the skate's (no split is regular
// everywhere: C^0 contains only xd and yd, so one of them is dependent).
//
// N is chosen at run time (n_trailer_study<S>(N), registry id
// "n-trailer-<N>"): the description has no static info(); its functions
// read N from q.size() (describe<S, D>(values, info), system.hpp).
//
// AD note (as in parallel_points.cpp): every product is written
// variable-first (a factor that depends on q, qdot or z comes before the
// parameters), and intermediate results are kept in named T variables.
#include "nhs/studies/all.hpp"
#include "nhs/studies/chart_state.hpp"
#include "nhs/studies/traced.hpp"

#include <boost/math/constants/constants.hpp>

#include <map>
#include <memory>
#include <mutex>

namespace nhs {
namespace {

enum Param { m, I, L, g };

/// The N-trailer description for describe<S, NTrailer>(values, n_trailer_info(N)):
/// n = N + 3, r = N + 1, m = 2. Generic over the evaluation type T (S,
/// AD1<S>, AD2<S>) except the chart (S only); N = q.size() - 3.
struct NTrailer {
  /// T = sum_{k=0..N} (m/2 |Pdot_k|^2 + I/2 thetad_k^2), Pdot_k by the
  /// recursion above; q, qd size n.
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    using std::cos;
    using std::sin;
    const Eigen::Index N = q.size() - 3;
    T half = ratio<T>(1, 2);  // not const: Eigen's make_coherent resizes its derivatives
    T vx = qd[0], vy = qd[1];
    T translation = vx * vx + vy * vy;  // sum_k |Pdot_k|^2
    T rotation = qd[2] * qd[2];         // sum_k thetad_k^2
    for (Eigen::Index k = 1; k <= N; ++k) {
      const T& w = qd[2 + k];
      T s = sin(q[2 + k]), c = cos(q[2 + k]);
      vx = vx + w * s * p[L];
      vy = vy - w * c * p[L];
      translation = translation + vx * vx + vy * vy;
      rotation = rotation + w * w;
    }
    return translation * half * p[m] + rotation * half * p[I];
  }
  /// V = -m g sum_k x_k, x_0 = x, x_k = x_{k-1} - L cos theta_k; q size n.
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    using std::cos;
    const Eigen::Index N = q.size() - 3;
    T xk = q[0];
    T sum = q[0];
    for (Eigen::Index k = 1; k <= N; ++k) {
      xk = xk - cos(q[2 + k]) * p[L];
      sum = sum + xk;
    }
    return -(sum * p[m] * p[g]);
  }
  /// C^k = Pdot_k . n_k, k = 0..N (C sized N + 1): every axle midpoint
  /// moves along its body's heading.
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    const Eigen::Index N = q.size() - 3;
    T vx = qd[0], vy = qd[1];
    C[0] = vx * sin(q[2]) - vy * cos(q[2]);
    for (Eigen::Index k = 1; k <= N; ++k) {
      const T& w = qd[2 + k];
      T s = sin(q[2 + k]), c = cos(q[2 + k]);
      vx = vx + w * s * p[L];
      vy = vy - w * c * p[L];
      C[k] = vx * s - vy * c;
    }
  }
  /// qdot = psi(q, z): (v cos theta_0, v sin theta_0, omega, thetad_1..N)
  /// by the recursion above; z size 2, qd size n.
  template <class T>
  static void parametrization(const Params<T>& p, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    using std::cos;
    using std::sin;
    const Eigen::Index N = q.size() - 3;
    qd[0] = cos(q[2]) * z[0];
    qd[1] = sin(q[2]) * z[0];
    qd[2] = z[1];
    T v = z[0];  // v_{k-1}
    for (Eigen::Index k = 1; k <= N; ++k) {
      T phi = q[1 + k] - q[2 + k];  // theta_{k-1} - theta_k
      qd[2 + k] = v * sin(phi) / p[L];
      v = v * cos(phi);
    }
  }
  /// Inverse chart z = (xd cos theta_0 + yd sin theta_0, thetad_0); z size 2.
  template <class S>
  static void chart(const Params<S>&, const Vec<S>& q, const Vec<S>& qd, Vec<S>& z) {
    using std::cos;
    using std::sin;
    z[0] = qd[0] * cos(q[2]) + qd[1] * sin(q[2]);
    z[1] = qd[2];
  }
  /// The bodies (bodies.hpp): N + 1 planar rigid bodies, body k of mass m
  /// with its centre at P_k, turning with thetad_k about the vertical,
  /// moment of inertia I about it. Their energies sum to T.
  template <class T>
  static void bodies(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Bodies<T>& out) {
    using std::cos;
    using std::sin;
    const Eigen::Index N = q.size() - 3;
    T px = q[0], py = q[1];
    out.add_planar_body(p[m], plane_position(px, py), qd[2], p[I]);
    for (Eigen::Index k = 1; k <= N; ++k) {
      px = px - cos(q[2 + k]) * p[L];
      py = py - sin(q[2 + k]) * p[L];
      out.add_planar_body(p[m], plane_position(px, py), qd[2 + k], p[I]);
    }
  }
};

/// The SystemInfo of the N-trailer with N trailers, named `name`.
SystemInfo n_trailer_info(int N, const std::string& name) {
  SystemInfo info;
  info.name = name;
  info.title = "tractor with " + std::to_string(N) +
               " trailers (skates hitched at the previous axle midpoint), linear constraints";
  info.source = "N-trailer; 001 §9.1";
  info.coordinates = {"x", "y"};
  for (int k = 0; k <= N; ++k) info.coordinates.push_back("theta" + std::to_string(k));
  info.parameters = {{"m", "1", "mass of each body (tractor and trailers)"},
                     {"I", "0.5", "moment of inertia of each body about its axle midpoint"},
                     {"L", "1", "distance from a trailer's hitch to its axle midpoint"},
                     {"g", "0", "incline field along +x (on every body)"}};
  for (int k = 0; k <= N; ++k) info.constraint_names.push_back("C" + std::to_string(k + 1));
  info.quasi_velocities = {"v", "omega"};
  info.linear_constraints = true;
  // ydot from C^0 (singular at cos theta_0 = 0), thetad_k from C^k.
  info.dependent_velocities = {1};
  for (int k = 1; k <= N; ++k) info.dependent_velocities.push_back(2 + k);
  return info;
}

/// The parameters of the special motions: m = 1.2, I = 0.3, L = 0.8, g.
template <class S>
std::vector<S> motion_parameters(const S& gr) {
  return {from_string<S>("1.2"), from_string<S>("0.3"), from_string<S>("0.8"), gr};
}

// Straight motion: every heading theta_k = theta = 0.4 (the train aligned),
// omega = 0, v0 = 0.7, P_0(0) = (0.5, -0.2), incline g = 3. Every hitch
// force vanishes and every body moves as the skate's straight line
// (docs/special-motions.md skate, omega = 0): v = v0 + g cos(theta) t,
// P_0 = P_0(0) + (v0 t + g cos(theta) t^2/2) e, theta_k constant. (With
// zero hitch forces each body is a free skate with thetad = 0, and the
// common acceleration g cos theta along e keeps the train rigid.)
template <class S>
SpecialMotion<S> straight_motion(int N) {
  const S gr = S(3), th = from_string<S>("0.4"), v0 = from_string<S>("0.7");
  const S x0 = from_string<S>("0.5"), y0 = from_string<S>("-0.2");
  SpecialMotion<S> mo;
  mo.name = "straight train, incline g = 3";
  mo.source = "n_trailer.cpp (straight motion; every hitch force zero)";
  mo.parameters = motion_parameters<S>(gr);
  Vec<S> q0 = Vec<S>::Constant(N + 3, th);
  q0[0] = x0;
  q0[1] = y0;
  mo.initial = state_from_chart(
      describe<S, NTrailer>(mo.parameters, n_trailer_info(N, "n-trailer-" + std::to_string(N))),
      q0, {v0, S(0)});
  mo.t_end = S(20);
  mo.exact = [=](const S& t) {
    using std::cos;
    using std::sin;
    const S a = gr * cos(th);
    const S s = v0 * t + a * t * t / S(2), v = v0 + a * t;
    Vec<S> q = q0, qd = Vec<S>::Zero(N + 3);
    q[0] = x0 + cos(th) * s;
    q[1] = y0 + sin(th) * s;
    qd[0] = v * cos(th);
    qd[1] = v * sin(th);
    return State<S>{q, qd};
  };
  return mo;
}

// Steady circle (g = 0): the whole train turns rigidly about a fixed centre
// O with omega = 0.3. Body k's axle midpoint runs on the circle of radius
// R_k about O, P_k = O + R_k n_k, with R_{k-1} sin(phi_k) = L, R_k =
// R_{k-1} cos(phi_k) (phi_k = theta_{k-1} - theta_k constant), so
// R_k^2 = R_{k-1}^2 - L^2; here R_0 = L sqrt(N + 1), R_N = L, and
// sin(phi_k) = 1/sqrt(N + 2 - k). Then thetad_k = omega for every k (the
// chart's recursion gives (v_{k-1}/L) sin(phi_k) = omega R_{k-1}/R_{k-1}),
// every hitch force is zero and each body is a skate on its circle, whose
// knife edge supplies the centripetal force m omega^2 R_k along n_k:
//   theta_k = theta_k(0) + omega t, x + i y = O + R_0 (sin theta_0 - i cos theta_0).
// theta_0(0) = 0.4; with t_end = 20, theta_0 crosses pi/2 (Voronec's split
// is singular there: excluded); the span t <= 3.5 stays below it.
template <class S>
SpecialMotion<S> circle_motion(int N, const std::string& t_end_text) {
  using std::asin;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S w = from_string<S>("0.3"), th0 = from_string<S>("0.4");
  const S x0 = from_string<S>("0.5"), y0 = from_string<S>("-0.2");
  const std::vector<S> params = motion_parameters<S>(S(0));
  const S len = params[L];
  const S R0 = len * sqrt(S(N + 1));
  const S ox = x0 - R0 * sin(th0), oy = y0 + R0 * cos(th0);  // the centre O
  Vec<S> q0(N + 3);
  q0 << x0, y0, Vec<S>::Constant(N + 1, th0);
  for (int k = 1; k <= N; ++k) q0[2 + k] = q0[1 + k] - asin(S(1) / sqrt(S(N + 2 - k)));
  SpecialMotion<S> mo;
  mo.name = "steady circle, omega = 0.3, t <= " + t_end_text;
  mo.source = "n_trailer.cpp (rigid rotation about a fixed centre; every hitch force zero)";
  mo.parameters = params;
  mo.initial = state_from_chart(
      describe<S, NTrailer>(params, n_trailer_info(N, "n-trailer-" + std::to_string(N))), q0,
      {w * R0, w});
  mo.t_end = from_string<S>(t_end_text);
  if (th0 + w * mo.t_end >= boost::math::constants::half_pi<S>())
    mo.excluded["voronec"] = "the split ydot = tan(theta0) xdot is singular at cos(theta0) = 0, "
                             "which this motion crosses at t = (pi/2 - theta0)/omega";
  mo.exact = [=](const S& t) {
    Vec<S> q = q0, qd = Vec<S>::Constant(N + 3, w);
    for (int k = 0; k <= N; ++k) q[2 + k] = q0[2 + k] + w * t;
    q[0] = ox + R0 * sin(q[2]);
    q[1] = oy - R0 * cos(q[2]);
    qd[0] = w * R0 * cos(q[2]);
    qd[1] = w * R0 * sin(q[2]);
    return State<S>{q, qd};
  };
  return mo;
}

/// The N-trailer study named `name`.
template <class S>
Study<S> make_n_trailer_study(int N, const std::string& name) {
  if (N < 0) throw UsageError("n-trailer: the number of trailers must be >= 0, got " +
                              std::to_string(N));
  Study<S> st;
  st.info = n_trailer_info(N, name);
  const SystemInfo info = st.info;
  st.builder = [info](const std::vector<S>& p, AdBinding b) {
    return describe<S, NTrailer>(p, info, b);
  };
  st.default_state = [](const System<S>& sys) {
    return state_from_chart<S>(sys, Vec<S>(Vec<S>::Zero(sys.n)), {S(1), S(1) / S(2)});
  };
  // The default motion turns at thetad_0 = 1/2 and reaches theta_0 = pi/2 at
  // t = pi, where Voronec's split ydot = tan(theta_0) xdot is singular.
  st.default_run_excluded["voronec"] =
      "the split ydot = tan(theta0) xdot is singular at cos(theta0) = 0, reached at t = pi";
  st.invariants = [](const System<S>&) {
    std::vector<Invariant<S>> inv;
    // thetad_0 is constant for any g: no force on the tractor has a moment
    // about P_0.
    inv.push_back({"omega", [](const Vec<S>&, const Vec<S>& qd) { return qd[2]; }, true});
    // The tractor's speed v: recorded, not conserved (the trailers pull).
    inv.push_back({"v",
                   [](const Vec<S>& q, const Vec<S>& qd) {
                     using std::cos;
                     using std::sin;
                     return qd[0] * cos(q[2]) + qd[1] * sin(q[2]);
                   },
                   false});
    return inv;
  };
  st.special_motions = [N] {
    return std::vector<SpecialMotion<S>>{straight_motion<S>(N), circle_motion<S>(N, "20"),
                                         circle_motion<S>(N, "3.5")};
  };
  // The chart's random state, redrawn until |cos theta_0| >= 1/10: away
  // from the singular set of Voronec's split (the other formulations are
  // regular everywhere).
  st.random_state = [](const System<S>& sys, std::mt19937_64& rng) {
    using std::abs;
    using std::cos;
    for (;;) {
      State<S> x = random_state_from_chart(sys, rng);
      if (abs(cos(x.q[2])) >= S(1) / S(10)) return x;
    }
  };
  return st;
}

}  // namespace

template <class S>
Study<S> n_trailer_study(int N) {
  return make_n_trailer_study<S>(N, "n-trailer-" + std::to_string(N));
}

template <class S>
Study<S> n_trailer_study() {
  return make_n_trailer_study<S>(kNTrailerDefault, "n-trailer");
}

template <class S>
const Study<S>* find_n_trailer_study(const std::string& name) {
  const std::string prefix = "n-trailer-";
  if (name.rfind(prefix, 0) != 0) return nullptr;
  const std::string digits = name.substr(prefix.size());
  const bool canonical = !digits.empty() && digits.size() <= 3 &&
                         digits.find_first_not_of("0123456789") == std::string::npos &&
                         (digits.size() == 1 || digits[0] != '0');
  const int N = canonical ? std::stoi(digits) : -1;
  if (N < 0 || N > kNTrailerMax)
    throw UsageError("unknown study '" + name + "': the number of trailers in n-trailer-<N> must be "
                     "an integer from 0 to " + std::to_string(kNTrailerMax) + ", got '" + digits + "'");
  // Built once per N and kept: find_study returns references. std::map
  // nodes do not move, so a reference stays valid while others are added.
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<const Study<S>>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[N];
  if (!slot) slot = std::make_unique<const Study<S>>(n_trailer_study<S>(N));
  return slot.get();
}

#define NHS_N_TRAILER_(S, NAME)                         \
  template Study<S> n_trailer_study<S>(int);            \
  template Study<S> n_trailer_study<S>();               \
  template const Study<S>* find_n_trailer_study<S>(const std::string&);
NHS_FOR_EACH_SCALAR(NHS_N_TRAILER_)

TracedStudy n_trailer_traced(const SystemInfo& info) {
  return {info, [info](const std::vector<codegen::Expr>& p) {
            return describe<codegen::Expr, NTrailer>(p, info);
          }};
}

TracedStudy n_trailer_traced() { return n_trailer_traced(n_trailer_info(kNTrailerDefault, "n-trailer")); }

}  // namespace nhs
