#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/integrate.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/discrete_lagrange_dalembert.hpp"

#include "odeint/bulirsch_stoer_dense_out.hpp"
#include "odeint/bulirsch_stoer_kmax.hpp"
#include "detail/fehlberg78_step_doubling.hpp"
#include "detail/verner87.hpp"
#include "detail/verner87_dense.hpp"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iomanip>
#include <sstream>
#include <optional>
#include <utility>
#include <vector>

namespace nhs {
namespace {

namespace odeint = boost::numeric::odeint;

template <class S>
using OdeState = std::vector<S>;

// "bulirsch-stoer" is Odeint's dense-output Gragg-Bulirsch-Stoer (8
// extrapolation columns) up to this many digits (float128), and above it
// (mp50, mp100) the controlled one with kHighOrderColumns columns
// (third_party/odeint/bulirsch_stoer_kmax.hpp; docs/numerics.md "Steppers"). 8 columns cap the
// order near 16: at 100 digits the cost grew x5.7 per 10 digits of
// tolerance, and at 50 digits the steps stay small (mp50, skate to t = 20,
// second kind, rtol 1e-46, output every 0.5: 1268 steps, 195k RHS calls,
// 23.4 s with 8 dense columns; 50 steps, 9.4k calls, 1.1 s with 16
// controlled ones, error against mp100 1.8e-45 and 1.0e-44). The controlled
// stepper ends a step on every output time, so very fine output costs more
// (rolling disc, mp50, t = 10, default tolerance: output every 0.1, 9.5k
// calls against 26.7k; every 0.01, 57k against 26k). A dense-output copy
// with 16 columns was measured and not kept: without interpolation error
// control its interpolant lost 8 digits (max|C| 2e-38 at rtol 1e-45), with
// it the run took 98k calls.
constexpr int kDenseBulirschStoerDigits = 33;
// Verner 8(7)'s interpolant has 40-digit coefficients (detail/verner87_dense.hpp):
// verner87 interpolates up to float128's 33 digits and, beyond, ends its steps
// on the output times.
constexpr int kVerner87DenseDigits = 33;
// Columns of the controlled Bulirsch-Stoer: 16 up to 60 digits (mp50), 20
// above (mp100). With 16 the order stops near 32, and at 1e-90 the steps
// shrink to ~0.006 (mp100, rolling sphere, first kind, t in [0, 1], output
// every 0.5, rtol 1e-90: 168 steps, 49.4k RHS calls). More columns give
// longer steps but a higher round-off floor (the extrapolation amplifies
// the rounding of the high columns). Measured, rolling sphere as above /
// the symmetric bipendulum near its singular turning point (test_precision_
// near_singular_mp100, error at 0.9 and 1 - 1e-5 of T/4, rtol 1e-90):
//   16 columns: 49.4k calls / 2.8e-92, 1.7e-89
//   20 columns: 16.4k calls / 1.4e-91, 1.1e-88
//   24 columns: 10.2k calls / 9.4e-91, 9.3e-88
//   32 columns: 10.2k calls / 3.3e-90, 6.5e-86 (4.7e-90, 2.0e-87 at rtol
//               1e-92: a floor, not the tolerance)
// 20 keeps the digits the near-singular and literal checks assert. In mp50
// 32 columns were not kept either: rolling sphere to t = 20 at rtol 1e-46,
// 51.3k -> 45.6k calls, energy drift 6.4e-46 -> 3.9e-44.
template <class S>
constexpr std::size_t kHighOrderColumns = decimal_digits<S>() > 60 ? 20 : 16;
template <class S>
using HighOrderBulirschStoer =
    odeint_patched::bulirsch_stoer_kmax<OdeState<S>, S, OdeState<S>, S,
                                typename odeint::algebra_dispatcher<OdeState<S>>::algebra_type,
                                typename odeint::operations_dispatcher<OdeState<S>>::operations_type,
                                odeint::initially_resizer, kHighOrderColumns<S>>;

template <class S>
Vec<S> to_vec(const OdeState<S>& x) {
  return Eigen::Map<const Vec<S>>(x.data(), static_cast<Eigen::Index>(x.size()));
}

// Odeint's system concept f(x, dxdt, t); passed with std::ref (Odeint copies).
// The margins to the singular sets are not checked here but on the accepted
// steps (SingularSetWatch): a stage state is a trial, and checking every
// call cost 75-90% of a generated-field run.
//
// With a power P (IntegrationOptions::power) the state is x = (x_f, W), x_f
// the formulation's (size `size`), and dW/dt = P(q, qdot) at (q, qdot) =
// f.from_state(x_f).
template <class S>
struct Rhs {
  const System<S>& sys;
  const Formulation<S>& f;
  IntegrationStats& stats;
  std::uint64_t max_calls;
  const std::function<S(const Vec<S>&, const Vec<S>&)>& power;
  Eigen::Index size;  ///< of the formulation's state x_f

  void operator()(const OdeState<S>& x, OdeState<S>& dx, const S& t) {
    if (++stats.rhs_calls > max_calls)
      throw IntegrationFailure("more than " + std::to_string(max_calls) +
                               " vector-field evaluations before t = " + to_string<S>(t));
    // A state beyond 1e300 in magnitude is an overflow in every precision:
    // MPFR's exponent range reaches 1e(3e8), where one sin() of a coordinate
    // (its argument reduction) takes minutes (docs/numerics.md).
    if constexpr (!std::is_same_v<S, double>) {
      using std::abs;
      static const S limit = S(1e300);
      for (const auto& v : x)
        if (!(abs(v) <= limit))
          throw NonFiniteValue("non-finite value: the state exceeds 1e300 in magnitude (overflow) at t = " +
                               to_string<S>(t) + ", x = " + to_string(to_vec(x)));
    }
    Vec<S> d;
    S P(0);
    try {
      const Vec<S> xf = Eigen::Map<const Vec<S>>(x.data(), size);
      d = f.field(sys, xf);
      if (power) {
        Vec<S> q, qd;
        f.from_state(sys, xf, q, qd);
        P = power(q, qd);
      }
    } catch (const SingularState& e) {
      throw SingularState(e.condition, std::string(e.what()) + " (reached at t = " +
                                           to_string<S>(t) + ")", to_string<S>(t));
    } catch (const NonFiniteValue& e) {
      throw NonFiniteValue(std::string(e.what()) + " (reached at t = " + to_string<S>(t) + ")");
    }
    if (!d.allFinite())
      throw NonFiniteValue("non-finite value: the vector field of " + f.name() + " at t = " +
                           to_string<S>(t) + ", x = " + to_string(to_vec(x)));
    using boost::multiprecision::isfinite;
    using boost::multiprecision::isnan;
    using std::isfinite;
    using std::isnan;
    if (power && !isfinite(P))
      throw NonFiniteValue("non-finite value: the power of the forces and reactions P = " + to_string<S>(P) +
                           (isnan(P) ? " (not a number)" : " (overflow)") + " at t = " + to_string<S>(t) +
                           ", x = " + to_string(to_vec(x)));
    dx.assign(d.data(), d.data() + d.size());
    if (power) dx.push_back(P);
  }
};

// The output times 0, dt_out, 2 dt_out, ... below t_end (1 - 16 eps) and
// t_end itself, computed when asked for: a run holds none of them.
template <class S>
class OutputTimes {
 public:
  OutputTimes(const S& t_end, const S& dt_out, std::uint64_t max_samples)
      : t_end_(t_end), dt_(dt_out) {
    using std::ceil;
    const S end = t_end * (S(1) - S(16) * epsilon<S>());
    const S ratio = end / dt_out;
    if (!(ratio < S(max_samples)))
      throw UsageError("t-end / dt-out = " + to_string<S>(t_end / dt_out) +
                       " output samples; at most " + std::to_string(max_samples) +
                       " are written (raise dt-out)");
    std::uint64_t k = static_cast<std::uint64_t>(ceil(ratio));
    while (k > 1 && S(k - 1) * dt_ >= end) --k;
    while (S(k) * dt_ < end) ++k;
    count_ = k + 1;
  }
  std::uint64_t size() const { return count_; }
  S operator[](std::uint64_t k) const { return k + 1 == count_ ? t_end_ : S(k) * dt_; }
  const S& back() const { return t_end_; }

