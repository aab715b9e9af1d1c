// Implementation of nhs/symbolic/worksheet.hpp.
#include "nhs/symbolic/worksheet.hpp"

#include "nhs/symbolic/print.hpp"

#include <cstdio>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;

std::string latex(const ex& e) { return print_collected(e, {}, true); }

// "(a, b, c)": a tuple of names; vector_latex below for a vector of
// expressions, which may be long.
std::string tuple_latex(const std::vector<ex>& v) {
  std::string t;
  for (const ex& e : v) t += (t.empty() ? "" : ", ") + latex(e);
  return "(" + t + ")";
}

std::string pmatrix(const GiNaC::matrix& M) {
  std::string t = "\\begin{pmatrix}\n";
  for (unsigned i = 0; i < M.rows(); ++i) {
    for (unsigned j = 0; j < M.cols(); ++j) t += (j ? " & " : "") + latex(M(i, j));
    t += i + 1 < M.rows() ? " \\\\\n" : "\n";
  }
  return t + "\\end{pmatrix}";
}

std::string aligned(const std::vector<std::string>& lines) {
  std::string t = "\\begin{aligned}\n";
  for (const auto& l : lines) t += l + " \\\\\n";
  return t + "\\end{aligned}\n";
}

std::string vector_latex(const std::vector<ex>& v) {
  std::string t;
  for (const ex& e : v) t += (t.empty() ? "" : ",\\; ") + latex(e);
  return "\\left(" + t + "\\right)";
}

void add_frobenius(Document& d, const SymbolicFrobenius& f) {
  if (!f.done) {
    d.paragraph("Frobenius test, symbolic: not done (" + f.skipped + ").");
    return;
  }
  const auto names = [](const std::vector<std::string>& v) {
    std::string t;
    for (const auto& x : v) t += (t.empty() ? "" : ", ") + tex_of_name(x);
    return "(" + t + ")";
  };
  d.paragraph({{"Frobenius test, symbolic (its first level, exact; frobenius.hpp): a frame ", false},
               {"X_\\alpha", true},
               {" of ker A, one field per independent velocity ", false},
               {names(f.independent), true},
               {", the dependent ones ", false},
               {names(f.dependent), true},
               {" solved from ", false},
               {"A \\dot q = 0", true},
               {" (components in the order of q):", false}});
  std::vector<std::string> lines;
  for (std::size_t a = 0; a < f.frame.size(); ++a)
    lines.push_back("X_{" + tex_of_name(f.independent[a]) + "} &= " + vector_latex(f.frame[a]));
  d.display_math(aligned(lines));
  if (f.brackets.empty()) {
    d.paragraph("ker A has one field, so it is involutive: the constraints are integrable (holonomic in disguise).");
    return;
  }
  lines.clear();
  for (const SymbolicBracket& b : f.brackets)
    lines.push_back("A\\,[X_{" + tex_of_name(b.first) + "}, X_{" + tex_of_name(b.second) + "}] &= " +
                    vector_latex(b.constraint_forms));
  d.paragraph({{"The constraint forms of the brackets, ", false},
               {"A\\,[X_\\alpha, X_\\beta]", true},
               {" (one entry per constraint; 0 where the bracket stays in ker A):", false}});
  d.display_math(aligned(lines));
  d.paragraph(f.involutive ? "Every form is identically 0: ker A is involutive, and the constraints are integrable "
                             "(holonomic in disguise; Frobenius' theorem)."
                           : "A form is not identically 0: ker A is not involutive, so the constraints are not all "
                             "integrable. The numerical test above follows the brackets further (the growth vector) "
                             "and finds any integrable combination.");
}

void add_equations(Document& d, const std::vector<FormulationEquations>& fs) {
  for (const FormulationEquations& f : fs) {
    d.heading(2, f.formulation);
    d.paragraph(f.title + ".");
    d.display_math(latex_equations(f));
  }
}

}  // namespace

