// Compares the generated straight-line fields (nhs/generated.hpp, traced from the library's second_kind, first_kind and gibbs_appell: 001 eq. 8.12, 000 eq. 27, 001 eq. 5.2) with the library's own evaluation at random regular states of every study (double and mp50), integrates every special motion with them (double), and checks that their guards report singular and non-finite states as the library does.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/generated.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/norms.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace nhs {
namespace {

using GeneratedField = generated::GeneratedField<double>;

template <class S>
const Study<S>& study_of(const generated::GeneratedField<S>& f) { return find_study<S>(f.study); }

// out of f at (p, x), asserting success.
template <class S>
Vec<S> evaluate(const generated::GeneratedField<S>& f, const std::vector<S>& p, const Vec<S>& x) {
  EXPECT_EQ(static_cast<int>(p.size()), f.parameters);
  EXPECT_EQ(x.size(), f.inputs);
  Vec<S> out = Vec<S>::Constant(f.outputs, std::numeric_limits<S>::quiet_NaN());
  const int status = f.evaluate(p.data(), x.data(), out.data());
  EXPECT_EQ(status, 0) << f.study << " " << f.formulation << ": guard "
                       << (status > 0 && status <= f.guard_count ? f.guards[status - 1] : "?");
  return out;
}

// Which guard failed, by name ("" for success).
std::string failed_guard(const GeneratedField& f, const std::vector<double>& p, const Vec<double>& x) {
  Vec<double> out(f.outputs);
  const int status = f.evaluate(p.data(), x.data(), out.data());
  if (status == 0) return "";
  EXPECT_GE(status, 1);
  EXPECT_LE(status, f.guard_count);
  return f.guards[status - 1];
}

TEST(Generated, EveryStudyHasItsFields) {
  for (const Study<double>& st : studies<double>()) {
    const System<double> sys = st.build(st.default_parameters());
    const GeneratedField* second = generated::find_generated<double>(st.info.name, "second-kind");
    // No second kind where g is only semidefinite (it inverts g).
    ASSERT_EQ(second != nullptr, !sys.info.semidefinite_metric) << st.info.name;
    if (second) {
      EXPECT_EQ(second->n, sys.n);
      EXPECT_EQ(second->r, sys.r);
      EXPECT_EQ(second->parameters, static_cast<int>(sys.parameters.size()));
      EXPECT_EQ(second->inputs, 2 * sys.n);
      EXPECT_EQ(second->outputs, sys.n + sys.r);
    }
    for (const char* name : {"first-kind", "gibbs-appell"}) {
      const GeneratedField* f = generated::find_generated<double>(st.info.name, name);
      const bool expected = sys.has_parametrization() && (name[0] == 'f' || sys.has_bodies());
      ASSERT_EQ(f != nullptr, expected) << st.info.name << " " << name;
      if (f) {
        EXPECT_EQ(f->m, sys.m);
        EXPECT_EQ(f->inputs, sys.n + sys.m);
        EXPECT_EQ(f->outputs, 2 * sys.n + sys.m);
      }
    }
  }
  EXPECT_EQ(generated::find_generated<double>("skate", "voronec"), nullptr);
  EXPECT_EQ(generated::find_generated<double>("no-such-study", "second-kind"), nullptr);
}

// The generated code computes the same equations as the library, in a
// different order (unpivoted LDL^T, folded constants): equal to the cross
// tolerance of each precision, Tolerance<S>::cross (double 1e-12, mp50
// 1e-45): the generated constants and guards are the type's own.
template <class S>
class GeneratedIn : public ::testing::Test {};
TYPED_TEST_SUITE(GeneratedIn, TestScalars, ScalarNames);

TYPED_TEST(GeneratedIn, AgreesWithTheLibraryAtRandomStates) {
  using S = TypeParam;
  const int kStates = std::is_same_v<S, double> ? 40 : 8;
  std::mt19937_64 rng(20261123);
  for (const generated::GeneratedField<S>& f : generated::generated_fields<S>()) {
    const Study<S>& st = study_of(f);
    const std::string formulation = f.formulation;
    S worst = 0;
    for (int k = 0; k < kStates; ++k) {
      const std::vector<S> p =
          k % 2 ? randomized_parameters(st, rng) : st.default_parameters();
      const System<S> sys = st.build(p);
      const State<S> s = st.random_state(sys, rng);
      const auto compare = [&](const char* what, const Vec<S>& generic, const Vec<S>& gen) {
        if (generic.size() == 0) return;
        const S d = relative_difference<S>(generic, gen);
        using std::max;
        worst = max(worst, d);
        EXPECT_LE(d, Tolerance<S>::cross)
            << f.study << " " << formulation << " " << what << " state " << k;
      };
      if (formulation == "second-kind") {
        Vec<S> x(2 * sys.n);
        x << s.q, s.qdot;
        const Vec<S> out = evaluate(f, p, x);
        const SecondKindField<S> lib = second_kind<S>(sys, s.q, s.qdot);
        compare("qddot", lib.qddot, out.head(sys.n));
        // The multipliers vanish identically on some systems (the force-free
        // rolling sphere), where both sides are rounding noise: compare the
        // reactions R_i = lambda_a C^a_i relative to the largest term of
        // the equations of motion g qddot + Gamma = A + R instead.
        const Mat<S> C_qdot = constraint_jacobians(sys, s.q, s.qdot).C_qdot;
        const Inertia<S> I = inertia(sys, s.q, s.qdot);
        using std::max;
        const S scale = max(max((I.g * lib.qddot).cwiseAbs().maxCoeff(), I.gamma.cwiseAbs().maxCoeff()),
                            max(active_force(sys, s.q, s.qdot).cwiseAbs().maxCoeff(),
                                std::numeric_limits<S>::min()));
        const Vec<S> R_gen = C_qdot.transpose() * out.tail(sys.r);
        const S dR = (lib.reaction - R_gen).cwiseAbs().maxCoeff() / scale;
        worst = max(worst, dR);
        EXPECT_LE(dR, Tolerance<S>::cross) << f.study << " reaction R state " << k;
      } else {
        Vec<S> z(sys.m);
        sys.chart(s.q, s.qdot, z);
        Vec<S> x(sys.n + sys.m);
        x << s.q, z;
        const Vec<S> out = evaluate(f, p, x);
        const auto check = [&](const auto& lib) {
          compare("qdot", lib.qdot, out.head(sys.n));
          compare("zdot", lib.zdot, out.segment(sys.n, sys.m));
          compare("qddot", lib.qddot, out.tail(sys.n));
        };
        if (formulation == "first-kind")
          check(first_kind<S>(sys, s.q, z));
        else
          check(gibbs_appell<S>(sys, s.q, z));
      }
    }
    std::cout << "[ generated ] " << ScalarName<S>::value << " " << f.study << " " << formulation
              << " (" << f.operations << " operations): max difference from the library "
              << static_cast<double>(worst) << " = " << static_cast<double>(worst / epsilon<S>())
              << " eps\n";
  }
}

// Where the library raises SingularState, a guard of the generated code
// fails, with the same condition (the library checks the rank of dC/dqdot
// first; the generated code finds it as the singular H^ab it causes).
TEST(Generated, GuardsReportSingularStates) {
  // parallel-points at rest: C = x1d y2d - y1d x2d has dC/dqdot = 0.
  {
    const GeneratedField* f = generated::find_generated<double>("parallel-points", "second-kind");
    ASSERT_NE(f, nullptr);
    const Study<double>& st = study_of(*f);
    const std::vector<double> p = st.default_parameters();
    const System<double> sys = st.build(p);
    Vec<double> q(4), qd = Vec<double>::Zero(4);
    q << 0.3, -0.2, 1.1, 0.7;
    Vec<double> x(8);
    x << q, qd;
    EXPECT_EQ(failed_guard(*f, p, x).rfind("rank loss of dC/dqdot", 0), 0u) << failed_guard(*f, p, x);
    try {
      second_kind<double>(sys, q, qd);
      ADD_FAILURE() << "the library accepted a state where dC/dqdot = 0";
    } catch (const SingularState& e) {
      EXPECT_EQ(e.condition, "rank loss of dC/dqdot");
    }
  }
  // The skate with m = 0: g = diag(0, 0, I) is singular. The second kind
  // inverts g; the first kind only G = psi^T g psi = diag(m, I), singular
  // too (the blade's speed s has no inertia).
  for (const char* formulation : {"second-kind", "first-kind"}) {
    const std::string condition = std::string(formulation) == "second-kind"
                                      ? "singular metric g"
                                      : "singular G = psi^T g psi";
    const GeneratedField* f = generated::find_generated<double>("skate", formulation);
    ASSERT_NE(f, nullptr);
    const Study<double>& st = study_of(*f);
    const std::vector<double> p = parameters_with(st, {{"m", "0"}});
    const System<double> sys = st.build(p);
    const State<double> s = st.default_state(st.build(st.default_parameters()));
    Vec<double> x(f->inputs);
    Vec<double> z(sys.m);
    sys.chart(s.q, s.qdot, z);
    if (std::string(formulation) == "second-kind") x << s.q, s.qdot;
    else x << s.q, z;
    EXPECT_EQ(failed_guard(*f, p, x), condition) << formulation;
    try {
      if (std::string(formulation) == "second-kind") second_kind<double>(sys, s.q, s.qdot);
      else first_kind<double>(sys, s.q, z);
      ADD_FAILURE() << "the library accepted a singular metric";
    } catch (const SingularState& e) {
      EXPECT_EQ(e.condition, condition) << formulation;
    }
  }
}

// Whether some parameter of the study enters its metric g: g at one state
// for the default parameters and for other values (2 p + 1) differs.
bool metric_has_parameters(const std::string& study) {
  const Study<double>& st = find_study<double>(study);
  std::vector<double> p0 = st.default_parameters(), p1 = p0;
  for (double& v : p1) v = 2 * v + 1;
  const System<double> s0 = st.build(p0), s1 = st.build(p1);
  const Vec<double> q = Vec<double>::Constant(s0.n, 0.5), qd = Vec<double>::Constant(s0.n, 0.25);
  return (inertia(s0, q, qd).g - inertia(s1, q, qd).g).cwiseAbs().maxCoeff() > 0;
}

// Non-finite parameters never give a finite result that looks like a state.
// Where a parameter enters g (a mass or an inertia: every study but the
// contact oscillator, whose T has none), g is non-finite and a guard fails,
// as the library's factorization check does. Where the parameters enter only
// the forces, they propagate to the outputs, as non-finite state entries
// that do not reach g, H or G do, and as in the library.
TEST(Generated, NonFiniteParametersFailAGuardOrPropagate) {
  int guarded = 0;
  for (const GeneratedField& f : generated::generated_fields<double>()) {
    for (const double bad : {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()}) {
      const std::vector<double> p(static_cast<std::size_t>(f.parameters), bad);
      const Vec<double> x = Vec<double>::Constant(f.inputs, 0.5);
      Vec<double> out(f.outputs);
      const int status = f.evaluate(p.data(), x.data(), out.data());
      if (status != 0) ++guarded;
      if (metric_has_parameters(f.study))
        EXPECT_NE(status, 0) << f.study << " " << f.formulation;
      else
        EXPECT_FALSE(out.allFinite()) << f.study << " " << f.formulation;
    }
  }
  EXPECT_GT(guarded, 0);
}

// Integrated through the Formulation interface (nhs run --generated), the
// generated fields follow every analytic special motion of every study to
// its t_end, as the library does: the final state within
// Tolerance<double>::analytic (1e-9) of the closed form, at the integration
// tolerance of double (1e-13), and within 1e-9 of the library's own run.
TEST(Generated, IntegratesTheSpecialMotions) {
  int runs = 0;
  for (const Study<double>& st : studies<double>()) {
    for (const SpecialMotion<double>& mo : st.special_motions()) {
      const System<double> sys = st.build(mo.parameters);
      for (const char* name : {"second-kind", "first-kind", "gibbs-appell"}) {
        const Formulation<double>& library = find_formulation<double>(name);
        if (!library.not_applicable_reason(sys).empty() || mo.excluded.count(name)) continue;
        const generated::GeneratedFormulation<double> gen =
            generated::make_generated_formulation<double>(st.info.name, library);
        ASSERT_EQ(gen.not_applicable_reason(sys), "") << st.info.name;
        IntegrationOptions<double> opts;
        opts.t_end = mo.t_end;
        opts.dt_out = mo.t_end;
        opts.rtol = opts.atol = integration_tolerance<double>();
        const auto final_state = [&](const Formulation<double>& f) {
          State<double> last;
          IntegrationStats stats;
          integrate<double>(sys, f, mo.initial.q, mo.initial.qdot, opts,
                            [&](const Sample<double>& s) { last = {s.q, s.qdot}; }, &stats);
          return last;
        };
        const State<double> g = final_state(gen), l = final_state(library);
        const State<double> e = mo.exact(mo.t_end);
        const auto distance = [](const State<double>& a, const State<double>& b) {
          return std::max((a.q - b.q).cwiseAbs().maxCoeff(), (a.qdot - b.qdot).cwiseAbs().maxCoeff());
        };
        EXPECT_LE(distance(g, e), Tolerance<double>::analytic) << st.info.name << " " << mo.name << " " << name;
        EXPECT_LE(distance(g, l), Tolerance<double>::analytic) << st.info.name << " " << mo.name << " " << name;
        ++runs;
      }
    }
  }
  std::cout << "[ generated ] " << runs << " special-motion runs\n";
  EXPECT_GE(runs, 20);
}

// --generated's errors: no generated code for another formulation, another
// study size, or a formulation that is not the field's.
TEST(Generated, RefusesWhatItWasNotGeneratedFor) {
  EXPECT_THROW(generated::make_generated_formulation<double>("skate", find_formulation<double>("maggi")),
               UsageError);
  EXPECT_THROW(generated::make_generated_formulation<double>("n-trailer-5",
                                                             find_formulation<double>("second-kind")),
               UsageError);
  const GeneratedField* f = generated::find_generated<double>("skate", "second-kind");
  ASSERT_NE(f, nullptr);
  EXPECT_THROW(generated::GeneratedFormulation<double>(*f, find_formulation<double>("first-kind")),
               UsageError);
  const generated::GeneratedFormulation<double> gen(*f, find_formulation<double>("second-kind"));
  const Study<double>& disc = find_study<double>("rolling-disc");
  EXPECT_NE(gen.not_applicable_reason(disc.build(disc.default_parameters())), "");
}

}  // namespace
}  // namespace nhs
