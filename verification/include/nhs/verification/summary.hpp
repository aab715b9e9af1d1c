// The documents of the checks (nhs/verification/check.hpp): summary.md for
// people (the table, the digits reached, failures, notes) and summary.json
// for programs (scripts/check_report.py), both written into the checks'
// out_dir; and the plain-text tables that `nhs verify` and `nhs check`
// print.
#pragma once

#include "nhs/verification/check.hpp"

#include <string>

namespace nhs {

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
/// file checked). Throws IoError (exit 5) naming the file that cannot be
/// written.
void write_check_summaries(const CheckReport& report, const CheckSpec& spec, const std::string& command);

/// The table of the rows as plain text (columns padded), as `nhs verify`
/// prints it.
std::string check_table_text(const CheckReport& report);

/// The digits reached per study and precision (cross / analytic / drift),
/// as plain text.
std::string digits_table_text(const CheckReport& report);

/// "total 12.3 s; double 4.5 s; ..." for the report's wall times.
std::string check_timing(const CheckReport& report);

}  // namespace nhs
