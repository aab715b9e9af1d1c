// `nhs animate SYSTEM [run options] --out DIR [--fps 30]` (docs/animation.md):
// runs the motion as `nhs run` does (run_spec, simulate: the same plan, the
// same integration), sampled at fps of simulated time, and writes a folder
// that opens offline in a browser: index.html (animation_page.hpp), data.js
// (window.NHS_ANIMATION: the bodies' poses at each sample), three.min.js and
// OrbitControls.js copied from Debian's libjs-three (r111). The folder is
// written beside DIR under a temporary name and renamed into place, so that
// nothing is half-written.
#include "animation_page.hpp"
#include "cli.hpp"
#include "interrupt.hpp"
#include "scene.hpp"

#include "nhs/session/files.hpp"
#include "nhs/session/simulate.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace nhs::cli {

namespace {

namespace fs = std::filesystem;

// The files of libjs-three that the page loads, and their names in DIR.
const std::vector<std::pair<std::string, std::string>> kThreeFiles = {
    {"three.min.js", "three.min.js"}, {"examples/js/controls/OrbitControls.js", "OrbitControls.js"}};

void check_three(const std::string& dir) {
  for (const auto& [from, to] : kThreeFiles)
    if (!fs::exists(fs::path(dir) / from))
      throw UsageError("--three: '" + (fs::path(dir) / from).string() +
                       "' not found: three.js r111 comes from Debian's libjs-three (scripts/setup.sh installs it), "
                       "or give the directory of a copy with --three DIR");
}

// What the samples of the run keep: t, the poses (Scene::values) and the
// turning plane's rate, as doubles.
struct Recorded {
  std::vector<double> t, poses, rates;
};

// data.js: window.NHS_ANIMATION = {...} (JSON, which a page cannot fetch
// over file://). Numbers in the shortest form that reads back the same double.
template <class S>
std::string data_js(const Scene<S>& scene, const Recorded& r, const std::string& system, const std::string& title,
                    const std::string& command, const std::string& stopped) {
  nlohmann::json head = {{"system", system}, {"title", title}, {"command", command},
                         {"up", {{"axis", scene.up_axis()}, {"sign", scene.up_sign()}}},
                         {"contacts", scene.contacts()}, {"stopped", stopped.empty() ? nlohmann::json() : nlohmann::json(stopped)}};
  head["bodies"] = nlohmann::json::array();
  for (const SceneBody& b : scene.bodies())
    head["bodies"].push_back({{"name", b.name}, {"frame", b.frame}, {"shape", b.shape}, {"size", b.size}});
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the arrays follow
  const auto array = [&](const char* name, const std::vector<double>& v) {
    text += fmt::format(",\n\"{}\":[", name);
    for (std::size_t k = 0; k < v.size(); ++k) text += (k ? "," : "") + fmt::format("{}", v[k]);
    text += "]";
  };
  array("t", r.t);
  array("poses", r.poses);
  if (scene.plane_turns()) {  // the first turning plane's angle, by the trapezoid rule over the samples
    std::vector<double> angle(r.t.size(), 0.0);
    for (std::size_t k = 1; k < r.t.size(); ++k)
      angle[k] = angle[k - 1] + 0.5 * (r.rates[k - 1] + r.rates[k]) * (r.t[k] - r.t[k - 1]);
    array("plane_angle", angle);
  }
  return "window.NHS_ANIMATION = " + text + "};\n";
}

// Writes the folder `out` through a temporary sibling renamed into place.
void write_folder(const fs::path& out, const std::string& three, const std::string& data) {
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const fs::path tmp = parent / ("." + out.filename().string() + ".nhs-tmp-" + std::to_string(getpid()));
  std::error_code ec;
  fs::remove_all(tmp, ec);
  if (!fs::create_directories(tmp, ec) || ec) throw_io_error("--out: cannot create", tmp.string(), ec.value());
  try {
    for (const auto& [from, to] : kThreeFiles) {
      fs::copy_file(fs::path(three) / from, tmp / to, fs::copy_options::overwrite_existing, ec);
      if (ec) throw_io_error("cannot copy three.js to", (tmp / to).string(), ec.value());
    }
    write_text_file((tmp / "data.js").string(), data);
    write_text_file((tmp / "index.html").string(), animation_page_html());
    const fs::path old = parent / ("." + out.filename().string() + ".nhs-old-" + std::to_string(getpid()));
    if (fs::exists(out)) {
      fs::rename(out, old, ec);
      if (ec) throw_io_error("--out: cannot replace", out.string(), ec.value());
    }
    fs::rename(tmp, out, ec);
    if (ec) throw_io_error("--out: cannot write", out.string(), ec.value());
    fs::remove_all(old, ec);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

// True when `dir` is empty or holds an animation that nhs wrote (its
// data.js starts with "window.NHS_ANIMATION"): a folder that may be replaced.
bool replaceable(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return true;
  std::FILE* f = std::fopen((dir / "data.js").c_str(), "r");
  if (!f) return false;
  char head[21] = {};
  const std::size_t n = std::fread(head, 1, 20, f);
  std::fclose(f);
  return n == 20 && std::string(head) == "window.NHS_ANIMATION";
}

// The refusals before anything runs: --out, --fps, three.js.
double check_animate_options(const AnimateOptions& opts) {
  if (opts.out.empty()) throw UsageError("--out: empty directory name");
  if (fs::exists(opts.out) && !fs::is_directory(opts.out))
    throw UsageError("--out: '" + opts.out + "' exists and is not a directory");
  if (fs::is_directory(opts.out) && !replaceable(opts.out))
    throw UsageError("--out: '" + opts.out + "' is a folder with other files than an animation of nhs: give a new "
                     "or empty folder (the folder is replaced as a whole)");
  if (is_system_file_name(opts.study)) refuse_overwriting(opts.study, opts.out, "--out");
  const double fps = parse_number<double>("--fps", opts.fps);
  if (!(fps > 0) || !std::isfinite(fps) || fps > 1e6)
    throw UsageError("--fps: '" + opts.fps + "' must be a number of frames per second of simulated time in (0, 1e6]");
  check_three(opts.three);
  return fps;
}

}  // namespace

template <class S>
int animate_command(const AnimateOptions& options, const std::string& command) {
  if (options.out.empty()) throw UsageError("--out: empty directory name");
  AnimateOptions opts = options;  // --out as an absolute folder without a trailing '/'
  opts.out = fs::absolute(fs::path(opts.out)).lexically_normal().string();
  while (opts.out.size() > 1 && opts.out.back() == '/') opts.out.pop_back();
  const double fps = check_animate_options(opts);
  // The bound for one body, before the grid's own budget (--max-rows) is checked.
  if (!opts.t_end.empty()) {
    const double t_end = parse_number<double>("--t-end", opts.t_end);
    if (t_end > 0 && std::floor(t_end * fps + 1e-9) + 1 > static_cast<double>(kMaxAnimationItems))
      throw UsageError(fmt::format("--fps {} to t = {}: {} samples exceed the animation's bound of {} body-samples "
                                   "even for one body (docs/animation.md): lower --fps or --t-end",
                                   opts.fps, opts.t_end, std::floor(t_end * fps + 1e-9) + 1, kMaxAnimationItems));
  }
  RunSpec<S> spec = run_spec<S>(opts);
  spec.dt_out = S(1) / S(fps);
  require_run_options(spec);
  std::optional<Scene<S>> scene;
  std::optional<InterruptGuard> sigint;
  Recorded rec;
  std::string name;
  RunObservers<S> observers;
  observers.planned = [&](const RunPlan<S>& plan, const MotionReference<S>&) {
    scene.emplace(plan.problem);
    name = plan.problem.sys.info.name;
    const double rows = std::floor(to_double(plan.options.t_end) * fps + 1e-9) + 1;
    const double items = static_cast<double>(scene->bodies().size() + scene->contacts().size());
    if (rows * items > static_cast<double>(kMaxAnimationItems))
      throw UsageError(fmt::format("--fps {} to t = {}: {} samples of {} bodies and contacts exceed the animation's "
                                   "bound of {} body-samples (docs/animation.md): lower --fps or --t-end",
                                   opts.fps, to_double(plan.options.t_end), rows, items, kMaxAnimationItems));
    sigint.emplace();
  };
  observers.interrupt = [&](const S& t_now) {
    if (interrupt_requested()) throw Interrupted("interrupted (SIGINT) at t = " + to_string<S>(t_now));
  };
  observers.motion.record = [&](const Sample<S>& s) {
    if (rec.t.empty()) scene->size_at(s.q);
    const std::vector<S> v = scene->values(s.q, s.qdot);
    rec.t.push_back(to_double(s.t));
    for (const S& x : v) rec.poses.push_back(to_double(x));
    if (scene->plane_turns()) rec.rates.push_back(to_double(scene->plane_rates(s.q)[0]));
  };
  const Simulation<S> run = simulate<S>(spec, observers);
  std::string stopped;
  if (run.error) {
    try {
      std::rethrow_exception(run.error);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      stopped = e.what();
    }
    if (rec.t.empty()) std::rethrow_exception(run.error);
  }
  const std::string title = run.plan.problem.sys.info.title;
  write_folder(opts.out, opts.three, data_js(*scene, rec, name, title.empty() ? name : title, command, stopped));
  const auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::printf("nhs animate: wrote %s (%zu samples at %g per unit of time to t = %.6g, %s, %s%s)\n",
              (fs::path(opts.out) / "index.html").c_str(), rec.t.size(), fps, rec.t.back(),
              count(scene->bodies().size(), "body", "bodies").c_str(),
              count(scene->contacts().size(), "contact", "contacts").c_str(),
              stopped.empty() ? "" : "; the run stopped, its reason is on the page");
  if (run.error) std::rethrow_exception(run.error);
  return 0;
}

#define NHS_CLI_ANIMATE_(S, NAME) template int animate_command<S>(const AnimateOptions&, const std::string&);
NHS_FOR_EACH_SCALAR(NHS_CLI_ANIMATE_)
#undef NHS_CLI_ANIMATE_

}  // namespace nhs::cli
