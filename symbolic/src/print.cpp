// Implementation of nhs/symbolic/print.hpp.
#include "nhs/symbolic/print.hpp"
#include "nhs/symbolic/time.hpp"

#include "nhs/symbolic/worksheet.hpp"

#include "nhs/errors.hpp"
#include "nhs/expression.hpp"
#include "nhs/formulation.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace nhs::symbolic {
namespace {

using GiNaC::ex;

// The integer power of `var` in the product `term` (0 when absent).
int exponent_in(const ex& term, const ex& var) {
  const auto factor = [&](const ex& f) {
    if (f.is_equal(var)) return 1;
    if (GiNaC::is_a<GiNaC::power>(f) && f.op(0).is_equal(var) && GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
        GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_integer())
      return GiNaC::ex_to<GiNaC::numeric>(f.op(1)).to_int();
    return 0;
  };
  if (!GiNaC::is_a<GiNaC::mul>(term)) return factor(term);
  int k = 0;
  for (std::size_t i = 0; i < term.nops(); ++i) k += factor(term.op(i));
  return k;
}

struct Term {
  std::vector<int> exponents;
  ex coefficient, monomial;
};

// A coefficient larger than kMaxNormalNodes nodes is printed expanded, not
// over one denominator (normal_form, equations.hpp).
constexpr std::size_t kMaxNormalNodes = 2000;

// The largest side printable_equations expands (nodes before expansion):
// 5084 for the 3-trailer's Gibbs-Appell equations, which are written;
// 27801 for its Voronec equations and 234929 for the 5-trailer's, which are
// not (reports/README.md, "Symbolic equations").
constexpr std::size_t kMaxPrintNodes = 10000;

// e as coefficient * monomial terms in vars, sorted: higher total degree
// first, then by the exponents in the order of vars (the earlier variable's
// higher power first); coefficients in normal form, zeros dropped.
std::vector<Term> collected_terms(const ex& e, const std::vector<ex>& vars) {
  const ex x = GiNaC::expand(e);
  std::map<std::vector<int>, ex> groups;
  const auto add_term = [&](const ex& t) {
    std::vector<int> k;
    ex mono = 1;
    for (const ex& v : vars) {
      k.push_back(exponent_in(t, v));
      mono *= GiNaC::pow(v, k.back());
    }
    auto [it, fresh] = groups.emplace(k, 0);
    it->second += t / mono;
  };
  if (GiNaC::is_a<GiNaC::add>(x))
    for (std::size_t i = 0; i < x.nops(); ++i) add_term(x.op(i));
  else
    add_term(x);
  std::vector<Term> terms;
  for (auto& [k, c] : groups) {
    const ex cn = normal_form(c, kMaxNormalNodes);
    if (cn.is_zero()) continue;
    ex mono = 1;
    for (std::size_t i = 0; i < vars.size(); ++i) mono *= GiNaC::pow(vars[i], k[i]);
    terms.push_back({k, cn, mono});
  }
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    int da = 0, db = 0;
    for (int v : a.exponents) da += v;
    for (int v : b.exponents) db += v;
    if (da != db) return da > db;
    return a.exponents > b.exponents;
  });
  return terms;
}

// A printer of its own, not GiNaC's: GiNaC orders the operands of sums
// and products by hashes seeded with the address of type names, which
// moves with address-space randomization, so that its output changed from
// run to run. Here operands are sorted by their printed text.
std::string text_of_constant(const ex& e) {
  std::ostringstream os;
  e.print(GiNaC::print_dflt(os));
  return os.str();
}

std::string text_of_number(const GiNaC::numeric& x) {
  std::ostringstream os;
  x.print(GiNaC::print_dflt(os));
  return os.str();
}

struct Printer {
  bool latex;

  std::string number(const GiNaC::numeric& x) const {
    if (x.is_integer()) return text_of_number(x);
    if (x.is_rational()) {
      const std::string p = text_of_number(x.numer()), q = text_of_number(x.denom());
      return latex ? "\\frac{" + p + "}{" + q + "}" : p + "/" + q;
    }
    std::ostringstream os;
    os << x;
    return os.str();
  }

