// ctest-labels: unit
// One expression IR (issue 34): a system file's expressions compile into a
// graph of the code generator's operations (nhs/expression.hpp, Program;
// codegen/expr.hpp), built as written. The same graph is evaluated node by
// node in any type (expression::evaluate: the library's path, AD types
// included) and run by the scheduled interpreter of the traced fields
// (codegen::Interpreter). Held here:
// - both evaluators give the same bits on random expressions over every
//   operation the grammar has, in every scalar type, and a first-order AD
//   evaluation carries those very values;
// - the graph is the text as written: no folding, no simplification (0.1*3
//   is from_string("0.1") times 3, x/3 is not x*(1/3), x + 0 keeps x's
//   sign only where the text says so);
// - sin, cos and tan of an argument beyond 1e300 are NaN in every evaluator
//   and every type (also through the interpreter's sincos);
// - the emitter refuses the as-written leaves (Decimal, Pi) by name: it
//   writes traced graphs only.
// Fixed seeds, no clock.
#include "nhs/autodiff.hpp"
#include "nhs/codegen/emit.hpp"
#include "nhs/codegen/interpret.hpp"
#include "nhs/expression.hpp"
#include "nhs/scalar.hpp"
#include "identical_bits.hpp"

#include <gtest/gtest.h>

#include <boost/math/special_functions/fpclassify.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using nhs::test::identical;

using namespace nhs;
using namespace nhs::expression;

const Bindings& bindings() {
  // x, y: input 0; w: input 1; m: a parameter.
  static const Bindings b = {
      {"x", Binding{0, 0}}, {"y", Binding{0, 1}}, {"w", Binding{1, 0}}, {"m", Binding{-1, 0}}};
  return b;
}

/// A random expression text over every operation of the grammar: literals
/// (integers, decimals, exponents), the names, pi, + - * / unary minus, ^
/// with integer, half-integer and other exponents, and every function.
std::string random_text(std::mt19937_64& rng, int depth) {
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  static const char* const leaves[] = {"x", "y", "w", "m", "pi", "0.1", "3", "2.5e-3", "1.25", "7E2", ".5"};
  static const char* const unary[] = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
                                      "asinh", "acosh", "atanh", "exp", "log", "sqrt", "abs"};
  static const char* const exponents[] = {"2", "3", "-1", "-3", "0", "1/2", "3/2", "-(5/2)", "x", "0.3", "17"};
  if (depth <= 0) return leaves[pick(11)];
  switch (pick(9)) {
    case 0: return "(" + random_text(rng, depth - 1) + " + " + random_text(rng, depth - 1) + ")";
    case 1: return "(" + random_text(rng, depth - 1) + " - " + random_text(rng, depth - 1) + ")";
    case 2: return random_text(rng, depth - 1) + "*" + random_text(rng, depth - 1);
    case 3: return "(" + random_text(rng, depth - 1) + ")/(" + random_text(rng, depth - 1) + ")";
    case 4: return "-" + random_text(rng, depth - 1);
    case 5: return "(" + random_text(rng, depth - 1) + ")^" + exponents[pick(11)];
    case 6: return std::string(unary[pick(16)]) + "(" + random_text(rng, depth - 1) + ")";
    case 7: return "atan2(" + random_text(rng, depth - 1) + ", " + random_text(rng, depth - 1) + ")";
    default: return "pow(" + random_text(rng, depth - 1) + ", " + exponents[pick(11)] + ")";
  }
}

template <class S>
S random_value(std::mt19937_64& rng) {
  switch (std::uniform_int_distribution<int>(0, 11)(rng)) {
    case 0: return S(0);
    case 1: return -S(0);
    case 2: return S(1e200);
    default: return S(std::uniform_real_distribution<double>(-2, 2)(rng));
  }
}

/// The program's outputs by expression::evaluate in T, at (params, in0, in1).
template <class T, class S>
std::vector<T> evaluated(const Program& p, const std::vector<T>& params, const Vec<T>& in0, const Vec<T>& in1) {
  std::vector<T> out(p.outputs.size());
  evaluate(p, constants_of<S>(p), Params<T>(params), {&in0, &in1}, out.data());
  return out;
}

template <class S>
class ExpressionGraph : public ::testing::Test {};
using Scalars = ::testing::Types<double, long double, float128, mp50>;
TYPED_TEST_SUITE(ExpressionGraph, Scalars);

