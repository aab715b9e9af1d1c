// Helpers shared by the measurement programs bench/drift.cpp and
// bench/work_precision.cpp: wall clock, the library's parallel_for over
// run indices, and JSON files rewritten whole after every finished run (written
// to a temporary file, then renamed), so that a long run that fails or is
// interrupted keeps every result it already has.
#pragma once

#include "nhs/parallel.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace nhs::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// UTC time "YYYY-MM-DD HH:MM UTC".
inline std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

/// The trajectories run on threads with the library's parallel_for
/// (nhs/parallel.hpp); the programs catch per run.
using nhs::parallel_for;

/// A JSON document {meta..., "runs": [...]} kept on disk: add() appends a
/// run and rewrites the file (temporary file + rename) under a lock.
class JsonLog {
 public:
  JsonLog(std::filesystem::path path, nlohmann::json meta) : path_(std::move(path)), doc_(std::move(meta)) {
    doc_["runs"] = nlohmann::json::array();
    if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
    write();
  }
  void add(nlohmann::json run) {
    const std::lock_guard<std::mutex> lock(mutex_);
    doc_["runs"].push_back(std::move(run));
    write();
  }
  void set(const std::string& key, nlohmann::json value) {
    const std::lock_guard<std::mutex> lock(mutex_);
    doc_[key] = std::move(value);
    write();
  }

 private:
  void write() {
    const std::filesystem::path tmp = path_.string() + ".tmp";
    {
      std::ofstream out(tmp);
      if (!out) throw std::runtime_error("cannot write " + tmp.string());
      out << doc_.dump(1) << "\n";
    }
    std::filesystem::rename(tmp, path_);
  }
  std::filesystem::path path_;
  nlohmann::json doc_;
  std::mutex mutex_;
};

/// A finite double for JSON (null for NaN/inf).
inline nlohmann::json number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

}  // namespace nhs::bench
