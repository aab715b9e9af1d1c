// Runs a program as a child process (no shell), with stdout and stderr sent
// to files, for the tests of the `nhs` tool (test_cli, test_cli_fuzz).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace nhs::test {

/// The whole content of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// How a child process ended.
struct ProcessEnd {
  bool started = false;
  int code = -1;           ///< exit code; -1 when it did not exit normally
  int signal = 0;          ///< the signal that ended it, or 0
  bool timed_out = false;  ///< killed after `limit` seconds
};

/// Runs `exe args...` with stdout to `out` ("-": stdout closed) and stderr
/// to `err`; sends SIGINT after `sigint_after` seconds when positive, and
/// SIGKILL after `limit` seconds when positive. With a non-empty `cwd`, the
/// child runs in that folder (after `out` and `err` are opened), so that a
/// relative path among `args` cannot write into the caller's folder.
inline ProcessEnd run_process(const std::string& exe, const std::vector<std::string>& args,
                              const std::filesystem::path& out, const std::filesystem::path& err,
                              double sigint_after = 0, double limit = 0,
                              const std::filesystem::path& cwd = {}) {
  ProcessEnd end;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out == "-")
    posix_spawn_file_actions_addclose(&fa, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  std::vector<char*> argv{const_cast<char*>(exe.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return end;
  end.started = true;
  if (sigint_after > 0) {
    usleep(static_cast<useconds_t>(sigint_after * 1e6));
    kill(pid, SIGINT);
  }
  int status = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (limit > 0) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      end.timed_out = true;
      return end;
    }
    usleep(2000);
  }
  if (limit <= 0) waitpid(pid, &status, 0);
  if (WIFEXITED(status)) end.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  return end;
}

}  // namespace nhs::test
