// The list of traced studies (nhs/studies/traced.hpp).
#include "nhs/studies/traced.hpp"

#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"

namespace nhs {

std::vector<TracedStudy> traced_studies() {
#define NHS_TRACED_ENTRY_(ID) ID##_traced(),
  return {NHS_FOR_EACH_STUDY(NHS_TRACED_ENTRY_)};
#undef NHS_TRACED_ENTRY_
}

TracedStudy find_traced_study(const std::string& name) {
  const SystemInfo info = find_study<double>(name).info;  // UsageError, FileError, IoError
  if (is_system_file_name(name)) {
    std::shared_ptr<const SystemFile> file = cached_system_file(name);
    return {info, [file](const std::vector<codegen::Expr>& p) { return traced_file_system(file, p); }};
  }
  for (TracedStudy& t : traced_studies())
    if (t.info.name == info.name) return std::move(t);
  return n_trailer_traced(info);  // n-trailer-<N>: find_study accepted the name
}

}  // namespace nhs
