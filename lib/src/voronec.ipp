// Implementation of voronec.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/voronec.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>

namespace nhs {
namespace voronec_detail {

template <class S>
std::string configuration_context(const Vec<S>& q) {
  return "at q = " + to_string(q);
}

}  // namespace voronec_detail

template <class S>
DependentVelocities<S> dependent_velocities(const System<S>& sys, const Vec<S>& q) {
  const std::string why = dependent_velocity_reason(sys.info);
  if (!why.empty())
    throw NotApplicable("system '" + sys.info.name + "' has no dependent-velocity split: " + why);
  const Eigen::Index n = sys.n, r = sys.r;
  DependentVelocities<S> dv;
  dv.dependent = sys.info.dependent_velocities;
  dv.independent = independent_velocities(sys.info);

  // The constraints are linear, C^a = C^a_i(q) qdot^i: at qdot = e_i, C is
  // the column C^a_i(q) and dC/dq its q-derivative. C_qdot is the same at
  // every qdot.
  // Affine constraints, C^a = C^a_i(q) qdot^i + a0^a(q): at qdot = 0, C is
  // the velocity-free term and dC/dq its q-derivative, taken off each column.
  const bool affine = sys.info.affine_constraints;
  const Vec<S> zero = Vec<S>::Zero(n);
  const Mat<S> C0_q = affine ? constraint_jacobians<S>(sys, q, zero).C_q : Mat<S>();
  Mat<S> Cqd;
  std::vector<Mat<S>> Cqd_q(static_cast<std::size_t>(n), Mat<S>(r, n));  // [k](a, i) = dC^a_i/dq^k
  for (Eigen::Index i = 0; i < n; ++i) {
    const ConstraintJacobians<S> J = constraint_jacobians<S>(sys, q, Vec<S>::Unit(n, i));
    if (i == 0) Cqd = J.C_qdot;
    for (Eigen::Index k = 0; k < n; ++k)
      Cqd_q[static_cast<std::size_t>(k)].col(i) = affine ? Vec<S>(J.C_q.col(k) - C0_q.col(k)) : Vec<S>(J.C_q.col(k));
  }
  const Mat<S> C_dep = Cqd(Eigen::all, dv.dependent);
  const Mat<S> C_indep = Cqd(Eigen::all, dv.independent);
  require_full_rank<S>(C_dep, "singular dependent block of dC/dqdot",
                       [&] { return voronec_detail::configuration_context(q); });
  const Eigen::PartialPivLU<Mat<S>> lu(C_dep);
  dv.a = -lu.solve(C_indep);
  dv.a_q.resize(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) {
    // d/dq^k of C_dep a + C_indep = 0.
    const Mat<S> dC_dep = Cqd_q[k](Eigen::all, dv.dependent);
    const Mat<S> dC_indep = Cqd_q[k](Eigen::all, dv.independent);
    dv.a_q[k] = -lu.solve(Mat<S>(dC_indep + dC_dep * dv.a));
  }
  if (affine) {
    // C_dep a0 + C(q, 0) = 0 and its q-derivative (A6).
    dv.a0 = -lu.solve(constraint_residuals<S>(sys, q, zero));
    dv.a0_q.resize(r, n);
    for (Eigen::Index k = 0; k < n; ++k) {
      const Mat<S> dC_dep = Cqd_q[static_cast<std::size_t>(k)](Eigen::all, dv.dependent);
      dv.a0_q.col(k) = -lu.solve(Vec<S>(C0_q.col(k) + dC_dep * dv.a0));
    }
  }
  return dv;
}

template <class S>
Margin<S> split_margin(const System<S>& sys, const Vec<S>& q) {
  const std::string why = dependent_velocity_reason(sys.info);
  if (!why.empty())
    throw NotApplicable("system '" + sys.info.name + "' has no dependent-velocity split: " + why);
  const Eigen::Index n = sys.n, r = sys.r, m = n - r;
  Margin<S> out{"split_margin", S(1), "singular dependent block of dC/dqdot"};
  if (m == 0) return out;
  // dC/dqdot is the same at every qdot (linear constraints): at qdot = 0.
  const Mat<S> Cqd = constraint_jacobians<S>(sys, q, Vec<S>(Vec<S>::Zero(n))).C_qdot;
  const Eigen::JacobiSVD<Mat<S>> svd(Cqd, Eigen::ComputeFullV);
  const Mat<S> Q = svd.matrixV().rightCols(m);  // ker dC/dqdot (rank r)
  const Vec<S> sv = singular_values<S>(Mat<S>(Q(independent_velocities(sys.info), Eigen::all)));
  out.value = sv[sv.size() - 1];
  return out;
}

template <class S>
Vec<S> full_velocity(const DependentVelocities<S>& dv, const Vec<S>& qd_indep) {
  const Eigen::Index r = static_cast<Eigen::Index>(dv.dependent.size());
  const Eigen::Index m = static_cast<Eigen::Index>(dv.independent.size());
  Vec<S> qd(r + m);
  qd(dv.independent) = qd_indep;
  qd(dv.dependent) = dv.a * qd_indep;
  if (dv.a0.size()) qd(dv.dependent) += dv.a0;
  return qd;
}

template <class S>
ReducedKineticEnergy<S> reduced_kinetic_energy(const System<S>& sys,
                                               const DependentVelocities<S>& dv,
                                               const Vec<S>& q, const Vec<S>& qd_indep) {
  const Eigen::Index n = sys.n, r = sys.r, m = n - r;
  // Outer variables (2n): q^k at k, qdot_indep_j at n + j, the
  // dependent-velocity offset w_l at n + m + l. Inner variables (m):
  // qdot_indep_j.
  KineticEnergySeed<S> seed;
  seed.outer = 2 * n;
  seed.inner = m;
  seed.q = q;
  seed.qd = full_velocity(dv, qd_indep);
  seed.q_inner = Mat<S>::Zero(n, m);
  seed.qd_inner = Mat<S>::Zero(n, m);
  seed.q_outer = Mat<S>::Zero(n, 2 * n);
  seed.q_outer.leftCols(n) = Mat<S>::Identity(n, n);
  seed.qd_outer = Mat<S>::Zero(n, 2 * n);
  seed.qd_outer_inner.assign(static_cast<std::size_t>(n), Mat<S>::Zero(2 * n, m));
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index i = dv.independent[static_cast<std::size_t>(j)];
    seed.qd_inner(i, j) = S(1);
    seed.qd_outer(i, n + j) = S(1);
  }
  // qdot_dep_l = a_l(q) . qdot_indep (+ a0_l(q)) + w_l: value and inner
  // derivative a_l; d/dq^k: (da_l/dq^k) . qdot_indep (+ da0_l/dq^k) with
  // inner derivative da_l/dq^k;
  // d/dqdot_indep_j: a_lj; d/dw_l: 1.
  for (Eigen::Index l = 0; l < r; ++l) {
    const Eigen::Index i = dv.dependent[static_cast<std::size_t>(l)];
    Mat<S>& outer_inner = seed.qd_outer_inner[static_cast<std::size_t>(i)];
    seed.qd_inner.row(i) = dv.a.row(l);
    for (Eigen::Index k = 0; k < n; ++k) {
      const auto row = dv.a_q[static_cast<std::size_t>(k)].row(l);
      seed.qd_outer(i, k) = dv.a0.size() ? S(row.dot(qd_indep) + dv.a0_q(l, k)) : S(row.dot(qd_indep));
      outer_inner.row(k) = row;
    }
    for (Eigen::Index j = 0; j < m; ++j) seed.qd_outer(i, n + j) = dv.a(l, j);
    seed.qd_outer(i, n + m + l) = S(1);
  }
  const KineticEnergyJet<S> jet = kinetic_energy_jet(sys, seed);
  const auto outer_value = [&](Eigen::Index i) { return jet.T_outer[i]; };
  const auto mixed = [&](Eigen::Index i, Eigen::Index j) { return jet.T_outer_inner(i, j); };

