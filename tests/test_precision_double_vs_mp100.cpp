// Double against 100 digits (Pinocchio's multiprecision test): at random
// regular states of every study, each formulation's q̈ computed in double
// agrees with the same formulation in mp100 at the same double-exact
// state and parameters, to what double can carry: a modest multiple of
// epsilon<double>() times a condition estimate of the state.
// ctest-labels: cross mp
//
// The state and parameters are drawn in double (the double study's random
// regular state and randomized parameters) and converted exactly to mp100.
// The widened qdot is on C only to double round-off, which the mp100
// formulations refuse, so it is projected onto C in mp100 (admit_state; q
// and the parameters stay double-exact) and the double computation gets
// that qdot rounded to double: the inputs of the two computations differ
// by at most half an ulp, which the condition estimate below accounts for.
//
// Condition estimate kappa (computed in mp100, independent of the double
// computation): the largest relative change of q̈ when every input (q,
// qdot, parameters) is multiplied by (1 + eps u), u uniform in [-1, 1]
// (qdot then projected onto C again), divided by eps, over three such
// perturbations (a forward-error condition
// number of the map (q, qdot, p) -> q̈). A backward-stable evaluation has a
// relative error of order eps (1 + kappa) times a growth factor of the
// algorithm; the bound asserted is kBound eps (1 + kappa), kBound = 100
// from the measured ratios (printed by this test; at most 7.4).
#include "scalar_test.hpp"

#include "nhs/formulation.hpp"
#include "nhs/manifold.hpp"
#include "nhs/studies/all.hpp"

#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace nhs {
namespace {

using M = mp100;

// The bound in units of eps (1 + kappa). Measured with these 20 states per
// study: at most 7.4 (skate), 7.0 (coaxial-discs), 2.7 (rolling-disc),
// 0.84 (rolling-sphere), 0.67 (parallel-points); kappa <= 17. 100 leaves a
// factor 13 of margin for states and parameters drawn otherwise.
constexpr double kBound = 100;
constexpr int kStates = 20;

Vec<M> widen(const Vec<double>& v) {
  Vec<M> w(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) w[i] = M(v[i]);  // exact
  return w;
}

TEST(DoubleAgainstMp100, EveryFormulationAtRandomStates) {
  const double eps = epsilon<double>();
  double worst_ratio = 0;
  for (std::size_t si = 0; si < studies<double>().size(); ++si) {
    const Study<double>& sd = studies<double>()[si];
    const Study<M>& sm = studies<M>()[si];
    ASSERT_EQ(sd.info.name, sm.info.name);
    std::mt19937_64 rng(424242 + si);
    double study_worst = 0, study_kappa = 0, study_ratio = 0;
    for (int k = 0; k < kStates; ++k) {
      const std::vector<double> pd = k % 2 ? randomized_parameters(sd, rng) : sd.default_parameters();
      const System<double> sysd = sd.build(pd);
      const State<double> xd = sd.random_state(sysd, rng);
      std::vector<M> pm;
      for (double v : pd) pm.push_back(M(v));
      const System<M> sysm = sm.build(pm);
      const Vec<M> qm = widen(xd.q);
      const Vec<M> qdm = admit_state(sysm, qm, widen(xd.qdot), default_manifold_tolerance<M>());
      Vec<double> qdd(qdm.size());  // the mp100 qdot rounded to double
      for (Eigen::Index i = 0; i < qdm.size(); ++i) qdd[i] = static_cast<double>(qdm[i]);
      // Perturbed inputs for the condition estimate.
      struct Perturbed {
        System<M> sys;
        Vec<M> q, qd;
      };
      std::vector<Perturbed> perturbed;
      const M epsm = M(eps);
      for (int r = 0; r < 3; ++r) {
        const auto jiggle = [&](const M& v) { return v * (M(1) + epsm * uniform<M>(rng, -1, 1)); };
        std::vector<M> pp = pm;
        for (auto& v : pp) v = jiggle(v);
        Vec<M> q = qm, qd = qdm;
        for (auto& v : q) v = jiggle(v);
        for (auto& v : qd) v = jiggle(v);
        System<M> sp = sm.build(pp);
        qd = admit_state(sp, q, qd, default_manifold_tolerance<M>());
        perturbed.push_back({std::move(sp), q, qd});
      }
      for (std::size_t fi = 0; fi < formulations<double>().size(); ++fi) {
        const Formulation<double>& fd = *formulations<double>()[fi];
        const Formulation<M>& fm = *formulations<M>()[fi];
        if (fd.is_negative_control() || !fd.not_applicable_reason(sysd).empty()) continue;
        const Vec<double> ad = fd.acceleration(sysd, xd.q, qdd).qddot;
        const Vec<M> am = fm.acceleration(sysm, qm, qdm).qddot;
        M kappa(0);
        for (const auto& p : perturbed) {
          using std::max;
          kappa = max(kappa, relative_difference<M>(fm.acceleration(p.sys, p.q, p.qd).qddot, am) / epsm);
        }
        const double rel = static_cast<double>(relative_difference<M>(widen(ad), am));
        const double ratio = rel / (eps * (1 + static_cast<double>(kappa)));
        study_worst = std::max(study_worst, rel);
        study_kappa = std::max(study_kappa, static_cast<double>(kappa));
        study_ratio = std::max(study_ratio, ratio);
        EXPECT_LE(ratio, kBound) << sd.info.name << " / " << fd.name() << " state " << k
                                 << ": relative difference " << rel << ", kappa "
                                 << static_cast<double>(kappa);
      }
    }
    worst_ratio = std::max(worst_ratio, study_ratio);
    std::cout << "[ dbl/mp100] " << sd.info.name << ": max relative difference " << study_worst
              << " (" << study_worst / eps << " eps), max kappa " << study_kappa
              << ", max difference / (eps (1 + kappa)) " << study_ratio << "\n";
  }
  std::cout << "[ dbl/mp100] overall max difference / (eps (1 + kappa)) " << worst_ratio << "\n";
}

}  // namespace
}  // namespace nhs
