// Short text helpers of the `nhs` command-line tool: lists, counts and
// figures in messages and summaries.
#pragma once

#include "nhs/format.hpp"  // join, count_of
#include "nhs/session/figures.hpp"  // to_double, short_figure
#include "nhs/session/files.hpp"  // echo_text

#include <fmt/core.h>

#include <cstddef>
#include <string>
#include <vector>

namespace nhs::cli {

}  // namespace nhs::cli
