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

/// A digits figure: none where there is none, "exact" for an exact 0
/// (+inf digits).
void digits_field(CheckSummaryWriter& out, const std::string& key, double v) {
  if (std::isinf(v))
    out.text(key, "exact");
  else
    out.number(key, v);
}

/// Opens an item of the list open with the key of a row, check or run
/// (study, formulation, precision); the caller writes the rest and ends it.
template <class Record>
void begin_keyed(CheckSummaryWriter& out, const Record& r) {
  out.begin("");
  out.text("study", r.study);
  out.text("formulation", r.formulation);
  out.text("precision", r.precision);
}

/// summary.json's "settings": the thresholds and settings per precision.
void settings_fields(const CheckReport& report, CheckSummaryWriter& out) {
  out.begin_list("settings");
  for (const CheckSettings& c : report.settings) {
    out.begin("");
    out.text("precision", c.precision);
    out.number("qddot_agreement", c.qddot_agreement);
    out.number("analytic_error", c.analytic_error);
    out.number("drift", c.drift);
    out.text("stepper", c.stepper);
    out.number("rtol", c.rtol);
    out.number("atol", c.atol);
    out.count("random_states", static_cast<std::uint64_t>(c.random_states));
    out.flag("quick", c.quick);
    out.end();
  }
  out.end();
}

/// summary.json's "rows" and "checks": the table and every figure against its bound.
void row_fields(const CheckReport& report, CheckSummaryWriter& out) {
  out.begin_list("rows");
  for (const CheckRow& r : report.rows) {
    begin_keyed(out, r);
    out.text("qddot_disagreement", r.cross);
    out.text("reaction_disagreement", r.reaction);
    out.text("error_vs_exact", r.analytic);
    out.text("energy_drift", r.energy);
    out.text("max_C", r.constraint);
    out.text("invariant_drift", r.invariants);
    out.number("seconds", r.seconds);
    out.flag("negative_control", !r.control.empty());
    out.text("result", !r.control.empty() ? r.control : r.pass ? "pass" : "FAIL");
    out.flag("pass", r.pass);
    out.end();
  }
  out.end();
  out.begin_list("checks");
  for (const CheckFigure& c : report.checks) {
    begin_keyed(out, c);
    out.text("run", c.run);
    out.text("kind", c.kind);
    out.number("value", c.value);
    out.number("tolerance", c.tolerance);
    out.flag("pass", c.pass);
    out.flag("counts", c.counts);
    if (!c.invariant.empty()) out.text("invariant", c.invariant);
    if (!c.detail.empty()) out.text("detail", c.detail);
    out.end();
  }
  out.end();
}

/// summary.json's "runs": every integrated run with its CSV and the names of its columns.
void run_fields(const CheckReport& report, CheckSummaryWriter& out) {
  out.begin_list("runs");
  for (const CheckRun& r : report.runs) {
    begin_keyed(out, r);
    out.text("run", r.run);
    out.text("csv", r.csv);
    out.flag("exact", r.exact);
    out.flag("energy_checked", r.energy_checked);
    out.flag("completed", r.failure.empty());
    out.text("failure", r.failure);
    out.count("samples", r.samples);
    out.number("t_end", r.t_end);
    out.number("t_last", r.t_last);
    out.text("field", r.field);
    out.count("steps", r.steps);
    out.count("rhs_calls", r.rhs_calls);
    out.number("seconds", r.seconds);
    out.begin("columns");
    out.names("coordinates", r.coordinates);
    out.names("constraints", r.constraint_columns);
    out.names("invariants", r.invariant_columns);
    out.flags("invariants_conserved", r.invariant_conserved);
    out.names("margins", r.margin_columns);
    out.end();
    out.end();
  }
  out.end();
}

/// summary.json's "digits": the table of digits per study and precision (digits_cell).
void digits_fields(const CheckReport& report, const std::vector<std::string>& precisions, CheckSummaryWriter& out) {
  std::vector<std::string> studies;
  for (const CheckRow& r : report.rows)
    if (std::find(studies.begin(), studies.end(), r.study) == studies.end()) studies.push_back(r.study);
  out.begin_list("digits");
  for (const auto& st : studies)
    for (const auto& p : precisions) {
      if (std::none_of(report.rows.begin(), report.rows.end(),
                       [&](const CheckRow& r) { return r.study == st && r.precision == p; }))
        continue;
      const auto [c, a, d] = digits_cell(report.rows, st, p);
      out.begin("");
      out.text("study", st);
      out.text("precision", p);
      digits_field(out, "cross", c);
      digits_field(out, "analytic", a);
      digits_field(out, "drift", d);
      out.end();
    }
  out.end();
}

/// summary.json's writer: the fields as an ordered JSON object (numbers
/// that are not finite as null).
class JsonSummary : public CheckSummaryWriter {
 public:
  using json = nlohmann::ordered_json;
  json root = json::object();
  JsonSummary() { open_.push_back(&root); }

  void text(const std::string& key, const std::string& value) override { put(key, value); }
  void flag(const std::string& key, bool value) override { put(key, value); }
  void number(const std::string& key, double value) override {
    put(key, std::isfinite(value) ? json(value) : json(nullptr));
  }
  void count(const std::string& key, std::uint64_t value) override { put(key, value); }
  void names(const std::string& key, const std::vector<std::string>& value) override { put(key, value); }
  void flags(const std::string& key, const std::vector<bool>& value) override { put(key, value); }
  void begin(const std::string& key) override { open_.push_back(&put(key, json::object())); }
  void begin_list(const std::string& key) override { open_.push_back(&put(key, json::array())); }
  void end() override { open_.pop_back(); }

 private:
  // Only the innermost open container changes: the pointers to the open
  // ones stay valid.
  json& put(const std::string& key, json value) {
    json& top = *open_.back();
    if (top.is_array()) {
      top.push_back(std::move(value));
      return top.back();
    }
    return top[key] = std::move(value);
  }
  std::vector<json*> open_;
};

}  // namespace

std::string check_date() {
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return date;
}

void check_summary_fields(const CheckReport& report, const CheckSpec& spec, const std::string& command,
                          const std::string& date, CheckSummaryWriter& out) {
  out.text("tool", "nhs");
  out.text("command", command);
  out.text("system", spec.system);
  out.text("generated", date);
  out.flag("pass", report.pass());
  out.flag("quick", spec.quick);
  settings_fields(report, out);
  row_fields(report, out);
  run_fields(report, out);
  digits_fields(report, precision_names(), out);
  out.names("failures", report.failures);
  out.names("notes", report.notes);
  out.number("wall_seconds", report.seconds);
}

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

void write_check_summaries(const CheckReport& report, const CheckSpec& opts, const std::string& command,
                           const std::string& date) {
  const bool pass = report.pass();
  const std::string timing = check_timing(report);
  const std::vector<std::string> names = precision_names();
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
  JsonSummary j;
  check_summary_fields(report, opts, command, date, j);
  write_text_file(summary_js.string(), j.root.dump(1) + "\n");

}

}  // namespace nhs
