// The system files that ship with nhs under a name of their own, like a
// built-in study's: `nhs stability whipple-bicycle ...` instead of the path
// of examples/bicycle/whipple-bicycle.toml. A bundled system is a system
// file in every respect (docs/system-files.md): it is loaded, checked,
// traced and cached as one, and its errors name its path. It is kept out of
// the C++ registry (list.hpp) because the registry's consumers (the
// generated code, `nhs verify`, the tests that iterate studies<S>()) would
// take hours on it; its own checks are in tests/CMakeLists.txt
// (docs/bicycle.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace nhs {

/// A system file shipped with nhs: its name (a built-in study's form: no
/// '/', no ".toml"), its path in the source tree (relative to the project
/// root) and a one-line title for `nhs list`.
struct BundledSystem {
  std::string name;
  std::string source_path;
  std::string title;
};

/// The bundled systems, in the order `nhs list` shows them.
const std::vector<BundledSystem>& bundled_systems();

/// The bundled system of this name, or nullptr.
const BundledSystem* find_bundled_system(const std::string& name);

/// The path to read for `name`: a bundled system's file, found (the first
/// that exists) next to the running program as installed
/// (<bin>/../share/nhs/systems/<file>), in the source tree nhs was built
/// from, then under the configured install prefix; any other name is
/// returned unchanged. Throws as bundled_file_among when a bundled
/// system's file is in none of them.
std::string system_file_path(const std::string& name);

/// The first of `places` that is a regular file, as a path. Throws
/// FileError (nhs/studies/system_file.hpp; a UsageError, exit 2, as a
/// system file given by path that cannot be read) at `name`, naming every
/// place looked at, when none is.
std::string bundled_file_among(const std::string& name, const std::vector<std::filesystem::path>& places);

}  // namespace nhs