void add_system_section(Document& d, const SymbolicSystem& s) {
  d.heading(2, "The system");
  d.paragraph({{"Coordinates ", false}, {"q = " + tuple_latex(s.q), true}, {", n = " + std::to_string(s.n) + ".", false}});
  if (s.info.clock_coordinate >= 0) {
    const std::string tau = s.info.coordinates.at(static_cast<std::size_t>(s.info.clock_coordinate));
    d.paragraph({{"The system depends on the time t: nhs integrates it with t as the clock coordinate " + tau +
                      " (constraint " + tau + "_dot - 1 = 0, docs/affine-constraints.md A5). The equations below "
                      "are written in t, with ",
                  false},
                 {tex_of_name(tau) + " = t,\\ \\dot{" + tex_of_name(tau) + "} = 1", true},
                 {", and without the clock's own equation, which gives only its reaction -dL/dt.", false}});
  }
  if (s.m > 0)
    d.paragraph({{"Quasi-velocities ", false},
                 {"z = " + tuple_latex(s.z), true},
                 {", m = " + std::to_string(s.m) + ", with the chart ", false},
                 {"\\dot q = \\psi(q, z)", true},
                 {" below.", false}});
  if (!s.info.parameters.empty()) {
    std::vector<std::vector<std::string>> rows = {{"parameter", "default", "meaning"}};
    for (const Parameter& p : s.info.parameters) rows.push_back({p.name, p.default_value, p.meaning});
    d.table(std::move(rows));
  }
  std::vector<std::string> energy = {"T &= " + print_collected(s.T, s.qdot, true), "V &= " + latex(s.V)};
  for (int i = 0; i < s.n; ++i)
    if (!s.F[static_cast<std::size_t>(i)].is_zero())
      energy.push_back("F_{" + tex_of_name(s.info.coordinates[static_cast<std::size_t>(i)]) +
                       "} &= " + print_collected(s.F[static_cast<std::size_t>(i)], s.qdot, true));
  d.paragraph({{"Kinetic energy ", false}, {"T", true}, {", potential ", false}, {"V", true},
               {" and the applied forces ", false}, {"F_i", true}, {" beyond ", false},
               {"-\\partial V/\\partial q^i", true}, {" (those not written are zero):", false}});
  d.display_math(aligned(energy));
  const GiNaC::matrix g = metric(s);
  d.paragraph({{"The metric ", false},
               {"g_{ij} = \\partial^2 T / \\partial \\dot q^i \\partial \\dot q^j", true},
               {" (" + std::string(s.info.semidefinite_metric ? "only positive semidefinite" : "positive definite") +
                    "):",
                false}});
  d.display_math("g = " + pmatrix(g) + "\n");
  if (s.r > 0) {
    std::vector<std::string> lines;
    for (int a = 0; a < s.r; ++a)
      lines.push_back(tex_of_name(s.info.constraint_names[static_cast<std::size_t>(a)]) + " &= " +
                      print_collected(s.C[static_cast<std::size_t>(a)], s.qdot, true) + " = 0");
    const GiNaC::matrix A = constraint_jacobian(s);
    d.paragraph({{"The constraints ", false}, {"C^a(q, \\dot q) = 0", true}, {", r = " + std::to_string(s.r) + ":", false}});
    d.display_math(aligned(lines));
    d.paragraph({{"and their matrix ", false}, {"[\\partial C^a / \\partial \\dot q^i]", true}, {" (r × n):", false}});
    d.display_math("\\frac{\\partial C}{\\partial \\dot q} = " + pmatrix(A) + "\n");
  }
  if (!s.psi.empty()) {
    std::vector<std::string> lines;
    for (int i = 0; i < s.n; ++i)
      lines.push_back(latex(s.qdot[static_cast<std::size_t>(i)]) + " &= " +
                      print_collected(s.psi[static_cast<std::size_t>(i)], s.z, true));
    d.paragraph({{"The chart ", false}, {"\\dot q = \\psi(q, z)", true}, {" of the constraint manifold C:", false}});
    d.display_math(aligned(lines));
  }
}

Document equations_document(const SymbolicSystem& s, const std::vector<FormulationEquations>& fs,
                            const std::string& command) {
  Document d;
  d.title = "Equations of motion: " + s.info.name;
  d.heading(1, d.title);
  d.paragraph(s.info.title + " (" + s.info.source + ").");
  d.paragraph({{"Written by ", false}, {command, false, true}, {" (docs/equations.md).", false}});
  add_system_section(d, s);
  add_equations(d, fs);
  return d;
}

namespace {

// "Motion": the link to the default motion's animation, the command that
// wrote it and, when its run stopped, why.
void add_motion(Document& d, const WorksheetContents& c) {
  d.heading(2, "Motion");
  if (c.animation.empty()) {
    d.paragraph({{"The default motion was not drawn (", false},
                 {c.animation_command, false, true},
                 {" would stop before its first sample): " + c.animation_stopped, false}});
    return;
  }
  d.paragraph({{"The default motion in 3-D", false, false, c.animation},
               {" (opens offline in a browser; docs/animation.md), written by ", false},
               {c.animation_command, false, true},
               {".", false}});
  if (!c.animation_stopped.empty())
    d.paragraph("The run stopped before its end: " + c.animation_stopped + " The animation shows what was integrated.");
}

}  // namespace

Document worksheet_document(const SymbolicSystem& s, const WorksheetContents& c) {
  Document d;
  d.title = "Worksheet: " + s.info.name;
  d.heading(1, d.title);
  d.paragraph(s.info.title + " (" + s.info.source + ").");
  d.paragraph({{"Written by ", false},
               {c.command, false, true},
               {" (docs/equations.md, \"Worksheet\"): the system's data, its constraint classification, the "
                "equations of motion of every formulation that applies, as each formulation writes them, and the "
                "symbolic cross-checks of the formulations.",
                false}});
  add_system_section(d, s);
  d.heading(2, "Constraint classification");
  d.paragraph({{"As ", false}, {"nhs list " + s.info.name, false, true}, {" prints it (docs/constraint-classification.md).", false}});
  d.preformatted(c.classification);
  add_frobenius(d, c.frobenius);
  add_equations(d, c.written);
  if (!c.not_written.empty()) {
    d.heading(2, "Not written");
    std::vector<std::vector<std::string>> rows = {{"formulation", "why"}};
    for (const std::string& w : c.not_written) {
      const auto k = w.find(": ");
      rows.push_back(k == std::string::npos ? std::vector<std::string>{w, ""}
                                            : std::vector<std::string>{w.substr(0, k), w.substr(k + 2)});
    }
    d.table(std::move(rows));
  }
  d.heading(2, "Symbolic cross-checks");
  d.paragraph("Each pair is \"identical after simplification\" when the difference of the two formulations' "
              "equations has normal form 0 (an identity), and \"not shown symbolically\" otherwise, with the "
              "reason (docs/equations.md, \"Proofs\").");
  std::vector<std::vector<std::string>> rows = {{"pair", "verdict", "time (s)", "detail"}};
  for (const ProofResult& p : c.proofs) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", p.seconds);
    rows.push_back({p.pair, p.identical ? "identical after simplification" : "not shown symbolically", seconds, p.detail});
  }
  d.table(std::move(rows));
  if (!c.animation.empty() || !c.animation_stopped.empty()) add_motion(d, c);
  return d;
}

}  // namespace nhs::symbolic
