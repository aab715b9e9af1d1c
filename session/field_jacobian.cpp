// The Jacobian of a formulation's first-order field at a state
// (nhs/session/field_jacobian.hpp), instantiated for every scalar.
#include "nhs/session/field_jacobian.hpp"

#include "nhs/codegen/differentiate.hpp"
#include "nhs/codegen/interpret.hpp"
#include "nhs/eigenvalues.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace nhs {
namespace {

// The differentiated trace of a study's formulation (tracing and
// differentiating cost milliseconds, evaluating microseconds): `outputs`
// are the N x N Jacobian entries, row-major, then the field's N
// components; depends[i * N + j] is 0 where entry (i, j) is the constant 0
// of the graph (identically 0: jacobian_nodes). The graph reads
// t.parameters values from its first input array.
struct Differentiated {
  codegen::TracedFormulation t;
  std::vector<int> outputs;
  std::vector<char> depends;
};

// Made once per formulation and version of the study: a built-in study by
// its id (its description is compiled in), a system file by its contents
// as loaded (cached_system_file, which loads the file again when it
// changed: a new SystemFile, kept alive here with the entry), so that an
// edited file reloaded in the same process is differentiated again.
std::shared_ptr<const Differentiated> differentiated(const std::string& study, const std::string& formulation) {
  using Key = std::tuple<const SystemFile*, std::string, std::string>;
  struct Entry {
    std::shared_ptr<const SystemFile> file;  // keeps the key's file alive
    std::shared_ptr<const Differentiated> d;
  };
  static std::mutex mutex;
  static std::map<Key, Entry> cache;
  std::shared_ptr<const SystemFile> file;
  if (is_system_file_name(study)) file = cached_system_file(study);  // FileError, IoError
  const Key key{file.get(), file ? std::string() : study, formulation};
  const std::lock_guard lock(mutex);
  if (const auto it = cache.find(key); it != cache.end()) return it->second.d;
  codegen::TracedFormulation field = [&] {
    if (file) return trace_file_formulation(file, formulation);
    const TracedStudy traced = find_traced_study(study);
    return codegen::trace_formulation(traced.build, static_cast<int>(traced.info.parameters.size()), formulation);
  }();
  // The field's value f(x) (N components), node by node. The second kind's
  // x is (q, qdot) and its out (qddot, lambda), n + r (trace.hpp): f =
  // (qdot, qddot), qdot being the state's own input nodes. The first kind's
  // and Gibbs-Appell's out begins with their field (qdot = psi, zdot).
  std::vector<int> f;
  if (formulation == "second-kind") {
    for (int i = 0; i < field.n; ++i) f.push_back(field.graph.input(1, field.n + i));
    f.insert(f.end(), field.outputs.begin(), field.outputs.begin() + field.n);
  } else {
    f.assign(field.outputs.begin(), field.outputs.begin() + field.inputs);
  }
  auto d = std::make_shared<Differentiated>(Differentiated{codegen::field_jacobian(std::move(field)), {}, {}});
  for (const int id : d->t.outputs) {
    const codegen::Node& node = d->t.graph.node(id);
    d->depends.push_back(node.op == codegen::Op::Constant && node.num == 0 ? 0 : 1);
  }
  d->outputs = d->t.outputs;
  d->outputs.insert(d->outputs.end(), f.begin(), f.end());
  return cache.emplace(key, Entry{std::move(file), std::move(d)}).first->second.d;
}

void require_traceable(const std::string& formulation, const std::string& name) {
  const auto& traceable = codegen::traceable_formulations();
  if (std::find(traceable.begin(), traceable.end(), formulation) == traceable.end())
    throw UsageError(name + ": the Jacobian is that of the traced field of " + join(traceable) +
                     "; formulation '" + formulation + "' is not traced");
}

}  // namespace

