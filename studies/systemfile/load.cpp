// The load of a system file (nhs/systemfile/system_file.hpp): its text read
// from a path (or a bundled system's name), or given (load_system_text),
// then the Loader's load.
#include "loader.hpp"

#include "nhs/studies/bundled.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace nhs {
namespace {

// The text of the system file at `path`. An input that cannot be read is a
// usage error (exit 2), as a malformed file is; IoError (exit 5) is for
// output that cannot be written.
std::string system_file_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw FileError(path, "cannot read the system file: it is a directory, not a TOML file");
  const auto unreadable = [&path] {
    const int error = errno;
    throw FileError(path, std::string("cannot read the system file: ") +
                              (error ? std::strerror(error) : "the stream failed"));
  };
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) unreadable();
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) unreadable();
  return buffer.str();
}

}  // namespace

std::string energy_not_conserved_reason(const SystemFile& file) {
  std::vector<std::string> reasons;
  const bool clocked = file.info.clock_coordinate >= 0;
  if (clocked) reasons.push_back("the system depends on the time t (rheonomic)");
  if (file.forces) reasons.push_back("non-conservative forces do work");
  if (file.nonideal) reasons.push_back("the non-ideal constraint force [nonideal] does work");
  std::vector<std::string> names;
  // The clock's constraint (the last one) is the time dependence's, said above.
  const std::size_t r = file.constraint_homogeneous.size() - (clocked ? 1 : 0);
  for (std::size_t a = 0; a < r; ++a)
    if (!file.constraint_homogeneous[a]) names.push_back(file.info.constraint_names[a]);
  if (names.size() == 1)
    reasons.push_back("constraint " + names[0] + " is not homogeneous in the velocities: its reaction does work");
  else if (names.size() > 1)
    reasons.push_back("constraints " + systemfile::join(names) +
                      " are not homogeneous in the velocities: their reactions do work");
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

bool is_system_file_name(const std::string& name) {
  return find_bundled_system(name) != nullptr || name.find('/') != std::string::npos ||
         (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0);
}

std::shared_ptr<const SystemFile> load_system_file(const std::string& path) {
  const std::string file = system_file_path(path);
  return systemfile::Loader(file).load(system_file_text(file));
}

std::shared_ptr<const SystemFile> load_system_text(const std::string& text, const std::string& name) {
  return systemfile::Loader(name).load(text);
}

}  // namespace nhs
