// The helpers every command shares (declared in cli.hpp, options.hpp,
// precision.hpp and text.hpp): precision names, list and parameter parsing,
// writing to standard output. Part of the nhs_app library, which the tool
// (main.cpp) and the Python module (python/src/module.cpp) link.
#include "cli.hpp"
#include "clock.hpp"

#include "nhs/error_table.hpp"
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

namespace {

// The bytes of a UTF-8 sequence after its first: never where text is cut.
bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// s[0, n) and s[s.size() - m, s.size()) with "...[<k> bytes]..." between
// (k: the bytes left out), cut on UTF-8 boundaries; s itself when it is not
// longer than n + m.
std::string head_and_tail(const std::string& s, std::size_t n, std::size_t m) {
  if (s.size() <= n + m) return s;
  std::size_t a = n, b = s.size() - m;
  while (a > 0 && continuation(s[a])) --a;
  while (b < s.size() && continuation(s[b])) ++b;
  return s.substr(0, a) + "...[" + std::to_string(b - a) + " bytes]..." + s.substr(b);
}

}  // namespace

std::string echo_text(const std::string& text, std::size_t max_bytes) {
  constexpr std::size_t kRunHead = 200, kRunTail = 40;  // a run longer than 240 bytes is cut
  std::string out, run;  // run: the current run of non-blank characters
  const auto end_run = [&] {
    out += head_and_tail(run, kRunHead, kRunTail);
    run.clear();
  };
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ' ') {
      end_run();
      out += ' ';
    } else if (c == '\n') {
      run += "\\n";
    } else if (c == '\r') {
      run += "\\r";
    } else if (c == '\t') {
      run += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      run += fmt::format("\\x{:02x}", c);
    } else {
      run += ch;
    }
  }
  end_run();
  const std::size_t tail = max_bytes / 4, head = max_bytes - tail;
  return head_and_tail(out, head, tail);
}

void throw_io_error(const std::string& what, const std::string& path, int err) {
  throw IoError(what + " '" + echo_text(path) + "': " + (err ? std::strerror(err) : "write error"));
}

void write_text_file(const std::string& path, const std::string& text) {
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw_io_error("cannot write", path);
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !written) throw_io_error("cannot write", path, written ? errno : err);
}

void refuse_overwriting(const std::string& input, const std::string& output, const std::string& option) {
  std::error_code ec;
  if (std::filesystem::equivalent(system_file_path(input), output, ec) && !ec)
    throw UsageError(option + " '" + echo_text(output) + "' is the input file '" + echo_text(input) +
                     "': refusing to overwrite it (give another path)");
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

void request_field(StateOptions& o, FieldBackend b, const std::string& option) {
  if (o.field && *o.field != b)
    throw UsageError(option + " and --" + field_backend_name(*o.field) +
                     " exclude each other (one field backend: library, generated, traced or compiled)");
  o.field = b;
}

double parse_seconds(const std::string& option, const std::string& text) {
  const double s = parse_number<double>(option, text);
  if (!(s > 0) || !std::isfinite(s))
    throw UsageError(option + ": expected a positive number of seconds, got '" + text + "'");
  return s;
}

}  // namespace nhs::cli
