// The cross-check of formulations at one state (nhs/verification.hpp),
// instantiated per scalar (instantiate.cpp.in).
#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/norms.hpp"
#include "nhs/verification.hpp"

#include <algorithm>
#include <exception>
#include <limits>

namespace nhs {

template <class S>
std::size_t CrossCheck<S>::compared() const {
  return static_cast<std::size_t>(
      std::count_if(results.begin(), results.end(), [](const FormulationResult<S>& r) { return r.valid(); }));
}

template <class S>
bool CrossCheck<S>::singular() const {
  return std::any_of(results.begin(), results.end(), [](const FormulationResult<S>& r) { return r.singular; });
}

template <class S>
const FormulationResult<S>* CrossCheck<S>::find(const std::string& name) const {
  for (const FormulationResult<S>& r : results)
    if (r.name == name) return &r;
  return nullptr;
}

template <class S>
CrossCheck<S> cross_check_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot,
                                const std::vector<const Formulation<S>*>& formulations,
                                const CrossCheckOptions& options) {
  if (q.size() != sys.n || qdot.size() != sys.n)
    throw UsageError("cross_check_state: q and qdot must have size n = " + std::to_string(sys.n) + " (got " +
                     std::to_string(q.size()) + " and " + std::to_string(qdot.size()) + ")");
  CrossCheck<S> out;
  for (const Formulation<S>* f : formulations) {
    FormulationResult<S> r;
    r.formulation = f;
    r.name = f->name();
    r.negative_control = f->is_negative_control();
    if (const std::string why = f->not_applicable_reason(sys); !why.empty()) {
      r.skipped = "not applicable: " + why;
    } else if (r.negative_control && !options.include_negative_controls) {
      r.skipped = "negative control";
    } else {
      try {
        r.acceleration = f->acceleration(sys, q, qdot);
      } catch (const SingularState& e) {
        r.singular = true;
        r.error = e.what();
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    }
    out.results.push_back(std::move(r));
  }
  auto& rs = out.results;
  for (std::size_t i = 0; i < rs.size(); ++i)
    if (rs[i].valid()) {
      out.reference = i;
      break;
    }
  for (std::size_t i = 0; i < rs.size(); ++i) {
    if (!rs[i].evaluated()) continue;
    for (std::size_t j = 0; j < rs.size(); ++j) {
      if (i == j || !rs[j].valid()) continue;
      const S d = relative_difference<S>(rs[i].acceleration->qddot, rs[j].acceleration->qddot);
      // The first j where it is largest (a NaN figure is kept as found).
      if (!rs[i].disagreement || !(d <= *rs[i].disagreement)) rs[i].worst_with = rs[j].name;
      using std::max;
      rs[i].disagreement = rs[i].disagreement ? max(*rs[i].disagreement, d) : d;
      if (rs[i].valid() && j > i && (out.worst_first.empty() || !(d <= out.worst))) {
        out.worst = d;
        out.worst_first = rs[i].name;
        out.worst_second = rs[j].name;
      }
      if (out.reference && j == *out.reference) rs[i].versus_reference = d;
    }
  }
  return out;
}

template <class S>
CrossCheck<S> cross_check_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot,
                                const CrossCheckOptions& options) {
  std::vector<const Formulation<S>*> all;
  for (const auto& f : formulations<S>()) all.push_back(f.get());
  return cross_check_state(sys, q, qdot, all, options);
}

template <class S>
void compare_reactions(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot, CrossCheck<S>& check) {
  auto& rs = check.results;
  if (std::none_of(rs.begin(), rs.end(), [](const FormulationResult<S>& r) {
        return r.evaluated() && (r.acceleration->reaction || r.acceleration->multipliers);
      }))
    return;
  const Inertia<S> in = inertia(sys, q, qdot);
  const Mat<S> C_qdot = constraint_jacobians(sys, q, qdot).C_qdot;
  using std::max;
  const S force_scale = max(active_force(sys, q, qdot).cwiseAbs().maxCoeff(), in.gamma.cwiseAbs().maxCoeff());
  const auto raise = [](std::optional<S>& slot, const S& v) { slot = slot ? max(*slot, v) : v; };
  for (std::size_t i = 0; i < rs.size(); ++i)
    for (std::size_t j = 0; j < rs.size(); ++j) {
      if (i == j || !rs[i].evaluated() || !rs[j].valid()) continue;
      const Acceleration<S>& a = *rs[i].acceleration;
      const Acceleration<S>& b = *rs[j].acceleration;
      const S scale =
          max(max(force_scale, (in.g * a.qddot).cwiseAbs().maxCoeff()), std::numeric_limits<S>::min());
      if (a.reaction && b.reaction)
        raise(rs[i].reaction_disagreement, (*a.reaction - *b.reaction).cwiseAbs().maxCoeff() / scale);
      if (a.multipliers && b.multipliers)
        raise(rs[i].reaction_disagreement,
              (C_qdot.transpose() * (*a.multipliers - *b.multipliers)).cwiseAbs().maxCoeff() / scale);
    }
}

}  // namespace nhs
