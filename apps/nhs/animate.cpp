// `nhs animate SYSTEM [run options] --out DIR [--fps 30]` (docs/animation.md):
// runs the motion as `nhs run` does (run_spec, simulate: the same plan, the
// same integration), sampled at fps of simulated time, and writes a folder
// that opens offline in a browser (nhs/session/animation.hpp: animate_run,
// which the Python module's Run.animate calls too). `nhs linearize --animate DIR` (animate_mode)
// writes the same folder for a steady motion with an eigenvector superposed.
#include "cli.hpp"
#include "interrupt.hpp"
#include "names.hpp"

#include "nhs/session/files.hpp"
#include "nhs/session/animation.hpp"
#include "nhs/session/simulate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <boost/math/constants/constants.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace nhs::cli {

namespace {

namespace fs = std::filesystem;

// The refusals before anything runs: the folder `out` (given by `option`),
// --fps, three.js; the frames per unit of time.
double check_folder_options(const std::string& out, const std::string& option, const std::string& fps_text,
                            const std::string& three, const std::string& system) {
  if (out.empty()) throw UsageError(option + ": empty directory name");
  const double fps = parse_number<double>("--fps", fps_text);
  check_animation_folder(out, option, fps, "--fps", three, "--three", system);
  return fps;
}

}  // namespace

template <class S>
int animate_command(const AnimateOptions& options, const std::string& command) {
  AnimateOptions opts = options;
  opts.out = absolute_animation_folder(opts.out, "--out");
  const double fps = check_folder_options(opts.out, "--out", opts.fps, opts.three, opts.study);
  // The bound for one body, before the grid's own budget (--max-rows) is checked.
  if (!opts.t_end.empty()) {
    const double t_end = parse_number<double>("--t-end", opts.t_end);
    if (t_end > 0 && std::floor(t_end * fps + 1e-9) + 1 > static_cast<double>(kMaxAnimationItems))
      throw UsageError(fmt::format("--fps {} to t = {}: {} samples exceed the animation's bound of {} body-samples "
                                   "even for one body (docs/animation.md): lower --fps or --t-end",
                                   opts.fps, opts.t_end, std::floor(t_end * fps + 1e-9) + 1, kMaxAnimationItems));
  }
  std::optional<InterruptGuard> sigint;
  const AnimationRequest request{.out = opts.out, .three = opts.three, .command = command, .fps = fps};
  const AnimationWritten w = animate_run<S>(
      run_spec<S>(opts), request,
      [](const S& t_now) {
        if (interrupt_requested()) throw Interrupted("interrupted (SIGINT) at t = " + to_string<S>(t_now));
      },
      [&] { sigint.emplace(); });
  const auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::printf("nhs animate: wrote %s (%zu samples at %g per unit of time to t = %.6g, %s, %s%s)\n",
              (fs::path(opts.out) / "index.html").c_str(), w.samples, fps, w.t_last,
              count(w.bodies, "body", "bodies").c_str(), count(w.contacts, "contact", "contacts").c_str(),
              w.stopped.empty() ? "" : "; the run stopped, its reason is on the page");
  if (w.error) std::rethrow_exception(w.error);
  return 0;
}

