// The documents of the checks (nhs/verification/check.hpp): summary.md for
// people (the table, the digits reached, failures, notes) and summary.json
// for programs (scripts/check_report.py), both written into the checks'
// out_dir; summary.json's fields for any writer (the Python module's
// nhs.CheckReport holds them without a file); and the plain-text tables
// that `nhs verify` and `nhs check` print.
#pragma once

#include "nhs/verification/check.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nhs {

/// A writer of the fields of a check's summary (check_summary_fields):
/// summary.json's writer, and the Python module's nhs.CheckReport
/// (python/src/results.cpp). Each call writes the field `key` of the
/// object open, or (key "") an item of the list open; begin and
/// begin_list open an object and a list, end closes the one opened last.
struct CheckSummaryWriter {
  virtual ~CheckSummaryWriter() = default;
  virtual void text(const std::string& key, const std::string& value) = 0;
  virtual void flag(const std::string& key, bool value) = 0;
  /// A double, or none (JSON null, Python None) where it is not finite.
  virtual void number(const std::string& key, double value) = 0;
  virtual void count(const std::string& key, std::uint64_t value) = 0;
  virtual void names(const std::string& key, const std::vector<std::string>& value) = 0;
  virtual void flags(const std::string& key, const std::vector<bool>& value) = 0;
  virtual void begin(const std::string& key) = 0;
  virtual void begin_list(const std::string& key) = 0;
  virtual void end() = 0;
};

/// The time of a check's summaries, now: "YYYY-MM-DD HH:MM UTC".
std::string check_date();

/// The fields of summary.json (docs/cli.md, "check") of `report`, checked
/// as `spec` says, to `out`, in this order: tool, command, system,
/// generated (`date`), pass, quick, settings (per precision), rows (per
/// study, formulation and precision), checks (every figure against its
/// bound), runs (every integrated run: its CSV relative to out_dir, empty
/// when not written, and the names of its columns), digits (per study and
/// precision: cross, analytic, drift; "exact" for an exact 0, none where
/// there is no figure), failures, notes, wall_seconds. Checks and runs
/// come in the order of the rows.
void check_summary_fields(const CheckReport& report, const CheckSpec& spec, const std::string& command,
                          const std::string& date, CheckSummaryWriter& out);

/// The command line `spec` stands for, as the summaries quote it: "nhs
/// verify --precision <precision_text> --states N [--quick]" or "nhs check
/// SYSTEM ...", precision_text as the user gave it (e.g. "all").
std::string check_command(const CheckSpec& spec, const std::string& precision_text);

/// Writes summary.md and summary.json (docs/cli.md, "verify", "check") of
/// `report` into spec.out_dir, with `command` and the date (UTC) in their
/// head; for one system (`nhs check`) an older report.md there is removed
/// first (it would describe another check). Numbers in summary.json are
/// doubles (null where there is none); "checks" holds every figure against
/// its bound, "runs" every integrated run with its CSV (relative to
/// out_dir) and the names of its columns. `spec` is the one run_checks ran
/// (which refused an out_dir where a summary would overwrite the system
/// file checked). summary.json holds check_summary_fields, dated `date`.
/// Throws IoError (exit 5) naming the file that cannot be written.
void write_check_summaries(const CheckReport& report, const CheckSpec& spec, const std::string& command,
                           const std::string& date = check_date());

/// The table of the rows as plain text (columns padded), as `nhs verify`
/// prints it.
std::string check_table_text(const CheckReport& report);

/// The digits reached per study and precision (cross / analytic / drift),
/// as plain text.
std::string digits_table_text(const CheckReport& report);

/// "total 12.3 s; double 4.5 s; ..." for the report's wall times.
std::string check_timing(const CheckReport& report);

}  // namespace nhs
