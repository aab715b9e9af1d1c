// Implementation of nhs/expression.hpp: the grammar in Boost.Spirit X3
// (docs/system-files.md says why X3 and not GiNaC's own parser), the
// compilation of syntax trees into Programs, and exact constants of the
// tracing scalar.
#include "nhs/expression.hpp"

#include "nhs/codegen/differentiate.hpp"

#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace nhs::expression {
namespace {

namespace x3 = boost::spirit::x3;
using codegen::Op;
using It = std::string_view::const_iterator;

// The parse's context: where the text starts (positions) and the current
// nesting depth (kMaxExpressionDepth).
struct State {
  It begin;
  int depth = 0;
};
struct state_tag;

template <class Ctx>
State& state(const Ctx& ctx) {
  return x3::get<state_tag>(ctx).get();
}
template <class Ctx>
std::size_t offset(const Ctx& ctx, It at) {
  return static_cast<std::size_t>(at - state(ctx).begin);
}

// depth[p]: p, counted as one more level of nesting; ExpressionError past
// kMaxExpressionDepth (recursion on hostile input stays bounded).
template <class Subject>
struct DepthDirective : x3::unary_parser<Subject, DepthDirective<Subject>> {
  using base = x3::unary_parser<Subject, DepthDirective<Subject>>;
  static constexpr bool is_pass_through_unary = true;
  constexpr explicit DepthDirective(const Subject& s) : base(s) {}
  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, const Iterator& last, const Context& ctx, RContext& rctx,
             Attribute& attr) const {
    State& st = state(ctx);
    if (++st.depth > kMaxExpressionDepth)
      throw ExpressionError(static_cast<std::size_t>(first - st.begin),
                            "nested deeper than " + std::to_string(kMaxExpressionDepth) +
                                " levels (parentheses, signs, powers)");
    const bool ok = this->subject.parse(first, last, ctx, rctx, attr);
    --st.depth;
    return ok;
  }
};
struct DepthGen {
  template <class Subject>
  constexpr DepthDirective<typename x3::extension::as_parser<Subject>::value_type> operator[](
      const Subject& s) const {
    return DepthDirective<typename x3::extension::as_parser<Subject>::value_type>(x3::as_parser(s));
  }
};
constexpr DepthGen depth{};

// --- semantic actions ---------------------------------------------------------
// Tokens whose position matters are rules with an iterator-range attribute
// (x3::raw; raw skips white space first, so the range starts at the token).
using Range = boost::iterator_range<It>;
const auto assign = [](auto& ctx) { x3::_val(ctx) = std::move(x3::_attr(ctx)); };
template <Kind K>
struct MakeLeaf {
  template <class Ctx>
  void operator()(Ctx& ctx) const {
    const Range& r = x3::_attr(ctx);
    Ast a;
    a.kind = K;
    a.position = offset(ctx, r.begin());
    a.text.assign(r.begin(), r.end());
    x3::_val(ctx) = std::move(a);
  }
};
const MakeLeaf<Kind::Number> make_number{};
const MakeLeaf<Kind::Name> make_name{};
const auto push_argument = [](auto& ctx) { x3::_val(ctx).args.push_back(std::move(x3::_attr(ctx))); };
// (operator range, right operand) -> binary node with _val on the left.
const auto make_binary = [](auto& ctx) {
  auto& attr = x3::_attr(ctx);
  const Range& r = boost::fusion::at_c<0>(attr);
  Ast node;
  switch (*r.begin()) {
    case '+': node.kind = Kind::Add; break;
    case '-': node.kind = Kind::Sub; break;
    case '*': node.kind = Kind::Mul; break;
    case '/': node.kind = Kind::Div; break;
    default: node.kind = Kind::Pow; break;
  }
  node.position = offset(ctx, r.begin());
  node.args.push_back(std::move(x3::_val(ctx)));
  node.args.push_back(std::move(boost::fusion::at_c<1>(attr)));
  x3::_val(ctx) = std::move(node);
};
const auto make_neg = [](auto& ctx) {
  auto& attr = x3::_attr(ctx);
  Ast node;
  node.kind = Kind::Neg;
  node.position = offset(ctx, boost::fusion::at_c<0>(attr).begin());
  node.args.push_back(std::move(boost::fusion::at_c<1>(attr)));
  x3::_val(ctx) = std::move(node);
};

