// The checks of `nhs verify` and `nhs check` (nhs/verification/check.hpp).
#include "nhs/verification/check.hpp"

#include "check_plan.hpp"

#include "nhs/generated_formulation.hpp"
#include "nhs/parallel.hpp"
#include "nhs/precision_policy.hpp"
#include "nhs/session/clock.hpp"
#include "nhs/session/csv_recorder.hpp"
#include "nhs/session/figures.hpp"
#include "nhs/session/files.hpp"
#include "nhs/session/precision.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/verification.hpp"
#include "nhs/voronec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <system_error>
#include <thread>

namespace nhs {

namespace {

// The runs of one study are spread over worker threads (each run owns its
// system, recorder and CSV file; the model is immutable); the shared lists
// of the report are appended under this lock.
std::mutex report_mutex;

void add_line(std::vector<std::string>& lines, std::string line) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  lines.push_back(std::move(line));
}

/// add_line, unless the line is there already (a note that every precision
/// would repeat).
void add_unique_line(std::vector<std::string>& lines, std::string line) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(std::move(line));
}

/// At most this many --jobs: thread creation failed beyond a few ten
/// thousand (std::terminate), and more threads than cores only contend.
constexpr unsigned kMaxJobs = 1024;

/// The thresholds and integration settings of `verify` and `check` for S,
/// from precision_policy<S>() (nhs/precision_policy.hpp, the one table,
/// which says where each figure comes from), and the default stepper
/// (`auto`, resolved per formulation by integrate: auto_stepper_text).
/// `nhs verify` takes the main job's budget (mp50: 1e-30 at rtol 1e-36, for
/// its time budget over every study). `nhs check` (one system) takes the
/// strict budget of the special-motion tests, which follows what the
/// precision reaches (mp50: 1e-40 at rtol 1e-46, where its runs reach
/// 1e-45 to 1e-48), so that a loss of 10 digits fails: under the main
/// budget a 16-digit loss passed. Its runs integrate the field of `nhs run`
/// (default_field, nhs/session/problem.hpp), which makes that affordable.
template <class S>
struct Settings {
  S cross, analytic, invariants;  // invariants: energy, C and the study's own
  S rtol, atol;
};

template <class S>
Settings<S> settings(bool check) {
  const PrecisionPolicy<S>& p = precision_policy<S>();
  const IntegrationBudget<S>& b = check ? p.strict : p.main;
  return Settings<S>{p.cross, b.analytic, b.drift, b.rtol, b.rtol};
}

/// What the checks collect, with where their progress goes (null: quiet).
struct Report : CheckReport {
  CheckProgress* progress = nullptr;
};

/// One line of progress (a run's result), unless quiet.
void progress_line(Report& report, const std::string& text) {
  if (report.progress) report.progress->line(text);
}

void add_check(Report& report, CheckFigure check) {
  const std::lock_guard<std::mutex> lock(report_mutex);
  report.checks.push_back(std::move(check));
}

std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
    if (keep)
      out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out;
}

/// Running maxima of one row's figures.
template <class S>
struct Figures {
  std::optional<S> cross, reaction, analytic, energy, constraint, invariants;
  bool balance = false;  ///< energy holds the work-energy balance max |E - E0 - W| (energy not conserved)
  bool pass = true;
  static void raise(std::optional<S>& slot, const S& v) {
    using std::max;
    slot = slot ? max(*slot, v) : v;
  }
};

/// The note of a study whose T + V is not a first integral (reason:
/// check_run's energy_reason), once for the study, not once per run;
/// balance: the run carried the work W, so the work-energy balance is checked.
void note_energy_not_checked(const std::string& study, const std::string& reason, bool balance, Report& report) {
  add_unique_line(report.notes, study + ": energy not checked: " +
                                    (reason.empty() ? "non-conservative forces do work" : reason) +
                                    (balance ? "; the work-energy balance max |E - E0 - W| is checked instead (the "
                                               "table's \"energy drift or balance\" column, marked \"(balance)\")"
                                             : std::string()));
}

