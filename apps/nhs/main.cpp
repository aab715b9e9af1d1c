// nhs: the command-line tool. Parses the command line with CLI11 and
// dispatches to the commands (list.cpp, accel.cpp, run.cpp, verify.cpp,
// check_report.cpp, sweep.cpp, equations.cpp, worksheet.cpp, animate.cpp);
// maps the library's typed errors to exit codes with one line on stderr.
#include "cli.hpp"
#include "sweep.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace nhs::cli {

namespace {

// Options that always take one value. A value starting with '-' followed by
// a digit or '.' ("--q -.5,1", "--t-end -1") is glued to its option
// ("--q=-.5,1") before CLI11 sees it, so that it is never taken for an option.
const std::set<std::string> kValueOptions = {
    "--formulation", "--precision", "--param", "--q",      "--qdot",      "--manifold-tol",
    "--t-end",       "--dt-out",    "--rtol",  "--atol",   "--stepper",   "--max-rhs-calls", "--step",
    "--max-rows",
    "--out",         "--out-dir",   "--states", "--z", "--singular-margin", "--motion", "--t", "--t0"};

std::vector<std::string> glue_negative_values(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (kValueOptions.count(a) && i + 1 < argc) {
      const std::string next = argv[i + 1];
      if (next.size() >= 2 && next[0] == '-' &&
          ((next[1] >= '0' && next[1] <= '9') || next[1] == '.')) {
        args.push_back(a + "=" + next);
        ++i;
        continue;
      }
    }
    args.push_back(a);
  }
  return args;
}

void add_state_options(CLI::App* cmd, StateOptions& o) {
  cmd->add_option("STUDY", o.study, "study id (see `nhs list`)")->required();
  cmd->add_option("--formulation", o.formulation,
                  "formulation (see `nhs list`); default second-kind, udwadia-kalaba where g is "
                  "only semidefinite");
  cmd->add_option("--precision", o.precision, "scalar type: " + join(precision_names()))
      ->capture_default_str();
  cmd->add_option("--param", o.params, "parameter override name=value (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--q", o.q, "coordinates q, comma-separated (default: the study's state)");
  cmd->add_option("--qdot", o.qdot, "velocities qdot, comma-separated");
  cmd->add_option("--z", o.z,
                  "with --q, instead of --qdot: the first-kind parameters z (qdot = psi(q, z); "
                  "see `nhs list` for each study's z)");
  // One field backend (StateOptions::field); a second one is a UsageError.
  cmd->add_flag_callback("--library", [&o] { request_field(o.field, FieldBackend::library, "--library"); },
                "the library's formulation instead of the generated code (a built-in study) or a "
                "system file's traced field (the defaults, for second-kind, first-kind and gibbs-appell)");
  cmd->add_flag_callback("--compiled", [&o] { request_field(o.field, FieldBackend::compiled, "--compiled"); },
                "a system file's traced field compiled at run time by the C++ compiler ($NHS_CXX, $CXX or "
                "the one nhs was built with; cached in $XDG_CACHE_HOME/nhs/compiled) instead of interpreted; "
                "double and long-double only");
  cmd->add_flag_callback("--generated", [&o] { request_field(o.field, FieldBackend::generated, "--generated"); },
                "evaluate the formulation (second-kind, first-kind or gibbs-appell) by the code generated for "
                "the study (any precision; nhs/generated.hpp; the default of accel and run where the study has it)");
  cmd->add_option("--singular-margin", o.singular_margin,
                  "refuse states (and stop runs) within this margin of a singular set: "
                  "sigma_min(dC/dqdot) and the study's own (default: accel 100 eps, run 1e-6)");
  cmd->add_option("--manifold-tol", o.manifold_tol,
                  "admission tolerance for max|C| relative to 1 + |qdot|^2 (default 1e-10)");
}