  ReducedKineticEnergy<S> out;
  out.G.resize(m, m);
  out.G_q.resize(m, n);
  out.Tbar_q.resize(n);
  out.p_dep.resize(r);
  for (Eigen::Index i = 0; i < m; ++i) {
    for (Eigen::Index j = 0; j < m; ++j) out.G(i, j) = mixed(n + j, i);
    for (Eigen::Index k = 0; k < n; ++k) out.G_q(i, k) = mixed(k, i);
  }
  for (Eigen::Index k = 0; k < n; ++k) out.Tbar_q[k] = outer_value(k);
  for (Eigen::Index l = 0; l < r; ++l) out.p_dep[l] = outer_value(n + m + l);
  return out;
}

template <class S>
std::vector<Mat<S>> voronec_coefficients(const DependentVelocities<S>& dv) {
  const Eigen::Index r = static_cast<Eigen::Index>(dv.dependent.size());
  const Eigen::Index m = static_cast<Eigen::Index>(dv.independent.size());
  // da_nu,i/dq_j for an independent coordinate j and for a dependent one mu.
  const auto da_indep = [&](Eigen::Index nu, Eigen::Index i, Eigen::Index j) {
    return dv.a_q[static_cast<std::size_t>(dv.independent[static_cast<std::size_t>(j)])](nu, i);
  };
  const auto da_dep = [&](Eigen::Index nu, Eigen::Index i, Eigen::Index mu) {
    return dv.a_q[static_cast<std::size_t>(dv.dependent[static_cast<std::size_t>(mu)])](nu, i);
  };
  std::vector<Mat<S>> b(static_cast<std::size_t>(r), Mat<S>(m, m));
  for (Eigen::Index nu = 0; nu < r; ++nu)
    for (Eigen::Index i = 0; i < m; ++i)
      for (Eigen::Index j = 0; j < m; ++j) {
        S v = da_indep(nu, i, j) - da_indep(nu, j, i);
        for (Eigen::Index mu = 0; mu < r; ++mu)
          v += da_dep(nu, i, mu) * dv.a(mu, j) - da_dep(nu, j, mu) * dv.a(mu, i);
        b[static_cast<std::size_t>(nu)](i, j) = v;
      }
  return b;
}

