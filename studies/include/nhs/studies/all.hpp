// The built-in studies of STUDIES.md, one source file each in studies/.
#pragma once

#include "nhs/studies/study.hpp"
#include "nhs/singular_set.hpp"

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
template <class S>
Study<S> bipendulum_study();  ///< studies/bipendulum.cpp (000 §13)
template <class S>
Study<S> linear_bipendulum_study();  ///< studies/linear_bipendulum.cpp (000 §13.7)

}  // namespace nhs
