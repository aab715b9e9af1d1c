// The equations of nhs/symbolic/equations.hpp as text, LaTeX, sympy or
// Markdown (docs/equations.md, "Formats").
//   text      "# <formulation>", then `name := value` definitions, then one
//             `lhs = rhs` per line, in the system-file expression syntax
//             (nhs/expression.hpp), which sympy's parse_expr also reads
//             with convert_xor. Machine-checkable.
//   sympy     a Python module: `symbols`, and per formulation
//             `definitions[F]` as (symbol, expression) pairs and
//             `equations[F]` as sympy Eq, parsed from the text form.
//   latex     an `aligned` block per formulation, the KKT system also as
//             its augmented matrix.
//   markdown  the LaTeX inside a page with the system's data and each
//             formulation's title (equations_document, worksheet.hpp).
// Every side is printed collected in the formulation's velocities and
// unknowns, terms sorted by monomial (total degree, then exponents in the
// order of FormulationEquations::collect_in), each coefficient in normal
// form.
#pragma once

#include "nhs/symbolic/equations.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nhs::symbolic {

enum class EquationFormat { text, latex, sympy, markdown };

/// The format named `name` ("text", "latex", "sympy", "markdown");
/// UsageError listing them otherwise.
EquationFormat equation_format(const std::string& name);

/// The expression `e` collected in `vars` and printed in the text syntax
/// (latex = false) or as LaTeX.
std::string print_collected(const GiNaC::ex& e, const std::vector<GiNaC::ex>& vars, bool latex);

/// The formulation's definitions and equations as one LaTeX `aligned`
/// block (`:=` and `=` aligned), followed for the KKT system by its
/// augmented matrix; what the `latex` format writes per formulation.
std::string latex_equations(const FormulationEquations& f);

/// equations_of(s, formulation) written in the time t where s is
/// rheonomic (in_time_t, nhs/symbolic/time.hpp: the clock coordinate
/// eliminated), refused (NotApplicable, with the length)
/// when a side printed in the text syntax is longer than the system-file
/// parser reads (expression::kMaxExpressionLength characters): such text
/// could not be read back. What `nhs equations` and System.equations write.
FormulationEquations printable_equations(const SymbolicSystem& s, const std::string& formulation);

/// printable_equations for each formulation of `names`, in that order;
/// empty names: every formulation of symbolic_formulations() that applies,
/// the others appended to `not_written` (when given) as "formulation:
/// reason". A named formulation that does not apply throws NotApplicable;
/// an unknown name throws UsageError listing the known ones.
/// `starting` (when given) is called before each formulation is derived,
/// with its name, its index k and the count (a progress line).
std::vector<FormulationEquations> printable_formulations(
    const SymbolicSystem& s, const std::vector<std::string>& names, std::vector<std::string>* not_written,
    const std::function<void(const std::string& formulation, int k, int count)>& starting = {});

/// One formulation's equations in the text syntax, piece by piece: what
/// the sympy format writes and System.equations builds sympy objects from
/// (each side parsed by nhs::expression::parse, never evaluated as code).
struct PrintedEquations {
  std::vector<std::string> symbols;  ///< every symbol name the sides use, sorted (pi excluded)
  std::vector<std::pair<std::string, std::string>> definitions;  ///< (name, value)
  std::vector<std::pair<std::string, std::string>> equations;    ///< (lhs, rhs)
  std::vector<std::string> unknowns;                             ///< names of FormulationEquations::unknowns
};

/// The sides of `f` as the text format prints them (print_collected).
PrintedEquations printed_equations(const FormulationEquations& f);

/// The equations `fs` of the system `s` in `format`; `command` is the
/// command line quoted in the header: latex starts with it as a comment,
/// its control characters escaped (one_line, document.hpp); sympy assigns
/// it to `command` as a Python string literal (every control character
/// and undecodable byte escaped), so that no text of the user's becomes code.
std::string print_equations(const SymbolicSystem& s, const std::vector<FormulationEquations>& fs,
                            EquationFormat format, const std::string& command);

}  // namespace nhs::symbolic
