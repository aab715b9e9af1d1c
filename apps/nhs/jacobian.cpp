// The Jacobian of a formulation's first-order field at a state
// (field_jacobian_at, cli.hpp): the traced field differentiated forward
// (nhs/codegen/differentiate.hpp) and run by the interpreter in S. `nhs
// accel --jacobian` prints it; Python's System.accel(jacobian=True) returns
// it.
#include "cli.hpp"

#include "nhs/codegen/differentiate.hpp"
#include "nhs/codegen/interpret.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/studies/traced.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <map>
#include <mutex>

namespace nhs::cli {
namespace {

// The differentiated trace of (study, formulation), made once per process:
// tracing and differentiating cost milliseconds, evaluating microseconds.
const codegen::TracedFormulation& differentiated(const std::string& study, const std::string& formulation) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, codegen::TracedFormulation> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(study, formulation);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const TracedStudy traced = find_traced_study(study);
  return cache
      .emplace(key, codegen::field_jacobian(codegen::trace_formulation(
                        traced.build, static_cast<int>(traced.info.parameters.size()), formulation)))
      .first->second;
}

// The eigenvalues of a real square matrix from its real Schur form
// T = U^T J U (quasi-triangular: 1 x 1 blocks for real eigenvalues, 2 x 2
// blocks [a b; c d] with b c < 0 for complex pairs (a + d)/2 +- i
// sqrt(-(a - d)^2/4 - b c) once standardized; Golub and Van Loan, "Matrix
// Computations", 4th ed., §7.4-7.5). In S throughout: no std::complex of a
// multiprecision type.
template <class S>
std::vector<std::pair<S, S>> eigenvalues_of(const Mat<S>& J) {
  using std::sqrt;
  const Eigen::RealSchur<Mat<S>> schur(J, /*computeU=*/false);
  if (schur.info() != Eigen::Success)
    throw NonFiniteValue("--jacobian: the QR iteration for the eigenvalues of the Jacobian did not converge");
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

}  // namespace

template <class S>
FieldJacobian<S> field_jacobian_at(const std::string& study, const std::string& formulation, const System<S>& sys,
                                   const Vec<S>& q, const Vec<S>& qdot) {
  const auto& traceable = codegen::traceable_formulations();
  if (std::find(traceable.begin(), traceable.end(), formulation) == traceable.end())
    throw UsageError("--jacobian: the Jacobian is that of the traced field of " + join(traceable) +
                     "; formulation '" + formulation + "' is not traced");
  FieldJacobian<S> out{formulation, {}, {}};
  std::vector<S> x(q.data(), q.data() + q.size());
  out.state = sys.info.coordinates;
  if (formulation == "second-kind") {
    x.insert(x.end(), qdot.data(), qdot.data() + qdot.size());
    for (const auto& c : sys.info.coordinates) out.state.push_back(c + "_dot");
  } else {
    if (!sys.chart)
      throw UsageError("--jacobian: formulation '" + formulation + "' takes the state (q, z), and system '" +
                       sys.info.name + "' has no chart z(q, qdot)");
    Vec<S> z(sys.m);
    sys.chart(q, qdot, z);
    x.insert(x.end(), z.data(), z.data() + z.size());
    out.state.insert(out.state.end(), sys.info.quasi_velocities.begin(), sys.info.quasi_velocities.end());
  }
  const codegen::TracedFormulation& t = differentiated(study, formulation);
  const auto N = static_cast<Eigen::Index>(x.size());
  if (t.inputs != N) throw UsageError("--jacobian: the traced field takes " + std::to_string(t.inputs) + " inputs, not " + std::to_string(N));
  const codegen::Interpreter<S> interpreter(t.graph, t.outputs, 2);
  std::vector<S> entries(t.outputs.size());
  const S* arrays[2] = {sys.parameters.data(), x.data()};
  if (const int g = interpreter.run(arrays, entries.data()); g != 0) {
    const std::string& condition = t.graph.guards()[static_cast<std::size_t>(g - 1)].condition;
    throw SingularState(condition, "--jacobian: " + condition + " " + state_context(q, qdot));
  }
  out.J.resize(N, N);
  for (Eigen::Index i = 0; i < N; ++i)
    for (Eigen::Index j = 0; j < N; ++j) out.J(i, j) = entries[static_cast<std::size_t>(i * N + j)];
  require_finite(out.J, "the Jacobian of " + formulation + "'s field", [&] { return state_context(q, qdot); });
  out.eigenvalues = eigenvalues_of(out.J);
  return out;
}

#define NHS_CLI_JACOBIAN_(S, NAME)                                                                          \
  template FieldJacobian<S> field_jacobian_at<S>(const std::string&, const std::string&, const System<S>&, \
                                                 const Vec<S>&, const Vec<S>&);
NHS_FOR_EACH_SCALAR(NHS_CLI_JACOBIAN_)
#undef NHS_CLI_JACOBIAN_

}  // namespace nhs::cli
