// sweep.hpp, the command: the work units of a sweep, the two engines that
// run them (threads on this machine; MPI ranks through the plug-in of
// sweep_mpi.h when started by mpirun), and the progress on stderr.
#include "sweep.hpp"

#include "cli.hpp"
#include "clock.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "sweep_mpi.h"

#include "nhs/parallel.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include <dlfcn.h>
#include <unistd.h>

namespace nhs::cli {

namespace {

using Unit = std::vector<std::uint64_t>;

std::string status_of(const SweepCases& cases, const std::vector<std::string>& row) {
  return row[static_cast<std::size_t>(cases.column("status"))];
}

// The work units: each case not done on its own, or with [sweep]
// stop_after_budget the chains along that axis (the cases that differ only
// in it, in its order), without their done cases. A chain with a done case
// over the budget has its later cases recorded as skipped here (`skip`).
std::vector<Unit> work_units(const SweepCases& cases, const SweepOutput& out,
                             std::vector<std::pair<std::uint64_t, std::string>>& skip) {
  const SweepSpec& spec = cases.spec();
  const auto& done = out.done();
  std::vector<Unit> units;
  if (spec.stop_after_budget.empty()) {
    for (std::uint64_t i = 0; i < cases.count(); ++i)
      if (!done.count(i)) units.push_back({i});
    return units;
  }
  const auto groups = spec.groups();
  std::size_t g_along = 0;
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (spec.axes[groups[g].front()].target == spec.stop_after_budget) g_along = g;
  std::uint64_t stride = 1;
  for (std::size_t g = g_along + 1; g < groups.size(); ++g) stride *= spec.axes[groups[g].front()].values.size();
  const std::uint64_t size = spec.axes[groups[g_along].front()].values.size();
  for (std::uint64_t i = 0; i < cases.count(); ++i) {
    if ((i / stride) % size != 0) continue;  // not a chain's first case
    Unit unit;
    std::string over;  // the reason of a done case over the budget
    for (std::uint64_t k = 0; k < size; ++k) {
      const std::uint64_t c = i + k * stride;
      const auto it = done.find(c);
      if (it != done.end()) {
        if (status_of(cases, it->second) == "budget" && over.empty())
          over = "case " + std::to_string(c) + " before it along " + spec.stop_after_budget +
                 " exceeded the RHS budget (max_rhs_calls)";
        continue;
      }
      if (!over.empty())
        skip.emplace_back(c, over);
      else
        unit.push_back(c);
    }
    if (!unit.empty()) units.push_back(std::move(unit));
  }
  return units;
}

// Runs a unit's cases in order, emit(row, series) for each as it ends
// (series empty without [sweep] series); after a case over the budget
// (with stop_after_budget), the rest are skipped rows.
template <class Emit>
void run_unit(const SweepCases& cases, const std::uint64_t* unit, std::size_t count, const Emit& emit) {
  std::string over, series;
  for (std::size_t k = 0; k < count; ++k) {
    if (!over.empty()) {
      emit(cases.skipped(unit[k], over), std::string());
      continue;
    }
    std::vector<std::string> row = cases.run(unit[k], &series);
    if (!cases.spec().stop_after_budget.empty() && status_of(cases, row) == "budget")
      over = "case " + row[0] + " before it along " + cases.spec().stop_after_budget +
             " exceeded the RHS budget (max_rhs_calls)";
    emit(row, series);
  }
}

// Counts and the progress line (ProgressLine: on a terminal rewritten in
// place, else one line every 10 s; sweeps that end sooner print none).
class Progress {
 public:
  Progress(const SweepCases& cases, const SweepOutput& out) : cases_(cases), out_(out), line_("nhs sweep") {
    for (const auto& [i, row] : out.done()) count(status_of(cases, row), false);
  }
  void count(const std::string& status, bool now = true) {
    if (now) ++this_run_;
    if (status == "skipped") ++skipped_;
    else if (is_failure_status(status)) ++failed_;
  }
  // Prints the line when it is due.
  void tick() {
    const std::uint64_t done = out_.done().size(), total = cases_.count();
    line_.tick([&] { return fmt::format("{}/{} cases ({} failed, {} skipped)", done, total, failed_, skipped_); },
               static_cast<double>(this_run_), static_cast<double>(total - done));
  }
  void clear() { line_.clear(); }
  std::uint64_t failed() const { return failed_; }
  std::uint64_t skipped() const { return skipped_; }
  std::uint64_t this_run() const { return this_run_; }
  double elapsed() const { return line_.elapsed(); }