// `nhs linearize` and `nhs stability` (linearize.cpp): their options.
void add_linearize_options(CLI::App* cmd, LinearizeOptions& o) {
  cmd->add_option("SYSTEM", o.system, "system file (docs/system-files.md) or study id")->required();
  cmd->add_option("--steady", o.steady, "the family of steady motions ([[steady]]; `nhs list SYSTEM` names them)")
      ->required();
  cmd->add_option("--formulation", o.formulation,
                  "first-kind or gibbs-appell: the field on C in (q, z), differentiated")
      ->capture_default_str();
  cmd->add_option("--precision", o.precision, "double, long-double, float128, mp50, mp100")->capture_default_str();
  cmd->add_option("--param", o.params, "parameter override name=value (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// A command: its CLI11 subcommand and what runs it once it is parsed (its
// exit code). The options it fills live in CommandOptions.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

// Every command's options, alive from the parse to the run; `line` is the
// command line as typed ("nhs sweep ..."), which some outputs quote.
struct CommandOptions {
  std::string line;
  std::string list_system;
  AccelOptions accel;
  RunOptions run;
  AnimateOptions animate;
  VerifyOptions verify;
  VerifyOptions check;
  FindingsOptions findings;
  EquationsOptions equations;
  WorksheetOptions worksheet;
  LinearizeOptions linearize;
  StabilityOptions stability;
  SweepOptions sweep;
};

Command add_list_command(CLI::App& app, CommandOptions& o) {
  auto* cmd = app.add_subcommand(
      "list", "studies, formulations and precisions, one line each; with SYSTEM, that system in "
              "detail (names, linear constraints, which formulations apply)");
  cmd->add_option("SYSTEM", o.list_system, "a system file or study id");
  return {cmd, [&o] { return o.list_system.empty() ? list_command() : list_system_command(o.list_system); }};
}

Command add_accel_command(CLI::App& app, CommandOptions& o) {
  auto* cmd = app.add_subcommand("accel", "accelerations (and multipliers, reaction) at a state, as JSON");
  add_state_options(cmd, o.accel);
  cmd->add_option("--t", o.accel.t,
                  "the time t of the state, for a system that depends on t (its clock coordinate; then --q and "
                  "--qdot may leave the clock out); default: q's clock entry, or 0");
  cmd->add_flag("--jacobian", o.accel.jacobian,
                "also the Jacobian of the first-order field at the state, by forward differentiation of the "
                "traced field (second-kind: x = (q, qdot); first-kind, gibbs-appell: x = (q, z))");
  return {cmd, [&o] { return with_scalar(o.accel.precision, [&]<class S>() { return accel_command<S>(o.accel); }); }};
}

// The options of a run that `run` and `animate` share (all but --dt-out and --out).
void add_run_options(CLI::App* cmd, RunOptions& run) {
  add_state_options(cmd, run);
  run.t_option = "--t0";
  cmd->add_option("--t0", run.t,
                  "the time t at the start, for a system that depends on t (its clock coordinate; the t column "
                  "stays the time since the start); default: q's clock entry, or 0");
  cmd->add_option("--t-end", run.t_end, "final time (default 10, or the motion's with --motion)");
  cmd->add_option("--motion", run.motion,
                  "run a special motion (`nhs list SYSTEM` names them; name or 1-based number): its "
                  "parameters, initial state and t_end, with the CSV column error against it");
  cmd->add_option("--rtol", run.rtol,
                  "relative tolerance (default: 1e-12 double, 1e-15 long-double, 1e-30 float128, "
                  "1e-45 mp50, 1e-95 mp100)");
  cmd->add_option("--atol", run.atol, "absolute tolerance (default = rtol default)");
  cmd->add_option("--stepper", run.stepper,
                  "auto, " + join(stepper_names()) +
                      " (auto: in double and long-double verner87 at rtol <= 1e-7, dopri5 "
                      "above; bulirsch-stoer in float128, mp50, mp100; dla, nh-rattle, nh-midpoint: the fixed-step "
                      "discrete Lagrange-d'Alembert methods, linear constraints only, see --step)")
      ->capture_default_str();
  cmd->add_option("--step", run.step,
                  "the fixed step of dla, nh-rattle and nh-midpoint: each output interval in the fewest equal steps "
                  "not longer than this (default 0.01)");
  cmd->add_option("--max-rhs-calls", run.max_rhs_calls, "fail (exit 4) after this many vector-field evaluations");
  cmd->add_option("--max-wall-time", run.max_wall_time,
                  "stop (exit 4, rows kept) once the run has taken this many seconds of wall time");
  run.max_rows = std::to_string(kMaxOutputRows);
  cmd->add_option("--max-rows", run.max_rows,
                  "refuse (exit 2), before running, a grid of more output rows than this "
                  "(t-end / dt-out + 1; docs/cli.md, \"Output budget\")")
      ->capture_default_str();
  cmd->add_flag("--project", run.project, "project qdot back onto C after every accepted step (positions kept)");
}

Command add_run_command(CLI::App& app, CommandOptions& o) {
  RunOptions& run = o.run;
  auto* cmd = app.add_subcommand("run", "integrate a motion; CSV to stdout or --out");
  add_run_options(cmd, run);
  cmd->add_option("--dt-out", run.dt_out, "output spacing")->capture_default_str();
  auto* out = cmd->add_option("--out", run.out, "CSV file (default: stdout)");
  cmd->add_flag("--poses", run.poses,
                "also the bodies' poses (<body>_x, _y, _z, <body>_R11 ... _R33) and the contact points "
                "(<contact>_point_x, ...) as columns (docs/animation.md)");
  return {cmd, [&run, out] {
            run.out_given = out->count() > 0;
            return with_scalar(run.precision, [&]<class S>() { return run_command<S>(run); });
          }};
}

Command add_animate_command(CLI::App& app, CommandOptions& o) {
  AnimateOptions& a = o.animate;
  auto* cmd = app.add_subcommand(
      "animate", "run a motion and write it as a 3-D animation that opens offline in a browser: DIR/index.html "
                 "with three.js (docs/animation.md)");
  add_run_options(cmd, a);
  cmd->add_option("--out", a.out, "the directory to write: index.html, data.js, three.min.js, OrbitControls.js")
      ->required();
  cmd->add_option("--fps", a.fps, "samples per unit of simulated time")->capture_default_str();
  cmd->add_option("--three", a.three, "three.js r111's directory (three.min.js, examples/js/controls/)")
      ->capture_default_str();
  return {cmd, [&o] {
            return with_scalar(o.animate.precision, [&]<class S>() { return animate_command<S>(o.animate, o.line); });
          }};
}

// `nhs verify` and `nhs check` share their options but for SYSTEM and --no-report.
void add_check_options(CLI::App* cmd, VerifyOptions& o, const std::string& out_dir_help) {
  cmd->add_option("--precision", o.precision, "all, or comma-separated: " + join(precision_names()))
      ->capture_default_str();
  auto* out_dir = cmd->add_option("--out-dir", o.out_dir, out_dir_help);
  if (!o.out_dir.empty()) out_dir->capture_default_str();
}

Command add_verify_command(CLI::App& app, CommandOptions& o) {
  VerifyOptions& verify = o.verify;
  auto* cmd = app.add_subcommand(
      "verify", "the main job: every study x formulation x precision against each other, the "
                "analytic solutions and the invariants");
  add_check_options(cmd, verify, "where summary.md and the CSVs go");
  cmd->add_option("--states", verify.states, "random regular states per study")->capture_default_str();
  cmd->add_flag("--quick", verify.quick, "10 states, runs cut at t = 2 (a smoke test, not the full check)");
  cmd->add_option("--jobs", verify.jobs, "worker threads for the integrations (0: one per core)")
      ->capture_default_str();
  return {cmd, [&verify] {
            if (verify.out_dir.empty()) throw UsageError("--out-dir: empty directory name");
            return verify_command(verify);
          }};
}

Command add_check_command(CLI::App& app, CommandOptions& o) {
  VerifyOptions& check = o.check;
  check.precision = "double,mp50";
  check.out_dir.clear();
  auto* cmd = app.add_subcommand(
      "check", "`nhs verify` for one system (a system file or a study id): its formulations "
               "against each other at random states, its [[exact]] motions, energy and invariants");
  cmd->add_option("SYSTEM", check.system, "system file (docs/system-files.md) or study id")->required();
  add_check_options(cmd, check, "where summary.md and the CSVs go (default: runs/check/<system name>)");
  cmd->add_option("--states", check.states, "random regular states")->capture_default_str();
  cmd->add_flag("--quick", check.quick, "10 states, runs cut at t = 2");
  cmd->add_option("--jobs", check.jobs, "worker threads for the integrations (0: one per core)")
      ->capture_default_str();
  cmd->add_flag("--no-report", check.no_report,
                "do not run check_report.py (report.md and figures/ from summary.json and "
                "the trajectories; needs python3, figures python3-matplotlib)");
  return {cmd, [&check, cmd] {
            if (check.out_dir.empty()) {
              if (cmd->get_option("--out-dir")->count() > 0) throw UsageError("--out-dir: empty directory name");
              // The system's id: a file's `name` (default: its stem).
              check.out_dir = "runs/check/" + find_study<double>(check.system).info.name;
            }
            return verify_command(check);
          }};
}

Command add_findings_command(CLI::App& app, CommandOptions& o) {
  FindingsOptions& findings = o.findings;
  auto* cmd = app.add_subcommand(
      "findings", "the bipendulum's findings as CSV for the report: epsilon-limit of the circle "
                  "(eq. 89), linear vs non-linear (Hertz), symmetric motion vs pendulum, digits "
                  "near the singular set, energy separation");
  cmd->add_option("--out-dir", findings.out_dir, "the CSVs go to <out-dir>/studies/")->capture_default_str();
  cmd->add_flag("--quick", findings.quick, "fewer epsilons and a shorter mp50 run");
  return {cmd, [&findings] {
            if (findings.out_dir.empty()) throw UsageError("--out-dir: empty directory name");
            return findings_command(findings);
          }};
}

// --max-derivation-size of `equations` and `worksheet` (docs/equations.md, "Limits").
void add_derivation_budget_option(CLI::App* cmd, double& budget) {
  cmd->add_option("--max-derivation-size", budget,
                  "refuse a system whose estimated derivation size (n^2 x traced nodes) is larger "
                  "(default 4e5, about 2 GB; docs/equations.md, \"Limits\")")
      ->check(CLI::PositiveNumber);
}

Command add_equations_command(CLI::App& app, CommandOptions& o) {
  EquationsOptions& equations = o.equations;
  auto* cmd = app.add_subcommand(
      "equations", "every formulation's equations of motion, symbolic in the parameters, as text, LaTeX, "
                   "sympy or Markdown (docs/equations.md)");
  cmd->add_option("SYSTEM", equations.system, "system file (docs/system-files.md) or study id")->required();
  cmd->add_option("--formulation", equations.formulations,
                  "a formulation (repeatable; default: every one that applies)");
  cmd->add_option("--format", equations.format, "text, latex, sympy or markdown")->capture_default_str();
  cmd->add_flag("--classify", equations.classify,
                "the constraint classification of `nhs list SYSTEM` first, as comments");
  auto* out = cmd->add_option("--out", equations.out, "write to this file instead of stdout");
  add_derivation_budget_option(cmd, equations.max_derivation_size);
  cmd->add_flag("--prove", equations.prove,
                "instead of the equations, show symbolically that the formulations agree: a table, one "
                "pair a row (docs/equations.md, \"Proofs\")");
  return {cmd, [&o, out] {
            if (out->count() > 0 && o.equations.out.empty()) throw UsageError("--out: empty file name");
            return equations_command(o.equations, o.line);
          }};
}

Command add_worksheet_command(CLI::App& app, CommandOptions& o) {
  WorksheetOptions& worksheet = o.worksheet;
  auto* cmd = app.add_subcommand(
      "worksheet", "one HTML page (MathJax, no network) and its Markdown version with the system's data, "
                   "classification, every formulation's equations and the symbolic cross-checks "
                   "(docs/equations.md, \"Worksheet\")");
  cmd->add_option("SYSTEM", worksheet.system, "system file (docs/system-files.md) or study id")->required();
  cmd->add_option("--out", worksheet.out, "the directory to write: index.html, worksheet.md, mathjax/")->required();
  cmd->add_option("--formulation", worksheet.formulations,
                  "a formulation (repeatable; default: every one that applies)");
  cmd->add_option("--mathjax", worksheet.mathjax, "MathJax 2's directory, copied into the page's")
      ->capture_default_str();
  cmd->add_option("--three", worksheet.three, "three.js r111's directory, for the animation of a system with bodies")
      ->capture_default_str();
  cmd->add_flag("--no-animation", worksheet.no_animation,
                "do not draw the default motion of a system with bodies (DIR/animation, docs/animation.md)");
  add_derivation_budget_option(cmd, worksheet.max_derivation_size);
  return {cmd, [&o] { return worksheet_command(o.worksheet, o.line); }};
}

// --at name=value (repeatable): the family's parameters of linearize and stability.
void add_at_option(CLI::App* cmd, std::vector<std::string>& at, const std::string& help) {
  cmd->add_option("--at", at, help)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

Command add_linearize_command(CLI::App& app, CommandOptions& o) {
  auto* cmd = app.add_subcommand(
      "linearize", "the linear stability of a steady motion: the Jacobian of the field on C, its ignorable "
                   "coordinates, and the eigenvalues off the family, as JSON (docs/linearization.md)");
  add_linearize_options(cmd, o.linearize);
  add_at_option(cmd, o.linearize.at, "the family's parameters, name=value (repeatable)");
  LinearizeOptions& l = o.linearize;
  cmd->add_option("--animate", l.animate, "also write the steady motion with an eigenvector superposed as a 3-D "
                                          "animation in this directory (docs/animation.md)");
  cmd->add_option("--mode", l.mode, "--animate: the eigenvalue K, 1-based as printed (default: the growing or "
                                    "least damped oscillation)");
  cmd->add_option("--fps", l.fps, "--animate: samples per unit of time")->capture_default_str();
  cmd->add_option("--epsilon", l.epsilon, "--animate: the mode's amplitude (default: 0.2 rad or 10% of the "
                                          "scene's largest length at the largest excursion)");
  cmd->add_option("--three", l.three, "--animate: three.js r111's directory")->capture_default_str();
  return {cmd, [&o] {
            return with_scalar(o.linearize.precision, [&]<class S>() { return linearize_command<S>(o.linearize, o.line); });
          }};
}

Command add_stability_command(CLI::App& app, CommandOptions& o) {
  StabilityOptions& stability = o.stability;
  auto* cmd = app.add_subcommand(
      "stability", "the eigenvalues of steady motions along a family (CSV) and the values where a real part "
                   "changes sign, refined by root finding (JSON; docs/linearization.md)");
  add_linearize_options(cmd, stability);
  cmd->add_option("--vary", stability.vary, "the family parameter to vary (default: its only one)");
  cmd->add_option("--from", stability.from, "the first value")->required();
  cmd->add_option("--to", stability.to, "the last value")->required();
  cmd->add_option("--points", stability.points,
                  "grid points, evenly spaced (at most " + std::to_string(kMaxStabilityPoints) + "; exit 2 beyond)")
      ->capture_default_str();
  cmd->add_option("--max-wall-time", stability.max_wall_time,
                  "stop (exit 4, the CSV rows so far kept) once the scan has taken this many seconds of wall time");
  add_at_option(cmd, stability.at, "the other family parameters, name=value (repeatable)");
  cmd->add_option("--csv", stability.csv, "write the eigenvalues along the family to this file");
  return {cmd, [&stability] {
            return with_scalar(stability.precision, [&]<class S>() { return stability_command<S>(stability); });
          }};
}

Command add_sweep_command(CLI::App& app, CommandOptions& o) {
  SweepOptions& sweep = o.sweep;
  auto* cmd = app.add_subcommand(
      "sweep", "run every case of a sweep spec (parameters, initial states, run options) with one row of "
               "metrics per case, on threads or MPI ranks (docs/sweeps.md)");
  cmd->add_option("SYSTEM", sweep.system, "system file (docs/system-files.md) or study id")->required();
  cmd->add_option("SPEC", sweep.spec, "the sweep spec, TOML (docs/sweeps.md)")->required();
  auto* out = cmd->add_option("--out", sweep.out, "output directory: cases.csv, cases.jsonl, sweep.json");
  cmd->add_flag("--dry-run", sweep.dry_run,
                "check the spec and print its cases (number and axis values, CSV) without running them");
  cmd->add_option("--jobs", sweep.jobs, "threads (0: one per core); under mpirun, one case per rank")
      ->capture_default_str();
  cmd->add_flag("--restart", sweep.restart,
                "discard the rows in --out and start again (default: resume, skipping the cases done)");
  return {cmd, [&o, out] {
            if (!o.sweep.dry_run && out->count() == 0)
              throw UsageError("nhs sweep: --out DIR is required (or --dry-run)");
            return sweep_command(o.sweep, o.line);
          }};
}

// Parses the command line into one command's options and runs it: its exit
// code, or 2 on a usage error that CLI11 reports (docs/cli.md, "Exit codes").
int run_main(int argc, char** argv) {
  CLI::App app{"nhs: dynamics of non-holonomic mechanical systems"};
  app.name("nhs");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every command");
  CommandOptions o;
  o.line = "nhs";
  for (int i = 1; i < argc; ++i) o.line += std::string(" ") + argv[i];
  const std::vector<Command> commands = {
      add_list_command(app, o),      add_accel_command(app, o),     add_run_command(app, o),
      add_verify_command(app, o),    add_check_command(app, o),     add_findings_command(app, o),
      add_equations_command(app, o), add_worksheet_command(app, o), add_linearize_command(app, o),
      add_stability_command(app, o), add_sweep_command(app, o),     add_animate_command(app, o)};

  std::vector<std::string> args = glue_negative_values(argc, argv);
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    std::vector<std::string> names;
    for (const Command& c : commands) names.push_back(c.app->get_name());
    if (std::find(names.begin(), names.end(), args[0]) == names.end())
      throw UsageError("unknown command '" + args[0] + "' (known: " + join(names) + ")");
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "nhs: error: %s (see nhs --help)\n", e.what());
    return 2;
  }
  for (const Command& c : commands)
    if (c.app->parsed()) return c.run();
  return 2;
}

}  // namespace
}  // namespace nhs::cli

int main(int argc, char** argv) {
  try {
    const int code = nhs::cli::run_main(argc, argv);
    nhs::cli::flush_stdout();
    return code;
  } catch (...) {
    return nhs::cli::report_error(std::current_exception());
  }
}
