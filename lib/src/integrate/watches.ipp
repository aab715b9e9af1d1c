// The watches of a run's accepted steps (included by integrate.ipp, inside
// its anonymous namespace): the singular-set watch with the Hermite
// interpolants it samples, psi's reach and the step floor.

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
    std::vector<std::pair<S, S>>& g = samples_;  // (t, smallest margin), in increasing t
    g.clear();
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
      std::vector<std::size_t>& halve = halve_;
      halve.clear();
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
  // scan_points' samples and the intervals it halves, kept from step to
  // step (no allocation per step once they have grown)
  std::vector<std::pair<S, S>> samples_;
  std::vector<std::size_t> halve_;
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
