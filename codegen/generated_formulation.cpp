// Implementation of nhs/generated_formulation.hpp.
#include "nhs/generated_formulation.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"

#include <array>
#include <vector>

namespace nhs::generated {
namespace {
constexpr int kStackOutputs = 64;
}  // namespace

GeneratedFormulation::GeneratedFormulation(const GeneratedField& field,
                                           const Formulation<double>& library)
    : field_(field), library_(library) {
  if (library.name() != field.formulation)
    throw UsageError("generated field '" + std::string(field.study) + "/" + field.formulation +
                     "' is not the formulation '" + library.name() + "'");
}

std::string GeneratedFormulation::name() const { return library_.name() + " (generated)"; }

std::string GeneratedFormulation::summary() const {
  return library_.summary() + "; evaluated by code generated for '" + field_.study + "' (" +
         std::to_string(field_.operations) + " operations, nhs/generated.hpp)";
}

bool GeneratedFormulation::second_kind() const { return std::string(field_.formulation) == "second-kind"; }

std::string GeneratedFormulation::not_applicable_reason(const System<double>& sys) const {
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

bool GeneratedFormulation::evaluate(const System<double>& sys, const Vec<double>& x,
                                    double* out) const {
  if (x.size() != field_.inputs)
    throw UsageError("generated field '" + std::string(field_.study) + "/" + field_.formulation +
                     "': state of size " + std::to_string(x.size()) + ", expected " +
                     std::to_string(field_.inputs));
  return field_.evaluate(sys.parameters.data(), x.data(), out) == 0;
}

Acceleration<double> GeneratedFormulation::acceleration(const System<double>& sys,
                                                        const Vec<double>& q,
                                                        const Vec<double>& qd) const {
  this->require_applicable(sys);
  const Vec<double> x = library_.to_state(sys, q, qd);  // the first kind checks its chart here
  Vec<double> out(field_.outputs);
  if (!evaluate(sys, x, out.data())) return library_.acceleration(sys, q, qd);
  const Eigen::Index n = sys.n, r = sys.r;
  if (!second_kind()) return {out.tail(n), std::nullopt, std::nullopt};
  Vec<double> lambda = out.tail(r);
  Vec<double> reaction = constraint_jacobians(sys, q, qd).C_qdot.transpose() * lambda;
  return {out.head(n), std::move(lambda), std::move(reaction)};
}

Vec<double> GeneratedFormulation::to_state(const System<double>& sys, const Vec<double>& q,
                                           const Vec<double>& qd) const {
  return library_.to_state(sys, q, qd);
}

void GeneratedFormulation::from_state(const System<double>& sys, const Vec<double>& x,
                                      Vec<double>& q, Vec<double>& qd) const {
  library_.from_state(sys, x, q, qd);
}

Vec<double> GeneratedFormulation::field(const System<double>& sys, const Vec<double>& x) const {
  // The outputs on the stack when they fit (every built-in study's do):
  // the returned dx is then the only allocation.
  std::array<double, kStackOutputs> stack;
  std::vector<double> heap;
  double* buffer = stack.data();
  if (field_.outputs > kStackOutputs) {
    heap.resize(static_cast<std::size_t>(field_.outputs));
    buffer = heap.data();
  }
  if (!evaluate(sys, x, buffer)) return library_.field(sys, x);
  const Eigen::Map<const Vec<double>> out(buffer, field_.outputs);
  const Eigen::Index n = sys.n, m = sys.m;
  Vec<double> dx(x.size());
  if (second_kind())
    dx << x.tail(n), out.head(n);  // x = (q, qdot): (qdot, qddot)
  else
    dx << out.head(n), out.segment(n, m);  // x = (q, z): (qdot = psi, zdot)
  return dx;
}

GeneratedFormulation make_generated_formulation(const std::string& study,
                                                const Formulation<double>& library) {
  if (const GeneratedField* f = find_generated(study, library.name()))
    return GeneratedFormulation(*f, library);
  std::string known;
  for (const auto& f : generated_fields())
    if (study == f.study) known += std::string(known.empty() ? "" : ", ") + f.formulation;
  throw UsageError("no generated code for formulation '" + library.name() + "' of study '" +
                   study + "'" + (known.empty() ? " (generated: none for this study)"
                                                : " (generated: " + known + ")"));
}

}  // namespace nhs::generated
