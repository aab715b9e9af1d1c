// The linear stability of steady motions (docs/linearization.md): the
// Jacobian J of a first-order field x' = f(x) at a steady motion, split
// into the coordinates the field ignores (cyclic), the direction along the
// family of steady motions, and the rest, whose eigenvalues decide
// stability; and the parameter values along a family where a real part
// changes sign (crossings), found by root finding.
//
// A steady motion of a system with symmetry is not an equilibrium of f:
// the upright rolling disc advances its position and its rolling angle. It
// is an equilibrium of the field reduced by the ignorable coordinates, the
// set K of coordinates q^k such that no component of f outside K depends
// on any q^k in K (x, y, the heading and the rolling angle of a disc on a
// flat floor). With the state ordered (outside K, K), J is block lower
// triangular, [J_rr 0; J_kr J_kk], so that its eigenvalues are those of
// J_rr and of J_kk. Along a family x(mu) of steady motions, f_r(x_r(mu)) = 0
// for every mu, so J_rr dx_r/dmu = 0: the tangent of the family is a null
// vector of J_rr. With an orthonormal basis Q = [Q1 Q2] whose Q1 spans the
// tangents (Householder QR), Q^T J_rr Q = [0 B; 0 D]: the motion's own
// eigenvalues are those of D. (Meijaard et al. 2007 write the bicycle's
// linearized equations in the lean and steer angles and rates only: the
// same reduction, by hand.)
#pragma once

#include "nhs/eigenvalues.hpp"
#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/scalar.hpp"

#include <boost/math/tools/toms748_solve.hpp>

#include <Eigen/QR>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// The tolerance under which a real part, an eigenvalue or a residual of a
/// matrix with largest entry `scale` counts as zero: sqrt(epsilon of S) *
/// max(1, scale) (1.5e-8 in double, 1e-25 in mp50 at scale 1). An
/// eigenvalue of a Jordan block of size 2 (where two real eigenvalues meet
/// and become a complex pair) is computed to about sqrt(epsilon); a simple
/// one to about epsilon.
template <class S>
S zero_tolerance(const S& scale) {
  using std::sqrt;
  return sqrt(epsilon<S>()) * std::max(S(1), scale);
}

/// The largest |entry| of a matrix (0 for an empty one).
template <class S>
S max_abs(const Mat<S>& M) {
  return M.size() == 0 ? S(0) : S(M.cwiseAbs().maxCoeff());
}

/// The spectrum of a motion's matrix D (N_D x N_D) with a verdict on each
/// eigenvalue decided against its own error (decided_spectrum).
template <class S>
struct Spectrum {
  /// eigenvalues_of(balanced(D)): (re, im), by real part decreasing.
  std::vector<std::pair<S, S>> eigenvalues;
  /// eigenvalue_error_bounds of each, in the same order.
  std::vector<S> bounds;
  int unstable = 0;   ///< re > bound
  int marginal = 0;   ///< |re| <= bound, and bound <= zero_tolerance(|lambda|): on the imaginary axis
  int undecided = 0;  ///< |re| <= bound > zero_tolerance(|lambda|): the sign of re is not known
};

/// The eigenvalues of D, computed on balanced(D), each with its error
/// estimate (eigenvalue_error_bounds) and counted: unstable when its real
/// part is above its own bound, stable when below minus the bound, and
/// otherwise marginal (on the imaginary axis to the precision of S) when
/// the bound itself is within zero_tolerance of the eigenvalue's modulus,
/// undecided when it is not (an ill-conditioned or nearly defective
/// eigenvalue near the axis, whose sign S cannot tell). Each eigenvalue is
/// judged at its own scale and conditioning: a stiff mode elsewhere in D
/// does not hide it. Throws NonFiniteValue as eigenvalues_of.
template <class S>
Spectrum<S> decided_spectrum(const Mat<S>& D) {
  using std::abs;
  using std::hypot;
  Spectrum<S> out;
  const Mat<S> B = balanced<S>(D);
  out.eigenvalues = eigenvalues_of<S>(B);
  out.bounds = eigenvalue_error_bounds<S>(B, out.eigenvalues);
  for (std::size_t i = 0; i < out.eigenvalues.size(); ++i) {
    const auto& [re, im] = out.eigenvalues[i];
    const S& bound = out.bounds[i];
    if (re > bound) ++out.unstable;
    else if (abs(re) <= bound) ++(bound <= zero_tolerance<S>(S(hypot(re, im))) ? out.marginal : out.undecided);
  }
  return out;
}

