// The precisions' names (nhs/session/precision.hpp).
#include "nhs/session/precision.hpp"

namespace nhs {

std::vector<std::string> precision_names() {
  std::vector<std::string> names;
#define NHS_PRECISION_NAME_(T, NAME) names.emplace_back(NAME);
  NHS_FOR_EACH_SCALAR(NHS_PRECISION_NAME_)
#undef NHS_PRECISION_NAME_
  return names;
}

}  // namespace nhs
