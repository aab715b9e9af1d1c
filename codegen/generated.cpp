// Lookup of the generated fields (nhs/generated.hpp); the table itself is
// in the generated source.
#include "nhs/generated.hpp"

namespace nhs::generated {

const GeneratedField* find_generated(std::string_view study, std::string_view formulation) {
  for (const auto& f : generated_fields())
    if (study == f.study && formulation == f.formulation) return &f;
  return nullptr;
}

}  // namespace nhs::generated
