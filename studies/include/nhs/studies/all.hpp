// The built-in studies of docs/studies.md, one source file each in studies/.
#pragma once

#include "nhs/studies/list.hpp"
#include "nhs/studies/study.hpp"
#include "nhs/singular_set.hpp"

namespace nhs {

/// <id>_study<S>() for every study of NHS_FOR_EACH_STUDY (studies/<id>.cpp).
#define NHS_DECLARE_STUDY_(ID) \
  template <class S>           \
  Study<S> ID##_study();
NHS_FOR_EACH_STUDY(NHS_DECLARE_STUDY_)
#undef NHS_DECLARE_STUDY_

inline constexpr int kNTrailerDefault = 3;
/// The largest N that find_study("n-trailer-<N>") accepts.
inline constexpr int kNTrailerMax = 200;

/// The N-trailer with N trailers (studies/n_trailer.cpp): a tractor pulling
/// N trailers, every body a skate (001 §9.1) hitched at the previous axle
/// midpoint; n = N + 3, r = N + 1, m = 2; id "n-trailer-<N>". N >= 0 (N = 0
/// is a single skate); UsageError for N < 0. Builds a new Study each call.
template <class S>
Study<S> n_trailer_study(int N);
/// (n_trailer_study<S>() is the same with N = kNTrailerDefault, id
/// "n-trailer": the registry's entry, declared above.)
/// For find_study: nullptr unless `name` starts with "n-trailer-"; then the
/// study with that N, built once and cached (thread-safe; the reference
/// stays valid for the program's life). UsageError naming the text unless
/// N is a plain decimal integer in 0..kNTrailerMax.
template <class S>
const Study<S>* find_n_trailer_study(const std::string& name);

}  // namespace nhs
