// ctest-labels: unit
// nhs/expression.hpp on the longest texts it accepts: a chain a + b + c + ...
// parses into a left-deep tree as deep as the chain is long (up to
// kMaxExpressionLength / 2 levels), which parsing, the checks, compilation,
// evaluation and destruction must walk without exhausting the call stack
// (a 7,000-term sum in a system file crashed the loader with a stack
// overflow). The values are exact sums and products, so that a wrong order
// of operations or a lost term shows.
#include "nhs/expression.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace nhs;
using namespace nhs::expression;

double value_of(const std::string& text, double x) {
  const Ast ast = parse(text);
  Program p;
  p.add(ast, Bindings{{"x", Binding{0, 0}}});
  const Constants<double> c = constants_of<double>(p);
  const Params<double> params(std::vector<double>{});
  Vec<double> in(1);
  in[0] = x;
  double out = 0;
  evaluate(p, c, params, {&in}, &out);
  return out;
}

// "x" followed by (terms - 1) copies of `step`, e.g. "+x".
std::string chain(const std::string& first, const std::string& step, std::size_t terms) {
  std::string s = first;
  s.reserve(first.size() + step.size() * terms);
  for (std::size_t k = 1; k < terms; ++k) s += step;
  return s;
}

TEST(Expression, LongestSumIsExact) {
  const std::size_t terms = (kMaxExpressionLength - 1) / 2 + 1;  // "x+x+...+x", 19,999 characters
  const std::string text = chain("x", "+x", terms);
  ASSERT_LE(text.size(), kMaxExpressionLength);
  EXPECT_EQ(value_of(text, 1.0), static_cast<double>(terms));
}

TEST(Expression, LongDifferenceAndProductChainsKeepTheirOrder) {
  // 1 - x - x - ... : left to right, so 1 - (n - 1) x.
  const std::size_t terms = 9000;
  EXPECT_EQ(value_of(chain("1", "-x", terms), 1.0), 1.0 - static_cast<double>(terms - 1));
  // x*x*...*x with x = 1 and x / x / ... : exact.
  EXPECT_EQ(value_of(chain("x", "*x", terms), 1.0), 1.0);
  EXPECT_EQ(value_of(chain("x", "/x", terms), -1.0), (terms % 2 == 1) ? -1.0 : 1.0);
  // Mixed: x + x*x - x/x repeated, evaluated left to right with precedence.
  EXPECT_EQ(value_of(chain("0", "+x*x-x/x", 2000), 3.0), 1999.0 * (9.0 - 1.0));
}

TEST(Expression, LongChainErrorsStillNameTheirPosition) {
  // The unknown name is the last term of a 9,000-term sum.
  const std::string text = chain("x", "+x", 8999) + "+y";
  try {
    Program p;
    p.add(parse(text), Bindings{{"x", Binding{0, 0}}});
    FAIL() << "no error for an unknown name";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.position, text.size() - 1);
    EXPECT_NE(e.reason.find("unknown name 'y'"), std::string::npos) << e.reason;
  }
  // An unknown function deep in a long chain.
  const std::string call = chain("x", "+x", 8000) + "+foo(x)";
  try {
    (void)parse(call);
    FAIL() << "no error for an unknown function";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.position, call.size() - 6);
    EXPECT_NE(e.reason.find("unknown function 'foo'"), std::string::npos) << e.reason;
  }
}

TEST(Expression, NamesOfALongChainAreListedOnceInOrder) {
  const std::string text = chain("x", "+y+x", 4000) + "+z";
  const std::vector<std::string> names = names_in(parse(text));
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "z"}));
}

