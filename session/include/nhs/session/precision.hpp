// The precisions of the `nhs` tool: the CLI names of the scalar types and
// the dispatch of a command template over the scalar S named by --precision
// (driven by NHS_FOR_EACH_SCALAR, so that the list of types stays in
// nhs/scalar.hpp).
#pragma once

#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/scalar.hpp"

#include <string>
#include <vector>

namespace nhs {

/// The CLI names of the scalar types, in the order of NHS_FOR_EACH_SCALAR.
std::vector<std::string> precision_names();

/// Calls f.template operator()<S>() for the scalar type S named `precision`
/// (e.g. with a lambda `[&]<class S>() { ... }`); UsageError for an unknown
/// name, listing the known ones.
template <class F>
int with_scalar(const std::string& precision, F&& f) {
#define NHS_CLI_DISPATCH_(T, NAME) \
  if (precision == NAME) return f.template operator()<T>();
  NHS_FOR_EACH_SCALAR(NHS_CLI_DISPATCH_)
#undef NHS_CLI_DISPATCH_
  throw UsageError("unknown precision '" + precision + "' (known: " + join(precision_names()) +
                   ")");
}

}  // namespace nhs
