// The least-squares slope of a log-log fit, for the tests that measure an
// observed order (error against step size or tolerance).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace nhs {

/// Least-squares slope of log10(y) against log10(x); x and y of equal size
/// >= 2, positive entries.
inline double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log10(x[i]), ly = std::log10(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace nhs
