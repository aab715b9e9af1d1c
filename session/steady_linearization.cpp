// The linear stability of steady motions (nhs/session/steady_linearization.hpp).
#include "nhs/session/steady_linearization.hpp"

#include "nhs/format.hpp"
#include "nhs/manifold.hpp"
#include "nhs/codegen/trace.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/field_jacobian.hpp"

#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <functional>
#include <random>
#include <cmath>
#include <set>
#include <stdexcept>

namespace nhs {
namespace {

template <class S>
const SteadyFamily<S>& find_family(const std::vector<SteadyFamily<S>>& families, const std::string& system,
                                   const std::string& name, const SteadyNames& names) {
  for (const auto& f : families)
    if (f.name == name) return f;
  std::vector<std::string> known;
  for (const auto& f : families) known.push_back(f.name);
  throw UsageError(names.steady + ": system '" + system + "' has no steady family '" + name + "' (" +
                   (known.empty() ? std::string("it declares none: [[steady]] in a system file")
                                  : "known: " + join(known)) +
                   ")");
}

// Which entries of the field's Jacobian are not identically 0: the
// graph's structure (fj.depends: 0 only for the constant 0) refined by
// values, since the traced field keeps terms that cancel only by identities
// (sin^2 + cos^2 = 1 in a metric) as nodes: an entry counts as 0 when it is
// within zero_tolerance at x and at three states near x (a fixed
// pseudo-random sequence, each entry of x moved by up to 0.1 (1 + |x_i|);
// a state where the field is singular is skipped).
template <class S>
std::vector<char> dependence(const SteadySpec<S>& spec, const System<S>& sys, const FieldJacobian<S>& fj,
                             const Vec<S>& x) {
  std::vector<char> depends = fj.depends;
  const auto N = x.size();
  std::vector<Mat<S>> samples = {fj.J};
  std::mt19937_64 rng(20071955);  // fixed: the same verdict in every run
  for (int k = 0; k < 3; ++k) {
    Vec<S> y = x;
    for (Eigen::Index i = 0; i < N; ++i) {
      using std::abs;
      y[i] += uniform<S>(rng, -0.1, 0.1) * (S(1) + abs(x[i]));
    }
    try {
      samples.push_back(field_jacobian_at_state<S>(spec.system, spec.formulation, sys, y, [] { return std::string(); },
                                                   spec.names.jacobian)
                            .J);
    } catch (const InvalidState&) {
    } catch (const NonFiniteValue&) {
    }
  }
  for (Eigen::Index i = 0; i < N; ++i)
    for (Eigen::Index j = 0; j < N; ++j) {
      char& d = depends[static_cast<std::size_t>(i * N + j)];
      if (!d) continue;
      d = 0;
      for (const Mat<S>& J : samples) {
        using std::abs;
        if (abs(J(i, j)) > zero_tolerance<S>(max_abs<S>(J))) d = 1;
      }
    }
  return depends;
}

// linearize_steady's formulations, with the reason for each other one.
void require_linearizable_formulation(const std::string& formulation, const std::string& name) {
  if (formulation == "first-kind" || formulation == "gibbs-appell") return;
  const std::string head = name + ": the linearization is that of the traced field on C in the coordinates "
                           "(q, z) of first-kind or gibbs-appell (the same motions), not of '" + formulation + "': ";
  if (formulation == "second-kind")
    throw UsageError(head + "second-kind's state (q, qdot) has directions off C, whose eigenvalues are not the "
                            "motion's");
  const auto& traceable = codegen::traceable_formulations();
  if (std::find(traceable.begin(), traceable.end(), formulation) == traceable.end())
    throw UsageError(head + "its field is not traced (its solve pivots on values: no Jacobian by "
                            "differentiation), and its equations give the same motions as first-kind's");
  throw UsageError(head + "use first-kind or gibbs-appell");
}

// Every number of a linearization is finite (an overflow of the state or
// the parameters for S is refused, not printed as inf): NonFiniteValue
// naming the quantity and `context`.
template <class S>
void require_finite_linearization(const Linearization<S>& L, const Context& context) {
  const auto values = [](const std::vector<std::pair<S, S>>& ev) {
    Vec<S> v(2 * static_cast<Eigen::Index>(ev.size()));
    for (std::size_t i = 0; i < ev.size(); ++i) {
      v[2 * static_cast<Eigen::Index>(i)] = ev[i].first;
      v[2 * static_cast<Eigen::Index>(i) + 1] = ev[i].second;
    }
    return v;
  };
  require_finite(L.tangent, "the family's tangent", context);
  require_finite(L.D, "the reduced matrix D", context);
  require_finite(values(L.eigenvalues), "the eigenvalues", context);
  require_finite(Eigen::Map<const Vec<S>>(L.bounds.data(), static_cast<Eigen::Index>(L.bounds.size())),
                 "the eigenvalues' error bounds", context);
  require_finite(values(L.family_eigenvalues), "the family's zero eigenvalues", context);
  require_finite(values(L.cyclic_eigenvalues), "the cyclic zero eigenvalues", context);
  require_finite(values(L.holonomic_eigenvalues), "the holonomic zero eigenvalues", context);
  require_finite(Vec<S>(Vec<S>::Constant(1, S(L.family_residual + L.holonomic_residual + L.steady_residual))),
                 "the residuals", context);
}

// "at steady family 'NAME' (mu1 = v1, ...)": where a message happened.
template <class S>
std::string family_context(const SteadyFamily<S>& fam, const Vec<S>& mu) {
  std::string at;
  for (std::size_t i = 0; i < fam.parameters.size(); ++i)
    at += (i ? ", " : "") + fam.parameters[i] + " = " + to_string<S>(mu[static_cast<Eigen::Index>(i)]);
  return "at steady family '" + fam.name + "' (" + at + ")";
}

// linearize_steady's holonomic constraints: pt.q admitted onto f = 0 as
// for a run (the dependent coordinates solved for), the tangent's
// dependent rows from G dq = 0; the gradients G (h x (n + m), zero in z)
// handed to the linearization (0 rows without holonomic constraints).
template <class S>
Mat<S> holonomic_gradients(const Study<S>& study, const System<S>& sys, SteadyPoint<S>& pt) {
  const Eigen::Index n = sys.n, m = sys.m;
  Mat<S> G(0, n + m);
  if (study.holonomic) {
    const HolonomicConstraints<S>& hol = *study.holonomic;
    admit_holonomic<S>(hol, sys, pt.q, default_manifold_tolerance<S>());
    Mat<S> Gq;
    (void)hol.f(sys, pt.q, &Gq);
    if (!hol.dependent.empty()) {
      const auto h = static_cast<Eigen::Index>(hol.dependent.size());
      Mat<S> Gd(h, h), rhs = Gq * pt.dq;
      for (Eigen::Index k = 0; k < h; ++k) {
        const int d = hol.dependent[static_cast<std::size_t>(k)];
        for (Eigen::Index j = 0; j < h; ++j) Gd(j, k) = Gq(j, d);
      }
      const Mat<S> step = Gd.fullPivLu().solve(rhs);
      for (Eigen::Index k = 0; k < h; ++k) pt.dq.row(hol.dependent[static_cast<std::size_t>(k)]) -= step.row(k);
    }
    G = Mat<S>::Zero(Gq.rows(), n + m);
    G.leftCols(n) = Gq;
  }
  return G;
}

}  // namespace

template <class S>
Vec<S> family_values(const SteadySpec<S>& spec, const std::string& optional) {
  const std::string& option = spec.names.at;
  const Study<S>& study = find_study<S>(spec.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, spec.steady, spec.names);
  Vec<S> mu = Vec<S>::Zero(static_cast<Eigen::Index>(fam.parameters.size()));
  std::set<std::string> given;
  for (const auto& [name, value] : spec.at) {
    const auto it = std::find(fam.parameters.begin(), fam.parameters.end(), name);
    if (it == fam.parameters.end())
      throw UsageError(option + ": family '" + fam.name + "' has no parameter '" + name + "' (its parameters: " +
                       join(fam.parameters) + ")");
    if (!given.insert(name).second) throw UsageError(option + ": '" + name + "' is given twice");
    mu[it - fam.parameters.begin()] = value;
  }
  for (const auto& name : fam.parameters)
    if (!given.count(name) && name != optional)
      throw UsageError(option + ": family '" + fam.name + "' needs a value of '" + name + "' (" + option + " " +
                       name + "=VALUE)");
  return mu;
}

template <class S>
SteadyLinearization<S> linearize_steady(const SteadySpec<S>& spec, const Vec<S>& mu) {
  require_linearizable_formulation(spec.formulation, spec.names.formulation);
  const Study<S>& study = find_study<S>(spec.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, spec.steady, spec.names);
  const System<S> sys = study.build(parameters_with_values<S>(study, spec.parameters));
  if (!sys.has_parametrization())
    throw UsageError(spec.names.formulation + " " + spec.formulation + ": system '" + sys.info.name +
                     "' has no parametrization psi, so no state (q, z)");
  SteadyLinearization<S> out;
  out.system = sys.info.name;
  out.formulation = spec.formulation;
  out.family = fam.name;
  out.source = fam.source;
  out.family_parameters = fam.parameters;
  out.mu = mu;
  for (std::size_t i = 0; i < sys.info.parameters.size(); ++i)
    out.parameters.emplace_back(sys.info.parameters[i].name, sys.parameters[i]);

  SteadyPoint<S> pt = fam.at(sys, mu);
  const Eigen::Index n = sys.n, m = sys.m, p = mu.size();
  const Mat<S> G = holonomic_gradients<S>(study, sys, pt);
  Vec<S> z(m), qdot(n);
  Mat<S> dz(m, p);
  const auto context = [&] { return family_context<S>(fam, mu); };
  require_finite(pt.q, "the family's q", context);
  require_finite(pt.v, "the family's velocities", context);
  if (pt.in_z) {
    z = pt.v;
    dz = pt.dv;
    sys.parametrization(pt.q, z, qdot);
  } else {
    qdot = pt.v;
    Vec<S> C(sys.r);
    sys.constraints(pt.q, qdot, C);
    const S tol = default_manifold_tolerance<S>() * (S(1) + qdot.squaredNorm());
    if (sys.r > 0 && S(C.cwiseAbs().maxCoeff()) > tol)
      throw InvalidState("steady family '" + fam.name + "': qdot is off C: max|C| = " +
                         to_string<S>(S(C.cwiseAbs().maxCoeff())) + " > " + to_string<S>(tol) + " " + context());
    if (!sys.chart)
      throw UsageError("steady family '" + fam.name + "' gives qdot, and system '" + sys.info.name +
                       "' has no chart z(q, qdot)");
    sys.chart(pt.q, qdot, z);
    const ParametrizationJacobians<S> pj = sys.derivations.parametrization_jacobians(pt.q, z);
    dz = pj.psi_z.colPivHouseholderQr().solve(Mat<S>(pt.dv - pj.psi_q * pt.dq));
  }
  out.x.resize(n + m);
  out.x << pt.q, z;
  Mat<S> tangent(n + m, p);
  tangent << pt.dq, dz;
  const FieldJacobian<S> fj = field_jacobian_at_state<S>(spec.system, spec.formulation, sys, out.x, context, spec.names.jacobian);
  out.state = fj.state;
  out.lin = linearize<S>(fj.J, fj.f, dependence<S>(spec, sys, fj, out.x), static_cast<int>(n), tangent, fj.state, G,
                         study.holonomic ? study.holonomic->names : std::vector<std::string>{});
  require_finite_linearization<S>(out.lin, context);
  out.holonomic = G;
  out.coordinates = static_cast<std::size_t>(n);
  return out;
}

template <class S>
std::string stability_verdict(const Linearization<S>& L) {
  if (L.unstable > 0) return "unstable";
  if (L.undecided > 0) return "undecided";
  if (L.marginal > 0) return "linearly stable, not asymptotically: eigenvalues on the imaginary axis";
  return "asymptotically stable";
}

namespace {

// scan_stability's grid: `points` values from `from` to `to`, even,
// strictly increasing and finite; UsageError otherwise (a range whose
// width times points - 1 overflows S, or a step below S's resolution).
template <class S>
std::vector<S> stability_grid(const S& from, const S& to, std::uint64_t points, const SteadyNames& names) {
  const auto isfinite = [](const S& x) { return x - x == S(0); };  // false for inf and NaN, as Eigen's allFinite
  const std::string range = names.from + " " + to_string<S>(from) + " " + names.to + " " + to_string<S>(to);
  if (!isfinite(from) || !isfinite(to)) throw UsageError(range + ": need finite values");
  if (!(from < to)) throw UsageError(range + ": need from < to");
  if (points < 2 || points > kMaxStabilityPoints)
    throw UsageError(names.points + " " + std::to_string(points) + ": need 2 .. " + std::to_string(kMaxStabilityPoints) +
                     " (a larger grid takes hours: scan a narrower range)");
  if (!isfinite(S((to - from) * S(points - 1))))
    throw UsageError(range + ": the range's width (to - from) * (points - 1) overflows the precision's range");
  std::vector<S> grid;
  for (std::uint64_t i = 0; i < points; ++i) {
    grid.push_back(i + 1 == points ? to : from + (to - from) * S(i) / S(points - 1));
    if (grid.size() > 1 && !(grid[grid.size() - 2] < grid.back()))
      throw UsageError(range + " " + names.points + " " + std::to_string(points) + ": the grid's step is below the "
                       "resolution of the numbers at " + to_string<S>(grid.back()) + " (fewer points or a wider range)");
  }
  return grid;
}

}  // namespace

template <class S>
StabilityScan<S> scan_stability(const SteadySpec<S>& spec, const std::string& vary_given, const S& from, const S& to,
                                std::uint64_t points, const ScanObservers<S>& observers) {
  const Study<S>& study = find_study<S>(spec.system);
  const auto families = study.steady_families();
  const SteadyFamily<S>& fam = find_family<S>(families, study.info.name, spec.steady, spec.names);
  std::string vary = vary_given;
  if (vary.empty()) {
    if (fam.parameters.size() != 1)
      throw UsageError(spec.names.vary + ": family '" + fam.name + "' has the parameters " + join(fam.parameters) +
                       "; name the one to vary (the others with " + spec.names.at + ")");
    vary = fam.parameters[0];
  }
  const auto it = std::find(fam.parameters.begin(), fam.parameters.end(), vary);
  if (it == fam.parameters.end())
    throw UsageError(spec.names.vary + ": family '" + fam.name + "' has no parameter '" + vary + "' (its parameters: " +
                     join(fam.parameters) + ")");
  const auto k = static_cast<Eigen::Index>(it - fam.parameters.begin());
  for (const auto& [name, value] : spec.at)
    if (name == vary)
      throw UsageError(spec.names.at + " " + name + ": the varied parameter takes " + spec.names.from + " and " +
                       spec.names.to + ", not " + spec.names.at);
  const Vec<S> fixed = family_values<S>(spec, vary);
  StabilityScan<S> out{.system = study.info.name, .formulation = spec.formulation, .family = fam.name,
                       .vary = vary, .from = from, .to = to, .grid = stability_grid<S>(from, to, points, spec.names)};
  std::size_t evaluations = 0;
  const auto at = [&](const S& v) {
    if (observers.watch) observers.watch(v, evaluations++);
    Vec<S> mu = fixed;
    mu[k] = v;
    try {
      return linearize_steady<S>(spec, mu);
    } catch (const InvalidState& e) {
      throw InvalidState(std::string(e.what()) + " (at " + vary + " = " + to_string<S>(v) + ")");
    }
  };
  for (const S& v : out.grid) {
    out.motions.push_back(at(v));
    if (observers.motion) observers.motion(v, out.motions.back());
  }
  // The grid's own values are not linearized twice.
  const std::function<Mat<S>(const S&)> D = [&](const S& v) {
    const auto g = std::lower_bound(out.grid.begin(), out.grid.end(), v);
    if (g != out.grid.end() && *g == v) return out.motions[static_cast<std::size_t>(g - out.grid.begin())].lin.D;
    return at(v).lin.D;
  };
  out.crossings = find_crossings<S>(D, out.grid, &out.undecided);
  return out;
}

namespace {

// linearize()'s bases rebuilt from its output (nhs/linearization.hpp): K
// (Nr x Nl) spans the level set of the holonomic constraints in the reduced
// coordinates, Q (Nl x Nl) has the family's tangents there in its first p
// columns, B = Q^T (K^T Jrr K) Q, whose lower right block is D.
template <class S>
struct DeflatedBases {
  Mat<S> Jrr, K, Q, B;
};

template <class S>
DeflatedBases<S> deflated_bases(const SteadyLinearization<S>& s) {
  Linearization<S> L = s.lin;  // level_set_basis writes its residuals
  const auto Nr = static_cast<Eigen::Index>(L.reduced.size());
  const Eigen::Index p = L.tangent.cols();
  DeflatedBases<S> b;
  b.Jrr.resize(Nr, Nr);
  Mat<S> Tr(Nr, p);
  for (Eigen::Index a = 0; a < Nr; ++a) {
    for (Eigen::Index c = 0; c < Nr; ++c) b.Jrr(a, c) = L.J(L.reduced[a], L.reduced[c]);
    for (Eigen::Index c = 0; c < p; ++c) Tr(a, c) = L.tangent(L.reduced[a], c);
  }
  b.K = detail::level_set_basis<S>(L, s.holonomic, b.Jrr, Tr, {});
  const Mat<S> Jl = b.K.transpose() * b.Jrr * b.K;
  b.Q = detail::span_basis<S>(Mat<S>(b.K.transpose() * Tr), [](Eigen::Index) {
    return std::string("steady_eigenmode: the family's tangents lost their rank");
  });
  b.B = b.Q.transpose() * Jl * b.Q;
  const Eigen::Index nd = L.D.rows();
  if (b.B.rows() != nd + p ||
      max_abs<S>(Mat<S>(b.B.bottomRightCorner(nd, nd) - L.D)) > L.tolerance * (S(1) + max_abs<S>(L.D)))
    throw std::logic_error("steady_eigenmode: the rebuilt bases do not give the linearization's D");
  return b;
}

// The real form of A - (a + i b) I (A: k x k) acting on (x, y) for x + i y:
// [A - a I, b I; -b I, A - a I] (2k x 2k).
template <class S>
Mat<S> shifted_real_form(const Mat<S>& A, const S& a, const S& b) {
  const Eigen::Index k = A.rows();
  Mat<S> M(2 * k, 2 * k);
  const Mat<S> I = Mat<S>::Identity(k, k);
  M << A - a * I, b * I, -b * I, A - a * I;
  return M;
}

// An eigenvector x + i y of D for its eigenvalue a + i b, by inverse
// iteration with the shift moved off it by sqrt(eps) (1 + |lambda|): 4
// steps, each multiplying the other eigenvectors' parts by about sqrt(eps).
template <class S>
std::pair<Vec<S>, Vec<S>> eigenvector_of(const Mat<S>& D, const S& a, const S& b) {
  using std::hypot;
  using std::sqrt;
  const Eigen::Index k = D.rows();
  const S shift = sqrt(epsilon<S>()) * (S(1) + hypot(a, b));
  const Eigen::FullPivLU<Mat<S>> lu(shifted_real_form<S>(D, S(a + shift), b));
  Vec<S> z(2 * k);
  for (Eigen::Index i = 0; i < 2 * k; ++i) z[i] = S(1) + S(i + 1) / S(2 * k + 1);  // not orthogonal to the mode
  for (int it = 0; it < 4; ++it) {
    z = lu.solve(z);
    z /= S(z.cwiseAbs().maxCoeff());
  }
  return {z.head(k), z.tail(k)};
}

// (J_kk - lambda I) w_k = -J_kr w_r: the cyclic coordinates' part of the
// eigenvector, in the real form.
template <class S>
void fill_cyclic(const Linearization<S>& L, const S& a, const S& b, Vec<S>& x, Vec<S>& y) {
  const auto Nk = static_cast<Eigen::Index>(L.cyclic.size());
  if (Nk == 0) return;
  Mat<S> Jkk(Nk, Nk);
  Vec<S> r = Vec<S>::Zero(2 * Nk);
  for (Eigen::Index i = 0; i < Nk; ++i) {
    for (Eigen::Index j = 0; j < Nk; ++j) Jkk(i, j) = L.J(L.cyclic[i], L.cyclic[j]);
    for (const int j : L.reduced) {
      r[i] -= L.J(L.cyclic[i], j) * x[j];
      r[Nk + i] -= L.J(L.cyclic[i], j) * y[j];
    }
  }
  const Vec<S> w = shifted_real_form<S>(Jkk, a, b).fullPivLu().solve(r);
  for (Eigen::Index i = 0; i < Nk; ++i) {
    x[L.cyclic[i]] = w[i];
    y[L.cyclic[i]] = w[Nk + i];
  }
}

// v scaled so that its entry of q largest in modulus is 1 (n: q's size).
template <class S>
void normalize_mode(Vec<S>& x, Vec<S>& y, Eigen::Index n) {
  Eigen::Index top = 0;
  for (Eigen::Index i = 1; i < n; ++i)
    if (x[i] * x[i] + y[i] * y[i] > x[top] * x[top] + y[top] * y[top]) top = i;
  const S m2 = x[top] * x[top] + y[top] * y[top];
  const S cr = x[top] / m2, ci = -y[top] / m2;  // 1 / v_top
  const Vec<S> nx = x * cr - y * ci;
  y = x * ci + y * cr;
  x = nx;
}

}  // namespace

template <class S>
std::size_t default_eigenmode(const Linearization<S>& lin) {
  for (std::size_t i = 0; i < lin.eigenvalues.size(); ++i)
    if (lin.eigenvalues[i].second > lin.bounds[i]) return i;
  return 0;
}

template <class S>
Eigenmode<S> steady_eigenmode(const SteadyLinearization<S>& s, std::size_t k) {
  using std::hypot;
  const Linearization<S>& L = s.lin;
  Eigenmode<S> mode;
  mode.index = k;
  mode.re = L.eigenvalues.at(k).first;
  mode.im = L.eigenvalues.at(k).second;
  const S size = hypot(mode.re, mode.im);
  if (!(size > std::max(L.bounds[k], zero_tolerance<S>(max_abs<S>(L.D)))))
    throw UsageError("eigenvalue " + std::to_string(k + 1) + " of " + std::to_string(L.eigenvalues.size()) +
                     " (lambda = " + to_string<S>(mode.re) + " + " + to_string<S>(mode.im) + " i) is zero within its "
                     "bound " + to_string<S>(L.bounds[k]) + ": a neutral mode has no period nor e-folding time to show");
  const DeflatedBases<S> b = deflated_bases<S>(s);
  const Eigen::Index p = L.tangent.cols(), nd = L.D.rows(), N = L.J.rows();
  const auto [ux, uy] = eigenvector_of<S>(L.D, mode.re, mode.im);
  // The family's part c = B12 u / lambda, then w_l = Q1 c + Q2 u and w_r = K w_l.
  const Vec<S> cr = b.B.topRightCorner(p, nd) * ux, ci = b.B.topRightCorner(p, nd) * uy;
  const S l2 = size * size;
  const Vec<S> xr = b.K * (b.Q.leftCols(p) * Vec<S>((cr * mode.re + ci * mode.im) / l2) + b.Q.rightCols(nd) * ux);
  const Vec<S> yr = b.K * (b.Q.leftCols(p) * Vec<S>((ci * mode.re - cr * mode.im) / l2) + b.Q.rightCols(nd) * uy);
  mode.v_re = Vec<S>::Zero(N);
  mode.v_im = Vec<S>::Zero(N);
  for (std::size_t a = 0; a < L.reduced.size(); ++a) {
    mode.v_re[L.reduced[a]] = xr[static_cast<Eigen::Index>(a)];
    mode.v_im[L.reduced[a]] = yr[static_cast<Eigen::Index>(a)];
  }
  fill_cyclic<S>(L, mode.re, mode.im, mode.v_re, mode.v_im);
  normalize_mode<S>(mode.v_re, mode.v_im, static_cast<Eigen::Index>(s.coordinates));
  const Vec<S> rx = L.J * mode.v_re - (mode.v_re * mode.re - mode.v_im * mode.im);
  const Vec<S> ry = L.J * mode.v_im - (mode.v_im * mode.re + mode.v_re * mode.im);
  const S vmax = std::max(max_abs<S>(Mat<S>(mode.v_re)), max_abs<S>(Mat<S>(mode.v_im)));
  mode.residual = std::max(max_abs<S>(Mat<S>(rx)), max_abs<S>(Mat<S>(ry))) / ((max_abs<S>(L.J) + size) * vmax);
  return mode;
}

#define NHS_STEADY_LINEARIZATION_INSTANTIATE_(S, NAME)                                                        \
  template Vec<S> family_values<S>(const SteadySpec<S>&, const std::string&);                                  \
  template SteadyLinearization<S> linearize_steady<S>(const SteadySpec<S>&, const Vec<S>&);                   \
  template StabilityScan<S> scan_stability<S>(const SteadySpec<S>&, const std::string&, const S&, const S&,   \
                                              std::uint64_t, const ScanObservers<S>&);                        \
  template std::string stability_verdict<S>(const Linearization<S>&);                                         \
  template std::size_t default_eigenmode<S>(const Linearization<S>&);                                         \
  template Eigenmode<S> steady_eigenmode<S>(const SteadyLinearization<S>&, std::size_t);
NHS_FOR_EACH_SCALAR(NHS_STEADY_LINEARIZATION_INSTANTIATE_)
#undef NHS_STEADY_LINEARIZATION_INSTANTIATE_

}  // namespace nhs