 private:
  S t_end_, dt_;
  std::uint64_t count_ = 0;
};

// A time t_k counts as reached by a step ending at t when t_k <= t, or
// within 4 eps |t_k| above it (the sum t + (t_end - t) of the last step can
// round below t_end). Relative: Odeint's own loops compare with the
// absolute epsilon, which took every output time below eps (t_end = 1e-16
// in double) as reached at t = 0 and read past the end of the times.
template <class S>
bool reached(const S& tk, const S& t) {
  using std::abs;
  return tk <= t || tk - t <= S(4) * epsilon<S>() * abs(tk);
}

// Where a motion comes closest to the singular sets within an accepted
// step (IntegrationOptions::singular_margin): the system's margins
// (regularity_margins) and, when given, the formulation's own
// (Formulation::singular_margins), their smallest value g(t) along the
// step's interpolant.
//
// Why sampling alone is not enough: a margin may dip to 0 between two
// samples and rise again (a square root |x - a|^(1/2), a corner |x - a|, a
// tangential touch), and no slope seen at the samples bounds such a dip. The
// scan therefore refines the samples around every sampled minimum until
// the margin there is resolved relative to its own value: the samples
// beside a minimum g_j, one interval away on either side (two on the only
// side of a minimum at an end of the step), must all be within a factor
// 5/4 of g_j, and a Lipschitz bound (twice the largest
// slope between any two adjacent samples so far) must keep the margin
// above the threshold across the intervals beside it. An unresolved
// minimum has both intervals beside it halved. A margin that reaches 0 at
// t* like c |t - t*|^alpha is never resolved near t*: the sample closest to
// t* is at most half an interval from it, so the next one beyond is at
// least 3 times farther and its margin at least 3^alpha times larger, so
// every alpha >= log(5/4) / log 3 = 0.21 (the square root, alpha = 1/2,
// included) makes the refinement close in on t* until a sample is at or
// below the threshold. A smooth minimum g0 + c (t - t0)^2 > threshold is
// resolved once the intervals are about sqrt(g0 / c) / 4 (and the Lipschitz
// bound holds): a few halvings, only in steps that come close to a set; a
// monotone margin (a minimum at an end of the step) once g'/g times the
// interval is below 1/8. What is not seen: a dip narrower than the
// initial sample spacing (a quarter of a step) whose sides never reach the
// samples, or that falls to zero faster than |t - t*|^0.21.
template <class S>
class SingularSetWatch {
 public:
  struct Crossing {
    S t;
    std::string condition, message;
  };
  /// The integration state x at a time within the step (f.from_state gives (q, qdot)).
  using StateAt = std::function<void(const S&, Vec<S>&)>;
  /// (q, qdot) at a time within the step (the discrete steppers' interpolant).
  using PointAt = std::function<void(const S&, Vec<S>&, Vec<S>&)>;

  // f: the formulation whose state x is, and whose own margins are watched
  // too; nullptr for the discrete steppers (the system's margins only: they
  // do not use a formulation's field).
  SingularSetWatch(const System<S>& sys, const Formulation<S>* f, const S& threshold)
      : sys_(sys), f_(f), threshold_(threshold) {
    active_ = threshold > 0 && (sys.r > 0 || static_cast<bool>(sys.singular_margins));
  }
  bool active() const { return active_; }
  // The size of f's state x_f: an interpolated state that carries the work
  // W after it (IntegrationOptions::power) is cut to it before from_state.
  void state_size(Eigen::Index size) { size_ = size; }

  // Throws SingularState naming the first margin at or below the threshold
  // at (q, qd) (the initial state), as require_margins does.
  void require(const Vec<S>& q, const Vec<S>& qd) {
    for (const Margin<S>& m : margins(q, qd))
      if (!(m.value > threshold_))  // NaN counts as singular
        throw SingularState(m.condition, singular_margin_message(m, threshold_, q, qd));
  }

  // Scans [t0, t1] along state_at (the stepper's dense output, or a cubic
  // Hermite interpolant), as described above. The first time found with a
  // margin <= threshold (located by bisection after the last time above
  // it) is the crossing.
  std::optional<Crossing> scan(const S& t0, const S& t1, const StateAt& state_at) {
    return scan_points(t0, t1, [&](const S& t, Vec<S>& q, Vec<S>& qd) {
      state_at(t, x_);
      if (!x_.allFinite())  // e.g. Odeint's Bulirsch-Stoer interpolant on steps ~1e-300
        throw NonFiniteValue("non-finite value: the state interpolated within a step at t = " +
                             to_string<S>(t) + ", x = " + to_string(x_));
      if (size_ >= 0 && x_.size() > size_) x_.conservativeResize(size_);
      f_->from_state(sys_, x_, q, qd);
    });
  }