  std::string symbol(const GiNaC::symbol& x) const {
    if (!latex) return x.get_name();
    std::ostringstream os;
    x.print(GiNaC::print_latex(os));
    return os.str();
  }

  std::string function(const ex& e) const {
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    std::vector<std::string> args;
    for (std::size_t i = 0; i < e.nops(); ++i) args.push_back(print(e.op(i)));
    std::string a;
    for (const auto& x : args) a += (a.empty() ? "" : ", ") + x;
    if (!latex) return name + "(" + a + ")";
    if (name == "abs") return "\\left|" + a + "\\right|";
    static const std::set<std::string> known = {"sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
                                                "cosh", "tanh", "exp", "log"};
    const std::string tex_name = name == "asin" ? "arcsin" : name == "acos" ? "arccos" : name == "atan" ? "arctan" : name;
    return (known.count(tex_name) ? "\\" + tex_name : "\\operatorname{" + tex_name + "}") + "\\left(" + a + "\\right)";
  }

  // base^exponent; a factor of a product with a positive exponent.
  std::string power(const ex& base, const GiNaC::numeric& k) const {
    const bool atom = GiNaC::is_a<GiNaC::symbol>(base) || GiNaC::is_a<GiNaC::function>(base) ||
                      GiNaC::is_a<GiNaC::constant>(base) ||
                      (GiNaC::is_a<GiNaC::numeric>(base) && GiNaC::ex_to<GiNaC::numeric>(base).is_nonneg_integer());
    if (k.is_equal(1)) return factor(base);
    const std::string b = print(base);
    if (k.is_equal(GiNaC::numeric(1, 2))) return latex ? "\\sqrt{" + b + "}" : "sqrt(" + b + ")";
    const std::string pb = atom ? b : (latex ? "\\left(" + b + "\\right)" : "(" + b + ")");
    if (latex) return "{" + pb + "}^{" + number(k) + "}";
    return pb + "^" + (k.is_integer() && k.is_positive() ? text_of_number(k) : "(" + number(k) + ")");
  }

  // Whether the sum s's first term in printed order (by the text of its
  // absolute value) is negative: such a factor is printed negated, its sign
  // moved to the product's coefficient, so that -(a - b) and (b - a) print
  // alike whichever form GiNaC's internal order produced.
  static bool leads_negative(const ex& s) {
    std::string first;
    bool negative = false;
    for (std::size_t i = 0; i < s.nops(); ++i) {
      std::string t = Printer{false}.print(s.op(i));
      const bool neg = !t.empty() && t[0] == '-';
      if (neg) t = t.substr(1);
      if (i == 0 || t < first) first = t, negative = neg;
    }
    return negative;
  }