// --- grammar --------------------------------------------------------------------
// Rule names are what an expectation failure says was expected, in words.
// Every parser right of an expectation ('>') is therefore a rule: X3's
// what() of anything else (a directive, an action, a list) is its mangled
// C++ type name ("N5boost6spirit2x36actionIN3nhs10expression...").
const x3::rule<class expression_, Ast> expression_rule = "an expression";
const x3::rule<class term_, Ast> term = "an operand";
const x3::rule<class unary_, Ast> unary = "an operand";
const x3::rule<class nested_unary_, Ast> nested_unary = "an operand";
const x3::rule<class power_, Ast> power = "an operand";
const x3::rule<class primary_, Ast> primary = "a number, a name or '('";
const x3::rule<class parenthesized_, Ast> parenthesized = "'('";
const x3::rule<class nested_expression_, Ast> nested_expression = "an expression";
const x3::rule<class number_, Ast> number = "a number";
const x3::rule<class call_or_name_, Ast> call_or_name = "a name";
// A call's argument list: its Ast collects the arguments (take_arguments).
const x3::rule<class call_arguments_, Ast> call_arguments = "'('";
const x3::rule<class arguments_, Ast> arguments = "an argument";
const x3::rule<class argument_, Ast> argument = "an argument";
const x3::rule<class next_argument_, Ast> next_argument = "',' and an argument";

const auto digits = +x3::digit;
const auto number_text = x3::lexeme[((digits >> -('.' >> *x3::digit)) | ('.' >> digits)) >>
                                    -(x3::char_("eE") >> -x3::char_("+-") >> digits) >>
                                    !(x3::alpha | '_')];
const auto identifier = x3::lexeme[(x3::alpha | x3::char_('_')) >> *(x3::alnum | x3::char_('_'))];
const x3::rule<class closing_, x3::unused_type> closing = "a closing parenthesis ')'";
const auto closing_def = x3::lit(')');

const x3::rule<class add_op_, Range> add_op = "'+' or '-'";
const x3::rule<class mul_op_, Range> mul_op = "'*' or '/'";
const x3::rule<class pow_op_, Range> pow_op = "'^'";
const x3::rule<class minus_op_, Range> minus_op = "'-'";
const x3::rule<class number_range_, Range> number_range = "a number";
const x3::rule<class name_range_, Range> name_range = "a name";
const auto add_op_def = x3::raw[x3::char_("+-")];
const auto mul_op_def = x3::raw[x3::char_("*/")];
const auto pow_op_def = x3::raw[x3::char_('^')];
const auto minus_op_def = x3::raw[x3::lit('-')];
const auto number_range_def = x3::raw[number_text];
const auto name_range_def = x3::raw[identifier];

// The call's arguments into the name's node, which becomes the call.
const auto take_arguments = [](auto& ctx) {
  x3::_val(ctx).kind = Kind::Call;
  x3::_val(ctx).args = std::move(x3::_attr(ctx).args);
};

const auto expression_rule_def = term[assign] >> *((add_op > term)[make_binary]);
const auto term_def = unary[assign] >> *((mul_op > unary)[make_binary]);
const auto unary_def = (minus_op > nested_unary)[make_neg] | (x3::lit('+') > nested_unary)[assign] |
                       power[assign];
const auto nested_unary_def = depth[unary];
const auto power_def = primary[assign] >> -((pow_op > nested_unary)[make_binary]);
const auto number_def = number_range[make_number];
const auto call_or_name_def = name_range[make_name] >> -call_arguments[take_arguments];
const auto call_arguments_def = x3::lit('(') > arguments > closing;
const auto arguments_def = argument[push_argument] >> *next_argument[push_argument];
const auto argument_def = depth[expression_rule];
const auto next_argument_def = x3::lit(',') > argument;
const auto parenthesized_def = x3::lit('(') > nested_expression > closing;
const auto nested_expression_def = depth[expression_rule];
const auto primary_def = number[assign] | call_or_name[assign] | parenthesized[assign];

