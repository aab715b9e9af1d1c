// Eigenvalues and characteristic coefficients of a real square matrix in
// the scalar type S itself (double ... mp100): Eigen's real Schur form and
// Hessenberg reduction run in S, and complex eigenvalues are returned as
// (real part, imaginary part) pairs of S, with no std::complex of a
// multiprecision type.
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/errors.hpp"
#include "nhs/scalar.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace nhs {

/// The eigenvalues of a real N x N matrix J, as (re, im), from its real
/// Schur form T = U^T J U (Eigen's RealSchur, Francis QR in S). T is
/// quasi-triangular: a 1 x 1 block is a real eigenvalue; a 2 x 2 block
/// [a b; c d] has the eigenvalues (a + d)/2 +- sqrt((a - d)^2/4 + b c),
/// complex when the radicand is negative (Golub and Van Loan, "Matrix
/// Computations", 4th ed., §7.4-7.5). Sorted by real part, then imaginary
/// part, decreasing; a complex pair comes as (re, +im), (re, -im).
/// Empty for a 0 x 0 matrix. Throws NonFiniteValue when the QR iteration
/// does not converge (a matrix with a non-finite entry).
template <class S>
std::vector<std::pair<S, S>> eigenvalues_of(const Mat<S>& J) {
  using std::sqrt;
  if (J.rows() == 0) return {};  // Eigen's RealSchur does not take an empty matrix
  const Eigen::RealSchur<Mat<S>> schur(J, /*computeU=*/false);
  if (schur.info() != Eigen::Success)
    throw NonFiniteValue("the QR iteration for the eigenvalues of a " + std::to_string(J.rows()) + " x " +
                         std::to_string(J.cols()) + " matrix did not converge");
  const Mat<S>& T = schur.matrixT();
  std::vector<std::pair<S, S>> out;
  const Eigen::Index N = T.rows();
  for (Eigen::Index i = 0; i < N;) {
    if (i + 1 < N && T(i + 1, i) != S(0)) {
      // Scaled by the power of 2 nearest the block's largest entry (exact:
      // the same digits), so that the squares do not overflow where the
      // eigenvalues themselves are finite.
      using std::abs;
      using std::frexp;
      using std::ldexp;
      int e = 0;
      (void)frexp(std::max({S(abs(T(i, i))), S(abs(T(i, i + 1))), S(abs(T(i + 1, i))), S(abs(T(i + 1, i + 1)))}), &e);
      const S s = ldexp(S(1), e);
      const S a = T(i, i) / s, b = T(i, i + 1) / s, c = T(i + 1, i) / s, d = T(i + 1, i + 1) / s;
      const S mean = (a + d) / 2, half = (a - d) / 2, disc = half * half + b * c;
      if (disc < S(0)) {
        const S im = sqrt(-disc);
        out.emplace_back(s * mean, s * im);
        out.emplace_back(s * mean, -(s * im));
      } else {  // a 2 x 2 block with real eigenvalues (not standardized)
        out.emplace_back(s * (mean + sqrt(disc)), S(0));
        out.emplace_back(s * (mean - sqrt(disc)), S(0));
      }
      i += 2;
    } else {
      out.emplace_back(T(i, i), S(0));
      i += 1;
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second > y.second;
  });
  return out;
}

/// The diagonal similarity B = S^-1 A S that balances a real N x N matrix
/// (Parlett and Reinsch, Numer. Math. 13 (1969) 293-304; LAPACK's xGEBAL
/// without its permutations): each S_ii a power of 2, chosen so that row
/// i and column i of B have about the same 1-norm off the diagonal. The
/// scaling is exact in binary floating point, so B has A's eigenvalues;
/// a decoupled stiff block [0 1; -k 0] becomes [0 sqrt k; -sqrt k 0], and
/// ||B|| is then the largest mode's size, not k. At most 100 sweeps.
template <class S>
Mat<S> balanced(const Mat<S>& A) {
  using std::abs;
  Mat<S> B = A;
  const Eigen::Index N = B.rows();
  for (int sweep = 0, done = 0; sweep < 100 && !done; ++sweep) {
    done = 1;
    for (Eigen::Index i = 0; i < N; ++i) {
      S c(0), r(0);
      for (Eigen::Index j = 0; j < N; ++j)
        if (j != i) {
          c += abs(B(j, i));
          r += abs(B(i, j));
        }
      if (c == S(0) || r == S(0) || !(c + r < std::numeric_limits<S>::infinity())) continue;
      const S sum = c + r;
      S f(1);
      while (c < r / 2) {
        f *= 2;
        c *= 4;
      }
      while (c >= r * 2) {
        f /= 2;
        c /= 4;
      }
      if ((c + r) / f < S(95) / 100 * sum) {  // column i times f, row i over f
        done = 0;
        B.col(i) *= f;
        B.row(i) /= f;
      }
    }
  }
  return B;
}

