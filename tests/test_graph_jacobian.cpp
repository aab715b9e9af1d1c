// ctest-labels: unit mp
// Forward-mode differentiation of traced graphs (nhs/codegen/differentiate.hpp)
// against
//  - central differences of the same graph in mp100 (step 1e-30: a
//    truncation error of order 1e-60, far below the tolerance), for every
//    operation of the graph's set at a point inside its domain, and for the
//    first-order field of every traceable formulation of every study and
//    example file at its default state: 1e-40 relative to 1 + |J|;
//  - the skate's first-kind Jacobian in closed form (001 §9.1 with the
//    incline: qdot = (s cos theta, s sin theta, omega), sdot = g cos theta);
//  - the same Jacobian in double, long double and mp50 against mp100, to
//    their precision (the graph runs in every scalar type).
#include "nhs/codegen/differentiate.hpp"
#include "nhs/codegen/interpret.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/traced.hpp"

#include "all_systems.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using namespace nhs;
using namespace nhs::codegen;

namespace {

// The outputs of (graph, outputs) at inputs (p, x), evaluated in S.
template <class S>
std::vector<S> evaluate(const Graph& g, const std::vector<int>& outputs, const std::vector<S>& p, const std::vector<S>& x) {
  const Interpreter<S> interpreter(g, outputs, 2);
  std::vector<S> out(outputs.size());
  const S* arrays[2] = {p.data(), x.data()};
  EXPECT_EQ(interpreter.run(arrays, out.data()), 0) << "a guard failed";
  return out;
}

// d outputs / d x by central differences in mp100, row-major.
std::vector<mp100> central_differences(const Graph& g, const std::vector<int>& outputs, const std::vector<mp100>& p,
                                       const std::vector<mp100>& x) {
  const mp100 h("1e-30");
  const std::size_t N = x.size();
  std::vector<mp100> J(outputs.size() * N);
  for (std::size_t j = 0; j < N; ++j) {
    std::vector<mp100> up = x, down = x;
    up[j] += h;
    down[j] -= h;
    const std::vector<mp100> fu = evaluate<mp100>(g, outputs, p, up), fd = evaluate<mp100>(g, outputs, p, down);
    for (std::size_t i = 0; i < outputs.size(); ++i) J[i * N + j] = (fu[i] - fd[i]) / (2 * h);
  }
  return J;
}

void expect_close(const std::vector<mp100>& got, const std::vector<mp100>& want, double tol, const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  mp100 scale = 1;
  for (const mp100& w : want) scale = std::max<mp100>(scale, abs(w));
  for (std::size_t k = 0; k < got.size(); ++k)
    EXPECT_LT(static_cast<double>(abs(got[k] - want[k]) / scale), tol)
        << where << " entry " << k << ": " << static_cast<double>(got[k]) << " vs " << static_cast<double>(want[k]);
}


// The state x of a traced formulation at the study's default state:
// (q, qdot) for the second kind, (q, z) otherwise.
std::vector<mp100> state_of(const Study<mp100>& st, const System<mp100>& sys, const TracedFormulation& t) {
  const State<mp100> s = st.default_state(sys);
  std::vector<mp100> x(s.q.data(), s.q.data() + s.q.size());
  if (t.formulation == "second-kind") {
    x.insert(x.end(), s.qdot.data(), s.qdot.data() + s.qdot.size());
  } else {
    Vec<mp100> z(sys.m);
    sys.chart(s.q, s.qdot, z);
    x.insert(x.end(), z.data(), z.data() + z.size());
  }
  return x;
}

}  // namespace