/// The ignorable (cyclic) coordinates of a first-order field x' = f(x),
/// x of size N whose first n entries are the coordinates q: the greatest
/// set K of coordinate indices such that f_i does not depend on x_k for
/// every k in K and every i outside K. depends[i * N + j] != 0 when f_i may
/// depend on x_j (a structurally nonzero entry of the Jacobian). K is found
/// as a greatest fixed point: start from every coordinate but those in
/// `excluded` and drop any that a component outside the set depends on,
/// until none is dropped. Ascending indices. Precondition: depends.size()
/// == N * N, 0 <= n <= N, excluded in [0, n) (UsageError otherwise).
std::vector<int> ignorable_coordinates(const std::vector<char>& depends, int N, int n,
                                       const std::vector<int>& excluded = {});

/// The linearization of a field at a steady motion (linearize()).
/// Shapes: N the state size, p the family's parameters, N_r = N - |cyclic|.
template <class S>
struct Linearization {
  Mat<S> J;                  ///< N x N, J(i, j) = d f_i / d x_j
  Vec<S> f;                  ///< N, the field at the state
  std::vector<int> cyclic;   ///< ignorable coordinates (indices into x), ascending
  std::vector<int> reduced;  ///< the other indices, ascending (N_r)
  Mat<S> tangent;            ///< N x p, dx/dmu
  /// (N_r - p) x (N_r - p): J_rr on the orthogonal complement of the
  /// family's tangents; its eigenvalues are the motion's.
  Mat<S> D;
  /// The eigenvalues of D (decided_spectrum: (re, im), by real part
  /// decreasing): the linear stability exponents of the steady motion.
  std::vector<std::pair<S, S>> eigenvalues;
  /// Their error estimates (eigenvalue_error_bounds), in the same order.
  std::vector<S> bounds;
  /// Eigenvalues along the family (p, of Q1^T J_rr Q1) and along the cyclic
  /// coordinates (of J_kk): zero to round-off where the motion is steady
  /// and the coordinates ignorable.
  std::vector<std::pair<S, S>> family_eigenvalues, cyclic_eigenvalues;
  /// Eigenvalues across the level sets of the holonomic constraints (h, of
  /// Q_h^T J_rr Q_h with Q_h spanning the gradients): zero to round-off,
  /// since each f^k is a first integral of the field.
  std::vector<std::pair<S, S>> holonomic_eigenvalues;
  S steady_residual;  ///< max |f_i| over i outside K: 0 at a steady motion
  S family_residual;  ///< max |J_rr Q1|: 0 when the tangents are null vectors of J_rr
  /// max |G_r J_rr| and max |G_r dx_r/dmu| over the unit gradients G_r of
  /// the holonomic constraints: 0 when each is a first integral and the
  /// family lies on their level set; 0 without holonomic constraints.
  S holonomic_residual;
  S tolerance;        ///< zero_tolerance at the scale of J: the steadiness test's
  int unstable = 0;   ///< eigenvalues with real part > their bound (decided_spectrum)
  int marginal = 0;   ///< eigenvalues on the imaginary axis to the precision of S
  int undecided = 0;  ///< eigenvalues whose real part's sign S cannot tell
};

