// sweep.hpp, SweepOutput: a sweep's output directory, flushed per case, and
// the resumption of an interrupted sweep from it.
#include "sweep.hpp"

#include "cli.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <fstream>
#include <sstream>

namespace nhs::cli {

std::string csv_line(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ',';
    const std::string& c = cells[i];
    const bool quote = c.find_first_of(",\"") != std::string::npos || (!c.empty() && (c.front() == ' ' || c.back() == ' '));
    if (!quote) {
      out += c;
      continue;
    }
    out += '"';
    for (char ch : c) {
      if (ch == '"') out += '"';
      out += ch;
    }
    out += '"';
  }
  return out;
}

bool parse_csv_line(const std::string& line, std::vector<std::string>& cells) {
  cells.clear();
  std::size_t i = 0;
  while (true) {
    std::string c;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return false;  // unterminated quote
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            c += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        c += line[i++];
      }
      if (i < line.size() && line[i] != ',') return false;
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return false;
        c += line[i++];
      }
    }
    cells.push_back(std::move(c));
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const std::string& what, const std::string& path) { throw_io_error("cannot " + what, path); }

std::FILE* open_or_fail(const std::string& path, const char* mode) {
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), mode);
  if (!f) io_error(mode[0] == 'r' ? "read" : "write", path);
  return f;
}

// Writes `text` to path through a temporary file and a rename, so that a
// kill leaves the old file or the new one, never half of one.
void replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  write_text_file(tmp, text);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw IoError("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) io_error("read", path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string SweepOutput::json_line(const std::vector<std::string>& row) const {
  nlohmann::ordered_json j;
  const auto& cols = cases_.columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const std::string& c = cols[i];
    if (row[i].empty() && i > 0) {
      j[c] = nullptr;
    } else if (c == "case" || c == "steps" || c == "rhs_calls") {
      j[c] = std::stoull(row[i]);
    } else {
      j[c] = row[i];  // decimal text: every digit of the case's precision
    }
  }
  return j.dump();
}

SweepOutput::SweepOutput(const std::string& dir, const SweepCases& cases, bool restart, const std::string& command)
    : dir_(dir), cases_(cases), command_(command) {
  if (dir.empty()) throw UsageError("--out: empty directory name");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw IoError("--out: cannot create the directory '" + dir + "': " +
                                                  (ec ? ec.message() : std::string("not a directory")));
  // Nothing the sweep reads (its system file, its spec) is overwritten.
  for (const char* name : {"/cases.csv", "/cases.jsonl", "/sweep.json", "/.lock"}) {
    refuse_overwriting(cases.spec().path, dir + name, "--out");
    if (is_system_file_name(cases.system())) refuse_overwriting(cases.system(), dir + name, "--out");
  }
  lock();
  const std::string csv = dir + "/cases.csv", jsonl = dir + "/cases.jsonl";
  if (!restart) read_done_rows();
  resumed_ = rows_.size();
  remove_stale_series(restart);
  // The rows kept, and nothing else: a partial line of a killed run goes.
  std::string csv_text = csv_line(cases.columns()) + "\n", json_text;
  for (const auto& [index, row] : rows_) {
    csv_text += csv_line(row) + "\n";
    json_text += json_line(row) + "\n";
  }
  replace_file(csv, csv_text);
  replace_file(jsonl, json_text);
  write_meta("", 0, false);
  csv_ = open_or_fail(csv, "a");
  jsonl_ = open_or_fail(jsonl, "a");
}

void SweepOutput::lock() {
  // One sweep at a time in a directory: two would append the same cases.
  const std::string lock = dir_ + "/.lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) io_error("write", lock);
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw UsageError("--out: another nhs sweep is writing to '" + dir_ +
                     "' (it holds " + lock + "); wait for it to end, or give another --out");
  }
}

