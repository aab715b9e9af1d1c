// File output and the echo of user text in messages (nhs/session/files.hpp).
#include "nhs/session/files.hpp"

#include "nhs/studies/bundled.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

namespace nhs {

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

}  // namespace nhs