BOOST_SPIRIT_DEFINE(expression_rule, term, unary, nested_unary, power, primary, parenthesized,
                    nested_expression, number, call_or_name, call_arguments, arguments, argument,
                    next_argument, closing, add_op, mul_op, pow_op, minus_op, number_range, name_range)

// The first character at or after `at` that is not white space (the
// skipper's), or `end`.
It next_token(It at, It end) {
  while (at != end && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')) ++at;
  return at;
}

std::string quoted(It at, It end) {
  if (at == end) return "the end of the expression";
  return std::string("'") + *at + "'";
}

// Every node of a in pre-order, left to right, without recursion: a chain
// a + b + c + ... parses into a left-deep tree as deep as it is long (up to
// kMaxExpressionLength / 2 levels), too deep for the call stack.
template <class F>
void for_each_node(const Ast& a, F&& f) {
  std::vector<const Ast*> stack{&a};
  while (!stack.empty()) {
    const Ast* n = stack.back();
    stack.pop_back();
    f(*n);
    for (auto it = n->args.rbegin(); it != n->args.rend(); ++it) stack.push_back(&*it);
  }
}

// Calls: known function, right number of arguments (positions of the call).
void check_call(const Ast& a) {
  if (a.kind != Kind::Call) return;
  std::string known;
  for (const auto& [name, arity] : functions()) {
    known += (known.empty() ? "" : " ") + name;
    if (name == a.text) {
      if (static_cast<int>(a.args.size()) != arity)
        throw ExpressionError(a.position, "function '" + name + "' takes " + std::to_string(arity) +
                                              " argument" + (arity == 1 ? "" : "s") + ", got " +
                                              std::to_string(a.args.size()));
      return;
    }
  }
  throw ExpressionError(a.position, "unknown function '" + a.text + "' (known: " + known + ")");
}

// check_call on every node in post-order (an inner call's error first),
// without recursion: the root-right-left pre-order, reversed.
void check_calls(const Ast& a) {
  std::vector<const Ast*> order, stack{&a};
  while (!stack.empty()) {
    const Ast* n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (const Ast& c : n->args) stack.push_back(&c);
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) check_call(**it);
}

void collect_names(const Ast& a, std::vector<std::string>& out) {
  for_each_node(a, [&out](const Ast& n) {
    if (n.kind == Kind::Name && std::find(out.begin(), out.end(), n.text) == out.end())
      out.push_back(n.text);
  });
}

// The exact rational value of a literal exponent (a number, -number,
// number/number, or those in parentheses); false when it is not one.
bool rational_exponent(const Ast& a, long long& num, long long& den) {
  switch (a.kind) {
    case Kind::Number: {
      // Integers and simple decimals only (at most 9 digits after the point).
      const std::string& t = a.text;
      if (t.find_first_of("eE") != std::string::npos || t.size() > 15) return false;
      long long n = 0, d = 1;
      bool point = false;
      for (char c : t) {
        if (c == '.') {
          point = true;
          continue;
        }
        n = n * 10 + (c - '0');
        if (point) d *= 10;
      }
      num = n;
      den = d;
      return true;
    }
    case Kind::Neg:
      if (!rational_exponent(a.args[0], num, den)) return false;
      num = -num;
      return true;
    case Kind::Div: {
      long long n1, d1, n2, d2;
      if (!rational_exponent(a.args[0], n1, d1) || !rational_exponent(a.args[1], n2, d2) || n2 == 0)
        return false;
      // Products checked (hostile exponents such as 4294967296/(5/2147483648)
      // overflowed, and LLONG_MIN / -1 in the reduction below raised SIGFPE).
      constexpr long long kLimit = 1000000000000000000LL;
      if (__builtin_mul_overflow(n1, d2, &num) || __builtin_mul_overflow(d1, n2, &den) ||
          num > kLimit || num < -kLimit || den > kLimit || den < -kLimit)
        return false;
      if (den < 0) {
        num = -num;
        den = -den;
      }
      return true;
    }
    default: return false;
  }
}

long long gcd(long long a, long long b) {  // |a|, |b| <= 10^18: no overflow
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    const long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// Compiles syntax trees into the program's graph, as written (Graph::append).
struct Compiler {
  Program& program;
  const Bindings& bindings;

  codegen::Graph& graph() { return program.graph; }
  int unary(Op op, int a) { return graph().append(op, a); }
  int binary(Op op, int a, int b) { return graph().append(op, a, b); }

  // A name bound to a let: its node, compiled at its first use in this
  // program. Every name its tree uses (through other lets too) must be
  // bound here: a let compiled under wider bindings (with the velocities,
  // say) is not reused where they are not known.
  int let(const Ast& use, const Ast& tree) {
    if (const std::string missing = unbound_name(tree); !missing.empty())
      throw ExpressionError(use.position, "'" + use.text + "' (a [let] name) uses '" + missing +
                                              "', which is not known here");
    if (const auto it = program.let_nodes.find(&tree); it != program.let_nodes.end()) return it->second;
    if (!open_lets.insert(&tree).second)
      throw ExpressionError(use.position, "'" + use.text + "' (a [let] name) is defined in terms of itself");
    const int id = compile(tree);
    open_lets.erase(&tree);
    program.let_nodes.emplace(&tree, id);
    return id;
  }

  // The first name used by `a` (through lets too, each looked at once) that
  // `bindings` do not bind, else "".
  std::string unbound_name(const Ast& a) {
    if (a.kind == Kind::Name) {
      const auto it = bindings.find(a.text);
      if (it == bindings.end()) return a.text == "pi" ? "" : a.text;
      const Ast* tree = it->second.let;
      return tree && checked_lets.insert(tree).second ? unbound_name(*tree) : "";
    }
    for (const Ast& b : a.args)
      if (std::string m = unbound_name(b); !m.empty()) return m;
    return "";
  }

  std::set<const Ast*> checked_lets;  // lets whose names are all bound here
  std::set<const Ast*> open_lets;     // lets being compiled (a cycle's guard)

  int compile(const Ast& a) {
    switch (a.kind) {
      case Kind::Number: return graph().decimal(a.text);
      case Kind::Name: {
        if (const auto it = bindings.find(a.text); it != bindings.end()) {
          if (it->second.let) return let(a, *it->second.let);
          if (it->second.node >= 0) return it->second.node;
          return graph().input(it->second.array + 1, it->second.index);  // parameters: array 0
        }
        if (a.text == "pi") return graph().pi();
        std::string known;
        for (const auto& [name, b] : bindings) known += (known.empty() ? "" : ", ") + name;
        throw ExpressionError(a.position, "unknown name '" + a.text + "' (known here: " +
                                              (known.empty() ? "none" : known) + ", pi)");
      }
      case Kind::Neg: return unary(Op::Neg, compile(a.args[0]));
      case Kind::Add:
      case Kind::Sub:
      case Kind::Mul:
      case Kind::Div: return chain(a);
      case Kind::Pow: return power(a.args[0], a.args[1]);
      case Kind::Call: return call(a);
    }
    return -1;
  }

  // A left-deep chain ((x op1 y1) op2 y2) ...: its left spine walked in a
  // loop (it is as deep as the chain is long), the same nodes in the same
  // order as the recursion would append.
  int chain(const Ast& a) {
    const auto is_chain = [](Kind k) { return k == Kind::Add || k == Kind::Sub || k == Kind::Mul || k == Kind::Div; };
    std::vector<const Ast*> spine;
    const Ast* leaf = &a;
    while (is_chain(leaf->kind)) {
      spine.push_back(leaf);
      leaf = &leaf->args[0];
    }
    int value = compile(*leaf);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
      const Ast& n = **it;
      const Op op = n.kind == Kind::Add ? Op::Add : n.kind == Kind::Sub ? Op::Sub : n.kind == Kind::Mul ? Op::Mul : Op::Div;
      const int right = compile(n.args[1]);
      value = binary(op, value, right);
    }
    return value;
  }

  // x^k by binary powering (x^5 = x (x^2)^2: the product of the squarings
  // x^(2^j) for the bits j of k, in increasing j), 1/x^|k| for k < 0, 1 for
  // k = 0.
  int power_int(int x, int k) {
    if (k < 0) return binary(Op::Div, graph().rational(1, 1), power_int(x, -k));
    int result = graph().rational(1, 1), base = x;
    bool first = true;
    while (k > 0) {
      if (k & 1) {
        result = first ? base : binary(Op::Mul, result, base);
        first = false;
      }
      k >>= 1;
      if (k > 0) base = binary(Op::Mul, base, base);
    }
    return result;
  }

  // x^y: repeated multiplication for an integer literal exponent (|k| <= 64),
  // sqrt(x)^k for k/2, exp(y log x) otherwise (x > 0).
  int power(const Ast& base, const Ast& exponent) {
    int k = 0;
    switch (power_evaluation(exponent, &k)) {
      case PowerEvaluation::Integer: return power_int(compile(base), k);
      case PowerEvaluation::HalfInteger: return power_int(unary(Op::Sqrt, compile(base)), k);
      case PowerEvaluation::ExpLog: break;
    }
    const int x = compile(base);
    const int y = compile(exponent);
    return unary(Op::Exp, binary(Op::Mul, y, unary(Op::Log, x)));
  }

  int call(const Ast& a) {
    static const std::map<std::string, Op, std::less<>> unary_ops = {
        {"sin", Op::Sin},     {"cos", Op::Cos},     {"tan", Op::Tan},   {"asin", Op::Asin},
        {"acos", Op::Acos},   {"atan", Op::Atan},   {"sinh", Op::Sinh}, {"cosh", Op::Cosh},
        {"tanh", Op::Tanh},   {"asinh", Op::Asinh}, {"acosh", Op::Acosh}, {"atanh", Op::Atanh},
        {"exp", Op::Exp},     {"log", Op::Log},     {"sqrt", Op::Sqrt}, {"abs", Op::Abs}};
    if (a.text == "atan2") {
      const int y = compile(a.args[0]);
      return binary(Op::Atan2, y, compile(a.args[1]));
    }
    if (a.text == "pow") return power(a.args[0], a.args[1]);
    return unary(unary_ops.at(a.text), compile(a.args[0]));
  }
};

}  // namespace

