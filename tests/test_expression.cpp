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