  std::string product(const ex& e) const {
    // Factors with positive and negative exponents, each sorted by text.
    std::vector<std::string> up, down;
    GiNaC::numeric c = 1;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      ex f = e.op(i);
      if (GiNaC::is_a<GiNaC::numeric>(f)) {
        c = c * GiNaC::ex_to<GiNaC::numeric>(f);
        continue;
      }
      ex base = f;
      GiNaC::numeric k = 1;
      if (GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
          GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_integer()) {
        base = f.op(0);
        k = GiNaC::ex_to<GiNaC::numeric>(f.op(1));
      }
      if (GiNaC::is_a<GiNaC::add>(base) && leads_negative(base)) {
        base = GiNaC::expand(-base);
        if (k.is_odd()) c = -c;
      }
      if (k.is_negative()) {
        down.push_back(power(base, -k));
        continue;
      }
      if (GiNaC::is_a<GiNaC::power>(f) && !(GiNaC::is_a<GiNaC::numeric>(f.op(1)) &&
                                            GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_integer())) {
        up.push_back(print(f));  // a non-integer power: printed as it is
        continue;
      }
      up.push_back(power(base, k));
    }
    std::sort(up.begin(), up.end());
    std::sort(down.begin(), down.end());
    const std::string sign = c.is_negative() ? "-" : "";
    const GiNaC::numeric a = c.is_negative() ? GiNaC::numeric(-c) : c;
    const std::string sep = latex ? " " : "*";
    const auto join = [&](const std::vector<std::string>& v) {
      std::string t;
      for (const auto& x : v) t += (t.empty() ? "" : sep) + x;
      return t;
    };
    if (latex) {
      const std::string num = join(up), den = join(down);
      const std::string p = text_of_number(a.numer()), q = text_of_number(a.denom());
      const std::string top = (p == "1" && !num.empty()) ? num : (num.empty() ? p : p + " " + num);
      const std::string bottom = (q == "1") ? den : (den.empty() ? q : q + " " + den);
      return sign + (bottom.empty() ? top : "\\frac{" + top + "}{" + bottom + "}");
    }
    std::string t = a.is_equal(1) && !up.empty() ? join(up) : number(a) + (up.empty() ? "" : "*" + join(up));
    if (!down.empty()) t += "/" + (down.size() == 1 ? down[0] : "(" + join(down) + ")");
    return sign + t;
  }

  // A factor of a product: a sum in parentheses.
  std::string factor(const ex& f) const {
    if (GiNaC::is_a<GiNaC::add>(f)) return latex ? "\\left(" + print(f) + "\\right)" : "(" + print(f) + ")";
    return print(f);
  }

  std::string sum(const ex& e) const {
    std::vector<std::pair<bool, std::string>> terms;  // (negative, text of |term|)
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const std::string t = print(e.op(i));
      const bool negative = !t.empty() && t[0] == '-';
      terms.emplace_back(negative, negative ? t.substr(1) : t);
    }
    std::sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? !x.first : x.second < y.second;  // positive terms first
    });
    std::string t;
    for (const auto& [neg, text] : terms) t += t.empty() ? (neg ? "-" : "") + text : (neg ? " - " : " + ") + text;
    return t;
  }

  std::string print(const ex& e) const {
    if (GiNaC::is_a<GiNaC::numeric>(e)) return number(GiNaC::ex_to<GiNaC::numeric>(e));
    if (GiNaC::is_a<GiNaC::symbol>(e)) return symbol(GiNaC::ex_to<GiNaC::symbol>(e));
    if (GiNaC::is_a<GiNaC::constant>(e)) return e.is_equal(GiNaC::Pi) ? (latex ? "\\pi" : "pi") : text_of_constant(e);
    if (GiNaC::is_a<GiNaC::function>(e)) return function(e);
    if (GiNaC::is_a<GiNaC::add>(e)) return sum(e);
    if (GiNaC::is_a<GiNaC::mul>(e)) return product(e);
    if (GiNaC::is_a<GiNaC::power>(e)) {
      if (GiNaC::is_a<GiNaC::numeric>(e.op(1))) {
        const GiNaC::numeric k = GiNaC::ex_to<GiNaC::numeric>(e.op(1));
        if (!k.is_negative()) return power(e.op(0), k);
        const std::string d = power(e.op(0), -k);  // 1/base^|k|
        return latex ? "\\frac{1}{" + d + "}" : "1/" + d;
      }
      const std::string b = factor(e.op(0)), x = print(e.op(1));
      return latex ? "{" + b + "}^{" + x + "}" : "(" + b + ")^(" + x + ")";
    }
    throw UsageError("equations: cannot print an expression of GiNaC type " +
                     std::string(GiNaC::ex_to<GiNaC::basic>(e).class_name()));
  }
};

std::string print_one(const ex& e, bool latex) { return Printer{latex}.print(e); }