namespace detail {

/// linearize()'s steadiness check: L.steady_residual = max |f_i| over
/// L.reduced; InvalidState naming the components above L.tolerance, with
/// their values (state: the names of x).
template <class S>
void require_steady(Linearization<S>& L, const Vec<S>& f, const std::vector<std::string>& state) {
  using std::abs;
  // Steady: the reduced field vanishes.
  L.steady_residual = S(0);
  std::string off;
  for (const int i : L.reduced) {
    L.steady_residual = std::max(L.steady_residual, S(abs(f[i])));
    if (abs(f[i]) > L.tolerance)
      off += (off.empty() ? "" : ", ") + state[static_cast<std::size_t>(i)] + "' = " + to_string<S>(f[i]);
  }
  if (!off.empty())
    throw InvalidState("not a steady motion: the field outside the ignorable coordinates is not 0 (" + off +
                       "; tolerance " + to_string<S>(L.tolerance) + ")");
}

/// The row order that puts the rows where some column of T is not 0
/// first (in order), then the others: a Householder QR of T so ordered
/// reflects only within those rows, so that the basis it gives mixes no
/// coordinate the columns do not touch (a stiff mode elsewhere enters
/// Q^T J Q exactly).
template <class S>
Eigen::PermutationMatrix<Eigen::Dynamic> support_first(const Mat<S>& T) {
  std::vector<int> order;
  for (Eigen::Index i = 0; i < T.rows(); ++i)
    if (!T.row(i).isZero(0)) order.push_back(static_cast<int>(i));
  for (Eigen::Index i = 0; i < T.rows(); ++i)
    if (T.row(i).isZero(0)) order.push_back(static_cast<int>(i));
  Eigen::PermutationMatrix<Eigen::Dynamic> P(T.rows());
  for (std::size_t k = 0; k < order.size(); ++k) P.indices()[order[k]] = static_cast<int>(k);
  return P;  // (P T) row k = T row order[k]
}

/// An orthonormal basis Q (rows x rows) whose first p columns span the
/// columns of T (rows x p), by Householder QR of T with its support first
/// (support_first). UsageError `refusal(c)` when column c has no part
/// independent of the columns before it: |R_cc| <= sqrt(eps) times the
/// largest column norm (a relative test, whatever the units of T).
template <class S>
Mat<S> span_basis(const Mat<S>& T, const std::function<std::string(Eigen::Index)>& refusal) {
  using std::abs;
  using std::sqrt;
  const Eigen::Index rows = T.rows(), p = T.cols();
  const Eigen::PermutationMatrix<Eigen::Dynamic> P = support_first<S>(T);
  const Eigen::HouseholderQR<Mat<S>> qr(Mat<S>(P * T));
  S colnorm(0);
  for (Eigen::Index c = 0; c < p; ++c) colnorm = std::max(colnorm, S(T.col(c).norm()));
  for (Eigen::Index c = 0; c < p; ++c)
    if (rows <= c || !(abs(qr.matrixQR()(c, c)) > sqrt(epsilon<S>()) * colnorm)) throw UsageError(refusal(c));
  return P.transpose() * Mat<S>(qr.householderQ() * Mat<S>::Identity(rows, rows));
}

/// linearize()'s level set of the holonomic constraints (gradients
/// `holonomic`, h x N): an orthonormal basis of ker G_r (Nr x (Nr - h); the
/// identity when h = 0), with L.holonomic_residual and
/// L.holonomic_eigenvalues from J_rr (Jrr) and the tangents' reduced rows
/// (Tr). No gradient has a part along a cyclic coordinate (linearize()
/// keeps those coordinates out of the cyclic set). UsageError, naming
/// the constraint (`names`, h, or its number when empty), when the
/// gradients are dependent.
template <class S>
Mat<S> level_set_basis(Linearization<S>& L, const Mat<S>& holonomic, const Mat<S>& Jrr, const Mat<S>& Tr,
                       const std::vector<std::string>& names) {
  using std::abs;
  using std::sqrt;
  const auto Nr = static_cast<Eigen::Index>(L.reduced.size());
  // The level set of the holonomic constraints: J_rr maps into ker G_r
  // (G_r J_rr = 0), so it acts on ker G_r, spanned by the last Nr - h
  // columns of the Householder Q of G_r^T.
  const Eigen::Index h = holonomic.rows();
  L.holonomic_residual = S(0);
  Mat<S> K = Mat<S>::Identity(Nr, Nr);
  if (h > 0) {
    Mat<S> Gr(h, Nr);
    for (Eigen::Index k = 0; k < h; ++k) {
      const S gscale = max_abs<S>(Mat<S>(holonomic.row(k)));
      for (Eigen::Index a = 0; a < Nr; ++a) Gr(k, a) = gscale > S(0) ? S(holonomic(k, L.reduced[a]) / gscale) : S(0);
    }
    const Mat<S> QG = span_basis<S>(Mat<S>(Gr.transpose()), [h, &names](Eigen::Index k) {
      const std::string which = static_cast<Eigen::Index>(names.size()) == h
                                    ? "'" + names[static_cast<std::size_t>(k)] + "'"
                                    : std::to_string(k + 1);
      return "linearize: the gradient of holonomic constraint " + which + " depends on those before it: the " +
             std::to_string(h) + " gradients have " + std::to_string(k) + " independent directions outside the " +
             "ignorable coordinates, not " + std::to_string(h);
    });
    L.holonomic_residual = std::max(max_abs<S>(Mat<S>(Gr * Jrr)), max_abs<S>(Mat<S>(Gr * Tr)));
    L.holonomic_eigenvalues = eigenvalues_of<S>(Mat<S>(QG.leftCols(h).transpose() * Jrr * QG.leftCols(h)));
    K = QG.rightCols(Nr - h);
  }
  return K;
}

/// linearize()'s deflation of the family from J_rr on the level set (Jl,
/// Nl x Nl) with the p tangents there (Tl, Nl x p): L.family_residual,
/// L.family_eigenvalues, L.D, and L's spectrum (decided_spectrum).
/// UsageError when the tangents have rank < p (span_basis).
template <class S>
void deflate_family(Linearization<S>& L, const Mat<S>& Jl, const Mat<S>& Tl) {
  const Eigen::Index Nl = Jl.rows(), p = Tl.cols();
  // The family's directions: an orthonormal basis of rank p.
  const Mat<S> Q = span_basis<S>(Tl, [p](Eigen::Index c) {
    return "linearize: the family's tangents have " + std::to_string(c) + " independent directions "
           "outside the ignorable coordinates, not " + std::to_string(p) + " (a family parameter that "
           "moves ignorable coordinates only, or two parameters along one direction)";
  });
  const Mat<S> B = Q.transpose() * Jl * Q;
  L.family_residual = max_abs<S>(Mat<S>(Jl * Q.leftCols(p)));
  L.family_eigenvalues = eigenvalues_of<S>(Mat<S>(B.topLeftCorner(p, p)));
  L.D = B.bottomRightCorner(Nl - p, Nl - p);
  Spectrum<S> spectrum = decided_spectrum<S>(L.D);
  L.eigenvalues = std::move(spectrum.eigenvalues);
  L.bounds = std::move(spectrum.bounds);
  L.unstable = spectrum.unstable;
  L.marginal = spectrum.marginal;
  L.undecided = spectrum.undecided;
}

}  // namespace detail

