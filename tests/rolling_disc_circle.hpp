// The rolling disc on its circle (k = 0; docs/special-motions.md
// rolling-disc) with the first kind: the uniform motion on which an
// embedded error estimate that vanishes on quadratures (Fehlberg's) is
// blind. Shared by the steppers' order tests.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/formulation.hpp"
#include "nhs/studies/all.hpp"

namespace nhs {

template <class T>
struct RollingDiscCircle {
  const Study<T>& study = find_study<T>("rolling-disc");
  SpecialMotion<T> motion = circle_motion();
  System<T> sys = study.build(motion.parameters);
  const Formulation<T>& f = find_formulation<T>("first-kind");

  /// The study's motion "circle (k = 0)"; UsageError when it has none.
  SpecialMotion<T> circle_motion() const {
    for (const auto& m : study.special_motions())
      if (m.name == "circle (k = 0)") return m;
    throw UsageError("rolling-disc has no special motion 'circle (k = 0)'");
  }
};

}  // namespace nhs