/// The figures of one run (m, of run `id`) against their bounds (set):
/// the error against the closed form (with `exact`), the energy drift
/// where energy is a first integral, the work-energy balance where the run
/// carried the work W (MotionCheck::balance_checked), max |C|, the conserved invariants'
/// drifts; each a check of the report, folded into fig, a failure when
/// over its bound; the notes where energy or an invariant is not checked
/// (energy_reason: check_run's).
template <class S>
void judge_motion(const CheckFigure& id, const MotionCheck<S>& m, const Settings<S>& set, bool exact,
                  const std::string& energy_reason, Figures<S>& fig, Report& report) {
  const std::string what = id.study + " / " + id.formulation + " / " + id.precision + ": " + id.run;
  const auto fail = [&](const std::string& msg) {
    fig.pass = false;
    add_line(report.failures, what + ": " + msg);
  };
  const auto check = [&](const std::string& kind, const S& value, const S& bound, bool pass,
                         const std::string& invariant = "") {
    CheckFigure c = id;
    c.kind = kind;
    c.invariant = invariant;
    c.value = to_double(value);
    c.tolerance = to_double(bound);
    c.pass = pass;
    add_check(report, std::move(c));
  };
  if (exact) {
    // Scaled like the integrators' own error control (atol + rtol |x|):
    // a motion that travels far (the n-trailer's straight train reaches
    // |x| = 520 at t = 20) is held to the same relative accuracy.
    Figures<S>::raise(fig.analytic, m.max_error);
    const S bound = m.error_bound(set.analytic);
    check("error vs exact", m.max_error, bound, m.max_error <= bound);
    if (!(m.max_error <= bound))
      fail("error vs analytic solution " + short_figure(m.max_error) + " > " +
           short_figure(bound) + " (" + short_figure(set.analytic) + " x (1 + max |exact (q, qdot)| = " +
           short_figure(m.exact_scale) + "))");
  }
  // Energy is checked where the study declares it a first integral and the
  // non-conservative forces (if any) did no work at any sample.
  const bool declared = m.energy_declared;
  if (declared && m.nonconservative_power != 0)
    add_line(report.notes, what + ": the study declares energy conserved, but the "
                           "non-conservative force does work (max |F . qdot| = " +
                           short_figure(m.nonconservative_power) + "); energy not checked");
  if (m.energy_checked()) {
    Figures<S>::raise(fig.energy, m.energy_drift);
    const S bound = m.energy_bound(set.invariants);
    check("energy drift", m.energy_drift, bound, m.energy_drift <= bound);
    if (!(m.energy_drift <= bound))
      fail("energy drift " + short_figure(m.energy_drift) + " > " + short_figure(bound));
  } else if (!declared) {
    note_energy_not_checked(id.study, energy_reason, m.balance_checked(), report);
  }
  if (m.balance_checked()) {  // E - E0 = W, W the work of the forces and reactions (work_energy.hpp)
    if (!m.energy_checked()) {
      Figures<S>::raise(fig.energy, m.balance_drift);
      fig.balance = true;
    }
    const S bound = m.balance_bound(set.invariants);
    check("work-energy balance", m.balance_drift, bound, m.balance_drift <= bound);
    if (!(m.balance_drift <= bound))
      fail("work-energy balance max |E - E0 - W| " + short_figure(m.balance_drift) + " > " + short_figure(bound) +
           " (max |W| = " + short_figure(m.work_scale) + ")");
  }
  Figures<S>::raise(fig.constraint, m.max_C);
  const S c_bound = m.constraint_bound(set.invariants);
  check("max |C|", m.max_C, c_bound, m.max_C <= c_bound);
  if (!(m.max_C <= c_bound))
    fail("max |C| " + short_figure(m.max_C) + " > " + short_figure(c_bound));
  for (std::size_t k = 0; k < m.invariants.size(); ++k) {
    const InvariantDrift<S>& inv = m.invariants[k];
    if (!inv.conserved) continue;
    if (inv.undefined > 0)
      add_line(report.notes, what + ": invariant " + inv.name + " is not finite at " +
                                 std::to_string(inv.undefined) + " of " +
                                 std::to_string(m.samples) + " rows (its drift is over the others)");
    Figures<S>::raise(fig.invariants, inv.drift);
    const S bound = m.invariant_bound(k, set.invariants);
    check("invariant drift", inv.drift, bound, inv.drift <= bound, inv.name);
    if (!(inv.drift <= bound))
      fail("invariant " + inv.name + " drift " + short_figure(inv.drift) + " > " + short_figure(bound));
  }
}

/// A run's failure as check_motion gives it; one on the singular set of the
/// formulation's velocity split (Voronec's) says how a
/// system file declares that the formulation cannot follow the motion:
/// [initial] excluded for the default state, the [[exact]] motion's
/// excluded for it (docs/system-files.md).
/// The split's set is named by split_margin's condition at q (size n).
template <class S>
std::string with_split_hint(const CheckFigure& id, const std::string& failure, const System<S>& sys, const Vec<S>& q) {
  if (failure.empty() || !dependent_velocity_reason(sys.info).empty()) return failure;
  if (failure.find(split_margin<S>(sys, q).condition) == std::string::npos) return failure;
  const bool initial = id.run == "default state";
  return failure + "; the motion meets the singular set of the formulation's velocity split: a system file declares "
                   "a formulation that cannot follow its motion " +
         (initial ? std::string("by [initial] excluded = { ") : "by excluded = { in its [[exact]] motion '" + id.run + "': ") +
         id.formulation + " = \"why\" } (docs/system-files.md)";
}

