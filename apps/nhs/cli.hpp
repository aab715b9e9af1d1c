// The `nhs` command-line tool: one function per command (one file each),
// and the headers they share: options.hpp (options and their parsing),
// precision.hpp (the dispatch on --precision), setup.hpp (system,
// formulation and initial state), csv.hpp (the trajectory CSV), text.hpp.
//
// Exit codes (README, "Exit codes"; errors.hpp): 0 success, 1 verify found
// a failure, 2 usage error, 3 invalid state (off C, singular), 4 integration
// failure or non-finite value, 5 I/O error, 130 interrupted (SIGINT).
#pragma once

#include "csv.hpp"
#include "options.hpp"
#include "precision.hpp"
#include "setup.hpp"
#include "text.hpp"

#include <string>

namespace nhs::cli {


int list_command();
/// `nhs list SYSTEM`: one system in detail.
int list_system_command(const std::string& system);
template <class S>
int accel_command(const AccelOptions& opts);
template <class S>
int run_command(const RunOptions& opts);
int verify_command(const VerifyOptions& opts);
int findings_command(const FindingsOptions& opts);

/// `nhs check`'s report: runs check_report.py over `dir` (which holds
/// summary.md, summary.json and trajectories/) to write dir/report.md and
/// dir/figures/*.png, with the script's stdout and stderr in
/// dir/report.log. The interpreter is $NHS_PYTHON when set, else
/// /usr/bin/python3 (Debian's, where python3-matplotlib installs) when it
/// exists, else python3 from PATH; the script is <bindir>/../share/nhs/
/// check_report.py next to an installed nhs, else the source tree's
/// scripts/check_report.py (NHS_SOURCE_DIR, known at configure time).
/// Returns true when the script exited 0. Otherwise prints one line
/// "nhs: warning: ..." on stderr (script or interpreter missing, exit
/// code or signal, the log's last line) and returns false; never throws,
/// so that the check's own exit code does not depend on the plotting.
bool run_check_report(const std::string& dir);

/// Flushes stdout; IoError (exit 5) when anything written to it was lost
/// (a full disk, a closed descriptor).
void flush_stdout();

}  // namespace nhs::cli