// Every syntax error names what was expected in words, at the character
// where it was expected (white space skipped): incomplete expressions
// ("sin(", "x^") printed X3's mangled C++ type names ("expected
// N5boost6spirit2x36actionIN3nhs10expression12_GLOBAL__N_114DepthDirective...").
// Every prefix of some valid expressions, and each with a stray token
// inserted at every place, parses or fails with one of the messages below.
TEST(Expression, SyntaxErrorsNameWhatWasExpectedInWords) {
  const std::vector<std::string> expected = {"an operand", "an expression", "an argument",
                                             "a closing parenthesis ')'", "a number, a name or '('"};
  const auto well_formed = [&](const std::string& text, const ExpressionError& e) {
    const std::string& r = e.reason;
    for (const char* mangled : {"boost", "spirit", "_GLOBAL__", "Directive", "N3nhs"})
      if (r.find(mangled) != std::string::npos) return false;
    if (e.position > text.size()) return false;
    // At a token, or at the end: never on the white space before it.
    if (e.position < text.size() && std::isspace(static_cast<unsigned char>(text[e.position]))) return false;
    const std::string got = e.position == text.size() ? "the end of the expression"
                                                      : std::string("'") + text[e.position] + "'";
    if (r == "empty expression") return text.find_first_not_of(" \t") == std::string::npos;
    if (r == "unexpected " + got + " (expected an operator or the end)") return true;
    for (const std::string& what : expected)
      if (r == "expected " + what + ", got " + got) return true;
    return r.rfind("unknown function '", 0) == 0 || r.rfind("function '", 0) == 0;
  };
  const std::vector<std::string> valid = {
      "sin(x)^2 + cos(x)^2", "-x^-2*(1 + x)/ (2 - x)", "pow(x, 2) - atan2(x, -1.5e-3)",
      "((x))", "+x - -x", "exp( log( x ) ) * sqrt(abs(x))", "2^3^2 - x*(x + (x*(x - 1)))"};
  const std::vector<std::string> stray = {")", "(", ",", "^", "*", "+", " ", "sin", "1.5", "x"};
  int failures = 0, checked = 0;
  const auto check = [&](const std::string& text) {
    ++checked;
    try {
      (void)parse(text);
    } catch (const ExpressionError& e) {
      ++failures;
      EXPECT_TRUE(well_formed(text, e)) << "'" << text << "': " << e.reason << " (at " << e.position << ")";
    }
  };
  for (const std::string& v : valid) {
    for (std::size_t k = 0; k <= v.size(); ++k) check(v.substr(0, k));
    for (std::size_t k = 0; k <= v.size(); ++k)
      for (const std::string& t : stray) check(v.substr(0, k) + t + v.substr(k));
  }
  EXPECT_GT(failures, checked / 4);  // most prefixes are incomplete
  std::cout << "[ syntax   ] " << checked << " texts, " << failures << " refused\n";
}

// The messages and positions of the usual mistakes.
TEST(Expression, SyntaxErrorMessagesAndPositions) {
  const std::vector<std::tuple<std::string, std::size_t, std::string>> cases = {
      {"sin(", 4, "expected an argument, got the end of the expression"},
      {"sin()", 4, "expected an argument, got ')'"},
      {"x^", 2, "expected an operand, got the end of the expression"},
      {"x ^  ", 5, "expected an operand, got the end of the expression"},
      {"x^)", 2, "expected an operand, got ')'"},
      {"-", 1, "expected an operand, got the end of the expression"},
      {"x + * 2", 4, "expected an operand, got '*'"},
      {"()", 1, "expected an expression, got ')'"},
      {"(x + 1", 6, "expected a closing parenthesis ')', got the end of the expression"},
      {"(x + 1 2)", 7, "expected a closing parenthesis ')', got '2'"},
      {"pow(x, ", 7, "expected an argument, got the end of the expression"},
      {"pow(x 2)", 6, "expected a closing parenthesis ')', got '2'"},
      {")", 0, "expected a number, a name or '(', got ')'"},
      {"  )", 2, "expected a number, a name or '(', got ')'"},
      {"x)", 1, "unexpected ')' (expected an operator or the end)"},
      {"   ", 3, "empty expression"},
  };
  for (const auto& [text, position, reason] : cases) {
    try {
      (void)parse(text);
      ADD_FAILURE() << "'" << text << "' parsed";
    } catch (const ExpressionError& e) {
      EXPECT_EQ(e.reason, reason) << "'" << text << "'";
      EXPECT_EQ(e.position, position) << "'" << text << "': " << e.reason;
    }
  }
}

}  // namespace

