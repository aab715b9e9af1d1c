// Implementation of codegen/compile.hpp.
#include "nhs/codegen/compile.hpp"
#include "nhs/fnv1a.hpp"

#include "nhs/codegen/emit.hpp"
#include "nhs/errors.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

extern char** environ;

namespace nhs::codegen {
namespace {

namespace fs = std::filesystem;

// A C++ identifier from `name`: letters and digits kept, the rest '_'.
std::string identifier(const std::string& name) {
  std::string id = "field_";
  for (const char c : name.substr(0, 80))
    id += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? c : '_';
  return id;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string machine() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.machine;
}

// The source without its key line (key_line), which names the hash of the rest.
std::string source_body(const Graph& graph, const std::vector<int>& outputs, const std::string& name) {
  const std::string fn = identifier(name);
  EmitStats stats;
  // Library functions of constants read their arguments through
  // nhs_runtime (compile.hpp's file comment).
  const std::string emitted = emit_function(graph, {fn, {"p", "x"}, outputs, "nhs_runtime"}, &stats);
  std::ostringstream s;
  s << "// The traced field '" << name << "', compiled at run time by nhs\n"
    << "// (nhs/codegen/compile.hpp): the function of nhs/codegen/emit.hpp, with\n"
    << "// extern \"C\" entry points in double and long double. Self-contained.\n"
    << "#include <cmath>\n#include <limits>\n\nnamespace {\n\n"
    << "// The larger of a and b (the guards' scale): a if either is NaN.\n"
    << "template <class S>\nS generated_max(const S& a, const S& b) {\n  return a < b ? b : a;\n}\n\n"
    << "// x through a volatile read: a value the compiler cannot fold, so that a\n"
    << "// library function of a constant runs in the C library, as the interpreter's.\n"
    << "template <class S>\nS nhs_runtime(const S& x) {\n  volatile S v = x;\n  return v;\n}\n\n"
    << emitted << "\n}  // namespace\n\n"
    << "extern \"C\" const int nhs_compiled_outputs = " << outputs.size() << ";\n"
    << "extern \"C\" const int nhs_compiled_operations = " << stats.operations << ";\n"
    << "extern \"C\" int nhs_compiled_double(const double* p, const double* x, double* out) noexcept {\n"
    << "  return " << fn << "<double>(p, x, out);\n}\n"
    << "extern \"C\" int nhs_compiled_long_double(const long double* p, const long double* x,\n"
    << "                                          long double* out) noexcept {\n"
    << "  return " << fn << "<long double>(p, x, out);\n}\n";
  return s.str();
}

std::string key_line(std::uint64_t key) {
  return "// The cache key of this source (its file name).\nextern \"C\" const unsigned long long "
         "nhs_compiled_key = 0x" + hex64(key) + "ULL;\n";
}

std::uint64_t cache_key(const std::string& body, const std::string& compiler) {
  Fnv1a h;
  h.add(body);
  h.add(compiler);
  for (const auto& f : field_compiler_flags()) h.add(f);
  h.add(machine());
  return h.h;
}

std::string quoted_command(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) {
    if (!cmd.empty()) cmd += ' ';
    cmd += a.find_first_of(" \t'\"\\$") == std::string::npos ? a : "'" + a + "'";
  }
  return cmd;
}

// The compiler's first error lines (those naming an error, else the first
// lines), joined on one line: at most 3, each at most 200 characters.
std::string first_lines(const fs::path& log) {
  std::ifstream in(log);
  std::vector<std::string> all, errors;
  for (std::string line; std::getline(in, line) && all.size() < 200;) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.size() > 200) line = line.substr(0, 197) + "...";
    all.push_back(line);
    if (line.find("error") != std::string::npos && errors.size() < 3) errors.push_back(line);
  }
  const std::vector<std::string>& pick = errors.empty() ? all : errors;
  std::string out;
  for (std::size_t k = 0; k < pick.size() && k < 3; ++k) out += (k ? " | " : "") + pick[k];
  return out;
}

void write_file(const fs::path& path, const std::string& text, const fs::path& dir) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::error_code ec;
    fs::remove(path, ec);
    throw UsageError("cannot write " + path.filename().string() + " to the cache of compiled fields " +
                     dir.string() + " (set XDG_CACHE_HOME to a writable directory)");
  }
}

std::atomic<unsigned> temporary_counter{0};

// A unique temporary name in the cache for `stem` (this process, a counter).
std::string temporary_suffix() {
  return ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(temporary_counter++);
}

// The side file of a cached shared object: <stem>.sum, its fingerprint.
fs::path sum_path(const fs::path& library) {
  return library.parent_path() / (library.stem().string() + ".sum");
}