using CsvFile = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

/// The run's CSV opened for writing (IoError naming it when it cannot be);
/// for an empty csv, none: nothing is written (CheckSpec::write_trajectories),
/// while the CsvRecorder still computes every row (its non-finite values
/// are errors as when written).
CsvFile open_csv(const std::filesystem::path& csv) {
  CsvFile file(csv.empty() ? nullptr : std::fopen(csv.c_str(), "w"), &std::fclose);
  if (!file && !csv.empty()) throw_io_error("cannot write", csv.string());
  return file;
}

/// Where a run is in the plan of the progress (CheckProgress::advance).
struct RunSlot {
  std::size_t task = 0, run = 0;
};

/// The run at `slot` starts: its progress from now on, after every step
/// of io (unless quiet).
template <class S>
void report_steps(const Report& report, const RunSlot& slot, IntegrationOptions<S>& io) {
  if (!report.progress) return;
  report.progress->advance(slot.task, slot.run, 0, 0, false);
  io.on_step = [progress = report.progress, slot](const S& t, const IntegrationStats& s) {
    progress->advance(slot.task, slot.run, to_double(t), s.rhs_calls, false);
  };
}

/// Integrates one motion with f (check_motion, nhs/studies/verification.hpp;
/// the CsvRecorder writes the CSV as its record callback); folds its figures into
/// fig and reports failures, the checks and the run itself (for
/// summary.json). exact may be empty (no closed form). A run that fails
/// before its first sample has no figures: it adds only its failure, so
/// that its row shows "-", not 0, where it has nothing. energy_reason says
/// why T + V is not a first integral where st does not conserve energy
/// (a system file's energy_not_conserved_reason; "" for a built-in study:
/// non-conservative forces). multipliers: those the work-energy balance
/// takes (reaction_multipliers; empty: the KKT system's reaction). slot:
/// where the run is in the progress's plan (planned_runs).
template <class S>
void check_run(const CheckFigure& id, const RunSlot& slot, const System<S>& sys, const Study<S>& st,
               const std::string& energy_reason,
               const Formulation<S>& f, const MultipliersAt<S>& multipliers, const State<S>& x0,
               const S& t_end, const S& dt_out, const Settings<S>& set, const std::function<State<S>(const S&)>& exact,
               const std::filesystem::path& csv, Figures<S>& fig, Report& report) {
  const std::string what = id.study + " / " + id.formulation + " / " + id.precision + ": " + id.run;
  const auto t0 = Clock::now();
  CsvFile file = open_csv(csv);
  const auto fail = [&](const std::string& msg) {
    fig.pass = false;
    add_line(report.failures, what + ": " + msg);
  };
  const MotionReference<S> ref = motion_reference(st, sys, exact, multipliers);
  CsvRecorder<S> rec(sys, ref, file.get(), "'" + csv.string() + "'");  // the figures are check_motion's
  IntegrationOptions<S> io;
  io.t_end = t_end;
  io.dt_out = dt_out;
  io.rtol = set.rtol;
  io.atol = set.atol;
  report_steps(report, slot, io);
  CheckRun run{id.study, id.formulation, id.precision, id.run,
                csv.empty() ? std::string() : "trajectories/" + csv.filename().string()};
  run.exact = bool(exact);
  run.t_end = to_double(t_end);
  run.coordinates = sys.info.coordinates;
  run.constraint_columns = rec.constraint_columns();
  run.invariant_columns = rec.invariant_columns();
  run.margin_columns = rec.margin_columns();
  for (const auto& inv : rec.invariants()) run.invariant_conserved.push_back(inv.conserved);
  // A row that cannot be written (a full disk) is an I/O error (exit 5),
  // not a failure of the motion: check_motion would report it as one.
  std::exception_ptr write_error;
  const MotionCheck<S> m = check_motion<S>(sys, f, x0, io, ref, [&](const Sample<S>& sample) {
    try {
      rec(sample);
    } catch (const IoError&) {
      write_error = std::current_exception();
      throw;
    }
  });
  if (report.progress) report.progress->advance(slot.task, slot.run, to_double(m.t_last), m.stats.rhs_calls, true);
  if (write_error) std::rethrow_exception(write_error);
  if (file && std::fclose(file.release()) != 0) throw_io_error("cannot write", csv.string());
  run.failure = with_split_hint(id, m.failure, sys, x0.q);
  if (!m.completed()) fail(run.failure);
  run.samples = m.samples;
  run.field = field_backend_name(generated::field_backend_of(f));
  run.steps = m.stats.steps;
  run.rhs_calls = m.stats.rhs_calls;
  run.seconds = seconds_since(t0);
  run.t_last = to_double(m.t_last);
  {
    CheckFigure c = id;
    c.kind = "run completed";
    c.pass = run.failure.empty();
    c.detail = run.failure;
    add_check(report, std::move(c));
  }
  const auto record_run = [&] {
    const std::lock_guard<std::mutex> lock(report_mutex);
    report.runs.push_back(run);
  };
  if (m.samples == 0) {  // nothing measured: no figure (the row shows "-")
    record_run();
    progress_line(report, fmt::format("  {} / {}: {:<44} failed before its first sample", id.study, id.formulation,
                                      id.run));
    return;
  }
  run.energy_checked = m.energy_checked();
  record_run();
  judge_motion<S>(id, m, set, bool(exact), energy_reason, fig, report);
  // One self-contained line per run: the runs of several formulations
  // finish in any order on the worker threads.
  progress_line(report, fmt::format("  {} / {}: {:<44} t = {:<4} {:>8} RHS calls {:>7.2f} s{}", id.study,
                                    id.formulation, id.run, short_figure(m.t_last), m.stats.rhs_calls,
                                    seconds_since(t0), exact ? "  error " + short_figure(m.max_error) : std::string()));
}

