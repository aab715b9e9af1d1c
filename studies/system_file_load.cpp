// Reading and checking system files (nhs/studies/system_file.hpp): TOML by
// toml++ (Debian libtomlplusplus-dev), expressions by nhs/expression.hpp,
// the symbolic checks (linearity of each constraint in qdot, holonomic
// "constraints", constants that divide by zero) by GiNaC (Debian
// libginac-dev); the kinetic energy of [[bodies]] given without [dynamics]
// kinetic_energy and the velocity forms of [holonomic] by the expression
// graph's forward differentiation. docs/system-files.md says why these
// libraries.
#include "nhs/studies/system_file.hpp"
#include "toml_text.hpp"

#include "nhs/codegen/differentiate.hpp"
#include "nhs/formulation.hpp"

#include <ginac/ginac.h>


#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace nhs {
namespace {

using detail::out_of_range;
using detail::unparseable_non_ascii;

using expression::Ast;
using expression::Bindings;
using expression::Kind;
using expression::Program;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The entries of a TOML table in the order of the file: toml++ keeps a
// table sorted by key, but the order of parameters, constraints and
// invariants is the file's (as a C++ description lists them).
struct Entry {
  const toml::key& first;
  const toml::node& second;
};
std::vector<Entry> in_file_order(const toml::table& t) {
  std::vector<std::pair<const toml::key*, const toml::node*>> sorted;
  for (auto&& [k, v] : t) sorted.emplace_back(&k, &v);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    const auto& pa = a.first->source().begin;
    const auto& pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  std::vector<Entry> out;
  out.reserve(sorted.size());
  for (const auto& [k, v] : sorted) out.push_back({*k, *v});
  return out;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// True when the expression text names t: an identifier token "t" (numbers,
// with their exponents, and longer names skipped). A text that does not
// parse is the parser's to report later; here it only has to be scanned.
bool names_time(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isdigit(c) || c == '.') {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
        const char e = text[i++];
        if ((e == 'e' || e == 'E') && i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      }
    } else if (std::isalpha(c) || c == '_') {
      const std::size_t start = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
      if (i - start == 1 && text[start] == 't') return true;
    } else {
      ++i;
    }
  }
  return false;
}

// True when an expression anywhere under `n` (tables, arrays) names t; a
// `meaning` is prose, not an expression.
bool names_time(const toml::node& n) {
  if (const auto* s = n.as_string()) return names_time(s->get());
  if (const auto* a = n.as_array())
    return std::any_of(a->begin(), a->end(), [](const toml::node& e) { return names_time(e); });
  if (const auto* t = n.as_table())
    return std::any_of(t->begin(), t->end(),
                       [](const auto& kv) { return kv.first.str() != "meaning" && names_time(kv.second); });
  return false;
}

// The system's own expressions name t (not [initial], [[exact]] or
// [[steady]]): the system is rheonomic, and the loader adds the clock
// coordinate (docs/affine-constraints.md A5).
bool system_names_time(const toml::table& root) {
  for (const char* key : {"dynamics", "constraints", "holonomic", "nonideal", "parametrization", "chart", "bodies",
                          "invariants", "singular"})
    if (const toml::node* n = root.get(key); n && names_time(*n)) return true;
  return false;
}

// The clock coordinate that t becomes, its velocity and its constraint.
const std::string kClock = "time";
const std::string kClockConstraint = "clock";

// --- GiNaC: symbolic checks ---------------------------------------------------

// Every name of a file is a real quantity: real symbols, so that GiNaC
// simplifies conjugate(x) to x (d|x|/dx = x/|x|, not (x + conjugate(x))/(2|x|)).
struct Symbolic {
  std::map<std::string, GiNaC::realsymbol> symbols;
  const GiNaC::realsymbol& symbol(const std::string& name) {
    auto it = symbols.find(name);
    if (it == symbols.end()) it = symbols.emplace(name, GiNaC::realsymbol(name)).first;
    return it->second;
  }
};

// A decimal literal as an exact GiNaC rational; nullopt beyond |exponent| 10000.
std::optional<GiNaC::numeric> exact_number(const std::string& text) {
  std::string digits;
  long long exponent = 0;
  std::size_t i = 0;
  bool point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      point = true;
      continue;
    }
    digits += text[i];
    if (point) --exponent;
  }
  if (i < text.size()) {
    bool negative = false;
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) negative = text[j++] == '-';
    long long e = 0;
    for (; j < text.size(); ++j) {
      e = e * 10 + (text[j] - '0');
      if (e > 100000) return std::nullopt;
    }
    exponent += negative ? -e : e;
  }
  if (exponent > 10000 || exponent < -10000) return std::nullopt;
  const auto nz = digits.find_first_not_of('0');
  if (nz == std::string::npos) return GiNaC::numeric(0);
  GiNaC::numeric value(digits.substr(nz).c_str());
  return value * GiNaC::numeric(10).power(GiNaC::numeric(static_cast<long>(exponent)));
}


// base^exponent. GiNaC evaluates a power of rationals exactly (also the
// numeric factor of a product base): "9^9^9" took 20 s and 800 MB,
// "2^1e10000" did not end. Refused when |exponent| times the bit length of
// the largest rational in the base (other than 0 and +-1) exceeds 2^20.
GiNaC::ex checked_pow(const GiNaC::ex& base, const GiNaC::ex& exponent, std::size_t position) {
  using namespace GiNaC;
  if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_rational()) {
    long bits = 0;
    for (auto it = base.preorder_begin(); it != base.preorder_end(); ++it) {
      if (!is_a<numeric>(*it) || !ex_to<numeric>(*it).is_rational()) continue;
      const numeric& v = ex_to<numeric>(*it);
      const numeric num = abs(v.numer()), den = v.denom();
      if (num > 1) bits = std::max<long>(bits, num.int_length());
      if (den > 1) bits = std::max<long>(bits, den.int_length());
    }
    if (bits > 0 && abs(ex_to<numeric>(exponent)).to_double() * static_cast<double>(bits) > 1048576.0)
      throw expression::ExpressionError(position, "power too large to evaluate exactly (more than 2^20 bits)");
  }
  return pow(base, exponent);
}

// A power with a numeric exponent whose numerator or denominator exceeds 64
// in magnitude: expand() ("(y_dot + x)^100000") or normal()'s gcd
// ("acos(x_dot)^1e-10000") would not end. Likewise a numeric term of such
// size in an exponent that is a sum: expand() splits b^(x + 8e8) into
// b^x * b^8e8 and evaluates the latter ("pow(5^3, x_dot + 8e8)" did not end).
bool has_large_power(const GiNaC::ex& e) {
  using namespace GiNaC;
  const auto large = [](const ex& k) {
    if (!is_a<numeric>(k)) return false;
    const numeric& v = ex_to<numeric>(k);
    return !v.is_rational() || abs(v.numer()) > 64 || v.denom() > 64;
  };
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (!is_a<power>(*it)) continue;
    const ex& k = it->op(1);
    if (large(k)) return true;
    if (is_a<add>(k))
      for (std::size_t i = 0; i < k.nops(); ++i)
        if (large(k.op(i))) return true;
  }
  return false;
}

// The GiNaC text of e, cut to 80 characters (for messages).
std::string short_text(const GiNaC::ex& e) {
  std::ostringstream out;
  out << e;
  std::string s = out.str();
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

// True when e contains one of `velocities`.
bool has_any(const GiNaC::ex& e, const std::vector<GiNaC::ex>& velocities) {
  return std::any_of(velocities.begin(), velocities.end(), [&](const GiNaC::ex& v) { return e.has(v); });
}

// The degree k of positive homogeneity of e in `velocities`, read off its
// structure: e(q, lambda qdot) = lambda^k e(q, qdot) for every lambda > 0,
// with k free of the velocities (a number, or an expression in q and the
// parameters). A velocity has degree 1, an expression without velocities 0;
// the terms of a sum must have one degree, a product adds its factors'
// degrees, b^p (p without velocities) has p times b's degree, |b| b's
// degree, atan2(y, x) degree 0 when y and x have one degree, and another
// function degree 0 when its arguments have. nullopt where the structure
// shows no degree (terms of different degrees, sin(x_dot), ...), which
// does not prove that there is none.
std::optional<GiNaC::ex> velocity_degree(const GiNaC::ex& e, const std::vector<GiNaC::ex>& velocities) {
  using namespace GiNaC;
  if (!has_any(e, velocities)) return ex(0);
  if (is_a<symbol>(e)) return ex(1);
  const auto same = [](const ex& a, const ex& b) {
    const ex d = a - b;
    return d.is_zero() || (!has_large_power(d) && d.normal().is_zero());
  };
  if (is_a<add>(e)) {
    std::optional<ex> k;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const auto d = velocity_degree(e.op(i), velocities);
      if (!d || (k && !same(*k, *d))) return std::nullopt;
      if (!k) k = d;
    }
    return k;
  }
  if (is_a<mul>(e)) {
    ex k = 0;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const auto d = velocity_degree(e.op(i), velocities);
      if (!d) return std::nullopt;
      k += *d;
    }
    return k;
  }
  if (is_a<power>(e)) {
    const auto d = velocity_degree(e.op(0), velocities);
    if (!d) return std::nullopt;
    if (!has_any(e.op(1), velocities)) return *d * e.op(1);
    // A velocity in the exponent: only b^p with b and p of degree 0.
    const auto p = velocity_degree(e.op(1), velocities);
    if (d->is_zero() && p && p->is_zero()) return ex(0);
    return std::nullopt;
  }
  if (is_a<function>(e)) {
    const std::string name = ex_to<function>(e).get_name();
    std::vector<ex> degrees;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      const auto d = velocity_degree(e.op(i), velocities);
      if (!d) return std::nullopt;
      degrees.push_back(*d);
    }
    if (name == "abs" && degrees.size() == 1) return degrees[0];
    if (name == "atan2" && degrees.size() == 2 && same(degrees[0], degrees[1])) return ex(0);
    if (std::all_of(degrees.begin(), degrees.end(), [](const ex& d) { return d.is_zero(); })) return ex(0);
    return std::nullopt;
  }
  return std::nullopt;
}