TEST(GraphJacobian, EveryOperationAgainstCentralDifferences) {
  struct Case {
    Op op;
    bool binary;
    double a, b;  // a point inside the domain
  };
  const std::vector<Case> cases = {
      {Op::Add, true, 0.3, -0.7},  {Op::Sub, true, 0.3, -0.7},   {Op::Mul, true, 0.3, -0.7},
      {Op::Div, true, 0.3, -0.7},  {Op::Atan2, true, 0.3, -0.7}, {Op::Max, true, 0.3, -0.7},
      {Op::Max, true, -0.9, 0.2},  {Op::Neg, false, 0.3, 0},     {Op::Sin, false, 0.3, 0},
      {Op::Cos, false, 0.3, 0},    {Op::Tan, false, 0.3, 0},     {Op::Asin, false, 0.3, 0},
      {Op::Acos, false, 0.3, 0},   {Op::Atan, false, 0.3, 0},    {Op::Sqrt, false, 0.3, 0},
      {Op::Exp, false, 0.3, 0},    {Op::Log, false, 0.3, 0},     {Op::Abs, false, -0.3, 0},
      {Op::Sinh, false, 0.3, 0},   {Op::Cosh, false, 0.3, 0},    {Op::Tanh, false, 0.3, 0},
      {Op::Asinh, false, 0.3, 0},  {Op::Acosh, false, 1.3, 0},   {Op::Atanh, false, 0.3, 0}};
  for (const Case& c : cases) {
    // f(x0, x1) = op(u, v) with u = x0 * x1 + p0 and v = x1 - x0 (inner
    // operations so that the chain rule is exercised), at x with u = a, v = b.
    Graph g;
    const int x0 = g.input(1, 0), x1 = g.input(1, 1), p0 = g.input(0, 0);
    const int u = g.apply(Op::Add, g.apply(Op::Mul, x0, x1), p0), v = g.apply(Op::Sub, x1, x0);
    const int out = c.binary ? g.apply(c.op, u, v) : g.apply(c.op, u);
    const std::vector<mp100> x = {mp100("0.5"), mp100("0.5") + mp100(c.b)};
    const std::vector<mp100> p = {mp100(c.a) - x[0] * x[1]};
    const std::vector<mp100> want = central_differences(g, {out}, p, x);
    const std::vector<int> d = jacobian_nodes(g, {out}, 1, 2);
    expect_close(evaluate<mp100>(g, d, p, x), want, 1e-40, "operation " + std::to_string(static_cast<int>(c.op)));
  }
}

TEST(GraphJacobian, EveryTracedFieldAgainstCentralDifferences) {
  int fields = 0;
  for (const auto& name : studies_and_example_files()) {
    const TracedStudy traced = find_traced_study(name);
    const Study<mp100>& st = find_study<mp100>(name);
    const System<mp100> sys = st.build(st.default_parameters());
    for (const auto& formulation : traceable_formulations()) {
      TracedFormulation t;
      try {
        t = trace_formulation(traced.build, static_cast<int>(st.info.parameters.size()), formulation);
      } catch (const NotApplicable&) {
        continue;
      }
      const std::string where = name + " " + formulation;
      const std::vector<mp100> p(sys.parameters.begin(), sys.parameters.end());
      const std::vector<mp100> x = state_of(st, sys, t);
      // The first-order field's rows: (qdot, qddot) for the second kind,
      // (qdot, zdot) otherwise; for the second kind, d qdot/dx = [0 I].
      std::vector<int> rows;
      const int n = t.n, N = t.inputs;
      if (formulation == "second-kind") {
        for (int i = 0; i < n; ++i) rows.push_back(t.graph.input(1, n + i));
        rows.insert(rows.end(), t.outputs.begin(), t.outputs.begin() + n);
      } else {
        rows.assign(t.outputs.begin(), t.outputs.begin() + N);
      }
      const std::vector<mp100> want = central_differences(t.graph, rows, p, x);
      const TracedFormulation J = field_jacobian(t);
      ASSERT_EQ(J.outputs.size(), static_cast<std::size_t>(N * N)) << where;
      expect_close(evaluate<mp100>(J.graph, J.outputs, p, x), want, 1e-40, where);
      // The same graph in double, long double and mp50, to their precision.
      const auto in = [&]<class S>(const std::vector<mp100>& v) {
        std::vector<S> out;
        for (const mp100& e : v) out.push_back(static_cast<S>(e));
        return out;
      };
      const auto lifted = [&]<class S>(const std::vector<S>& v) {
        std::vector<mp100> out;
        for (const S& e : v) out.push_back(static_cast<mp100>(e));
        return out;
      };
      expect_close(lifted(evaluate<double>(J.graph, J.outputs, in.template operator()<double>(p),
                                           in.template operator()<double>(x))),
                   want, 1e-12, where + " double");
      expect_close(lifted(evaluate<mp50>(J.graph, J.outputs, in.template operator()<mp50>(p),
                                         in.template operator()<mp50>(x))),
                   want, 1e-40, where + " mp50");
      ++fields;
    }
  }
  EXPECT_GE(fields, 20);
}

