// Implementation of nhs/generated_formulation.hpp.
#include "nhs/generated_formulation.hpp"

#include "nhs/codegen/interpret.hpp"
#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"

#include <array>
#include <type_traits>
#include <vector>

namespace nhs::generated {
namespace {
constexpr int kStackOutputs = 64;
}  // namespace

template <class S>
GeneratedFormulation<S>::GeneratedFormulation(const GeneratedField<S>& field,
                                              const Formulation<S>& library)
    : GeneratedFormulation(field, field.evaluate, nullptr, library, FieldBackend::generated) {}

template <class S>
GeneratedFormulation<S>::GeneratedFormulation(const GeneratedField<S>& field,
                                              std::function<int(const S*, const S*, S*)> evaluate,
                                              std::shared_ptr<const void> keep_alive,
                                              const Formulation<S>& library, FieldBackend how)
    : field_(field),
      evaluate_(std::move(evaluate)),
      keep_alive_(std::move(keep_alive)),
      library_(library),
      how_(how) {
  if (how == FieldBackend::library)
    throw UsageError("a generated, traced or compiled field is not the library's formulation '" + library.name() + "'");
  if (library.name() != field.formulation)
    throw UsageError("generated field '" + std::string(field.study) + "/" + field.formulation +
                     "' is not the formulation '" + library.name() + "'");
}

template <class S>
std::string GeneratedFormulation<S>::name() const {
  switch (how_) {
    case FieldBackend::traced: return library_.name() + " (traced)";
    case FieldBackend::compiled: return library_.name() + " (compiled)";
    case FieldBackend::generated:
    case FieldBackend::library: break;  // refused by the constructor
  }
  return library_.name() + " (generated)";
}

template <class S>
std::string GeneratedFormulation<S>::summary() const {
  const char* how = how_ == FieldBackend::traced     ? "; evaluated by an interpreter over its trace for '"
                    : how_ == FieldBackend::compiled ? "; evaluated by its trace compiled at run time for '"
                                                        : "; evaluated by code generated for '";
  return library_.summary() + how + field_.study + "' (" + std::to_string(field_.operations) + " operations)";
}

template <class S>
bool GeneratedFormulation<S>::second_kind() const {
  return std::string(field_.formulation) == "second-kind";
}

template <class S>
std::string GeneratedFormulation<S>::not_applicable_reason(const System<S>& sys) const {
  const std::string why = library_.not_applicable_reason(sys);
  if (!why.empty()) return why;
  if (sys.info.name != field_.study)
    return "the generated code is for '" + std::string(field_.study) + "', not '" + sys.info.name + "'";
  if (sys.n != field_.n || sys.r != field_.r || sys.m != field_.m ||
      static_cast<int>(sys.parameters.size()) != field_.parameters)
    return "the generated code for '" + sys.info.name + "' has other sizes (n = " +
           std::to_string(field_.n) + ", r = " + std::to_string(field_.r) + ")";
  return {};
}

template <class S>
bool GeneratedFormulation<S>::evaluate(const System<S>& sys, const Vec<S>& x, S* out) const {
  if (x.size() != field_.inputs)
    throw UsageError("generated field '" + std::string(field_.study) + "/" + field_.formulation +
                     "': state of size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(field_.inputs));
  return evaluate_(sys.parameters.data(), x.data(), out) == 0;
}

template <class S>
Acceleration<S> GeneratedFormulation<S>::acceleration(const System<S>& sys, const Vec<S>& q,
                                                      const Vec<S>& qd) const {
  this->require_applicable(sys);
  const Vec<S> x = library_.to_state(sys, q, qd);  // the first kind checks its chart here
  Vec<S> out(field_.outputs);
  if (!evaluate(sys, x, out.data())) return library_.acceleration(sys, q, qd);
  const Eigen::Index n = sys.n, r = sys.r;
  if (!second_kind()) return {out.tail(n), std::nullopt, std::nullopt};
  Vec<S> lambda = out.tail(r);
  Vec<S> reaction = constraint_jacobians(sys, q, qd).C_qdot.transpose() * lambda;
  // + a non-ideal constraint's C, as the library's second kind (formulation.hpp).
  if (sys.nonideal_constraint_force) reaction += nonideal_constraint_force(sys, q, qd);
  return {out.head(n), std::move(lambda), std::move(reaction)};
}

template <class S>
std::optional<Vec<S>> GeneratedFormulation<S>::multipliers(const System<S>& sys, const Vec<S>& q,
                                                           const Vec<S>& qd) const {
  if (!second_kind()) return std::nullopt;
  this->require_applicable(sys);
  const Vec<S> x = library_.to_state(sys, q, qd);
  Vec<S> out(field_.outputs);
  if (!evaluate(sys, x, out.data())) return library_.acceleration(sys, q, qd).multipliers;
  return Vec<S>(out.tail(sys.r));
}

template <class S>
Vec<S> GeneratedFormulation<S>::to_state(const System<S>& sys, const Vec<S>& q,
                                         const Vec<S>& qd) const {
  return library_.to_state(sys, q, qd);
}

template <class S>
void GeneratedFormulation<S>::from_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q,
                                         Vec<S>& qd) const {
  library_.from_state(sys, x, q, qd);
}

template <class S>
Vec<S> GeneratedFormulation<S>::field(const System<S>& sys, const Vec<S>& x) const {
  // The outputs on the stack when they fit (every built-in study's do) in
  // the hardware types: the returned dx is then the only allocation. An
  // MPFR array would construct all kStackOutputs numbers on every call.
  std::conditional_t<has_inline_ad<S>, std::array<S, kStackOutputs>, std::array<S, 0>> stack;
  std::vector<S> heap;
  S* buffer = stack.data();
  if (field_.outputs > static_cast<int>(stack.size())) {
    heap.resize(static_cast<std::size_t>(field_.outputs));
    buffer = heap.data();
  }
  if (!evaluate(sys, x, buffer)) return library_.field(sys, x);
  const Eigen::Map<const Vec<S>> out(buffer, field_.outputs);
  const Eigen::Index n = sys.n, m = sys.m;
  Vec<S> dx(x.size());
  if (second_kind())
    dx << x.tail(n), out.head(n);  // x = (q, qdot): (qdot, qddot)
  else
    dx << out.head(n), out.segment(n, m);  // x = (q, z): (qdot = psi, zdot)
  return dx;
}

template <class S>
GeneratedFormulation<S> make_generated_formulation(const std::string& study,
                                                   const Formulation<S>& library) {
  if (const GeneratedField<S>* f = find_generated<S>(study, library.name()))
    return GeneratedFormulation<S>(*f, library);
  std::string known;
  for (const auto& f : generated_fields<S>())
    if (study == f.study) known += std::string(known.empty() ? "" : ", ") + f.formulation;
  throw UsageError("no generated code for formulation '" + library.name() + "' of study '" +
                   study + "'" + (known.empty() ? " (generated: none for this study)"
                                                : " (generated: " + known + ")"));
}

namespace {
// The strings a GeneratedField of a traced formulation points to.
struct TraceNames {
  std::string study, formulation;
  std::vector<std::string> guard_names;
  std::vector<const char*> guards;
  explicit TraceNames(const codegen::TracedFormulation& t) : study(t.system), formulation(t.formulation) {
    for (const auto& g : t.graph.guards()) guard_names.push_back(g.condition);
    for (const auto& g : guard_names) guards.push_back(g.c_str());
  }
  // The field of `t` with these names, evaluated by `evaluate` (nullptr
  // where GeneratedFormulation is given the evaluation separately).
  template <class S>
  GeneratedField<S> field(const codegen::TracedFormulation& t, Function<S> evaluate,
                          int operations) const {
    return {study.c_str(),  formulation.c_str(), t.n, t.r, t.m, t.parameters, t.inputs,
            static_cast<int>(t.outputs.size()), evaluate, guards.data(), static_cast<int>(guards.size()),
            operations};
  }
};

// What a traced formulation's GeneratedField refers to.
template <class S>
struct TracedHolder : TraceNames {
  codegen::Interpreter<S> interpreter;
  explicit TracedHolder(const codegen::TracedFormulation& t)
      : TraceNames(t), interpreter(t.graph, t.outputs, 2) {}
};

// What a compiled formulation's GeneratedField refers to: its strings and
// the loaded library (unloaded with the last copy of the formulation).
struct CompiledHolder : TraceNames {
  codegen::CompiledFunction compiled;
  explicit CompiledHolder(const codegen::TracedFormulation& t)
      : TraceNames(t), compiled(codegen::compile_function(t)) {}
};
}  // namespace

template <class S>
GeneratedFormulation<S> make_traced_formulation(const codegen::TracedFormulation& traced,
                                                const Formulation<S>& library) {
  auto holder = std::make_shared<const TracedHolder<S>>(traced);
  const TracedHolder<S>* h = holder.get();
  return GeneratedFormulation<S>(
      h->template field<S>(traced, nullptr, h->interpreter.operations()),
      [h](const S* p, const S* x, S* out) {
        const S* inputs[2] = {p, x};
        return h->interpreter.run(inputs, out);
      },
      holder, library);
}

template <class S>
  requires codegen::has_compiled_field<S>
GeneratedFormulation<S> make_compiled_formulation(const codegen::TracedFormulation& traced,
                                                  const Formulation<S>& library) {
  if (traced.formulation != library.name())  // before the compiler runs
    throw UsageError("traced field '" + traced.system + "/" + traced.formulation +
                     "' is not the formulation '" + library.name() + "'");
  auto holder = std::make_shared<const CompiledHolder>(traced);
  const codegen::CompiledEntry<S> entry = holder->compiled.entry<S>();
  return GeneratedFormulation<S>(holder->field<S>(traced, entry, holder->compiled.operations()), entry, holder,
                                 library, FieldBackend::compiled);
}

#define NHS_GENERATED_FORMULATION_(S, NAME) NHS_GENERATED_FORMULATION_INSTANTIATE(, S)
NHS_FOR_EACH_SCALAR(NHS_GENERATED_FORMULATION_)
#undef NHS_GENERATED_FORMULATION_
template GeneratedFormulation<double> make_compiled_formulation<double>(const codegen::TracedFormulation&,
                                                                        const Formulation<double>&);
template GeneratedFormulation<long double> make_compiled_formulation<long double>(
    const codegen::TracedFormulation&, const Formulation<long double>&);

}  // namespace nhs::generated