/// Linearizes a field at a steady motion x of a family with tangents
/// dx/dmu: J (N x N) and f (N) at x, the structure `depends` (N * N, as
/// ignorable_coordinates), n coordinates first in x, `tangent` (N x p),
/// `state` the names of x (N, for messages), and `holonomic` (h x N, h >=
/// 0) the gradients d f^k/dx of holonomic constraints f^k(q) = 0 whose
/// velocity forms the field satisfies (so each f^k is a first integral,
/// and G J = 0 at a steady motion). The motion's eigenvalues are then
/// those of J_rr on the tangent space of the level set, ker G_r (an
/// orthonormal basis from Householder QR of G_r^T), with the family's
/// tangents deflated as above; each holonomic constraint removes one zero
/// eigenvalue that belongs to the constraint, not to the motion (the
/// bicycle's pitch, Meijaard et al. 2007 section 5). Throws InvalidState naming
/// the components when x is not steady (max |f_i| outside the cyclic
/// coordinates > tolerance, with the values), and UsageError when the
/// tangents have no independent part outside the cyclic coordinates (a
/// family parameter that moves cyclic coordinates only, or two parameters
/// along one direction), when the holonomic gradients are dependent
/// (naming the constraint by `holonomic_names`, h, when given), or when
/// sizes disagree. A coordinate that a holonomic constraint depends on
/// (a gradient entry above sqrt(eps) times the row's largest) is never
/// cyclic, though the rest of the field may not depend on it (a wheel's
/// height zc with zc - R cos(theta) = 0): it stays with its constraint.
template <class S>
Linearization<S> linearize(const Mat<S>& J, const Vec<S>& f, const std::vector<char>& depends, int n,
                           const Mat<S>& tangent, const std::vector<std::string>& state,
                           const Mat<S>& holonomic = Mat<S>(),
                           const std::vector<std::string>& holonomic_names = {}) {
  const auto N = J.rows();
  if (J.cols() != N || f.size() != N || tangent.rows() != N || static_cast<Eigen::Index>(state.size()) != N ||
      static_cast<Eigen::Index>(depends.size()) != N * N || (holonomic.size() > 0 && holonomic.cols() != N))
    throw UsageError("linearize: the Jacobian, the field, the tangents and the state names disagree in size");
  Linearization<S> L;
  L.J = J;
  L.f = f;
  L.tangent = tangent;
  std::vector<int> held;  // the coordinates of the holonomic constraints
  for (Eigen::Index k = 0; k < holonomic.rows(); ++k) {
    using std::abs;
    using std::sqrt;
    const S gscale = max_abs<S>(Mat<S>(holonomic.row(k)));
    for (int j = 0; j < n; ++j)
      if (abs(holonomic(k, j)) > sqrt(epsilon<S>()) * gscale && !std::count(held.begin(), held.end(), j))
        held.push_back(j);
  }
  L.cyclic = ignorable_coordinates(depends, static_cast<int>(N), n, held);
  for (int i = 0; i < N; ++i)
    if (!std::binary_search(L.cyclic.begin(), L.cyclic.end(), i)) L.reduced.push_back(i);
  const auto Nr = static_cast<Eigen::Index>(L.reduced.size());
  const auto Nk = static_cast<Eigen::Index>(L.cyclic.size());
  const Eigen::Index p = tangent.cols();
  L.tolerance = zero_tolerance<S>(std::max(max_abs<S>(J), max_abs<S>(Mat<S>(f))));
  detail::require_steady(L, f, state);

  Mat<S> Jrr(Nr, Nr), Jkk(Nk, Nk), Tr(Nr, p);
  for (Eigen::Index a = 0; a < Nr; ++a) {
    for (Eigen::Index b = 0; b < Nr; ++b) Jrr(a, b) = J(L.reduced[a], L.reduced[b]);
    for (Eigen::Index c = 0; c < p; ++c) Tr(a, c) = tangent(L.reduced[a], c);
  }
  for (Eigen::Index a = 0; a < Nk; ++a)
    for (Eigen::Index b = 0; b < Nk; ++b) Jkk(a, b) = J(L.cyclic[a], L.cyclic[b]);
  L.cyclic_eigenvalues = eigenvalues_of<S>(Jkk);

  const Mat<S> K = detail::level_set_basis(L, holonomic, Jrr, Tr, holonomic_names);
  const Mat<S> Jl = K.transpose() * Jrr * K;  // J_rr on the level set
  const Mat<S> Tl = K.transpose() * Tr;
  detail::deflate_family(L, Jl, Tl);
  return L;
}