// Whether C is homogeneous in `velocities` in the sense of Euler's theorem:
// sum_i qdot^i dC/dqdot^i = k C with k free of the velocities, so that the
// reaction of the constraint C = 0 (Chetaev: lambda dC/dqdot) does no work
// on C (its power is lambda k C). True when velocity_degree finds a degree,
// or when normal() of (sum_i qdot^i dC/dqdot^i) / C has no velocity (or the
// sum is 0); false when neither proves it (GiNaC's simplification may miss
// an identity: then energy is not checked, never wrongly checked).
bool homogeneous_in(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities) {
  using namespace GiNaC;
  try {
    if (velocity_degree(C, velocities)) return true;
    ex euler = 0;
    for (const ex& v : velocities) euler += v * C.diff(ex_to<symbol>(v));
    // A large power is left undecided (normal() would not end).
    if (has_large_power(euler) || has_large_power(C)) return false;
    if (euler.is_zero() || euler.normal().is_zero()) return true;
    if (C.normal().is_zero()) return false;
    return !has_any((euler / C).normal(), velocities);
  } catch (const std::exception&) {
    return false;
  }
}

// Whether C is linear in `velocities` (symbols): every first derivative
// dC/dqdot^i is free of the velocities (as GiNaC gives it, expanded, or
// brought to normal form). Second derivatives are not enough: sqrt(x_dot^2)
// = |x_dot| has d2/dx_dot2 = -(x_dot^2)^(-1/2) + x_dot^2 (x_dot^2)^(-3/2) =
// 0 wherever it is defined, but its first derivative x_dot/sqrt(x_dot^2) is
// the sign of x_dot: it is not A(q) qdot. A large power is taken as
// non-linear without expanding it (its expansion would not end); so is a
// derivative GiNaC cannot take, or an identity its simplification misses.
bool linear_in(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities) {
  using namespace GiNaC;
  for (const ex& v : velocities) {
    try {
      const ex d = C.diff(ex_to<symbol>(v));
      if (!has_any(d, velocities)) continue;
      if (has_large_power(d) || (has_any(d.expand(), velocities) && has_any(d.normal(), velocities))) return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

// C at q_dot = 0 when that is not 0 (the term of C free of the velocities:
// b(q) of an affine constraint A(q) q_dot + b(q)); nullopt when it is 0, or
// when GiNaC cannot decide it (a large power, an undefined value: left to
// the numerical checks).
std::optional<GiNaC::ex> velocity_free_term(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities) {
  using namespace GiNaC;
  try {
    exmap zero;
    for (const ex& v : velocities) zero[v] = 0;
    const ex b = C.subs(zero);
    if (b.is_zero() || has_large_power(b) || b.normal().is_zero()) return std::nullopt;
    return b;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// True when the syntax tree names nothing but the constant pi.
bool names_only_pi(const Ast& a) {
  const auto names = expression::names_in(a);
  return std::all_of(names.begin(), names.end(), [](const std::string& n) { return n == "pi"; });
}

// The value of a constant sub-expression: GiNaC's exact value when its
// form `e` is a rational number (1 - 0.1*10 is 0, as it is in double; also
// "x - x - 1"), else the syntax tree `a` evaluated as the program evaluates
// it, in mp100 (each literal correctly rounded, an overflow +-inf), when
// `a` names nothing but pi (sqrt(3 - pi)). nullopt for what depends on a
// name, or a NaN. (GiNaC's evalf is not used: it gave 1 for exp(1e300).)
std::optional<mp100> constant_value(const Ast& a, const GiNaC::ex& e) {
  if (GiNaC::is_a<GiNaC::numeric>(e) && GiNaC::ex_to<GiNaC::numeric>(e).is_rational()) {
    const GiNaC::numeric& r = GiNaC::ex_to<GiNaC::numeric>(e);
    std::ostringstream num, den;
    num << r.numer();
    den << r.denom();
    return mp100(num.str()) / mp100(den.str());
  }
  if (!names_only_pi(a)) return std::nullopt;
  Program p;
  p.add(a, Bindings{});
  mp100 v;
  expression::evaluate(p, expression::constants_of<mp100>(p), Params<mp100>(std::vector<mp100>{}), {}, &v);
  if (boost::multiprecision::isnan(v)) return std::nullopt;
  return v;
}

// A value for messages: 17 significant digits, or "inf", "-inf".
std::string value_text(const mp100& v) {
  if (boost::multiprecision::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v.str(17, std::ios_base::fmtflags(0));
}

// A constant argument (constant_value; `arg` is GiNaC's form of it) of a
// function that is defined only on part of the real line (sqrt, log, asin,
// acos, acosh, atanh) outside that part: the program would compute NaN or
// infinity in every precision. Throws ExpressionError at the call with the
// argument's value; arguments that depend on a name (q, qdot, a parameter:
// --param may change them) are left alone.
void check_constant_argument(const Ast& call, const GiNaC::ex& arg) {
  static const std::set<std::string> restricted = {"sqrt", "log", "asin", "acos", "acosh", "atanh"};
  const std::string& f = call.text;
  if (!restricted.count(f)) return;
  const auto v = constant_value(call.args[0], arg);
  if (!v) return;
  const auto refuse = [&](const std::string& where, const std::string& consequence) {
    throw expression::ExpressionError(call.position, f + " of a constant " + where + " (the argument is " +
                                                         value_text(*v) + "): " + consequence);
  };
  if ((f == "sqrt" || f == "log") && *v < 0) refuse("below 0", "not a real number");
  if (f == "log" && *v == 0) refuse("equal to 0", "a pole (-infinity)");
  if ((f == "asin" || f == "acos") && (*v < -1 || *v > 1)) refuse("outside [-1, 1]", "not a real number");
  if (f == "acosh" && *v < 1) refuse("below 1", "not a real number");
  if (f == "atanh" && (*v == 1 || *v == -1)) refuse("equal to 1 or -1", "a pole (infinite)");
  if (f == "atanh" && (*v < -1 || *v > 1)) refuse("outside (-1, 1)", "not a real number");
}

// `node`, base^exponent (the operator or pow(x, y), with GiNaC's forms of
// both), where the base is a constant (constant_value) and the program's
// evaluation (expression::power_evaluation) is not real or not finite: 0 to a negative integer power; a negative base to a half-integer
// power (sqrt(base)^k); a negative base to any other exponent, constant or
// not (exp(y log base) is NaN); 0 to a constant exponent <= 0 that is not a
// literal integer (exp(y log 0)). Throws ExpressionError at the operator.
void check_constant_power(const Ast& node, const GiNaC::ex& base, const GiNaC::ex& exponent) {
  const Ast& exponent_ast = node.args[1];
  const auto b = constant_value(node.args[0], base);
  if (!b) return;
  int k = 0;
  const auto how = expression::power_evaluation(exponent_ast, &k);
  const auto refuse = [&](const std::string& what, const std::string& consequence) {
    throw expression::ExpressionError(node.position, what + " (the base is " + value_text(*b) +
                                                         ", the exponent " + short_text(exponent) +
                                                         "): " + consequence);
  };
  switch (how) {
    case expression::PowerEvaluation::Integer:
      if (*b == 0 && k < 0) refuse("0 to a negative power", "division by zero");
      break;
    case expression::PowerEvaluation::HalfInteger:
      if (*b < 0) refuse("a negative constant to a half-integer power", "not a real number");
      if (*b == 0 && k < 0) refuse("0 to a negative power", "division by zero");
      break;
    case expression::PowerEvaluation::ExpLog:
      if (*b < 0)
        refuse("a negative constant to a power that is not a literal integer or half-integer",
               "not a real number (such a power is computed as exp(y log x), defined for x > 0)");
      if (*b == 0) {
        const auto e = constant_value(exponent_ast, exponent);
        if (e && !(*e > 0))
          refuse("0 to a power <= 0 that is not a literal integer",
                 "not a finite real number (such a power is computed as exp(y log x))");
      }
      break;
  }
}

// The Ast as a GiNaC expression; ExpressionError at the node where GiNaC's
// exact evaluation fails (a division by zero, log(0), a pole), and at a
// function or power of a constant whose value is not a finite real number
// (check_constant_argument, check_constant_power).
// One node of to_ginac, its operands already converted (args).
GiNaC::ex ginac_node(const Ast& a, const std::vector<GiNaC::ex>& args, Symbolic& sym) {
  using namespace GiNaC;
  try {
    switch (a.kind) {
      case Kind::Number: {
        const auto v = exact_number(a.text);
        if (!v) throw expression::ExpressionError(a.position, "number '" + a.text + "' out of range");
        if (const auto r = out_of_range(a.text))
          throw expression::ExpressionError(a.position, r->message + " in " + r->precision +
                                                            " (a literal must be finite in every precision)");
        return *v;
      }
      case Kind::Name: return a.text == "pi" && !sym.symbols.count("pi") ? ex(Pi) : ex(sym.symbol(a.text));
      case Kind::Neg: return -args[0];
      case Kind::Add: return args[0] + args[1];
      case Kind::Sub: return args[0] - args[1];
      case Kind::Mul: return args[0] * args[1];
      case Kind::Div:
        if (args[1].is_zero())
          throw expression::ExpressionError(a.position, "division by zero (the divisor is identically 0)");
        return args[0] / args[1];
      case Kind::Pow:
        check_constant_power(a, args[0], args[1]);
        return checked_pow(args[0], args[1], a.position);
      case Kind::Call: {
        const std::string& f = a.text;
        if (f == "pow") check_constant_power(a, args[0], args[1]);
        if (args.size() == 1) check_constant_argument(a, args[0]);
        if (f == "sin") return sin(args[0]);
        if (f == "cos") return cos(args[0]);
        if (f == "tan") return tan(args[0]);
        if (f == "asin") return asin(args[0]);
        if (f == "acos") return acos(args[0]);
        if (f == "atan") return atan(args[0]);
        if (f == "atan2") return atan2(args[0], args[1]);
        if (f == "sinh") return sinh(args[0]);
        if (f == "cosh") return cosh(args[0]);
        if (f == "tanh") return tanh(args[0]);
        if (f == "asinh") return asinh(args[0]);
        if (f == "acosh") return acosh(args[0]);
        if (f == "atanh") return atanh(args[0]);
        if (f == "exp") return exp(args[0]);
        if (f == "log") return log(args[0]);
        if (f == "sqrt") return sqrt(args[0]);
        if (f == "abs") return abs(args[0]);
        if (f == "pow") return checked_pow(args[0], args[1], a.position);
        break;
      }
    }
  } catch (const expression::ExpressionError&) {
    throw;
  } catch (const std::exception& e) {
    throw expression::ExpressionError(a.position, std::string("undefined value: ") + e.what());
  }
  throw expression::ExpressionError(a.position, "cannot be evaluated symbolically");
}

// The whole tree in post-order without recursion: a chain a + b + c + ...
// is a left-deep tree as deep as it is long (nhs/expression.hpp).
GiNaC::ex to_ginac(const Ast& root, Symbolic& sym) {
  struct Frame {
    const Ast* node;
    std::size_t next;
    std::vector<GiNaC::ex> args;
  };
  std::vector<Frame> stack;
  stack.push_back({&root, 0, {}});
  GiNaC::ex result;
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < f.node->args.size()) {
      const Ast* child = &f.node->args[f.next++];
      stack.push_back({child, 0, {}});  // f is not used after this
      continue;
    }
    GiNaC::ex value = ginac_node(*f.node, f.args, sym);
    stack.pop_back();
    if (stack.empty())
      result = std::move(value);
    else
      stack.back().args.push_back(std::move(value));
  }
  return result;
}

// --- GiNaC -> Ast: the kinetic energy of the bodies ----------------------------

// T of the bodies (for T when [dynamics] gives none), built in the graph
// of their program `bodies` (inputs q, q_dot; `layout` as read_body lays
// it out; n coordinates): per body 1/2 m |dr/dt|^2 with dr/dt = sum_i
// dr/dq^i q^i_dot by the graph's forward differentiation
// (codegen/differentiate.hpp; positions depend on q alone), plus
// 1/2 I_z omega_z^2 (planar) or 1/2 omega^T J omega (space). Not GiNaC's
// derivatives: GiNaC's term order and grouping change from run to run (its
// hashes are seeded with addresses), and so would T's rounding.
Program bodies_kinetic_energy(const Program& bodies, const std::vector<FileBody>& layout, int n) {
  Program T = bodies;
  codegen::Graph& g = T.graph;
  const auto out = [&](int k) { return bodies.outputs[static_cast<std::size_t>(k)]; };
  const auto mul = [&](int a, int b) { return g.apply(codegen::Op::Mul, a, b); };
  const auto add = [&](int a, int b) { return g.apply(codegen::Op::Add, a, b); };
  const int half = g.rational(1, 2);
  int total = g.constant(0);
  for (const FileBody& body : layout) {
    std::vector<int> r;
    for (int j = 0; j < body.dimension; ++j) r.push_back(out(body.first + 1 + j));
    const std::vector<int> d = codegen::jacobian_nodes(g, r, 1, n);  // graph array 1: q
    int v2 = g.constant(0);
    for (int j = 0; j < body.dimension; ++j) {
      int v = g.constant(0);
      for (int i = 0; i < n; ++i) v = add(v, mul(d[static_cast<std::size_t>(j * n + i)], g.input(2, i)));
      v2 = add(v2, mul(v, v));
    }
    int Tk = mul(out(body.first), v2);
    const int w = body.first + 1 + body.dimension;  // the angular velocity, then the inertia
    if (body.kind == FileBody::Kind::Planar) Tk = add(Tk, mul(out(w + 1), mul(out(w), out(w))));
    if (body.kind == FileBody::Kind::Space)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) Tk = add(Tk, mul(out(w + i), mul(out(w + 3 + 3 * i + j), out(w + j))));
    total = add(total, mul(half, Tk));
  }
  T.outputs = {total};
  return T;
}

// --- the loader -----------------------------------------------------------------

class Loader {
 public:
  explicit Loader(std::string path) : path_(std::move(path)) {}

  std::shared_ptr<const SystemFile> load();

 private:
  std::string path_;
  toml::table root_;
  SystemFile f_;
  Symbolic sym_;
  // Every name in use, for uniqueness, with where it was claimed (the node
  // and the role, for the message of a collision with a derived name).
  std::map<std::string, std::pair<const toml::node*, std::string>> names_;

  // The system names t: q ends with the clock coordinate kClock.
  bool clocked() const { return f_.info.clock_coordinate >= 0; }
  // The coordinates the file lists (q without the clock).
  std::size_t file_coordinates() const { return f_.info.coordinates.size() - (clocked() ? 1 : 0); }

  std::string where(const toml::source_region& r) const {
    return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  }
  std::string where(const toml::node& n) const { return where(n.source()); }
  [[noreturn]] void fail(const toml::node& n, const std::string& reason) const {
    throw FileError(where(n), reason);
  }
  [[noreturn]] void fail_file(const std::string& reason) const { throw FileError(path_, reason); }

  // Keys of `t` must be among `known` (with the table's name for the message).
  void known_keys(const toml::table& t, const std::string& table, const std::vector<std::string>& known) {
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      if (std::find(known.begin(), known.end(), key) == known.end())
        throw FileError(where(k.source()), "unknown key '" + key + "'" +
                                               (table.empty() ? "" : " in [" + table + "]") +
                                               " (expected: " + join(known) + ")");
    }
  }
  const toml::node* required(const toml::table& t, const std::string& key, const std::string& table,
                             const toml::node& at) {
    const toml::node* n = t.get(key);
    if (!n)
      fail(at, "missing key '" + key + "'" + (table.empty() ? "" : " in [" + table + "]"));
    return n;
  }
  std::string string_of(const toml::node& n, const std::string& what) {
    if (!n.is_string()) fail(n, what + " must be a string (in quotes)");
    return std::string(n.as_string()->get());
  }
  std::vector<const toml::node*> array_of(const toml::node& n, const std::string& what) {
    if (!n.is_array()) fail(n, what + " must be an array [ ... ]");
    std::vector<const toml::node*> out;
    for (const toml::node& e : *n.as_array()) out.push_back(&e);
    return out;
  }
  std::vector<std::string> names_of(const toml::node& n, const std::string& what) {
    std::vector<std::string> out;
    for (const toml::node* e : array_of(n, what)) {
      const std::string s = string_of(*e, "each entry of " + what);
      if (!is_identifier(s))
        fail(*e, "'" + s + "' in " + what + " is not a name (a letter or '_', then letters, digits, '_')");
      out.push_back(s);
    }
    return out;
  }
  void claim(const toml::node& at, const std::string& name, const std::string& role) {
    static const std::set<std::string> reserved = [] {
      std::set<std::string> r = {"pi", "t"};
      for (const auto& [f, arity] : expression::functions()) r.insert(f);
      return r;
    }();
    if (reserved.count(name)) fail(at, role + " '" + name + "' is a reserved name (pi, t and the functions)");
    if (!names_.emplace(name, std::make_pair(&at, role)).second)
      fail(at, role + " '" + name + "' is already in use as a name" +
                   (clocked() && (name == kClock || name == kClock + "_dot")
                        ? " (the clock coordinate that nhs adds for t, which the system's expressions use)"
                        : ""));
  }

  // A decimal of the file (a parameter's default, an [[exact]] override or
  // t_end): a number (from_string) finite in every precision, since every
  // command may run in any of them (1e400 is finite in long double and
  // beyond, not in double); otherwise FileError at `n`, naming `what`.
  void check_decimal(const toml::node& n, const std::string& what, const std::string& text) const {
    try {
      (void)from_string<mp100>(text);  // the syntax, and a range beyond every other precision's
    } catch (const MalformedNumber& e) {
      fail(n, what + ": " + e.what());
    }
    if (const auto r = out_of_range(text))
      fail(n, what + ": " + r->message + " (not finite in " + r->precision +
                  "; a value of the file must be finite in every precision)");
  }

  // Parses the expression in string node `n` into `program` as a new output,
  // with the names of `b`; errors at the character inside the string.
  void expression_into(const toml::node& n, const std::string& what, const Bindings& b,
                       Program& program, GiNaC::ex* symbolic = nullptr) {
    expression_text_into(n, string_of(n, what), 0, what, b, program, symbolic);
  }
  // expression_into of `text`, the part of string node `n` that starts at
  // character `offset` of the string (a side of a domain condition).
  void expression_text_into(const toml::node& n, const std::string& text, std::size_t offset,
                            const std::string& what, const Bindings& b, Program& program,
                            GiNaC::ex* symbolic = nullptr) {
    try {
      const Ast ast = expression::parse(text);
      program.add(ast, b);
      const GiNaC::ex e = to_ginac(ast, sym_);
      if (symbolic) *symbolic = e;
    } catch (const expression::ExpressionError& e) {
      // The string's first character is one column after its opening quote
      // (single-line strings without escapes; otherwise approximate).
      const auto r = n.source();
      // Time is a name of the system's expressions and [[exact]], not of
      // values such as [initial]'s or a body's mass.
      const bool time = e.reason.rfind("unknown name 't' ", 0) == 0;
      throw FileError(path_ + ":" + std::to_string(r.begin.line) + ":" +
                          std::to_string(r.begin.column + 1 + offset + e.position),
                      what + ": " + e.reason +
                          (time ? "; the time t may appear in the system's expressions (T, V, forces, "
                                  "constraints, psi and its chart, [nonideal], a body's position and angular "
                                  "velocity, invariants, singular margins) and in [[exact]] motions, not here"
                                : ""));
    }
  }

  // True when `column` is the margin column of a domain condition.
  bool is_domain_column(const std::string& column) const {
    return std::any_of(f_.domain_conditions.begin(), f_.domain_conditions.end(),
                       [&](const FileDomainCondition& c) { return c.name == column; });
  }

  Bindings bind(std::initializer_list<std::pair<const std::vector<std::string>*, int>> arrays,
                bool velocities_of_coordinates = false) const {
    Bindings b;
    for (std::size_t i = 0; i < f_.info.parameters.size(); ++i)
      b[f_.info.parameters[i].name] = {-1, static_cast<int>(i)};
    for (const auto& [names, array] : arrays) {
      for (std::size_t i = 0; i < names->size(); ++i) b[(*names)[i]] = {array, static_cast<int>(i)};
      if (clocked() && names == &f_.info.coordinates) b["t"] = {array, f_.info.clock_coordinate};
    }
    if (velocities_of_coordinates)
      for (std::size_t i = 0; i < f_.info.coordinates.size(); ++i)
        b[f_.info.coordinates[i] + "_dot"] = {1, static_cast<int>(i)};
    return b;
  }
  std::vector<std::string> velocity_names() const {
    std::vector<std::string> v;
    for (const auto& c : f_.info.coordinates) v.push_back(c + "_dot");
    return v;
  }

  // n expressions from an array node (size checked); their GiNaC forms
  // appended to `symbolic` when given.
  void array_into(const toml::node& n, const std::string& what, std::size_t size, const Bindings& b,
                  Program& program, std::vector<GiNaC::ex>* symbolic = nullptr) {
    const auto items = array_of(n, what);
    if (items.size() != size)
      fail(n, what + " has " + std::to_string(items.size()) + " entries, expected " + std::to_string(size));
    for (std::size_t i = 0; i < items.size(); ++i) {
      GiNaC::ex e;
      expression_into(*items[i], what + "[" + std::to_string(i + 1) + "]", b, program, &e);
      if (symbolic) symbolic->push_back(e);
    }
  }

  // { formulation = "reason" }: formulations that cannot follow a motion.
  std::map<std::string, std::string> excluded_of(const toml::node& n, const std::string& what) {
    if (!n.is_table()) fail(n, what + " must be a table { formulation = \"reason\" }");
    std::vector<std::string> known;
    for (const auto& f : formulations<double>()) known.push_back(f->name());
    std::map<std::string, std::string> out;
    for (auto&& [k, v] : *n.as_table()) {
      const std::string name(k.str());
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw FileError(where(k.source()), what + ": unknown formulation '" + name + "' (known: " + join(known) + ")");
      out[name] = string_of(v, what + " " + name + " (the reason)");
    }
    return out;
  }

  void read_header();
  void read_parameters();
  void read_dynamics();
  Program by_coordinate(const toml::node& node, const std::string& what);
  void read_nonideal();
  void read_constraints();
  void read_holonomic();
  void add_clock_constraint(const toml::node& at);
  void read_dependent_velocities();
  void refuse_derived_names() const;
  void read_parametrization();
  void read_domain(const toml::node& node, const Bindings& qz);
  void read_initial();
  void read_bodies();
  // The names a [[bodies]] entry's expressions may use: the parameters (mass, a planar inertia), and q
  // (position, a space inertia), and q and qdot (angular velocity).
  struct BodyBindings {
    Bindings params, qonly, qqd;
  };
  // Entry `b` of [[bodies]] (`what`: "bodies[k]"), its expressions appended to `p`; returns
  // its layout in p.
  FileBody read_body(const toml::node& b, const std::string& what, const BodyBindings& names, Program& p);
  void read_invariants();
  void read_singular();
  void read_exact();
  void read_steady();
};

void Loader::read_header() {
  known_keys(root_, "", {"name", "title", "source", "coordinates", "quasi_velocities",
                         "dependent_velocities", "parameters", "dynamics", "constraints",
                         "parametrization", "chart", "initial", "bodies", "invariants", "singular",
                         "exact", "nonideal", "steady", "holonomic"});
  SystemInfo& info = f_.info;
  std::string stem = path_;
  if (const auto slash = stem.find_last_of('/'); slash != std::string::npos) stem.erase(0, slash + 1);
  if (const auto dot = stem.rfind(".toml"); dot != std::string::npos && dot + 5 == stem.size())
    stem.erase(dot);
  info.name = stem;
  if (const auto* n = root_.get("name")) {
    info.name = string_of(*n, "name");
    if (info.name.empty() || info.name.find_first_of(" \t\n,/\"") != std::string::npos)
      fail(*n, "name '" + info.name + "' must be non-empty, without spaces, commas, quotes or '/'");
  }
  info.title = info.name;
  if (const auto* n = root_.get("title")) info.title = string_of(*n, "title");
  info.source = "system file " + path_;
  if (const auto* n = root_.get("source")) info.source = string_of(*n, "source");
  const toml::node* coords = required(root_, "coordinates", "", root_);
  info.coordinates = names_of(*coords, "coordinates");
  if (info.coordinates.empty()) fail(*coords, "coordinates is empty: a system has at least one");
  for (const auto& c : info.coordinates) claim(*coords, c, "coordinate");
  for (const auto& c : info.coordinates) claim(*coords, c + "_dot", "velocity of coordinate");
  if (system_names_time(root_)) {
    // t as the clock coordinate, after the file's: q = (file's, time), with
    // the constraint clock = time_dot - 1 = 0 and 1/2 time_dot^2 in T (A5).
    info.clock_coordinate = static_cast<int>(info.coordinates.size());
    if (std::count(info.coordinates.begin(), info.coordinates.end(), kClock))
      fail(*coords, "coordinate '" + kClock + "': the system's expressions use the time t, which nhs adds as the "
                    "clock coordinate '" + kClock + "': rename this coordinate");
    info.coordinates.push_back(kClock);
    claim(*coords, kClock, "clock coordinate");
    claim(*coords, kClock + "_dot", "velocity of the clock coordinate");
    // t and the clock are one symbol in the symbolic checks (a body's
    // velocity dr/dq qdot, a holonomic constraint's velocity form).
    sym_.symbols.emplace("t", sym_.symbol(kClock));
  }
  if (const auto* n = root_.get("quasi_velocities")) {
    info.quasi_velocities = names_of(*n, "quasi_velocities");
    for (const auto& z : info.quasi_velocities) claim(*n, z, "quasi-velocity");
  }
}

void Loader::read_parameters() {
  const toml::node* node = root_.get("parameters");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[parameters] must be a table");
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    Parameter p;
    p.name = std::string(k.str());
    if (!is_identifier(p.name)) throw FileError(where(k.source()), "parameter '" + p.name + "' is not a name");
    claim(v, p.name, "parameter");
    const toml::node* value = &v;
    if (v.is_table()) {
      known_keys(*v.as_table(), "parameters." + p.name, {"default", "meaning"});
      value = required(*v.as_table(), "default", "parameters." + p.name, v);
      if (const auto* m = v.as_table()->get("meaning")) p.meaning = string_of(*m, "meaning");
    }
    p.default_value = string_of(*value, "parameter " + p.name + " (exact decimal text, e.g. \"0.1\")");
    check_decimal(*value, "parameter " + p.name, p.default_value);
    f_.info.parameters.push_back(std::move(p));
  }
}

void Loader::read_dynamics() {
  const toml::node* node = root_.get("dynamics");
  const toml::node* bodies = root_.get("bodies");
  if (!node && !bodies) fail_file("missing table [dynamics] (with kinetic_energy), or [[bodies]]");
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  if (!node) return;
  if (!node->is_table()) fail(*node, "[dynamics] must be a table");
  const toml::table& t = *node->as_table();
  known_keys(t, "dynamics", {"kinetic_energy", "potential", "forces"});
  if (const auto* T = t.get("kinetic_energy")) {
    f_.locations["dynamics.kinetic_energy"] = where(*T);
    Program file_T;
    expression_into(*T, "kinetic_energy", qqd, file_T);  // its errors at their character
    if (!clocked()) {
      f_.kinetic_energy = std::move(file_T);
    } else {  // T + 1/2 time_dot^2: the clock's unit mass (A5)
      Ast sum;
      sum.kind = Kind::Add;
      sum.args.push_back(expression::parse(string_of(*T, "kinetic_energy")));
      sum.args.push_back(expression::parse(kClock + "_dot^2/2"));
      f_.kinetic_energy.add(sum, qqd);
    }
  } else if (!bodies) {
    fail(*node, "missing key 'kinetic_energy' in [dynamics] (or give [[bodies]])");
  }
  if (const auto* V = t.get("potential")) {
    Program p;
    expression_into(*V, "potential", bind({{&q, 0}}), p);
    f_.potential = std::move(p);
  }
  if (const auto* F = t.get("forces")) f_.forces = by_coordinate(*F, "forces");
}

// { coordinate = "expression", ... } of (q, qdot) and the parameters: n
// outputs, 0 for a coordinate not named ([dynamics] forces, [nonideal]).
Program Loader::by_coordinate(const toml::node& node, const std::string& what) {
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  if (!node.is_table()) fail(node, what + " must be a table { coordinate = \"expression\", ... }");
  std::vector<const toml::node*> by_coordinate(q.size(), nullptr);
  for (auto&& [k, v] : *node.as_table()) {
    const std::string c(k.str());
    const auto it = std::find(q.begin(), q.end(), c);
    if (it == q.end())
      throw FileError(where(k.source()), what + ": '" + c + "' is not a coordinate (coordinates: " + join(q) + ")");
    if (clocked() && c == kClock)
      throw FileError(where(k.source()), what + ": '" + c + "' is the clock coordinate that nhs adds for t; it "
                                                "takes no entry here");
    by_coordinate[static_cast<std::size_t>(it - q.begin())] = &v;
  }
  Program p;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (by_coordinate[i]) {
      expression_into(*by_coordinate[i], what + "." + q[i], qqd, p);
    } else {
      p.add(expression::parse("0"), qqd);
    }
  }
  return p;
}

