// The built-in studies of STUDIES.md, one source file each in studies/.
#pragma once

#include "nhs/studies/study.hpp"

namespace nhs {

template <class S>
Study<S> skate_study();  ///< studies/skate.cpp (001 §9.1)
template <class S>
Study<S> rolling_disc_study();  ///< studies/rolling_disc.cpp (001 §9.2, 004)
template <class S>
Study<S> coaxial_discs_study();  ///< studies/coaxial_discs.cpp (001 §9.3)
template <class S>
Study<S> parallel_points_study();  ///< studies/parallel_points.cpp (001 §9.4)
template <class S>
Study<S> rolling_sphere_study();  ///< studies/rolling_sphere.cpp (002)

}  // namespace nhs