 private:
  const SweepCases& cases_;
  const SweepOutput& out_;
  ProgressLine line_;
  std::uint64_t failed_ = 0, skipped_ = 0, this_run_ = 0;
};

// The threads engine: units on `jobs` threads (parallel_for), rows written
// under one lock as cases end, progress from a thread of its own.
void run_on_threads(const SweepCases& cases, SweepOutput& out, Progress& progress, const std::vector<Unit>& units,
                    unsigned jobs) {
  std::mutex write_mutex;
  std::atomic<bool> stop{false};
  std::condition_variable wake;
  bool finished = false;
  std::thread ticker([&] {
    std::unique_lock<std::mutex> lock(write_mutex);
    while (!finished) {
      wake.wait_for(lock, std::chrono::milliseconds(250));
      if (!finished) progress.tick();
    }
  });
  const auto emit = [&](const std::vector<std::string>& row, const std::string& series) {
    const std::lock_guard<std::mutex> lock(write_mutex);
    out.write(row, series);
    progress.count(status_of(cases, row));
  };
  try {
    parallel_for(units.size(), jobs, [&](std::size_t u) {
      if (stop) return;
      try {
        run_unit(cases, units[u].data(), units[u].size(), emit);
      } catch (...) {
        stop = true;
        throw;
      }
    });
  } catch (...) {
    {
      const std::lock_guard<std::mutex> lock(write_mutex);
      finished = true;
    }
    wake.notify_all();
    ticker.join();
    throw;
  }
  {
    const std::lock_guard<std::mutex> lock(write_mutex);
    finished = true;
  }
  wake.notify_all();
  ticker.join();
}

// --- MPI ---------------------------------------------------------------------

// The number of ranks when this process was started by an MPI launcher
// (Open MPI's OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE), else 0.
int launched_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

struct MpiPlugin {
  void* handle = nullptr;
  nhs_sweep_mpi_init_fn init = nullptr;
  nhs_sweep_mpi_master_fn master = nullptr;
  nhs_sweep_mpi_worker_fn worker = nullptr;
  nhs_sweep_mpi_finalize_fn finalize = nullptr;
  nhs_sweep_mpi_abort_fn abort = nullptr;
};

// The plug-in: $NHS_SWEEP_MPI_PLUGIN, else libnhs_sweep_mpi.so next to the
// tool (the build tree), else <prefix>/lib/nhs/ (installed). UsageError
// naming what was tried when none loads: every rank would otherwise run
// the whole sweep.
MpiPlugin load_mpi_plugin(int ranks) {
  std::vector<std::string> tried;
  if (const char* p = std::getenv("NHS_SWEEP_MPI_PLUGIN")) {
    tried.push_back(p);
  } else {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      tried.push_back((exe.parent_path() / "libnhs_sweep_mpi.so").string());
      tried.push_back((exe.parent_path().parent_path() / NHS_LIBDIR_FROM_PREFIX / "nhs" / "libnhs_sweep_mpi.so").string());
    }
  }
  std::string errors;
  for (const auto& path : tried) {
    if (!std::filesystem::exists(path)) {
      errors += "\n  " + path + ": no such file";
      continue;
    }
    // RTLD_GLOBAL: Open MPI's components resolve libmpi's symbols globally.
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
      errors += "\n  " + path + ": " + dlerror();
      continue;
    }
    MpiPlugin p;
    p.handle = h;
    p.init = reinterpret_cast<nhs_sweep_mpi_init_fn>(dlsym(h, NHS_SWEEP_MPI_INIT));
    p.master = reinterpret_cast<nhs_sweep_mpi_master_fn>(dlsym(h, NHS_SWEEP_MPI_MASTER));
    p.worker = reinterpret_cast<nhs_sweep_mpi_worker_fn>(dlsym(h, NHS_SWEEP_MPI_WORKER));
    p.finalize = reinterpret_cast<nhs_sweep_mpi_finalize_fn>(dlsym(h, NHS_SWEEP_MPI_FINALIZE));
    p.abort = reinterpret_cast<nhs_sweep_mpi_abort_fn>(dlsym(h, NHS_SWEEP_MPI_ABORT));
    if (p.init && p.master && p.worker && p.finalize && p.abort) return p;
    errors += "\n  " + path + ": not the nhs MPI plug-in (symbols missing)";
  }
  throw UsageError("nhs sweep was started by an MPI launcher with " + std::to_string(ranks) +
                   " ranks, but its MPI engine cannot be loaded (nhs built without MPI: install libopenmpi-dev "
                   "and configure with NHS_WITH_MPI=ON, or set NHS_SWEEP_MPI_PLUGIN):" + errors);
}

