// FNV-1a, 64 bits (Fowler, Noll and Vo): a fingerprint of texts that is the
// same across runs, builds and machines (std::hash is not). For cache keys
// (nhs/codegen/compile.hpp) and a sweep's fingerprint (`nhs sweep`), not
// for security.
#pragma once

#include <cstdint>
#include <string>

namespace nhs {

/// Accumulates texts: add(a), add(b) differs from add(a + b), since each
/// text is followed by a byte no UTF-8 text contains (0xff).
struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void add(const std::string& s) {
    for (const unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    h = (h ^ 0xffU) * 0x100000001b3ULL;
  }
};

}  // namespace nhs
