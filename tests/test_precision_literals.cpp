// Compares, in mp100, every formulation's qddot with the hand-written closed forms (nhs/studies/closed_forms.hpp: 001 §9.1-9.4, 000 §13) and integrated special motions with their exact solutions (docs/special-motions.md), to 1e-90: no double literal leaks into an mp computation.
// ctest-labels: unit mp
//
// A literal or a conversion rounded through double anywhere on the generic
// path (a study's description, the AD derivatives, a formulation, the
// 20-column Bulirsch-Stoer, a study's exact solution) is wrong by ~1e-17
// relative in mp100, 73 decades above the bounds here. The closed forms
// are written directly in S and share no code with that path.
//  (a) qddot of every applicable formulation (the negative control
//      naive-reduced left out) against the closed form with the study's own
//      forces, at random regular states (Study::random_state) with
//      randomized parameters, for each study of
//      closed_form::for_each_closed_form: <= 1e-90 relative to
//      1 + max|qddot|. test_precision_closed_forms.cpp checks the closed
//      forms' general-force versions against second kind, first kind and
//      the KKT system to 1e-95; here every formulation, qddot only.
//  (b) one special motion per closed-form study, with a transcendental
//      exact solution where the study has one (parallel-points has only
//      polynomial ones), integrated with the second kind and the default
//      mp100 stepper (the 20-column Bulirsch-Stoer) to a short time: max-norm
//      error of (q, qdot) against the exact solution <= 1e-90. Tolerance
//      rtol = atol = 1e-90: measured on the skate to t = 1, the error is at
//      mp100's floor (~4e-95) from rtol 1e-90 down (1e-90: 36k RHS calls,
//      1e-93: 43k, 1e-97: 115k, same error, before the fix below), and
//      6.7e-90 at rtol 1e-85.
//      Cost (after the order-estimate fix in bulirsch_stoer_kmax.hpp):
//      14-69 steps, 4k-21k RHS calls per case, ~13 s in all (before it:
//      290-450 steps, the step collapsing to ~1e-12 after every
//      reset of the order estimate). The pendulum runs to 0.2 T/4
//      (t = 0.24).
// test_precision_closed_forms.cpp shows that a parameter rounded through
// double is seen by such a comparison (~1e-17 relative in mp100).
#include "motion_error.hpp"
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/bipendulum.hpp"
#include "nhs/studies/closed_forms.hpp"

#include <chrono>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nhs {
namespace {

using S = mp100;

/// The closed-form qddot of study `id` under its own forces
/// (closed_form::x_rhs), or an empty vector when it has none.
Vec<S> closed_form_qddot(std::string_view id, const std::vector<S>& p, const Vec<S>& q,
                         const Vec<S>& qd) {
  Vec<S> out;
  closed_form::for_each_closed_form<S>([&](std::string_view name, auto tag, auto rhs) {
    if (name != id) return;
    using P = typename decltype(tag)::type;
    const typename P::Q qf = q, qdf = qd;
    out = Vec<S>(rhs(P::from(p), qf, qdf));
  });
  return out;
}

/// The ids of the studies with a closed form.
std::vector<std::string> closed_form_studies() {
  std::vector<std::string> ids;
  closed_form::for_each_closed_form<S>(
      [&](std::string_view name, auto, auto) { ids.emplace_back(name); });
  return ids;
}

/// max|a - b| / (1 + max|b|).
S disagreement(const Vec<S>& a, const Vec<S>& b) {
  return max_abs<S>(Vec<S>(a - b)) / (S(1) + max_abs<S>(b));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The special motion of `study` whose name starts with `prefix`.
SpecialMotion<S> motion_named(const std::string& study, const std::string& prefix) {
  for (const SpecialMotion<S>& m : find_study<S>(study).special_motions())
    if (m.name.rfind(prefix, 0) == 0) return m;
  throw std::runtime_error(study + ": no special motion '" + prefix + "'");
}

const S kBound = from_string<S>("1e-90");

// --- (a) ---------------------------------------------------------------------

TEST(PrecisionLiterals, EveryFormulationMatchesTheClosedFormsTo90Digits) {
  constexpr int kStates = 4;
  std::mt19937_64 rng(20261123);
  const std::vector<std::string> ids = closed_form_studies();
  ASSERT_EQ(ids.size(), 5u);
  for (const std::string& id : ids) {
    const Study<S>& st = find_study<S>(id);
    S worst(0);
    std::string worst_f;
    int compared = 0;
    for (int k = 0; k < kStates; ++k) {
      const std::vector<S> p = randomized_parameters(st, rng);
      const System<S> sys = st.build(p);
      const State<S> x = st.random_state(sys, rng);
      const Vec<S> ref = closed_form_qddot(id, p, x.q, x.qdot);
      ASSERT_EQ(ref.size(), x.q.size()) << id;
      for (const auto& f : formulations<S>()) {
        if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
        const S d = disagreement(f->acceleration(sys, x.q, x.qdot).qddot, ref);
        EXPECT_LE(d, kBound) << id << " " << f->name() << ", state " << k;
        if (d >= worst) {
          worst = d;
          worst_f = f->name();
        }
        ++compared;
      }
    }
    EXPECT_GE(compared, 2 * kStates) << id;
    std::cout << "[ literals ] " << id << ": " << compared
              << " (formulation, state) pairs, worst disagreement "
              << static_cast<double>(worst) << " (" << worst_f << ")\n";
  }
}

// --- (b) ---------------------------------------------------------------------

struct MotionCase {
  std::string study;
  SpecialMotion<S> motion;
  std::string formulation;
  S t_end;
};

S integrated_error(const MotionCase& c, IntegrationStats& stats) {
  const System<S> sys = find_study<S>(c.study).build(c.motion.parameters);
  IntegrationOptions<S> opts;  // stepper "auto": default_stepper<mp100>(rtol)
  opts.t_end = c.t_end;
  opts.dt_out = c.t_end;  // one output interval (the cost note in (b) above)
  opts.rtol = opts.atol = power_of_ten<S>(-90);
  return motion_error<S>(sys, find_formulation<S>(c.formulation), c.motion, opts, &stats);
}

TEST(PrecisionLiterals, SpecialMotionsIntegratedTo90Digits) {
  const std::string f = "second-kind";
  const SpecialMotion<S> pendulum = symmetric_pendulum_motion<S>(S(1) / S(5));
  const std::vector<MotionCase> cases = {
      {"skate", motion_named("skate", "incline g = 3, omega = 0.9, t <= 1.2"), f, S(1)},
      {"rolling-disc", motion_named("rolling-disc", "viscous decay"), f, S(1)},
      {"coaxial-discs", motion_named("coaxial-discs", "incline g = 2.5"), f, S(1)},
      {"parallel-points", motion_named("parallel-points", "free fall"), f, S(1)},
      {"bipendulum", pendulum, f, pendulum.t_end},
  };
  for (const MotionCase& c : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    IntegrationStats stats;
    const S err = integrated_error(c, stats);
    std::cout << "[ motion   ] " << c.study << " " << c.motion.name << " (" << c.formulation
              << ", " << stepper_name(stats.stepper) << ", t = " << static_cast<double>(c.t_end)
              << "): error " << static_cast<double>(err) << ", " << stats.rhs_calls
              << " RHS calls, " << stats.steps << " steps, " << seconds_since(t0) << " s\n";
    EXPECT_LE(err, kBound) << c.study << " " << c.motion.name;
  }
}

}  // namespace
}  // namespace nhs
