// The helpers every command shares (declared in cli.hpp, options.hpp,
// precision.hpp and text.hpp): precision names, list and parameter parsing,
// writing to standard output. Part of the nhs_app library, which the tool
// (main.cpp) and the Python module (python/src/module.cpp) link.
#include "cli.hpp"
#include "clock.hpp"

#include "nhs/session/error_table.hpp"
#include "nhs/studies/bundled.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <string>
#include <vector>

namespace nhs::cli {

void flush_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw IoError(std::string("cannot write to standard output: ") +
                  (errno ? std::strerror(errno) : "write error"));
}

int report_error(const std::exception_ptr& e) noexcept {
  const auto fail = [](int code, const std::string& what) {
    std::fflush(stdout);
    std::string line;
    try {
      line = echo_text(what);
    } catch (...) {  // out of memory: the message as it is
      line = what;
    }
    std::fprintf(stderr, "nhs: error: %s\n", line.c_str());
    return code;
  };
  const ClassifiedError c = classify_error(e);  // the one table (nhs/error_table.hpp)
  if (c.category == ErrorCategory::out_of_memory) {  // no allocation here
    std::fflush(stdout);
    std::fprintf(stderr, "nhs: error: out of memory (%s): the memory needed is beyond what this machine gives\n",
                 c.message.c_str());
    return error_class(c.category).exit_code;
  }
  return fail(error_class(c.category).exit_code, c.message);
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return fmt::format("{} h {:02} min", static_cast<int>(s) / 3600, (static_cast<int>(s) % 3600) / 60);
}

std::vector<std::pair<std::string, std::string>> parse_params(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param: expected name=value, got '" + item + "'");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

void request_field(std::optional<FieldBackend>& field, FieldBackend b, const std::string& option) {
  if (field && *field != b)
    throw UsageError(option + " and --" + field_backend_name(*field) +
                     " exclude each other (one field backend: library, generated, traced or compiled)");
  field = b;
}

}  // namespace nhs::cli