// [nonideal]: seed 003's vector C of a non-ideal constraint, by coordinate.
void Loader::read_nonideal() {
  if (const toml::node* node = root_.get("nonideal")) {
    f_.locations["nonideal"] = where(*node);
    f_.nonideal = by_coordinate(*node, "nonideal");
  }
}

// [holonomic]: f^k(q) = 0, each taken by every formulation as its velocity
// form df^k/dq qdot = 0 (a linear constraint named after it, appended to
// C), and kept as a program of q for the state's admission and the drift.
void Loader::read_holonomic() {
  const toml::node* node = root_.get("holonomic");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[holonomic] must be a table { name = \"expression in q\" }");
  f_.locations["holonomic"] = where(*node);
  const auto& q = f_.info.coordinates;
  const Bindings qonly = bind({{&q, 0}});
  const Bindings qqd = bind({{&q, 0}}, true);
  const toml::node* dependent = nullptr;
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    if (name == "dependent_coordinates") {
      dependent = &v;
      continue;
    }
    if (!is_identifier(name)) throw FileError(where(k.source()), "holonomic constraint '" + name + "' is not a name");
    if (std::count(f_.info.constraint_names.begin(), f_.info.constraint_names.end(), name))
      throw FileError(where(k.source()), "holonomic constraint '" + name + "' has the name of a constraint of [constraints]");
    GiNaC::ex F;
    expression_into(v, "holonomic constraint " + name, qonly, f_.holonomic, &F);
    GiNaC::ex form = 0;
    for (const auto& c : q) form += F.diff(sym_.symbol(c)) * sym_.symbol(c + "_dot");
    if (form.is_zero() || form.normal().is_zero())
      fail(v, "holonomic constraint " + name + " involves no coordinate: it is a constant, not a constraint");
    // The velocity form by the program graph's forward differentiation, not
    // GiNaC's diff: GiNaC's form (term order and grouping) changes from run
    // to run (its hashes are seeded with addresses), and so would its
    // rounding. GiNaC's form serves the check above.
    f_.constraints.add_derivative_along(expression::parse(string_of(v, "holonomic constraint " + name)), qqd, 0, 1,
                                        static_cast<int>(q.size()));
    f_.info.constraint_names.push_back(name);
    f_.holonomic_names.push_back(name);
    f_.constraint_linear.push_back(true);
    f_.constraint_affine.push_back(false);
    f_.constraint_homogeneous.push_back(true);
  }
  if (f_.holonomic_names.empty()) fail(*node, "[holonomic] has no constraint");
  if (dependent) {
    const auto names = names_of(*dependent, "holonomic dependent_coordinates");
    if (names.size() != f_.holonomic_names.size())
      fail(*dependent, "dependent_coordinates names " + std::to_string(names.size()) +
                           " coordinates, expected one per holonomic constraint (" +
                           std::to_string(f_.holonomic_names.size()) + ")");
    for (const auto& name : names) {
      const auto it = std::find(q.begin(), q.end(), name);
      if (it == q.end())
        fail(*dependent, "dependent_coordinates: '" + name + "' is not a coordinate (coordinates: " + join(q) + ")");
      const int index = static_cast<int>(it - q.begin());
      if (std::count(f_.holonomic_dependent.begin(), f_.holonomic_dependent.end(), index))
        fail(*dependent, "dependent_coordinates names '" + name + "' twice");
      f_.holonomic_dependent.push_back(index);
    }
  }
}

