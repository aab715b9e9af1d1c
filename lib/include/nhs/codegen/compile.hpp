// A traced Graph (expr.hpp) compiled at run time by the system's C++
// compiler and loaded with dlopen: the function that emit.hpp writes for
// the build-time generated code (nhs_codegen), for systems known only at run
// time (system files, `nhs run FILE --compiled`). The interpreter
// (interpret.hpp) runs the same graph without a compiler; the compiled
// function gives the same bits, at the cost of the generated code, after a
// compile on first use (0.1-0.3 s for the studies' files with GCC 12;
// then cached on disk).
//
// The translation unit is self-contained (<cmath>, <limits> and nothing of
// nhs): the emitted template, its `generated_max`, and extern "C" entry
// points instantiating it for double and long double. It is compiled with
//   -O2 -fPIC -shared -ffp-contract=off
// -ffp-contract=off: every product is rounded before the sum it feeds, as
// the graph's nodes and the interpreter round it (no fused multiply-adds on
// FMA targets). Nothing else: no -ffast-math and no -fno-math-errno (they
// would let the compiler reassociate or drop the library's calls), no
// -march (other instructions). One more thing keeps the bits equal: a
// constant computed by a library function (cos(0.4) in a force, pi as
// 4 atan(1)) would be folded by GCC at compile time, correctly rounded,
// where the interpreter calls the C library, whose sinh or long double sinl
// may differ in the last bit; such calls get their argument through a
// volatile read, so that they run, once per process, in the C library.
#pragma once

#include "nhs/codegen/expr.hpp"
#include "nhs/codegen/trace.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace nhs::codegen {

/// The scalar types a compiled field exists for: the hardware types double
/// and long double (the multiprecision types gain nothing: the interpreter
/// costs there what the generated code costs, reports/README.md).
template <class S>
inline constexpr bool has_compiled_field = std::is_same_v<S, double> || std::is_same_v<S, long double>;

/// The entry point of a compiled field in S: the emitted function
/// `int f(const S* p, const S* x, S* out)` (emit.hpp): inputs array 0 (p)
/// and array 1 (x), the outputs written to out; returns 0, or g + 1 when
/// guard g of the graph failed (out then incomplete). No allocation, no
/// exception; thread-safe (its only state is its constants, initialized
/// once).
template <class S>
using CompiledEntry = int (*)(const S* p, const S* x, S* out) noexcept;

/// A loaded compiled field. Copies share the library, which is unloaded
/// (dlclose) when the last copy and the last handle() are gone.
class CompiledFunction {
 public:
  /// The entry point in S (double or long double).
  template <class S>
    requires has_compiled_field<S>
  CompiledEntry<S> entry() const {
    if constexpr (std::is_same_v<S, double>)
      return double_;
    else
      return long_double_;
  }
  /// What keeps the library loaded (GeneratedFormulation's keep_alive).
  std::shared_ptr<const void> handle() const { return handle_; }
  /// The shared object, in the cache directory.
  const std::string& library_path() const { return path_; }
  /// True when the shared object was in the cache (no compiler run).
  bool loaded_from_cache() const { return from_cache_; }
  /// Operations per call (EmitStats::operations).
  int operations() const { return operations_; }

 private:
  friend CompiledFunction compile_function(const Graph&, const std::vector<int>&, const std::string&);
  CompiledEntry<double> double_ = nullptr;
  CompiledEntry<long double> long_double_ = nullptr;
  std::shared_ptr<const void> handle_;
  std::string path_;
  bool from_cache_ = false;
  int operations_ = 0;
};

/// The C++ translation unit compile_function compiles for `graph`: the
/// function emitted for `outputs` (emit_function, inputs named p and x)
/// under a C++ identifier made of `name`, and its entry points
/// nhs_compiled_double and nhs_compiled_long_double. Throws TracingError as
/// emit_function does (an output that is not a node, an input array other
/// than 0 and 1).
std::string compiled_source(const Graph& graph, const std::vector<int>& outputs, const std::string& name);

/// The compiler compile_function runs: $NHS_CXX if set and not empty, else
/// $CXX, else the compiler nhs was built with when it still exists, else
/// "c++" (looked up in PATH). One program name or path, not a command line.
std::string field_compiler();

/// The flags compile_function passes (file comment): -O2 -fPIC -shared
/// -ffp-contract=off.
const std::vector<std::string>& field_compiler_flags();

/// The cache of compiled fields: $XDG_CACHE_HOME/nhs/compiled when
/// XDG_CACHE_HOME is an absolute path, else $HOME/.cache/nhs/compiled (not
/// created here). Throws UsageError when neither variable is usable.
std::string compiled_cache_directory();

/// `graph`'s outputs compiled and loaded: compiled_source(graph, outputs,
/// name) compiled by field_compiler() with field_compiler_flags() into a
/// shared object in compiled_cache_directory() (created as needed), then
/// loaded (dlopen RTLD_NOW | RTLD_LOCAL).
///
/// The cache: the shared object is named <name>-<hash>.so (name cut to 48
/// characters), with a 64-bit FNV-1a hash of the source text, the compiler,
/// the flags and the machine (uname), so a field
/// is compiled once per machine and compiler and loaded from the cache by
/// every later process; the compiler writes to a temporary name that is
/// renamed into place, so concurrent processes never see a partial file
/// (the last one to finish wins, with the same contents). Then the side
/// file <name>-<hash>.sum (the shared object's size and FNV-1a checksum) is
/// published the same way. A cached shared object is loaded only when it
/// matches its side file; otherwise (truncated, replaced, or no side file)
/// it is compiled again and replaced (loaded_from_cache() false). Nothing is ever
/// deleted from the cache (remove the directory to empty it). On a failed
/// compile the source stays there, as <name>-<hash>.cpp, with the
/// compiler's output in <name>-<hash>.log.
///
/// Throws UsageError (exit 2) naming the compiler, its command line, the
/// log and the first lines of the compiler's errors when the compiler cannot
/// be run or fails; naming the file and dlerror()'s text when a shared
/// object that matches its side file still cannot be loaded, or lacks its
/// entry points (or was made for
/// another source: a cached file that does not match its name); naming the
/// directory when the cache cannot be created or written. TracingError as
/// compiled_source.
CompiledFunction compile_function(const Graph& graph, const std::vector<int>& outputs, const std::string& name);

/// compile_function for a traced formulation: its graph and outputs, named
/// "<system>/<formulation>".
CompiledFunction compile_function(const TracedFormulation& traced);

}  // namespace nhs::codegen
