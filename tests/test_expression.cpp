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

#include <string>

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

}  // namespace
