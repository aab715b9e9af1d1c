// The output budget of `nhs run` (docs/cli.md, "Output budget"): the most
// output rows a run writes unless the user raises it, refused before the
// system is built. A small header of its own, so that the Python module
// (python/src/module.cpp, whose System.run keeps every row in memory) can
// hold its runs to the same figure.
#pragma once

#include "nhs/errors.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace nhs {

/// The most output rows (samples t = 0, dt_out, ..., t_end) of `nhs run`
/// unless --max-rows raises it: 10 million, about 2 GB of CSV for a small
/// system in double (the skate's rows are about 200 bytes; mp50's about
/// three times that). The library's own limit, IntegrationOptions::
/// max_samples (1e9), stays behind it.
inline constexpr std::uint64_t kMaxOutputRows = 10'000'000;

/// Refuses a grid of more than max_rows output rows (t_end / dt_out + 1,
/// rounded up; max_rows >= 1) with a UsageError (exit 2) that gives the
/// figure, the budget and the way to raise it (`raise_with`, the input:
/// the tool's --max-rows), naming the inputs t_end and dt_out as
/// `t_end_name` and `dt_out_name`. t_end, dt_out: positive.
template <class S>
void require_output_rows(const S& t_end, const S& dt_out, std::uint64_t max_rows, const std::string& t_end_name,
                         const std::string& dt_out_name, const std::string& raise_with) {
  const S ratio = t_end / dt_out;
  if (ratio <= S(max_rows - 1)) return;
  const double rows = static_cast<double>(ratio) + 1;
  throw UsageError(fmt::format("{} / {} asks for {} output rows, more than the budget of {} rows "
                               "(docs/cli.md, \"Output budget\"): raise {}, or {} to allow more",
                               t_end_name, dt_out_name,
                               std::isfinite(rows) ? fmt::format("{:.4g}", rows) : std::string("more than 1e308"),
                               max_rows, dt_out_name, raise_with));
}

}  // namespace nhs