/// -log10(v) as a double: the decimal digits of agreement a figure
/// represents; +inf for an exact 0, NaN when there is no figure.
template <class S>
double digits(const std::optional<S>& v) {
  if (!v) return std::nan("");
  if (*v <= 0) return std::numeric_limits<double>::infinity();
  using std::log10;
  return -static_cast<double>(log10(*v));
}

// What `auto` stands for at rtol: "auto: verner87 (dopri5 for voronec,
// naive-reduced)" where the formulations whose round-off grows with speed
// get another stepper (nhs/stepper.hpp).
template <class S>
std::string auto_stepper_text(const S& rtol) {
  const Stepper usual = default_stepper<S>(rtol), noisy = default_stepper<S>(rtol, true);
  std::string text = "auto: " + std::string(stepper_name(usual));
  if (noisy != usual) {
    std::string names;
    for (const auto& f : formulations<S>())
      if (f->round_off_grows_with_speed()) names += (names.empty() ? "" : ", ") + f->name();
    text += " (" + std::string(stepper_name(noisy)) + " for " + names + ")";
  }
  return text;
}

/// The settings of precision S, with their line of summary.md.
template <class S>
void add_settings(const CheckSpec& opts, const Settings<S>& set, int n_states, Report& report) {
  CheckSettings c;
  c.precision = ScalarName<S>::value;
  c.qddot_agreement = to_double(set.cross);
  c.analytic_error = to_double(set.analytic);
  c.drift = to_double(set.invariants);
  c.stepper = auto_stepper_text(set.rtol);
  c.rtol = to_double(set.rtol);
  c.atol = to_double(set.atol);
  c.random_states = n_states;
  c.quick = opts.quick;
  c.line = fmt::format(
      "{}: qddot agreement <= {}; analytic error <= {} x (1 + max |exact|); energy, |C|, "
      "invariant drift <= {} x (1 + scale); stepper {}, rtol = atol = {}; {} random states per study{}",
      c.precision, short_figure(set.cross), short_figure(set.analytic), short_figure(set.invariants), c.stepper,
      short_figure(set.rtol), n_states, opts.quick ? "; QUICK: runs cut at t = 2" : "");
  report.settings.push_back(std::move(c));
}

/// check_agreement's verdict on the fields (all[k], k >= fs.size(), the
/// field of formulation fs[row[k]]): a check "<backend> field agreement"
/// of that formulation's row, and a failure above set.cross.
template <class S>
void judge_field_agreement(const Study<S>& st, const std::vector<const Formulation<S>*>& fs,
                           const std::vector<const Formulation<S>*>& all, const std::vector<std::size_t>& row,
                           const RandomStatesCheck<S>& rc, const Settings<S>& set, std::vector<Figures<S>>& figs,
                           Report& report) {
  const std::string precision(ScalarName<S>::value);
  for (std::size_t k = fs.size(); k < all.size(); ++k) {  // the fields
    const RandomStateFigures<S>& r = rc.figures[k];
    const std::string& name = fs[row[k]]->name();
    if (!r.qddot) continue;  // every state skipped (said below)
    const std::string kind =
        std::string(field_backend_name(generated::field_backend_of(*all[k]))) + " field agreement";
    CheckFigure c{st.info.name, name, precision, "random states", kind};
    c.value = to_double(*r.qddot);
    c.tolerance = to_double(set.cross);
    c.pass = *r.qddot <= set.cross;
    add_check(report, std::move(c));
    add_line(report.notes, fmt::format("{} / {} / {}: {}: its runs integrate {}, the field of `nhs run` and "
                                       "`nhs accel`; its qddot agrees with every formulation's to {} at the "
                                       "random states",
                                       st.info.name, name, precision, kind, all[k]->name(), short_figure(*r.qddot)));
    if (!(*r.qddot <= set.cross)) {
      figs[row[k]].pass = false;
      add_line(report.failures,
               fmt::format("{} / {} / {}: qddot disagreement of {} {} > {} (largest with {} at random state {})",
                           st.info.name, name, precision, all[k]->name(), short_figure(*r.qddot),
                           short_figure(set.cross), r.worst_with, r.worst_state));
    }
  }
}

