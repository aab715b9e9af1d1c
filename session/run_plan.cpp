// A run's plan (nhs/session/run_plan.hpp): the typed request checked and
// the problem built.
#include "nhs/session/run_plan.hpp"

#include "nhs/format.hpp"
#include "nhs/session/output_budget.hpp"
#include "nhs/redundant_constraints.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace nhs {

template <class S>
SpecialMotion<S> find_motion(const Study<S>& study, const std::string& name, const std::string& option) {
  const std::vector<SpecialMotion<S>> motions =
      study.special_motions ? study.special_motions() : std::vector<SpecialMotion<S>>{};
  std::vector<std::string> names;
  for (std::size_t k = 0; k < motions.size(); ++k) {
    if (motions[k].name == name || std::to_string(k + 1) == name) return motions[k];
    names.push_back(std::to_string(k + 1) + ": " + motions[k].name);
  }
  throw UsageError(option + ": '" + study.info.name + "' has no motion '" + name + "' (" +
                   (names.empty() ? std::string("it has no special motion") : "known: " + join(names, "; ")) + ")");
}

namespace {

/// UsageError "<name> must be positive, got '<x>'" unless x > 0 (or, with
/// `zero_allowed`, "non-negative" unless x >= 0).
template <class S>
void require_sign(const std::string& name, const S& x, bool zero_allowed = false) {
  if (zero_allowed ? x >= 0 : x > 0) return;
  throw UsageError(name + (zero_allowed ? " must be non-negative" : " must be positive") + ", got '" +
                   to_string<S>(x) + "'");
}

/// The end of the run as far as it is known without the study: the one
/// given, else 10 without a motion; empty with a motion (its own t_end).
template <class S>
std::optional<S> known_t_end(const RunSpec<S>& spec) {
  if (spec.t_end) return spec.t_end;
  if (spec.motion.empty()) return S(10);
  return std::nullopt;
}

}  // namespace

void refuse_state_with_motion(const std::string& motion, bool state_or_parameters_given, const RunNames& names,
                              const InputNames& state_names) {
  const InputNames& s = state_names;
  if (!motion.empty() && state_or_parameters_given)
    throw UsageError(names.motion + " sets the parameters and the initial state: give no " + s.params + ", " + s.q +
                     ", " + s.qdot + ", " + s.z + " or " + s.t + " with it");
}

template <class S>
void require_run_options(const RunSpec<S>& spec) {
  const RunNames& names = spec.names;
  const ProblemSpec<S>& p = spec.problem;
  refuse_state_with_motion(spec.motion, p.q || p.qdot || p.z || p.t || !p.parameters.empty(), names, p.names);
  const std::optional<S> t_end = known_t_end(spec);
  if (t_end) require_sign(names.t_end, *t_end);
  require_sign(names.dt_out, spec.dt_out);
  if (spec.rtol) require_sign(names.rtol, *spec.rtol);
  if (spec.atol) require_sign(names.atol, *spec.atol, true);
  if (spec.singular_margin) require_singular_margin(*spec.singular_margin, p.names.singular_margin);
  if (spec.max_rows && t_end)
    require_output_rows(*t_end, spec.dt_out, *spec.max_rows, names.t_end, names.dt_out, names.max_rows);
  if (spec.step) {
    require_sign(names.step, *spec.step);
    if (!is_discrete_stepper(spec.stepper))
      throw UsageError(names.step + " sets the fixed step of dla, nh-rattle and nh-midpoint; stepper " +
                       std::string(stepper_name(spec.stepper)) + " chooses its own steps (tolerances " +
                       names.rtol + ", " + names.atol + ")");
  }
}

template <class S>
RunPlan<S> plan_run(const RunSpec<S>& spec) {
  require_run_options(spec);
  ProblemSpec<S> problem = spec.problem;
  std::optional<SpecialMotion<S>> motion;
  IntegrationOptions<S> io;
  if (const std::optional<S> t_end = known_t_end(spec)) io.t_end = *t_end;
  if (!spec.motion.empty()) {
    const Study<S>& st = find_study<S>(problem.system);
    motion = find_motion(st, spec.motion, spec.names.motion);
    for (std::size_t i = 0; i < st.info.parameters.size(); ++i)
      problem.parameters.emplace_back(st.info.parameters[i].name, motion->parameters[i]);
    problem.q = motion->initial.q;
    problem.qdot = motion->initial.qdot;
    if (!spec.t_end) {
      io.t_end = motion->t_end;
      require_sign(spec.names.t_end, io.t_end);
      if (spec.max_rows)
        require_output_rows(io.t_end, spec.dt_out, *spec.max_rows, spec.names.t_end, spec.names.dt_out,
                            spec.names.max_rows);
    }
  }
  io.dt_out = spec.dt_out;
  if (spec.rtol) io.rtol = *spec.rtol;
  io.atol = spec.atol ? *spec.atol : io.rtol;
  io.singular_margin = spec.singular_margin ? *spec.singular_margin : S(1) / S(1000000);
  io.project = spec.project;
  if (spec.max_rhs_calls) io.max_rhs_calls = *spec.max_rhs_calls;
  if (spec.max_rows) io.max_samples = std::min(io.max_samples, *spec.max_rows);  // the library's limit stays
  io.stepper = spec.stepper;
  if (spec.step) io.step = *spec.step;
  RunPlan<S> plan{.problem = make_problem<S>(problem), .options = std::move(io), .motion = motion, .wall = WallBudget()};
  if (motion) {
    const std::string& f = plan.problem.formulation->name();
    for (const auto& [excluded, why] : motion->excluded)
      if (f.rfind(excluded, 0) == 0)  // "voronec" also covers "voronec (generated)"
        throw UsageError(spec.names.motion + ": " + excluded + " cannot follow '" + motion->name + "': " + why);
  }
  const Problem<S>& s = plan.problem;
  require_formulation_margins(s.sys, *s.formulation, s.q, s.qdot, plan.options.singular_margin);
  // Refused before anything is written (tolerance, grid).
  validated_stepper(plan.options, s.formulation->round_off_grows_with_speed());
  if (spec.max_wall_time)  // the clock starts with the run
    plan.wall = WallBudget(*spec.max_wall_time, spec.names.max_wall_time);
  return plan;
}

#define NHS_RUN_PLAN_INSTANTIATE_(S, NAME)                                                        \
  template SpecialMotion<S> find_motion<S>(const Study<S>&, const std::string&, const std::string&); \
  template void require_run_options<S>(const RunSpec<S>&);                                        \
  template RunPlan<S> plan_run<S>(const RunSpec<S>&);
NHS_FOR_EACH_SCALAR(NHS_RUN_PLAN_INSTANTIATE_)
#undef NHS_RUN_PLAN_INSTANTIATE_

}  // namespace nhs