  std::optional<Crossing> scan_points(const S& t0, const S& t1, const PointAt& point_at) {
    using std::abs;
    using std::max;
    constexpr int N = 4;
    std::vector<std::pair<S, S>> g;  // (t, smallest margin), in increasing t
    g.reserve(4 * (N + 1));
    for (int j = 0; j <= N; ++j) {
      const S t = j == N ? t1 : t0 + (t1 - t0) * S(j) / S(N);
      g.emplace_back(t, j == 0 && have_last_ && last_t_ == t0 ? last_g_ : smallest(t, point_at).value);
    }
    have_last_ = true;
    last_t_ = t1;
    last_g_ = g.back().second;
    const S resolution = S(5) / S(4);  // see the class comment
    // Interval [g[a], g[a + 1]] at the resolution of t (or of the step, near t = 0).
    const auto too_short = [&](std::size_t a) {
      return g[a + 1].first - g[a].first <=
             S(8) * epsilon<S>() * max(max(abs(g[a].first), abs(g[a + 1].first)), t1 - t0);
    };
    for (int evaluations = 0; evaluations < kMaxEvaluations;) {
      const std::size_t size = g.size();
      std::size_t below = size;  // the first sample at or below the threshold
      for (std::size_t k = 0; k < size && below == size; ++k)
        if (!(g[k].second > threshold_)) below = k;
      S lipschitz(0);
      for (std::size_t k = 0; k + 1 < size; ++k)
        lipschitz = max(lipschitz, abs(g[k + 1].second - g[k].second) / (g[k + 1].first - g[k].first));
      lipschitz *= S(2);
      // The first unresolved minimum before it: halve the intervals beside it.
      std::vector<std::size_t> halve;
      for (std::size_t j = 0; j < below && halve.empty(); ++j) {
        const S gj = g[j].second;
        if ((j > 0 && !(gj <= g[j - 1].second)) || (j + 1 < size && !(gj <= g[j + 1].second))) continue;
        const std::size_t lo = j == 0 ? 0 : j - 1, hi = j + 1 == size ? j : j + 1;
        const std::size_t wlo = j + 1 == size && j >= 2 ? j - 2 : lo;  // two samples on an end's one side
        const std::size_t whi = j == 0 && size > 2 ? 2 : hi;
        bool resolved = true;
        for (std::size_t k = wlo; k <= whi; ++k) resolved = resolved && g[k].second <= resolution * gj;
        S width(0);
        if (j > 0) width = max(width, g[j].first - g[j - 1].first);
        if (j + 1 < size) width = max(width, g[j + 1].first - g[j].first);
        resolved = resolved && gj - lipschitz * width > threshold_;
        if (resolved) continue;
        if (j > 0 && !too_short(j - 1)) halve.push_back(j - 1);
        if (j + 1 < size && !too_short(j)) halve.push_back(j);
      }
      if (halve.empty()) {
        if (below == size) return std::nullopt;
        return below == 0 ? crossing_at(g[0].first, point_at)
                          : first_below(g[below - 1].first, g[below].first, point_at);
      }
      for (auto it = halve.rbegin(); it != halve.rend(); ++it) {  // from the right: indices stay valid
        const S t = (g[*it].first + g[*it + 1].first) / S(2);
        g.insert(g.begin() + static_cast<std::ptrdiff_t>(*it + 1), {t, smallest(t, point_at).value});
        ++evaluations;
      }
    }
    // Not resolved within the budget (a margin that oscillates at every
    // scale): the samples so far decide.
    for (std::size_t k = 0; k < g.size(); ++k)
      if (!(g[k].second > threshold_))
        return k == 0 ? crossing_at(g[0].first, point_at)
                      : first_below(g[k - 1].first, g[k].first, point_at);
    return std::nullopt;
  }

  // Forget the margin cached at the end of the last step (the state was
  // changed, e.g. projected).
  void forget() { have_last_ = false; }

 private:
  // Margin evaluations a scan may add to its 5 samples.
  static constexpr int kMaxEvaluations = 2000;

  std::vector<Margin<S>> margins(const Vec<S>& q, const Vec<S>& qd) const {
    // A formulation that takes redundant constraints (Udwadia-Kalaba) is
    // watched for rank loss of dC/dqdot below its rank at the first state
    // watched (the motion's start): rank < r throughout where constraints
    // are redundant, r where they are not.
    if (rank_ < 0 && f_ && takes_redundant_constraints(*f_) && sys_.r > 0) {
      const Mat<S> A = constraint_jacobians(sys_, q, qd).C_qdot;
      rank_ = A.allFinite() ? row_direction_rank<S>(A) : static_cast<int>(sys_.r);
    }
    std::vector<Margin<S>> all = formulation_regularity_margins(sys_, f_, q, qd, rank_ < 0 ? 0 : rank_);
    if (f_)
      for (Margin<S>& m : f_->singular_margins(sys_, q, qd)) all.push_back(std::move(m));
    return all;
  }

  Margin<S> smallest(const S& t, const PointAt& point_at) {
    point_at(t, q_, qd_);
    // No margin at all (Udwadia-Kalaba on a system with no singular set of
    // its own: rank loss of dC/dqdot is none of its): nothing is near.
    Margin<S> best{"", std::numeric_limits<S>::infinity(), ""};
    bool first = true;
    for (Margin<S>& m : margins(q_, qd_)) {
      if (first || !(m.value >= best.value)) best = std::move(m);  // NaN wins
      first = false;
    }
    return best;
  }

  // The crossing between a (margin > threshold) and b (margin <= threshold):
  // bisection to 8 eps |b|, reported at the first time found at or below.
  Crossing first_below(S a, S b, const PointAt& point_at) {
    using std::abs;
    using std::max;
    for (int it = 0; it < 200 && b - a > S(8) * epsilon<S>() * max(abs(a), abs(b)); ++it) {
      const S c = (a + b) / S(2);
      if (smallest(c, point_at).value > threshold_) a = c;
      else b = c;
    }
    return crossing_at(b, point_at);
  }

  Crossing crossing_at(const S& t, const PointAt& point_at) {
    const Margin<S> m = smallest(t, point_at);
    return Crossing{t, m.condition,
                    "singular state: " + m.condition + " (" + m.name + " = " +
                        to_string<S>(m.value) + ", margin " + to_string<S>(threshold_) +
                        ") reached at t = " + to_string<S>(t) + " " + state_context(q_, qd_)};
  }