TEST(GraphJacobian, SkateFirstKindClosedForm) {
  const TracedStudy traced = find_traced_study("skate");
  const Study<mp100>& st = find_study<mp100>("skate");
  ASSERT_EQ(st.info.coordinates, (std::vector<std::string>{"x", "y", "theta"}));
  const TracedFormulation J =
      field_jacobian(trace_formulation(traced.build, static_cast<int>(st.info.parameters.size()), "first-kind"));
  const System<mp100> sys = st.build(st.default_parameters());
  std::vector<mp100> p(sys.parameters.begin(), sys.parameters.end());
  const mp100 g("1.7");  // the incline (default 0), so that sdot = g cos(theta) has a derivative
  for (std::size_t k = 0; k < st.info.parameters.size(); ++k)
    if (st.info.parameters[k].name == "g") p[k] = g;
  const mp100 theta("0.7"), s("1.3");
  const std::vector<mp100> x = {mp100("0.1"), mp100("-0.2"), theta, s, mp100("0.4")};
  const mp100 c = cos(theta), sn = sin(theta);
  // Rows: xdot = s cos, ydot = s sin, thetadot = omega, sdot = g cos, omegadot = 0;
  // columns: x, y, theta, s, omega.
  const std::vector<mp100> want = {0, 0, -s * sn, c, 0,  //
                                   0, 0, s * c,   sn, 0,  //
                                   0, 0, 0,       0, 1,  //
                                   0, 0, -g * sn, 0, 0,  //
                                   0, 0, 0,       0, 0};
  expect_close(evaluate<mp100>(J.graph, J.outputs, p, x), want, 1e-90, "skate first-kind");
}

// The Chaplygin sleigh (examples/chaplygin-sleigh.toml: blade a behind the
// centre of mass) on a straight line, z = (v, omega = 0): its reduced
// equations vdot = a omega^2, omegadot = -m a v omega / (I + m a^2)
// (Neimark and Fufaev 1972, ch. III §3; Bloch 2003, §1.7) give
// d omegadot / d omega = -m a v / (I + m a^2), the rate at which a
// straight motion with v > 0 is stable, and d vdot / d(v, omega) = 0.
TEST(GraphJacobian, ChaplyginSleighStraightLineClosedForm) {
  const std::string path = NHS_SOURCE_DIR "/examples/chaplygin-sleigh.toml";
  const TracedStudy traced = find_traced_study(path);
  const Study<mp100>& st = find_study<mp100>(path);
  const System<mp100> sys = st.build(st.default_parameters());
  mp100 m = 0, I = 0, a = 0;
  for (std::size_t k = 0; k < st.info.parameters.size(); ++k) {
    const std::string& name = st.info.parameters[k].name;
    (name == "m" ? m : name == "I" ? I : a) = sys.parameters[k];
  }
  const std::vector<mp100> p(sys.parameters.begin(), sys.parameters.end());
  const mp100 v("0.7");
  const std::vector<mp100> x = {mp100("0.1"), mp100("-0.2"), mp100("0.3"), v, mp100(0)};
  for (const std::string formulation : {"first-kind", "gibbs-appell"}) {
    const TracedFormulation J =
        field_jacobian(trace_formulation(traced.build, static_cast<int>(st.info.parameters.size()), formulation));
    const std::vector<mp100> got = evaluate<mp100>(J.graph, J.outputs, p, x);
    const auto at = [&](int i, int j) { return got[static_cast<std::size_t>(i * 5 + j)]; };
    EXPECT_LT(static_cast<double>(abs(at(4, 4) + m * a * v / (I + m * a * a))), 1e-90) << formulation;
    EXPECT_LT(static_cast<double>(abs(at(3, 3)) + abs(at(3, 4)) + abs(at(4, 3))), 1e-90) << formulation;
  }
}
