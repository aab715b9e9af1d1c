// Work-precision: for every study with analytic special motions
// (Study::special_motions(), docs/special-motions.md), the error at the motion's
// t_end (20 for all motions used here) against the cost (RHS evaluations,
// accepted steps, wall time) over a tolerance sweep, for each formulation
// (negative controls and formulations the motion excludes left out) x each
// stepper (dopri5, fehlberg78, verner87, bulirsch-stoer), integrated with
// nhs::integrate from the motion's exact initial state. Error: max-norm of
// (q, qdot) - closed form at t_end. rtol = atol = tol.
//
//   ./build/bench/work_precision --quick   # double, tol 1e-6, 1e-8, 1e-10, 1e-12;
//                                          # one motion per study (the longest)
//   ./build/bench/work_precision           # full: double 1e-6 ... 1e-13 (every
//                                          # decade), mp50 1e-15 ... 1e-45 (every 5
//                                          # decades), every special motion
//   options: --out FILE (reports/bench/work_precision.json), --jobs N (2),
//            --precision double|mp50|all, --study NAME (repeatable),
//            --stepper NAME (repeatable: dopri5, fehlberg78, verner87, bulirsch-stoer),
//            --max-rhs-calls N (per run; default 2e6 double, 3e5 mp50),
//            --longest-motion (one motion per study, the longest, as
//            --quick does, with the full tolerance sweeps: the mp50 sweep
//            over every motion takes hours on one core)
//
// A run that exceeds --max-rhs-calls is recorded with its status, and the
// tighter tolerances of the same study x motion x formulation x stepper
// are then skipped (recorded as skipped): dopri5 cannot reach 1e-40 in
// mp50 in practice (docs/numerics.md). The JSON is rewritten after every
// finished run.
#include "bench_util.hpp"

#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/studies/all.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
namespace bench = nhs::bench;

struct Config {
  bool quick = false;
  bool longest_motion = false;  // --longest-motion (implied by --quick)
  unsigned jobs = 2;
  std::vector<std::string> only_studies;
  std::vector<nhs::Stepper> only_steppers;  // --stepper NAME (repeatable); empty: every stepper
  std::uint64_t max_rhs_double = 2000000, max_rhs_mp = 300000;
  bool max_rhs_given = false;
  std::uint64_t max_rhs = 0;
};

template <class S>
S pow10(int e) {
  S x(1);
  for (int i = 0; i < (e < 0 ? -e : e); ++i) x = e < 0 ? x / S(10) : x * S(10);
  return x;
}

template <class S>
struct Job {
  const nhs::Study<S>* study;
  std::size_t motion;
  const nhs::Formulation<S>* formulation;
  nhs::Stepper stepper;
};