/// check_agreement's verdict on the formulations fs: their qddot and
/// reaction agreement as checks (the negative control's do not count) and
/// a failure above set.cross; worst_cross[i]: where fs[i]'s worst was.
template <class S>
void judge_formulation_agreement(const Study<S>& st, const std::vector<const Formulation<S>*>& fs,
                                 const std::vector<std::string>& worst_cross, const Settings<S>& set,
                                 std::vector<Figures<S>>& figs, Report& report) {
  const std::string precision(ScalarName<S>::value);
  for (std::size_t i = 0; i < fs.size(); ++i) {
    // For summary.json: the agreement figures against their bound (the
    // negative control's do not count).
    for (const auto& [kind, v] : {std::pair{"qddot agreement", &figs[i].cross},
                                  std::pair{"reaction agreement", &figs[i].reaction}}) {
      if (!*v || (fs.size() < 2 && std::string(kind) == "qddot agreement")) continue;
      CheckFigure c{st.info.name, fs[i]->name(), precision, "random states", kind};
      c.value = to_double(**v);
      c.tolerance = to_double(set.cross);
      c.pass = **v <= set.cross;
      c.counts = !fs[i]->is_negative_control();
      add_check(report, std::move(c));
    }
    if (!fs[i]->is_negative_control() && figs[i].reaction && !(*figs[i].reaction <= set.cross)) {
      figs[i].pass = false;
      add_line(report.failures, fmt::format("{} / {} / {}: reaction/multiplier disagreement {} > {}",
                                            st.info.name, fs[i]->name(), precision,
                                            short_figure(*figs[i].reaction), short_figure(set.cross)));
    }
    if (fs.size() >= 2 && !fs[i]->is_negative_control() && figs[i].cross && !(*figs[i].cross <= set.cross)) {
      figs[i].pass = false;
      add_line(report.failures, fmt::format("{} / {} / {}: qddot disagreement {} > {} (largest with {})",
                                            st.info.name, fs[i]->name(), precision,
                                            short_figure(*figs[i].cross), short_figure(set.cross),
                                            worst_cross[i]));
    }
  }
}

/// (1) The agreement of the formulations fs (applicable at st's default
/// system sys0; the negative control among them) at n_states random
/// regular states of st, drawn from the seed 20261122 + si (si: st's index
/// in the selection): cross_check_random_states, folded into figs (one per
/// formulation), with the checks, failures and notes of the report.
/// fields (empty, or one per formulation, null where none): the fields
/// that `nhs verify` and `nhs check` integrate in place of the library's
/// formulations (default_field), cross-checked at the same states with all
/// of them: a check "generated field agreement" or "traced field agreement"
/// (field_backend_name) of the formulation's row, under the same bound.
template <class S>
void check_agreement(const CheckSpec& opts, const Study<S>& st, std::size_t si, const System<S>& sys0,
                     const std::vector<const Formulation<S>*>& fs,
                     const std::vector<std::shared_ptr<const Formulation<S>>>& fields, const Settings<S>& set,
                     int n_states, std::vector<Figures<S>>& figs, Report& report) {
  const std::string precision(ScalarName<S>::value);
  const auto t0 = Clock::now();
  std::mt19937_64 rng(20261122 + si);
  // The formulations and, after them, the fields; row[k]: the row of entry k.
  std::vector<const Formulation<S>*> all = fs;
  std::vector<std::size_t> row(fs.size());
  for (std::size_t i = 0; i < fs.size(); ++i) row[i] = i;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i]) {
      all.push_back(fields[i].get());
      row.push_back(i);
    }
  // A file's random state that some formulation finds singular, or at a
  // singular set of psi or C, is skipped (opts.system); else an error fails.
  const RandomStatesCheck<S> rc = cross_check_random_states(st, sys0, rng, n_states, all, !opts.system.empty());
  for (const RandomStateError& e : rc.errors) {
    figs[row[e.formulation]].pass = false;
    add_line(report.failures, fmt::format("{} / {} / {}: random state {}: {}", st.info.name,
                                          all[e.formulation]->name(), precision, e.state, e.message));
  }
  judge_field_agreement(st, fs, all, row, rc, set, figs, report);
  std::vector<std::string> worst_cross(fs.size());  // the pair and state of each figs[i].cross
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const RandomStateFigures<S>& r = rc.figures[i];
    figs[i].cross = r.qddot;
    figs[i].reaction = r.reaction;
    if (r.qddot)
      worst_cross[i] = r.worst_with + " at random state " + std::to_string(r.worst_state) + ", q = " +
                       to_string(r.worst_at.q) + ", qdot = " + to_string(r.worst_at.qdot);
  }
  if (fs.size() < 2)
    add_line(report.notes, st.info.name + " / " + precision +
                           ": fewer than two applicable formulations; no agreement check");
  if (rc.skipped > 0)
    add_line(report.notes, fmt::format("{} / {}: {} of {} random states skipped (singular for "
                                       "some formulation, near a singular set of the system, "
                                       "or outside psi's domain)",
                                       st.info.name, precision, rc.skipped, n_states));
  if (rc.skipped == n_states) {
    add_line(report.failures, fmt::format("{} / {}: every random state was singular; no "
                                          "agreement check", st.info.name, precision));
    for (auto& fg : figs) fg.pass = false;
  }
  judge_formulation_agreement(st, fs, worst_cross, set, figs, report);
  progress_line(report, fmt::format("  {:<16} qddot agreement at {} random states ({} formulations): {:.2f} s",
                                    st.info.name, n_states, fs.size(), seconds_since(t0)));
}

