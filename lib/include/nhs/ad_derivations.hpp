// The derivations behind derivatives.hpp, written once as templates over the
// AD evaluation type: the dynamic types of autodiff.hpp (AD1<S>, AD2<S>, any
// size, any scalar), the inline ones (InlineAD1/2: runtime size <= 16) and
// the fixed-size ones (FixedAD1/2: the size known at compile time). The
// result types (Inertia, ConstraintJacobians, ParametrizationJacobians) are
// the same whatever the evaluation type: the formulations never see it.
//
// Each derivation takes the system's function already evaluated in the AD
// type (a callable), so that describe() (system.hpp) can bind a description's
// own functions to the fastest type its sizes allow, and derivatives.ipp the
// dynamic fallback.
#pragma once

#include "nhs/autodiff.hpp"

#include <vector>

namespace nhs {

/// Metric and quadratic inertial term of the Lagrange equations
///   d/dt dT/dqdot^k - dT/dq^k = g_kj qddot^j + Gamma_ij,k qdot^i qdot^j
/// (001 eqs. 3.14-3.15; 000 eq. 27).
template <class S>
struct Inertia {
  Mat<S> g;      ///< g_ij = d^2T / dqdot^i dqdot^j, n x n
  Vec<S> gamma;  ///< Gamma_ij,k qdot^i qdot^j = (d^2T/dqdot^k dq^j) qdot^j - dT/dq^k, n
};

/// The constraints and their Jacobians at (q, qdot) (001 eq. 2.4, 3.13).
template <class S>
struct ConstraintJacobians {
  Vec<S> C;       ///< C^a(q, qdot), size r
  Mat<S> C_qdot;  ///< C^a_i = dC^a/dqdot^i, r x n
  Mat<S> C_q;     ///< dC^a/dq^i, r x n
};

/// The parametric representation and its Jacobians at (q, z) (001 eqs.
/// 2.1, 2.4, 3.13).
template <class S>
struct ParametrizationJacobians {
  Vec<S> psi;    ///< qdot^i = psi^i(q, z), size n
  Mat<S> psi_z;  ///< psi^i_alpha = dpsi^i/dz^alpha, n x m
  Mat<S> psi_q;  ///< psi^i_j = dpsi^i/dq^j, n x n
};

/// A second-order jet of (q, qdot) at which to evaluate T, for derivatives
/// of T and of the momenta dT/dqdot along chosen directions (Maggi's
/// d/dt dT/dqdot, 000 eq. 32; Voronec's reduced T, 002 eqs. 9-11). Each
/// input x (q^i, qdot^i) is a value, its derivatives along `outer`
/// directions, and the derivatives of both in `inner` variables:
/// x = value + outer . e + inner-part, truncated at order 1 in each level.
/// Sizes: outer <= 2n, inner <= n (the sizes the system's AD2 parameters
/// carry); all matrices n x (outer or inner); qd_outer_inner empty (zero)
/// or n matrices outer x inner; q's outer derivatives have no inner part.
template <class S>
struct KineticEnergySeed {
  Eigen::Index outer = 0, inner = 0;
  Vec<S> q, qd;                       ///< values, n
  Mat<S> q_inner, qd_inner;           ///< inner derivatives of the values, n x inner
  Mat<S> q_outer, qd_outer;           ///< outer derivatives, n x outer
  std::vector<Mat<S>> qd_outer_inner; ///< inner derivatives of qd_outer: [i](k, j)
};

/// T at a KineticEnergySeed: its value, inner and outer derivatives and
/// the inner derivatives of the outer ones.
template <class S>
struct KineticEnergyJet {
  S T = S(0);
  Vec<S> T_inner;        ///< inner
  Vec<S> T_outer;        ///< outer
  Mat<S> T_outer_inner;  ///< outer x inner: d/d(inner j) of d/d(outer k)
};

namespace ad {

/// Length of the derivative vectors of the AD type A for a derivation over
/// `variables` variables: `variables` for a runtime size, the compile-time
/// size otherwise (>= variables; the extra slots are seeded zero).
template <class A>
Eigen::Index slots(Eigen::Index variables) {
  constexpr int fixed = A::DerType::SizeAtCompileTime;
  if constexpr (fixed == Eigen::Dynamic) {
    return variables;
  } else {
    return fixed;
  }
}

/// Entry i of an AD derivative vector; a dynamic one is left empty by Eigen
/// for a quantity that is constant in every variable.
template <class V>
typename V::Scalar entry_or_zero(const V& d, Eigen::Index i) {
  using T = typename V::Scalar;
  return d.size() == 0 ? T(0) : d[i];
}

/// Inner derivative k of outer entry i of a second-order derivative vector.
template <class V>
auto entry_or_zero2(const V& d, Eigen::Index i, Eigen::Index k) {
  using S = typename V::Scalar::Real;
  if (d.size() == 0) return S(0);
  return entry_or_zero(d[i].derivatives(), k);
}

/// x seeded as variables offset .. offset + size(x) - 1 of a first-order
/// derivation over `variables` variables, in A.
template <class A, class S>
Vec<A> seed(const Vec<S>& x, Eigen::Index offset, Eigen::Index variables) {
  using Der = typename A::DerType;
  const Eigen::Index len = slots<A>(variables);
  Vec<A> out(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) out[i] = A(x[i], Der::Unit(len, offset + i));
  return out;
}

/// The values of first-order AD results y (size k) and their Jacobians in
/// two blocks of variables: first = dy/d(variables 0 .. a-1), k x a;
/// second = dy/d(variables a .. a+b-1), k x b.
template <class S, class A1>
void split_jacobian(const Vec<A1>& y, Eigen::Index a, Eigen::Index b, Vec<S>& value,
                    Mat<S>& first, Mat<S>& second) {
  const Eigen::Index k = y.size();
  value.resize(k);
  first.resize(k, a);
  second.resize(k, b);
  for (Eigen::Index i = 0; i < k; ++i) {
    value[i] = y[i].value();
    for (Eigen::Index j = 0; j < a; ++j) first(i, j) = entry_or_zero(y[i].derivatives(), j);
    for (Eigen::Index j = 0; j < b; ++j) second(i, j) = entry_or_zero(y[i].derivatives(), a + j);
  }
}

/// g and Gamma(qdot, qdot) at (q, qdot) from the Hessian of T evaluated in
/// the second-order type A2 (outer variables (q, qdot), 2n; inner qdot, n).
/// kinetic_energy: (Vec<A2> q, Vec<A2> qdot) -> A2. q, qd: size n. A
/// fixed-size A2 needs outer size >= 2n and inner size >= n.
template <class S, class A2, class KineticEnergy>
Inertia<S> inertia(const KineticEnergy& kinetic_energy, const Vec<S>& q, const Vec<S>& qd) {
  using A1 = typename A2::Real;
  using OuterVec = typename A2::DerType;
  using InnerVec = typename A1::DerType;
  const Eigen::Index n = q.size();
  const Eigen::Index outer = slots<A2>(2 * n), inner = slots<A1>(n);
  const InnerVec inner_zero = InnerVec::Zero(inner);
  const OuterVec outer_zero = OuterVec::Constant(outer, A1(S(0), inner_zero));

  // Seeded in place (no temporaries of the large inline types).
  Vec<A2> Q(n), QD(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Q[i].value() = A1(q[i], inner_zero);
    Q[i].derivatives() = outer_zero;
    Q[i].derivatives()[i].value() = S(1);
    QD[i].value() = A1(qd[i], InnerVec::Unit(inner, i));
    QD[i].derivatives() = outer_zero;
    QD[i].derivatives()[n + i].value() = S(1);
  }
  const A2 T = kinetic_energy(Q, QD);
  const OuterVec& dT = T.derivatives();  // dT/dx_j, with inner d/dqdot_k

  Inertia<S> out;
  out.g.resize(n, n);
  out.gamma.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    for (Eigen::Index l = 0; l < n; ++l)
      out.g(k, l) = entry_or_zero2(dT, n + l, k);  // d^2T/dqdot_l dqdot_k
    S mixed = S(0);
    for (Eigen::Index j = 0; j < n; ++j)
      mixed += entry_or_zero2(dT, j, k) * qd[j];  // (d^2T/dq_j dqdot_k) qdot^j
    const S dT_dq = dT.size() == 0 ? S(0) : dT[k].value();
    out.gamma[k] = mixed - dT_dq;
  }
  return out;
}

/// T evaluated in the second-order type A2 at a seed (KineticEnergySeed).
/// kinetic_energy: (Vec<A2> q, Vec<A2> qdot) -> A2. The derivative vectors
/// have 2n outer and n inner slots (parameters are sized for those); the
/// seed's unused slots are zero.
template <class S, class A2, class KineticEnergy>
KineticEnergyJet<S> kinetic_energy_jet(const KineticEnergy& kinetic_energy,
                                       const KineticEnergySeed<S>& seed) {
  using A1 = typename A2::Real;
  using OuterVec = typename A2::DerType;
  using InnerVec = typename A1::DerType;
  const Eigen::Index n = seed.q.size(), K = seed.outer, J = seed.inner;
  const Eigen::Index outer = slots<A2>(2 * n), inner = slots<A1>(n);
  const InnerVec inner_zero = InnerVec::Zero(inner);
  const OuterVec outer_zero = OuterVec::Constant(outer, A1(S(0), inner_zero));
  Vec<A2> Q(n), QD(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Q[i].value() = A1(seed.q[i], inner_zero);
    QD[i].value() = A1(seed.qd[i], inner_zero);
    Q[i].derivatives() = outer_zero;
    QD[i].derivatives() = outer_zero;
    for (Eigen::Index j = 0; j < J; ++j) {
      Q[i].value().derivatives()[j] = seed.q_inner(i, j);
      QD[i].value().derivatives()[j] = seed.qd_inner(i, j);
    }
    for (Eigen::Index k = 0; k < K; ++k) {
      Q[i].derivatives()[k].value() = seed.q_outer(i, k);
      QD[i].derivatives()[k].value() = seed.qd_outer(i, k);
      if (!seed.qd_outer_inner.empty())
        for (Eigen::Index j = 0; j < J; ++j)
          QD[i].derivatives()[k].derivatives()[j] =
              seed.qd_outer_inner[static_cast<std::size_t>(i)](k, j);
    }
  }
  const A2 T = kinetic_energy(Q, QD);
  KineticEnergyJet<S> out;
  out.T = T.value().value();
  out.T_inner.resize(J);
  for (Eigen::Index j = 0; j < J; ++j) out.T_inner[j] = entry_or_zero(T.value().derivatives(), j);
  out.T_outer.resize(K);
  out.T_outer_inner.resize(K, J);
  const OuterVec& d = T.derivatives();
  for (Eigen::Index k = 0; k < K; ++k) {
    out.T_outer[k] = d.size() == 0 ? S(0) : d[k].value();
    for (Eigen::Index j = 0; j < J; ++j) out.T_outer_inner(k, j) = entry_or_zero2(d, k, j);
  }
  return out;
}

/// -dV/dq at q from V evaluated in the first-order type A1 (n variables).
/// potential: Vec<A1> q -> A1. q: size n.
template <class S, class A1, class Potential>
Vec<S> minus_potential_gradient(const Potential& potential, const Vec<S>& q) {
  const Eigen::Index n = q.size();
  const A1 V = potential(seed<A1>(q, 0, n));
  Vec<S> A(n);
  for (Eigen::Index i = 0; i < n; ++i) A[i] = -entry_or_zero(V.derivatives(), i);
  return A;
}

/// C, dC/dqdot and dC/dq at (q, qdot) from C evaluated in the first-order
/// type A1 (variables (q, qdot), 2n). constraints: (Vec<A1> q, Vec<A1>
/// qdot, Vec<A1>& C sized r) -> void. q, qd: size n.
template <class S, class A1, class Constraints>
ConstraintJacobians<S> constraint_jacobians(const Constraints& constraints, Eigen::Index r,
                                            const Vec<S>& q, const Vec<S>& qd) {
  const Eigen::Index n = q.size();
  Vec<A1> C(r);
  constraints(seed<A1>(q, 0, 2 * n), seed<A1>(qd, n, 2 * n), C);
  ConstraintJacobians<S> out;
  split_jacobian(C, n, n, out.C, out.C_q, out.C_qdot);
  return out;
}

/// psi, dpsi/dz and dpsi/dq at (q, z) from psi evaluated in the first-order
/// type A1 (variables (q, z), n + m). parametrization: (Vec<A1> q, Vec<A1>
/// z, Vec<A1>& qdot sized n) -> void. q: size n, z: size m.
template <class S, class A1, class Parametrization>
ParametrizationJacobians<S> parametrization_jacobians(const Parametrization& parametrization,
                                                      const Vec<S>& q, const Vec<S>& z) {
  const Eigen::Index n = q.size(), m = z.size();
  Vec<A1> psi(n);
  parametrization(seed<A1>(q, 0, n + m), seed<A1>(z, n, n + m), psi);
  ParametrizationJacobians<S> out;
  split_jacobian(psi, n, m, out.psi, out.psi_q, out.psi_z);
  return out;
}

}  // namespace ad
}  // namespace nhs
