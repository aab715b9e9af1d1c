// Implementation of codegen/trace.hpp: the formulations' template code
// instantiated for Expr. guarded_ldlt.hpp comes first: its specializations
// of the regularity checks must precede their use.
#include "nhs/codegen/trace.hpp"

#include "nhs/codegen/guarded_ldlt.hpp"

#include <Eigen/Geometry>  // cross products of the bodies' kinematics (gibbs_appell.ipp)

#include "derivatives.ipp"
#include "first_kind.ipp"
#include "gibbs_appell.ipp"
#include "second_kind.ipp"

namespace nhs::codegen {

TracedFormulation trace_formulation(const TracedSystemBuilder& build, int parameters,
                                    const std::string& formulation) {
  bool known = false;
  for (const auto& f : traceable_formulations()) known = known || f == formulation;
  if (!known) throw UsageError("codegen: formulation '" + formulation + "' cannot be traced");
  TracedFormulation out;
  out.formulation = formulation;
  out.parameters = parameters;
  const Recording recording(out.graph);
  std::vector<Expr> p;
  for (int i = 0; i < parameters; ++i) p.push_back(Expr::input(0, i));
  const System<Expr> sys = build(p);
  out.system = sys.info.name;
  out.n = sys.n;
  out.r = sys.r;
  out.m = sys.m;
  const Eigen::Index n = sys.n;
  const auto inputs = [&](Eigen::Index offset, Eigen::Index size) {
    Vec<Expr> v(size);
    for (Eigen::Index i = 0; i < size; ++i) v[i] = Expr::input(1, static_cast<int>(offset + i));
    return v;
  };
  const auto append = [&](const Vec<Expr>& v) {
    for (Eigen::Index i = 0; i < v.size(); ++i) out.outputs.push_back(v[i].id());
  };
  if (formulation == "second-kind") {
    if (sys.info.semidefinite_metric)
      throw NotApplicable("codegen: system '" + sys.info.name +
                          "' has a semidefinite metric g, which the second kind inverts");
    out.inputs = 2 * sys.n;
    const SecondKindField<Expr> f = second_kind<Expr>(sys, inputs(0, n), inputs(n, n));
    append(f.qddot);
    append(f.multipliers);
  } else {
    if (!sys.has_parametrization())
      throw NotApplicable("codegen: system '" + sys.info.name + "' has no parametric representation psi");
    if (formulation == "gibbs-appell" && !sys.has_bodies())
      throw NotApplicable("codegen: system '" + sys.info.name + "' has no bodies (Appellian S)");
    out.inputs = sys.n + sys.m;
    const Vec<Expr> q = inputs(0, n), z = inputs(n, sys.m);
    const auto emit = [&](const auto& f) {
      append(f.qdot);
      append(f.zdot);
      append(f.qddot);
    };
    if (formulation == "first-kind")
      emit(first_kind<Expr>(sys, q, z));
    else
      emit(gibbs_appell<Expr>(sys, q, z));
  }
  return out;
}

}  // namespace nhs::codegen
