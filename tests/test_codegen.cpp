// Checks the recording scalar of code generation (nhs/codegen/expr.hpp: exact rational folding, the simplifications, shared subexpressions, comparisons refused), the guarded LDL^T against Eigen's LDLT on a traced matrix, the emitter's output, and that a description branching on the state is refused by name.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/codegen/emit.hpp"
#include "nhs/codegen/guarded_ldlt.hpp"
#include "nhs/codegen/trace.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace nhs {
namespace {

using codegen::Expr;
using codegen::Graph;
using codegen::Op;
using codegen::Recording;
using codegen::TracingError;

TEST(Codegen, ConstantsAreExactRationals) {
  Graph g;
  const Recording rec(g);
  const Expr third = Expr(1) / Expr(3);
  ASSERT_TRUE(third.is_constant());
  EXPECT_EQ(g.node(third.id()).num, 1);
  EXPECT_EQ(g.node(third.id()).den, 3);
  EXPECT_EQ((third * Expr(3)).id(), Expr(1).id());  // exactly 1, not 0.999...
  // A double is the rational it is: 0.1 = 3602879701896397 / 2^55.
  const Expr tenth(0.1);
  EXPECT_EQ(g.node(tenth.id()).num, 3602879701896397LL);
  EXPECT_EQ(g.node(tenth.id()).den, 36028797018963968LL);
  // Non-rational doubles stay opaque literals; functions are not folded.
  EXPECT_EQ(g.node(Expr(1e300).id()).op, Op::Literal);
  EXPECT_EQ(g.node(sin(Expr(1)).id()).op, Op::Sin);
}

TEST(Codegen, SimplificationsAndSharing) {
  Graph g;
  const Recording rec(g);
  const Expr x = Expr::input(1, 0), y = Expr::input(1, 1);
  EXPECT_EQ((x * Expr(0)).id(), Expr(0).id());
  EXPECT_EQ((x + Expr(0)).id(), x.id());
  EXPECT_EQ((Expr(1) * x).id(), x.id());
  EXPECT_EQ((x - x).id(), Expr(0).id());
  EXPECT_EQ((-(-x)).id(), x.id());
  EXPECT_EQ((x * y).id(), (y * x).id());  // canonical operand order: shared
  EXPECT_EQ(sin(x).id(), sin(x).id());
  EXPECT_EQ((x + (-y)).id(), (x - y).id());
  EXPECT_EQ((Expr(2) * (x * (Expr(1) / Expr(2)))).id(), x.id());  // powers of two: exact
  EXPECT_NE((Expr(3) * (x * (Expr(1) / Expr(3)))).id(), x.id());  // not exact: kept
}

// c1 (c2 x) = (c1 c2) x for powers of two c1, c2, also when the product
// node is new: each merge appends nodes (the node vector grows and may move
// while the rule reads the inner product's operands: a fault that only a
// sanitizer build would show; this test holds the result either way).
TEST(Codegen, PowersOfTwoMergeWhileTheGraphGrows) {
  Graph g;
  const Recording rec(g);
  for (int i = 0; i < 64; ++i) {
    const Expr x = Expr::input(0, i);
    const Expr half_x = x * Expr(0.5);
    const int before = g.size();
    const Expr merged = Expr(4) * half_x;  // 4 (x / 2) = 2 x
    EXPECT_EQ(merged.id(), (Expr(2) * x).id()) << "input " << i << ", graph of " << before << " nodes";
    EXPECT_EQ((Expr(0.25) * (Expr(8) * x)).id(), merged.id());
  }
}

TEST(Codegen, ComparingTracedValuesIsRefused) {
  Graph g;
  const Recording rec(g);
  const Expr x = Expr::input(1, 0);
  EXPECT_THROW((void)(x < Expr(0)), TracingError);
  EXPECT_THROW((void)(x == x), TracingError);
  EXPECT_TRUE(Expr(1) / Expr(3) < Expr(1) / Expr(2));  // constants compare
}

TEST(Codegen, NoRecordingIsAnError) { EXPECT_THROW(Expr(1), TracingError); }

// The unpivoted LDL^T of a traced symmetric matrix, evaluated by the
// generated code's arithmetic, solves like Eigen's LDLT: checked by
// evaluating the graph in double at a positive definite matrix.
double evaluate(const Graph& g, int id, const std::vector<double>& inputs,
                std::vector<double>& memo) {
  const codegen::Node& n = g.node(id);
  double& v = memo[static_cast<std::size_t>(id)];
  if (!std::isnan(v)) return v;
  const auto a = [&] { return evaluate(g, n.a, inputs, memo); };
  const auto b = [&] { return evaluate(g, n.b, inputs, memo); };
  switch (n.op) {
    case Op::Constant: v = static_cast<double>(n.num) / static_cast<double>(n.den); break;
    case Op::Input: v = inputs[static_cast<std::size_t>(n.index)]; break;
    case Op::Epsilon: v = std::numeric_limits<double>::epsilon(); break;
    case Op::Add: v = a() + b(); break;
    case Op::Sub: v = a() - b(); break;
    case Op::Mul: v = a() * b(); break;
    case Op::Div: v = a() / b(); break;
    case Op::Neg: v = -a(); break;
    case Op::Abs: v = std::abs(a()); break;
    case Op::Max: v = std::max(a(), b()); break;
    default: ADD_FAILURE() << "operation not expected here"; break;
  }
  return v;
}

TEST(Codegen, GuardedLdltSolvesAndGuards) {
  Mat<double> M(3, 3);
  M << 4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2;
  const Vec<double> b = Vec<double>::LinSpaced(3, -1, 2);
  Graph g;
  const Recording rec(g);
  Mat<Expr> Ms(3, 3);
  Vec<Expr> bs(3);
  std::vector<double> inputs;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) Ms(i, j) = Expr::input(1, static_cast<int>(inputs.size())), inputs.push_back(M(i, j));
  for (int i = 0; i < 3; ++i) bs[i] = Expr::input(1, static_cast<int>(inputs.size())), inputs.push_back(b[i]);
  const auto ldlt = factor_positive_definite<Expr>(Ms, "singular test matrix", [] { return ""; });
  const Mat<Expr> xs = ldlt.solve(bs);
  std::vector<double> memo(static_cast<std::size_t>(g.size()), std::nan(""));
  Vec<double> x(3);
  for (int i = 0; i < 3; ++i) x[i] = evaluate(g, xs(i, 0).id(), inputs, memo);
  EXPECT_LE((x - M.ldlt().solve(b)).cwiseAbs().maxCoeff(), 1e-15);
  ASSERT_EQ(g.guards().size(), 3u);
  for (const auto& guard : g.guards()) {
    EXPECT_EQ(guard.condition, "singular test matrix");
    EXPECT_GT(evaluate(g, guard.node, inputs, memo), 0);
  }
  // A singular matrix (third row and column zero) fails a guard.
  std::vector<double> memo2(static_cast<std::size_t>(g.size()), std::nan(""));
  for (const int k : {2, 5, 8, 6, 7}) inputs[static_cast<std::size_t>(k)] = 0;
  bool failed = false;
  for (const auto& guard : g.guards()) failed = failed || !(evaluate(g, guard.node, inputs, memo2) > 0);
  EXPECT_TRUE(failed);
}