// The fingerprint of a file's bytes, the text of its side file: "nhs
// compiled field: <size> bytes, FNV-1a <hash>\n"; empty when the file
// cannot be read.
std::string fingerprint(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return {};
  const std::string b = bytes.str();
  Fnv1a h;
  h.add(b);
  return "nhs compiled field: " + std::to_string(b.size()) + " bytes, FNV-1a " + hex64(h.h) + "\n";
}

// True when `library` is a complete cache entry: its side file (written
// after it, compile_into) holds its fingerprint. A truncated file (a disk
// error, an interrupted copy), one replaced by another, or one without its
// side file is not: dlopen of a truncated shared object crashes the
// process (SIGBUS) instead of failing.
bool valid_entry(const fs::path& library) {
  std::error_code ec;
  if (!fs::is_regular_file(library, ec)) return false;
  std::ifstream in(sum_path(library), std::ios::binary);
  if (!in) return false;
  std::ostringstream stored;
  stored << in.rdbuf();
  const std::string actual = fingerprint(library);
  return !actual.empty() && stored.str() == actual;
}

// Starts the compiler with the arguments `run` (run[0] names it), standard
// input from /dev/null, output and errors into `log`. Returns
// posix_spawnp's result (0, or an errno value), the child's id in pid.
int spawn_compiler(const std::string& compiler, const std::vector<std::string>& run, const fs::path& log,
                   pid_t& pid) {
  std::vector<char*> argv;
  for (const auto& a : run) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  const int rc = posix_spawnp(&pid, compiler.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

// Waits for the compiler (child pid) to end, its wait status into status.
// Returns "" or, when waiting failed, why.
std::string wait_for_compiler(pid_t pid, const std::string& compiler, int& status) {
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return std::string("waiting for the compiler '") + compiler + "': " + std::strerror(errno);
  }
  return {};
}

// Why a compiler that was waited for wrote no library: its exit status,
// the signal that killed it, or no shared object.
std::string compiler_failure(const std::string& compiler, int status) {
  return "the compiler '" + compiler + "' " +
         (WIFEXITED(status) ? (WEXITSTATUS(status) == 0 ? std::string("wrote no shared object")
                                                        : "exited with status " + std::to_string(WEXITSTATUS(status)))
          : WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                : std::string("ended abnormally"));
}

// Publishes the compiled so_tmp as `library` in two atomic steps: the
// complete shared object renamed into place, then its side file
// (valid_entry), written to sum_tmp and renamed after it; then removes the
// temporaries src_tmp and log_tmp. On failure removes every temporary and
// throws UsageError.
void publish(const fs::path& so_tmp, const fs::path& library, const fs::path& sum_tmp, const fs::path& src_tmp,
             const fs::path& log_tmp) {
  const fs::path dir = library.parent_path();
  std::error_code ec;
  const std::string print = fingerprint(so_tmp);
  const fs::path sum = sum_path(library);
  if (!print.empty()) {
    fs::rename(so_tmp, library, ec);
    if (!ec) {
      write_file(sum_tmp, print, dir);
      fs::rename(sum_tmp, sum, ec);
    }
  }
  if (print.empty() || ec) {
    const std::string why = print.empty() ? std::string("cannot read the compiled ") + so_tmp.string() : ec.message();
    fs::remove(so_tmp, ec);
    fs::remove(sum_tmp, ec);
    fs::remove(src_tmp, ec);
    fs::remove(log_tmp, ec);
    throw UsageError("cannot store the compiled field in the cache " + dir.string() + ": " + why);
  }
  fs::remove(src_tmp, ec);
  fs::remove(log_tmp, ec);
}

// Compiles `source` into `library` (renamed into place); UsageError on failure.
void compile_into(const std::string& source, const fs::path& library, const std::string& name) {
  const fs::path dir = library.parent_path();
  const std::string stem = library.stem().string();
  const std::string tmp = temporary_suffix();
  const fs::path src_tmp = dir / (stem + tmp + ".cpp"), so_tmp = dir / (stem + tmp + ".so"),
                 log_tmp = dir / (stem + tmp + ".log");
  const fs::path src_kept = dir / (stem + ".cpp"), log_kept = dir / (stem + ".log");
  write_file(src_tmp, source, dir);

  const std::string compiler = field_compiler();
  std::vector<std::string> args{compiler};
  for (const auto& f : field_compiler_flags()) args.push_back(f);
  const auto command = [&](const fs::path& out, const fs::path& src) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"-o", out.string(), src.string()});
    return a;
  };
  pid_t pid = 0;
  const int rc = spawn_compiler(compiler, command(so_tmp, src_tmp), log_tmp, pid);

  std::string failure;
  if (rc != 0) {
    failure = "cannot run the compiler '" + compiler + "' (" + std::strerror(rc) + ")";
  } else {
    int status = 0;
    failure = wait_for_compiler(pid, compiler, status);
    std::error_code ec;
    if (failure.empty() && WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::is_regular_file(so_tmp, ec)) {
      publish(so_tmp, library, dir / (stem + tmp + ".sum"), src_tmp, log_tmp);
      return;
    }
    if (failure.empty()) failure = compiler_failure(compiler, status);
  }
  // Keep the source and the log under stable names, for the command below.
  std::error_code ec;
  fs::remove(so_tmp, ec);
  fs::rename(src_tmp, src_kept, ec);
  if (ec) fs::remove(src_tmp, ec);
  std::string output;
  if (rc == 0) {
    fs::rename(log_tmp, log_kept, ec);
    const std::string lines = first_lines(ec ? log_tmp : log_kept);
    output = "; log " + (ec ? log_tmp : log_kept).string() + (lines.empty() ? " (empty)" : ": " + lines);
  } else {
    fs::remove(log_tmp, ec);
  }
  throw UsageError("cannot compile the traced field '" + name + "': " + failure + " (command: " +
                   quoted_command(command(library, src_kept)) + ")" + output +
                   "; set NHS_CXX to a C++ compiler, or run without --compiled (the interpreter)");
}

}  // namespace