  const System<S>& sys_;
  const Formulation<S>* f_;
  S threshold_;
  Eigen::Index size_ = -1;
  bool active_ = false;
  bool have_last_ = false;
  S last_t_{0}, last_g_{0};
  Vec<S> x_, q_, qd_;
  mutable int rank_ = -1;  // margins(): the rank of dC/dqdot's directions at the start (-1: not yet)
};

// The cubic Hermite interpolant on [t0, t1] through (x0, f0) and (x1, f1):
// the state within a step of a controlled stepper, which has no dense
// output, for the singular-set watch (local error O(h^4)).
template <class S>
void hermite(const S& t0, const S& t1, const OdeState<S>& x0, const OdeState<S>& f0,
             const OdeState<S>& x1, const OdeState<S>& f1, const S& t, Vec<S>& out) {
  const S h = t1 - t0, s = (t - t0) / h, s2 = s * s, s3 = s2 * s;
  const S h00 = S(2) * s3 - S(3) * s2 + S(1), h10 = s3 - S(2) * s2 + s;
  const S h01 = S(3) * s2 - S(2) * s3, h11 = s3 - s2;
  out.resize(static_cast<Eigen::Index>(x0.size()));
  for (std::size_t i = 0; i < x0.size(); ++i)
    out[static_cast<Eigen::Index>(i)] = h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i];
}

// The same for a configuration: q(t) the cubic Hermite interpolant through
// (q0, v0) and (q1, v1) on [t0, t1], qd(t) its derivative: the motion
// between two nodes of a discrete stepper, for the singular-set watch.
template <class S>
void hermite_point(const S& t0, const S& t1, const Vec<S>& q0, const Vec<S>& v0, const Vec<S>& q1,
                   const Vec<S>& v1, const S& t, Vec<S>& q, Vec<S>& qd) {
  const S h = t1 - t0, s = (t - t0) / h, s2 = s * s, s3 = s2 * s;
  const S h00 = S(2) * s3 - S(3) * s2 + S(1), h10 = s3 - S(2) * s2 + s;
  const S h01 = S(3) * s2 - S(2) * s3, h11 = s3 - s2;
  const S d00 = S(6) * (s2 - s), d10 = S(3) * s2 - S(4) * s + S(1), d11 = S(3) * s2 - S(2) * s;
  q = h00 * q0 + (h10 * h) * v0 + h01 * q1 + (h11 * h) * v1;
  qd = (d00 / h) * (q0 - q1) + d10 * v0 + d11 * v1;
}

// psi's reach (docs/numerics.md, "psi's reach"). A formulation whose state
// x has fewer components than (q, qdot) (n + m: first-kind, maggi,
// gibbs-appell; 2n - r: voronec, naive-reduced; and their generated
// fields) gives qdot from it through psi(q, z) or Voronec's P(q)
// qdot_indep, on C by construction: C^a(q, qdot) is round-off wherever psi
// holds. The fields in (q, qdot) (2n: second-kind, udwadia-kalaba,
// lagrange-multipliers) are only tangent to C and drift off it
// legitimately: they are not watched. At the end of every accepted step each
// |C^a| is compared with the drift bound of `nhs check` on max |C|
// (precision_policy<S>().strict.drift: double 1e-9, long double 1e-12,
// float128 1e-25, mp50 1e-40, mp100 1e-80) times the constraint's own
// scale max(1 + |qdot|^2, sum_i |C^a_i qdot^i|) (the first term alone
// first: the Jacobian only where it is exceeded). Beyond it psi has left
// its reach (a chart v = sqrt(xd^2 + yd^2) followed past v = 0, where psi
// gives zdot = k v < 0 and C needs k |v|): the first time in the step
// where it is so is found by bisection along the step's interpolant.
template <class S>
class ReachWatch {
 public:
  struct Exit {
    S t;
    std::string message;
  };
  using StateAt = std::function<void(const S&, Vec<S>&)>;

  // size: of f's state x_f (the work W, when carried, follows it).
  ReachWatch(const System<S>& sys, const Formulation<S>& f, Eigen::Index size)
      : sys_(sys), f_(f), size_(size), bound_(precision_policy<S>().strict.drift) {
    active_ = sys.r > 0 && size < 2 * sys.n;
  }
  bool active() const { return active_; }

  // Nothing when the state x at the end of the step [t0, t1] is within
  // psi's reach; else the first time in (t0, t1] found beyond it, with the
  // message naming the constraint, its value, the bound, the time and the
  // state. state_at: the step's interpolant (x at a time in [t0, t1]).
  std::optional<Exit> check(const S& t0, const S& t1, const OdeState<S>& x_end, const StateAt& state_at) {
    if (!active_) return std::nullopt;
    const Vec<S> x = to_vec(x_end);
    if (!beyond(x)) return std::nullopt;
    using std::abs;
    using std::max;
    S a = t0, b = t1;
    Vec<S> xi;
    for (int it = 0; it < 200 && b - a > S(8) * epsilon<S>() * max(abs(a), abs(b)); ++it) {
      const S c = (a + b) / S(2);
      state_at(c, xi);
      if (xi.allFinite() && beyond(xi)) b = c;
      else a = c;
    }
    if (b < t1) state_at(b, xi);
    else xi = x;
    beyond(xi);
    return Exit{b, "left the constraint manifold C at t = " + to_string<S>(b) + ": the constraint " +
                       sys_.info.constraint_names[static_cast<std::size_t>(worst_)] + " = " +
                       to_string<S>(value_) + " at qdot = psi(q, z), beyond the round-off bound " +
                       to_string<S>(bound_ * scale_) + " (" + to_string<S>(bound_) + " x " + to_string<S>(scale_) +
                       "), " + state_context(q_, qd_) + ", state x = " + to_string(Vec<S>(xi.head(size_))) + " of " +
                       f_.name() + ": the motion has left the reach of the parametrization psi(q, z) (for a system "
                       "file: declare where psi and its chart hold, [parametrization] domain, docs/system-files.md)"};
  }

 private:
  // Whether x is beyond psi's reach; sets worst_, value_, scale_, q_, qd_.
  bool beyond(const Vec<S>& x) {
    using std::abs;
    using std::max;
    f_.from_state(sys_, x.head(size_), q_, qd_);
    Vec<S> C(sys_.r);
    sys_.constraints(q_, qd_, C);
    const S base = S(1) + qd_.squaredNorm();
    bool over = false;
    for (Eigen::Index a = 0; a < sys_.r; ++a) over = over || abs(C[a]) > bound_ * base;
    if (!over) return false;
    const Mat<S> J = constraint_jacobians(sys_, q_, qd_).C_qdot;
    for (Eigen::Index a = 0; a < sys_.r; ++a) {
      S terms(0);
      for (Eigen::Index i = 0; i < sys_.n; ++i) terms += abs(J(a, i) * qd_[i]);
      const S scale = max(base, terms);
      if (abs(C[a]) > bound_ * scale) {
        worst_ = a;
        value_ = C[a];
        scale_ = scale;
        return true;
      }
    }
    return false;
  }

  const System<S>& sys_;
  const Formulation<S>& f_;
  Eigen::Index size_;
  S bound_;
  bool active_ = false;
  Eigen::Index worst_ = 0;
  S value_{0}, scale_{0};
  Vec<S> q_, qd_;
};

// The relative step floor (docs/numerics.md, "Step-size collapse"). The
// error control of an adaptive stepper at a point where the field is not
// smooth (a jump of the field or of its derivative that the motion does not
// cross but slides along: a chattering switch) or is very stiff keeps the
// steps at the scale of the tolerance, not of the precision: on
// x' = -sign(x - 0.3) at rtol 1e-12 dopri5 hovers at h ~ 1.1e-10, verner87
// at 1.5e-9 (100 to 1500 rtol), and on the Appell-Hamel point's second
// kind verner87 ground on after v = 0 (130 million RHS calls). A trial step
// shorter than rho |t|,
//   rho = max(1000 eps, min(1e5 rtol, 1e-7)),
// kAttempts times in a row (accepted or rejected), or kMinAttempts times
// in a row having cost kCalls RHS calls, stops the run with
// IntegrationFailure (exit 4) within about 1e5 RHS calls of the collapse.
// rho: 1000 ulps of t at the least; at most 1e-7, so that such steps double
// t only after 7e6 of them, which no run affords within the default RHS
// budget (2e8) at verner87's 13 calls a step; 1e5 rtol where smaller, which
// still holds the chattering steps of every stepper from t ~ 0.02 on. A run
// that crosses a kink or a jump (shortening its steps for a few dozen of
// them) or a short stiff transient lengthens its steps again, and a longer
// step resets the count.
template <class S>
class StepFloor {
 public:
  static constexpr std::uint64_t kAttempts = 2000, kMinAttempts = 100, kCalls = 50000;

