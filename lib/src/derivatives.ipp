// Implementation of derivatives.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"

namespace nhs {
namespace {

// Entry i of an AD derivative vector; Eigen leaves the vector empty for a
// quantity that is constant in every variable.
template <class V>
typename V::Scalar entry_or_zero(const V& d, Eigen::Index i) {
  using T = typename V::Scalar;
  return d.size() == 0 ? T(0) : d[i];
}
// Inner derivative k of outer entry i of a second-order AD derivative vector.
template <class V>
auto entry_or_zero_ad1(const V& d, Eigen::Index i, Eigen::Index k) {
  using S = typename V::Scalar::Real;
  if (d.size() == 0) return S(0);
  return entry_or_zero(d[i].derivatives(), k);
}

// AD1 variables seeded as the first k of `size` independent variables.
template <class S>
Vec<AD1<S>> seed_ad1(const Vec<S>& x, Eigen::Index offset, Eigen::Index size) {
  Vec<AD1<S>> out(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i)
    out[i] = AD1<S>(x[i], Vec<S>::Unit(size, offset + i));
  return out;
}

// inertia() with T evaluated in the second-order AD type A2 (AD2<S> or
// InlineAD2<S>): outer variables x = (q, qdot), 2n; inner variables qdot, n.
template <class S, class A2>
Inertia<S> inertia_in(const std::function<A2(const Vec<A2>&, const Vec<A2>&)>& kinetic_energy,
                      const Vec<S>& q, const Vec<S>& qd) {
  using A1 = typename A2::Real;
  using OuterVec = typename A2::DerType;
  using InnerVec = typename A1::DerType;
  const Eigen::Index n = q.size();
  const InnerVec inner_zero = InnerVec::Zero(n);
  OuterVec outer_zero(2 * n);
  for (Eigen::Index j = 0; j < 2 * n; ++j) outer_zero[j] = A1(S(0), inner_zero);

  // Seeded in place (no temporaries of the large inline types).
  Vec<A2> Q(n), QD(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Q[i].value() = A1(q[i], inner_zero);
    Q[i].derivatives() = outer_zero;
    Q[i].derivatives()[i].value() = S(1);
    QD[i].value() = A1(qd[i], InnerVec::Unit(n, i));
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
      out.g(k, l) = entry_or_zero_ad1(dT, n + l, k);  // d^2T/dqdot_l dqdot_k
    S mixed = S(0);
    for (Eigen::Index j = 0; j < n; ++j)
      mixed += entry_or_zero_ad1(dT, j, k) * qd[j];  // (d^2T/dq_j dqdot_k) qdot^j
    const S dT_dq = dT.size() == 0 ? S(0) : dT[k].value();
    out.gamma[k] = mixed - dT_dq;
  }
  return out;
}

}  // namespace

template <class S>
Inertia<S> inertia(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  // The inline AD types when the system has them (no heap allocation per
  // AD operation: inertia ~3x faster in double), the dynamic ones otherwise.
  if constexpr (has_inline_ad<S>)
    if (sys.kinetic_energy_inline_ad2) return inertia_in<S>(sys.kinetic_energy_inline_ad2, q, qd);
  return inertia_in<S>(sys.kinetic_energy_ad2, q, qd);
}

template <class S>
Vec<S> active_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  const Eigen::Index n = sys.n;
  const AD1<S> V = sys.potential_ad1(seed_ad1<S>(q, 0, n));
  Vec<S> A(n);
  for (Eigen::Index i = 0; i < n; ++i) A[i] = -entry_or_zero(V.derivatives(), i);
  if (sys.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(n);
    sys.nonconservative_force(q, qd, F);
    A += F;
  }
  return A;
}

template <class S>
S energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  return sys.kinetic_energy(q, qd) + sys.potential(q);
}

template <class S>
ConstraintJacobians<S> constraint_jacobians(const System<S>& sys, const Vec<S>& q,
                                            const Vec<S>& qd) {
  const Eigen::Index n = sys.n, r = sys.r;
  Vec<AD1<S>> C(r);
  sys.constraints_ad1(seed_ad1<S>(q, 0, 2 * n), seed_ad1<S>(qd, n, 2 * n), C);
  ConstraintJacobians<S> out;
  out.C.resize(r);
  out.C_qdot.resize(r, n);
  out.C_q.resize(r, n);
  for (Eigen::Index a = 0; a < r; ++a) {
    out.C[a] = C[a].value();
    for (Eigen::Index i = 0; i < n; ++i) {
      out.C_q(a, i) = entry_or_zero(C[a].derivatives(), i);
      out.C_qdot(a, i) = entry_or_zero(C[a].derivatives(), n + i);
    }
  }
  return out;
}

template <class S>
Vec<S> constraint_residuals(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> C(sys.r);
  sys.constraints(q, qd, C);
  return C;
}

template <class S>
ParametrizationJacobians<S> parametrization_jacobians(const System<S>& sys, const Vec<S>& q,
                                                      const Vec<S>& z) {
  if (!sys.has_parametrization())
    throw NotApplicable("system '" + sys.info.name + "' has no parametric representation psi");
  const Eigen::Index n = sys.n, m = sys.m;
  Vec<AD1<S>> psi(n);
  sys.parametrization_ad1(seed_ad1<S>(q, 0, n + m), seed_ad1<S>(z, n, n + m), psi);
  ParametrizationJacobians<S> out;
  out.psi.resize(n);
  out.psi_z.resize(n, m);
  out.psi_q.resize(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    out.psi[i] = psi[i].value();
    for (Eigen::Index j = 0; j < n; ++j) out.psi_q(i, j) = entry_or_zero(psi[i].derivatives(), j);
    for (Eigen::Index a = 0; a < m; ++a)
      out.psi_z(i, a) = entry_or_zero(psi[i].derivatives(), n + a);
  }
  return out;
}

}  // namespace nhs
