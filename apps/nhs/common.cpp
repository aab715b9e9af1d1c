// The helpers every command shares (declared in cli.hpp, options.hpp,
// precision.hpp and text.hpp): precision names, list and parameter parsing,
// writing to standard output. Part of the nhs_app library, which the tool
// (main.cpp) and the Python module (python/src/module.cpp) link.
#include "cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace nhs::cli {

std::vector<std::string> precision_names() {
  std::vector<std::string> names;
#define NHS_CLI_NAME_(T, NAME) names.emplace_back(NAME);
  NHS_FOR_EACH_SCALAR(NHS_CLI_NAME_)
#undef NHS_CLI_NAME_
  return names;
}

void flush_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw IoError(std::string("cannot write to standard output: ") +
                  (errno ? std::strerror(errno) : "write error"));
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
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

std::uint64_t parse_count(const std::string& option, const std::string& text) {
  std::uint64_t v = 0;
  bool ok = !text.empty() && text.size() <= 19;
  for (char c : text) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    v = 10 * v + static_cast<std::uint64_t>(c - '0');
  }
  if (!ok || v == 0) throw UsageError(option + ": expected a positive integer, got '" + text + "'");
  return v;
}

}  // namespace nhs::cli