// The clock's constraint, clock = time_dot - 1 = 0 (affine, A5), after the
// file's constraints; FileError at `at` when a constraint has its name.
void Loader::add_clock_constraint(const toml::node& at) {
  auto& names = f_.info.constraint_names;
  if (std::count(names.begin(), names.end(), kClockConstraint))
    fail(at, "constraint '" + kClockConstraint + "': the system's expressions use the time t, and nhs adds the "
             "constraint '" + kClockConstraint + "' = " + kClock + "_dot - 1 for it: rename this constraint");
  f_.constraints.add(expression::parse(kClock + "_dot - 1"), bind({{&f_.info.coordinates, 0}}, true));
  names.push_back(kClockConstraint);
  f_.constraint_linear.push_back(true);
  f_.constraint_affine.push_back(true);
  f_.constraint_homogeneous.push_back(false);
}

void Loader::read_constraints() {
  const toml::node* node = root_.get("constraints");
  if (!node && root_.get("holonomic")) node = nullptr;
  else node = required(root_, "constraints", "", root_);
  if (node && !node->is_table()) fail(*node, "[constraints] must be a table { name = \"expression\" }");
  if (node) f_.locations["constraints"] = where(*node);
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  const auto qd = velocity_names();
  if (node)
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    // The key is a name of the equations (lambda_<name>) and of the LaTeX
    // and HTML outputs, as every other table's keys are.
    if (!is_identifier(name))
      throw FileError(where(k.source()), "constraint '" + name +
                                             "' is not a name (a letter or '_', then letters, digits, '_')");
    f_.info.constraint_names.push_back(name);
    GiNaC::ex C;
    expression_into(v, "constraint " + name, qqd, f_.constraints, &C);
    bool has_velocity = false;
    for (const auto& vn : qd)
      if (C.has(sym_.symbol(vn))) has_velocity = true;
    if (!has_velocity)
      fail(v, "constraint " + name + " involves no velocity: it is holonomic (a relation between "
                                     "coordinates); give it in [holonomic] instead, where nhs takes its "
                                     "velocity form and keeps q on it");
    std::vector<GiNaC::ex> velocities;
    for (const auto& vn : qd) velocities.emplace_back(sym_.symbol(vn));
    const bool linear = linear_in(C, velocities);
    // Linear in qdot with a term free of the velocities: affine, A(q) qdot
    // + a0(q) = 0 (a moving platform). Every formulation that takes a
    // general C(q, qdot) takes it (its reaction, Chetaev's lambda_a A^a,
    // does work -lambda_a a0^a), and Voronec's split becomes qdot_dep =
    // a(q) qdot_indep + a0(q) (A6); the discrete Lagrange-d'Alembert
    // integrator and the naive reduced Lagrangian need A(q) qdot = 0, so
    // info.linear_constraints is false and info.affine_constraints true
    // (docs/affine-constraints.md).
    const bool affine = linear && velocity_free_term(C, velocities).has_value();
    f_.constraint_linear.push_back(linear);
    f_.constraint_affine.push_back(affine);
    f_.constraint_homogeneous.push_back(homogeneous_in(C, velocities));
  }
  read_holonomic();
  const toml::node& at = node ? *node : *root_.get("holonomic");
  if (clocked()) add_clock_constraint(at);
  if (f_.info.constraint_names.empty())
    fail(at, "[constraints] is empty: a non-holonomic system has at least one constraint");
  if (f_.info.constraint_names.size() >= q.size())
    fail(at, std::to_string(f_.info.constraint_names.size()) + " constraints on " +
                    std::to_string(q.size()) + " coordinates: at least one velocity must stay free");
  const bool all_linear =
      std::all_of(f_.constraint_linear.begin(), f_.constraint_linear.end(), [](bool b) { return b; });
  const bool any_affine =
      std::any_of(f_.constraint_affine.begin(), f_.constraint_affine.end(), [](bool b) { return b; });
  f_.info.linear_constraints = all_linear && !any_affine;
  f_.info.affine_constraints = all_linear && any_affine;
  read_dependent_velocities();
  refuse_derived_names();
}

