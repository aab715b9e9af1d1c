// The pages nhs writes about one system (docs/equations.md): the Markdown
// format of `nhs equations` (the system's data and each formulation's
// equations) and `nhs worksheet`'s page, which adds the constraint
// classification, the formulations not written with their reasons, and the
// symbolic cross-checks of proof.hpp.
#pragma once

#include "nhs/symbolic/document.hpp"
#include "nhs/symbolic/equations.hpp"
#include "nhs/symbolic/frobenius.hpp"
#include "nhs/symbolic/proof.hpp"

#include <string>
#include <vector>

namespace nhs::symbolic {

/// The system's data for a teacher checking by hand, in the seeds'
/// symbols (001 §§2-3, 000 §§2-4): the coordinates q (n) and the
/// quasi-velocities z (m); the parameters with their defaults and
/// meanings; T, V and the applied force F_i (size n, when non-zero); the
/// metric g_ij = d^2T/dqdot^i dqdot^j (n x n); the constraints C^a (r) and
/// their matrix dC^a/dqdot^i (r x n); the chart qdot = psi(q, z) (n).
/// Appended to `d` as a level-2 section.
void add_system_section(Document& d, const SymbolicSystem& s);

/// The Markdown page of `nhs equations --format markdown`: a title, the
/// command (`command`), the system section and each formulation of `fs`
/// as a level-2 section (its title and its LaTeX equations).
Document equations_document(const SymbolicSystem& s, const std::vector<FormulationEquations>& fs,
                            const std::string& command);

/// What a worksheet shows beyond the equations.
struct WorksheetContents {
  std::vector<FormulationEquations> written;  ///< printable_equations of each formulation that applies
  /// "formulation: reason" for each formulation that is not written.
  std::vector<std::string> not_written;
  std::string classification;  ///< `nhs list SYSTEM`'s classification, plain text
  SymbolicFrobenius frobenius;  ///< symbolic_frobenius of the system
  std::vector<ProofResult> proofs;
  std::string command;  ///< the command line, quoted on the page
  /// The system's default motion drawn in 3-D (docs/animation.md), when it
  /// has bodies: the folder's index.html relative to the page
  /// ("animation/index.html"), else empty.
  std::string animation;
  /// The command that wrote that folder, and why its run stopped ("" when
  /// it completed), both said on the page; with `animation` empty, why
  /// nothing was drawn. No "Motion" section when both are empty.
  std::string animation_command, animation_stopped;
};

/// `nhs worksheet`'s page: the system section, "Constraint
/// classification" (the numerical one as text, then the symbolic Frobenius
/// test: the frame of ker A and its brackets' constraint forms as
/// formulas), each formulation's equations, "Not written" (when any) and
/// "Symbolic cross-checks" (one table row per pair of proof.hpp), then
/// "Motion" (a link to the animation, or why it was not drawn).
Document worksheet_document(const SymbolicSystem& s, const WorksheetContents& c);

}  // namespace nhs::symbolic