PowerEvaluation power_evaluation(const Ast& exponent, int* k) {
  long long num = 0, den = 1;
  if (rational_exponent(exponent, num, den) && den != 0) {
    const long long g = gcd(num, den);
    if (g != 0) {
      num /= g;
      den /= g;
    }
    if (den == 1 && num >= -64 && num <= 64) {
      if (k) *k = static_cast<int>(num);
      return PowerEvaluation::Integer;
    }
    if (den == 2 && num >= -129 && num <= 129) {
      if (k) *k = static_cast<int>(num);
      return PowerEvaluation::HalfInteger;
    }
  }
  return PowerEvaluation::ExpLog;
}

const std::vector<std::pair<std::string, int>>& functions() {
  static const std::vector<std::pair<std::string, int>> f = {
      {"sin", 1},  {"cos", 1},   {"tan", 1},   {"asin", 1},  {"acos", 1},  {"atan", 1},
      {"atan2", 2}, {"sinh", 1}, {"cosh", 1},  {"tanh", 1},  {"asinh", 1}, {"acosh", 1},
      {"atanh", 1}, {"exp", 1},  {"log", 1},   {"sqrt", 1},  {"abs", 1},   {"pow", 2}};
  return f;
}

Ast parse(std::string_view text) {
  if (text.size() > kMaxExpressionLength)
    throw ExpressionError(kMaxExpressionLength, "longer than " +
                                                    std::to_string(kMaxExpressionLength) +
                                                    " characters");
  // Printable ASCII and white space only: the grammar's names and numbers
  // are ASCII, and a byte beyond it (UTF-8 of a Greek letter, a NUL) would
  // reach the character classes, which are defined on ASCII alone.
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 127 || (c < 32 && c != ' ' && c != '\t' && c != '\n' && c != '\r'))
      throw ExpressionError(i, "unexpected byte 0x" + std::string(1, "0123456789abcdef"[c >> 4]) +
                                   std::string(1, "0123456789abcdef"[c & 15]) +
                                   " (expressions are ASCII: names are letters, digits and '_')");
  }
  State st{text.begin(), 0};
  It first = text.begin();
  const It last = text.end();
  Ast result;
  try {
    const auto grammar = x3::with<state_tag>(std::ref(st))[expression_rule];
    const bool ok = x3::phrase_parse(first, last, grammar, x3::space, result);
    if (!ok) {
      const It at = next_token(first, last);
      throw ExpressionError(static_cast<std::size_t>(at - text.begin()),
                            (text.find_first_not_of(" \t\r\n") == std::string_view::npos
                                 ? std::string("empty expression")
                                 : "expected a number, a name or '(', got " + quoted(at, last)));
    }
  } catch (const x3::expectation_failure<It>& e) {
    // The expectation's position is before the white space that its parser
    // skips: the error is at the token that follows (or at the end).
    const It at = next_token(e.where(), last);
    throw ExpressionError(static_cast<std::size_t>(at - text.begin()),
                          "expected " + e.which() + ", got " + quoted(at, last));
  }
  if (first != last)
    throw ExpressionError(static_cast<std::size_t>(first - text.begin()),
                          "unexpected " + quoted(first, last) + " (expected an operator or the end)");
  check_calls(result);
  return result;
}

