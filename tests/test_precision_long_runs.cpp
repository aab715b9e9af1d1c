// First integrals along long runs in 50 digits: from every study's default
// state (default parameters; docs/studies.md) to t = 1000 with the first-kind
// equations (or the first formulation that applies and may follow the
// default motion), Bulirsch-Stoer at rtol = atol = 1e-46: the energy (where
// the study declares it conserved and no non-conservative force does work)
// and each conserved invariant of the study (e.g. the separate energies of
// parallel-points) stay constant to 1e-40 (1 + |I|) at every sample (every
// 10 time units), and |C| stays below 1e-40 (1 + |qdot|^2). The same for the
// separate energies under forces (000 eqs. 85-86), which the default states
// lack: parallel-points and the bipendulum on the incline.
// ctest-labels: mp slow
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/bipendulum.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace nhs {
namespace {

using S = mp50;

// Integrates (sys, x0) with f to t = 1000 (Bulirsch-Stoer at 1e-46, samples
// every 10) and asserts the first integrals of the study: the energy where
// it is conserved and no non-conservative force does work, each conserved
// invariant to 1e-40 (1 + |I|), |C| below 1e-40 (1 + |qdot|^2). Returns the
// names of the conserved invariants it checked.
std::vector<std::string> check_first_integrals(const Study<S>& st, const System<S>& sys,
                                               const State<S>& x0, const Formulation<S>& f,
                                               const std::string& what) {
  const S bound = from_string<S>("1e-40");
  const auto invariants = st.invariants(sys);
  std::vector<S> inv0, inv_drift(invariants.size(), S(0));
  for (const auto& inv : invariants) inv0.push_back(inv.value(x0.q, x0.qdot));
  const S E0 = energy(sys, x0.q, x0.qdot);
  S e_drift(0), power(0), c_excess(0);
  IntegrationOptions<S> opts;
  opts.t_end = S(1000);
  opts.dt_out = S(10);
  opts.rtol = opts.atol = from_string<S>("1e-46");
  IntegrationStats stats;
  S t_last(0);
  integrate<S>(
      sys, f, x0.q, x0.qdot, opts,
      [&](const Sample<S>& s) {
        using std::abs;
        using std::max;
        e_drift = max(e_drift, abs(energy(sys, s.q, s.qdot) - E0) / (S(1) + abs(E0)));
        for (std::size_t i = 0; i < invariants.size(); ++i)
          inv_drift[i] = max(inv_drift[i], abs(invariants[i].value(s.q, s.qdot) - inv0[i]) /
                                               (S(1) + abs(inv0[i])));
        const Vec<S> C = constraint_residuals(sys, s.q, s.qdot);
        if (C.size())
          c_excess = max(c_excess, C.cwiseAbs().maxCoeff() / (S(1) + s.qdot.squaredNorm()));
        if (sys.nonconservative_force) {
          Vec<S> F = Vec<S>::Zero(sys.n);
          sys.nonconservative_force(s.q, s.qdot, F);
          power = max(power, abs(F.dot(s.qdot)));
        }
        t_last = s.t;
      },
      &stats);
  EXPECT_EQ(t_last, opts.t_end) << what;
  std::cout << "[ long run ] " << what << " to t = 1000: " << stats.rhs_calls
            << " RHS calls, relative energy drift " << static_cast<double>(e_drift)
            << ", max |C| / (1 + |qdot|^2) " << static_cast<double>(c_excess);
  if (st.energy_is_conserved(sys) && power == 0) EXPECT_LE(e_drift, bound) << what;
  EXPECT_LE(c_excess, bound) << what;
  std::vector<std::string> checked;
  for (std::size_t i = 0; i < invariants.size(); ++i) {
    if (!invariants[i].conserved) continue;
    std::cout << ", " << invariants[i].name << " drift " << static_cast<double>(inv_drift[i]);
    EXPECT_LE(inv_drift[i], bound) << what << " " << invariants[i].name;
    checked.push_back(invariants[i].name);
  }
  std::cout << "\n";
  return checked;
}

TEST(LongRunsMp50, FirstIntegralsToT1000) {
  for (const Study<S>& st : studies<S>()) {
    const System<S> sys = st.build(st.default_parameters());
    const State<S> x0 = st.default_state(sys);
    const Formulation<S>* f = nullptr;
    for (const auto& g : formulations<S>())
      if (!g->is_negative_control() && g->not_applicable_reason(sys).empty() &&
          !st.default_run_excluded.count(g->name())) {
        f = g.get();
        break;
      }
    ASSERT_NE(f, nullptr) << st.info.name;
    check_first_integrals(st, sys, x0, *f, st.info.name + " / " + f->name());
  }
}

// The separate energies E1 = T1 + V1, E2 = T2 + V2 (000 eqs. 85-86; 001
// §9.4) under forces, where the default states have none (g = 0, k = 0):
// (a) parallel-points on the incline g = 2.5 (m1 = 0.8, m2 = 1.4) with
// v1 = 1.3 e, v2 = 0.4 e (z = (1.3, 0.4, 1.6) at q = (0.3, -0.2, -0.5,
// 0.6); the state of test_energy_separation.cpp), first-kind: regular for
// all t (rho - sigma = 0.9 is constant; sigma_min(dC/dqdot) >= 1.36 to
// t = 1000, measured), the speeds grow to ~2500 and x1 to ~1.2e6;
// (b) the bipendulum on the incline g = 2.2 from the state of
// docs/special-motions.md (a) (m1 = 0.8, m2 = 1.5), the forced case that stays
// regular longest (measured with `nhs run`: margin_72b >= 0.50 to t = 1000;
// the harmonic pull k = 1 of test_energy_separation.cpp reaches eq. 72b at
// t = 34.06), second-kind: first-kind's chart has G = psi^T g psi with
// condition ~ y0^2 and P0 recedes as y0 ~ t^3 (4.7e9 at t = 1000 by
// extrapolation), beyond what 50 digits carry to 1e-40.
TEST(LongRunsMp50, SeparateEnergiesUnderForcesToT1000) {
  const auto num = [](const char* text) { return from_string<S>(text); };
  Vec<S> q(4);
  {
    const Study<S>& st = find_study<S>("parallel-points");
    const System<S> sys = st.build({num("0.8"), num("1.4"), num("2.5")});
    Vec<S> z(3), qd(4);
    q << num("0.3"), num("-0.2"), num("-0.5"), num("0.6");
    z << num("1.3"), num("0.4"), num("1.6");
    sys.parametrization(q, z, qd);
    const auto checked = check_first_integrals(st, sys, {q, qd}, find_formulation<S>("first-kind"),
                                               "parallel-points g = 2.5, v1 = 1.3 e, v2 = 0.4 e");
    EXPECT_EQ(checked, (std::vector<std::string>{"E1", "E2"}));
  }
  {
    const Study<S>& st = find_study<S>("bipendulum");
    const System<S> sys = st.build({num("0.8"), num("1.5"), num("2.2"), S(0)});
    q << num("1.2"), num("0.3"), num("-0.9"), num("-0.5");
    const State<S> x0 = bipendulum_state<S>(q, num("0.4"), num("0.6"), num("-0.8"));
    const auto checked = check_first_integrals(st, sys, x0, find_formulation<S>("second-kind"),
                                               "bipendulum g = 2.2 / second-kind");
    EXPECT_EQ(checked, (std::vector<std::string>{"E1", "E2"}));
  }
}

}  // namespace
}  // namespace nhs