template <class S>
void sweep(const Config& cfg, const std::vector<int>& exponents, bench::JsonLog& log,
           json& skipped) {
  const std::string precision(nhs::ScalarName<S>::value);
  const std::uint64_t max_rhs =
      cfg.max_rhs_given ? cfg.max_rhs : (std::is_same_v<S, double> ? cfg.max_rhs_double : cfg.max_rhs_mp);
  std::vector<Job<S>> todo;
  for (const auto& st : nhs::studies<S>()) {
    if (!cfg.only_studies.empty() &&
        std::find(cfg.only_studies.begin(), cfg.only_studies.end(), st.info.name) ==
            cfg.only_studies.end())
      continue;
    const auto motions = st.special_motions();
    if (motions.empty()) continue;
    std::vector<std::size_t> chosen;
    if (cfg.quick || cfg.longest_motion) {  // the longest motion (the first of them)
      std::size_t best = 0;
      for (std::size_t m = 1; m < motions.size(); ++m)
        if (motions[m].t_end > motions[best].t_end) best = m;
      chosen.push_back(best);
    } else {
      for (std::size_t m = 0; m < motions.size(); ++m) chosen.push_back(m);
    }
    for (std::size_t m : chosen) {
      const nhs::System<S> sys = st.build(motions[m].parameters);
      for (const auto& f : nhs::formulations<S>()) {
        std::string why =
            f->is_negative_control() ? "negative control" : f->not_applicable_reason(sys);
        if (why.empty() && motions[m].excluded.count(f->name()))
          why = motions[m].excluded.at(f->name());
        if (!why.empty()) {
          skipped.push_back({{"study", st.info.name},
                             {"motion", motions[m].name},
                             {"formulation", f->name()},
                             {"precision", precision},
                             {"reason", why}});
          continue;
        }
        for (const nhs::Stepper stepper : nhs::kSteppers)
          if (cfg.only_steppers.empty() || std::count(cfg.only_steppers.begin(), cfg.only_steppers.end(), stepper))
            todo.push_back({&st, m, f.get(), stepper});
      }
    }
  }

  bench::parallel_for(todo.size(), cfg.jobs, [&](std::size_t i) {
    const Job<S>& job = todo[i];
    const auto motions = job.study->special_motions();
    const nhs::SpecialMotion<S>& mo = motions[job.motion];
    const nhs::System<S> sys = job.study->build(mo.parameters);
    const nhs::State<S> exact = mo.exact(mo.t_end);
    bool capped = false;
    for (int e : exponents) {
      json r = {{"study", job.study->info.name},
                {"motion", mo.name},
                {"formulation", job.formulation->name()},
                {"precision", precision},
                {"stepper", nhs::stepper_name(job.stepper)},
                {"tol", "1e" + std::to_string(e)},
                {"log10_tol", e},
                {"t_end", static_cast<double>(mo.t_end)}};
      if (capped) {
        r["status"] = "skipped: a looser tolerance exceeded the RHS budget";
        log.add(std::move(r));
        continue;
      }
      nhs::IntegrationOptions<S> io;
      io.t_end = mo.t_end;
      io.dt_out = mo.t_end;
      io.rtol = io.atol = pow10<S>(e);
      io.stepper = job.stepper;
      io.max_rhs_calls = max_rhs;
      nhs::IntegrationStats stats;
      S err(-1);
      const auto t0 = bench::Clock::now();
      try {
        nhs::integrate<S>(
            sys, *job.formulation, mo.initial.q, mo.initial.qdot, io,
            [&](const nhs::Sample<S>& s) {
              if (s.t != mo.t_end) return;
              using std::max;
              err = max(S((s.q - exact.q).cwiseAbs().maxCoeff()),
                        S((s.qdot - exact.qdot).cwiseAbs().maxCoeff()));
            },
            &stats);
        r["status"] = "ok";
      } catch (const nhs::IntegrationFailure& ex) {
        r["status"] = std::string("failed: ") + ex.what();
        capped = true;
      } catch (const std::exception& ex) {
        r["status"] = std::string("failed: ") + ex.what();
      }
      r["wall_s"] = bench::seconds_since(t0);
      r["error"] = err >= 0 ? bench::number(static_cast<double>(err)) : json(nullptr);
      r["rhs_calls"] = stats.rhs_calls;
      r["steps"] = stats.steps;
      std::cerr << "work_precision: " << r["study"].get<std::string>() << " "
                << r["formulation"].get<std::string>() << " " << precision << " " << nhs::stepper_name(job.stepper)
                << " tol 1e" << e << ": error " << r["error"] << ", " << stats.rhs_calls
                << " RHS calls, " << r["wall_s"] << " s"
                << (r["status"] == "ok" ? "" : " (" + r["status"].get<std::string>() + ")") << "\n";
      log.add(std::move(r));
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  std::string out = "reports/bench/work_precision.json";
  std::string precision = "all";
  std::string command = "work_precision";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    command += " " + a;
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "work_precision: " << a << " needs a value\n";
        std::exit(2);
      }
      command += std::string(" ") + argv[i + 1];
      return argv[++i];
    };
    if (a == "--quick") {
      cfg.quick = true;
    } else if (a == "--longest-motion") {
      cfg.longest_motion = true;
    } else if (a == "--out") {
      out = value();
    } else if (a == "--jobs") {
      cfg.jobs = static_cast<unsigned>(std::stoul(value()));
    } else if (a == "--precision") {
      precision = value();
    } else if (a == "--study") {
      cfg.only_studies.push_back(value());
    } else if (a == "--stepper") {
      const std::string name = value();
      try {
        const nhs::Stepper s = nhs::parse_stepper(name);
        if (s == nhs::Stepper::automatic) throw nhs::UsageError("--stepper names one stepper, not auto");
        cfg.only_steppers.push_back(s);
      } catch (const nhs::UsageError& e) {
        std::cerr << "work_precision: " << e.what() << "\n";
        return 2;
      }
    } else if (a == "--max-rhs-calls") {
      cfg.max_rhs_given = true;
      cfg.max_rhs = std::stoull(value());
    } else {
      std::cerr << "usage: work_precision [--quick] [--out FILE] [--jobs N] "
                   "[--precision double|mp50|all] [--study NAME]... [--stepper NAME]... "
                   "[--max-rhs-calls N] [--longest-motion]\n";
      return a == "--help" ? 0 : 2;
    }
  }
  if (cfg.quick && precision == "all") precision = "double";
  if (precision != "all" && precision != "double" && precision != "mp50") {
    std::cerr << "work_precision: --precision must be double, mp50 or all\n";
    return 2;
  }
  const std::vector<int> double_tols =
      cfg.quick ? std::vector<int>{-6, -8, -10, -12} : std::vector<int>{-6, -7, -8, -9, -10, -11, -12, -13};
  const std::vector<int> mp_tols = cfg.quick ? std::vector<int>{-15, -25}
                                             : std::vector<int>{-15, -20, -25, -30, -35, -40, -45};
  json skipped = json::array();
  bench::JsonLog log(out, {{"command", command},
                           {"generated", bench::utc_now()},
                           {"quick", cfg.quick},
                           {"longest_motion_only", cfg.quick || cfg.longest_motion},
                           {"error", "max-norm of (q, qdot) minus the closed form at t_end"},
                           {"tolerance", "rtol = atol = tol"},
                           {"max_rhs_calls", {{"double", cfg.max_rhs_given ? cfg.max_rhs : cfg.max_rhs_double},
                                              {"mp50", cfg.max_rhs_given ? cfg.max_rhs : cfg.max_rhs_mp}}}});
  const auto t0 = bench::Clock::now();
  if (precision == "all" || precision == "double") sweep<double>(cfg, double_tols, log, skipped);
  if (precision == "all" || precision == "mp50") sweep<nhs::mp50>(cfg, mp_tols, log, skipped);
  log.set("skipped", skipped);
  log.set("wall_s", bench::seconds_since(t0));
  std::cerr << "work_precision: wrote " << out << " (" << bench::seconds_since(t0) << " s)\n";
  return 0;
}
