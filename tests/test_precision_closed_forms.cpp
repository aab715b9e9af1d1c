// The hand-written closed forms of 001 §9.1-9.4 and 000 §13 against the generic derivation in long double, float128 and mp100: no double literal leaks into a multiprecision result.
// ctest-labels: unit mp
//
// The tests of test_seed_closed_forms.cpp, run in ExtraScalars: every
// closed form (written directly in S, nhs/studies/closed_forms.hpp) against
// the second kind, the KKT system and the first kind at random regular
// states with random parameters and forces, to Tolerance<S>::cross (1e-15,
// 1e-30, 1e-95 relative). The generic path (the studies' descriptions, the
// AD derivatives, the formulations) shares no code with the closed forms,
// so agreement to 1e-95 in mp100 shows that nothing on it is rounded
// through double: a double literal or conversion caps agreement near 1e-17.
// The last test shows that this check would see such a leak.
#define NHS_SEED_CLOSED_FORM_SCALARS ExtraScalars
#include "test_seed_closed_forms.cpp"

#include "nhs/formulation.hpp"

namespace nhs {
namespace {

// One parameter rounded through double (R = 0.9 -> 0.9000000000000000222)
// moves the rolling disc's qddot by ~1e-17 relative: far above 1e-95, so a
// leak of that kind cannot pass the comparisons above.
TEST(PrecisionClosedForms, ADoubleRoundedParameterIsSeenInMp100) {
  using S = mp100;
  const Study<S>& st = find_study<S>("rolling-disc");
  std::vector<S> exact = {from_string<S>("1.1"), from_string<S>("0.9"), from_string<S>("0.45"),
                          from_string<S>("0.2"), from_string<S>("1.3"), from_string<S>("0.8")};
  std::vector<S> leaked = exact;
  leaked[1] = S(0.9);  // R through a double literal
  const System<S> sys = st.build(exact);
  std::mt19937_64 rng(5);
  const State<S> x = st.random_state(sys, rng);
  const Vec<S> generic = find_formulation<S>("second-kind").acceleration(sys, x.q, x.qdot).qddot;
  const auto closed = [&](const std::vector<S>& p) {
    const auto P = closed_form::RollingDiscParameters<S>::from(p);
    return Vec<S>(closed_form::rolling_disc_rhs<S>(P, x.q, x.qdot));
  };
  const S scale = S(1) + max_abs<S>(generic);
  EXPECT_LE(max_abs<S>(Vec<S>(closed(exact) - generic)) / scale, Tolerance<S>::cross);
  EXPECT_GT(max_abs<S>(Vec<S>(closed(leaked) - generic)) / scale, from_string<S>("1e-20"));
}

}  // namespace
}  // namespace nhs
