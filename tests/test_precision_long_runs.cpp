// First integrals along long runs in 50 digits: from every study's default
// state (default parameters; STUDIES.md) to t = 1000 with the first-kind
// equations (or the first formulation that applies and may follow the
// default motion), Bulirsch-Stoer at rtol = atol = 1e-46: the energy (where
// the study declares it conserved and no non-conservative force does work)
// and each conserved invariant of the study (e.g. the separate energies of
// parallel-points) stay constant to 1e-40 (1 + |I|) at every sample (every
// 10 time units), and |C| stays below 1e-40 (1 + |qdot|^2).
// ctest-labels: mp slow
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <iostream>

namespace nhs {
namespace {

using S = mp50;

TEST(LongRunsMp50, FirstIntegralsToT1000) {
  const S bound = from_string<S>("1e-40");
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
        sys, *f, x0.q, x0.qdot, opts,
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
    const std::string what = st.info.name + " / " + f->name();
    EXPECT_EQ(t_last, opts.t_end) << what;
    std::cout << "[ long run ] " << what << " to t = 1000: " << stats.rhs_calls
              << " RHS calls, relative energy drift " << static_cast<double>(e_drift)
              << ", max |C| / (1 + |qdot|^2) " << static_cast<double>(c_excess);
    if (st.energy_is_conserved(sys) && power == 0) EXPECT_LE(e_drift, bound) << what;
    EXPECT_LE(c_excess, bound) << what;
    for (std::size_t i = 0; i < invariants.size(); ++i) {
      if (!invariants[i].conserved) continue;
      std::cout << ", " << invariants[i].name << " drift " << static_cast<double>(inv_drift[i]);
      EXPECT_LE(inv_drift[i], bound) << what << " " << invariants[i].name;
    }
    std::cout << "\n";
  }
}

}  // namespace
}  // namespace nhs