// The names `nhs equations` defines from the system's own (docs/equations.md,
// "Names"): <q>_ddot, <z>_dot, lambda_<constraint>, Qc_<q> (Udwadia-Kalaba),
// b_<dep>_<i>_<j> and b0_<dep>_<i> (Voronec, over every pair of
// coordinates), S (Gibbs-Appell). A coordinate, velocity, quasi-velocity or
// parameter with one of these names would make an equation refer to
// itself: FileError naming it, its role and where it was given.
void Loader::refuse_derived_names() const {
  const auto& q = f_.info.coordinates;
  std::vector<std::pair<std::string, std::string>> derived = {{"S", "the Appellian of gibbs-appell"}};
  for (const auto& c : q) {
    derived.emplace_back(c + "_ddot", "the acceleration of coordinate " + c);
    derived.emplace_back("Qc_" + c, "udwadia-kalaba's constraint force on " + c);
  }
  for (const auto& z : f_.info.quasi_velocities) derived.emplace_back(z + "_dot", "the derivative of quasi-velocity " + z);
  for (const auto& c : f_.info.constraint_names) derived.emplace_back("lambda_" + c, "the multiplier of constraint " + c);
  for (int d : f_.info.dependent_velocities)
    for (const auto& i : q) {
      const std::string dep = q[static_cast<std::size_t>(d)];
      derived.emplace_back("b0_" + dep + "_" + i, "a coefficient b0 of voronec");
      for (const auto& j : q) derived.emplace_back("b_" + dep + "_" + i + "_" + j, "a coefficient b of voronec");
    }
  for (const auto& [name, meaning] : derived)
    if (const auto it = names_.find(name); it != names_.end())
      fail(*it->second.first, it->second.second + " '" + name + "' has the name of " + meaning +
                                  " in the equations (docs/equations.md, \"Names\"): rename it");
}

