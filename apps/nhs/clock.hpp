// Wall time of the long commands (`run`, `verify`, `sweep`): elapsed
// seconds (nhs/session/clock.hpp) and their text for people.
#pragma once

#include <nhs/session/clock.hpp>

#include <string>

namespace nhs::cli {

/// s seconds for people: "12.3 s", "3 min 05 s", "2 h 07 min".
std::string duration_text(double s);

}  // namespace nhs::cli