std::vector<std::string> names_in(const Ast& ast) {
  std::vector<std::string> out;
  collect_names(ast, out);
  return out;
}

int Program::add(const Ast& ast, const Bindings& bindings) {
  Compiler c{*this, bindings};
  outputs.push_back(c.compile(ast));
  return static_cast<int>(outputs.size()) - 1;
}

int Program::node(const Ast& ast, const Bindings& bindings) {
  Compiler c{*this, bindings};
  return c.compile(ast);
}

int Program::derivative_along(int f, int of, int along, int count) {
  // Graph arrays: 0 the parameters, k + 1 input k.
  const std::vector<int> d = codegen::jacobian_nodes(graph, {f}, of + 1, count);
  int sum = graph.constant(0);
  for (int i = 0; i < count; ++i)
    sum = graph.apply(Op::Add, sum, graph.apply(Op::Mul, d[static_cast<std::size_t>(i)], graph.input(along + 1, i)));
  return sum;
}

int Program::add_derivative_along(const Ast& ast, const Bindings& bindings, int of, int along, int count) {
  const int sum = derivative_along(node(ast, bindings), of, along, count);
  outputs.push_back(sum);
  return static_cast<int>(outputs.size()) - 1;
}

template <>
codegen::Expr constant_of<codegen::Expr>(const std::string& text) {
  using codegen::Expr;
  // text = digits [. digits] [e[+-]digits], as the grammar admits it.
  std::string mantissa;
  long long exponent = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      for (std::size_t j = i + 1; j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])); ++j)
        --exponent;
      continue;
    }
    mantissa += text[i];
  }
  if (i < text.size()) {
    long long e = 0;
    bool negative = false;
    std::size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) negative = text[j++] == '-';
    for (; j < text.size(); ++j) e = std::min<long long>(e * 10 + (text[j] - '0'), 100000);
    exponent += negative ? -e : e;
  }
  const auto first_digit = mantissa.find_first_not_of('0');
  if (first_digit == std::string::npos) return Expr(0);
  mantissa.erase(0, first_digit);
  // Horner in chunks of 9 digits: exact while the value fits (the graph
  // folds rationals with 64-bit terms), computed in the generated code's
  // precision beyond.
  Expr value(0);
  for (std::size_t k = 0; k < mantissa.size(); k += 9) {
    const std::string chunk = mantissa.substr(k, 9);
    long long scale = 1;
    for (std::size_t c = 0; c < chunk.size(); ++c) scale *= 10;
    value = value * Expr(static_cast<double>(scale)) + Expr(static_cast<double>(std::stoll(chunk)));
  }
  Expr ten_power(1), square(10);
  for (long long k = exponent < 0 ? -exponent : exponent; k > 0; k >>= 1) {
    if (k & 1) ten_power = ten_power * square;
    square = square * square;
  }
  return exponent < 0 ? value / ten_power : value * ten_power;
}

}  // namespace nhs::expression