// Voronec's split: the dependent velocities, one per constraint (linear or
// affine constraints only).
void Loader::read_dependent_velocities() {
  const auto& q = f_.info.coordinates;
  if (const auto* dep = root_.get("dependent_velocities")) {
    const auto names = names_of(*dep, "dependent_velocities");
    if (!f_.info.linear_constraints && !f_.info.affine_constraints)
      fail(*dep, "dependent_velocities (Voronec's split qdot_dep = a(q) qdot_indep + a0(q)) needs constraints "
                 "linear in the velocities (A(q) q_dot + a0(q) = 0)");
    // The clock's own constraint is solved for time_dot (a0 = 1), added here.
    const std::size_t expected = f_.info.constraint_names.size() - (clocked() ? 1 : 0);
    if (names.size() != expected)
      fail(*dep, "dependent_velocities names " + std::to_string(names.size()) +
                     " coordinates, expected one per constraint (" + std::to_string(expected) + ")");
    for (const auto& name : names) {
      const auto it = std::find(q.begin(), q.end(), name);
      if (it == q.end()) fail(*dep, "dependent_velocities: '" + name + "' is not a coordinate (coordinates: " + join(q) + ")");
      if (clocked() && name == kClock)
        fail(*dep, "dependent_velocities: '" + kClock + "' is the clock coordinate, solved for by its own "
                   "constraint (nhs adds it): name one coordinate per constraint of the file");
      const int index = static_cast<int>(it - q.begin());
      if (std::count(f_.info.dependent_velocities.begin(), f_.info.dependent_velocities.end(), index))
        fail(*dep, "dependent_velocities names '" + name + "' twice");
      f_.info.dependent_velocities.push_back(index);
    }
    if (clocked()) f_.info.dependent_velocities.push_back(f_.info.clock_coordinate);
  }
}

void Loader::read_parametrization() {
  const auto& q = f_.info.coordinates;
  const auto& z = f_.info.quasi_velocities;
  const toml::node* psi = root_.get("parametrization");
  const toml::node* chart = root_.get("chart");
  if (!psi) {
    if (!z.empty()) fail(*root_.get("quasi_velocities"), "quasi_velocities given without [parametrization]");
    if (chart) fail(*chart, "[chart] given without [parametrization]");
    return;
  }
  f_.locations["parametrization"] = where(*psi);
  if (z.empty()) fail(*psi, "[parametrization] needs quasi_velocities = [...] (the names of z)");
  if (z.size() + f_.info.constraint_names.size() != q.size())
    fail(*psi, std::to_string(z.size()) + " quasi-velocities with " +
                   std::to_string(f_.info.constraint_names.size()) + " constraints on " +
                   std::to_string(q.size()) + " coordinates: expected m = n - r = " +
                   std::to_string(q.size() - f_.info.constraint_names.size()));
  if (!psi->is_table()) fail(*psi, "[parametrization] must be a table { <coordinate>_dot = \"expression\" }");
  const auto qd = velocity_names();
  std::vector<const toml::node*> rows(q.size(), nullptr);
  const toml::node* domain = nullptr;
  for (auto&& [k, v] : *psi->as_table()) {
    const std::string key(k.str());
    if (key == "domain") {
      domain = &v;
      continue;
    }
    const auto it = std::find(qd.begin(), qd.end(), key);
    if (it == qd.end())
      throw FileError(where(k.source()), "[parametrization]: unknown key '" + key + "' (expected: " + join(qd) +
                                             ", domain)");
    if (clocked() && key == kClock + "_dot")
      throw FileError(where(k.source()), "[parametrization]: " + key + " is the clock's velocity, 1 (nhs adds "
                                             "it): leave it out");
    rows[static_cast<std::size_t>(it - qd.begin())] = &v;
  }
  Program p;
  const Bindings qz = bind({{&q, 0}, {&z, 1}});
  if (domain) read_domain(*domain, qz);
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (clocked() && static_cast<int>(i) == f_.info.clock_coordinate) {
      p.add(expression::parse("1"), qz);  // time_dot = 1
      continue;
    }
    if (!rows[i]) fail(*psi, "[parametrization] has no entry for " + qd[i]);
    expression_into(*rows[i], "parametrization " + qd[i], qz, p);
  }
  f_.parametrization = std::move(p);
  if (!chart) fail(*psi, "[parametrization] needs [chart], its inverse z(q, qdot) (one entry per quasi-velocity)");
  f_.locations["chart"] = where(*chart);
  if (!chart->is_table()) fail(*chart, "[chart] must be a table { <quasi-velocity> = \"expression\" }");
  std::vector<const toml::node*> zrows(z.size(), nullptr);
  for (auto&& [k, v] : *chart->as_table()) {
    const std::string key(k.str());
    const auto it = std::find(z.begin(), z.end(), key);
    if (it == z.end())
      throw FileError(where(k.source()), "[chart]: unknown key '" + key + "' (expected: " + join(z) + ")");
    zrows[static_cast<std::size_t>(it - z.begin())] = &v;
  }
  Program c;
  const Bindings qqd = bind({{&q, 0}}, true);
  for (std::size_t a = 0; a < z.size(); ++a) {
    if (!zrows[a]) fail(*chart, "[chart] has no entry for " + z[a]);
    expression_into(*zrows[a], "chart " + z[a], qqd, c);
  }
  f_.chart = std::move(c);
}

// [parametrization] domain = ["v > 0", ...]: the open set of (q, z) where
// psi and its chart hold, as strict inequalities between two expressions
// in q, z and the parameters (SystemFile::domain).
void Loader::read_domain(const toml::node& node, const Bindings& qz) {
  f_.locations["domain"] = where(node);
  const std::string form = "a strict inequality between two expressions, \"a > b\" or \"a < b\"";
  const auto items = array_of(node, "[parametrization] domain (an array of conditions, each " + form + ")");
  if (items.empty()) fail(node, "[parametrization] domain is empty: give at least one condition, each " + form);
  Program p;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const toml::node& item = *items[k];
    const std::string what = "[parametrization] domain[" + std::to_string(k + 1) + "]";
    const std::string text = string_of(item, what + " (" + form + ")");
    // The column of character i of the string (single-line basic strings).
    const auto at = [&](std::size_t i) {
      const auto r = item.source();
      return path_ + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column + 1 + i);
    };
    const std::size_t op = text.find_first_of("<>=!");
    if (op == std::string::npos)
      throw FileError(at(0), what + ": no comparison: expected " + form);
    if (text[op] == '=' || text[op] == '!' || (op + 1 < text.size() && text[op + 1] == '='))
      throw FileError(at(op), what + ": only the strict comparisons '>' and '<' are allowed (a chart's "
                                     "domain is an open set), not '" + text.substr(op, text[op + 1] == '=' ? 2 : 1) +
                                     "'");
    if (const std::size_t second = text.find_first_of("<>=!", op + 1); second != std::string::npos)
      throw FileError(at(second), what + ": one comparison per condition (give several conditions, "
                                         "e.g. domain = [\"v > 0\", \"v < 1\"])");
    FileDomainCondition c;
    // For messages: on one line, and at most 80 characters.
    c.text = text.size() > 80 ? text.substr(0, 77) + "..." : text;
    std::replace_if(c.text.begin(), c.text.end(), [](char ch) { return ch == '\n' || ch == '\r' || ch == '\t'; }, ' ');
    c.greater = text[op] == '>';
    c.name = "margin_domain_" + std::to_string(k + 1);
    expression_text_into(item, text.substr(0, op), 0, what + " (left of '" + text[op] + "')", qz, p);
    expression_text_into(item, text.substr(op + 1), op + 1, what + " (right of '" + text[op] + "')", qz, p);
    f_.domain_conditions.push_back(std::move(c));
  }
  f_.domain = std::move(p);
}

void Loader::read_initial() {
  const toml::node* node = required(root_, "initial", "", root_);
  f_.locations["initial"] = where(*node);
  if (!node->is_table()) fail(*node, "[initial] must be a table with q and qdot, or q and z");
  const toml::table& t = *node->as_table();
  if (clocked()) known_keys(t, "initial", {"q", "qdot", "z", "t", "excluded"});
  else known_keys(t, "initial", {"q", "qdot", "z", "excluded"});
  if (const auto* ex = t.get("excluded")) f_.initial_excluded = excluded_of(*ex, "initial excluded");
  const Bindings params = bind({});
  array_into(*required(t, "q", "initial", *node), "initial q", file_coordinates(), params, f_.initial_q);
  if (clocked()) {  // the clock's value: [initial] t, else 0
    if (const auto* t0 = t.get("t")) expression_into(*t0, "initial t", params, f_.initial_q);
    else f_.initial_q.add(expression::parse("0"), params);
  }
  const toml::node* qd = t.get("qdot");
  const toml::node* z = t.get("z");
  if ((qd != nullptr) == (z != nullptr))
    fail(*node, "[initial] needs exactly one of qdot (n values) and z (m values, through psi)");
  if (qd) {
    Program p;
    array_into(*qd, "initial qdot", file_coordinates(), params, p);
    if (clocked()) p.add(expression::parse("1"), params);  // the clock's velocity
    f_.initial_qdot = std::move(p);
  } else {
    if (!f_.parametrization) fail(*z, "initial z needs [parametrization]");
    Program p;
    array_into(*z, "initial z", f_.info.quasi_velocities.size(), params, p);
    f_.initial_z = std::move(p);
  }
}

