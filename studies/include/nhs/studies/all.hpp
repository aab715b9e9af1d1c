// The built-in studies of docs/studies.md, one source file each in studies/.
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

/// The N-trailer of `nhs list` (studies/n_trailer.cpp) has this many trailers.
inline constexpr int kNTrailerDefault = 3;
/// The largest N that find_study("n-trailer-<N>") accepts.
inline constexpr int kNTrailerMax = 200;

/// The N-trailer with N trailers (studies/n_trailer.cpp): a tractor pulling
/// N trailers, every body a skate (001 §9.1) hitched at the previous axle
/// midpoint; n = N + 3, r = N + 1, m = 2; id "n-trailer-<N>". N >= 0 (N = 0
/// is a single skate); UsageError for N < 0. Builds a new Study each call.
template <class S>
Study<S> n_trailer_study(int N);
/// The same with N = kNTrailerDefault, id "n-trailer" (the registry's entry).
template <class S>
Study<S> n_trailer_default_study();
/// For find_study: nullptr unless `name` starts with "n-trailer-"; then the
/// study with that N, built once and cached (thread-safe; the reference
/// stays valid for the program's life). UsageError naming the text unless
/// N is a plain decimal integer in 0..kNTrailerMax.
template <class S>
const Study<S>* find_n_trailer_study(const std::string& name);

}  // namespace nhs
