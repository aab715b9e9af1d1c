// The animation folder of a run (docs/animation.md): index.html (the page,
// compiled in from apps/nhs/animation/index.html), data.js
// (window.NHS_ANIMATION: the bodies' poses at each sample), three.min.js and
// OrbitControls.js copied from Debian's libjs-three (r111). `nhs animate`,
// `nhs linearize --animate` and the Python module's Run.animate write it
// through these functions, so that the same run gives the same folder.
#pragma once

#include "nhs/session/scene.hpp"
#include "nhs/session/simulate.hpp"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nhs {

/// The size bound of an animation: samples x (bodies + contacts) at most
/// this (about 300 bytes of data.js each; docs/animation.md, "Size").
inline constexpr std::uint64_t kMaxAnimationItems = 2'000'000;

/// The text of index.html: three.js r111 (three.min.js, OrbitControls.js
/// next to it) and data.js's window.NHS_ANIMATION drawn; never null.
const char* animation_page_html();

/// What the samples of an animation keep: t, the poses (Scene::values, 12
/// per body then 3 per contact, one sample after the other) and the first
/// turning plane's rate (empty when no plane turns), as doubles.
struct AnimationSamples {
  std::vector<double> t, poses, rates;
};

/// data.js: "window.NHS_ANIMATION = {...};" (JSON, which a page cannot fetch
/// over file://): the scene's head (system, title, command, up axis,
/// contacts, stopped: the reason a run stopped or null, mode when not null,
/// bodies with their shapes and sizes), then the arrays t, poses and
/// plane_angle (the trapezoid rule over the rates) when a plane turns.
/// Numbers in the shortest form that reads back the same double.
template <class S>
std::string animation_data_js(const Scene<S>& scene, const AnimationSamples& r, const std::string& system,
                              const std::string& title, const std::string& command, const std::string& stopped,
                              const nlohmann::json& mode = {});

/// The refusals before anything runs, for the folder `out` (an absolute
/// path, absolute_animation_folder) given by `option` (the tool's "--out",
/// Python's "path"): UsageError when it exists and is not a directory, or is
/// a directory with other files than an animation of nhs (its data.js
/// starts with "window.NHS_ANIMATION"), or is the system file `system`
/// itself; when `fps` (named `fps_option`) is not in (0, 1e6]; when three.js
/// is not in `three` (named `three_option`).
void check_animation_folder(const std::string& out, const std::string& option, double fps,
                            const std::string& fps_option, const std::string& three, const std::string& three_option,
                            const std::string& system);

/// `out` as an absolute folder without a trailing '/'; UsageError naming
/// `option` when empty.
std::string absolute_animation_folder(const std::string& out, const std::string& option);

/// Writes the folder `out` (index.html, data.js holding `data`, three.js
/// copied from `three`) through a temporary sibling renamed into place, so
/// that nothing is half-written. IoError (exit 5) naming `option` when it
/// cannot.
void write_animation_folder(const std::string& out, const std::string& three, const std::string& data,
                            const std::string& option = "--out");

/// The request of an animation of a run: the folder (checked by
/// check_animation_folder), three.js, the frames per unit of simulated
/// time (the run's dt_out becomes 1 / fps), what the page records as its
/// command, and the names of the options in messages.
struct AnimationRequest {
  std::string out, three, command;
  double fps = 30;
  std::string fps_option = "--fps", out_option = "--out", three_option = "--three";
};

/// What an animation of a run wrote: its samples, their last time, the
/// bodies and contacts drawn, the reason the run stopped ("" when it
/// completed), and the run's error (null when it completed): the caller
/// rethrows it, after the folder is written.
struct AnimationWritten {
  std::size_t samples = 0, bodies = 0, contacts = 0;
  double t_last = 0;
  std::string stopped;
  std::exception_ptr error;
};

/// The run of `spec` (simulate, with its dt_out set to 1 / request.fps)
/// drawn into request.out. UsageError before any step for a system without
/// bodies (Scene) or more than kMaxAnimationItems body-samples;
/// `interrupt` is called as RunObservers::interrupt, `planned` once the
/// plan passed these checks (may be empty). A run that stops (a singular
/// set) writes what it integrated with the reason on the page (.stopped,
/// .error); a run that stops before its first sample, or on a UsageError,
/// rethrows its error and writes nothing.
template <class S>
AnimationWritten animate_run(RunSpec<S> spec, const AnimationRequest& request,
                             const std::function<void(const S&)>& interrupt, const std::function<void()>& planned = {});

}  // namespace nhs