void Loader::read_bodies() {
  const toml::node* node = root_.get("bodies");
  if (!node) return;
  f_.locations["bodies"] = where(*node);
  if (!node->is_array_of_tables()) fail(*node, "bodies must be an array of tables [[bodies]]");
  const auto& q = f_.info.coordinates;
  const BodyBindings names{bind({}), bind({{&q, 0}}), bind({{&q, 0}}, true)};
  // T from the bodies when [dynamics] has none.
  const bool derive_T = f_.kinetic_energy.outputs.empty();
  Program p;
  int k = 0;
  for (const toml::node& b : *node->as_array()) {
    ++k;
    const std::string what = "bodies[" + std::to_string(k) + "]";
    f_.body_layout.push_back(read_body(b, what, names, p));
  }
  if (clocked()) {  // the clock's unit mass at (time, 0), whose T is 1/2 time_dot^2 (A5)
    const toml::table clock{{"mass", "1"}, {"position", toml::array{kClock, "0"}}};
    f_.body_layout.push_back(read_body(clock, "the clock body", names, p));
  }
  if (derive_T) {
    f_.kinetic_energy = bodies_kinetic_energy(p, f_.body_layout, static_cast<int>(q.size()));
    f_.kinetic_energy_from_bodies = true;
    f_.locations["dynamics.kinetic_energy"] = where(*node);
  }
  f_.bodies = std::move(p);
}

FileBody Loader::read_body(const toml::node& b, const std::string& what, const BodyBindings& names,
                                    Program& p) {
  const Bindings& params = names.params;
  const Bindings& qonly = names.qonly;
  const Bindings& qqd = names.qqd;
  const toml::table& t = *b.as_table();
  known_keys(t, what, {"mass", "position", "angular_velocity", "inertia"});
  FileBody body;
  body.first = static_cast<int>(p.outputs.size());
  expression_into(*required(t, "mass", what, b), what + " mass", params, p);
  const toml::node* pos = required(t, "position", what, b);
  const auto items = array_of(*pos, what + " position");
  if (items.size() != 2 && items.size() != 3)
    fail(*pos, what + " position has " + std::to_string(items.size()) + " entries, expected 2 (plane) or 3 (space)");
  body.dimension = static_cast<int>(items.size());
  array_into(*pos, what + " position", items.size(), qonly, p);
  const toml::node* wn = t.get("angular_velocity");
  const toml::node* Jn = t.get("inertia");
  if ((wn != nullptr) != (Jn != nullptr))
    fail(b, what + " needs both angular_velocity and inertia (a rigid body) or neither (a point mass)");
  if (!wn) {
    body.kind = FileBody::Kind::Point;
  } else if (body.dimension == 2) {
    body.kind = FileBody::Kind::Planar;
    expression_into(*wn, what + " angular_velocity (about the plane's normal)", qqd, p);
    expression_into(*Jn, what + " inertia (about the normal through the centre of mass)", params, p);
  } else {
    body.kind = FileBody::Kind::Space;
    array_into(*wn, what + " angular_velocity", 3, qqd, p);
    const auto rows = array_of(*Jn, what + " inertia");
    if (rows.size() != 3) fail(*Jn, what + " inertia must be a 3 x 3 array [[...], [...], [...]]");
    for (std::size_t i = 0; i < 3; ++i)
      array_into(*rows[i], what + " inertia row " + std::to_string(i + 1), 3, qonly, p);
  }
  return body;
}


void Loader::read_invariants() {
  const toml::node* node = root_.get("invariants");
  if (!node) return;
  if (!node->is_table()) fail(*node, "[invariants] must be a table { name = \"expression\" }");
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  Program p;
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string name(k.str());
    if (!is_identifier(name)) throw FileError(where(k.source()), "invariant '" + name + "' is not a name");
    if (is_domain_column(name))
      throw FileError(where(k.source()), "invariant '" + name +
                                             "': the name of the column of a condition of [parametrization] domain");
    f_.invariant_names.push_back(name);
    expression_into(v, "invariant " + name, qqd, p);
  }
  if (!f_.invariant_names.empty()) f_.invariants = std::move(p);
}

void Loader::read_singular() {
  const toml::node* node = root_.get("singular");
  if (!node) return;
  f_.locations["singular"] = where(*node);
  const std::string forms =
      "a margin expression (in quotes) or a table { margin = \"expression\", meaning = \"...\" }";
  if (!node->is_table()) fail(*node, "[singular] must be a table of named singular sets, each " + forms);
  const auto& q = f_.info.coordinates;
  const Bindings qqd = bind({{&q, 0}}, true);
  Program p;
  for (auto&& [k, v] : in_file_order(*node->as_table())) {
    const std::string key(k.str());
    const bool csv_name = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!csv_name)
      throw FileError(where(k.source()), "singular set '" + key + "' is not a name (letters, digits and "
                                         "'_': it becomes the column margin_" + key + ")");
    const std::string name = "margin_" + key;
    if (std::find(f_.invariant_names.begin(), f_.invariant_names.end(), name) != f_.invariant_names.end())
      throw FileError(where(k.source()), "singular set '" + key + "': its column " + name +
                                             " is already the name of an invariant");
    if (is_domain_column(name))
      throw FileError(where(k.source()), "singular set '" + key + "': its column " + name +
                                             " is already the margin of a condition of [parametrization] domain");
    const toml::node* margin = &v;
    std::string meaning;
    if (v.is_table()) {
      const std::string table = "singular." + key;
      known_keys(*v.as_table(), table, {"margin", "meaning"});
      margin = required(*v.as_table(), "margin", table, v);
      if (const auto* m = v.as_table()->get("meaning")) meaning = string_of(*m, "singular set " + key + " meaning");
    } else if (!v.is_string()) {
      fail(v, "singular set " + key + " must be " + forms);
    }
    expression_into(*margin, "singular set " + key + " margin", qqd, p);
    if (meaning.empty())
      meaning = "singular set " + key + " (" + string_of(*margin, "singular set " + key + " margin") + " = 0)";
    f_.singular_sets.push_back({name, meaning});
  }
  if (!f_.singular_sets.empty()) f_.singular = std::move(p);
}

void Loader::read_exact() {
  const toml::node* node = root_.get("exact");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "exact must be an array of tables [[exact]]");
  const std::vector<std::string> t_name = {"t"};
  int k = 0;
  for (const toml::node& e : *node->as_array()) {
    ++k;
    const std::string what = "exact[" + std::to_string(k) + "]";
    const toml::table& t = *e.as_table();
    known_keys(t, what, {"name", "parameters", "t_end", "q", "qdot", "excluded"});
    FileExactMotion m;
    if (const auto* ex = t.get("excluded")) m.excluded = excluded_of(*ex, what + " excluded");
    m.name = string_of(*required(t, "name", what, e), what + " name");
    if (const auto* ps = t.get("parameters")) {
      if (!ps->is_table()) fail(*ps, what + " parameters must be a table { name = \"value\" }");
      for (auto&& [pk, pv] : *ps->as_table()) {
        const std::string pn(pk.str());
        const bool known = std::any_of(f_.info.parameters.begin(), f_.info.parameters.end(),
                                       [&](const Parameter& p) { return p.name == pn; });
        if (!known) {
          std::vector<std::string> names;
          for (const auto& p : f_.info.parameters) names.push_back(p.name);
          throw FileError(where(pk.source()), what + ": unknown parameter '" + pn + "' (known: " + join(names) + ")");
        }
        const std::string value = string_of(pv, what + " parameter " + pn);
        check_decimal(pv, what + " parameter " + pn, value);
        m.overrides.emplace_back(pn, value);
      }
    }
    const toml::node* te = required(t, "t_end", what, e);
    m.t_end = string_of(*te, what + " t_end");
    check_decimal(*te, what + " t_end", m.t_end);
    if (!(from_string<mp100>(m.t_end) > 0)) fail(*te, what + " t_end must be > 0");
    const Bindings tb = bind({{&t_name, 0}});
    array_into(*required(t, "q", what, e), what + " q", file_coordinates(), tb, m.q);
    if (clocked()) m.q.add(expression::parse("t"), tb);  // the clock is t
    if (const auto* qd = t.get("qdot")) {
      array_into(*qd, what + " qdot", file_coordinates(), tb, m.qdot);
      if (clocked()) m.qdot.add(expression::parse("1"), tb);
    }
    f_.locations["exact." + std::to_string(k - 1)] = where(e);
    f_.exact.push_back(std::move(m));
  }
}