// coefficient * monomial with the coefficient first: "m*x_ddot",
// "-(a+b)*x_dot" (LaTeX: juxtaposed, "\\left(a+b\\right) \\dot{x}").
std::string print_term(const Term& term, bool latex) {
  if (term.monomial.is_equal(1)) return print_one(term.coefficient, latex);
  const std::string mono = print_one(term.monomial, latex);
  if (term.coefficient.is_equal(1)) return mono;
  if (term.coefficient.is_equal(-1)) return "-" + mono;
  std::string cs = print_one(term.coefficient, latex);
  if (GiNaC::is_a<GiNaC::add>(term.coefficient)) return (latex ? "\\left(" + cs + "\\right)" : "(" + cs + ")") + (latex ? " " : "*") + mono;
  const bool negative = !cs.empty() && cs[0] == '-';
  return (negative ? "-" : "") + (negative ? cs.substr(1) : cs) + (latex ? " " : "*") + mono;
}

// The terms joined with " + " and " - ".
std::string sum_of_terms(const std::vector<Term>& terms, bool latex) {
  if (terms.empty()) return "0";
  std::string t;
  for (const Term& term : terms) {
    std::string p = print_term(term, latex);
    if (t.empty())
      t = p;
    else if (!p.empty() && p[0] == '-')
      t += " - " + p.substr(1);
    else
      t += " + " + p;
  }
  return t;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string t;
  for (const auto& l : lines) t += l + "\n";
  return t;
}

// Every symbol name in the printed sides of fs, with the definitions' names.
std::set<std::string> names_in(const std::vector<FormulationEquations>& fs) {
  std::set<std::string> names;
  const auto scan = [&](const ex& e) {
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
      if (GiNaC::is_a<GiNaC::symbol>(*it)) names.insert(GiNaC::ex_to<GiNaC::symbol>(*it).get_name());
  };
  for (const auto& f : fs) {
    for (const ex& x : f.unknowns) scan(x);
    for (const auto& d : f.definitions) {
      scan(d.symbol);
      scan(d.value);
    }
    for (const auto& q : f.equations) {
      scan(q.lhs);
      scan(q.rhs);
    }
  }
  names.erase("pi");
  return names;
}

// The number of bytes of the valid UTF-8 sequence at s[i], 0 when s[i]
// does not start one.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  return len;
}

std::string fmt_hex(const char* prefix, unsigned char c) {
  static const char* digits = "0123456789abcdef";
  return std::string(prefix) + digits[c >> 4] + digits[c & 15];
}

std::string text_of(const FormulationEquations& f, bool latex) {
  std::vector<std::string> lines;
  for (const Definition& d : f.definitions)
    lines.push_back(print_one(d.symbol, latex) + (latex ? " &:= " : " := ") +
                    print_collected(d.value, f.collect_in, latex) + (latex ? " \\\\" : ""));
  for (const Equation& q : f.equations)
    lines.push_back(print_collected(q.lhs, f.collect_in, latex) + (latex ? " &= " : " = ") +
                    print_collected(q.rhs, f.collect_in, latex) + (latex ? " \\\\" : ""));
  return join_lines(lines);
}

}  // namespace

std::string latex_equations(const FormulationEquations& f) {
  std::string t = "\\begin{aligned}\n" + text_of(f, true) + "\\end{aligned}\n";
  if (f.augmented_matrix) {
    const GiNaC::matrix& K = *f.augmented_matrix;
    std::string rows;
    for (unsigned i = 0; i < K.rows(); ++i) {
      for (unsigned j = 0; j < K.cols(); ++j)
        rows += (j ? " & " : "") + print_one(GiNaC::normal(K(i, j)), true);
      rows += i + 1 < K.rows() ? " \\\\\n" : "\n";
    }
    std::string unknowns;
    for (std::size_t i = 0; i < f.unknowns.size(); ++i)
      unknowns += (i ? " \\\\ " : "") + print_one(f.unknowns[i], true);
    t += "\\text{augmented matrix: } K = \\begin{pmatrix}\n" + rows + "\\end{pmatrix},\\quad K \\begin{pmatrix} " +
         unknowns + " \\end{pmatrix} = \\text{the right-hand sides above}\n";
  }
  return t;
}

