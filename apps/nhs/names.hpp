// The tool's names of its inputs, in one place: the options that the
// typed layer's messages name (session/ has no names of its own: InputNames,
// RunNames, SteadyNames). The Python module quotes them too (header only,
// python/src/requests.cpp), so that its messages equal the tool's for the
// same request (docs/python.md); its own argument errors name its arguments.
#pragma once

#include "nhs/session/problem.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/session/steady_linearization.hpp"

#include <string>

namespace nhs::cli {

/// The options of a problem (accel, run, a sweep's case); `t` is the
/// option of the state's time: --t (accel, a sweep) or --t0 (run).
inline InputNames cli_input_names(const std::string& t = "--t") {
  return InputNames{.q = "--q", .qdot = "--qdot", .z = "--z", .manifold_tol = "--manifold-tol", .params = "--param",
                    .t = t, .library = "--library", .generated = "--generated", .compiled = "--compiled",
                    .jacobian = "--jacobian", .singular_margin = "--singular-margin"};
}

/// The options of a run (`nhs run`, a sweep's case).
inline RunNames cli_run_names() {
  return RunNames{.t_end = "--t-end", .dt_out = "--dt-out", .rtol = "--rtol", .atol = "--atol", .step = "--step",
                  .motion = "--motion", .max_rows = "--max-rows", .max_wall_time = "--max-wall-time"};
}

/// The options of `nhs linearize` and `nhs stability`.
inline SteadyNames cli_steady_names() {
  return SteadyNames{.steady = "--steady", .formulation = "--formulation", .at = "--at", .vary = "--vary",
                     .from = "--from", .to = "--to", .points = "--points", .jacobian = "--jacobian"};
}

}  // namespace nhs::cli
