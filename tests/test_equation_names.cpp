// ctest-labels: unit files cli
// The names of a system file in what `nhs equations` and `nhs worksheet`
// generate (docs/equations.md, "Names"): a system file's names -- the keys
// of [constraints], the coordinates, quasi-velocities and parameters --
// are identifiers, refused at load (a usage error, exit 2, naming the name
// and its line) when they are not, or when they are the name of something
// the equations define (<q>_ddot, lambda_<constraint>, Qc_<q>,
// b_<dep>_<i>_<j>, b0_<dep>_<i>, S). An accepted name gives valid TeX (braces
// balanced, every '_' and '^' with an argument, never two on one atom), and
// text of the user's (titles, meanings, the command line) reaches no
// generated Markdown, HTML or Python except escaped.
//
// The fuzz generator (EquationNamesFuzz): files of a skate-like system with
// random hostile names (TeX and HTML specials, line breaks, quotes,
// backslashes, UTF-8, several underscores, the derived names, reserved
// names) and hostile titles and meanings, from a seed; each is loaded,
// derived and printed in every format and as a worksheet, in process, and
// a few are run through the tool to check its exit code. FixedSeeds in the
// quick suite; EquationNamesFuzzRandomSeed.NewSeed draws a new seed (labels
// fuzz;slow; NHS_FUZZ_SEED replays one, NHS_FUZZ_CASES changes the count).
#include "nhs/session/error_table.hpp"
#include "nhs/expression.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/frobenius.hpp"
#include "nhs/symbolic/print.hpp"
#include "nhs/symbolic/symbolic_system.hpp"
#include "nhs/symbolic/worksheet.hpp"
#include "cli_outcome.hpp"
#include "process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace nhs;
using namespace nhs::test;

namespace {

namespace fs = std::filesystem;

// --- TeX validity ---------------------------------------------------------------

// The first problem of `tex` as TeX math, "" when none: unbalanced braces,
// a '_' or '^' without an argument, two subscripts (or superscripts) on one
// atom, a '%', '#' or '$' that is not escaped (a comment, a macro parameter,
// the end of math).
std::string tex_problem(const std::string& tex) {
  struct Level {
    bool sub = false, sup = false;  // the current atom's scripts
    bool argument = false;          // the group is a script's argument
    void new_atom() { sub = sup = false; }
  };
  std::vector<Level> levels(1);
  bool expect_argument = false;
  for (std::size_t i = 0; i < tex.size(); ++i) {
    const char c = tex[i];
    if (c == ' ' || c == '\n') continue;
    const std::string at = " at character " + std::to_string(i) + " of: " + tex.substr(i > 40 ? i - 40 : 0, 80);
    if (c == '%' || c == '#' || c == '$') return std::string("unescaped '") + c + "'" + at;
    if (c == '}') {
      if (expect_argument) return "a script without its argument" + at;
      if (levels.size() == 1) return "'}' without '{'" + at;
      const bool argument = levels.back().argument;
      levels.pop_back();
      if (!argument) levels.back().new_atom();  // the closed group is an atom: a new nucleus
      continue;
    }
    if (c == '_' || c == '^') {
      if (expect_argument) return "a script as the argument of a script" + at;
      bool& used = c == '_' ? levels.back().sub : levels.back().sup;
      if (used) return std::string(c == '_' ? "double subscript" : "double superscript") + at;
      used = true;
      expect_argument = true;
      continue;
    }
    const bool was_argument = expect_argument;
    expect_argument = false;
    if (c == '{') {
      levels.push_back({false, false, was_argument});
      continue;
    }
    std::size_t end = i + 1;
    if (c == '\\') {
      while (end < tex.size() && std::isalpha(static_cast<unsigned char>(tex[end]))) ++end;
      if (end == i + 1) ++end;  // \_ \, \\ ...
      const std::string command = tex.substr(i, end - i);
      if (was_argument && (command == "\\right" || command == "\\\\" || command == "\\end"))
        return "a script without its argument" + at;
    } else if (was_argument && c == '&') {
      return "a script without its argument" + at;
    }
    if (!was_argument) levels.back().new_atom();
    i = end - 1;
  }
  if (expect_argument) return "a script without its argument at the end";
  if (levels.size() != 1) return "'{' without '}'";
  return "";
}

TEST(EquationNames, TheTexCheckerTellsValidFromInvalid) {
  for (const char* good : {"x_{1,2}", "\\ddot{x}_{1} + \\lambda_{\\mathrm{C\\_1}}", "b^{y}_{x\\,\\theta}", "{x}_{a}^{2}",
                           "\\mathrm{x\\_}", "\\frac{1}{2}", "\\begin{aligned} a &= b \\\\ \\end{aligned}"})
    EXPECT_EQ(tex_problem(good), "") << good;
  for (const char* bad : {"x_1_2", "\\left(_\\right)", "\\mathrm{x_}", "x^2^3", "{x", "x}", "C%x", "a#b", "x_{1}_{2}"})
    EXPECT_NE(tex_problem(bad), "") << bad;
}

// Legal names with several underscores, or with '_' alone, give one
// subscript of comma-separated indices, and '_' at either end stays in the
// upright base as \_ (docs/equations.md, "Names").
TEST(EquationNames, LegalNamesGiveValidTex) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x_1_2", "x_{1,2}"},     {"q_a_b_c", "q_{a,b,c}"}, {"_", "\\_"},
      {"x_", "\\mathrm{x\\_}"}, {"__", "\\mathrm{\\_\\_}"}, {"phi_alpha_2", "\\phi_{\\alpha,2}"},
      {"m_rod", "m_{rod}"},     {"theta1", "\\theta_{1}"}};
  for (const auto& [name, want] : cases) {
    EXPECT_EQ(symbolic::tex_of_name(name), want) << name;
    EXPECT_EQ(tex_problem(symbolic::tex_of_name(name)), "") << name;
  }
  for (const char* name : {"_1", "a__b", "x_1__", "_a_", "A_b_c_d_e"})
    EXPECT_EQ(tex_problem(symbolic::tex_of_name(name)), "") << name << " -> " << symbolic::tex_of_name(name);
}