/// (2), (3) The special motions of st and the default-state run (to t = 20,
/// or 2 with --quick) with formulation f (check_run), folded into fig;
/// returns the seconds taken. The negative control is not integrated.
/// field: what is integrated in place of f (default_field); null: f.
template <class S>
double check_motions(const CheckSpec& opts, std::size_t task, const Study<S>& st, const System<S>& sys0,
                     const Formulation<S>& f, const Formulation<S>* field, const Settings<S>& set,
                     const std::string& energy_reason, Figures<S>& fig, Report& report) {
  const Formulation<S>& integrated = field ? *field : f;
  const std::string precision(ScalarName<S>::value);
  const auto t0 = Clock::now();
  if (f.is_negative_control()) {  // wrong motions by design: not integrated
    add_line(report.notes, st.info.name + " / " + f.name() + " / " + precision +
                           ": negative control; its row gives its qddot disagreement with the "
                           "valid formulations (expected where it fails), never a failure");
    return 0;
  }
  const std::filesystem::path dir = std::filesystem::path(opts.out_dir) / "trajectories";
  const auto csv = [&](const std::string& file) {  // empty: not written
    return opts.write_trajectories ? dir / file : std::filesystem::path();
  };
  const S quick_t = S(2);
  const std::string prefix = st.info.name + "." + f.name() + "." + precision + ".";
  const std::string who = st.info.name + " / " + f.name() + " / " + precision;
  // The multipliers of the work-energy balance: the second kind's fast
  // field, one for this task's runs, where energy may change.
  const MultipliersAt<S> multipliers =
      st.energy_is_conserved(sys0) ? MultipliersAt<S>()
                                   : reaction_multipliers<S>(opts.system.empty() ? st.info.name : opts.system);
  std::size_t run = 0;  // its index in planned_runs
  for (const SpecialMotion<S>& mo : st.special_motions()) {
    if (const auto ex = mo.excluded.find(f.name()); ex != mo.excluded.end()) {
      add_line(report.notes, who + ": " + mo.name + ": not run (" + ex->second + ")");
      continue;
    }
    const System<S> sys = st.build(mo.parameters);
    using std::min;
    const S t_end = opts.quick ? min(mo.t_end, quick_t) : mo.t_end;
    check_run<S>(CheckFigure{st.info.name, f.name(), precision, mo.name}, RunSlot{task, run++}, sys, st, energy_reason,
                 integrated, multipliers,
                 mo.initial, t_end,
                 S(1) / S(2), set, mo.exact, csv(prefix + slug(mo.name) + ".csv"), fig, report);
  }
  if (const auto ex = st.default_run_excluded.find(f.name()); ex != st.default_run_excluded.end()) {
    add_line(report.notes, who + ": default state: not run (" + ex->second + ")");
    return seconds_since(t0);
  }
  const State<S> x0 = st.default_state(sys0);
  check_run<S>(CheckFigure{st.info.name, f.name(), precision, "default state"}, RunSlot{task, run}, sys0, st,
               energy_reason, integrated,
               multipliers, x0,
               opts.quick ? quick_t : S(20), S(1) / S(10), set, {}, csv(prefix + "default-state.csv"), fig,
               report);
  return seconds_since(t0);
}