/// First-order error estimates of the eigenvalues `ev` (eigenvalues_of(A),
/// in that order) of a real N x N matrix A computed by a backward-stable
/// method: |delta lambda| <= c eps ||A||_F kappa(lambda), c = N, with the
/// condition number kappa = ||x|| ||y|| / |y^H x| from the right and left
/// eigenvectors x, y (Wilkinson 1965, ch. 2; Golub and Van Loan, §7.2.2),
/// taken as the singular vectors of the smallest singular value of A -
/// lambda I, or, for a complex lambda = a + i b, of its real form [A - a I,
/// b I; -b I, A - a I] (2N x 2N: no complex arithmetic in S). Where kappa
/// blows up (a Jordan block of size k: a real pair turning complex is one
/// of size 2), the first-order estimate is capped by the cluster's:
/// c ||A||_F eps^(1/k), k the largest count of eigenvalues within twice
/// that radius of lambda. Exact zero for a zero matrix. Pass a balanced
/// matrix (balanced()) to get estimates that do not depend on the units of
/// the state. An estimate that overflows is +infinity (nothing decided).
template <class S>
std::vector<S> eigenvalue_error_bounds(const Mat<S>& A, const std::vector<std::pair<S, S>>& ev) {
  using std::abs;
  using std::hypot;
  using std::pow;
  using std::sqrt;
  const Eigen::Index N = A.rows();
  // ||A||_F without overflow: the largest entry times the norm of A over it.
  const S largest = N == 0 ? S(0) : S(A.cwiseAbs().maxCoeff());
  const S norm = largest == S(0) ? S(0) : S(largest * sqrt(S((A / largest).squaredNorm()))), scale = S(N) * norm;
  std::vector<S> out;
  for (const auto& [a, b] : ev) {
    S kappa = std::numeric_limits<S>::infinity();
    const bool real = b == S(0);
    Mat<S> M = Mat<S>::Zero(real ? N : 2 * N, real ? N : 2 * N);
    M.topLeftCorner(N, N) = A - a * Mat<S>::Identity(N, N);
    if (!real) {
      M.bottomRightCorner(N, N) = M.topLeftCorner(N, N);
      M.topRightCorner(N, N) = b * Mat<S>::Identity(N, N);
      M.bottomLeftCorner(N, N) = -b * Mat<S>::Identity(N, N);
    }
    const Eigen::JacobiSVD<Mat<S>> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Vec<S> x = svd.matrixV().col(M.cols() - 1), y = svd.matrixU().col(M.rows() - 1);
    // Real: y^T x. Complex: x = xr + i xi = (top; bottom) of the right
    // vector; w = wr + i wi with (wr; -wi) the left one; y^H x = w^T x.
    const S overlap = real ? S(abs(y.dot(x)))
                           : S(hypot(S(y.head(N).dot(x.head(N)) + y.tail(N).dot(x.tail(N))),
                                     S(y.head(N).dot(x.tail(N)) - y.tail(N).dot(x.head(N)))));
    if (overlap > S(0)) kappa = S(1) / overlap;
    S bound = scale * epsilon<S>() * kappa;
    for (Eigen::Index k = N; k >= 2; --k) {
      const S radius = scale * S(pow(epsilon<S>(), S(1) / S(k)));
      Eigen::Index near = 0;
      for (const auto& [c, d] : ev) near += hypot(S(c - a), S(d - b)) <= 2 * radius ? 1 : 0;
      if (near >= k) {
        bound = std::min(bound, radius);
        break;
      }
    }
    if (!(bound == bound)) bound = std::numeric_limits<S>::infinity();  // NaN (an overflow in the SVD): unknown
    out.push_back(norm == S(0) ? S(0) : bound);
  }
  return out;
}

/// The coefficients c_0 .. c_N of the characteristic polynomial
/// det(lambda I - J) = sum_k c_k lambda^k (c_N = 1) of a real N x N matrix,
/// from its Hessenberg form H = Q^T J Q (Eigen's HessenbergDecomposition,
/// Householder, in S) by the recurrence of Hyman / La Budde on the leading
/// principal submatrices H_k: p_k = (lambda - h_kk) p_{k-1} -
/// sum_{i<k} h_ik (prod_{j=i+1..k} h_{j,j-1}) p_{i-1} (Wilkinson, "The
/// Algebraic Eigenvalue Problem", 1965, §7.11). c_k is (-1)^(N-k) times
/// the elementary symmetric function e_(N-k) of the eigenvalues: a smooth
/// function of J even where eigenvalues collide (where the eigenvalues
/// themselves are only Hoelder continuous). O(N^3).
template <class S>
std::vector<S> characteristic_coefficients(const Mat<S>& J) {
  const Eigen::Index N = J.rows();
  if (N == 0) return {S(1)};
  const Eigen::HessenbergDecomposition<Mat<S>> hd(J);
  const Mat<S> H = hd.matrixH();
  // p[k]: coefficients of p_k (degree k), p[0] = 1.
  std::vector<std::vector<S>> p(static_cast<std::size_t>(N) + 1);
  p[0] = {S(1)};
  for (Eigen::Index k = 1; k <= N; ++k) {
    std::vector<S> pk(static_cast<std::size_t>(k) + 1, S(0));
    const std::vector<S>& prev = p[static_cast<std::size_t>(k - 1)];
    for (std::size_t d = 0; d < prev.size(); ++d) {  // (lambda - h_kk) p_{k-1}
      pk[d + 1] += prev[d];
      pk[d] -= H(k - 1, k - 1) * prev[d];
    }
    S subdiagonal_product = S(1);
    for (Eigen::Index i = k - 1; i >= 1; --i) {  // rows i = k-1 .. 1 (1-based), H(i-1, k-1)
      subdiagonal_product *= H(i, i - 1);
      const S factor = H(i - 1, k - 1) * subdiagonal_product;
      const std::vector<S>& pi = p[static_cast<std::size_t>(i - 1)];
      for (std::size_t d = 0; d < pi.size(); ++d) pk[d] -= factor * pi[d];
    }
    p[static_cast<std::size_t>(k)] = std::move(pk);
  }
  return p[static_cast<std::size_t>(N)];
}

}  // namespace nhs