// --- the system template ------------------------------------------------------------

// The names and texts a case substitutes into the template.
struct Names {
  std::string x = "x", y = "y", theta = "theta", s = "s", omega = "omega", m = "m", inertia = "I", k = "C1";
  std::string title = "a skate", meaning = "mass";
};

// s as a TOML basic string (quotes, backslashes, control characters escaped).
std::string toml_string(const std::string& s) {
  std::string t = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') t += std::string("\\") + c;
    else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      t += buf;
    } else {
      t += c;
    }
  }
  return t + "\"";
}

// A skate (a Chaplygin sleigh's blade) with a body, so that every formulation
// is written: Voronec's split (y dependent) and Gibbs-Appell's S.
std::string system_text(const Names& n) {
  const std::string X = n.x, Y = n.y, TH = n.theta;
  return "name = \"names-test\"\ntitle = " + toml_string(n.title) + "\ncoordinates = [" + toml_string(X) + ", " +
         toml_string(Y) + ", " + toml_string(TH) + "]\nquasi_velocities = [" + toml_string(n.s) + ", " +
         toml_string(n.omega) + "]\ndependent_velocities = [" + toml_string(Y) + "]\n\n[parameters]\n" +
         toml_string(n.m) + " = { default = \"3\", meaning = " + toml_string(n.meaning) + " }\n" +
         toml_string(n.inertia) + " = { default = \"0.7\", meaning = \"inertia\" }\n\n[constraints]\n" +
         toml_string(n.k) + " = " + toml_string(X + "_dot*sin(" + TH + ") - " + Y + "_dot*cos(" + TH + ")") +
         "\n\n[parametrization]\n" + toml_string(X + "_dot") + " = " + toml_string(n.s + "*cos(" + TH + ")") + "\n" +
         toml_string(Y + "_dot") + " = " + toml_string(n.s + "*sin(" + TH + ")") + "\n" + toml_string(TH + "_dot") +
         " = " + toml_string(n.omega) + "\n\n[chart]\n" + toml_string(n.s) + " = " +
         toml_string(X + "_dot*cos(" + TH + ") + " + Y + "_dot*sin(" + TH + ")") + "\n" + toml_string(n.omega) + " = " +
         toml_string(TH + "_dot") + "\n\n[initial]\nq = [\"0.1\", \"0\", \"0.2\"]\nz = [\"1.25\", \"-0.5\"]\n\n"
         "[[bodies]]\nmass = " + toml_string(n.m) + "\nposition = [" + toml_string(X) + ", " + toml_string(Y) +
         "]\nangular_velocity = " + toml_string(TH + "_dot") + "\ninertia = " + toml_string(n.inertia) + "\n";
}