  explicit StepFloor(const S& rtol) {
    using std::max;
    using std::min;
    rho_ = max(S(1000) * epsilon<S>(), min(S(100000) * rtol, power_of_ten<S>(-7)));
  }

  // After a trial step of length h from t; stats: the run's so far.
  void attempted(const S& t, const S& h, const IntegrationStats& stats) {
    using std::abs;
    if (!(abs(h) < rho_ * abs(t))) {
      attempts_ = 0;
      return;
    }
    if (attempts_++ == 0) {
      since_ = t;
      first_call_ = stats.rhs_calls;
    }
    const std::uint64_t calls = stats.rhs_calls - first_call_;
    if (attempts_ >= kAttempts || (attempts_ >= kMinAttempts && calls >= kCalls))
      throw IntegrationFailure("step size collapsed at t = " + to_string<S>(t) +
                               ", the field is not smooth or is stiff here: " + std::to_string(attempts_) +
                               " trial steps in a row shorter than " + to_string<S>(rho_) + " |t| (the last " +
                               to_string<S>(h) + ") since t = " + to_string<S>(since_) + ", " +
                               std::to_string(calls) + " RHS calls");
  }

 private:
  S rho_;
  std::uint64_t attempts_ = 0, first_call_ = 0;
  S since_{0};
};

// What both integration loops share: the right-hand side, the output times,
// the observer, the optional projection onto C, the singular-set watch and
// the per-step callback.
template <class S>
struct Loop {
  Rhs<S>& rhs;
  const OutputTimes<S>& times;
  std::function<void(const OdeState<S>&, const S&)> observe;
  std::function<void(OdeState<S>&)> project;  ///< empty: no projection
  SingularSetWatch<S>& watch;
  ReachWatch<S>& reach;
  const std::function<void(const S&, const IntegrationStats&)>& on_step;
  IntegrationStats& stats;
  StepFloor<S> floor;
  // A singular state met at a trial stage while the watch is active
  // (defer): the set may be one the watch follows (e.g. Voronec's split,
  // whose field refuses only within 100 eps of it), and the watch then
  // names it at its crossing, on the shorter steps that follow. The error
  // is kept and raised as the stage raised it once an accepted step ends
  // beyond the failed trial's span without the watch stopping the run (a
  // set the watch does not follow), at the 20th such trial, or where the
  // steps would fail otherwise (a field that refuses farther from the set
  // than the watch's threshold: the steps shrink towards it).
  std::optional<SingularState> deferred = std::nullopt;
  S deferred_until = S(0);
  int deferred_trials = 0;

  // Whether the caller may retry the trial [t, t + h] that raised e, shorter.
  bool defer(const SingularState& e, const S& t, const S& h) {
    if (!watch.active() || ++deferred_trials > 20) return false;
    if (!deferred) {
      deferred = e;
      deferred_until = t + h;
    }
    return true;
  }

  // The reach watch on a controlled stepper's accepted step [t0, t1] from
  // x0 to x1, along the cubic Hermite interpolant of its ends (their
  // derivatives computed here, once, when the end is beyond the reach; the
  // straight line between them if the field fails there). Its output
  // samples are the ends of steps: those before t0 have been delivered.
  void check_reach(const S& t0, const S& t1, const OdeState<S>& x0, const OdeState<S>& x1) {
    if (!reach.active()) return;
    std::optional<OdeState<S>> f0, f1;
    const auto e = reach.check(t0, t1, x1, [&](const S& ti, Vec<S>& out) {
      if (!f0) {
        f0.emplace();
        f1.emplace();
        try {
          rhs(x0, *f0, t0);
          rhs(x1, *f1, t1);
        } catch (const std::exception&) {
          f0->assign(x0.size(), S(0));
          f1->assign(x0.size(), S(0));
          for (std::size_t i = 0; i < x0.size(); ++i) (*f0)[i] = (*f1)[i] = (x1[i] - x0[i]) / (t1 - t0);
        }
      }
      hermite(t0, t1, x0, *f0, x1, *f1, ti, out);
    });
    if (e) throw InvalidState(e->message);
  }

