// The per-precision figures of the library, the main job and the tests, in
// one table keyed on the decimal digits d of the scalar (decimal_digits<S>()):
// the default integration tolerance, the agreement asked of two
// formulations' qddot, and the bounds and integration tolerances of the two
// budgets that integrate motions (the main job `nhs verify` and the strict
// budget of the special-motion tests and of `nhs check`, for one system).
//
//   d                       15 double  18 long double  33 float128  50 mp50  100 mp100
//   cross (qddot, relative) 1e-12      1e-15           1e-30        1e-45    1e-95
//   main:   analytic, drift 1e-9       1e-12           1e-25        1e-30    1e-80
//           rtol = atol     1e-14      1e-17           1e-30        1e-36    1e-90
//   strict: analytic, drift 1e-9       1e-12           1e-25        1e-40    1e-80
//           rtol = atol     1e-13      1e-16           1e-30        1e-46    1e-90
//
// cross: the largest relative disagreement (max-norm, relative_difference in
// nhs/norms.hpp) of two formulations' qddot, or of a formulation with a
// closed form, at one state. It is also default_tolerance<S>(), the default
// rtol = atol of IntegrationOptions: what the precision reaches with a few
// digits to spare for the round-off accumulated over ~10^4-10^5 steps,
// 10^-(d - 3) up to 33 digits, 10^-(d - 5) above (3 digits of margin over
// epsilon up to 33 digits, 5 above). long double: 1e-15 = 10^4 eps (eps =
// 1.1e-19), the same margin over eps as double's 1e-12 (4500 eps).
//
// analytic: the max-norm error over (q, qdot) of an integrated special
// motion against its closed form at the output samples; drift: the bound on
// the energy drift (where conserved), max |C| and the drift of the study's
// conserved invariants along the same runs (first integrals and C are kept
// at least as well as the trajectory, so drift = analytic). `nhs verify`
// scales both by (1 + the run's scale), as the integrators scale their error
// control (atol + rtol |x|); the tests assert them unscaled. rtol is the
// means, the bound is the claim: chosen so that the global error stays below
// the bound with margin.
//
// The two budgets differ only in mp50, deliberately. The strict budget
// (special_motion_check.hpp: test_special_motions, test_special_motions_all,
// slow) asserts the 1e-40 at t = 20 with rtol 1e-46. The main job
// keeps the former mp50 bound 1e-30 at rtol 1e-36 for its time budget: it
// ran mp50 in 589 s, while at rtol 1e-46 its runs cut at t = 2 alone took
// 1580 s (measured, --quick). mp100: 1e-80 at rtol 1e-90 in both (the
// 20-column controlled Bulirsch-Stoer: `nhs verify --quick`, runs cut at
// t = 2, took 1069 s on one thread, and the slow test that integrates every
// special motion to t = 20, 2833 s; not in the main job's default
// selection). double and long double run at 1e-14 and 1e-17 in the main job
// (above minimum_tolerance, 10 eps) and 1e-13 and 1e-16 in the tests.
//
// A scalar type of another d (none in scalar.hpp today) gets:
//   cross: the rule above, 10^-(d - 3) up to 33 digits, 10^-(d - 5) above,
//     never looser than at 33 digits (10^-30);
//   below 15 digits: double's row, every exponent lowered by 15 - d;
//   between two rows of the table: the row of the largest d in the table
//     below it (bounds that the next less precise type meets; reachable);
//   above 100 digits: analytic and drift 10^-(4d/5), rtol 10^-(d - 5), in
//     both budgets (the main job's former fallback).
#pragma once

#include "nhs/scalar.hpp"

#include <array>

namespace nhs {

/// The table of this header as decimal exponents: every figure is 10^-e.
struct PrecisionExponents {
  int digits;           ///< d
  int cross;            ///< qddot agreement, also default_tolerance
  int main_analytic;    ///< `nhs verify`: error vs exact, energy, |C|, invariant drift
  int main_rtol;        ///< `nhs verify`: rtol = atol
  int strict_analytic;  ///< special-motion tests: error vs exact, energy, |C|, invariant drift
  int strict_rtol;      ///< special-motion tests: rtol = atol
};

/// The rows of the table, one per scalar of scalar.hpp, by increasing d.
inline constexpr std::array<PrecisionExponents, 5> kPrecisionTable = {{
    {15, 12, 9, 14, 9, 13},      // double
    {18, 15, 12, 17, 12, 16},    // long double
    {33, 30, 25, 30, 25, 30},    // float128
    {50, 45, 30, 36, 40, 46},    // mp50 (main: the job's time budget; see the header)
    {100, 95, 80, 90, 80, 90},   // mp100
}};

/// The exponents for d decimal digits: the table's row for a d in it, else
/// the fallback of the header's comment. Defined for every d >= 1, useful
/// from about 6 (float: cross 1e-3, analytic 1, rtol 1e-5 and 1e-4).
constexpr PrecisionExponents precision_exponents(int d) {
  for (const PrecisionExponents& row : kPrecisionTable)
    if (row.digits == d) return row;
  const int cross = d <= 33 ? d - 3 : (d - 5 > 30 ? d - 5 : 30);
  const PrecisionExponents& lowest = kPrecisionTable.front();
  if (d < lowest.digits) {
    const int shift = lowest.digits - d;
    return {d, cross, lowest.main_analytic - shift, lowest.main_rtol - shift,
            lowest.strict_analytic - shift, lowest.strict_rtol - shift};
  }
  if (d > kPrecisionTable.back().digits) return {d, cross, 4 * d / 5, d - 5, 4 * d / 5, d - 5};
  PrecisionExponents below = lowest;
  for (const PrecisionExponents& row : kPrecisionTable)
    if (row.digits < d) below = row;
  return {d, cross, below.main_analytic, below.main_rtol, below.strict_analytic, below.strict_rtol};
}

/// The bounds and integration tolerance of one budget in S.
template <class S>
struct IntegrationBudget {
  S analytic;  ///< max-norm error over (q, qdot) against an exact motion
  S drift;     ///< energy drift, max |C|, invariant drift (= analytic)
  S rtol;      ///< rtol = atol of the runs
};

/// The table's figures for S (the row of decimal_digits<S>()), each 10^-e
/// correctly rounded in S (power_of_ten).
template <class S>
struct PrecisionPolicy {
  int digits;                 ///< decimal_digits<S>()
  S cross;                    ///< qddot agreement (relative, max-norm); default_tolerance<S>()
  IntegrationBudget<S> main;  ///< `nhs verify`
  IntegrationBudget<S> strict;  ///< the special-motion tests (t = 20) and `nhs check`
};

/// The policy of S, built once (thread-safe) and kept for the program's
/// life. Never throws after the first call.
template <class S>
const PrecisionPolicy<S>& precision_policy() {
  static const PrecisionPolicy<S> policy = [] {
    const PrecisionExponents e = precision_exponents(decimal_digits<S>());
    const auto p = [](int k) { return power_of_ten<S>(-k); };
    return PrecisionPolicy<S>{e.digits,
                              p(e.cross),
                              {p(e.main_analytic), p(e.main_analytic), p(e.main_rtol)},
                              {p(e.strict_analytic), p(e.strict_analytic), p(e.strict_rtol)}};
  }();
  return policy;
}

/// The default integration tolerance (rtol = atol) of S: the table's cross
/// column (double 1e-12, long double 1e-15, float128 1e-30, mp50 1e-45,
/// mp100 1e-95; see the header for why).
template <class S>
S default_tolerance() {
  return precision_policy<S>().cross;
}

}  // namespace nhs