namespace {

// s as a Python string literal: '"' and '\\' escaped, control characters
// as \\xHH, a byte that is not part of valid UTF-8 as \\udcHH (Python's
// surrogateescape of an undecodable byte in a file name): nothing in s can
// end the literal or the line.
std::string python_string(const std::string& s) {
  std::string t = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = utf8_length(s, i);
    if (c == '"' || c == '\\') t += std::string("\\") + s[i];
    else if (c < 0x20 || c == 0x7f) t += fmt_hex("\\x", c);
    else if (len == 0) t += fmt_hex("\\udc", c);
    else t += s.substr(i, len);
    i += len == 0 ? 1 : len;
  }
  return t + "\"";
}

std::string sympy_module(const std::vector<FormulationEquations>& fs, const std::string& command) {
  std::string t = "# Generated by nhs (docs/equations.md, \"Formats\"), by the command line in `command`.\n";
  t += "command = " + python_string(command) + "\n";
  t += "from sympy import Eq, Symbol\n"
       "from sympy.parsing.sympy_parser import convert_xor, parse_expr, standard_transformations\n\n"
       "_transformations = standard_transformations + (convert_xor,)\n";
  t += "symbols = {name: Symbol(name, real=True) for name in (";
  for (const auto& n : names_in(fs)) t += python_string(n) + ", ";
  t += ")}\n\n\ndef _parse(text):\n    return parse_expr(text, local_dict=symbols, transformations=_transformations)\n\n\n";
  t += "titles = {}\ndefinitions = {}\nequations = {}\nunknowns = {}\n";
  for (const auto& f : fs) {
    const PrintedEquations p = printed_equations(f);
    const std::string F = python_string(f.formulation);
    t += "\ntitles[" + F + "] = " + python_string(f.title) + "\n";
    t += "definitions[" + F + "] = [\n";
    for (const auto& [name, value] : p.definitions)
      t += "    (symbols[" + python_string(name) + "], _parse(" + python_string(value) + ")),\n";
    t += "]\nequations[" + F + "] = [\n";
    for (const auto& [lhs, rhs] : p.equations)
      t += "    Eq(_parse(" + python_string(lhs) + "), _parse(" + python_string(rhs) + ")),\n";
    t += "]\nunknowns[" + F + "] = [";
    for (const auto& x : p.unknowns) t += "symbols[" + python_string(x) + "], ";
    t += "]\n";
  }
  return t;
}

}  // namespace

PrintedEquations printed_equations(const FormulationEquations& f) {
  PrintedEquations p;
  const std::set<std::string> names = names_in({f});
  p.symbols.assign(names.begin(), names.end());
  for (const Definition& d : f.definitions)
    p.definitions.emplace_back(print_one(d.symbol, false), print_collected(d.value, f.collect_in, false));
  for (const Equation& q : f.equations)
    p.equations.emplace_back(print_collected(q.lhs, f.collect_in, false), print_collected(q.rhs, f.collect_in, false));
  for (const ex& x : f.unknowns) p.unknowns.push_back(print_one(x, false));
  return p;
}

EquationFormat equation_format(const std::string& name) {
  if (name == "text") return EquationFormat::text;
  if (name == "latex") return EquationFormat::latex;
  if (name == "sympy") return EquationFormat::sympy;
  if (name == "markdown") return EquationFormat::markdown;
  throw UsageError("equations: unknown format '" + name + "' (known: text, latex, sympy, markdown)");
}

std::string print_collected(const ex& e, const std::vector<ex>& vars, bool latex) {
  // A side whose common denominator involves the collected variables (the
  // bipendulum's first-kind zdot, whose denominator is a polynomial in z)
  // is written as one fraction N / D, each collected, instead of every
  // term over the same D.
  if (!vars.empty() && size_of(e, kMaxNormalNodes) <= kMaxNormalNodes) {
    const ex f = normal_form(e, kMaxNormalNodes);
    const ex nd = GiNaC::numer_denom(f);
    const ex D = nd.op(1);
    const bool in_vars = std::any_of(vars.begin(), vars.end(), [&](const ex& v) { return D.has(v); });
    if (in_vars) {
      const std::string N = sum_of_terms(collected_terms(nd.op(0), vars), latex),
                        d = sum_of_terms(collected_terms(D, vars), latex);
      return latex ? "\\frac{" + N + "}{" + d + "}" : "(" + N + ")/(" + d + ")";
    }
  }
  return sum_of_terms(collected_terms(e, vars), latex);
}

