// The bipendulum's findings (docs/special-motions.md bipendulum,
// docs/errata.md) as one module: the setups they start from, as decimal
// text; the computations (the epsilon-limit of the circle of eq. 89, the
// linear bipendulum and Hertz's limit, the symmetric motion up to its
// singular turning point, the energy separation); and the tables
// `nhs findings` writes, each carrying the parameters it was made with, so
// that the report's captions read them instead of repeating them. The
// tests assert the same functions from the same setups.
#pragma once

#include "nhs/stepper.hpp"
#include "nhs/studies/bipendulum.hpp"

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// A bipendulum setup as decimal text (exact in every precision, and
/// written as such into the findings' metadata): the parameters
/// (m1, m2, g, k) and a state from the chart z = (y0, w1, w2).
struct BipendulumSetup {
  std::string m1, m2, g, k;
  std::array<std::string, 4> q;  ///< (x1, y1, x2, y2)
  std::array<std::string, 3> z;  ///< (y0, w1, w2)
};

/// docs/special-motions.md bipendulum (a), the study's default state:
/// m1 = 0.8, m2 = 1.5, k = 0, P1 = (1.2, 0.3), P2 = (-0.9, -0.5),
/// z = (0.4, 0.6, -0.8), on the incline g ("0": the spontaneous motions and
/// Hertz's limit; "2.2": the energy separation on the incline).
BipendulumSetup bipendulum_setup_a(const std::string& g);

/// The energy separation under the harmonic pull k = 1 (g = 0): m1 = 0.8,
/// m2 = 1.5, P1 = (1.5, 0), P2 = (0.5, 1), z = (0, 1, -1), a motion that
/// stays 0.1 away from the singular sets to t = 20 (most harmonic motions
/// tried reach eq. 72b within a few time units).
BipendulumSetup bipendulum_setup_harmonic();

/// Integration settings for the findings: tolerance (relative = absolute)
/// and stepper (automatic picks per precision, nhs/stepper.hpp).
template <class S>
struct FindingSettings {
  S tol;
  std::string formulation = "second-kind";
  Stepper stepper = Stepper::automatic;
};

/// One motion of the family of docs/special-motions.md bipendulum (b) whose
/// epsilon -> 0 limit is the circle of 000 eq. 89: m1 = m2 = 1, g = 0,
/// P1 = (1, 0.5) turning about P2 = P0 = (0, -0.4) with w1 = 0.9, x2 = 0,
/// v2 = (0, epsilon). Integrated to t_end (3 in docs/special-motions.md).
template <class S>
struct CircleLimit {
  S epsilon;
  /// |P1(t_end) - P1_89(t_end)|: distance from the motion of 000 eq. 89,
  /// P1_89(t) = P0(0) + rotation by w1 t of (P1(0) - P0(0)) (uniform on the circle)
  S distance;
  S radial_distance;  ///< | |P1(t_end) - P0(0)| - |P1(0) - P0(0)| |: distance from the circle
  S min_sigma;  ///< min over the output samples of sigma_min(dC/dqdot) (~ 1.35 epsilon)
  std::vector<State<S>> samples;  ///< at t = 0, dt_out, ..., t_end
};
template <class S>
CircleLimit<S> circle_limit(const S& epsilon, const S& t_end, const S& dt_out,
                            const FindingSettings<S>& settings);

/// The bipendulum and the linear bipendulum (m0 given) from the common
/// state of docs/special-motions.md bipendulum (a) (m1 = 0.8, m2 = 1.5, g = 0,
/// P1 = (1.2, 0.3), P2 = (-0.9, -0.5), z = (0.4, 0.6, -0.8)), the linear
/// one with y0 and y0d taken from the bipendulum's own evolution at t = 0
/// (y0d = the first kind's zdot^1). Samples at t = 0, dt_out, ..., t_end.
template <class S>
struct HertzSample {
  S t;
  S y0_bipendulum, y0_linear;
  S distance_P1, distance_P2;  ///< |P_k(linear) - P_k(bipendulum)|
};
template <class S>
std::vector<HertzSample<S>> hertz_comparison(const S& m0, const S& t_end, const S& dt_out,
                                             const FindingSettings<S>& settings);

/// The symmetric motion of docs/special-motions.md (e) integrated with the
/// settings' formulation up to t = fraction * T/4 (0 < fraction < 1), as it
/// approaches the singular turning point: the max-norm error of (q, qdot)
/// against the exact pendulum there, and sigma_min(dC/dqdot) there.
template <class S>
struct NearSingular {
  S error;
  S sigma_min;
};
template <class S>
NearSingular<S> symmetric_near_turning_point(const S& fraction, const FindingSettings<S>& settings);