template <class S>
FieldJacobian<S> field_jacobian_at_state(const std::string& study, const std::string& formulation,
                                         const System<S>& sys, const Vec<S>& x, const Context& context,
                                         const std::string& name) {
  require_traceable(formulation, name);
  FieldJacobian<S> out{formulation, sys.info.coordinates, {}, {}, {}, {}};
  if (formulation == "second-kind") {
    for (const auto& c : sys.info.coordinates) out.state.push_back(c + "_dot");
  } else {
    if (sys.m == 0 || sys.info.quasi_velocities.empty())
      throw UsageError(name + ": formulation '" + formulation + "' takes the state (q, z), and system '" +
                       sys.info.name + "' has no quasi-velocities z");
    out.state.insert(out.state.end(), sys.info.quasi_velocities.begin(), sys.info.quasi_velocities.end());
  }
  const std::shared_ptr<const Differentiated> held = differentiated(study, formulation);
  const Differentiated& d = *held;
  const auto N = static_cast<Eigen::Index>(out.state.size());
  if (d.t.inputs != N || x.size() != N)
    throw UsageError(name + ": the traced field takes " + std::to_string(d.t.inputs) + " inputs; the state has " +
                     std::to_string(x.size()) + " (" + std::to_string(N) + " names)");
  // The graph reads d.parameters values: a system with another number (made
  // from an earlier version of an edited file) is refused, never read past.
  if (sys.parameters.size() != static_cast<std::size_t>(d.t.parameters))
    throw UsageError(name + ": the traced field of '" + study + "' reads " + std::to_string(d.t.parameters) +
                     " parameters; the system has " + std::to_string(sys.parameters.size()) +
                     " (was the file edited since the system was made? load it again)");
  const codegen::Interpreter<S> interpreter(d.t.graph, d.outputs, 2);
  std::vector<S> values(d.outputs.size());
  const S* arrays[2] = {sys.parameters.data(), x.data()};
  if (const int g = interpreter.run(arrays, values.data()); g != 0) {
    const std::string& condition = d.t.graph.guards()[static_cast<std::size_t>(g - 1)].condition;
    throw SingularState(condition, name + ": " + condition + " " + context());
  }
  out.J.resize(N, N);
  out.f.resize(N);
  for (Eigen::Index i = 0; i < N; ++i) {
    for (Eigen::Index j = 0; j < N; ++j) out.J(i, j) = values[static_cast<std::size_t>(i * N + j)];
    out.f[i] = values[static_cast<std::size_t>(N * N + i)];
  }
  out.depends = d.depends;
  require_finite(out.J, "the Jacobian of " + formulation + "'s field", context);
  require_finite(out.f, formulation + "'s field", context);
  out.eigenvalues = eigenvalues_of(out.J);
  return out;
}

template <class S>
FieldJacobian<S> field_jacobian_at(const std::string& study, const std::string& formulation, const System<S>& sys,
                                   const Vec<S>& q, const Vec<S>& qdot, const std::string& name) {
  require_traceable(formulation, name);
  Vec<S> x(q.size() + (formulation == "second-kind" ? qdot.size() : sys.m));
  x.head(q.size()) = q;
  if (formulation == "second-kind") {
    x.tail(qdot.size()) = qdot;
  } else {
    if (!sys.chart)
      throw UsageError(name + ": formulation '" + formulation + "' takes the state (q, z), and system '" +
                       sys.info.name + "' has no chart z(q, qdot)");
    Vec<S> z(sys.m);
    sys.chart(q, qdot, z);
    x.tail(sys.m) = z;
  }
  return field_jacobian_at_state<S>(study, formulation, sys, x, [&] { return state_context(q, qdot); }, name);
}

#define NHS_SESSION_JACOBIAN_(S, NAME)                                                                          \
  template FieldJacobian<S> field_jacobian_at<S>(const std::string&, const std::string&, const System<S>&, \
                                                 const Vec<S>&, const Vec<S>&, const std::string&);        \
  template FieldJacobian<S> field_jacobian_at_state<S>(const std::string&, const std::string&,              \
                                                       const System<S>&, const Vec<S>&, const Context&,    \
                                                       const std::string&);
NHS_FOR_EACH_SCALAR(NHS_SESSION_JACOBIAN_)
#undef NHS_SESSION_JACOBIAN_

}  // namespace nhs
