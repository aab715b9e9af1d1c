// The helpers every command shares (declared in cli.hpp, options.hpp,
// precision.hpp and text.hpp): precision names, list and parameter parsing,
// writing to standard output. Part of the nhs_app library, which the tool
// (main.cpp) and the Python module (python/src/module.cpp) link.
#include "cli.hpp"
#include "clock.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
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

int report_error(const std::exception_ptr& e) noexcept {
  const auto fail = [](int code, const std::string& what) {
    std::fflush(stdout);
    std::fprintf(stderr, "nhs: error: %s\n", what.c_str());
    return code;
  };
  try {
    std::rethrow_exception(e);
  } catch (const UsageError& x) {
    return fail(2, x.what());
  } catch (const MalformedNumber& x) {
    return fail(2, x.what());
  } catch (const InvalidState& x) {  // includes SingularState
    return fail(3, x.what());
  } catch (const IntegrationFailure& x) {
    return fail(4, x.what());
  } catch (const NonFiniteValue& x) {
    return fail(4, x.what());
  } catch (const IoError& x) {
    return fail(5, x.what());
  } catch (const std::filesystem::filesystem_error& x) {
    return fail(5, x.what());
  } catch (const std::system_error& x) {  // fmt::print's failed write
    return fail(5, std::string("cannot write: ") + x.what());
  } catch (const Interrupted& x) {
    return fail(130, x.what());
  } catch (const std::exception& x) {
    return fail(1, x.what());
  } catch (...) {
    return fail(1, "unknown error");
  }
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return fmt::format("{} h {:02} min", static_cast<int>(s) / 3600, (static_cast<int>(s) % 3600) / 60);
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

double parse_seconds(const std::string& option, const std::string& text) {
  const double s = parse_number<double>(option, text);
  if (!(s > 0) || !std::isfinite(s))
    throw UsageError(option + ": expected a positive number of seconds, got '" + text + "'");
  return s;
}

}  // namespace nhs::cli
