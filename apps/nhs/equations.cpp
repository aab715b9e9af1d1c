// `nhs equations SYSTEM`: every formulation's equations of motion, symbolic
// in the parameters (nhs/symbolic; docs/equations.md).
#include "cli.hpp"
#include "progress.hpp"

#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/print.hpp"
#include "nhs/symbolic/proof.hpp"

namespace nhs::cli {
namespace {

// Each line of `text` behind the format's comment marker.
std::string as_comments(const std::string& text, symbolic::EquationFormat format) {
  const std::string marker = format == symbolic::EquationFormat::latex ? "%" : format == symbolic::EquationFormat::sympy ? "#" : "##";
  std::string out, line;
  for (char c : text) {
    if (c != '\n') {
      line += c;
      continue;
    }
    out += marker + " " + line + "\n";
    line.clear();
  }
  if (!line.empty()) out += marker + " " + line + "\n";
  return out;
}

}  // namespace

double derivation_budget(double option) { return option > 0 ? option : symbolic::kDefaultDerivationBudget; }

std::function<void(const std::string&, int, int)> derivation_progress(ProgressLine& line) {
  return [&line](const std::string& formulation, int k, int count) {
    line.tick([&] { return "deriving " + formulation + " (" + std::to_string(k + 1) + " of " + std::to_string(count) + ")"; },
              k, count - k);
  };
}

std::string equations_text(const EquationsOptions& opts, const std::string& command,
                           std::vector<std::string>* not_written) {
  const symbolic::EquationFormat format = symbolic::equation_format(opts.format);
  const TracedStudy traced = find_traced_study(opts.system);
  symbolic::require_derivation_budget(traced.build, traced.info, derivation_budget(opts.max_derivation_size),
                                      "--max-derivation-size");
  ProgressLine progress("nhs equations");
  progress.tick([] { return std::string("reading the system into GiNaC"); }, 0, 1);
  const symbolic::SymbolicSystem s = symbolic::symbolic_system(traced.build, traced.info);
  if (opts.prove) {
    std::string t = "| system | pair | verdict | time (s) | detail |\n|---|---|---|---|---|\n";
    for (const symbolic::ProofResult& p : symbolic::prove(s))
      t += fmt::format("| {} | {} | {} | {:.2f} | {} |\n", opts.system, p.pair,
                       p.identical ? "identical after simplification" : "not shown symbolically", p.seconds, p.detail);
    return t;
  }
  const std::vector<symbolic::FormulationEquations> written =
      symbolic::printable_formulations(s, opts.formulations, not_written, derivation_progress(progress));
  progress.clear();
  const std::string equations = symbolic::print_equations(s, written, format, command);
  if (!opts.classify) return equations;
  const std::string c = classification_text(opts.system);
  if (format == symbolic::EquationFormat::markdown)  // a section of the page
    return equations + "\n## Constraint classification\n\n```\n" + c + "```\n";
  return as_comments(opts.system + " (" + s.info.title + ")\n" + c, format) + equations;
}

int equations_command(const EquationsOptions& opts, const std::string& command) {
  if (!opts.out.empty() && is_system_file_name(opts.system)) refuse_overwriting(opts.system, opts.out, "--out");
  std::vector<std::string> not_written;
  const std::string text = equations_text(opts, command, &not_written);
  for (const auto& w : not_written) std::fprintf(stderr, "nhs: not written: %s\n", w.c_str());
  if (opts.out.empty())
    std::fputs(text.c_str(), stdout);
  else
    write_text_file(opts.out, text);
  return 0;
}

}  // namespace nhs::cli
