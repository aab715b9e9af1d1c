// Constraint drift: max |C| and the energy error max |E - E0| along the
// motion from each study's default state (default parameters), for every
// study x formulation (negative controls and formulations that cannot follow
// the default motion left out, with the reason), in double with the default
// tolerance (rtol = atol = 1e-12) and the default stepper (dopri5), without
// and with the projection onto C after every step
// (IntegrationOptions::project). Each run also keeps a series of |C| and
// |E - E0| at `--samples` evenly spaced times for the report's figures.
//
//   ./build/bench/drift                      # full: t = 1e4 (see reports/README.md for the cost)
//   ./build/bench/drift --quick              # t = 100 (the quick report)
//   options: --t-end T, --out FILE (reports/bench/drift.json), --jobs N (2),
//            --samples N (200), --study NAME, --formulation NAME (repeatable)
//
// Output: JSON {"command", "generated", "t_end", "rtol", "runs": [...]}, one
// run per study x formulation x projection, rewritten after every finished
// run; a run that fails keeps its figures up to the failure, with "status".
#include "bench_util.hpp"

#include "nhs/derivatives.hpp"
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

struct Job {
  const nhs::Study<double>* study;
  const nhs::Formulation<double>* formulation;
  bool project;
};

json run_one(const Job& job, double t_end, int samples) {
  const nhs::Study<double>& st = *job.study;
  const nhs::System<double> sys = st.build(st.default_parameters());
  const nhs::State<double> x0 = st.default_state(sys);
  nhs::IntegrationOptions<double> io;
  io.t_end = t_end;
  io.dt_out = t_end / samples;
  io.project = job.project;
  nhs::IntegrationStats stats;
  double E0 = 0, max_C = 0, energy_error = 0, energy_scale = 0, t_last = 0;
  std::vector<double> ts, Cs, Es;
  std::string status = "ok";
  const auto t0 = bench::Clock::now();
  try {
    nhs::integrate<double>(
        sys, *job.formulation, x0.q, x0.qdot, io,
        [&](const nhs::Sample<double>& s) {
          const double T = sys.kinetic_energy(s.q, s.qdot), V = sys.potential(s.q);
          if (ts.empty()) E0 = T + V;
          const nhs::Vec<double> C = nhs::constraint_residuals(sys, s.q, s.qdot);
          const double c = C.size() ? C.cwiseAbs().maxCoeff() : 0.0;
          const double e = std::abs(T + V - E0);
          max_C = std::max(max_C, c);
          energy_error = std::max(energy_error, e);
          energy_scale = std::max(energy_scale, std::abs(T) + std::abs(V));
          t_last = s.t;
          ts.push_back(s.t);
          Cs.push_back(c);
          Es.push_back(e);
        },
        &stats);
  } catch (const std::exception& e) {
    status = std::string("failed: ") + e.what();
  }
  json r;
  r["study"] = st.info.name;
  r["formulation"] = job.formulation->name();
  r["precision"] = "double";
  r["stepper"] = std::string(nhs::stepper_name(stats.stepper));
  r["project"] = job.project;
  r["t_end"] = t_end;
  r["t_reached"] = t_last;
  r["max_C"] = bench::number(max_C);
  r["energy_error"] = bench::number(energy_error);
  r["energy_scale"] = bench::number(energy_scale);
  r["energy_conserved"] = st.energy_is_conserved(sys);
  r["rhs_calls"] = stats.rhs_calls;
  r["steps"] = stats.steps;
  r["projections"] = stats.projections;
  r["wall_s"] = bench::seconds_since(t0);
  r["status"] = status;
  r["series"] = {{"t", ts}, {"C", Cs}, {"energy_error", Es}};
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  double t_end = 1e4;
  std::string out = "reports/bench/drift.json";
  unsigned jobs = 2;
  int samples = 200;
  bool quick = false;
  std::vector<std::string> only_studies, only_formulations;
  std::string command = "drift";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    command += " " + a;
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "drift: " << a << " needs a value\n";
        std::exit(2);
      }
      command += std::string(" ") + argv[i + 1];
      return argv[++i];
    };
    if (a == "--quick") {
      quick = true;
      t_end = 100;
    } else if (a == "--t-end") {
      t_end = std::stod(value());
    } else if (a == "--out") {
      out = value();
    } else if (a == "--jobs") {
      jobs = static_cast<unsigned>(std::stoul(value()));
    } else if (a == "--samples") {
      samples = std::stoi(value());
    } else if (a == "--study") {
      only_studies.push_back(value());
    } else if (a == "--formulation") {
      only_formulations.push_back(value());
    } else {
      std::cerr << "usage: drift [--quick] [--t-end T] [--out FILE] [--jobs N] [--samples N] "
                   "[--study NAME]... [--formulation NAME]...\n";
      return a == "--help" ? 0 : 2;
    }
  }
  if (!(t_end > 0) || samples < 1) {
    std::cerr << "drift: --t-end and --samples must be positive\n";
    return 2;
  }
  const auto wanted = [](const std::vector<std::string>& list, const std::string& name) {
    return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
  };

  std::vector<Job> todo;
  json skipped = json::array();
  for (const auto& st : nhs::studies<double>()) {
    if (!wanted(only_studies, st.info.name)) continue;
    const nhs::System<double> sys = st.build(st.default_parameters());
    for (const auto& f : nhs::formulations<double>()) {
      if (!wanted(only_formulations, f->name())) continue;
      std::string why = f->is_negative_control() ? "negative control" : f->not_applicable_reason(sys);
      if (why.empty() && st.default_run_excluded.count(f->name()))
        why = st.default_run_excluded.at(f->name());
      if (!why.empty()) {
        skipped.push_back({{"study", st.info.name}, {"formulation", f->name()}, {"reason", why}});
        continue;
      }
      for (bool project : {false, true}) todo.push_back({&st, f.get(), project});
    }
  }
  bench::JsonLog log(out, {{"command", command},
                           {"generated", bench::utc_now()},
                           {"quick", quick},
                           {"t_end", t_end},
                           {"samples", samples},
                           {"precision", "double"},
                           {"rtol", 1e-12},
                           {"atol", 1e-12},
                           {"stepper", "dopri5"},
                           {"state", "each study's default state and default parameters"},
                           {"skipped", skipped}});
  const auto t0 = bench::Clock::now();
  bench::parallel_for(todo.size(), jobs, [&](std::size_t i) {
    json r = run_one(todo[i], t_end, samples);
    std::cerr << "drift: " << r["study"].get<std::string>() << " "
              << r["formulation"].get<std::string>() << (todo[i].project ? " --project" : "")
              << ": max|C| " << r["max_C"] << ", energy error " << r["energy_error"] << ", "
              << r["rhs_calls"] << " RHS calls, " << r["wall_s"] << " s"
              << (r["status"] == "ok" ? "" : " " + r["status"].get<std::string>()) << "\n";
    log.add(std::move(r));
  });
  log.set("wall_s", bench::seconds_since(t0));
  std::cerr << "drift: wrote " << out << " (" << todo.size() << " runs, "
            << bench::seconds_since(t0) << " s)\n";
  return 0;
}