// A row as one message: cells separated by \x1f (which no cell holds),
// then \x1e and the case's series (CSV text; empty without one).
std::string pack(const std::vector<std::string>& row, const std::string& series) {
  std::string s;
  for (std::size_t i = 0; i < row.size(); ++i) s += (i ? "\x1f" : "") + row[i];
  return s + "\x1e" + series;
}
std::vector<std::string> unpack(const char* data, std::size_t length, std::string& series) {
  std::vector<std::string> row(1);
  std::size_t i = 0;
  for (; i < length && data[i] != '\x1e'; ++i) {
    if (data[i] == '\x1f')
      row.emplace_back();
    else
      row.back() += data[i];
  }
  series.assign(i < length ? data + i + 1 : data + length, i < length ? length - i - 1 : 0);
  return row;
}

struct MasterState {
  const SweepCases* cases;
  SweepOutput* out;
  Progress* progress;
  std::vector<Unit> units;
  std::size_t next = 0;
  double busy_s = 0;  // in next_unit and write_row: the master's cost (the scaling model's)
};

// Adds the time of its scope to `total`.
struct BusyTimer {
  explicit BusyTimer(double& total) : total_(total), t0_(Clock::now()) {}
  ~BusyTimer() { total_ += seconds_since(t0_); }
  double& total_;
  Clock::time_point t0_;
};

// An MPI worker (rank > 0): reads the same spec (the same cases, by
// index), runs the units the master sends and sends back their rows; it
// never touches the output.
int run_mpi_worker(const MpiPlugin& mpi, const SweepOptions& opts) {
  std::optional<SweepCases> cases;
  try {
    cases.emplace(opts.system, opts.spec);
  } catch (...) {
    // The master reads the same spec and reports the same error, then
    // aborts every rank: a worker speaks only when the master has not
    // (e.g. the file is missing on this worker's node).
    std::this_thread::sleep_for(std::chrono::seconds(2));
    mpi.abort(report_error(std::current_exception()));
  }
  const auto run = [](void* self, const std::uint64_t* unit, std::size_t count,
                      int (*emit)(void*, const char*, std::size_t), void* ctx) -> int {
    const auto* c = static_cast<const SweepCases*>(self);
    try {
      run_unit(*c, unit, count, [&](const std::vector<std::string>& row, const std::string& series) {
        const std::string m = pack(row, series);
        if (emit(ctx, m.data(), m.size()) != 0) throw IoError("nhs sweep: MPI_Send of a row failed");
      });
      return 0;
    } catch (...) {
      return report_error(std::current_exception());
    }
  };
  nhs_sweep_mpi_host host{};
  host.self = &*cases;
  host.run_unit = run;
  const int code = mpi.worker(&host);
  mpi.finalize();
  return code;
}

// The master's side of the plug-in (nhs_sweep_mpi_host): hands out the
// units in order, writes the rows the workers send, ticks the progress.
nhs_sweep_mpi_host master_host(MasterState& st) {
  nhs_sweep_mpi_host host{};
  host.self = &st;
  host.next_unit = [](void* self, const std::uint64_t** unit, std::size_t* count) -> int {
    auto* s = static_cast<MasterState*>(self);
    const BusyTimer busy(s->busy_s);
    if (s->next >= s->units.size()) {
      *count = 0;
      return 0;
    }
    *unit = s->units[s->next].data();
    *count = s->units[s->next].size();
    ++s->next;
    return 0;
  };
  host.write_row = [](void* self, int, const char* row, std::size_t length) -> int {
    auto* s = static_cast<MasterState*>(self);
    const BusyTimer busy(s->busy_s);
    try {
      std::string series;
      const std::vector<std::string> cells = unpack(row, length, series);
      if (cells.size() != s->cases->columns().size())
        throw IoError("nhs sweep: a worker sent a row of " + std::to_string(cells.size()) + " cells, expected " +
                      std::to_string(s->cases->columns().size()));
      s->out->write(cells, series);
      s->progress->count(status_of(*s->cases, cells));
      s->progress->tick();
      return 0;
    } catch (...) {
      return report_error(std::current_exception());
    }
  };
  host.idle = [](void* self) -> int {
    static_cast<MasterState*>(self)->progress->tick();
    return 0;
  };
  return host;
}