TYPED_TEST(ExpressionGraph, BothEvaluatorsAndADGiveTheSameBits) {
  using S = TypeParam;
  using A = AD1<S>;
  std::mt19937_64 rng(20261203);
  int finite = 0, compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Program p;
    for (int k = 0; k < 4; ++k) p.add(parse(random_text(rng, 1 + (trial + k) % 5)), bindings());
    // Arrays of the graph: 0 the parameters, 1 and 2 the inputs.
    const codegen::Interpreter<S> interpreter(p.graph, p.outputs, 3);
    for (int state = 0; state < 4; ++state) {
      const std::vector<S> params = {random_value<S>(rng)};
      Vec<S> in0(2), in1(1);
      in0 << random_value<S>(rng), random_value<S>(rng);
      in1 << random_value<S>(rng);
      const std::vector<S> library = evaluated<S, S>(p, params, in0, in1);
      std::vector<S> interpreted(p.outputs.size());
      const S* arrays[3] = {params.data(), in0.data(), in1.data()};
      ASSERT_EQ(interpreter.run(arrays, interpreted.data()), 0);
      // First-order AD, x and w seeded: its values are the same operations.
      const std::vector<A> params_ad = {A(params[0], Vec<S>::Zero(2))};
      Vec<A> in0_ad(2), in1_ad(1);
      in0_ad << A(in0[0], 2, 0), A(in0[1], Vec<S>::Zero(2));
      in1_ad << A(in1[0], 2, 1);
      const std::vector<A> ad = evaluated<A, S>(p, params_ad, in0_ad, in1_ad);
      for (std::size_t k = 0; k < p.outputs.size(); ++k) {
        ++compared;
        if (boost::math::isfinite(library[k])) ++finite;
        ASSERT_TRUE(identical(interpreted[k], library[k]))
            << "trial " << trial << " output " << k << ": interpreter " << to_string(interpreted[k])
            << ", evaluate " << to_string(library[k]);
        ASSERT_TRUE(identical(ad[k].value(), library[k]))
            << "trial " << trial << " output " << k << ": AD value " << to_string(ad[k].value()) << ", evaluate "
            << to_string(library[k]);
      }
    }
  }
  EXPECT_EQ(compared, 200 * 4 * 4);
  EXPECT_GT(finite, compared / 3);  // the comparisons are mostly of numbers, not NaN
}

TYPED_TEST(ExpressionGraph, IsTheTextAsWritten) {
  using S = TypeParam;
  const auto value = [](const std::string& text, const S& x) {
    Program p;
    p.add(parse(text), bindings());
    Vec<S> in0(2), in1(1);
    in0 << x, S(0);
    in1 << S(0);
    return evaluated<S, S>(p, {S(2)}, in0, in1)[0];
  };
  // Each literal converted once, correctly rounded; the product then rounded.
  const S as_written = from_string<S>("0.1") * S(3), folded = from_string<S>("0.3");
  EXPECT_TRUE(identical(value("0.1*3", S(0)), as_written));
  // Not folded to 3/10: seen where the two differ (in double they do; in
  // long double and mp50 both round to the same number).
  if constexpr (std::is_same_v<S, double>) EXPECT_FALSE(identical(as_written, folded));
  if (!identical(as_written, folded)) EXPECT_FALSE(identical(value("0.1*3", S(0)), folded));
  // A division stays one: x/3 is not x*(1/3).
  EXPECT_TRUE(identical(value("x/3", S(5)), S(S(5) / S(3))));
  EXPECT_FALSE(identical(value("x/3", S(5)), S(S(5) * S(S(1) / S(3)))));
  // x + 0 at x = -0 is +0, and 0*x at x = inf is NaN, as written.
  EXPECT_TRUE(identical(value("x + 0", -S(0)), S(0)));
  EXPECT_TRUE(boost::math::isnan(value("0*x", std::numeric_limits<S>::infinity())));
  // x^5 by binary powering, x (x^2)^2; x^-2 = 1/(x x); x^(3/2) = sqrt(x)^3.
  const S x = from_string<S>("1.1");
  EXPECT_TRUE(identical(value("x^5", x), S(x * S(S(x * x) * S(x * x)))));
  EXPECT_TRUE(identical(value("x^-2", x), S(S(1) / S(x * x))));
  using std::sqrt;
  const S r = sqrt(x);
  EXPECT_TRUE(identical(value("x^(3/2)", x), S(r * S(r * r))));
  EXPECT_TRUE(identical(value("2*pi", S(0)), S(S(2) * boost::math::constants::pi<S>())));
}

TYPED_TEST(ExpressionGraph, TrigonometryBeyondReductionIsNaNEverywhere) {
  using S = TypeParam;
  Program p;
  p.add(parse("sin(x)"), bindings());
  p.add(parse("cos(x)"), bindings());  // with sin(x): the interpreter's sincos in hardware types
  p.add(parse("tan(x)"), bindings());
  const codegen::Interpreter<S> interpreter(p.graph, p.outputs, 3);
  for (const S x : {S(1e301), S(-1e301), std::numeric_limits<S>::infinity()}) {
    Vec<S> in0(2), in1(1);
    in0 << x, S(0);
    in1 << S(0);
    const std::vector<S> params = {S(1)};
    const std::vector<S> library = evaluated<S, S>(p, params, in0, in1);
    std::vector<S> interpreted(3);
    const S* arrays[3] = {params.data(), in0.data(), in1.data()};
    ASSERT_EQ(interpreter.run(arrays, interpreted.data()), 0);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_TRUE(boost::math::isnan(library[k])) << "evaluate, output " << k << " at " << to_string(x);
      EXPECT_TRUE(boost::math::isnan(interpreted[k])) << "interpreter, output " << k << " at " << to_string(x);
    }
  }
}

TEST(ExpressionGraph, TheEmitterRefusesLeavesAsWrittenByName) {
  for (const char* text : {"0.1 + x", "pi*x"}) {
    Program p;
    p.add(parse(text), bindings());
    try {
      (void)codegen::emit_function(p.graph, {"f", {"p", "x", "w"}, p.outputs});
      ADD_FAILURE() << text << ": emitted";
    } catch (const codegen::TracingError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string(text)[0] == 'p' ? "pi leaf" : "decimal leaf"), std::string::npos) << what;
    }
  }
}

}  // namespace
