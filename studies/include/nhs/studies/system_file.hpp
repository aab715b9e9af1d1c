// The Study<S> of a system file (docs/system-files.md): file_study<S>()
// makes a loaded file (nhs/systemfile/system_file.hpp, load_system_file) a
// Study<S> through the same door as a built-in study (describe(),
// system.hpp), so that every formulation, precision and command of nhs
// accepts it; the caches of loaded files, their studies and their traced
// formulations. The loader's types and functions were declared here before
// they moved to nhs/systemfile/system_file.hpp, which this header includes.
#pragma once

#include "nhs/codegen/trace.hpp"
#include "nhs/studies/bundled.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/systemfile/system_file.hpp"

#include <memory>
#include <string>
#include <vector>

namespace nhs {

/// 1/5 in S: a random state of a file's study (file_study) with a margin
/// of [singular] below it is refused (SingularState). The states are drawn
/// at unit scale (q within 1 of the initial q, z in [-1, 1]^m), and near a
/// singular set the formulations' results lose digits (the built-in
/// rolling sphere redraws below the same 1/5).
template <class S>
S file_random_state_margin_floor() {
  return S(1) / S(5);
}

/// The Study<S> of a loaded file: info, build (describe() of the file's
/// description; its singular_margins from [singular]), default state
/// ([initial]), invariants, energy conservation (when no forces act and
/// every constraint is homogeneous in qdot: energy_not_conserved_reason),
/// special motions ([[exact]]) and random regular states (q near the
/// initial q, z uniform in [-1, 1]^m through psi; without psi, qdot
/// projected onto C). random_state throws SingularState (the set's
/// condition) for a drawn state with a margin of [singular] below
/// file_random_state_margin_floor<S>() (1/5), and InvalidState where psi
/// or the projection is undefined: `nhs check` skips and counts such states.
template <class S>
Study<S> file_study(std::shared_ptr<const SystemFile> file);

/// The file's system over the tracing scalar (code generation).
System<codegen::Expr> traced_file_system(std::shared_ptr<const SystemFile> file,
                                         const std::vector<codegen::Expr>& parameters);

/// The file at `path` (or a bundled system's: system_file_path), loaded once
/// (load_system_file) and cached for the program's life (thread-safe); a
/// key of cached_system_text gives that text's system, without a file.
std::shared_ptr<const SystemFile> cached_system_file(const std::string& path);

/// A system file's `text` held in memory (the Python module's
/// System.from_sympy and System.from_text): loaded by load_system_text
/// (FileError "name:line:column: reason" naming `name`; a refused text is
/// not kept), then kept for the program's life (thread-safe). Returns the
/// key that names the system to every command in place of a path
/// (find_study, cached_system_file, the traced fields):
/// "text:<k>/<name>", k numbering the distinct (name, text) pairs in the
/// order first given. The same name and text give the same key (loaded
/// once); another text, even under the same name, another key: two texts
/// are never one system. Nothing is read from or written to disk.
std::string cached_system_text(const std::string& text, const std::string& name);

/// `formulation` ("second-kind", "first-kind" or "gibbs-appell") of the
/// file's system traced into a graph (codegen::trace_formulation), with the
/// parameters and the state as inputs: the fast path of `nhs run FILE`
/// (generated::make_traced_formulation). Throws NotApplicable where the
/// formulation does not apply, TracingError where the file's expressions
/// branch on the state (abs).
codegen::TracedFormulation trace_file_formulation(const std::shared_ptr<const SystemFile>& file,
                                                  const std::string& formulation);

/// trace_file_formulation of the file at `path` (cached_system_file), traced
/// once per path and formulation and kept for the program's life
/// (thread-safe): the CLI traces once per process, the Python module once per
/// file, not once per call. Throws as trace_file_formulation does (not
/// cached).
std::shared_ptr<const codegen::TracedFormulation> cached_trace_file_formulation(const std::string& path,
                                                                               const std::string& formulation);

/// The study of the file at `path`, loaded once per path and scalar type
/// and cached for the program's life (thread-safe), for find_study.
template <class S>
const Study<S>& cached_file_study(const std::string& path);

}  // namespace nhs
