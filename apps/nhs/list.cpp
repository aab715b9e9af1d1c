// `nhs list`: the studies, formulations and precisions, one line each.
#include "cli.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace nhs::cli {

int list_command() {
  // Metadata does not depend on the scalar; read it in the first one.
  using S0 = std::tuple_element_t<0, ScalarTypes>;
  std::size_t source_width = 0;
  for (const Study<S0>& st : studies<S0>()) source_width = std::max(source_width, st.info.source.size());
  fmt::print("studies:\n");
  for (const Study<S0>& st : studies<S0>()) {
    const SystemInfo& i = st.info;
    fmt::print("  {:<18} n={} r={} m={}  {:<{}}  {}\n", i.name, i.coordinates.size(),
               i.constraint_names.size(), i.quasi_velocities.size(), i.source, source_width,
               i.title);
    fmt::print("  {:<18} q = ({}){}\n", "", join(i.coordinates),
               i.quasi_velocities.empty() ? std::string()
                                          : ", z = (" + join(i.quasi_velocities) + ")");
  }
  fmt::print("formulations:\n");
  for (const auto& f : formulations<S0>()) fmt::print("  {:<18} {}\n", f->name(), f->summary());
  fmt::print("precisions:\n");
#define NHS_CLI_LIST_SCALAR_(T, NAME)                                                        \
  fmt::print("  {:<18} {} significant decimal digits\n", NAME,                              \
             std::numeric_limits<T>::digits10);
  NHS_FOR_EACH_SCALAR(NHS_CLI_LIST_SCALAR_)
#undef NHS_CLI_LIST_SCALAR_
  return 0;
}

}  // namespace nhs::cli