/// The table's row of formulation f of study st from its figures.
template <class S>
CheckRow make_row(const Study<S>& st, const Formulation<S>& f, const Figures<S>& fig, double seconds,
             const Settings<S>& set) {
  CheckRow row{st.info.name, f.name(), std::string(ScalarName<S>::value)};
  const auto figure = [](const std::optional<S>& v) { return v ? short_figure(*v) : std::string("-"); };
  row.cross = figure(fig.cross);
  row.reaction = figure(fig.reaction);
  row.analytic = figure(fig.analytic);
  row.energy = figure(fig.energy);
  row.energy_is_balance = fig.balance;
  row.constraint = figure(fig.constraint);
  row.invariants = figure(fig.invariants);
  row.seconds = seconds;
  row.pass = fig.pass;
  row.cross_digits = digits(fig.cross);
  row.analytic_digits = digits(fig.analytic);
  std::optional<S> drift;
  for (const auto* v : {&fig.energy, &fig.constraint, &fig.invariants})
    if (*v) Figures<S>::raise(drift, **v);
  row.drift_digits = digits(drift);
  if (f.is_negative_control())
    row.control = std::string("negative control: ") + (fig.cross && !(*fig.cross <= set.cross) ? "disagrees" : "agrees");
  return row;
}

/// Refuses, as `nhs run` does (InvalidState or SingularState, exit 3), a
/// default state (a file's [initial]) that admit_state would not admit:
/// off C beyond the default tolerance, or where dC/dqdot loses rank. The
/// runs from it could only fail, each under its own name.
template <class S>
void require_admissible_default_state(const Study<S>& st, const System<S>& sys0, bool from_file) {
  const State<S> x0 = st.default_state(sys0);
  const std::string what =
      (from_file ? "the file's [initial] state of '" : "the default state of '") + st.info.name + "': ";
  try {
    (void)admit_state(sys0, x0.q, x0.qdot, default_manifold_tolerance<S>());
  } catch (const SingularState& e) {
    throw SingularState(e.condition, what + e.what());
  } catch (const InvalidState& e) {
    throw InvalidState(what + e.what());
  } catch (const UsageError& e) {  // not finite
    throw InvalidState(what + e.what());
  }
}

/// Every check of every selected study in precision S, into the report.
template <class S>
void verify_scalar(const CheckSpec& opts, Report& report) {
  const std::string precision(ScalarName<S>::value);
  const Settings<S> set = settings<S>(!opts.system.empty());
  const int n_states = opts.quick ? std::min(opts.states, 10) : opts.states;
  const auto start = Clock::now();
  add_settings(opts, set, n_states, report);
  progress_line(report, fmt::format("{} {}:", opts.system.empty() ? "verify" : "check", precision));
  std::vector<const Study<S>*> selected;
  if (opts.system.empty()) {
    for (const Study<S>& st : studies<S>()) selected.push_back(&st);
  } else {
    selected.push_back(&find_study<S>(opts.system));
  }
  // Why a system file's energy is not a first integral (its notes say it).
  const std::string energy_reason = !opts.system.empty() && is_system_file_name(opts.system)
                                        ? energy_not_conserved_reason(*cached_system_file(opts.system))
                                        : std::string();
  for (std::size_t si = 0; si < selected.size(); ++si) {
    const Study<S>& st = *selected[si];
    const System<S> sys0 = st.build(st.default_parameters());
    require_admissible_default_state(st, sys0, is_system_file_name(opts.system));
    std::vector<const Formulation<S>*> fs;
    for (const auto& f : formulations<S>()) {
      const std::string why = f->not_applicable_reason(sys0);
      if (why.empty())
        fs.push_back(f.get());
      else
        add_unique_line(report.notes, st.info.name + " / " + f->name() + ": not applicable: " + why);
    }
    std::vector<Figures<S>> figs(fs.size());
    std::vector<double> secs(fs.size(), 0);
    // The runs integrate the field of `nhs run` and `nhs accel`
    // (default_field: a built-in study's generated code, a file's traced
    // field), which check_agreement cross-checks with every formulation.
    const std::string& system = opts.system.empty() ? st.info.name : opts.system;
    std::vector<std::shared_ptr<const Formulation<S>>> fields(fs.size());
    for (std::size_t i = 0; i < fs.size(); ++i)
      if (!fs[i]->is_negative_control()) fields[i] = default_field<S>(system, *fs[i]);
    check_agreement(opts, st, si, sys0, fs, fields, set, n_states, figs, report);
    // One formulation per task, each with its own field; on several
    // workers the longest first (task_order). Task k runs fs[order[k]].
    std::vector<CheckPlannedTask> tasks;
    for (std::size_t i = 0; i < fs.size(); ++i)
      tasks.push_back(planned_task(opts, st, sys0, *fs[i], fields[i].get(), report.progress || opts.jobs > 1));
    const std::vector<std::size_t> order = task_order(tasks, opts.jobs);
    std::vector<CheckPlannedTask> queue;
    for (std::size_t i : order) queue.push_back(tasks[i]);
    if (report.progress) report.progress->runs_started(precision, st.info.name, queue, opts.jobs);
    nhs::parallel_for(fs.size(), opts.jobs, [&](std::size_t k) {
      const std::size_t i = order[k];
      secs[i] = check_motions(opts, k, st, sys0, *fs[i], fields[i].get(), set, energy_reason, figs[i], report);
    });
    if (report.progress) report.progress->runs_ended();
    for (std::size_t i = 0; i < fs.size(); ++i) report.rows.push_back(make_row(st, *fs[i], figs[i], secs[i], set));
  }
  report.precision_seconds.emplace_back(precision, seconds_since(start));
}

