// `nhs findings`: the bipendulum's findings (nhs/studies/bipendulum_findings.hpp)
// written for the report into <out-dir>/studies/: one CSV per table
//   bipendulum_energy_separation.csv        T_k + V_k drift, incline and harmonic
//                                           (the incline series ends at t = 2:
//                                           its later fields are empty)
//   bipendulum_linear_nonlinear.csv         linear vs non-linear bipendulum (Hertz)
//   bipendulum_symmetric_pendulum.csv       the symmetric motion against the exact
//                                           pendulum, up to the singular turning point
//   bipendulum_near_singular.csv            digits kept per precision as t -> T/4
//   bipendulum_epsilon_circle.csv           the circle of 000 eq. 89 as the
//                                           epsilon -> 0 limit (mp50)
//   bipendulum_epsilon_circle_paths.csv     P1's path for each epsilon
// and bipendulum_findings.json, each table's title and parameters (setups,
// spans, tolerances, precisions, formulation) by file name, which the
// report's captions read. Each file is written as soon as its table is
// computed (the JSON rewritten with it); a failure keeps the files already
// written.
#include "cli.hpp"

#include "nhs/studies/bipendulum_findings.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace nhs::cli {

namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& text) {
  write_text_file(path.string(), text);
  fmt::print(stderr, "nhs findings: wrote {}\n", path.string());
}

std::string csv_text(const FindingTable& t) {
  const auto line = [](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
    return out + "\n";
  };
  std::string text = line(t.columns);
  for (const auto& row : t.rows) text += line(row);
  return text;
}

}  // namespace

int findings_command(const FindingsOptions& opts) {
  const fs::path dir = fs::path(opts.out_dir) / "studies";
  fs::create_directories(dir);
  nlohmann::ordered_json meta = {
      {"command", std::string("nhs findings") + (opts.quick ? " --quick" : "")},
      {"tables", nlohmann::ordered_json::object()}};
  bipendulum_findings(opts.quick, [&](const FindingTable& t) {
    write_file(dir / t.file, csv_text(t));
    nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
    for (const auto& [key, value] : t.parameters) parameters[key] = value;
    meta["tables"][t.file] = {{"title", t.title}, {"parameters", parameters}};
    write_file(dir / "bipendulum_findings.json", meta.dump(2) + "\n");
  });
  return 0;
}

}  // namespace nhs::cli