template <class S>
Mat<S> voronec_affine_coefficients(const DependentVelocities<S>& dv) {
  const Eigen::Index r = static_cast<Eigen::Index>(dv.dependent.size());
  const Eigen::Index m = static_cast<Eigen::Index>(dv.independent.size());
  Mat<S> b0 = Mat<S>::Zero(r, m);
  if (!dv.a0.size()) return b0;
  const auto dep = [&](Eigen::Index mu) { return dv.dependent[static_cast<std::size_t>(mu)]; };
  for (Eigen::Index nu = 0; nu < r; ++nu)
    for (Eigen::Index i = 0; i < m; ++i) {
      S v = -dv.a0_q(nu, dv.independent[static_cast<std::size_t>(i)]);
      for (Eigen::Index mu = 0; mu < r; ++mu)
        v += dv.a_q[static_cast<std::size_t>(dep(mu))](nu, i) * dv.a0[mu] - dv.a(mu, i) * dv.a0_q(nu, dep(mu));
      b0(nu, i) = v;
    }
  return b0;
}

template <class S>
VoronecField<S> voronec(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd_indep) {
  const DependentVelocities<S> dv = dependent_velocities(sys, q);
  const Eigen::Index r = sys.r;
  VoronecField<S> out;
  out.qdot = full_velocity(dv, qd_indep);
  const auto context = [&] { return state_context(q, out.qdot); };

  const ReducedKineticEnergy<S> K = reduced_kinetic_energy(sys, dv, q, qd_indep);
  const std::vector<Mat<S>> b = voronec_coefficients(dv);
  const Vec<S> A = active_force(sys, q, out.qdot);
  const Mat<S> aT = dv.a.transpose();

  // Eq. 10 with L = T - V, solved for qddot_indep. Left: d/dt dTbar/dqdot_i
  // = Gbar_ij qddot_j + (d^2 Tbar/dqdot_i dq^k) qdot^k; the rest to the right.
  Vec<S> rhs = A(dv.independent) + aT * A(dv.dependent)  // virtual work of A_i
               - K.G_q * out.qdot                        // from d/dt dTbar/dqdot_i
               + K.Tbar_q(dv.independent)                // dTbar/dq_i
               + aT * K.Tbar_q(dv.dependent);            // sum_nu dTbar/dq_{m+nu} a_nu,i
  for (Eigen::Index nu = 0; nu < r; ++nu)                // sum_nu,j dT/dqdot_{m+nu} b^nu_ij qdot_j
    rhs += K.p_dep[nu] * (b[static_cast<std::size_t>(nu)] * qd_indep);
  if (dv.a0.size())  // sum_nu dT/dqdot_{m+nu} b0_nu,i (A7)
    rhs += voronec_affine_coefficients(dv).transpose() * K.p_dep;
  const auto G = factor_positive_definite<S>(K.G, "singular reduced metric Gbar", context);
  out.qddot_indep = G.solve(rhs);

  // qddot_dep = d/dt (a qdot_indep + a0) = a qddot_indep + (da/dq^k qdot^k) qdot_indep
  // (+ da0/dq^k qdot^k).
  Mat<S> adot = Mat<S>::Zero(r, dv.a.cols());
  for (Eigen::Index k = 0; k < sys.n; ++k) adot += dv.a_q[static_cast<std::size_t>(k)] * out.qdot[k];
  out.qddot.resize(sys.n);
  out.qddot(dv.independent) = out.qddot_indep;
  out.qddot(dv.dependent) = dv.a * out.qddot_indep + adot * qd_indep;
  if (dv.a0.size()) out.qddot(dv.dependent) += dv.a0_q * out.qdot;  // + d/dt a0
  return out;
}

template <class S>
Vec<S> reduced_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  const DependentVelocities<S> dv = dependent_velocities(sys, q);
  const Vec<S> qd_indep = qd(dv.independent);
  const Vec<S> back = full_velocity(dv, qd_indep);
  const S bound = S(1000) * epsilon<S>() * (S(1) + qd.cwiseAbs().maxCoeff());
  if (!((back - qd).cwiseAbs().maxCoeff() <= bound))
    throw InvalidState("state off C: the dependent velocities a(q) qdot_indep = " +
                       to_string(Vec<S>(back(dv.dependent))) + " differ from qdot's " +
                       to_string(Vec<S>(qd(dv.dependent))) + " " + state_context(q, qd));
  Vec<S> x(q.size() + qd_indep.size());
  x << q, qd_indep;
  return x;
}

template <class S>
void from_reduced_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd) {
  q = x.head(sys.n);
  qd = full_velocity(dependent_velocities(sys, q), Vec<S>(x.tail(sys.n - sys.r)));
}

}  // namespace nhs
