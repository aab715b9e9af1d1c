// The documents of the checks (nhs/verification/summary.hpp).
#include "nhs/verification/summary.hpp"

#include "nhs/format.hpp"
#include "nhs/session/files.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/studies/system_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace nhs {
namespace {

/// cells (row 0 the head, every row as long) as a table: Markdown (cells
/// between '|', the separator row after the head; with escape_bars, a '|'
/// in a cell written \|) or plain text (columns padded to their widest
/// cell plus 2); trailing blanks dropped, one line a row.
std::string render_table(const std::vector<std::vector<std::string>>& cells, bool markdown,
                         bool escape_bars) {
  const std::size_t columns = cells.front().size();
  std::vector<std::size_t> width(columns, 0);
  for (const auto& line : cells)
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  std::string out;
  for (std::size_t l = 0; l < cells.size(); ++l) {
    std::string line = markdown ? "|" : "";
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string& cell = cells[l][c];
      if (markdown && escape_bars) {
        std::string esc;
        for (char ch : cell) esc += ch == '|' ? std::string("\\|") : std::string(1, ch);
        line += " " + esc + " |";
      } else if (markdown) {
        line += " " + cell + " |";
      } else {
        line += fmt::format("{:<{}}", cell, width[c] + 2);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (l == 0 && markdown) {
      out += "|";
      for (std::size_t c = 0; c < columns; ++c) out += "---|";
      out += "\n";
    }
  }
  return out;
}

std::string table(const std::vector<CheckRow>& rows, bool markdown) {
  const std::vector<std::string> head = {"study", "formulation", "precision", "max qddot disagreement",
                                         "max R, lambda disagreement",
                                         "error vs analytic", "energy drift or balance", "max |C|",
                                         "invariant drift", "time [s]", "result"};
  std::vector<std::vector<std::string>> cells = {head};
  for (const CheckRow& r : rows)
    cells.push_back({r.study, r.formulation, r.precision, r.cross, r.reaction, r.analytic,
                     r.energy_is_balance && r.energy != "-" ? r.energy + " (balance)" : r.energy, r.constraint,
                     r.invariants, fmt::format("{:.1f}", r.seconds),
                     !r.control.empty() ? r.control : r.pass ? "pass" : "FAIL"});
  return render_table(cells, markdown, true);
}

/// The digits reached, study x precision: each cell "cross / analytic /
/// drift", the smallest -log10 over the study's valid formulations (the
/// negative control left out) of the largest qddot disagreement, error
/// against the analytic special motions, and drift of energy, |C| and the
/// invariants; "-" where there is no figure, "exact" for 0.
/// The digits of one cell of digits_table: the smallest cross, analytic and
/// drift digits over the valid rows of `study` in `precision` (NaN where no
/// row has a figure).
std::array<double, 3> digits_cell(const std::vector<CheckRow>& rows, const std::string& study,
                                  const std::string& precision) {
  std::array<double, 3> out{std::nan(""), std::nan(""), std::nan("")};
  const auto low = [](double& acc, double v) {
    if (!std::isnan(v)) acc = std::isnan(acc) ? v : std::min(acc, v);
  };
  for (const CheckRow& r : rows)
    if (r.study == study && r.precision == precision && r.control.empty()) {
      low(out[0], r.cross_digits);
      low(out[1], r.analytic_digits);
      low(out[2], r.drift_digits);
    }
  return out;
}

std::string digits_table(const std::vector<CheckRow>& rows, const std::vector<std::string>& precisions,
                         bool markdown) {
  std::vector<std::string> studies_seen;
  for (const CheckRow& r : rows)
    if (std::find(studies_seen.begin(), studies_seen.end(), r.study) == studies_seen.end())
      studies_seen.push_back(r.study);
  std::vector<std::string> used;
  for (const auto& p : precisions)
    for (const CheckRow& r : rows)
      if (r.precision == p) {
        used.push_back(p);
        break;
      }
  const auto cell = [](double v) {
    if (std::isnan(v)) return std::string("-");
    if (std::isinf(v)) return std::string("exact");
    return fmt::format("{:.1f}", v);
  };
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head = {"study"};
  for (const auto& p : used) head.push_back(p);
  cells.push_back(head);
  for (const auto& st : studies_seen) {
    std::vector<std::string> line = {st};
    for (const auto& p : used) {
      const auto [c, a, d] = digits_cell(rows, st, p);
      line.push_back(cell(c) + " / " + cell(a) + " / " + cell(d));
    }
    cells.push_back(line);
  }
  return render_table(cells, markdown, false);
}

/// A digits figure for JSON: null where there is none, "exact" for an
/// exact 0 (+inf digits).
nlohmann::ordered_json digits_json(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return "exact";
  return v;
}

/// A record of a row, check or run of summary.json: its key (study,
/// formulation, precision), then the entries of `rest` in their order.
template <class Record>
nlohmann::ordered_json keyed_record(const Record& r, const nlohmann::ordered_json& rest) {
  nlohmann::ordered_json e = {{"study", r.study}, {"formulation", r.formulation}, {"precision", r.precision}};
  for (const auto& [k, v] : rest.items()) e[k] = v;
  return e;
}

/// summary.json's "runs": every integrated run with its CSV and the names of its columns.
nlohmann::ordered_json run_records(const CheckReport& report) {
  using json = nlohmann::ordered_json;
  const auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json runs = json::array();
  for (const CheckRun& r : report.runs)
    runs.push_back(keyed_record(r, {{"run", r.run},
                             {"csv", r.csv},
                             {"exact", r.exact},
                             {"energy_checked", r.energy_checked},
                             {"completed", r.failure.empty()},
                             {"failure", r.failure},
                             {"samples", r.samples},
                             {"t_end", num(r.t_end)},
                             {"t_last", num(r.t_last)},
                             {"columns",
                              {{"coordinates", r.coordinates},
                               {"constraints", r.constraint_columns},
                               {"invariants", r.invariant_columns},
                               {"invariants_conserved", r.invariant_conserved},
                               {"margins", r.margin_columns}}}}));
  return runs;
}

/// summary.json's "digits": the table of digits per study and precision (digits_cell).
nlohmann::ordered_json digits_records(const CheckReport& report, const std::vector<std::string>& precisions) {
  using json = nlohmann::ordered_json;
  json digits = json::array();
  std::vector<std::string> studies;
  for (const CheckRow& r : report.rows)
    if (std::find(studies.begin(), studies.end(), r.study) == studies.end()) studies.push_back(r.study);
  for (const auto& st : studies)
    for (const auto& p : precisions) {
      if (std::none_of(report.rows.begin(), report.rows.end(),
                       [&](const CheckRow& r) { return r.study == st && r.precision == p; }))
        continue;
      const auto [c, a, d] = digits_cell(report.rows, st, p);
      digits.push_back({{"study", st}, {"precision", p}, {"cross", digits_json(c)},
                        {"analytic", digits_json(a)}, {"drift", digits_json(d)}});
    }
  return digits;
}

/// summary.json: the data of summary.md for programs (scripts/check_report.py).
/// Numbers are doubles (null where there is none); "checks" holds every
/// figure against its bound, "runs" every integrated run with its CSV
/// (relative to the out-dir) and the names of the CSV's columns; checks and
/// runs in the order of the rows (the worker threads' order is not kept).
nlohmann::ordered_json summary_json(const CheckReport& report, const CheckSpec& opts,
                                    const std::string& command, const std::string& date,
                                    bool pass, const std::vector<std::string>& precisions) {
  using json = nlohmann::ordered_json;
  const auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json j;
  j["tool"] = "nhs";
  j["command"] = command;
  j["system"] = opts.system;
  j["generated"] = date;
  j["pass"] = pass;
  j["quick"] = opts.quick;
  json settings = json::array();
  for (const CheckSettings& c : report.settings)
    settings.push_back({{"precision", c.precision},
                        {"qddot_agreement", c.qddot_agreement},
                        {"analytic_error", c.analytic_error},
                        {"drift", c.drift},
                        {"stepper", c.stepper},
                        {"rtol", c.rtol},
                        {"atol", c.atol},
                        {"random_states", c.random_states},
                        {"quick", c.quick}});
  j["settings"] = settings;
  json rows = json::array();
  for (const CheckRow& r : report.rows)
    rows.push_back(keyed_record(r, {{"qddot_disagreement", r.cross},
                             {"reaction_disagreement", r.reaction},
                             {"error_vs_exact", r.analytic},
                             {"energy_drift", r.energy},
                             {"max_C", r.constraint},
                             {"invariant_drift", r.invariants},
                             {"seconds", r.seconds},
                             {"negative_control", !r.control.empty()},
                             {"result", !r.control.empty() ? r.control : r.pass ? "pass" : "FAIL"},
                             {"pass", r.pass}}));
  j["rows"] = rows;
  json checks = json::array();
  for (const CheckFigure& c : report.checks) {
    json e = keyed_record(c, {{"run", c.run},
                       {"kind", c.kind},
                       {"value", num(c.value)},
                       {"tolerance", num(c.tolerance)},
                       {"pass", c.pass},
                       {"counts", c.counts}});
    if (!c.invariant.empty()) e["invariant"] = c.invariant;
    if (!c.detail.empty()) e["detail"] = c.detail;
    checks.push_back(e);
  }
  j["checks"] = checks;
  j["runs"] = run_records(report);
  j["digits"] = digits_records(report, precisions);
  j["failures"] = report.failures;
  j["notes"] = report.notes;
  return j;
}

}  // namespace

std::string check_command(const CheckSpec& spec, const std::string& precision_text) {
  return "nhs " + (spec.system.empty() ? std::string("verify") : "check " + spec.system) + " --precision " +
         precision_text + " --states " + std::to_string(spec.states) + (spec.quick ? " --quick" : "");
}

std::string check_timing(const CheckReport& report) {
  std::string timing = fmt::format("total {:.1f} s", report.seconds);
  for (const auto& [p, s] : report.precision_seconds) timing += fmt::format("; {} {:.1f} s", p, s);
  return timing;
}

std::string check_table_text(const CheckReport& report) { return table(report.rows, false); }

std::string digits_table_text(const CheckReport& report) {
  return digits_table(report.rows, precision_names(), false);
}

void write_check_summaries(const CheckReport& report, const CheckSpec& opts, const std::string& command) {
  const bool pass = report.pass();
  const std::string timing = check_timing(report);
  const std::vector<std::string> names = precision_names();
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::ostringstream md;
  md << "# nhs " << (opts.system.empty() ? "verify" : "check " + opts.system) << ": " << (pass ? "all checks pass" : "FAILURES") << "\n\n"
     << "Generated " << date << " by `" << command << "`; wall time: " << timing << ".\n\n"
     << "Each row: one study, formulation and precision. *max qddot disagreement*: largest "
        "relative difference (max-norm) of qddot against every other applicable formulation at "
        "random regular states (half at default parameters, half at parameters randomized: "
        "defaults x U(0.5, 1.5), zero defaults U(0.5, 2)). *max R, lambda disagreement*: at the "
        "same states, the reactions R_i and the multipliers (as forces C_qdot^T lambda) against "
        "every other formulation that defines them, relative to the size of the Lagrange "
        "equation's terms (same threshold as qddot). *error vs analytic*: largest max-norm "
        "error over (q, qdot) at the output samples (every 0.5) of each special motion, "
        "integrated to its t_end; its bound is scaled by (1 + the largest max-norm of the exact "
        "(q, qdot) along the motion), as the integrators scale theirs (atol + rtol |x|). *energy drift or balance* = max |E - E0| over the runs that conserve "
        "energy, and where forces or moving constraints do work (a push, friction, a turntable, a clock) "
        "max |E - E0 - W|, marked (balance) (the work-energy balance, W the work of the forces and reactions integrated along "
        "the run; bound scaled by 1 + max |T| + |V| + max |W|); *max |C|* and *invariant drift* (the study's conserved invariants) over the "
        "special motions and the default-state run to t = 20. Trajectories: `trajectories/*.csv`.\n\n"
     << "Thresholds and settings:\n\n";
  for (const auto& s : report.settings) md << "- " << s.line << "\n";
  md << "\n" << table(report.rows, true) << "\n";
  md << "## Digits reached\n\n"
     << "Per study and precision: -log10 of the largest qddot disagreement between "
        "formulations / of the largest error against the analytic special motions / of the "
        "largest drift of energy, |C| and the conserved invariants (absolute), the worst "
        "valid formulation of the study (the negative control left out).\n\n"
     << digits_table(report.rows, names, true) << "\n";
  if (!report.failures.empty()) {
    md << "## Failures\n\n";
    for (const auto& f : report.failures) md << "- " << f << "\n";
    md << "\n";
  }
  if (!report.notes.empty()) {
    md << "## Notes\n\n";
    for (const auto& n : report.notes) md << "- " << n << "\n";
  }
  const std::filesystem::path summary = std::filesystem::path(opts.out_dir) / "summary.md";
  if (!opts.system.empty()) {  // an older run's report would describe another check
    std::error_code rm_ec;
    std::filesystem::remove(std::filesystem::path(opts.out_dir) / "report.md", rm_ec);
  }
  write_text_file(summary.string(), md.str());
  const std::filesystem::path summary_js = std::filesystem::path(opts.out_dir) / "summary.json";
  {
    nlohmann::ordered_json j = summary_json(report, opts, command, date, pass, names);
    j["wall_seconds"] = report.seconds;
    write_text_file(summary_js.string(), j.dump(1) + "\n");
  }

}

}  // namespace nhs