// Named sub-expressions (Binding::let, a file's [let]): one node of the
// graph however often they are used, the value of the expression written
// out, and refused by name where a name they use is not known.
namespace lets {

using namespace nhs;
using namespace nhs::expression;

double evaluate_output(const Program& p, int k, double x, double xd) {
  const Constants<double> c = constants_of<double>(p);
  const Params<double> params(std::vector<double>{});
  Vec<double> q(1), qd(1);
  q[0] = x;
  qd[0] = xd;
  std::vector<double> out(p.outputs.size());
  evaluate(p, c, params, {&q, &qd}, out.data());
  return out[static_cast<std::size_t>(k)];
}

TEST(ExpressionLet, ALetIsOneNodeAndHasTheValueOfItsText) {
  const Ast s = parse("sin(x)^2 + x*x_dot");
  Bindings b{{"x", Binding{0, 0}}, {"x_dot", Binding{1, 0}}};
  b["s"] = Binding{-1, -1, &s};
  Program with_let, written_out;
  with_let.add(parse("s*s + 3*s - s/(1 + s^2)"), b);
  const std::string t = "(sin(x)^2 + x*x_dot)";
  written_out.add(parse(t + "*" + t + " + 3*" + t + " - " + t + "/(1 + " + t + "^2)"), b);
  for (double x : {-1.3, 0.2, 2.7})
    EXPECT_EQ(evaluate_output(with_let, 0, x, 0.4 * x), evaluate_output(written_out, 0, x, 0.4 * x)) << x;
  // The let's 4 operations (sin, its square, x*x_dot, the sum; the leaves
  // are shared) are in the graph once, not five times.
  EXPECT_EQ(written_out.graph.size() - with_let.graph.size(), 4 * 4);
  // A later output of the same program reuses the let's node.
  const int before = with_let.graph.size();
  with_let.add(parse("s"), b);
  EXPECT_EQ(with_let.graph.size(), before);
  EXPECT_EQ(with_let.outputs[1], with_let.let_nodes.at(&s));
}

TEST(ExpressionLet, ALetUsingAVelocityIsRefusedWhereOnlyQIsKnown) {
  const Ast v = parse("x_dot^2");
  const Ast c = parse("cos(x)");
  Bindings q_only{{"x", Binding{0, 0}}};
  q_only["v"] = Binding{-1, -1, &v};
  q_only["c"] = Binding{-1, -1, &c};
  Program p;
  p.add(parse("1 + c"), q_only);  // fine: c uses q alone
  try {
    p.add(parse("c + 2*v"), q_only);
    FAIL() << "a velocity through a let was accepted in a q-only expression";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.position, 6u);  // at the use of v
    EXPECT_NE(e.reason.find("'v'"), std::string::npos) << e.reason;
    EXPECT_NE(e.reason.find("'x_dot'"), std::string::npos) << e.reason;
  }
}

TEST(ExpressionLet, ALetDefinedInTermsOfItselfIsRefused) {
  const Ast a = parse("1 + b"), b_tree = parse("2*a");
  Bindings b{{"x", Binding{0, 0}}};
  b["a"] = Binding{-1, -1, &a};
  b["b"] = Binding{-1, -1, &b_tree};
  Program p;
  try {
    p.add(parse("x + a"), b);
    FAIL() << "a cyclic let was compiled";
  } catch (const ExpressionError& e) {
    EXPECT_NE(e.reason.find("itself"), std::string::npos) << e.reason;
  }
}

}  // namespace lets
