// The verification module can fail: a perturbed formulation is reported
// with the right worst pair (nhs/verification.hpp), a motion against a
// wrong exact solution reports its error and a refused run its failure
// (nhs/studies/verification.hpp), and the per-precision table
// (nhs/precision_policy.hpp) holds the documented values, monotone in the
// decimal digits.
// ctest-labels: unit
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/precision_policy.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/verification.hpp"

#include <random>
#include <string>
#include <vector>

namespace nhs {
namespace {

/// second-kind with qddot[0] (and R_0 with `reaction`) off by `relative`
/// x (1 + its size): a deliberately wrong formulation.
class Perturbed final : public Formulation<double> {
 public:
  explicit Perturbed(double relative, bool reaction = false) : relative_(relative), reaction_(reaction) {}
  std::string name() const override { return "perturbed"; }
  std::string summary() const override { return "second-kind with qddot[0] perturbed (test)"; }
  Acceleration<double> acceleration(const System<double>& sys, const Vec<double>& q,
                                    const Vec<double>& qd) const override {
    Acceleration<double> a = find_formulation<double>("second-kind").acceleration(sys, q, qd);
    a.qddot[0] += relative_ * (1 + std::abs(a.qddot[0]));
    if (reaction_ && a.reaction) (*a.reaction)[0] += relative_ * (1 + std::abs((*a.reaction)[0]));
    return a;
  }