fs::path scratch_dir() {
  const fs::path d = fs::temp_directory_path() / ("nhs-equation-names-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path write_system(const Names& n, const std::string& file_name) {
  const fs::path p = scratch_dir() / file_name;
  std::ofstream(p, std::ios::binary) << system_text(n);
  return p;
}

// The message of the FileError that loading `p` gives ("" when it loads).
std::string load_error(const fs::path& p) {
  try {
    (void)load_system_file(p.string());
  } catch (const FileError& e) {
    return e.what();
  }
  return "";
}

// --- checks of the generated outputs --------------------------------------------------

// Every formula of the page and of the latex format is valid TeX.
void check_tex(const symbolic::Document& page, const std::vector<symbolic::FormulationEquations>& written,
               const std::string& label) {
  for (const symbolic::Block& b : page.blocks) {
    if (b.kind == symbolic::Block::Kind::display_math) EXPECT_EQ(tex_problem(b.text), "") << label;
    for (const symbolic::Span& span : b.spans)
      if (span.math) EXPECT_EQ(tex_problem(span.text), "") << label;
  }
  for (const auto& f : written) EXPECT_EQ(tex_problem(symbolic::latex_equations(f)), "") << label << " " << f.formulation;
}

// The Markdown `md` of `page` has no raw '<' (no tag), no link "](" that is
// not escaped, and no line break of the user's text that starts a heading.
void check_markdown(const std::string& md, const symbolic::Document& page, const std::string& label) {
  EXPECT_EQ(md.find('<'), std::string::npos) << label << ": a raw '<' in the Markdown";
  for (auto k = md.find("]("); k != std::string::npos; k = md.find("](", k + 1))
    EXPECT_TRUE(k > 0 && md[k - 1] == '\\') << label << ": a Markdown link";
  std::size_t headings = 0, hash_lines = 0;
  for (const symbolic::Block& b : page.blocks) headings += b.kind == symbolic::Block::Kind::heading;
  for (std::size_t i = 0; i < md.size(); ++i)
    if ((i == 0 || md[i - 1] == '\n') && md[i] == '#') ++hash_lines;
  EXPECT_EQ(hash_lines, headings) << label << ": a line break of the user's text started a heading";
}

// The HTML page holds no tag or link of the user's, only MathJax's scripts.
void check_html(const std::string& html, const std::string& label) {
  EXPECT_EQ(html.find("<img"), std::string::npos) << label;
  EXPECT_EQ(html.find("href"), std::string::npos) << label;
  std::size_t scripts = 0;
  for (auto k = html.find("<script"); k != std::string::npos; k = html.find("<script", k + 1)) ++scripts;
  EXPECT_EQ(scripts, 2u) << label << ": only MathJax's configuration and MathJax itself";
}

// In the sympy module, the command line (with the marker PAYLOAD) is one
// line, `command = "..."`; no other line holds it.
void check_sympy(const std::string& py, const std::string& command, const std::string& label) {
  std::size_t lines_with_payload = 0;
  std::istringstream in(py);
  for (std::string line; std::getline(in, line);)
    if (line.find("PAYLOAD") != std::string::npos) {
      ++lines_with_payload;
      EXPECT_EQ(line.rfind("command = \"", 0), 0u) << label << ": " << line;
    }
  EXPECT_EQ(lines_with_payload, command.find("PAYLOAD") != std::string::npos ? 1u : 0u) << label;
}

// Every side of the text format reads back, and its numbers are finite.
void check_text(const std::vector<symbolic::FormulationEquations>& written, const std::string& label) {
  for (const auto& f : written) {
    const symbolic::PrintedEquations printed = symbolic::printed_equations(f);
    std::vector<std::string> sides;
    for (const auto& [name, value] : printed.definitions) sides.push_back(value);
    for (const auto& [lhs, rhs] : printed.equations) sides.insert(sides.end(), {lhs, rhs});
    for (const std::string& side : sides) {
      expression::Ast ast;
      ASSERT_NO_THROW(ast = expression::parse(side)) << label << ": " << side;
      std::vector<const expression::Ast*> stack = {&ast};
      while (!stack.empty()) {
        const expression::Ast* a = stack.back();
        stack.pop_back();
        if (a->kind == expression::Kind::Number)
          EXPECT_TRUE(std::isfinite(std::strtod(a->text.c_str(), nullptr))) << label << ": " << a->text;
        for (const auto& x : a->args) stack.push_back(&x);
      }
    }
  }
}

// Every output of the system at `p` (every format, the worksheet's two
// files), `command` being the command line written into them.
void check_outputs(const fs::path& p, const std::string& command, const std::string& label) {
  const TracedStudy traced = find_traced_study(p.string());
  const symbolic::SymbolicSystem s = symbolic::symbolic_system(traced.build, traced.info);
  symbolic::WorksheetContents c;
  c.written = symbolic::printable_formulations(s, {}, &c.not_written);
  ASSERT_FALSE(c.written.empty()) << label;
  c.frobenius = symbolic::symbolic_frobenius(s);
  c.command = command;
  const symbolic::Document page = symbolic::worksheet_document(s, c);
  check_tex(page, c.written, label);
  check_markdown(symbolic::to_markdown(page), page, label);
  const symbolic::Document equations_page = symbolic::equations_document(s, c.written, command);
  check_markdown(symbolic::print_equations(s, c.written, symbolic::EquationFormat::markdown, command), equations_page,
                 label);
  check_html(symbolic::to_html(page, "mathjax/MathJax.js"), label);
  check_sympy(symbolic::print_equations(s, c.written, symbolic::EquationFormat::sympy, command), command, label);
  check_text(c.written, label);
}

// --- the loader's name checks ---------------------------------------------------------

// A [constraints] key is a name like every other table's key: TeX, HTML,
// a line break, an empty key are refused, with the key and its line.
TEST(EquationNames, ConstraintKeysThatAreNotNamesAreRefusedAtLoad) {
  for (const std::string key : {std::string("K\\href{javascript:void(0)}{go}"), std::string("row\nimport sys"),
                                std::string("<b>k</b>"), std::string("k 2"), std::string(""), std::string("2k")}) {
    Names n;
    n.k = key;
    const std::string e = load_error(write_system(n, "key.toml"));
    EXPECT_NE(e.find("constraint '" + key + "' is not a name"), std::string::npos) << e;
    EXPECT_NE(e.find("key.toml:12:"), std::string::npos) << "the key's line: " << e;
  }
}

// A coordinate, velocity, quasi-velocity or parameter with the name of a
// definition of the equations is refused by name, with its line.
TEST(EquationNames, NamesOfDefinitionsAreRefusedAtLoad) {
  struct Case {
    Names names;
    std::string name, line;
  };
  std::vector<Case> cases;
  Names n;
  n.m = "Qc_theta";  // udwadia-kalaba's constraint force on theta
  cases.push_back({n, "Qc_theta", ":8:"});
  n = Names{};
  n.inertia = "b_y_theta_x";  // a Voronec coefficient (y dependent)
  cases.push_back({n, "b_y_theta_x", ":9:"});
  n = Names{};
  n.inertia = "b0_y_x";
  cases.push_back({n, "b0_y_x", ":9:"});
  n = Names{};
  n.theta = "S";  // the Appellian
  cases.push_back({n, "S", ":3:"});
  n = Names{};
  n.k = "roll";
  n.m = "lambda_roll";  // the multiplier of constraint roll
  cases.push_back({n, "lambda_roll", ":8:"});
  n = Names{};
  n.omega = "x_ddot";  // the acceleration of coordinate x
  cases.push_back({n, "x_ddot", ":4:"});
  n = Names{};
  n.m = "s_dot";  // the derivative of quasi-velocity s
  cases.push_back({n, "s_dot", ":8:"});
  for (const Case& c : cases) {
    const std::string e = load_error(write_system(c.names, "derived.toml"));
    EXPECT_NE(e.find("'" + c.name + "' has the name of"), std::string::npos) << e;
    EXPECT_NE(e.find("derived.toml" + c.line), std::string::npos) << e;
  }
}

// Hostile titles and meanings, a hostile command line and legal names with
// underscores: accepted, with every output checked (check_outputs).
TEST(EquationNames, HostileTextIsEscapedAndLegalNamesGiveValidTex) {
  Names n;
  n.x = "x_1_2";
  n.y = "_";
  n.theta = "th_";
  n.k = "C_a_b";
  n.m = "m__1";
  n.title = "</title><script>alert(1)</script> [go](javascript:alert(2)) $x$ `c`\n# heading";
  n.meaning = "<img src=x onerror=alert(3)> | \\ *bold* _it_";
  const fs::path p = write_system(n, "hostile.toml");
  ASSERT_EQ(load_error(p), "");
  check_outputs(p, "nhs equations 'a\n\"PAYLOAD\" = __import__(\"os\")\\' `x`", "hostile text");
}

// --- the tool ---------------------------------------------------------------------------------

// `nhs equations FILE --format sympy` for a file whose name holds a line
// break, quotes and a backslash: the module imports without running the
// name as code, and the command line is its `command` literal.
TEST(EquationNames, TheSympyModuleOfADangerousFileNameImportsAsData) {
  const fs::path dir = scratch_dir() / "cli";
  fs::create_directories(dir);
  const std::string file = "q\n__import__(\"os\").system(\"touch MADE\") # \\ '.toml";
  const fs::path p = write_system(Names{}, "plain.toml");
  fs::copy_file(p, dir / file, fs::copy_options::overwrite_existing);
  const ProcessEnd end = run_process(NHS_CLI_PATH, {"equations", file, "--format", "sympy", "--out", "m.py"},
                                     dir / "out.txt", dir / "err.txt", 0, 0, dir);
  ASSERT_EQ(end.code, 0) << slurp(dir / "err.txt");
  const std::string module = slurp(dir / "m.py");
  EXPECT_NE(module.find("command = \""), std::string::npos);
  if (fs::exists("/usr/bin/python3")) {
    const ProcessEnd py = run_process("/usr/bin/python3", {"-c", "import m; print(m.command)"}, dir / "py.txt",
                                      dir / "py_err.txt", 0, 0, dir);
    const bool have_sympy = slurp(dir / "py_err.txt").find("No module named 'sympy'") == std::string::npos;
    if (have_sympy) {
      EXPECT_EQ(py.code, 0) << slurp(dir / "py_err.txt");
      EXPECT_NE(slurp(dir / "py.txt").find(file), std::string::npos) << "the command line, as written";
    }
  }
  EXPECT_FALSE(fs::exists(dir / "MADE")) << "the file name ran as code";
}

// The negative control has no written equations, and says so.
TEST(EquationNames, TheNegativeControlIsNotWrittenAndSaysSo) {
  const fs::path dir = scratch_dir();
  const ProcessEnd end = run_process(NHS_CLI_PATH, {"equations", "skate", "--formulation", "naive-reduced"},
                                     dir / "nc_out.txt", dir / "nc_err.txt");
  EXPECT_EQ(end.code, 2);
  const std::string err = slurp(dir / "nc_err.txt");
  EXPECT_NE(err.find("negative control"), std::string::npos) << err;
  EXPECT_EQ(err.find("unknown formulation"), std::string::npos) << err;
}

// The derivation budget (docs/equations.md, "Limits"): the size is
// estimated before any derivation, grows with the system (the n-trailer's
// n^2 x nodes), and a system beyond the budget is refused at once with a
// usage error (exit 2) that names the option raising it; the option works
// both ways.
TEST(EquationsBudget, EstimatedFirstRefusedBeyondAndRaisedByTheOption) {
  double previous = 0;
  for (const int n : {3, 7, 12}) {
    const TracedStudy t = find_traced_study("n-trailer-" + std::to_string(n));
    const double size = symbolic::derivation_size(t.build, t.info);
    EXPECT_GT(size, previous) << "n-trailer-" << n;
    EXPECT_LT(size, symbolic::kDefaultDerivationBudget) << "n-trailer-" << n << " is derived by default";
    previous = size;
  }
  const TracedStudy big = find_traced_study("n-trailer-40");
  EXPECT_GT(symbolic::derivation_size(big.build, big.info), symbolic::kDefaultDerivationBudget);

  const fs::path dir = scratch_dir();
  const ProcessEnd refused =
      run_process(NHS_CLI_PATH, {"equations", "n-trailer-40"}, dir / "big_out.txt", dir / "big_err.txt");
  EXPECT_EQ(refused.code, 2);
  const std::string err = slurp(dir / "big_err.txt");
  EXPECT_NE(err.find("derivation size"), std::string::npos) << err;
  EXPECT_NE(err.find("--max-derivation-size"), std::string::npos) << err;
  EXPECT_EQ(slurp(dir / "big_out.txt"), "") << "nothing derived, nothing printed";

  const ProcessEnd lowered = run_process(NHS_CLI_PATH, {"equations", "skate", "--max-derivation-size", "10"},
                                         dir / "low_out.txt", dir / "low_err.txt");
  EXPECT_EQ(lowered.code, 2) << slurp(dir / "low_err.txt");
  const ProcessEnd raised = run_process(NHS_CLI_PATH, {"equations", "n-trailer-3", "--max-derivation-size", "1e9"},
                                        dir / "ok_out.txt", dir / "ok_err.txt");
  EXPECT_EQ(raised.code, 0) << slurp(dir / "ok_err.txt");
  EXPECT_NE(slurp(dir / "ok_out.txt").find("second-kind"), std::string::npos);
}

// --- the fuzz generator ------------------------------------------------------------------

constexpr std::uint64_t kFixedSeeds[] = {20261207ULL};
constexpr int kDefaultCases = 40;

class NameGenerator {
 public:
  explicit NameGenerator(std::uint64_t seed) : rng_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A name: hostile (not an identifier), a legal one with underscores, a
  // derived or reserved one, or a plain one.
  std::string name(const Names& n) {
    static const std::vector<std::string> hostile = {
        "C\\href{javascript:alert(1)}{x}", "a\nimport os", "<script>", "x^2", "{k}", "$k$", "k%", "k#", "k&",
        "\xc3\xa9t\xc3\xa9", "k-1", "1k", "", " ", "k\"", "k\\", "\xff\xfe", "k\r", "\\alpha", "k}", "k.1"};
    static const std::vector<std::string> legal = {"x_1_2", "_", "__", "_k", "k_", "a__b", "alpha_beta",
                                                   "Lambda_1", "q_dot_x", "u_1_2_3", "nabla", "K"};
    switch (pick(4)) {
      case 0: return hostile[static_cast<std::size_t>(pick(static_cast<int>(hostile.size())))];
      case 1: return legal[static_cast<std::size_t>(pick(static_cast<int>(legal.size())))];
      case 2: {
        const std::vector<std::string> derived = {"S", "Qc_" + n.x, n.theta + "_ddot", "lambda_" + n.k,
                                                  "b_" + n.y + "_" + n.x + "_" + n.theta, "b0_" + n.y + "_" + n.theta,
                                                  n.s + "_dot", "pi", "t", "sin"};
        return derived[static_cast<std::size_t>(pick(static_cast<int>(derived.size())))];
      }
      default: return std::string(1, static_cast<char>('a' + pick(26))) + std::to_string(pick(100));
    }
  }

  std::string text() {
    static const std::vector<std::string> texts = {
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))", "`x`", "$x$",
        "\n# h", "\\(x\\)", "a | b", "&amp;", "*x*", "\"q\"", "plain"};
    return texts[static_cast<std::size_t>(pick(static_cast<int>(texts.size())))];
  }

  Names names() {
    Names n;
    n.k = name(n);  // a derived name of the default others
    std::string* slots[] = {&n.x, &n.y, &n.theta, &n.s, &n.omega, &n.m, &n.inertia};
    for (std::string* slot : slots)
      if (pick(4) == 0) *slot = name(n);
    n.title = text() + text();
    n.meaning = text();
    return n;
  }

 private:
  std::mt19937_64 rng_;
};

