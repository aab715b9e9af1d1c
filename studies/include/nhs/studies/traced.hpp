// The built-in studies over the tracing scalar of code generation
// (nhs/codegen/trace.hpp): the descriptions that nhs_codegen turns into
// straight-line C++ (nhs/generated.hpp). Each builder is the study's own
// description, bound by describe<codegen::Expr, D>.
#pragma once

#include "nhs/codegen/trace.hpp"

#include <string>
#include <vector>

namespace nhs {

/// A study's info (id, parameters: their count is the size of the
/// generated functions' p) and its system over Expr.
struct TracedStudy {
  SystemInfo info;
  codegen::TracedSystemBuilder build;
};

/// Every built-in study of `nhs list`, in its order; the N-trailer with
/// N = kNTrailerDefault (the generated code is for that N).
std::vector<TracedStudy> traced_studies();

TracedStudy skate_traced();                     ///< studies/skate.cpp
TracedStudy rolling_disc_traced();              ///< studies/rolling_disc.cpp
TracedStudy coaxial_discs_traced();             ///< studies/coaxial_discs.cpp
TracedStudy parallel_points_traced();           ///< studies/parallel_points.cpp
TracedStudy rolling_sphere_traced();            ///< studies/rolling_sphere.cpp
TracedStudy bipendulum_traced();                ///< studies/bipendulum.cpp
TracedStudy linear_bipendulum_traced();         ///< studies/linear_bipendulum.cpp
TracedStudy n_trailer_traced();                 ///< studies/n_trailer.cpp

}  // namespace nhs
