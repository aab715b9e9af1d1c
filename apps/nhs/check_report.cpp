// `nhs check`'s report: runs scripts/check_report.py (installed as
// share/nhs/check_report.py) over the check's out-dir after summary.md and
// summary.json are written. Plotting is an extra: whatever happens to the
// script is at most one warning line, never an error or another exit code;
// only a report.log that cannot be written is an I/O error (exit 5).
#include "cli.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

extern char** environ;

namespace nhs::cli {

namespace {

namespace fs = std::filesystem;

/// The script: next to an installed nhs (<bindir>/<NHS_DATADIR_FROM_BINDIR>/
/// check_report.py), else in the source tree the tool was configured from.
/// Empty when neither exists.
fs::path check_report_script() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#ifdef NHS_DATADIR_FROM_BINDIR
  if (!ec) candidates.push_back(exe.parent_path() / NHS_DATADIR_FROM_BINDIR / "check_report.py");
#endif
#ifdef NHS_SOURCE_DIR
  candidates.push_back(fs::path(NHS_SOURCE_DIR) / "scripts" / "check_report.py");
#endif
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c;
  return {};
}

/// The interpreter: $NHS_PYTHON, else /usr/bin/python3, else "python3"
/// (looked up in PATH by posix_spawnp).
std::string python_interpreter() {
  if (const char* env = std::getenv("NHS_PYTHON"); env && *env) return env;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

/// The last non-empty line of a file, at most 200 characters ("" if none).
std::string last_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 200) last = last.substr(0, 197) + "...";
  return last;
}

void warn(const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "nhs: warning: %s\n", what.c_str());
}

}  // namespace

bool run_check_report(const std::string& dir) {
  const fs::path script = check_report_script();
  if (script.empty()) {
    warn("no report.md: check_report.py not found (neither installed in share/nhs nor in the "
         "source tree); the check's summary is complete");
    return false;
  }
  const std::string python = python_interpreter();
  const fs::path log = fs::path(dir) / "report.log";
  // The log is the check's own output: one that cannot be written is an
  // I/O error (exit 5), as summary.md's would be, not the script's failure.
  errno = 0;
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) throw_io_error("cannot write", log.string());
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, log_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  const std::string script_s = script.string();
  std::vector<char*> argv{const_cast<char*>(python.c_str()), const_cast<char*>(script_s.c_str()),
                          const_cast<char*>(dir.c_str()), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, python.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(log_fd);
  if (rc != 0) {
    warn("no report.md: cannot run " + python + " (" + std::strerror(rc) +
         "; install python3 or set NHS_PYTHON, or pass --no-report); the check's summary is "
         "complete");
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      warn(std::string("no report.md: waiting for check_report.py: ") + std::strerror(errno));
      return false;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  const std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                          : WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                                : std::string("ended abnormally");
  const std::string tail = last_line(log);
  warn("report not written: " + python + " " + script_s + " " + how + (tail.empty() ? "" : ": " + tail) +
       " (log " + log.string() + "); the check's summary is complete");
  return false;
}

}  // namespace nhs::cli