void Loader::read_steady() {
  const toml::node* node = root_.get("steady");
  if (!node) return;
  if (!node->is_array_of_tables()) fail(*node, "steady must be an array of tables [[steady]]");
  if (clocked())
    fail(*node, "[[steady]]: the system depends on the time t (rheonomic), and a family of steady motions "
                "q(mu), qdot(mu) is a system's without t");
  const auto& q = f_.info.coordinates;
  std::set<std::string> family_names;
  int k = 0;
  for (const toml::node& e : *node->as_array()) {
    ++k;
    const std::string what = "steady[" + std::to_string(k) + "]";
    const toml::table& t = *e.as_table();
    known_keys(t, what, {"name", "parameters", "q", "qdot", "z"});
    FileSteadyFamily fam;
    const toml::node* name = required(t, "name", what, e);
    fam.name = string_of(*name, what + " name");
    if (fam.name.empty()) fail(*name, what + " name is empty");
    if (!family_names.insert(fam.name).second) fail(*name, what + ": a family named '" + fam.name + "' already exists");
    const toml::node* ps = required(t, "parameters", what, e);
    fam.parameters = names_of(*ps, what + " parameters");
    if (fam.parameters.empty()) fail(*ps, what + " parameters is empty: a family has at least one parameter");
    std::set<std::string> seen;
    for (const auto& mu : fam.parameters) {
      const auto& fns = expression::functions();
      if (mu == "pi" || mu == "t" ||
          std::any_of(fns.begin(), fns.end(), [&](const auto& f) { return f.first == mu; }))
        fail(*ps, what + " parameter '" + mu + "' is a reserved name (pi, t and the functions)");
      if (names_.count(mu)) fail(*ps, what + " parameter '" + mu + "' is already in use as a name of the system");
      if (!seen.insert(mu).second) fail(*ps, what + " parameter '" + mu + "' is given twice");
    }
    const Bindings b = bind({{&fam.parameters, 0}});
    array_into(*required(t, "q", what, e), what + " q", q.size(), b, fam.q);
    const toml::node* qd = t.get("qdot");
    const toml::node* z = t.get("z");
    if ((qd != nullptr) == (z != nullptr))
      fail(e, what + " needs exactly one of qdot (n values) and z (m values, through psi)");
    if (z) {
      if (!f_.parametrization) fail(*z, what + " z needs [parametrization]");
      fam.in_z = true;
      array_into(*z, what + " z", f_.info.quasi_velocities.size(), b, fam.v);
    } else {
      array_into(*qd, what + " qdot", q.size(), b, fam.v);
    }
    f_.locations["steady." + std::to_string(k - 1)] = where(e);
    f_.steady.push_back(std::move(fam));
  }
}

// unparseable_non_ascii's scan of a TOML text: where it is (a byte, its line and its column in code
// points) and in what (plain text, a comment or a kind of string).
class TomlScan {
 public:
  explicit TomlScan(const std::string& text) : text_(text), n_(text.size()) {}

  // The first non-ASCII character toml++ cannot parse, or nullopt (the text read to its end).
  std::optional<detail::NonAscii> run() {
    while (i_ < n_) {
      const char c = text_[i_];
      switch (in_) {
        case In::text:
          if (auto found = step_text(c)) return found;
          break;
        case In::comment:
          if (c == '\n') in_ = In::text;
          advance(1);
          break;
        case In::basic:
          step_basic(c);
          break;
        case In::literal:
          if (c == '\'' || c == '\n') in_ = In::text;
          advance(1);
          break;
        case In::multi_basic:
          if (auto found = step_multi_basic(c)) return found;
          break;
        case In::multi_literal:
          if (starts("'''")) {
            advance(3);
            in_ = In::text;
            break;
          }
          advance(1);
          break;
      }
    }
    return std::nullopt;
  }

 private:
  enum class In { text, comment, basic, literal, multi_basic, multi_literal };
  const std::string& text_;
  const std::size_t n_;
  std::size_t line_ = 1, column_ = 0, i_ = 0;
  In in_ = In::text;

  bool non_ascii(std::size_t k) const { return k < n_ && static_cast<unsigned char>(text_[k]) >= 0x80; }
  bool blank(std::size_t k) const {
    return k < n_ && (text_[k] == ' ' || text_[k] == '\t' || text_[k] == '\r' || text_[k] == '\n');
  }
  void advance(std::size_t count) {
    for (std::size_t k = 0; k < count && i_ < n_; ++k, ++i_) {
      const auto c = static_cast<unsigned char>(text_[i_]);
      if (c == '\n') {
        ++line_;
        column_ = 0;
      } else if ((c & 0xC0) != 0x80) {
        ++column_;  // a code point starts here (UTF-8 continuation bytes do not)
      }
    }
  }
  detail::NonAscii refuse(const char* why) const { return detail::NonAscii{line_, column_ + 1, why}; }
  bool starts(const char* s) const { return text_.compare(i_, std::strlen(s), s) == 0; }

  // Outside strings and comments, at character c.
  std::optional<detail::NonAscii> step_text(char c) {
    if (non_ascii(i_)) return refuse("a non-ASCII character outside a string or a comment");
    if (starts("\"\"\"")) {
      advance(3);
      in_ = In::multi_basic;
      return std::nullopt;
    }
    if (starts("'''")) {
      advance(3);
      in_ = In::multi_literal;
      return std::nullopt;
    }
    if (c == '#') in_ = In::comment;
    else if (c == '"') in_ = In::basic;
    else if (c == '\'') in_ = In::literal;
    advance(1);
    return std::nullopt;
  }
  // In a basic string "...", at character c.
  void step_basic(char c) {
    if (c == '\\') {
      advance(2);  // an escape: the backslash and the character it escapes
      return;
    }
    if (c == '"' || c == '\n') in_ = In::text;
    advance(1);
  }
  // In a multi-line basic string """...""", at character c.
  std::optional<detail::NonAscii> step_multi_basic(char c) {
    if (starts("\"\"\"")) {
      advance(3);
      in_ = In::text;
      return std::nullopt;
    }
    if (c == '\\') {
      advance(1);
      if (non_ascii(i_)) return refuse("a non-ASCII character right after a backslash in a multi-line string");
      if (blank(i_)) {  // a line-ending backslash: the white space after it is removed
        while (blank(i_)) advance(1);
        if (non_ascii(i_))
          return refuse("a non-ASCII character first after a line-ending backslash in a multi-line string");
        return std::nullopt;
      }
      advance(1);  // the escaped character
      return std::nullopt;
    }
    advance(1);
    return std::nullopt;
  }
};

}  // namespace

namespace detail {

// toml_text.hpp
std::optional<NonAscii> unparseable_non_ascii(const std::string& text) { return TomlScan(text).run(); }

// toml_text.hpp
std::optional<OutOfRange> out_of_range(const std::string& text) {
#define NHS_LOADER_OUT_OF_RANGE_(S, NAME) \
  try {                                   \
    (void)from_string<S>(text);           \
  } catch (const MalformedNumber& e) {    \
    return OutOfRange{NAME, e.what()};    \
  }
  NHS_FOR_EACH_SCALAR(NHS_LOADER_OUT_OF_RANGE_)
#undef NHS_LOADER_OUT_OF_RANGE_
  return std::nullopt;
}

}  // namespace detail

namespace {

std::shared_ptr<const SystemFile> Loader::load() {
  // An input that cannot be read is a usage error (exit 2), as a malformed
  // file is; IoError (exit 5) is for output that cannot be written.
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec))
    throw FileError(path_, "cannot read the system file: it is a directory, not a TOML file");
  const auto unreadable = [this] {
    const int error = errno;
    throw FileError(path_, std::string("cannot read the system file: ") +
                               (error ? std::strerror(error) : "the stream failed"));
  };
  errno = 0;
  std::ifstream in(path_, std::ios::binary);
  if (!in) unreadable();
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) unreadable();
  const std::string text = buffer.str();
  if (const auto bad = unparseable_non_ascii(text))
    throw FileError(path_ + ":" + std::to_string(bad->line) + ":" + std::to_string(bad->column),
                    "TOML syntax: " + bad->reason);
  try {
    root_ = toml::parse(text, path_);
  } catch (const toml::parse_error& e) {
    throw FileError(where(e.source()), "TOML syntax: " + std::string(e.description()));
  }
  f_.path = path_;
  read_header();
  read_parameters();
  read_dynamics();
  read_constraints();
  read_nonideal();
  read_parametrization();
  read_initial();
  read_bodies();
  read_invariants();
  read_singular();
  read_exact();
  read_steady();
  std::shared_ptr<const SystemFile> file = std::make_shared<const SystemFile>(std::move(f_));
  // The numerical checks give their own FileErrors with a location; another
  // error of the library there (e.g. describe()'s bodies check at an
  // [[exact]] motion's parameters, a plain UsageError) is still the file's.
  try {
    if (detail::check_system_file_numerically(file)) {
      SystemFile massless = *file;
      massless.info.semidefinite_metric = true;
      file = std::make_shared<const SystemFile>(std::move(massless));
    }
  } catch (const FileError&) {
    throw;
  } catch (const UsageError& e) {
    throw FileError(path_, e.what());
  } catch (const InvalidState& e) {
    throw FileError(path_, e.what());
  } catch (const NonFiniteValue& e) {
    throw FileError(path_, e.what());
  } catch (const MalformedNumber& e) {
    throw FileError(path_, e.what());
  }
  return file;
}

}  // namespace

std::string energy_not_conserved_reason(const SystemFile& file) {
  std::vector<std::string> reasons;
  const bool clocked = file.info.clock_coordinate >= 0;
  if (clocked) reasons.push_back("the system depends on the time t (rheonomic)");
  if (file.forces) reasons.push_back("non-conservative forces do work");
  if (file.nonideal) reasons.push_back("the non-ideal constraint force [nonideal] does work");
  std::vector<std::string> names;
  // The clock's constraint (the last one) is the time dependence's, said above.
  const std::size_t r = file.constraint_homogeneous.size() - (clocked ? 1 : 0);
  for (std::size_t a = 0; a < r; ++a)
    if (!file.constraint_homogeneous[a]) names.push_back(file.info.constraint_names[a]);
  if (names.size() == 1)
    reasons.push_back("constraint " + names[0] + " is not homogeneous in the velocities: its reaction does work");
  else if (names.size() > 1)
    reasons.push_back("constraints " + join(names) +
                      " are not homogeneous in the velocities: their reactions do work");
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

bool is_system_file_name(const std::string& name) {
  return find_bundled_system(name) != nullptr || name.find('/') != std::string::npos ||
         (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0);
}

std::shared_ptr<const SystemFile> load_system_file(const std::string& path) {
  return Loader(system_file_path(path)).load();
}

}  // namespace nhs
