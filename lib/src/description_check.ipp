#include "nhs/derivatives.hpp"
#include "nhs/description_check.hpp"
#include "nhs/format.hpp"
#include "nhs/gibbs_appell.hpp"
#include "nhs/redundant_constraints.hpp"
#include "nhs/regularity.hpp"

#include <cstdint>

namespace nhs {

namespace description_check_detail {

// A fixed pseudo-random sequence in [-1, 1] (64-bit LCG, Knuth's MMIX
// constants): the same states on every run and in every precision.
class Sequence {
 public:
  template <class S>
  S next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t top = state_ >> 11;  // 53 bits
    return S(static_cast<double>(top) / 4503599627370496.0 - 1.0);  // 2^52
  }
  template <class S>
  Vec<S> vec(Eigen::Index n) {
    Vec<S> v(n);
    for (Eigen::Index i = 0; i < n; ++i) v[i] = next<S>();
    return v;
  }

 private:
  std::uint64_t state_ = 0x6e6873ULL;
};

template <class S>
bool finite(const S& x) {
  using boost::multiprecision::isfinite;
  using std::isfinite;
  return isfinite(x);
}

}  // namespace description_check_detail

template <class S>
void check_description(const System<S>& sys) {
  using description_check_detail::finite;
  using std::abs;
  description_check_detail::Sequence rng;
  const S tol = S(1000) * epsilon<S>();
  const std::string who = "system '" + sys.info.name + "': description member ";
  for (int trial = 0; trial < 2; ++trial) {
    const Vec<S> q = rng.vec<S>(sys.n), qd = rng.vec<S>(sys.n), w = rng.vec<S>(sys.n);

    if (sys.has_parametrization() && sys.r > 0) {
      const Mat<S> J = constraint_jacobians(sys, q, qd).C_qdot;
      if (J.allFinite()) {
        // The rank of the constraints' directions: a constraint's scale
        // (written times 1e-200) does not count.
        const int rank = row_direction_rank<S>(J);
        if (sys.m != sys.n - rank)
          throw UsageError(who + "`quasi_velocities` names m = " + std::to_string(sys.m) +
                           " z^alpha, but n - rank(dC/dqdot) = " + std::to_string(sys.n - rank) +
                           " (n = " + std::to_string(sys.n) + ", r = " + std::to_string(sys.r) +
                           ", rank " + std::to_string(rank) + " " + state_context(q, qd) + ")");
      }
    } else if (sys.has_parametrization() && sys.m != sys.n) {
      throw UsageError(who + "`quasi_velocities` names m = " + std::to_string(sys.m) +
                       " z^alpha, but the system has no constraints: m = n = " +
                       std::to_string(sys.n));
    }

    if (sys.has_bodies()) {
      const S T = sys.kinetic_energy(q, qd);
      const S Tb = body_kinetic_energy(sys, q, qd);
      if (finite(T) && finite(Tb) && !(abs(T - Tb) <= tol * (abs(T) + abs(Tb))))
        throw UsageError(who + "`bodies` disagrees with `kinetic_energy`: T = " + to_string<S>(T) +
                         ", the bodies' kinetic energy = " + to_string<S>(Tb) + " " +
                         state_context(q, qd));
    }

    if ((sys.info.linear_constraints || sys.info.affine_constraints) && sys.r > 0) {
      const Mat<S> J = constraint_jacobians(sys, q, qd).C_qdot;
      const char* flag = sys.info.linear_constraints ? "`linear_constraints`" : "`affine_constraints`";
      // Affine: C(q, qdot) - C(q, 0) = (dC/dqdot) qdot.
      const Vec<S> C0 = sys.info.affine_constraints ? constraint_residuals(sys, q, Vec<S>(Vec<S>::Zero(sys.n)))
                                                    : Vec<S>(Vec<S>::Zero(sys.r));
      for (const Vec<S>* v : {&qd, &w}) {
        const Vec<S> C = constraint_residuals(sys, q, *v) - C0;
        const Vec<S> Jv = J * *v;
        const S scale = (J.cwiseAbs() * v->cwiseAbs()).maxCoeff() + C.cwiseAbs().maxCoeff();
        const S gap = (C - Jv).cwiseAbs().maxCoeff();
        if (finite(scale) && J.allFinite() && !(gap <= tol * scale))
          throw UsageError(who + flag + " is declared, but C is not linear in qdot: "
                                 "C(q, qdot) - C(q, 0) = " + to_string(C) + ", (dC/dqdot) qdot = " +
                           to_string(Jv) + " " + state_context(q, *v));
      }
    }
  }
}

}  // namespace nhs