  // After every accepted step ending at t (the watch has scanned it).
  void stepped(const S& t) {
    if (deferred && t >= deferred_until) throw *deferred;
    ++stats.steps;
    if (on_step) on_step(t, stats);
  }
};

// Controlled steppers (fehlberg78, verner87, the high-order Bulirsch-Stoer): every
// output time is the end of a step, as in Odeint's integrate_times, with
// exact comparisons of times; the step cut for an output time ends on it
// exactly.
template <class S, class Stepper>
void run_controlled(Stepper& stepper, OdeState<S>& x, S dt, Loop<S>& L) {
  odeint::max_step_checker checker(10000000);
  odeint::failed_step_checker fail_checker;
  S t = L.times[0];
  L.observe(x, t);
  OdeState<S> x0, f0, f1, xr;  // xr: the step's start, for the reach watch
  bool have_f0 = false;
  int overflows = 0;  // trial steps in a row whose stages overflowed
  for (std::uint64_t k = 1; k < L.times.size(); ++k) {
    const S tk = L.times[k];
    while (t < tk) {
      using std::max;
      const bool to_output = !(dt < tk - t);
      S dt_step = to_output ? tk - t : dt;
      if (t + dt_step == t) {
        if (L.deferred) throw *L.deferred;
        throw IntegrationFailure("step size underflow at t = " + to_string<S>(t) + " (step " +
                                 to_string<S>(dt_step) + ")");
      }
      const S t0 = t;
      if (L.watch.active()) {
        x0 = x;
        if (!have_f0) L.rhs(x0, f0, t0);
        have_f0 = true;
      }
      // A trial step whose stages overflow (a first step dt_out/16 far too
      // long for the motion) is rejected and retried 10 times shorter; 20
      // such in a row (a factor 1e-20) report the overflow itself.
      odeint::controlled_step_result result;
      if (L.reach.active()) xr = x;
      const S tried = dt_step;  // try_step changes it to the next step's
      try {
        result = stepper.try_step(std::ref(L.rhs), x, t, dt_step);
        L.floor.attempted(t0, tried, L.stats);
        overflows = 0;
      } catch (const NonFiniteValue&) {
        if (++overflows > 20) throw;
        dt = dt_step / S(10);
        continue;
      } catch (const SingularState& e) {
        if (!L.defer(e, t, dt_step)) throw;
        dt = dt_step / S(10);
        continue;
      }
      if (result == odeint::success) {
        if (to_output) t = tk;
        if (L.watch.active()) {
          L.rhs(x, f1, t);
          if (const auto c = L.watch.scan(t0, t, [&](const S& ti, Vec<S>& xi) {
                hermite(t0, t, x0, f0, x, f1, ti, xi);
              }))
            throw SingularState(c->condition, c->message, to_string<S>(c->t));
          std::swap(f0, f1);
        }
        L.check_reach(t0, t, xr, x);
        if (L.project) {
          L.project(x);
          have_f0 = false;
          L.watch.forget();
        }
        L.stepped(t);
        checker();
        fail_checker.reset();
        dt = max(dt, dt_step);  // continue with the step size cut for the output time
      } else {
        fail_checker();
        dt = dt_step;
      }
    }
    L.observe(x, tk);
    checker.reset();
  }
}

// The checks of a dense-output stepper's accepted step `span`: the
// singular-set watch (along the stepper's dense output, or, where that costs
// RHS calls (verner87's extra stages), the cubic Hermite interpolant of the
// step's ends, as for the controlled steppers), the step floor and psi's
// reach. observe_until(t, false) delivers the samples before a stop; xi is
// scratch space.
template <class S, class Stepper, class ObserveUntil>
void check_dense_step(Stepper& stepper, const std::pair<S, S>& span, Loop<S>& L, OdeState<S>& xi,
                      const ObserveUntil& observe_until) {
  if (L.watch.active()) {
    if (const auto c = L.watch.scan(span.first, span.second, [&](const S& ti, Vec<S>& out) {
          if constexpr (requires { stepper.current_derivative(); }) {
            hermite(span.first, span.second, stepper.previous_state(), stepper.previous_derivative(),
                    stepper.current_state(), stepper.current_derivative(), ti, out);
          } else {
            stepper.calc_state(ti, xi);
            out = to_vec(xi);
          }
        })) {
      observe_until(c->t, false);  // the samples before the crossing are kept
      throw SingularState(c->condition, c->message, to_string<S>(c->t));
    }
  }
  L.floor.attempted(span.first, span.second - span.first, L.stats);
  if (const auto e = L.reach.check(span.first, span.second, stepper.current_state(), [&](const S& ti, Vec<S>& out) {
        stepper.calc_state(ti, xi);
        out = to_vec(xi);
      })) {
    observe_until(e->t, false);  // the samples before it are kept
    throw InvalidState(e->message);
  }
}

// Dense-output steppers (dopri5, Odeint's Bulirsch-Stoer): the output times
// are interpolated; the last step is cut to end on t_end, as in Odeint's
// integrate_times, with relative comparisons of times (reached()).
template <class S, class Stepper>
void run_dense(Stepper& stepper, OdeState<S>& x, S dt, Loop<S>& L) {
  odeint::max_step_checker checker(10000000);
  const S last = L.times.back();
  OdeState<S> xs = x, xi = x;  // xs: output samples, xi: states within a step (the watch)
  int overflows = 0;            // steps in a row whose trial stages overflowed
  if (L.project) L.project(x);
  stepper.initialize(x, L.times[0], dt);
  L.observe(x, L.times[0]);  // no step taken yet: nothing to interpolate
  std::uint64_t k = 1;
  const auto observe_until = [&](const S& t_stop, bool inclusive) {
    while (k < L.times.size() &&
           (inclusive ? reached(L.times[k], t_stop) : L.times[k] < t_stop)) {
      stepper.calc_state(L.times[k], xs);
      if (L.project) L.project(xs);
      L.observe(xs, L.times[k]);
      checker.reset();
      ++k;
    }
  };
  while (true) {
    observe_until(stepper.current_time(), true);
    if (k == L.times.size()) break;
    if (L.project && L.stats.steps > 0) {
      // Restart from the projected state: the stored derivative (FSAL for
      // dopri5) and the interpolation data belong to the unprojected one.
      xs = stepper.current_state();
      L.project(xs);
      stepper.initialize(xs, stepper.current_time(), stepper.current_time_step());
      L.watch.forget();
    }
    if (!(stepper.current_time() + stepper.current_time_step() <= last))
      stepper.initialize(stepper.current_state(), stepper.current_time(),
                         last - stepper.current_time());
    // As in run_controlled: a step whose trial stages overflow is retried
    // from the same state 10 times shorter, 20 times at most.
    std::pair<S, S> span;
    try {
      span = stepper.do_step(std::ref(L.rhs));
      overflows = 0;
    } catch (const NonFiniteValue&) {
      if (++overflows > 20) throw;
      stepper.initialize(stepper.current_state(), stepper.current_time(), stepper.current_time_step() / S(10));
      L.watch.forget();
      continue;
    } catch (const SingularState& e) {
      if (!L.defer(e, stepper.current_time(), stepper.current_time_step())) throw;
      stepper.initialize(stepper.current_state(), stepper.current_time(), stepper.current_time_step() / S(10));
      L.watch.forget();
      continue;
    }
    if (!(span.second > span.first)) {
      if (L.deferred) throw *L.deferred;
      throw IntegrationFailure("step size underflow at t = " + to_string<S>(span.first));
    }
    check_dense_step<S>(stepper, span, L, xi, observe_until);
    L.stepped(span.second);
    checker();
  }
  x = stepper.current_state();
  if (L.project) L.project(x);
}

}  // namespace

template <class S>
Vec<S> project_state(const System<S>& sys, const Formulation<S>& f, const Vec<S>& x) {
  Vec<S> q, qd;
  f.from_state(sys, x, q, qd);
  if (sys.project_coordinates) sys.project_coordinates(q);
  return f.to_state(sys, q, project_velocity(sys, q, qd));
}