/// UsageError naming the known precisions unless p is one of them (the
/// lists of `--precision` and CheckSpec::precisions).
void require_precision_name(const std::string& p) {
  const std::vector<std::string> names = precision_names();
  if (std::find(names.begin(), names.end(), p) == names.end())
    throw UsageError("unknown precision '" + p + "' (known: all, " + join(names) + ")");
}

}  // namespace

std::vector<std::string> parse_precision_list(const std::string& text) {
  const std::vector<std::string> names = precision_names();
  std::vector<std::string> selected;
  std::size_t item_start = 0;
  while (true) {
    const std::size_t comma = text.find(',', item_start);
    const std::string item = text.substr(item_start, comma == std::string::npos ? comma : comma - item_start);
    if (item == "all") {
      selected.insert(selected.end(), names.begin(), names.end());
    } else {
      require_precision_name(item);
      selected.push_back(item);
    }
    if (comma == std::string::npos) break;
    item_start = comma + 1;
  }
  std::vector<std::string> unique;
  for (const auto& p : selected)
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
  return unique;
}

bool CheckReport::pass() const {
  return !rows.empty() && std::all_of(rows.begin(), rows.end(), [](const CheckRow& r) { return r.pass; });
}

CheckReport run_checks(const CheckSpec& spec, CheckProgress* progress) {
  CheckSpec o = spec;
  if (o.jobs == 0) o.jobs = std::max(1u, std::thread::hardware_concurrency());
  if (o.jobs > kMaxJobs)
    throw UsageError("--jobs " + std::to_string(o.jobs) + ": at most " + std::to_string(kMaxJobs) +
                     " worker threads (one per core is the most that helps)");
  if (spec.states < 1) throw UsageError("--states must be at least 1");
  for (const auto& p : spec.precisions) require_precision_name(p);
  const auto wanted = [&](const char* name) {
    return std::find(spec.precisions.begin(), spec.precisions.end(), name) != spec.precisions.end();
  };
  // `nhs check FILE`: nothing it writes (or removes: an older report.md)
  // may be the system file.
  if (is_system_file_name(spec.system) && spec.write_trajectories)
    for (const char* name : {"summary.md", "summary.json", "report.md", "report.log"})
      refuse_overwriting(spec.system, (std::filesystem::path(spec.out_dir) / name).string(), "--out-dir");
  std::error_code ec;
  if (spec.write_trajectories)
    std::filesystem::create_directories(std::filesystem::path(spec.out_dir) / "trajectories", ec);
  if (ec) throw IoError("--out-dir: cannot create '" + spec.out_dir + "/trajectories': " + ec.message());

  const auto start = Clock::now();
  Report report;
  report.progress = progress;
  // In the order of NHS_FOR_EACH_SCALAR, lowest precision first.
#define NHS_VERIFICATION_CHECK_(T, NAME) \
  if (wanted(NAME)) verify_scalar<T>(o, report);
  NHS_FOR_EACH_SCALAR(NHS_VERIFICATION_CHECK_)
#undef NHS_VERIFICATION_CHECK_
  report.seconds = seconds_since(start);
  // The checks and runs in the order of their rows (the worker threads'
  // order is not kept), stably.
  const auto row_index = [&](const std::string& st, const std::string& f, const std::string& p) {
    for (std::size_t i = 0; i < report.rows.size(); ++i)
      if (report.rows[i].study == st && report.rows[i].formulation == f && report.rows[i].precision == p) return i;
    return report.rows.size();
  };
  const auto in_row_order = [&](auto& v) {
    std::stable_sort(v.begin(), v.end(), [&](const auto& a, const auto& b) {
      return row_index(a.study, a.formulation, a.precision) < row_index(b.study, b.formulation, b.precision);
    });
  };
  in_row_order(report.checks);
  in_row_order(report.runs);
  return static_cast<CheckReport&&>(report);
}

}  // namespace nhs
