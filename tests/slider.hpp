// A slider, the smallest system on which the (q, z) formulations meet a
// singular matrix: q = (x, y), T = m/2 xd^2 (y carries no mass), the
// constraint xd = 0 and qdot = psi(q, z) = (0, z). [psi^i_alpha] has full
// rank, but G = psi^T g psi = 0 at every state (the Maggi matrix, the
// Appellian's Hessian). Shared by test_maggi.cpp and test_gibbs_appell.cpp,
// which add what they need (bodies, or nothing).
#pragma once

#include "nhs/autodiff.hpp"
#include "nhs/scalar.hpp"
#include "nhs/system.hpp"

namespace nhs {

enum SliderParam { sm };

/// The slider without a parametrization (not applicable to the (q, z)
/// formulations).
struct SliderCore {
  static SystemInfo info() {
    return {"slider", "test system", "test", {"x", "y"}, {{"m", "1", "mass"}}, {"C1"}, {"yd"},
            true};
  }
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);
    return qd[0] * qd[0] * half * p[sm];
  }
  template <class T>
  static void constraints(const Params<T>&, const Vec<T>&, const Vec<T>& qd, Vec<T>& C) {
    C[0] = qd[0];
  }
};

/// The slider with its parametrization qdot = (0, z) and chart z = yd (no
/// bodies).
struct ChartedSlider : SliderCore {
  template <class T>
  static void parametrization(const Params<T>&, const Vec<T>& q, const Vec<T>& z, Vec<T>& qd) {
    (void)q;
    qd[0] = z[0] * ratio<T>(0);
    qd[1] = z[0];
  }
  template <class S>
  static void chart(const Params<S>&, const Vec<S>&, const Vec<S>& qd, Vec<S>& z) {
    z[0] = qd[1];
  }
};

}  // namespace nhs