// The MPI master (rank 0): the output, the skipped cases, the workers'
// rows, then the summary line. Exit code as run_on_threads'.
int run_mpi_master(const MpiPlugin& mpi, const SweepOptions& opts, const std::string& command, int size) {
  const SweepCases cases(opts.system, opts.spec);
  SweepOutput out(opts.out, cases, opts.restart, command);
  Progress progress(cases, out);
  MasterState st{&cases, &out, &progress, {}, 0};
  std::vector<std::pair<std::uint64_t, std::string>> skip;
  st.units = work_units(cases, out, skip);
  for (const auto& [i, why] : skip) {
    out.write(cases.skipped(i, why));
    progress.count("skipped");
  }
  nhs_sweep_mpi_host host = master_host(st);
  int code = mpi.master(&host, st.units.size());
  if (code != 0) return code;
  progress.clear();
  const bool complete = out.finish(fmt::format("mpi ({} ranks: 1 master, {} workers)", size, size - 1),
                                   progress.elapsed(), st.busy_s);
  fmt::print(stderr,
             "nhs sweep: {} of {} cases done ({} this run{}; {} failed, {} skipped in all) in {} on {} MPI "
             "worker{}; wrote {}/cases.csv and cases.jsonl\n",
             out.done().size(), cases.count(), progress.this_run(),
             out.resumed() ? fmt::format(", {} done before", out.resumed()) : std::string(), progress.failed(),
             progress.skipped(), duration_text(progress.elapsed()), size - 1, size == 2 ? "" : "s", out.dir());
  return complete ? 0 : 1;
}

int run_on_mpi(const SweepOptions& opts, const std::string& command, int ranks) {
  const MpiPlugin mpi = load_mpi_plugin(ranks);
  int rank = 0, size = 0;
  if (mpi.init(&rank, &size) != 0) throw UsageError("nhs sweep: MPI_Init failed");
  if (rank != 0) return run_mpi_worker(mpi, opts);
  int code = 0;
  try {
    code = run_mpi_master(mpi, opts, command, size);
  } catch (...) {
    code = report_error(std::current_exception());
    mpi.abort(code);
  }
  mpi.finalize();
  return code;
}

}  // namespace

int sweep_command(const SweepOptions& opts, const std::string& command) {
  if (opts.dry_run) {
    const SweepCases cases(opts.system, opts.spec);
    std::vector<std::string> header = {"case"};
    for (const auto& a : cases.spec().axes) header.push_back(a.target);
    fmt::print("{}\n", csv_line(header));
    for (std::uint64_t i = 0; i < cases.count(); ++i) {
      std::vector<std::string> row = {std::to_string(i)};
      for (auto& v : cases.spec().case_values(i)) row.push_back(std::move(v));
      fmt::print("{}\n", csv_line(row));
    }
    flush_stdout();
    fmt::print(stderr, "nhs sweep: {} cases of {} on {} (dry run: nothing run, nothing written)\n", cases.count(),
               cases.spec().path, cases.system());
    return 0;
  }
  if (opts.out.empty()) throw UsageError("--out: give the sweep's output directory");
  const int ranks = launched_ranks();
  if (ranks > 1) return run_on_mpi(opts, command, ranks);
  const SweepCases cases(opts.system, opts.spec);
  SweepOutput out(opts.out, cases, opts.restart, command);
  Progress progress(cases, out);
  std::vector<std::pair<std::uint64_t, std::string>> skip;
  const std::vector<Unit> units = work_units(cases, out, skip);
  for (const auto& [i, why] : skip) {
    out.write(cases.skipped(i, why));
    progress.count("skipped");
  }
  // No more threads than units (parallel_for starts no more).
  const unsigned jobs = static_cast<unsigned>(std::max<std::size_t>(
      1, std::min<std::size_t>(units.size(), opts.jobs > 0 ? opts.jobs : std::max(1u, std::thread::hardware_concurrency()))));
  const InterruptGuard sigint;  // SIGINT: cases running stop, rows written stay
  try {
    run_on_threads(cases, out, progress, units, jobs);
  } catch (const Interrupted&) {
    progress.clear();
    out.finish("threads", progress.elapsed());
    throw Interrupted(fmt::format("interrupted (SIGINT): {} of {} cases done, kept in {}; run the same command again "
                                  "to resume",
                                  out.done().size(), cases.count(), out.dir()));
  }
  progress.clear();
  const bool complete = out.finish(fmt::format("threads ({})", jobs), progress.elapsed());
  fmt::print(stderr,
             "nhs sweep: {} of {} cases done ({} this run{}; {} failed, {} skipped in all) in {} on {} thread{}; "
             "wrote {}/cases.csv and cases.jsonl\n",
             out.done().size(), cases.count(), progress.this_run(),
             out.resumed() ? fmt::format(", {} done before", out.resumed()) : std::string(), progress.failed(),
             progress.skipped(), duration_text(progress.elapsed()), jobs, jobs == 1 ? "" : "s", out.dir());
  return complete ? 0 : 1;
}

}  // namespace nhs::cli