TEST(Codegen, EmitsGuardsOutputsAndStaticConstants) {
  Graph g;
  const Recording rec(g);
  const Expr x = Expr::input(1, 0), p = Expr::input(0, 0);
  const Expr y = p * sin(x) / Expr(3);
  g.require_positive((p - Expr(100) * Expr::epsilon()).id(), "p too small");
  codegen::EmitStats stats;
  const std::string src = codegen::emit_function(g, {"f", {"p", "x"}, {y.id()}}, &stats);
  EXPECT_NE(src.find("template <class S>\nint f(const S* p, const S* x, S* out) noexcept"), std::string::npos) << src;
  EXPECT_NE(src.find("static const S"), std::string::npos) << src;
  EXPECT_NE(src.find("std::numeric_limits<S>::epsilon()"), std::string::npos) << src;
  EXPECT_NE(src.find("return 1;  // p too small"), std::string::npos) << src;
  EXPECT_NE(src.find("out[0] = "), std::string::npos) << src;
  EXPECT_EQ(stats.by_op["sin"], 1);
  EXPECT_THROW(codegen::emit_function(g, {"f", {"p"}, {y.id()}}), TracingError);  // x unnamed
}

// A description whose T branches on the state cannot be generated.
struct Branching {
  static SystemInfo info() {
    return {"branching", "test", "-", {"x"}, {{"m", "1", "mass"}}, {"C1"}, {}, true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>&, const Vec<T>& qd) {
    const T mv2 = p[0] * qd[0] * qd[0];
    if (qd[0] > ratio<T>(0)) return mv2;
    return mv2 + mv2;
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
  }
};

TEST(Codegen, BranchingDescriptionIsRefused) {
  const codegen::TracedSystemBuilder build = [](const std::vector<Expr>& p) {
    return describe<Expr, Branching>(p);
  };
  EXPECT_THROW(codegen::trace_formulation(build, 1, "second-kind"), TracingError);
  EXPECT_THROW(codegen::trace_formulation(build, 1, "first-kind"), NotApplicable);  // no psi
  EXPECT_THROW(codegen::trace_formulation(build, 1, "voronec"), UsageError);
}

}  // namespace
}  // namespace nhs
