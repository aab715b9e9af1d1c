// A system file written to be a built-in study: the same accelerations and
// invariants at the study's random states (examples/turntable-ball.toml,
// examples/spinup-turntable-ball.toml against their studies).
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace nhs::test {

/// At 20 random states of `builtin` (random_state, at randomized_parameters
/// shared by both: the file must name the study's parameters in its order),
/// the state is on the file's C, the file's second-kind qddot is the
/// study's, and its invariants are the study's by name and value, all
/// within Tolerance<S>::cross. Only qddot is compared: a clock's mass (a
/// study may give it m, a file's loader 1) changes the clock's multiplier,
/// not the motion.
template <class S>
void expect_file_is_the_study(const Study<S>& builtin, const Study<S>& file, std::uint64_t seed) {
  using std::abs;
  const Formulation<S>& f = find_formulation<S>("second-kind");
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 20; ++k) {
    const std::vector<S> p = randomized_parameters(builtin, rng);
    const System<S> a = builtin.build(p), b = file.build(p);
    const State<S> x = builtin.random_state(a, rng);
    ASSERT_LE(max_abs(constraint_residuals(b, x.q, x.qdot)), Tolerance<S>::cross) << "state " << k;
    const Vec<S> qa = f.acceleration(a, x.q, x.qdot).qddot, qb = f.acceleration(b, x.q, x.qdot).qddot;
    EXPECT_LE(max_abs<S>(qa - qb), Tolerance<S>::cross * (S(1) + max_abs(qa))) << "state " << k;
    const auto ia = builtin.invariants(a), ib = file.invariants(b);
    ASSERT_EQ(ia.size(), ib.size());
    for (std::size_t i = 0; i < ia.size(); ++i) {
      EXPECT_EQ(ia[i].name, ib[i].name);
      const S va = ia[i].value(x.q, x.qdot), vb = ib[i].value(x.q, x.qdot);
      EXPECT_LE(abs(va - vb), Tolerance<S>::cross * (S(1) + abs(va))) << ia[i].name << " state " << k;
    }
  }
}

}  // namespace nhs::test