/// A parameter value along a family where the number of eigenvalues with
/// positive real part changes (find_crossings).
template <class S>
struct Crossing {
  S at;                  ///< the parameter value
  S lo, hi;              ///< the final bracket [lo, hi] that contains it
  std::string kind;      ///< "real" (a real eigenvalue through 0) or "complex pair" (a pair across the imaginary axis)
  std::string method;    ///< how it was refined (see find_crossings)
  S frequency;           ///< complex pair: |imaginary part| at the crossing; real: 0
  int unstable_before;   ///< unstable eigenvalues (decided_spectrum) at the bracket's decided lower end
  int unstable_after;    ///< and at its upper end
};

namespace detail {

/// find_crossings' view of one D(mu): its decided spectrum and the count
/// of eigenvalues that are 0 within their bounds.
template <class S>
struct CrossingPoint {
  Spectrum<S> spectrum;
  int zeros = 0;
};

template <class S>
CrossingPoint<S> crossing_point(const Mat<S>& M) {
  using std::hypot;
  CrossingPoint<S> pt{decided_spectrum<S>(M), 0};
  for (std::size_t i = 0; i < pt.spectrum.eigenvalues.size(); ++i)
    if (hypot(pt.spectrum.eigenvalues[i].first, pt.spectrum.eigenvalues[i].second) <= pt.spectrum.bounds[i])
      ++pt.zeros;
  return pt;
}

/// The eigenvalue (re, im) with im > 0 whose im is nearest `omega`: a
/// complex pair followed along the family by its frequency, whatever the
/// order of the real parts (another pair near the axis does not take its
/// place). (0, 0) when there is none.
template <class S>
std::pair<S, S> pair_nearest(const std::vector<std::pair<S, S>>& ev, const S& omega) {
  using std::abs;
  std::pair<S, S> best(S(0), S(0));
  S distance = S(-1);
  for (const auto& e : ev)
    if (e.second > S(0) && (distance < S(0) || abs(e.second - omega) < distance)) {
      distance = abs(e.second - omega);
      best = e;
    }
  return best;
}

/// find_crossings' refinement of one bracket [a, b] between decided points
/// whose unstable counts differ (see find_crossings).
template <class S>
Crossing<S> refine_crossing(const std::function<Mat<S>(const S&)>& D, const S& a, const S& b,
                            const CrossingPoint<S>& left, const CrossingPoint<S>& right) {
  using std::abs;
  const int k = std::min(left.spectrum.unstable, right.spectrum.unstable);  // 0-based: the crossing real part
  const Spectrum<S>& unstable_end = left.spectrum.unstable > right.spectrum.unstable ? left.spectrum : right.spectrum;
  const auto kk = static_cast<std::size_t>(k);
  const bool complex = abs(unstable_end.eigenvalues[kk].second) > unstable_end.bounds[kk];
  const S omega = abs(unstable_end.eigenvalues[kk].second);
  const int z = std::min(left.zeros, right.zeros);
  const std::function<S(const S&)> smooth = [&, z, complex](const S& mu) -> S {
    if (complex) return pair_nearest<S>(decided_spectrum<S>(D(mu)).eigenvalues, omega).first;
    return characteristic_coefficients<S>(D(mu))[static_cast<std::size_t>(z)];
  };
  Crossing<S> c{S(0), a, b, complex ? "complex pair" : "real", "", S(0), left.spectrum.unstable,
                right.spectrum.unstable};
  const S fa = smooth(c.lo), fb = smooth(c.hi);
  if (fa == S(0) || fb == S(0)) {
    // The crossing is a grid point itself (the sleigh at V = 0 on a grid
    // through 0): exactly there, where counting would stop within the
    // bound of it.
    c.method = complex ? "root of the real part" : "root of c_" + std::to_string(z);
    c.lo = c.hi = fa == S(0) ? c.lo : c.hi;
  } else if ((fa > S(0) && fb < S(0)) || (fa < S(0) && fb > S(0))) {
    c.method = complex ? "root of the real part" : "root of c_" + std::to_string(z);
    std::uintmax_t iterations = 400;
    const auto r = boost::math::tools::toms748_solve(
        smooth, c.lo, c.hi, fa, fb, boost::math::tools::eps_tolerance<S>(std::numeric_limits<S>::digits - 3),
        iterations);
    c.lo = r.first;
    c.hi = r.second;
  } else {
    // Bisection of the count; it stops at a midpoint it cannot decide.
    c.method = "bisection of the unstable count";
    for (int it = 0; it < 4 * std::numeric_limits<S>::digits; ++it) {
      const S mid = (c.lo + c.hi) / 2;
      if (!(c.hi - c.lo > 4 * epsilon<S>() * std::max({S(1), S(abs(c.lo)), S(abs(c.hi))}))) break;
      const Spectrum<S> m = decided_spectrum<S>(D(mid));
      if (m.undecided > 0) break;
      if (m.unstable == left.spectrum.unstable) c.lo = mid;
      else c.hi = mid;
    }
  }
  c.at = (c.lo + c.hi) / 2;
  // The pair that changes stability, followed from the unstable end.
  if (complex) c.frequency = pair_nearest<S>(decided_spectrum<S>(D(c.at)).eigenvalues, omega).second;
  return c;
}

/// True when the change of the unstable count between `left` and `right`
/// is what one crossing of the k-th eigenvalue at the unstable end makes: 2
/// for a complex pair, 1 for a real eigenvalue. Else (a pair leaving and a
/// real eigenvalue entering in one grid cell: the bicycle's weave and
/// capsize speeds close together, 2 -> 1) the cell holds more crossings.
template <class S>
bool one_crossing(const CrossingPoint<S>& left, const CrossingPoint<S>& right) {
  using std::abs;
  const int k = std::min(left.spectrum.unstable, right.spectrum.unstable);
  const Spectrum<S>& unstable_end = left.spectrum.unstable > right.spectrum.unstable ? left.spectrum : right.spectrum;
  const auto kk = static_cast<std::size_t>(k);
  const bool complex = abs(unstable_end.eigenvalues[kk].second) > unstable_end.bounds[kk];
  return std::abs(left.spectrum.unstable - right.spectrum.unstable) == (complex ? 2 : 1);
}

/// The crossings between decided points a < b whose counts differ: one
/// (refine_crossing) when the change is one crossing's (one_crossing),
/// else those of [a, m] and [m, b] with m the midpoint (or, where an
/// eigenvalue is undecided there, as at a crossing itself, the point
/// 0.382 of the way), splitting at most `depth` times; no decided split
/// point, or no depth left, gives one crossing for the whole bracket, as
/// refine_crossing finds it.
template <class S>
void crossings_between(const std::function<Mat<S>(const S&)>& D, const S& a, const S& b,
                       const CrossingPoint<S>& left, const CrossingPoint<S>& right, int depth,
                       std::vector<Crossing<S>>& out) {
  if (one_crossing<S>(left, right) || depth == 0) {
    out.push_back(refine_crossing<S>(D, a, b, left, right));
    return;
  }
  S m = (a + b) / 2;
  CrossingPoint<S> mid = crossing_point<S>(D(m));
  if (mid.spectrum.undecided > 0) {
    m = a + (b - a) * S(382) / S(1000);
    mid = crossing_point<S>(D(m));
  }
  if (mid.spectrum.undecided > 0) {
    out.push_back(refine_crossing<S>(D, a, b, left, right));
    return;
  }
  if (mid.spectrum.unstable != left.spectrum.unstable) crossings_between<S>(D, a, m, left, mid, depth - 1, out);
  if (mid.spectrum.unstable != right.spectrum.unstable) crossings_between<S>(D, m, b, mid, right, depth - 1, out);
}

}  // namespace detail