FormulationEquations printable_equations(const SymbolicSystem& s, const std::string& formulation) {
  FormulationEquations f = in_time_t(s, equations_of(s, formulation));  // a rheonomic system in t
  // Sizes before expansion first: expanding a side of some 10^5 nodes (the
  // 5-trailer's Voronec equations) takes minutes and gives pages.
  std::size_t largest = 0;
  const auto measure = [&](const ex& e) { largest = std::max(largest, size_of(e, kMaxPrintNodes)); };
  for (const Definition& d : f.definitions) measure(d.value);
  for (const Equation& q : f.equations) {
    measure(q.lhs);
    measure(q.rhs);
  }
  if (largest > kMaxPrintNodes)
    throw NotApplicable("formulation '" + formulation + "' is not written for '" + s.info.name +
                        "': its equations have more than " + std::to_string(kMaxPrintNodes) +
                        " GiNaC nodes before expansion (docs/equations.md, \"Limits\")");
  std::size_t longest = 0;
  for (const Definition& d : f.definitions) longest = std::max(longest, print_collected(d.value, f.collect_in, false).size());
  for (const Equation& q : f.equations)
    longest = std::max({longest, print_collected(q.lhs, f.collect_in, false).size(),
                        print_collected(q.rhs, f.collect_in, false).size()});
  if (longest > expression::kMaxExpressionLength)
    throw NotApplicable("formulation '" + formulation + "' is not written for '" + s.info.name + "': a side is " +
                        std::to_string(longest) + " characters long, more than the " +
                        std::to_string(expression::kMaxExpressionLength) +
                        " the system-file parser reads back (docs/equations.md, \"Limits\")");
  return f;
}

std::vector<FormulationEquations> printable_formulations(
    const SymbolicSystem& s, const std::vector<std::string>& names, std::vector<std::string>* not_written,
    const std::function<void(const std::string& formulation, int k, int count)>& starting) {
  const auto& known = symbolic_formulations();
  for (const auto& f : names)
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      for (const auto& g : formulations<double>())
        if (g->name() == f && g->is_negative_control())
          throw UsageError("formulation: '" + f + "' is a negative control (a deliberately wrong procedure, " +
                           "docs/errata.md), whose equations nhs equations does not write");
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("formulation: unknown formulation '" + f + "' (known: " + list + ")");
    }
  std::vector<FormulationEquations> written;
  const std::vector<std::string>& wanted = names.empty() ? known : names;
  for (const auto& f : wanted) {
    if (starting) starting(f, static_cast<int>(&f - wanted.data()), static_cast<int>(wanted.size()));
    try {
      written.push_back(printable_equations(s, f));
    } catch (const NotApplicable& e) {
      if (!names.empty()) throw;
      if (not_written) not_written->push_back(f + ": " + e.what());
    }
  }
  return written;
}

std::string print_equations(const SymbolicSystem& s, const std::vector<FormulationEquations>& fs,
                            EquationFormat format, const std::string& command) {
  std::string t;
  switch (format) {
    case EquationFormat::text:
      for (const auto& f : fs) t += "# " + f.formulation + "\n" + text_of(f, false);
      return t;
    case EquationFormat::latex:
      t = "% " + one_line(command) + "\n";
      for (const auto& f : fs) t += "% " + f.formulation + ": " + f.title + "\n" + latex_equations(f);
      return t;
    case EquationFormat::sympy: return sympy_module(fs, command);
    case EquationFormat::markdown: return to_markdown(equations_document(s, fs, command));
  }
  return t;
}

}  // namespace nhs::symbolic
