// `nhs linearize` and `nhs stability`: their options read into the
// session's typed request (nhs/session/steady_linearization.hpp), the
// documents written (nhs/session/linearization_report.hpp;
// docs/linearization.md).
#include "cli.hpp"

namespace nhs::cli {

template <class S>
SteadySpec<S> steady_spec(const LinearizeOptions& opts) {
  SteadySpec<S> spec;
  spec.system = opts.system;
  spec.steady = opts.steady;
  spec.formulation = opts.formulation;
  const Study<S>& study = find_study<S>(opts.system);
  for (const auto& [name, text] : parse_params(opts.at)) spec.at.emplace_back(name, parse_number<S>("--at " + name, text));
  spec.parameters = parameter_overrides<S>(study, parse_params(opts.params));
  return spec;
}

template <class S>
int linearize_command(const LinearizeOptions& opts) {
  const SteadySpec<S> spec = steady_spec<S>(opts);
  fmt::print("{}\n", linearization_json<S>(linearize_steady<S>(spec, family_values<S>(spec)), opts.precision));
  return 0;
}

template <class S>
int stability_command(const StabilityOptions& opts) {
  const SteadySpec<S> spec = steady_spec<S>(opts);
  const S from = parse_number<S>("--from", opts.from), to = parse_number<S>("--to", opts.to);
  const std::uint64_t points = parse_count("--points", opts.points);
  if (!opts.csv.empty()) refuse_overwriting(opts.system, opts.csv, "--csv");
  const StabilityScan<S> scan = scan_stability<S>(spec, opts.vary, from, to, points);
  if (!opts.csv.empty()) write_text_file(opts.csv, stability_csv<S>(scan));
  fmt::print("{}\n", stability_json<S>(scan, opts.precision, opts.csv));
  return 0;
}

#define NHS_CLI_LINEARIZE_(S, NAME)                                 \
  template SteadySpec<S> steady_spec<S>(const LinearizeOptions&); \
  template int linearize_command<S>(const LinearizeOptions&);      \
  template int stability_command<S>(const StabilityOptions&);
NHS_FOR_EACH_SCALAR(NHS_CLI_LINEARIZE_)
#undef NHS_CLI_LINEARIZE_

}  // namespace nhs::cli