namespace {

// The mode that --mode names (1-based, as `nhs linearize` prints the
// eigenvalues), else default_eigenmode; 0-based.
template <class S>
std::size_t chosen_mode(const std::string& text, const Linearization<S>& lin) {
  const std::size_t count = lin.eigenvalues.size();
  if (count == 0) throw UsageError("--animate: the steady motion has no eigenvalues off its family to show");
  if (text.empty()) return default_eigenmode<S>(lin);
  const std::uint64_t k = parse_count("--mode", text);
  if (k < 1 || k > count)
    throw UsageError("--mode " + text + ": the steady motion has " + std::to_string(count) + " eigenvalue" +
                     (count == 1 ? "" : "s") + ", numbered 1 to " + std::to_string(count) + " as printed");
  return static_cast<std::size_t>(k - 1);
}

// How a coordinate's excursion is bounded (docs/animation.md, "Eigenmodes"):
// an angle turns some body's frame (0.2 rad), a length moves bodies without
// turning any (10% of the scene's largest length); in a scene without
// frames, or with no length in it, neither can be told (0.2 in its units);
// a coordinate that moves no body is not bounded.
enum class Excursion { angle, length, unknown, none };

const char* excursion_name(Excursion e) {
  switch (e) {
    case Excursion::angle: return "angle";
    case Excursion::length: return "length";
    case Excursion::unknown: return "unknown";
    case Excursion::none: return "none";
  }
  return "none";
}

// Each coordinate's kind at q (differences of the poses by 1e-4), and the
// scene's largest length: the largest distance between two of its body
// centres and contact points.
template <class S>
std::pair<std::vector<Excursion>, double> excursion_kinds(const Scene<S>& scene, const Vec<S>& q, const Vec<S>& qdot) {
  const std::vector<S> at = scene.values(q, qdot);
  std::vector<std::array<double, 3>> points;
  const std::size_t nb = scene.bodies().size();
  std::vector<std::size_t> offsets;  // of the body centres (12 values each), then of the contact points (3 each)
  for (std::size_t k = 0; k < nb; ++k) offsets.push_back(12 * k);
  for (std::size_t o = 12 * nb; o < at.size(); o += 3) offsets.push_back(o);
  for (const std::size_t o : offsets) points.push_back({to_double(at[o]), to_double(at[o + 1]), to_double(at[o + 2])});
  double largest = 0;
  for (const auto& a : points)
    for (const auto& b : points) largest = std::max(largest, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
  bool frames = false;
  for (const SceneBody& b : scene.bodies()) frames = frames || !b.frame.empty();
  std::vector<Excursion> kinds;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    Vec<S> moved = q;
    moved[i] += S(1e-4);
    const std::vector<S> there = scene.values(moved, qdot);
    bool turns = false, moves = false;
    for (std::size_t k = 0; k < at.size(); ++k) {
      if (!(std::abs(to_double(S(there[k] - at[k]))) > 1e-10)) continue;
      if (k < 12 * nb && k % 12 >= 3) turns = true;  // an entry of a rotation matrix
      else moves = true;
    }
    Excursion e = turns ? Excursion::angle : moves ? Excursion::length : Excursion::none;
    if (e != Excursion::none && (!frames || (e == Excursion::length && !(largest > 0)))) e = Excursion::unknown;
    kinds.push_back(e);
  }
  if (std::all_of(kinds.begin(), kinds.end(), [](Excursion e) { return e == Excursion::none; }))
    std::fill(kinds.begin(), kinds.end(), Excursion::unknown);
  return {kinds, largest};
}

// The mode's samples: t from 0 by 1 / fps to the window (one period, or one
// e-folding time), which is the last sample; and eps Re(v e^(lambda t)) of
// the mode with eps = 1 at each (N entries each).
template <class S>
struct ModeSamples {
  S window;
  std::vector<S> t;
  std::vector<Vec<S>> deviation;
};

template <class S>
ModeSamples<S> mode_samples(const Eigenmode<S>& mode, bool oscillating, double fps, std::size_t items) {
  using std::abs;
  using std::cos;
  using std::exp;
  using std::sin;
  ModeSamples<S> out;
  out.window = oscillating ? S(2 * boost::math::constants::pi<S>() / abs(mode.im)) : S(S(1) / abs(mode.re));
  const double samples = std::floor(to_double(out.window) * fps) + 2;
  if (!(samples * static_cast<double>(items) <= static_cast<double>(kMaxAnimationItems)))
    throw UsageError(fmt::format("--animate: {} samples of {} bodies and contacts over the mode's window of {} "
                                 "exceed the animation's bound of {} body-samples (docs/animation.md): lower --fps",
                                 samples, items, to_double(out.window), kMaxAnimationItems));
  for (std::size_t k = 0; S(k) / S(fps) < out.window; ++k) out.t.push_back(S(k) / S(fps));
  if (out.t.empty() || out.window - out.t.back() > out.window * S(1e-9)) out.t.push_back(out.window);
  const S b = oscillating ? mode.im : S(0);
  for (const S& t : out.t)
    out.deviation.push_back(Vec<S>(exp(mode.re * t) * (mode.v_re * cos(b * t) - mode.v_im * sin(b * t))));
  return out;
}

// eps: --epsilon, else the largest over the samples of each bounded
// coordinate's excursion brought to its bound, the smallest of these.
template <class S>
S mode_epsilon(const std::string& text, const std::vector<Excursion>& kinds, double largest,
               const ModeSamples<S>& samples) {
  using std::abs;
  if (!text.empty()) {
    const S eps = parse_number<S>("--epsilon", text);
    if (!(eps >= S(0)) || !(eps - eps == S(0)))
      throw UsageError("--epsilon " + text + ": need a finite amplitude >= 0 (0: the steady motion alone)");
    return eps;
  }
  S eps(-1);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == Excursion::none) continue;
    S excursion(0);
    for (const Vec<S>& d : samples.deviation) excursion = std::max(excursion, S(abs(d[static_cast<Eigen::Index>(i)])));
    const S bound = kinds[i] == Excursion::length ? S(0.1 * largest) : S(0.2);
    if (excursion > S(0) && (eps < S(0) || bound / excursion < eps)) eps = bound / excursion;
  }
  if (!(eps > S(0))) throw UsageError("--animate: the mode moves no coordinate of the bodies; give --epsilon");
  return eps;
}