/// The parameter vector (m1, m2, g, k) of a setup, in S.
template <class S>
std::vector<S> setup_parameters(const BipendulumSetup& b) {
  return {from_string<S>(b.m1), from_string<S>(b.m2), from_string<S>(b.g), from_string<S>(b.k)};
}

/// The state (q, psi(q, z)) of a setup, in S.
template <class S>
State<S> setup_state(const BipendulumSetup& b) {
  return bipendulum_state<S>(bipendulum_vector<S>(from_string<S>(b.q[0]), from_string<S>(b.q[1]),
                                                  from_string<S>(b.q[2]), from_string<S>(b.q[3])),
                             from_string<S>(b.z[0]), from_string<S>(b.z[1]),
                             from_string<S>(b.z[2]));
}

/// |E_k(t) - E_k(0)| for the separate energies E_k = T_k + V_k (000 eqs.
/// 85-86, the study's invariants E1, E2) at the samples t = 0, dt_out, ...,
/// t_end of the motion from the setup.
template <class S>
struct EnergyDrift {
  S t, e1, e2;
};
template <class S>
std::vector<EnergyDrift<S>> energy_drifts(const BipendulumSetup& setup, const S& t_end,
                                          const S& dt_out, const FindingSettings<S>& settings);

/// The symmetric motion of docs/special-motions.md (e) integrated up to
/// t = fraction * T/4 with `samples` output intervals, against the exact
/// pendulum at each sample: max-norm error of (q, qdot) and
/// sigma_min(dC/dqdot).
template <class S>
struct PendulumSample {
  S t, theta_exact, error, sigma_min, t_over_quarter_period;
};
template <class S>
std::vector<PendulumSample<S>> symmetric_pendulum_errors(const S& fraction, int samples,
                                                         const FindingSettings<S>& settings);

/// One table of the findings: a CSV file's name, columns and rows (cells
/// as text, empty where a series has ended; never "nan"), what it shows,
/// and the parameters it was made with as (key, value) text pairs (setups,
/// spans, tolerances, precisions, formulation). The keys a table carries
/// are listed with bipendulum_findings().
struct FindingTable {
  std::string file;
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::pair<std::string, std::string>> parameters;
};

/// Computes the findings (quick: shorter mp50 runs and fewer epsilons) and
/// hands each table to `write` as soon as it is complete, in this order:
///   bipendulum_energy_separation.csv    |E_k - E_k(0)|, incline (setup (a),
///                                       g = 2.2, double) and harmonic pull
///                                       (double, mp50); keys incline.* and
///                                       harmonic.* (the setup, t_end,
///                                       precisions), dt_out, formulation,
///                                       rtol.<precision>
///   bipendulum_linear_nonlinear.csv     Hertz's limit: setup.*, m0, t_end,
///                                       dt_out, precision, rtol, formulation
///   bipendulum_symmetric_pendulum.csv   the symmetric motion to 0.999 T/4:
///                                       m, g, l, amplitude, fraction,
///                                       quarter_period, samples, precision,
///                                       rtol, formulation
///   bipendulum_near_singular.csv        digits kept as t -> T/4: the same
///                                       motion's keys, rtol.<precision>
///   bipendulum_epsilon_circle.csv       the epsilon-limit of eq. 89's circle:
///   bipendulum_epsilon_circle_paths.csv m1, m2, g, P1, P0, w1, epsilons,
///                                       t_end, dt_out, precision, rtol,
///                                       formulation
/// Points are written "(x, y)", lists "a, b, c".
void bipendulum_findings(bool quick, const std::function<void(const FindingTable&)>& write);

#define NHS_BIPENDULUM_FINDINGS_INSTANTIATE(EXTERN, S)                                           \
  EXTERN template CircleLimit<S> circle_limit<S>(const S&, const S&, const S&,                  \
                                                 const FindingSettings<S>&);                    \
  EXTERN template std::vector<HertzSample<S>> hertz_comparison<S>(const S&, const S&, const S&,   \
                                                                  const FindingSettings<S>&);   \
  EXTERN template NearSingular<S> symmetric_near_turning_point<S>(const S&,                     \
                                                                  const FindingSettings<S>&);   \
  EXTERN template std::vector<EnergyDrift<S>> energy_drifts<S>(                                  \
      const BipendulumSetup&, const S&, const S&, const FindingSettings<S>&);                    \
  EXTERN template std::vector<PendulumSample<S>> symmetric_pendulum_errors<S>(                   \
      const S&, int, const FindingSettings<S>&);
#define NHS_EXTERN_BIPENDULUM_FINDINGS_(S, NAME) NHS_BIPENDULUM_FINDINGS_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_BIPENDULUM_FINDINGS_)
#undef NHS_EXTERN_BIPENDULUM_FINDINGS_

}  // namespace nhs
