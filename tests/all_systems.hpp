// The systems a test sweeps: every built-in study (by id) and every example
// file (by path, examples/*.toml), sorted. Needs NHS_SOURCE_DIR (the tests
// that read files get it from tests/CMakeLists.txt).
#pragma once

#include "nhs/studies/all.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

inline std::vector<std::string> studies_and_example_files() {
  std::vector<std::string> names;
  for (const auto& st : nhs::studies<double>()) names.push_back(st.info.name);
  for (const auto& e : std::filesystem::directory_iterator(std::string(NHS_SOURCE_DIR) + "/examples"))
    if (e.path().extension() == ".toml") names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  return names;
}
