// What remains between the library's fixed-size AD and AD written for one
// system. The metric g and Gamma(qdot, qdot) of coaxial-discs (n = 5) from
// the Hessian of T, computed
//   library-dynamic  by nhs::inertia on the dynamic AD2 (nested Eigen
//                    AutoDiffScalar, heap derivative vectors; what MPFR and
//                    large systems use);
//   library-fixed    by nhs::inertia on the system's fixed-size binding
//                    (System::derivations, FixedAD2<double, 10, 5>; parameters as
//                    AD2 constants, T through std::function on Vec<AD2>);
//   prototype-fixed  by the same nested fixed-size AD with T inlined and the
//                    parameters plain doubles (this file only);
//   closed-form      the whole qddot by nhs/studies/closed_forms.hpp, for scale.
// The prototype is checked against nhs::inertia before timing.
//
//   ./build/bench/bench_fixed_ad --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "nhs/derivatives.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/closed_forms.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <iostream>

namespace {

constexpr int n = 5;
using Inner = Eigen::AutoDiffScalar<Eigen::Matrix<double, n, 1>>;
using Outer = Eigen::AutoDiffScalar<Eigen::Matrix<Inner, 2 * n, 1>>;

// T of coaxial-discs (docs/studies.md), q = (x, y, theta1, theta2, psi): the
// study's formula written once more here for the prototype.
template <class T>
T coaxial_T(const nhs::closed_form::CoaxialDiscsParameters<double>& p, const T* q, const T* qd) {
  using std::cos;
  using std::sin;
  return p.m * (qd[0] * qd[0] + qd[1] * qd[1]) + p.A / 2 * (qd[2] * qd[2] + qd[3] * qd[3]) +
         (p.m * p.a * p.a / 2 + p.B) * qd[4] * qd[4] +
         p.m * p.a * qd[4] * (qd[0] * cos(q[4]) + qd[1] * sin(q[4]));
}

struct FixedInertia {
  Eigen::Matrix<double, n, n> g;
  Eigen::Matrix<double, n, 1> gamma;
};

__attribute__((noinline)) FixedInertia fixed_inertia(
    const nhs::closed_form::CoaxialDiscsParameters<double>& p, const Eigen::Matrix<double, n, 1>& q,
    const Eigen::Matrix<double, n, 1>& qd) {
  Outer Q[n], QD[n];
  for (int i = 0; i < n; ++i) {
    Q[i].value() = Inner(q[i]);  // inner derivatives zero (fixed size: set by the constructor)
    Q[i].derivatives().setZero();
    Q[i].derivatives()[i] = Inner(1.0);
    QD[i].value() = Inner(qd[i], Eigen::Matrix<double, n, 1>::Unit(i));
    QD[i].derivatives().setZero();
    QD[i].derivatives()[n + i] = Inner(1.0);
  }
  const Outer T = coaxial_T(p, Q, QD);
  FixedInertia out;
  for (int k = 0; k < n; ++k) {
    for (int l = 0; l < n; ++l) out.g(k, l) = T.derivatives()[n + l].derivatives()[k];
    double mixed = 0;
    for (int j = 0; j < n; ++j) mixed += T.derivatives()[j].derivatives()[k] * qd[j];
    out.gamma[k] = mixed - T.derivatives()[k].value();
  }
  return out;
}

struct Setup {
  nhs::System<double> sys, dynamic;  // dynamic: the same bound to the dynamic AD types
  nhs::Vec<double> q, qd;
  nhs::closed_form::CoaxialDiscsParameters<double> p;
  Setup() {
    const auto& st = nhs::find_study<double>("coaxial-discs");
    std::vector<double> values = st.default_parameters();
    std::mt19937_64 rng(7);
    sys = st.build(values);
    dynamic = st.build(values, nhs::AdBinding::dynamic);
    const nhs::State<double> x = st.random_state(sys, rng);  // generic q, qdot
    q = x.q;
    qd = x.qdot;
    p = nhs::closed_form::CoaxialDiscsParameters<double>::from(values);
    const nhs::Inertia<double> ref = nhs::inertia(sys, q, qd);
    const FixedInertia fx = fixed_inertia(p, q, qd);
    const double dg = (ref.g - fx.g).cwiseAbs().maxCoeff(),
                 dgam = (ref.gamma - fx.gamma).cwiseAbs().maxCoeff();
    if (!(dg < 1e-13 && dgam < 1e-13)) {
      std::cerr << "bench_fixed_ad: fixed-size AD disagrees with nhs::inertia: " << dg << ", "
                << dgam << "\n";
      std::abort();
    }
  }
};

const Setup& setup() {
  static const Setup s;
  return s;
}

void library_dynamic(benchmark::State& state) {
  const Setup& s = setup();
  for (auto _ : state) benchmark::DoNotOptimize(nhs::inertia(s.dynamic, s.q, s.qd));
}
void library_fixed(benchmark::State& state) {
  const Setup& s = setup();
  if (s.sys.derivations.ad_type != "fixed") state.SkipWithError("coaxial-discs has no fixed-size binding");
  for (auto _ : state) benchmark::DoNotOptimize(nhs::inertia(s.sys, s.q, s.qd));
}
void prototype_fixed(benchmark::State& state) {
  const Setup& s = setup();
  const Eigen::Matrix<double, n, 1> q = s.q, qd = s.qd;
  for (auto _ : state) {
    FixedInertia out = fixed_inertia(s.p, q, qd);
    benchmark::DoNotOptimize(out);
  }
}
void closed_form(benchmark::State& state) {
  const Setup& s = setup();
  const Eigen::Matrix<double, n, 1> q = s.q, qd = s.qd;
  auto* rhs = &nhs::closed_form::coaxial_discs_rhs<double>;
  for (auto _ : state) {
    Eigen::Matrix<double, n, 1> out = rhs(s.p, q, qd);
    benchmark::DoNotOptimize(out);
  }
}

}  // namespace

BENCHMARK(library_dynamic)->Name("inertia/coaxial-discs/library-dynamic/double");
BENCHMARK(library_fixed)->Name("inertia/coaxial-discs/library-fixed/double");
BENCHMARK(prototype_fixed)->Name("inertia/coaxial-discs/prototype-fixed/double");
BENCHMARK(closed_form)->Name("qddot/coaxial-discs/closed-form/double");
BENCHMARK_MAIN();
