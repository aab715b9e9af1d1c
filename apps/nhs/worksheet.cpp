// `nhs worksheet SYSTEM --out DIR`: one page per system for a teacher or a
// reader checking a derivation (docs/equations.md, "Worksheet"): the
// system's data, its constraint classification, every formulation's
// equations and the symbolic cross-checks, as DIR/index.html (typeset by
// MathJax, copied next to it from Debian's libjs-mathjax: no network) and
// DIR/worksheet.md (Markdown with LaTeX).
#include "cli.hpp"
#include "interrupt.hpp"
#include "io.hpp"
#include "progress.hpp"

#include "nhs/session/animation.hpp"
#include "nhs/session/scene.hpp"
#include "nhs/studies/system_file.hpp"
#include "nhs/studies/traced.hpp"
#include "nhs/symbolic/print.hpp"
#include "nhs/symbolic/worksheet.hpp"

#include <filesystem>

namespace nhs::cli {
namespace {

namespace fs = std::filesystem;

// The part of MathJax 2 that the TeX-AMS_SVG-full configuration loads
// (about 2.6 MB of the package's 54 MB): the SVG output draws glyphs from
// its own TeX font data, so no web fonts are needed.
const std::vector<std::string> kMathJaxFiles = {
    "MathJax.js",           "config/TeX-AMS_SVG-full.js", "extensions",
    "jax/element",          "jax/input/TeX",              "jax/output/SVG/config.js",
    "jax/output/SVG/jax.js", "jax/output/SVG/autoload",   "jax/output/SVG/fonts/TeX",
    "localization/en"};

void check_mathjax(const std::string& dir) {
  for (const auto& f : kMathJaxFiles)
    if (!fs::exists(fs::path(dir) / f))
      throw UsageError("--mathjax: '" + (fs::path(dir) / f).string() +
                       "' not found: MathJax 2 comes from Debian's libjs-mathjax (scripts/setup.sh installs it), "
                       "or give the directory of a MathJax 2 copy with --mathjax DIR");
}

void copy_mathjax(const std::string& from, const fs::path& to) {
  for (const auto& f : kMathJaxFiles) {
    const fs::path source = fs::path(from) / f, target = to / f;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (!ec)
      fs::copy(source, target, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (ec) throw_io_error("cannot copy MathJax to", target.string(), ec.value());
  }
}

// The default motion of a system with bodies drawn into `folder` (an
// absolute path, checked by check_animation_folder) as `nhs animate SYSTEM`
// draws it with its defaults (animate_run): the link, the command and why
// its run stopped (or why nothing was drawn), for the page's "Motion"
// section.
void draw_default_motion(const WorksheetOptions& opts, const std::string& folder, symbolic::WorksheetContents& c) {
  AnimateOptions a;
  a.study = opts.system;
  c.animation_command = "nhs animate " + opts.system + " --out " + (fs::path(opts.out) / "animation").string();
  const AnimationRequest request{.out = folder, .three = opts.three, .command = c.animation_command, .fps = 30};
  std::optional<InterruptGuard> sigint;
  try {
    const AnimationWritten w = animate_run<double>(
        run_spec<double>(a), request,
        [](const double& t_now) {
          if (interrupt_requested()) throw Interrupted("interrupted (SIGINT) at t = " + to_string<double>(t_now));
        },
        [&] { sigint.emplace(); });
    c.animation = "animation/index.html";
    c.animation_stopped = w.stopped;
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {  // stopped before its first sample: nothing drawn, the page says why
    c.animation_stopped = e.what();
  }
  if (!c.animation_stopped.empty())
    std::fprintf(stderr, "nhs: the default motion %s: %s\n", c.animation.empty() ? "was not drawn" : "stopped",
                 c.animation_stopped.c_str());
}

}  // namespace

int worksheet_command(const WorksheetOptions& opts, const std::string& command) {
  if (opts.out.empty()) throw UsageError("--out: empty directory name");
  check_mathjax(opts.mathjax);
  const fs::path out(opts.out);
  if (fs::exists(out) && !fs::is_directory(out))
    throw UsageError("--out: '" + opts.out + "' exists and is not a directory");
  if (is_system_file_name(opts.system)) refuse_overwriting(opts.system, opts.out, "--out");
  const bool animated = !opts.no_animation && system_has_bodies(opts.system);
  const std::string animation = absolute_animation_folder((out / "animation").string(), "--out");
  if (animated) check_animation_folder(animation, "--out", 30, "--fps", opts.three, "--three", opts.system);

  // Everything is derived before anything is written.
  const TracedStudy traced = find_traced_study(opts.system);
  symbolic::require_derivation_budget(traced.build, traced.info, derivation_budget(opts.max_derivation_size),
                                      "--max-derivation-size");
  ProgressLine progress("nhs worksheet");
  const symbolic::SymbolicSystem s = symbolic::symbolic_system(traced.build, traced.info);
  symbolic::WorksheetContents c;
  c.written = symbolic::printable_formulations(s, opts.formulations, &c.not_written, derivation_progress(progress));
  progress.tick([] { return std::string("the symbolic cross-checks"); }, 0, 1);
  c.classification = classification_text(opts.system);
  c.frobenius = symbolic::symbolic_frobenius(s);
  c.proofs = symbolic::prove(s);
  progress.clear();
  c.command = command;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw_io_error("cannot create", opts.out, ec.value());
  if (animated) draw_default_motion(opts, animation, c);
  const symbolic::Document page = symbolic::worksheet_document(s, c);
  copy_mathjax(opts.mathjax, out / "mathjax");
  write_text_file((out / "worksheet.md").string(), symbolic::to_markdown(page));
  write_text_file((out / "index.html").string(), symbolic::to_html(page, "mathjax/MathJax.js"));
  for (const auto& w : c.not_written) std::fprintf(stderr, "nhs: not written: %s\n", w.c_str());
  std::printf("nhs worksheet: wrote %s (%d formulas, MathJax 2 from %s in %s) and %s\n",
              (out / "index.html").c_str(), symbolic::formula_count(page), opts.mathjax.c_str(),
              (out / "mathjax").c_str(), (out / "worksheet.md").c_str());
  if (animated) std::printf("nhs worksheet: drew the default motion in %s/index.html\n", animation.c_str());
  return 0;
}

}  // namespace nhs::cli