const std::vector<std::string>& field_compiler_flags() {
  static const std::vector<std::string> flags = {"-O2", "-fPIC", "-shared", "-ffp-contract=off"};
  return flags;
}

std::string field_compiler() {
  for (const char* var : {"NHS_CXX", "CXX"})
    if (const char* v = std::getenv(var); v && *v) return v;
#ifdef NHS_BUILD_CXX
  if (::access(NHS_BUILD_CXX, X_OK) == 0) return NHS_BUILD_CXX;
#endif
  return "c++";
}

std::string compiled_cache_directory() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/')
    return (fs::path(x) / "nhs" / "compiled").string();
  if (const char* h = std::getenv("HOME"); h && h[0] == '/')
    return (fs::path(h) / ".cache" / "nhs" / "compiled").string();
  throw UsageError("no cache directory for compiled fields: set XDG_CACHE_HOME or HOME to an absolute path");
}

std::string compiled_source(const Graph& graph, const std::vector<int>& outputs, const std::string& name) {
  const std::string body = source_body(graph, outputs, name);
  return body + key_line(cache_key(body, field_compiler()));
}

CompiledFunction compile_function(const Graph& graph, const std::vector<int>& outputs, const std::string& name) {
  const std::string body = source_body(graph, outputs, name);
  const std::string compiler = field_compiler();
  const std::uint64_t key = cache_key(body, compiler);
  const fs::path dir = compiled_cache_directory();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw UsageError("cannot create the cache of compiled fields " + dir.string() + ": " + ec.message() +
                     " (set XDG_CACHE_HOME to a writable directory)");
  const fs::path library = dir / (identifier(name).substr(6, 48) + "-" + hex64(key) + ".so");

  CompiledFunction f;
  f.path_ = library.string();
  // A cache entry is loaded only when complete (valid_entry); otherwise it
  // is compiled again and replaced.
  f.from_cache_ = valid_entry(library);
  if (!f.from_cache_) compile_into(body + key_line(key), library, name);

  const auto fail = [&](const std::string& what) -> UsageError {
    return UsageError("cannot load the compiled field '" + name + "' from " + library.string() + ": " + what +
                      (f.from_cache_ ? " (a cached file: remove it to compile again)" : ""));
  };
  ::dlerror();
  void* h = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = ::dlerror();
    throw fail(e ? e : "dlopen failed");
  }
  f.handle_ = std::shared_ptr<const void>(h, [](const void* p) { ::dlclose(const_cast<void*>(p)); });
  const auto symbol = [&](const char* s) {
    ::dlerror();
    void* p = ::dlsym(h, s);
    if (!p) {
      const char* e = ::dlerror();
      throw fail(e ? e : std::string("no symbol ") + s);
    }
    return p;
  };
  const auto* stored_key = static_cast<const unsigned long long*>(symbol("nhs_compiled_key"));
  const auto* stored_outputs = static_cast<const int*>(symbol("nhs_compiled_outputs"));
  if (*stored_key != key || *stored_outputs != static_cast<int>(outputs.size()))
    throw fail("it was compiled from another source (key " + hex64(*stored_key) + ", expected " + hex64(key) + ")");
  f.operations_ = *static_cast<const int*>(symbol("nhs_compiled_operations"));
  f.double_ = reinterpret_cast<CompiledEntry<double>>(symbol("nhs_compiled_double"));
  f.long_double_ = reinterpret_cast<CompiledEntry<long double>>(symbol("nhs_compiled_long_double"));
  return f;
}

CompiledFunction compile_function(const TracedFormulation& traced) {
  return compile_function(traced.graph, traced.outputs, traced.system + "/" + traced.formulation);
}

}  // namespace nhs::codegen