template <class S>
Stepper validated_stepper(const IntegrationOptions<S>& opts, bool round_off_grows_with_speed) {
  if (!(opts.t_end > 0) || !(opts.dt_out > 0) || !(opts.rtol > 0) || !(opts.atol >= 0))
    throw UsageError("t-end, dt-out and rtol must be positive and atol non-negative");
  using boost::multiprecision::isfinite;
  using std::isfinite;
  if (!isfinite(opts.t_end) || !isfinite(opts.dt_out) || !isfinite(opts.rtol) ||
      !isfinite(opts.atol))
    throw UsageError("t-end, dt-out, rtol and atol must be finite");

  const Stepper stepper = resolved_stepper<S>(opts.stepper, opts.rtol, round_off_grows_with_speed);
  if (const S floor = minimum_tolerance<S>(stepper); opts.rtol < floor) {
    const auto figure = [](const S& v) {  // 3 digits: a tolerance, not a result
      std::ostringstream os;
      os << std::setprecision(3) << static_cast<double>(v);
      return os.str();
    };
    throw UsageError("rtol " + figure(opts.rtol) + " is below what " +
                     std::string(stepper_name(stepper)) + " reaches in " +
                     std::string(ScalarName<S>::value) + ": " + figure(floor) +
                     (floor > S(10) * epsilon<S>()
                          ? " (about 10^6 steps per unit time on a motion of size 1); give a "
                            "larger rtol or use bulirsch-stoer"
                          : " (10 epsilon of the precision)"));
  }
  (void)OutputTimes<S>(opts.t_end, opts.dt_out, opts.max_samples);  // the grid's size
  if (is_discrete_stepper(stepper)) {
    if (!(opts.step >= 0) || !isfinite(opts.step))
      throw UsageError("the step must be positive and finite (0: the default 1/100)");
    if (opts.project)
      throw UsageError(std::string("--project: stepper ") + std::string(stepper_name(stepper)) +
                       " keeps its own constraints (the discrete constraint at every step; nh-rattle and nh-midpoint also C "
                       "at the step's ends): run it without --project");
    const S step = opts.step > 0 ? opts.step : S(1) / S(100);
    if (!(opts.t_end / step < S(1e12)))
      throw UsageError("t-end / step = " + to_string<S>(opts.t_end / step) +
                       " fixed steps; at most 1e12 (raise the step)");
  }
  return stepper;
}

namespace {

// Interval i of the output grid, [times[i], times[i + 1]], in the fewest
// equal steps not longer than `requested`: their count and length.
template <class S>
std::pair<std::uint64_t, S> discrete_steps(const OutputTimes<S>& times, std::uint64_t i, const S& requested) {
  using std::ceil;
  const S length = times[i + 1] - times[i];
  const S ratio = ceil(length / requested * (S(1) - S(16) * epsilon<S>()));
  const std::uint64_t count = ratio < S(1) ? 1 : static_cast<std::uint64_t>(ratio);
  return std::pair<std::uint64_t, S>{count, length / S(count)};
}

// IntegrationFailure when a discrete run has evaluated its equations more
// often than opts.max_rhs_calls before t.
template <class S>
void require_discrete_budget(const IntegrationStats& st, const IntegrationOptions<S>& opts, const S& t) {
  if (st.rhs_calls > opts.max_rhs_calls)
    throw IntegrationFailure("more than " + std::to_string(opts.max_rhs_calls) +
                             " evaluations of the discrete equations before t = " + to_string<S>(t));
}

// The check of a discrete run's step [t_node, t] from (q_node, v_node) to
// (q1, p1): finite, and clear of the singular sets (the watch, along the
// cubic Hermite interpolant of the nodes' q and velocities). The step's
// end becomes the next node.
template <class S>
struct DiscreteStepCheck {
  const DiscreteLagrangeDAlembert<S>& method;
  SingularSetWatch<S>& watch;
  S t_node;
  Vec<S> q_node, v_node;

