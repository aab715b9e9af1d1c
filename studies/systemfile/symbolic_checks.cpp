// The symbolic checks of a system file (symbolic_checks.hpp), by GiNaC.
#include "symbolic_checks.hpp"

#include "decimal_range.hpp"
#include "nhs/scalar.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace nhs::systemfile {
namespace {

using detail::out_of_range;
using expression::Ast;
using expression::Bindings;
using expression::Kind;
using expression::Program;

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

}  // namespace


// symbolic_checks.hpp
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

// symbolic_checks.hpp
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

// symbolic_checks.hpp
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

namespace {

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
      case Kind::Name:
        if (const auto it = sym.lets.find(a.text); it != sym.lets.end()) return it->second;
        return a.text == "pi" && !sym.symbols.count("pi") ? ex(Pi) : ex(sym.symbol(a.text));
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

}  // namespace

// symbolic_checks.hpp. The whole tree in post-order without recursion: a chain a + b + c + ...
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

}  // namespace nhs::systemfile
