// ignorable_coordinates (nhs/linearization.hpp): the greatest set of
// coordinates that the rest of a first-order field does not depend on.
#include "nhs/linearization.hpp"

namespace nhs {

std::vector<int> ignorable_coordinates(const std::vector<char>& depends, int N, int n,
                                       const std::vector<int>& excluded) {
  if (N < 0 || n < 0 || n > N || depends.size() != static_cast<std::size_t>(N) * static_cast<std::size_t>(N))
    throw UsageError("ignorable_coordinates: depends must have N * N entries and 0 <= n <= N");
  std::vector<char> in(static_cast<std::size_t>(N), 0);
  for (int k = 0; k < n; ++k) in[static_cast<std::size_t>(k)] = 1;
  for (const int k : excluded) {
    if (k < 0 || k >= n) throw UsageError("ignorable_coordinates: excluded index " + std::to_string(k) +
                                          " is not a coordinate (0 <= k < n = " + std::to_string(n) + ")");
    in[static_cast<std::size_t>(k)] = 0;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 0; k < n; ++k) {
      if (!in[static_cast<std::size_t>(k)]) continue;
      for (int i = 0; i < N; ++i)
        if (!in[static_cast<std::size_t>(i)] && depends[static_cast<std::size_t>(i) * static_cast<std::size_t>(N) + static_cast<std::size_t>(k)]) {
          in[static_cast<std::size_t>(k)] = 0;
          changed = true;
          break;
        }
    }
  }
  std::vector<int> out;
  for (int k = 0; k < n; ++k)
    if (in[static_cast<std::size_t>(k)]) out.push_back(k);
  return out;
}

}  // namespace nhs
