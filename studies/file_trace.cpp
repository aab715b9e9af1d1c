// A system file's system over the tracing scalar, and its formulations
// traced into graphs (nhs/studies/system_file.hpp): the fast path of
// `nhs run FILE` and of the Python module's fields.
#include "file_description.hpp"

#include <map>
#include <mutex>

namespace nhs {

System<codegen::Expr> traced_file_system(std::shared_ptr<const SystemFile> file,
                                         const std::vector<codegen::Expr>& parameters) {
  return file_detail::file_system<codegen::Expr>(file, parameters);
}

codegen::TracedFormulation trace_file_formulation(const std::shared_ptr<const SystemFile>& file,
                                                  const std::string& formulation) {
  return codegen::trace_formulation(
      [file](const std::vector<codegen::Expr>& p) { return traced_file_system(file, p); },
      static_cast<int>(file->info.parameters.size()), formulation);
}

std::shared_ptr<const codegen::TracedFormulation> cached_trace_file_formulation(const std::string& path,
                                                                               const std::string& formulation) {
  // Keyed by the loaded file (cached_system_file: a new one when the file
  // changed) and the formulation.
  using Key = std::pair<const SystemFile*, std::string>;
  struct Entry {
    std::shared_ptr<const SystemFile> file;  // keeps the key's file alive
    std::shared_ptr<const codegen::TracedFormulation> traced;
  };
  static std::mutex mutex;
  static std::map<Key, Entry> cache;
  const std::shared_ptr<const SystemFile> file = cached_system_file(path);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find({file.get(), formulation}); it != cache.end()) return it->second.traced;
  }
  // Traced outside the lock (tens of ms for a large file); a thread that
  // traced the same pair meanwhile keeps the first one stored. Errors
  // (NotApplicable, TracingError) are not cached.
  auto traced = std::make_shared<const codegen::TracedFormulation>(trace_file_formulation(file, formulation));
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(Key{file.get(), formulation}, Entry{file, std::move(traced)}).first->second.traced;
}

}  // namespace nhs
