// The bundled system files (nhs/studies/bundled.hpp).
#include "nhs/studies/bundled.hpp"

#include "nhs/studies/system_file.hpp"

#include <filesystem>
#include <system_error>

#ifndef NHS_BUNDLED_SOURCE_DIR
#error "NHS_BUNDLED_SOURCE_DIR (the project root) is set by CMakeLists.txt"
#endif
#ifndef NHS_BUNDLED_INSTALL_DIR
#error "NHS_BUNDLED_INSTALL_DIR (<datadir>/nhs/systems) is set by CMakeLists.txt"
#endif

namespace nhs {

const std::vector<BundledSystem>& bundled_systems() {
  static const std::vector<BundledSystem> all = {
      {"whipple-bicycle", "examples/bicycle/whipple-bicycle.toml",
       "the Carvallo-Whipple bicycle of Meijaard et al. (2007) (docs/bicycle.md)"},
  };
  return all;
}

const BundledSystem* find_bundled_system(const std::string& name) {
  for (const BundledSystem& b : bundled_systems())
    if (b.name == name) return &b;
  return nullptr;
}

std::string bundled_file_among(const std::string& name, const std::vector<std::filesystem::path>& places) {
  std::error_code ec;
  std::string looked;
  for (const std::filesystem::path& p : places) {
    if (std::filesystem::is_regular_file(p, ec)) return p.string();
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  // An input that cannot be read (exit 2), as a system file given by path.
  throw FileError(name, "cannot read the bundled system file: there is none at " + looked +
                            " (reinstall nhs, or give the file's path)");
}

std::string system_file_path(const std::string& name) {
  const BundledSystem* b = find_bundled_system(name);
  if (!b) return name;
  namespace fs = std::filesystem;
  const fs::path file = fs::path(b->source_path).filename();
  std::vector<fs::path> places;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) places.push_back(exe.parent_path().parent_path() / "share" / "nhs" / "systems" / file);
  places.push_back(fs::path(NHS_BUNDLED_SOURCE_DIR) / b->source_path);
  places.push_back(fs::path(NHS_BUNDLED_INSTALL_DIR) / file);
  return bundled_file_among(name, places);
}

}  // namespace nhs
