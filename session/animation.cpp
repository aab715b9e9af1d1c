// The animation folder of a run (nhs/session/animation.hpp): data.js, the
// folder written through a temporary sibling, the run sampled at fps.
#include "nhs/session/animation.hpp"

#include "nhs/session/figures.hpp"  // to_double
#include "nhs/session/files.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <optional>

#include <unistd.h>

namespace nhs {

namespace {

namespace fs = std::filesystem;

// The files of libjs-three that the page loads, and their names in the folder.
const std::vector<std::pair<std::string, std::string>> kThreeFiles = {
    {"three.min.js", "three.min.js"}, {"examples/js/controls/OrbitControls.js", "OrbitControls.js"}};

void check_three(const std::string& dir, const std::string& option) {
  for (const auto& [from, to] : kThreeFiles)
    if (!fs::exists(fs::path(dir) / from))
      throw UsageError(option + ": '" + (fs::path(dir) / from).string() +
                       "' not found: three.js r111 comes from Debian's libjs-three (scripts/setup.sh installs it), "
                       "or give the directory of a copy with " + option);
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

// Moves the written temporary folder `tmp` to `out`, replacing an old one.
void move_into_place(const fs::path& tmp, const fs::path& out, const std::string& option) {
  std::error_code ec;
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const fs::path old = parent / ("." + out.filename().string() + ".nhs-old-" + std::to_string(getpid()));
  if (fs::exists(out)) {
    fs::rename(out, old, ec);
    if (ec) throw_io_error(option + ": cannot replace", out.string(), ec.value());
  }
  fs::rename(tmp, out, ec);
  if (ec) throw_io_error(option + ": cannot write", out.string(), ec.value());
  fs::remove_all(old, ec);
}

}  // namespace

template <class S>
std::string animation_data_js(const Scene<S>& scene, const AnimationSamples& r, const std::string& system,
                              const std::string& title, const std::string& command, const std::string& stopped,
                              const nlohmann::json& mode) {
  nlohmann::json head = {{"system", system}, {"title", title}, {"command", command},
                         {"up", {{"axis", scene.up_axis()}, {"sign", scene.up_sign()}}},
                         {"contacts", scene.contacts()},
                         {"stopped", stopped.empty() ? nlohmann::json() : nlohmann::json(stopped)}};
  if (!mode.is_null()) head["mode"] = mode;
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

void check_animation_folder(const std::string& out, const std::string& option, double fps,
                            const std::string& fps_option, const std::string& three, const std::string& three_option,
                            const std::string& system) {
  if (out.empty()) throw UsageError(option + ": empty directory name");
  if (fs::exists(out) && !fs::is_directory(out))
    throw UsageError(option + ": '" + out + "' exists and is not a directory");
  if (fs::is_directory(out) && !replaceable(out))
    throw UsageError(option + ": '" + out + "' is a folder with other files than an animation of nhs: give a new "
                     "or empty folder (the folder is replaced as a whole)");
  if (is_system_file_name(system)) refuse_overwriting(system, out, option);
  if (!(fps > 0) || !std::isfinite(fps) || fps > 1e6)
    throw UsageError(fmt::format("{}: '{}' must be a number of frames per second of simulated time in (0, 1e6]",
                                 fps_option, fps));
  check_three(three, three_option);
}

std::string absolute_animation_folder(const std::string& out, const std::string& option) {
  if (out.empty()) throw UsageError(option + ": empty directory name");
  std::string dir = fs::absolute(fs::path(out)).lexically_normal().string();
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

void write_animation_folder(const std::string& out_name, const std::string& three, const std::string& data,
                            const std::string& option) {
  const fs::path out(out_name);
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const fs::path tmp = parent / ("." + out.filename().string() + ".nhs-tmp-" + std::to_string(getpid()));
  std::error_code ec;
  fs::remove_all(tmp, ec);
  if (!fs::create_directories(tmp, ec) || ec) throw_io_error(option + ": cannot create", tmp.string(), ec.value());
  try {
    for (const auto& [from, to] : kThreeFiles) {
      fs::copy_file(fs::path(three) / from, tmp / to, fs::copy_options::overwrite_existing, ec);
      if (ec) throw_io_error("cannot copy three.js to", (tmp / to).string(), ec.value());
    }
    write_text_file((tmp / "data.js").string(), data);
    write_text_file((tmp / "index.html").string(), animation_page_html());
    move_into_place(tmp, out, option);
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

namespace {

// The refusal of more than kMaxAnimationItems body-samples.
void check_animation_size(double rows, double items, double t_end, const AnimationRequest& request) {
  if (rows * items > static_cast<double>(kMaxAnimationItems))
    throw UsageError(fmt::format("{} {} to t = {}: {} samples of {} bodies and contacts exceed the animation's "
                                 "bound of {} body-samples (docs/animation.md): lower {} or the end time",
                                 request.fps_option, request.fps, t_end, rows, items, kMaxAnimationItems,
                                 request.fps_option));
}

// The reason a run stopped, for the page: "" when it completed; its error
// rethrown when it is a refusal or stopped before the first sample.
template <class S>
std::string stopped_reason(const Simulation<S>& run, bool sampled) {
  if (!run.error) return "";
  std::string stopped;
  try {
    std::rethrow_exception(run.error);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& e) {
    stopped = e.what();
  }
  if (!sampled) std::rethrow_exception(run.error);
  return stopped;
}

}  // namespace

template <class S>
AnimationWritten animate_run(RunSpec<S> spec, const AnimationRequest& request,
                             const std::function<void(const S&)>& interrupt, const std::function<void()>& planned) {
  const double fps = request.fps;
  spec.dt_out = S(1) / S(fps);
  require_run_options(spec);
  std::optional<Scene<S>> scene;
  AnimationSamples rec;
  std::string name;
  RunObservers<S> observers;
  observers.planned = [&](const RunPlan<S>& plan, const MotionReference<S>&) {
    scene.emplace(plan.problem);
    name = plan.problem.sys.info.name;
    const double t_end = to_double(plan.options.t_end);
    check_animation_size(std::floor(t_end * fps + 1e-9) + 1,
                         static_cast<double>(scene->bodies().size() + scene->contacts().size()), t_end, request);
    if (planned) planned();
  };
  observers.interrupt = interrupt;
  observers.motion.record = [&](const Sample<S>& s) {
    if (rec.t.empty()) scene->size_at(s.q);
    const std::vector<S> v = scene->values(s.q, s.qdot);
    rec.t.push_back(to_double(s.t));
    for (const S& x : v) rec.poses.push_back(to_double(x));
    if (scene->plane_turns()) rec.rates.push_back(to_double(scene->plane_rates(s.q)[0]));
  };
  const Simulation<S> run = simulate<S>(spec, observers);
  AnimationWritten w;
  w.stopped = stopped_reason<S>(run, !rec.t.empty());
  w.error = run.error;
  const std::string title = run.plan.problem.sys.info.title;
  write_animation_folder(request.out, request.three,
                         animation_data_js(*scene, rec, name, title.empty() ? name : title, request.command, w.stopped),
                         request.out_option);
  w.samples = rec.t.size();
  w.t_last = rec.t.back();
  w.bodies = scene->bodies().size();
  w.contacts = scene->contacts().size();
  return w;
}

#define NHS_SESSION_ANIMATION_(S, NAME)                                                                          \
  template std::string animation_data_js<S>(const Scene<S>&, const AnimationSamples&, const std::string&,       \
                                            const std::string&, const std::string&, const std::string&,         \
                                            const nlohmann::json&);                                             \
  template AnimationWritten animate_run<S>(RunSpec<S>, const AnimationRequest&, const std::function<void(const S&)>&, \
                                           const std::function<void()>&);
NHS_FOR_EACH_SCALAR(NHS_SESSION_ANIMATION_)
#undef NHS_SESSION_ANIMATION_

}  // namespace nhs
