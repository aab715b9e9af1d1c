// Implementation of semidefinite_mass.hpp; included once per scalar type by
// the generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/format.hpp"
#include "nhs/semidefinite_mass.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

namespace nhs {
namespace semidefinite_mass_detail {

// g = V diag(mu) V^T; throws SingularState("singular metric g") unless g is
// positive semidefinite: mu_0 >= -regularity_tolerance * max |mu|.
template <class S>
Eigen::SelfAdjointEigenSolver<Mat<S>> semidefinite_spectrum(const Mat<S>& g,
                                                            const Context& context) {
  require_finite(g, "the metric g", context);
  Eigen::SelfAdjointEigenSolver<Mat<S>> eig(g);
  const Eigen::Index n = g.rows();
  const Vec<S> mu = eig.info() == Eigen::Success ? Vec<S>(eig.eigenvalues()) : Vec<S>();
  require_finite(mu, "the eigenvalues of g", context);  // overflow inside the solver
  using std::abs;
  using std::max;
  if (mu.size() != n || n == 0 ||
      !(mu[0] >= -regularity_tolerance<S>() * max(abs(mu[0]), abs(mu[n - 1]))))
    throw SingularState("singular metric g",
                        "singular state: singular metric g (not positive semidefinite: "
                        "eigenvalues " + to_string<S>(mu) + ") " + context());
  return eig;
}

// s: the largest eigenvalue of g, 1 when there is none above 0.
template <class S>
S metric_scale(const Vec<S>& mu) {
  return mu.size() && mu[mu.size() - 1] > S(0) ? mu[mu.size() - 1] : S(1);
}

// "(name = value, ...)": v's components above regularity_tolerance (v is a
// unit vector), its largest component made positive.
template <class S>
std::string named_direction(Vec<S> v, const std::vector<std::string>& coordinates) {
  Eigen::Index largest = 0;
  v.cwiseAbs().maxCoeff(&largest);
  if (v[largest] < S(0)) v = -v;
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    using std::abs;
    if (!(abs(v[i]) > regularity_tolerance<S>())) continue;
    const std::string name = static_cast<std::size_t>(i) < coordinates.size()
                                 ? coordinates[static_cast<std::size_t>(i)]
                                 : "q" + std::to_string(i + 1);
    out += (out.empty() ? "" : ", ") + name + " = " + to_string<S>(v[i]);
  }
  return "(" + out + ")";
}

}  // namespace semidefinite_mass_detail

template <class S>
AuxiliaryMass<S> auxiliary_mass(const Mat<S>& g, const Mat<S>& A,
                                const std::vector<std::string>& coordinates,
                                const Context& context) {
  namespace d = semidefinite_mass_detail;
  const Eigen::Index n = g.rows(), r = A.rows();
  const auto spectrum = d::semidefinite_spectrum<S>(g, context);
  require_finite(A, "dC/dqdot", context);

  AuxiliaryMass<S> out;
  out.scale = d::metric_scale<S>(spectrum.eigenvalues());
  // A^+ and the projector A^+ A = V_k V_k^T onto the row space of A.
  Mat<S> P = Mat<S>::Zero(n, n);
  out.A_pinv = Mat<S>::Zero(n, r);
  if (r > 0) {
    Eigen::JacobiSVD<Mat<S>> svd(A, Eigen::ComputeThinU | Eigen::ComputeThinV);
    svd.setThreshold(regularity_tolerance<S>());
    out.rank_A = static_cast<int>(svd.rank());
    const Eigen::Index k = out.rank_A;
    const auto Vk = svd.matrixV().leftCols(k);
    const auto Uk = svd.matrixU().leftCols(k);
    out.A_pinv = Vk * svd.singularValues().head(k).cwiseInverse().asDiagonal() * Uk.transpose();
    P = Vk * Vk.transpose();
  }
  out.M_A = g + out.scale * P;
  require_finite(out.M_A, "M_A = g + s A^+ A", context);  // g near the overflow threshold
  const Eigen::SelfAdjointEigenSolver<Mat<S>> eig(out.M_A);
  out.mu = eig.info() == Eigen::Success ? Vec<S>(eig.eigenvalues()) : Vec<S>();
  if (out.mu.size() != n)
    throw SingularState("accelerations undetermined",
                        "singular state: accelerations undetermined (the eigen-decomposition of "
                        "M_A = g + s A^+ A failed) " + context());
  require_finite(out.mu, "the eigenvalues of M_A = g + s A^+ A", context);
  out.V = eig.eigenvectors();
  const S threshold = regularity_tolerance<S>() * out.mu[n - 1];
  Eigen::Index rank = 0;
  for (Eigen::Index i = 0; i < n; ++i) rank += out.mu[i] > threshold ? 1 : 0;
  if (rank < n) {
    std::string directions;
    for (Eigen::Index i = 0; i < n - rank; ++i)  // eigenvalues increase: the first n - rank
      directions += (i ? ", " : "") + d::named_direction<S>(Vec<S>(out.V.col(i)), coordinates);
    const std::string condition = "accelerations undetermined";
    throw SingularState(
        condition,
        "singular state: " + condition + ": [g; dC/dqdot] has rank " + std::to_string(rank) +
            " < n = " + std::to_string(n) + ", so qddot is free along " +
            (n - rank == 1 ? std::string("the direction ") : std::to_string(n - rank) +
                                                                 " directions ") +
            directions + " (no mass and no constraint acts there; eigenvalues of M_A = g + s A^+ A, s = " +
            to_string<S>(out.scale) + ": " + to_string<S>(out.mu) + ") " + context());
  }
  return out;
}

template <class S>
Mat<S> projection_metric(const Mat<S>& g, const Context& context) {
  namespace d = semidefinite_mass_detail;
  require_finite(g, "the metric g", context);
  const Eigen::LDLT<Mat<S>> ldlt(g);
  const Vec<S> pivots = ldlt.vectorD();
  if (ldlt.info() == Eigen::Success && pivots.size() > 0 &&
      pivots.minCoeff() > regularity_tolerance<S>() * pivots.cwiseAbs().maxCoeff())
    return g;
  const auto spectrum = d::semidefinite_spectrum<S>(g, context);
  const Vec<S>& mu = spectrum.eigenvalues();
  const S s = d::metric_scale<S>(mu);
  Mat<S> W = g;
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (!(mu[i] > regularity_tolerance<S>() * mu[mu.size() - 1]))
      W += s * spectrum.eigenvectors().col(i) * spectrum.eigenvectors().col(i).transpose();
  return W;
}

}  // namespace nhs