void fuzz_names(std::uint64_t seed, int cases) {
  const std::string replay = "NHS_FUZZ_SEED=" + std::to_string(seed);
  std::printf("equation-names fuzz: seed %llu, %d cases (%s replays it)\n", static_cast<unsigned long long>(seed),
              cases, replay.c_str());
  NameGenerator gen(seed);
  int accepted = 0, refused = 0;
  for (int k = 0; k < cases; ++k) {
    const Names n = gen.names();
    const std::string label = "case " + std::to_string(k) + " (" + replay + "): constraint '" + n.k + "'";
    const fs::path p = write_system(n, "fuzz_" + std::to_string(k) + ".toml");
    int code = 0;
    try {
      const TracedStudy traced = find_traced_study(p.string());
      (void)traced;
    } catch (...) {
      const ClassifiedError e = classify_error(std::current_exception());
      code = error_class(e.category).exit_code;
      EXPECT_EQ(code, 2) << label << ": " << e.message;
    }
    if (code == 0) {
      ++accepted;
      for (const std::string* name : {&n.x, &n.y, &n.theta, &n.s, &n.omega, &n.m, &n.inertia, &n.k}) {
        EXPECT_FALSE(name->empty()) << label;
        for (char c : *name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_') << label << ": " << *name;
      }
      try {
        check_outputs(p, "nhs equations fuzz.toml PAYLOAD", label);
      } catch (...) {
        const ClassifiedError e = classify_error(std::current_exception());
        EXPECT_EQ(error_class(e.category).exit_code, 2) << label << ": " << e.message;
      }
    } else {
      ++refused;
    }
    if (k % 10 == 0) {  // the tool's exit code agrees, in every format
      const char* formats[] = {"text", "latex", "sympy", "markdown"};
      const fs::path dir = scratch_dir();
      const ProcessEnd end = run_process(NHS_CLI_PATH, {"equations", p.string(), "--format", formats[gen.pick(4)]},
                                         dir / "fuzz_out.txt", dir / "fuzz_err.txt");
      EXPECT_EQ(end.code, code) << label << ": " << slurp(dir / "fuzz_err.txt");
    }
    if (::testing::Test::HasFailure()) break;
  }
  std::printf("equation-names fuzz: %d accepted, %d refused\n", accepted, refused);
  EXPECT_GT(accepted, 0) << replay;
  EXPECT_GT(refused, 0) << replay;
}

TEST(EquationNamesFuzz, FixedSeeds) {
  for (const std::uint64_t seed : kFixedSeeds) fuzz_names(seed, fuzz_cases(kDefaultCases));
}

TEST(EquationNamesFuzzRandomSeed, NewSeed) {
  fuzz_names(fuzz_seed(), fuzz_cases(kDefaultCases));
}

}  // namespace