  void operator()(const S& t, const Vec<S>& q1, const Vec<S>& p1) {
    if (!q1.allFinite() || !p1.allFinite())
      throw NonFiniteValue("non-finite value: the state at t = " + to_string<S>(t) + ", q = " +
                           to_string(q1) + ", p = " + to_string(p1));
    if (!watch.active()) return;
    const Vec<S> v1 = method.velocity(q1, p1);
    if (const auto c = watch.scan_points(t_node, t, [&](const S& ti, Vec<S>& q, Vec<S>& qd) {
          hermite_point(t_node, t, q_node, v_node, q1, v1, ti, q, qd);
        }))
      throw SingularState(c->condition, c->message, to_string<S>(c->t));
    t_node = t;
    q_node = q1;
    v_node = v1;
  }
};

// The fixed-step run of the discrete Lagrange-d'Alembert steppers
// (nhs/discrete_lagrange_dalembert.hpp): each output interval in the fewest
// equal steps not longer than opts.step. Samples carry q at the nodes and
// the velocity of the node's momentum (dla: the mean of the momenta on
// either side, which needs the next step, made ahead; nh-rattle,
// nh-midpoint: the end momentum, on C). The margins to the singular sets are
// watched as for the continuous steppers (SingularSetWatch, at the same
// threshold), along the cubic Hermite interpolant of each step's nodes q
// and velocities g^-1 (p - b) of the momenta arriving there: the steppers
// have no dense output, and a node on either side of a set would let a
// run pass through it.
template <class S>
void run_discrete(const System<S>& sys, Stepper stepper, const Vec<S>& q0, const Vec<S>& qd0,
                  const IntegrationOptions<S>& opts, const OutputTimes<S>& times,
                  const std::function<void(const Sample<S>&)>& observe, IntegrationStats& st,
                  SingularSetWatch<S>& watch) {
  const DiscreteScheme scheme = stepper == Stepper::dla         ? DiscreteScheme::dla
                               : stepper == Stepper::nh_rattle ? DiscreteScheme::nh_rattle
                                                               : DiscreteScheme::nh_midpoint;
  const DiscreteLagrangeDAlembert<S> method(sys, scheme, q0, qd0);
  const S requested = opts.step > 0 ? opts.step : S(1) / S(100);
  const Eigen::Index r = sys.r;
  Vec<S> q = q0, v = qd0, lambda = Vec<S>::Zero(r), mu = Vec<S>::Zero(r);
  const Vec<S> p_given = method.momentum(q0, qd0);
  Vec<S> p = p_given;
  std::optional<DiscreteStep<S>> ahead;  // dla: the step from the current node, made to report it
  if (scheme == DiscreteScheme::dla) {
    // The momentum arriving at q0 such that the mean with the one leaving
    // (p + h A^T lambda) is the given momentum: p = p_given - h A^T lambda / 2,
    // by two passes (the second from the first's lambda).
    const S h = discrete_steps(times, 0, requested).second;
    DiscreteStep<S> first = method.step(q, p, h, v, lambda, mu, &st.rhs_calls);
    p = p_given - (first.p0_plus - p) / S(2);
    ahead = method.step(q, p, h, first.v, first.lambda, mu, &st.rhs_calls);
  }
  DiscreteStepCheck<S> check_step{method, watch, S(0), q0, method.velocity(q0, p)};
  observe(Sample<S>{S(0), q0, qd0, std::nullopt});
  for (std::uint64_t i = 0; i + 1 < times.size(); ++i) {
    const auto [count, h] = discrete_steps(times, i, requested);
    for (std::uint64_t j = 0; j < count; ++j) {
      const S t = j + 1 == count ? times[i + 1] : times[i] + S(j + 1) * h;
      DiscreteStep<S> s = ahead ? std::move(*ahead) : method.step(q, p, h, v, lambda, mu, &st.rhs_calls);
      ahead.reset();
      q = s.q1;
      p = s.p1;
      v = s.v;
      lambda = s.lambda;
      if (scheme != DiscreteScheme::dla) mu = s.mu;
      ++st.steps;
      require_discrete_budget(st, opts, t);
      check_step(t, q, p);
      if (opts.on_step) opts.on_step(t, st);
    }
    Vec<S> p_node = p;
    if (scheme == DiscreteScheme::dla) {
      const S h_next = i + 2 < times.size() ? discrete_steps(times, i + 1, requested).second : h;
      ahead = method.step(q, p, h_next, v, lambda, mu, &st.rhs_calls);
      require_discrete_budget(st, opts, times[i + 1]);
      p_node = (p + ahead->p0_plus) / S(2);
    }
    observe(Sample<S>{times[i + 1], q, method.velocity(q, p_node), std::nullopt});
  }
}

// Runs the continuous `stepper` from x over the output times of `loop`
// (first step dt0): IntegrationFailure when Odeint gives up, or the
// singular state it deferred.
template <class S>
void run_continuous(Stepper stepper, const IntegrationOptions<S>& opts, OdeState<S>& x, const S& dt0, Loop<S>& loop) {
  try {
    switch (stepper) {
    case Stepper::dopri5: {
      auto s = odeint::make_dense_output(opts.atol, opts.rtol,
                                         odeint::runge_kutta_dopri5<OdeState<S>, S, OdeState<S>, S>());
      run_dense<S>(s, x, dt0, loop);
      break;
    }
    case Stepper::fehlberg78: {
      // Fehlberg 7(8) under step-doubling error control
      // (detail/fehlberg78_step_doubling.hpp: Fehlberg's own estimate
      // vanishes on uniform motions).
      detail::Fehlberg78StepDoubling<OdeState<S>, S> s(opts.atol, opts.rtol);
      run_controlled<S>(s, x, dt0, loop);
      break;
    }
    case Stepper::verner87:
      if constexpr (decimal_digits<S>() <= kVerner87DenseDigits) {
        // Verner 8(7) with its 8th-order interpolant (detail/verner87_dense.hpp):
        // output times interpolated, as dopri5's.
        detail::Verner87Dense<OdeState<S>, S> s(opts.atol, opts.rtol);
        run_dense<S>(s, x, dt0, loop);
      } else {
        // Verner 8(7), exact rational coefficients (detail/verner87.hpp), under
        // Odeint's controlled_runge_kutta (error checker and step adjuster):
        // the interpolant's 40-digit coefficients would cap mp50 and mp100.
        using Verner = detail::Verner87<OdeState<S>, S>;
        odeint::controlled_runge_kutta<Verner> s(
            odeint::default_error_checker<S, typename Verner::algebra_type,
                                          typename Verner::operations_type>(opts.atol, opts.rtol));
        run_controlled<S>(s, x, dt0, loop);
      }
      break;
    case Stepper::dla:
    case Stepper::nh_rattle:
    case Stepper::nh_midpoint:  // run_discrete: not reached
    case Stepper::bulirsch_stoer:
    case Stepper::automatic:  // resolved by validated_stepper: not reached
      if constexpr (decimal_digits<S>() > kDenseBulirschStoerDigits) {
        // Beyond 33 digits: 16 (mp50) or 20 (mp100) extrapolation columns,
        // steps ending on the output times (third_party/odeint/bulirsch_stoer_kmax.hpp).
        HighOrderBulirschStoer<S> s(opts.atol, opts.rtol);
        run_controlled<S>(s, x, dt0, loop);
      } else {
        // Odeint's, with its cost-table read kept in bounds (third_party/odeint).
        odeint_patched::bulirsch_stoer_dense_out<OdeState<S>, S, OdeState<S>, S> s(opts.atol,
                                                                                   opts.rtol);
        run_dense<S>(s, x, dt0, loop);
      }
      break;
    }
  } catch (const odeint::odeint_error& e) {
    if (loop.deferred) throw *loop.deferred;
    throw IntegrationFailure(std::string("integration failed: ") + e.what());
  }
}

}  // namespace

template <class S>
void integrate(const System<S>& sys, const Formulation<S>& f, const Vec<S>& q0,
               const Vec<S>& qd0, const IntegrationOptions<S>& opts,
               const std::function<void(const Sample<S>&)>& observe, IntegrationStats* stats) {
  IntegrationStats local;
  IntegrationStats& st = stats ? *stats : local;
  f.require_applicable(sys);
  const Stepper stepper = validated_stepper(opts, f.round_off_grows_with_speed());
  st.stepper = stepper;
  const OutputTimes<S> times(opts.t_end, opts.dt_out, opts.max_samples);

  if (is_discrete_stepper(stepper)) {
    // The Lagrange-d'Alembert principle discretized itself: f's field is
    // not used (f is only checked applicable, as for every stepper), nor
    // are its own singular sets watched: the system's are.
    SingularSetWatch<S> watch(sys, nullptr, opts.singular_margin);
    if (watch.active()) watch.require(q0, qd0);
    run_discrete<S>(sys, stepper, q0, qd0, opts, times, observe, st, watch);
    return;
  }
  SingularSetWatch<S> watch(sys, &f, opts.singular_margin);
  if (watch.active()) watch.require(q0, qd0);

  const Vec<S> x0 = f.to_state(sys, q0, qd0);
  const Eigen::Index size = x0.size();  // of f's state; the work W, when carried, after it
  watch.state_size(size);
  OdeState<S> x(x0.data(), x0.data() + size);
  if (opts.power) x.push_back(S(0));
  Rhs<S> rhs{sys, f, st, opts.max_rhs_calls, opts.power, size};
  auto observer = [&](const OdeState<S>& xs, const S& t) {
    const Vec<S> xv = to_vec(xs);
    if (!xv.allFinite())
      throw NonFiniteValue("non-finite value: the state at t = " + to_string<S>(t) + ", x = " +
                           to_string(xv));
    Sample<S> s{t, {}, {}, std::nullopt};
    f.from_state(sys, xv.head(size), s.q, s.qdot);
    if (opts.power) s.work = xv[size];
    observe(s);
  };
  const S dt0 = opts.dt_out < opts.t_end ? opts.dt_out / S(16) : opts.t_end / S(16);

  std::function<void(OdeState<S>&)> project;
  if (opts.project)
    project = [&](OdeState<S>& xs) {  // x_f projected; the work W kept
      const Vec<S> xp = project_state(sys, f, Vec<S>(to_vec(xs).head(size)));
      std::copy(xp.data(), xp.data() + size, xs.begin());
      ++st.projections;
    };
  ReachWatch<S> reach(sys, f, size);
  Loop<S> loop{rhs, times, observer, project, watch, reach, opts.on_step, st, StepFloor<S>(opts.rtol)};
  run_continuous<S>(stepper, opts, x, dt0, loop);
}

}  // namespace nhs