void SweepOutput::read_done_rows() {
  const std::string meta = dir_ + "/sweep.json", csv = dir_ + "/cases.csv";
  if (!fs::exists(meta)) return;
  nlohmann::json m;
  try {
    m = nlohmann::json::parse(read_text(meta));
  } catch (const nlohmann::json::exception& e) {
    throw UsageError("--out: '" + meta + "' is not a sweep's record (" + e.what() +
                     "); give --restart to start this sweep there anew");
  }
  const std::string theirs = m.value("fingerprint", std::string());
  if (theirs != cases_.fingerprint())
    throw UsageError("--out: '" + dir_ + "' holds another sweep (" + m.value("system", std::string("?")) + ", " +
                     m.value("spec", std::string("?")) +
                     "; the spec or the system has changed since): give --restart to overwrite it, or another --out");
  if (!fs::exists(csv)) return;
  const std::string text = read_text(csv);
  std::size_t pos = 0, line_no = 0;
  std::vector<std::string> cells;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a partial last line: dropped
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line_no++ == 0) {
      if (line != csv_line(cases_.columns()))
        throw UsageError("--out: the header of '" + csv + "' is not this sweep's: give --restart");
      continue;
    }
    if (!parse_csv_line(line, cells) || cells.size() != cases_.columns().size()) continue;
    char* rest = nullptr;
    errno = 0;
    const unsigned long long index = std::strtoull(cells[0].c_str(), &rest, 10);
    if (errno || rest == cells[0].c_str() || *rest || index >= cases_.count()) continue;
    if (rows_.count(index)) continue;
    rows_[index] = cells;
  }
}

void SweepOutput::remove_stale_series(bool restart) {
  // Series of cases not done are stale (a case killed after writing its
  // series, or another sweep's with --restart): they go, and are written
  // again when their cases run.
  if (!fs::is_directory(dir_ + "/series")) return;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_ + "/series")) {
    const std::string stem = entry.path().stem().string();
    char* rest = nullptr;
    const unsigned long long index = std::strtoull(stem.c_str(), &rest, 10);
    const bool ours = entry.path().extension() == ".csv" && !stem.empty() && *rest == 0;
    if (ours && (restart || !rows_.count(index))) fs::remove(entry.path(), ec);
  }
}

SweepOutput::~SweepOutput() {
  if (csv_) std::fclose(csv_);
  if (jsonl_) std::fclose(jsonl_);
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

void SweepOutput::write(const std::vector<std::string>& row, const std::string& series) {
  const std::uint64_t index = std::stoull(row[0]);
  if (rows_.count(index)) return;  // never twice
  if (!series.empty()) {
    std::error_code ec;
    fs::create_directories(dir_ + "/series", ec);
    replace_file(dir_ + "/series/" + row[0] + ".csv", csv_line(cases_.series_columns()) + "\n" + series);
  }
  const std::string c = csv_line(row) + "\n", j = json_line(row) + "\n";
  errno = 0;
  if (std::fwrite(c.data(), 1, c.size(), csv_) != c.size() || std::fflush(csv_) != 0)
    io_error("write", dir_ + "/cases.csv");
  if (std::fwrite(j.data(), 1, j.size(), jsonl_) != j.size() || std::fflush(jsonl_) != 0)
    io_error("write", dir_ + "/cases.jsonl");
  rows_[index] = row;
}

void SweepOutput::write_meta(const std::string& engine, double wall_s, bool complete, double master_busy_s) const {
  nlohmann::ordered_json m;
  m["system"] = cases_.system();
  m["spec"] = cases_.spec().path;
  m["fingerprint"] = cases_.fingerprint();
  m["command"] = command_;
  m["columns"] = cases_.columns();
  m["cases"] = cases_.count();
  m["done"] = rows_.size();
  m["complete"] = complete;
  std::map<std::string, std::uint64_t> by_status;
  const auto status = static_cast<std::size_t>(cases_.column("status"));
  for (const auto& [index, row] : rows_) ++by_status[row[status]];
  m["status"] = by_status;
  if (!engine.empty()) {
    m["engine"] = engine;
    m["wall_s"] = wall_s;
    m["resumed"] = resumed_;
    if (master_busy_s >= 0) m["master_busy_s"] = master_busy_s;
  }
  replace_file(dir_ + "/sweep.json", m.dump(2) + "\n");
}

bool SweepOutput::finish(const std::string& engine, double wall_s, double master_busy_s) {
  const bool complete = rows_.size() == cases_.count();
  if (complete) {
    errno = 0;
    const bool closed = std::fclose(csv_) == 0;
    csv_ = nullptr;
    if (!closed) io_error("write", dir_ + "/cases.csv");
    const bool closed_jsonl = std::fclose(jsonl_) == 0;
    jsonl_ = nullptr;
    if (!closed_jsonl) io_error("write", dir_ + "/cases.jsonl");
    std::string csv_text = csv_line(cases_.columns()) + "\n", json_text;
    for (const auto& [index, row] : rows_) {
      csv_text += csv_line(row) + "\n";
      json_text += json_line(row) + "\n";
    }
    replace_file(dir_ + "/cases.csv", csv_text);
    replace_file(dir_ + "/cases.jsonl", json_text);
  }
  write_meta(engine, wall_s, complete, master_busy_s);
  return complete;
}

}  // namespace nhs::cli
