// The list of traced studies (nhs/studies/traced.hpp).
#include "nhs/studies/traced.hpp"

namespace nhs {

std::vector<TracedStudy> traced_studies() {
#define NHS_TRACED_ENTRY_(ID) ID##_traced(),
  return {NHS_FOR_EACH_STUDY(NHS_TRACED_ENTRY_)};
#undef NHS_TRACED_ENTRY_
}

}  // namespace nhs