// "v = 4, k = 2": the family's values, then the parameters given by --param.
template <class S>
std::string mode_where(const SteadyLinearization<S>& s, const LinearizeOptions& opts) {
  std::string at;
  for (std::size_t k = 0; k < s.family_parameters.size(); ++k)
    at += (at.empty() ? "" : ", ") + s.family_parameters[k] + " = " +
          fmt::format("{:.6g}", to_double(s.mu[static_cast<Eigen::Index>(k)]));
  for (const std::string& p : opts.params) at += ", " + p;
  return at;
}

// data.js's "mode": what the page shows and what a test checks it against.
template <class S>
nlohmann::json mode_json(const SteadyLinearization<S>& s, const Eigenmode<S>& mode, const S& eps,
                         const ModeSamples<S>& samples, const std::vector<Excursion>& kinds, double largest) {
  const auto strings = [](const Vec<S>& v) {
    std::vector<std::string> out;
    for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(to_string<S>(v[i]));
    return out;
  };
  std::vector<std::string> kind_names;
  for (Excursion e : kinds) kind_names.push_back(excursion_name(e));
  return {{"index", mode.index + 1}, {"count", s.lin.eigenvalues.size()}, {"re", to_string<S>(mode.re)},
          {"im", to_string<S>(mode.im)}, {"epsilon", to_string<S>(eps)}, {"window", to_string<S>(samples.window)},
          {"state", s.state}, {"steady", strings(s.x)}, {"field", strings(s.lin.f)},
          {"v_re", strings(mode.v_re)}, {"v_im", strings(mode.v_im)},
          {"x0", strings(Vec<S>(s.x + eps * samples.deviation.front()))}, {"residual", to_string<S>(mode.residual)},
          {"coordinates", kind_names}, {"largest_length", largest}};
}

// The steady motion at the state x is drawn as x + t f: refused unless f
// does not change along it (max |J f| within the linearization's tolerance).
template <class S>
void require_uniform(const Linearization<S>& L) {
  const S drift = max_abs<S>(Mat<S>(L.J * L.f));
  if (drift > L.tolerance * std::max(S(1), max_abs<S>(Mat<S>(L.f))))
    throw UsageError("--animate: the steady motion is not uniform in its coordinates (max |J f| = " +
                     to_string<S>(drift) + "): a mode is drawn on x + t f, a motion whose field does not change "
                     "along it (a straight run), not a turning one");
}

// The problem at the linearized state, for its scene.
template <class S>
Problem<S> mode_problem(const SteadySpec<S>& spec, const SteadyLinearization<S>& s) {
  ProblemSpec<S> p;
  p.system = spec.system;
  p.formulation = s.formulation;
  p.parameters = spec.parameters;
  const auto n = static_cast<Eigen::Index>(s.coordinates);
  p.q = Vec<S>(s.x.head(n));
  p.z = Vec<S>(s.x.tail(s.x.size() - n));
  p.names = cli_input_names();
  return make_problem<S>(p);
}