/// The crossings of the matrices D(mu) on a grid (increasing, >= 2 values).
/// At each grid value the eigenvalues are decided (decided_spectrum); a
/// value where some eigenvalue is undecided is skipped (and appended to
/// *undecided when given), so that crossings are bracketed only between
/// decided neighbours a < b whose counts u of unstable eigenvalues differ
/// (grid values between them undecided): there the k-th largest real
/// part, k = min(u(a), u(b)) + 1, changes sign. Refinement, to the
/// precision of S (Boost's TOMS 748 to the digits of S, bisection to a
/// relative width of a few epsilon):
///  - kind "real": the characteristic coefficient c_z (characteristic_
///    coefficients) with z the eigenvalues that are 0 within their bounds
///    at both ends (ones that do not cross, e.g. a second family of steady
///    motions): the product of the others, smooth where the real
///    eigenvalue meets another (a pair +-mu becoming +-i omega, as at the
///    upright disc's threshold); method "root of c_z";
///  - kind "complex pair": the real part of the pair that crosses,
///    followed by its frequency from the unstable end (pair_nearest), not
///    whichever pair is nearest the axis; method "root of the real part";
///    its frequency is that pair's at the crossing;
///  - either, where the function does not change sign between a and b
///    (several eigenvalues crossing between two grid points, or a real
///    part that touches 0 and stays there): bisection of the count,
///    method "bisection of the unstable count", which stops at a midpoint
///    where an eigenvalue is undecided.
/// Where the function is exactly 0 at a grid point, the crossing is that
/// point. A bracket whose change of count is not one crossing's (a complex
/// pair leaving and a real eigenvalue entering between two grid points,
/// 2 -> 1) is halved until each part holds one (detail::crossings_between,
/// at most digits(S) halvings), so both are reported. A crossing and its
/// return between two grid points (no change of count) are not seen: the
/// grid sets the resolution. Throws what D throws.
template <class S>
std::vector<Crossing<S>> find_crossings(const std::function<Mat<S>(const S&)>& D, const std::vector<S>& grid,
                                        std::vector<S>* undecided = nullptr) {
  std::vector<Crossing<S>> out;
  std::optional<detail::CrossingPoint<S>> left;
  S left_mu(0);
  for (const S& mu : grid) {
    detail::CrossingPoint<S> right = detail::crossing_point<S>(D(mu));
    if (right.spectrum.undecided > 0) {
      if (undecided) undecided->push_back(mu);
      continue;
    }
    if (left && left->spectrum.unstable != right.spectrum.unstable)
      detail::crossings_between<S>(D, left_mu, mu, *left, right, std::numeric_limits<S>::digits, out);
    left = std::move(right);
    left_mu = mu;
  }
  return out;
}

}  // namespace nhs
