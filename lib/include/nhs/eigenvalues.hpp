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

#include <algorithm>
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
      const S a = T(i, i), b = T(i, i + 1), c = T(i + 1, i), d = T(i + 1, i + 1);
      const S mean = (a + d) / 2, half = (a - d) / 2, disc = half * half + b * c;
      if (disc < S(0)) {
        const S im = sqrt(-disc);
        out.emplace_back(mean, im);
        out.emplace_back(mean, -im);
      } else {  // a 2 x 2 block with real eigenvalues (not standardized)
        out.emplace_back(mean + sqrt(disc), S(0));
        out.emplace_back(mean - sqrt(disc), S(0));
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
