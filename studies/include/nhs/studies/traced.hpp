// The built-in studies over the tracing scalar of code generation
// (nhs/codegen/trace.hpp): the descriptions that nhs_codegen turns into
// straight-line C++ (nhs/generated.hpp). Each builder is the study's own
// description, bound by describe<codegen::Expr, D>.
#pragma once

#include "nhs/codegen/trace.hpp"
#include "nhs/studies/list.hpp"

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

/// The TracedStudy of `name`, resolved as find_study resolves it (a
/// built-in study, n-trailer-<N>, or a system file: cached_system_file).
/// Throws what find_study throws (UsageError for an unknown name,
/// FileError or IoError for a file that cannot be used).
TracedStudy find_traced_study(const std::string& name);

/// The N-trailer's description over the tracing scalar for `info`
/// (n_trailer_info(N, name): the number of trailers is in info's
/// coordinates).
TracedStudy n_trailer_traced(const SystemInfo& info);

/// The TracedStudy of the description D: its info() and describe() over
/// the tracing scalar.
template <class D>
TracedStudy traced_study_of() {
  return {D::info(),
          [](const std::vector<codegen::Expr>& p) { return describe<codegen::Expr, D>(p); }};
}

/// <id>_traced() for every study of NHS_FOR_EACH_STUDY (studies/<id>.cpp).
#define NHS_DECLARE_TRACED_(ID) TracedStudy ID##_traced();
NHS_FOR_EACH_STUDY(NHS_DECLARE_TRACED_)
#undef NHS_DECLARE_TRACED_

}  // namespace nhs