 private:
  double relative_;
  bool reaction_;
};

/// A formulation that throws SingularState at every state.
class AlwaysSingular final : public Formulation<double> {
 public:
  std::string name() const override { return "always-singular"; }
  std::string summary() const override { return "throws SingularState (test)"; }
  Acceleration<double> acceleration(const System<double>&, const Vec<double>&, const Vec<double>&) const override {
    throw SingularState("test", "always singular");
  }
};

const Study<double>& skate() { return find_study<double>("skate"); }

TEST(PrecisionPolicy, TableHoldsTheDocumentedValues) {
  const auto expect = [](int d, int cross, int main_a, int main_r, int strict_a, int strict_r) {
    const PrecisionExponents e = precision_exponents(d);
    EXPECT_EQ(e.cross, cross) << d;
    EXPECT_EQ(e.main_analytic, main_a) << d;
    EXPECT_EQ(e.main_rtol, main_r) << d;
    EXPECT_EQ(e.strict_analytic, strict_a) << d;
    EXPECT_EQ(e.strict_rtol, strict_r) << d;
  };
  expect(15, 12, 9, 14, 9, 13);
  expect(18, 15, 12, 17, 12, 16);
  expect(33, 30, 25, 30, 25, 30);
  expect(50, 45, 30, 36, 40, 46);  // the main job's mp50 budget differs from the tests'
  expect(100, 95, 80, 90, 80, 90);
  EXPECT_EQ(decimal_digits<double>(), 15);
  EXPECT_EQ(decimal_digits<long double>(), 18);
  EXPECT_EQ(decimal_digits<float128>(), 33);
  EXPECT_EQ(decimal_digits<mp50>(), 50);
  EXPECT_EQ(decimal_digits<mp100>(), 100);
  // In S, correctly rounded, and the names the rest of the code uses.
  EXPECT_EQ(default_tolerance<double>(), 1e-12);
  EXPECT_EQ(default_tolerance<mp50>(), from_string<mp50>("1e-45"));
  EXPECT_EQ(default_tolerance<mp100>(), from_string<mp100>("1e-95"));
  EXPECT_EQ(precision_policy<mp50>().main.analytic, from_string<mp50>("1e-30"));
  EXPECT_EQ(precision_policy<mp50>().main.rtol, from_string<mp50>("1e-36"));
  EXPECT_EQ(Tolerance<mp50>::analytic, from_string<mp50>("1e-40"));
  EXPECT_EQ(integration_tolerance<mp50>(), from_string<mp50>("1e-46"));
  EXPECT_EQ(Tolerance<long double>::cross, from_string<long double>("1e-15"));
  EXPECT_EQ(integration_tolerance<float128>(), from_string<float128>("1e-30"));
  EXPECT_EQ(precision_policy<double>().main.drift, precision_policy<double>().main.analytic);
}

TEST(PrecisionPolicy, MonotoneInTheDigitsWithTheFallback) {
  PrecisionExponents prev = precision_exponents(6);
  for (int d = 7; d <= 300; ++d) {
    const PrecisionExponents e = precision_exponents(d);
    EXPECT_EQ(e.digits, d);
    EXPECT_GE(e.cross, prev.cross) << d;
    EXPECT_GE(e.main_analytic, prev.main_analytic) << d;
    EXPECT_GE(e.main_rtol, prev.main_rtol) << d;
    EXPECT_GE(e.strict_analytic, prev.strict_analytic) << d;
    EXPECT_GE(e.strict_rtol, prev.strict_rtol) << d;
    // The strict budget is at least as strict; every bound is looser than
    // the tolerance that is its means and than epsilon.
    EXPECT_GE(e.strict_analytic, e.main_analytic) << d;
    EXPECT_GE(e.main_rtol, e.main_analytic) << d;
    EXPECT_GE(e.strict_rtol, e.strict_analytic) << d;
    EXPECT_LT(e.cross, d) << d;
    EXPECT_LT(e.main_rtol, d) << d;
    EXPECT_LT(e.strict_rtol, d) << d;
    prev = e;
  }
}

TEST(CrossCheck, NamesTheWrongFormulationAndItsWorstPair) {
  const System<double> sys = skate().build(skate().default_parameters());
  std::mt19937_64 rng(7);
  const State<double> x = skate().random_state(sys, rng);
  const Perturbed wrong(1e-6);
  const std::vector<const Formulation<double>*> fs = {&find_formulation<double>("first-kind"),
                                                      &find_formulation<double>("second-kind"), &wrong,
                                                      &find_formulation<double>("naive-reduced")};
  const CrossCheck<double> c = cross_check_state(sys, x.q, x.qdot, fs);
  ASSERT_EQ(c.results.size(), 4u);
  EXPECT_EQ(c.compared(), 3u);
  ASSERT_TRUE(c.reference);
  EXPECT_EQ(c.results[*c.reference].name, "first-kind");
  EXPECT_EQ(c.results[3].skipped, "negative control");
  EXPECT_FALSE(c.results[3].evaluated());
  // The worst pair involves the perturbed one, at about its perturbation.
  EXPECT_TRUE(c.worst_first == "perturbed" || c.worst_second == "perturbed")
      << c.worst_first << " / " << c.worst_second;
  EXPECT_GT(c.worst, 1e-8);
  EXPECT_LT(c.worst, 1e-5);
  EXPECT_GT(c.worst, Tolerance<double>::cross);
  EXPECT_EQ(c.results[0].worst_with, "perturbed");
  EXPECT_EQ(c.results[2].worst_with, "first-kind");
  EXPECT_LE(*c.results[1].versus_reference, Tolerance<double>::cross);
  EXPECT_GT(*c.results[2].versus_reference, Tolerance<double>::cross);
  EXPECT_FALSE(c.results[0].versus_reference);  // the reference itself

  // With the negative control included it is evaluated and compared, never
  // the other side of anyone's disagreement.
  const CrossCheck<double> n = cross_check_state(sys, x.q, x.qdot, fs, {.include_negative_controls = true});
  EXPECT_TRUE(n.results[3].evaluated());
  EXPECT_TRUE(n.results[3].disagreement);
  EXPECT_NE(n.results[0].worst_with, "naive-reduced");
  EXPECT_EQ(n.compared(), 3u);

  // Reactions: the perturbed one keeps second-kind's R and lambda (they
  // agree); with its reaction perturbed too, compare_reactions says so.
  CrossCheck<double> r = c;
  compare_reactions(sys, x.q, x.qdot, r);
  ASSERT_TRUE(r.results[1].reaction_disagreement);
  EXPECT_LE(*r.results[1].reaction_disagreement, Tolerance<double>::cross);
  const Perturbed wrong_reaction(1e-6, true);
  CrossCheck<double> rr = cross_check_state(sys, x.q, x.qdot, {fs[1], &wrong_reaction});
  compare_reactions(sys, x.q, x.qdot, rr);
  ASSERT_TRUE(rr.results[0].reaction_disagreement);
  EXPECT_GT(*rr.results[0].reaction_disagreement, Tolerance<double>::cross);
}

TEST(CrossCheck, RecordsErrorsAndInapplicableOnesWithoutThrowing) {
  const Study<double>& bip = find_study<double>("bipendulum");  // non-linear C: voronec does not apply
  const System<double> sys = bip.build(bip.default_parameters());
  const State<double> x = bip.default_state(sys);
  const AlwaysSingular singular;
  const CrossCheck<double> c = cross_check_state(sys, x.q, x.qdot,
                                                 {&find_formulation<double>("voronec"), &singular,
                                                  &find_formulation<double>("second-kind")});
  EXPECT_EQ(c.results[0].skipped.rfind("not applicable: ", 0), 0u) << c.results[0].skipped;
  EXPECT_TRUE(c.results[1].singular);
  EXPECT_NE(c.results[1].error.find("always singular"), std::string::npos);
  EXPECT_TRUE(c.singular());
  EXPECT_EQ(c.compared(), 1u);
  EXPECT_EQ(c.worst, 0.0);
  EXPECT_TRUE(c.worst_first.empty());
  EXPECT_THROW(cross_check_state(sys, Vec<double>(Vec<double>::Zero(1)), x.qdot), UsageError);
}

TEST(CrossCheck, RandomStatesFoldTheWorstStateAndCountSkipped) {
  const System<double> sys0 = skate().build(skate().default_parameters());
  const Perturbed wrong(1e-6);
  const AlwaysSingular singular;
  const std::vector<const Formulation<double>*> fs = {&find_formulation<double>("second-kind"), &wrong};
  std::mt19937_64 rng(20261122);
  const RandomStatesCheck<double> rc = cross_check_random_states(skate(), sys0, rng, 6, fs, false);
  ASSERT_EQ(rc.figures.size(), 2u);
  ASSERT_TRUE(rc.figures[0].qddot);
  EXPECT_GT(*rc.figures[0].qddot, Tolerance<double>::cross);
  EXPECT_EQ(rc.figures[0].worst_with, "perturbed");
  EXPECT_GE(rc.figures[0].worst_state, 0);
  EXPECT_EQ(rc.skipped, 0);
  EXPECT_TRUE(rc.errors.empty());

  // The same seed draws the same states as for_each_random_state.
  std::mt19937_64 a(20261122), b(20261122);
  std::vector<Vec<double>> qa, qb;
  for_each_random_state<double>(skate(), sys0, a, 4,
                                [&](int, const System<double>&, const State<double>& x) { qa.push_back(x.q); });
  for (int k = 0; k < 4; ++k) {
    const System<double> sys = k % 2 ? skate().build(randomized_parameters(skate(), b)) : sys0;
    qb.push_back(skate().random_state(sys, b).q);
  }
  ASSERT_EQ(qa.size(), qb.size());
  for (std::size_t k = 0; k < qa.size(); ++k) EXPECT_EQ(qa[k], qb[k]);

  // A formulation that throws: an error per state, or every state skipped.
  const std::vector<const Formulation<double>*> gs = {&find_formulation<double>("second-kind"), &singular};
  std::mt19937_64 r1(1), r2(1);
  const RandomStatesCheck<double> errors = cross_check_random_states(skate(), sys0, r1, 3, gs, false);
  ASSERT_EQ(errors.errors.size(), 3u);
  EXPECT_EQ(errors.errors[2].state, 2);
  EXPECT_EQ(errors.errors[2].formulation, 1u);
  const RandomStatesCheck<double> skipped = cross_check_random_states(skate(), sys0, r2, 3, gs, true);
  EXPECT_EQ(skipped.skipped, 3);
  EXPECT_TRUE(skipped.errors.empty());
}

TEST(MotionCheck, ReportsTheErrorAgainstAWrongExactMotion) {
  const Study<double>& st = skate();
  const std::vector<SpecialMotion<double>> motions = st.special_motions();
  ASSERT_FALSE(motions.empty());
  const SpecialMotion<double>& mo = motions.front();
  const System<double> sys = st.build(mo.parameters);
  const Formulation<double>& f = find_formulation<double>("second-kind");
  IntegrationOptions<double> io;
  io.t_end = std::min(mo.t_end, 2.0);
  io.dt_out = 0.5;
  io.rtol = io.atol = precision_policy<double>().main.rtol;
  const double bound = precision_policy<double>().main.analytic;

  const MotionCheck<double> right = check_motion<double>(sys, f, mo.initial, io, motion_reference(st, sys, mo.exact));
  EXPECT_TRUE(right.completed()) << right.failure;
  EXPECT_TRUE(right.exact);
  EXPECT_EQ(right.samples, 5u);
  EXPECT_EQ(right.t_last, io.t_end);
  EXPECT_LE(right.max_error, right.error_bound(bound));
  EXPECT_LE(right.max_C, right.constraint_bound(bound));
  EXPECT_GT(right.stats.rhs_calls, 0u);

  // The closed form shifted by 1e-3 in q[0]: the check must say so.
  const auto shifted = [&](const double& t) {
    State<double> x = mo.exact(t);
    x.q[0] += 1e-3;
    return x;
  };
  int recorded = 0;
  const MotionCheck<double> wrong = check_motion<double>(sys, f, mo.initial, io, motion_reference<double>(st, sys, shifted),
                                                 [&](const Sample<double>&) { ++recorded; });
  EXPECT_TRUE(wrong.completed());
  EXPECT_EQ(recorded, 5);
  EXPECT_NEAR(wrong.max_error, 1e-3, 1e-9);
  EXPECT_GT(wrong.max_error, wrong.error_bound(bound));

  // A wrong formulation drifts off the energy and the motion.
  const Perturbed perturbed(1e-3);
  const MotionCheck<double> drifted = check_motion<double>(sys, perturbed, mo.initial, io, motion_reference(st, sys, mo.exact));
  EXPECT_GT(drifted.max_error, drifted.error_bound(bound));

  // A run refused before its first sample: a failure, never a throw.
  IntegrationOptions<double> bad = io;
  bad.t_end = -1;
  const MotionCheck<double> refused = check_motion<double>(sys, f, mo.initial, bad, motion_reference(st, sys, mo.exact));
  EXPECT_FALSE(refused.completed());
  EXPECT_EQ(refused.failure.rfind("integration failed after 0 samples: ", 0), 0u) << refused.failure;
  EXPECT_EQ(refused.samples, 0u);

  // A record callback that throws ends the run at that sample, unfolded.
  const MotionCheck<double> stopped = check_motion<double>(sys, f, mo.initial, io, motion_reference(st, sys, mo.exact),
                                                   [&](const Sample<double>& s) {
                                                     if (s.t >= 1) throw IoError("disk full");
                                                   });
  EXPECT_EQ(stopped.samples, 2u);
  EXPECT_EQ(stopped.failure, "integration failed after 2 samples: disk full");
}

TEST(MotionCheck, InvariantDriftOfADeliberatelyWrongInvariant) {
  const Study<double>& st = skate();
  const System<double> sys = st.build(st.default_parameters());
  const State<double> x0 = st.default_state(sys);
  IntegrationOptions<double> io;
  io.t_end = 1;
  io.dt_out = 0.5;
  MotionReference<double> ref = motion_reference(st, sys);
  // "t-like": q[0] + 1 is not conserved where the skate moves in x.
  ref.invariants.push_back({"moving", [](const Vec<double>& q, const Vec<double>&) { return q[0] + 1; }, true});
  ref.invariants.push_back({"undefined", [](const Vec<double>&, const Vec<double>&) { return std::nan(""); }, true});
  const MotionCheck<double> m = check_motion<double>(sys, find_formulation<double>("first-kind"), x0, io, ref);
  ASSERT_TRUE(m.completed()) << m.failure;
  const InvariantDrift<double>& moving = m.invariants[m.invariants.size() - 2];
  const InvariantDrift<double>& undefined = m.invariants.back();
  EXPECT_EQ(moving.name, "moving");
  if (x0.qdot[0] != 0) EXPECT_GT(moving.drift, m.invariant_bound(m.invariants.size() - 2, 1e-9));
  EXPECT_EQ(undefined.undefined, m.samples);
  EXPECT_EQ(undefined.drift, 0.0);
}

}  // namespace
}  // namespace nhs
