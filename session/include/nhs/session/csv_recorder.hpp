// The trajectory CSV of `nhs run` and of the checks' runs (nhs/verification):
// a writer that turns each sample into a row of its MotionTable
// (nhs/session/motion_table.hpp: the columns and values), flushed at once,
// so that a failed run keeps its rows.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/format.hpp"
#include "nhs/session/motion_table.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// Writes a motion sample by sample as CSV rows of MotionTable (each row
/// flushed at once, so that a failed run keeps its rows; the header with
/// the first row: a run refused before it has none). No NaN or infinity is
/// written: a non-finite energy, constraint residual or margin throws
/// NonFiniteValue (exit 4) before its row (MotionTable::values); an
/// invariant that is not finite (defined on part of the state space only)
/// leaves its cell empty, and so does a sample without the work W (a
/// discrete stepper) under `with_work`. A failed write throws IoError (exit 5) naming
/// `destination` (e.g. "'runs/a.csv'" or "standard output").
template <class S>
class CsvRecorder : public MotionTable<S> {
 public:
  CsvRecorder(const System<S>& sys, std::vector<Invariant<S>> invariants, std::FILE* out,
              std::function<State<S>(const S&)> exact = {}, std::string destination = "the CSV output",
              bool with_work = false)
      : MotionTable<S>(sys, std::move(invariants), std::move(exact), with_work),
        out_(out),
        destination_(std::move(destination)),
        header_(join(this->columns(), ",")) {}

  /// The recorder of a motion checked against `reference` (MotionTable's
  /// constructor from a MotionReference).
  CsvRecorder(const System<S>& sys, const MotionReference<S>& reference, std::FILE* out,
              std::string destination = "the CSV output")
      : CsvRecorder(sys, reference.invariants, out, reference.exact, std::move(destination), bool(reference.power)) {}

  /// Appends the columns `names` after the table's own, their values at
  /// each sample given by `extra` (names.size() of them, finite: `nhs run
  /// --poses`). Before the first row only (UsageError otherwise).
  void append_columns(const std::vector<std::string>& names,
                      std::function<std::vector<S>(const Sample<S>&)> extra) {
    if (header_.empty()) throw UsageError("CsvRecorder::append_columns after the first row");
    for (const auto& n : names) header_ += "," + n;
    extra_ = std::move(extra);
  }

  /// Writes the row of sample s (values(s), then the appended columns'; a
  /// NaN, only an invariant's, as an empty cell).
  void operator()(const Sample<S>& s) {
    using boost::multiprecision::isnan;
    using std::isnan;
    std::vector<S> row = this->values(s);
    if (extra_) {
      const std::vector<S> more = extra_(s);
      row.insert(row.end(), more.begin(), more.end());
    }
    if (!out_) return;
    if (!header_.empty()) {
      write_line(header_);
      header_.clear();
    }
    std::string line;
    for (std::size_t k = 0; k < row.size(); ++k)
      line += (k ? "," : "") + (isnan(row[k]) ? std::string() : to_string<S>(row[k]));
    write_line(line);
  }

 private:
  void write_line(const std::string& line) {
    errno = 0;
    if (std::fputs(line.c_str(), out_) < 0 || std::fputc('\n', out_) < 0 || std::fflush(out_) != 0) {
      const int err = errno;
      throw IoError("cannot write the CSV to " + destination_ + ": " +
                    (err ? std::strerror(err) : "write error"));
    }
  }

  std::FILE* out_;
  std::string destination_;  ///< for messages
  std::string header_;       ///< not yet written
  std::function<std::vector<S>(const Sample<S>&)> extra_;  ///< append_columns'
};

}  // namespace nhs