// The poses at x + t f + eps deviation at each sample.
template <class S>
AnimationSamples record_mode(const Scene<S>& scene, const Problem<S>& problem, const SteadyLinearization<S>& s,
                             const S& eps, const ModeSamples<S>& samples) {
  AnimationSamples rec;
  const auto n = static_cast<Eigen::Index>(s.coordinates);
  for (std::size_t k = 0; k < samples.t.size(); ++k) {
    const Vec<S> x = s.x + samples.t[k] * s.lin.f + eps * samples.deviation[k];
    const Vec<S> q = x.head(n), z = x.tail(x.size() - n);
    Vec<S> qdot(n);
    problem.sys.parametrization(q, z, qdot);
    rec.t.push_back(to_double(samples.t[k]));
    for (const S& v : scene.values(q, qdot)) rec.poses.push_back(to_double(v));
    if (scene.plane_turns()) rec.rates.push_back(to_double(scene.plane_rates(q)[0]));
  }
  return rec;
}

}  // namespace

template <class S>
double check_mode_animation(const LinearizeOptions& opts) {
  return check_folder_options(absolute_animation_folder(opts.animate, "--animate"), "--animate", opts.fps, opts.three,
                              opts.system);
}

template <class S>
void animate_mode(const LinearizeOptions& opts, const SteadySpec<S>& spec, const SteadyLinearization<S>& s,
                  const std::string& command) {
  const std::string out = absolute_animation_folder(opts.animate, "--animate");
  const double fps = check_folder_options(out, "--animate", opts.fps, opts.three, opts.system);
  const Eigenmode<S> mode = steady_eigenmode<S>(s, chosen_mode<S>(opts.mode, s.lin));
  require_uniform<S>(s.lin);
  const Problem<S> problem = mode_problem<S>(spec, s);
  Scene<S> scene(problem);
  scene.size_at(problem.q);
  using std::abs;
  const bool oscillating = abs(mode.im) > s.lin.bounds[mode.index];  // either of a pair: the same motion
  const ModeSamples<S> samples = mode_samples<S>(mode, oscillating, fps, scene.bodies().size() + scene.contacts().size());
  const auto [kinds, largest] = excursion_kinds<S>(scene, problem.q, problem.qdot);
  const S eps = mode_epsilon<S>(opts.epsilon, kinds, largest, samples);
  const AnimationSamples rec = record_mode<S>(scene, problem, s, eps, samples);
  const std::string lambda = oscillating
                                 ? fmt::format("{:.6g} ± {:.6g}i", to_double(mode.re), std::abs(to_double(mode.im)))
                                 : fmt::format("{:.6g}", to_double(mode.re));
  const std::string title = fmt::format("{}: mode {} of {}, λ = {} at {}; ε = {:.3g}",
                                        problem.sys.info.title.empty() ? s.system : problem.sys.info.title,
                                        mode.index + 1, s.lin.eigenvalues.size(), lambda, mode_where<S>(s, opts),
                                        to_double(eps));
  write_animation_folder(out, opts.three, animation_data_js(scene, rec, s.system, title, command, "",
                                                                  mode_json<S>(s, mode, eps, samples, kinds, largest)),
                         "--animate");
  std::fprintf(stderr, "nhs linearize: wrote %s (mode %zu of %zu, lambda = %s, %s %.6g, epsilon = %.6g, %zu samples)\n",
               (fs::path(out) / "index.html").c_str(), mode.index + 1, s.lin.eigenvalues.size(), lambda.c_str(),
               oscillating ? "period" : "e-folding time", to_double(samples.window), to_double(eps), rec.t.size());
}

#define NHS_CLI_ANIMATE_MODE_(S, NAME)                                  \
  template int animate_command<S>(const AnimateOptions&, const std::string&); \
  template double check_mode_animation<S>(const LinearizeOptions&);      \
  template void animate_mode<S>(const LinearizeOptions&, const SteadySpec<S>&, const SteadyLinearization<S>&, \
                                const std::string&);
NHS_FOR_EACH_SCALAR(NHS_CLI_ANIMATE_MODE_)
#undef NHS_CLI_ANIMATE_MODE_

}  // namespace nhs::cli
