// The documents of `nhs linearize` and `nhs stability`
// (nhs/session/linearization_report.hpp).
#include "nhs/session/linearization_report.hpp"

#include "nhs/session/json_values.hpp"

#include <nlohmann/json.hpp>

namespace nhs {
namespace {

std::vector<std::string> names_of(const std::vector<std::string>& state, const std::vector<int>& idx) {
  std::vector<std::string> out;
  for (const int i : idx) out.push_back(state[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

template <class S>
std::string linearization_json(const SteadyLinearization<S>& s, const std::string& precision) {
  const Linearization<S>& L = s.lin;
  nlohmann::ordered_json out;
  out["system"] = s.system;
  out["formulation"] = s.formulation;
  out["precision"] = precision;
  out["steady"] = s.family;
  out["source"] = s.source;
  nlohmann::ordered_json at = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < s.family_parameters.size(); ++k)
    at[s.family_parameters[k]] = to_string<S>(s.mu[static_cast<Eigen::Index>(k)]);
  out["at"] = at;
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : s.parameters) params[name] = to_string<S>(value);
  out["parameters"] = params;
  out["state"] = s.state;
  out["x"] = json_strings<S>(s.x);
  out["field"] = json_strings<S>(L.f);
  out["cyclic"] = names_of(s.state, L.cyclic);
  out["reduced"] = names_of(s.state, L.reduced);
  out["eigenvalues"] = json_complex<S>(L.eigenvalues);
  out["error_bounds"] = json_strings<S>(Vec<S>(Eigen::Map<const Vec<S>>(L.bounds.data(),
                                                                       static_cast<Eigen::Index>(L.bounds.size()))));
  out["unstable"] = L.unstable;
  out["marginal"] = L.marginal;
  out["undecided"] = L.undecided;
  out["verdict"] = stability_verdict(L);
  out["zero_eigenvalues"] = {{"family", json_complex<S>(L.family_eigenvalues)},
                             {"cyclic", json_complex<S>(L.cyclic_eigenvalues)},
                             {"holonomic", json_complex<S>(L.holonomic_eigenvalues)}};
  out["residuals"] = {{"steady", to_string<S>(L.steady_residual)},
                      {"family", to_string<S>(L.family_residual)},
                      {"holonomic", to_string<S>(L.holonomic_residual)},
                      {"tolerance", to_string<S>(L.tolerance)}};
  out["tangent"] = json_rows<S>(L.tangent);
  out["reduced_matrix"] = json_rows<S>(L.D);
  out["jacobian"] = json_rows<S>(L.J);
  return out.dump(2);
}

std::string stability_csv_header(const std::string& vary, std::size_t eigenvalues) {
  std::string csv = vary + ",unstable,marginal,undecided";
  for (std::size_t j = 1; j <= eigenvalues; ++j) csv += ",re_" + std::to_string(j) + ",im_" + std::to_string(j);
  return csv + "\n";
}

template <class S>
std::string stability_csv_row(const S& value, const Linearization<S>& lin) {
  std::string csv = to_string<S>(value) + "," + std::to_string(lin.unstable) + "," + std::to_string(lin.marginal) +
                    "," + std::to_string(lin.undecided);
  for (const auto& [re, im] : lin.eigenvalues) csv += "," + to_string<S>(re) + "," + to_string<S>(im);
  return csv + "\n";
}

template <class S>
std::string stability_csv(const StabilityScan<S>& scan) {
  std::string csv;
  for (std::size_t i = 0; i < scan.grid.size(); ++i) {
    const Linearization<S>& lin = scan.motions[i].lin;
    if (csv.empty()) csv = stability_csv_header(scan.vary, lin.eigenvalues.size());
    csv += stability_csv_row<S>(scan.grid[i], lin);
  }
  return csv;
}

template <class S>
std::string stability_json(const StabilityScan<S>& scan, const std::string& precision, const std::string& csv) {
  nlohmann::ordered_json out;
  out["system"] = scan.system;
  out["formulation"] = scan.formulation;
  out["precision"] = precision;
  out["steady"] = scan.family;
  out["vary"] = scan.vary;
  out["from"] = scan.from_text.empty() ? to_string<S>(scan.from) : scan.from_text;
  out["to"] = scan.to_text.empty() ? to_string<S>(scan.to) : scan.to_text;
  out["points"] = scan.grid.size();
  if (!csv.empty()) out["csv"] = csv;
  nlohmann::ordered_json cs = nlohmann::ordered_json::array();
  for (const auto& c : scan.crossings) {
    nlohmann::ordered_json j;
    j["at"] = to_string<S>(c.at);
    j["kind"] = c.kind;
    j["frequency"] = to_string<S>(c.frequency);
    j["unstable_below"] = c.unstable_before;
    j["unstable_above"] = c.unstable_after;
    j["method"] = c.method;
    j["bracket"] = {to_string<S>(c.lo), to_string<S>(c.hi)};
    cs.push_back(j);
  }
  out["crossings"] = cs;
  nlohmann::ordered_json undecided = nlohmann::ordered_json::array();
  for (const S& v : scan.undecided) undecided.push_back(to_string<S>(v));
  out["undecided"] = undecided;
  return out.dump(2);
}

#define NHS_LINEARIZATION_REPORT_INSTANTIATE_(S, NAME)                                             \
  template std::string linearization_json<S>(const SteadyLinearization<S>&, const std::string&); \
  template std::string stability_json<S>(const StabilityScan<S>&, const std::string&,             \
                                         const std::string&);                                     \
  template std::string stability_csv<S>(const StabilityScan<S>&);                                 \
  template std::string stability_csv_row<S>(const S&, const Linearization<S>&);
NHS_FOR_EACH_SCALAR(NHS_LINEARIZATION_REPORT_INSTANTIATE_)
#undef NHS_LINEARIZATION_REPORT_INSTANTIATE_

}  // namespace nhs
