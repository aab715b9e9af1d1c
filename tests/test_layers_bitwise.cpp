// The numbers the tool prints are the library's numbers, bit for bit
// (issue 34: `accel` and `run` give the same outputs bit for bit across the
// layers: the tool parses its options into the session's typed requests and
// prints their answers, so that nothing between the option text and the
// printed digits may change a bit).
//
// accel: for every built-in study at its default parameters and default
// state, every formulation that applies to it (the negative control skipped
// where the study excludes it by name from its default run), every precision
// of NHS_FOR_EACH_SCALAR and both the library's field (--library) and the
// default field (the generated code where the study has it), `nhs accel`
// prints q, qdot, qddot, the multipliers, the reaction and Gauss's Z as
// decimal strings. Each reads back (parse_number<S>) as exactly (==) the
// value of ProblemSpec<S> -> make_problem<S> -> accelerations_at<S> for the
// same request, and is the very string to_string<S> makes of it (which
// also tells -0 from 0). The tool prints max_digits10 digits (to_string,
// lib/src/common.cpp), which round-trip in every precision.
//
// run: for every built-in study in double and mp50, with the default
// formulation and field, `nhs run STUDY --t-end 0.5 --dt-out 0.25 --out F`
// writes the CSV that RunSpec<S> -> plan_run<S> -> run_motion<S> with a
// MotionTable<S> gives here, cell by cell as text (to_string<S>, an empty
// cell for a non-finite invariant: CsvRecorder's format), byte for byte.
//
// Where the library refuses a request (a state on a formulation's singular
// set, say), the tool must refuse it with the same exit code
// (classify_error's table). Fixed inputs only: no seed, no clock.
// ctest-labels: unit cli
#include "nhs/session/error_table.hpp"
#include "nhs/field_backend.hpp"
#include "nhs/format.hpp"
#include "nhs/formulation.hpp"
#include "nhs/regularity.hpp"
#include "nhs/session/accelerations.hpp"
#include "nhs/session/motion_table.hpp"
#include "nhs/session/parse.hpp"
#include "nhs/session/problem.hpp"
#include "nhs/session/run_plan.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/motion_run.hpp"
#include "cli_fixture.hpp"
#include "process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <boost/multiprecision/number.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace nhs {
namespace {

using test::CliResult;
using test::lines_of;
using Runner = std::function<CliResult(const std::vector<std::string>&)>;

/// The printed numbers compared so far (expect_same_number), for the
/// summary line of each test.
long numbers_compared = 0;

std::string command_line(const std::vector<std::string>& args) {
  std::string s = "nhs";
  for (const auto& a : args) s += " " + a;
  return s;
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

/// The exit code of the tool for the error the library threw.
int expected_exit_code(const std::exception_ptr& e) {
  return error_class(classify_error(e).category).exit_code;
}

std::string error_message(const std::exception_ptr& e) { return classify_error(e).message; }

/// The printed value `printed` (a JSON string) of `component` is the
/// library's `value`: read back exactly equal, and the same text.
template <class S>
void expect_same_number(const std::string& where, const std::string& component, const nlohmann::json& printed,
                        const S& value) {
  const std::string library = to_string<S>(value);
  if (!printed.is_string()) {
    ADD_FAILURE() << where << ", " << component << ": the tool printed " << printed.dump()
                  << ", not a decimal string; library " << library;
    return;
  }
  const std::string text = printed.get<std::string>();
  ++numbers_compared;
  S parsed;
  try {
    parsed = parse_number<S>(component, text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << where << ", " << component << ": the tool printed '" << text
                  << "', which does not read back: " << e.what() << "; library " << library;
    return;
  }
  EXPECT_TRUE(parsed == value) << where << ", " << component << ": the tool printed " << text
                               << " (read back as " << to_string<S>(parsed) << "), the library has " << library;
  EXPECT_EQ(text, library) << where << ", " << component << ": the tool printed " << text
                           << ", to_string of the library's value is " << library;
}

template <class S>
void expect_same_vector(const std::string& where, const std::string& name, const nlohmann::json& printed,
                        const Vec<S>& value) {
  if (!printed.is_array() || printed.size() != static_cast<std::size_t>(value.size())) {
    ADD_FAILURE() << where << ", " << name << ": the tool printed " << printed.dump() << ", the library has "
                  << value.size() << " values " << to_string(value);
    return;
  }
  for (Eigen::Index i = 0; i < value.size(); ++i)
    expect_same_number<S>(where, name + "[" + std::to_string(i) + "]", printed[static_cast<std::size_t>(i)],
                          value[i]);
}

/// An optional vector (multipliers, reaction): printed exactly where the
/// library has it, absent where it has not.
template <class S>
void expect_same_optional(const std::string& where, const std::string& name, const nlohmann::json& out,
                          const std::optional<Vec<S>>& value) {
  if (!value) {
    EXPECT_FALSE(out.contains(name)) << where << ": the tool printed " << name << " = " << out[name].dump()
                                     << ", the library has none";
    return;
  }
  if (!out.contains(name)) {
    ADD_FAILURE() << where << ": the tool printed no " << name << ", the library has " << to_string(*value);
    return;
  }
  expect_same_vector<S>(where, name, out[name], *value);
}

/// What the accel grid covered, for the checks that it covered something.
struct AccelCount {
  int compared = 0, refused = 0, generated = 0;
  long numbers = 0;  ///< components compared
};

/// `nhs accel` against accelerations_at for every study x applicable
/// formulation x {--library, default field} in precision S.
template <class S>
AccelCount check_accel_grid(const Runner& nhs) {
  AccelCount count;
  const long numbers_before = numbers_compared;
  const std::string precision(ScalarName<S>::value);
  const S margin = regularity_tolerance<S>();  // the tool's default --singular-margin for accel
  for (const Study<S>& st : studies<S>()) {
    const std::string study = st.info.name;
    const System<S> sys = st.build(st.default_parameters());
    for (const auto& f : formulations<S>()) {
      const std::string name = f->name();
      if (!f->not_applicable_reason(sys).empty()) continue;
      if (f->is_negative_control() && st.default_run_excluded.count(name)) continue;
      for (const bool library : {true, false}) {
        const std::string where = "study " + study + ", formulation " + name + ", precision " + precision +
                                  ", field " + (library ? "--library" : "default");
        std::vector<std::string> args = {"accel", study, "--formulation", name, "--precision", precision};
        if (library) args.push_back("--library");

        ProblemSpec<S> spec;
        spec.system = study;
        spec.formulation = name;
        spec.precision = precision;
        if (library) spec.field = FieldBackend::library;
        std::optional<AccelAnswer<S>> answer;
        std::exception_ptr error;
        try {
          answer = accelerations_at<S>(make_problem<S>(spec), margin, false);
        } catch (...) {
          error = std::current_exception();
        }

        const CliResult r = nhs(args);
        if (error) {  // refused by the library: refused by the tool, with the same code
          ++count.refused;
          EXPECT_EQ(r.code, expected_exit_code(error))
              << where << ": the library refuses (" << error_message(error) << "), " << command_line(args)
              << " exits " << r.code << "\nstderr: " << r.err << "\nstdout: " << r.out;
          EXPECT_EQ(r.err.rfind("nhs: error: ", 0), 0u) << where << ": " << r.err;
          continue;
        }
        if (r.code != 0) {
          ADD_FAILURE() << where << ": " << command_line(args) << " exits " << r.code
                        << " where the library answers\nstderr: " << r.err;
          continue;
        }
        nlohmann::json out;
        try {
          out = nlohmann::json::parse(r.out);
        } catch (const std::exception& e) {
          ADD_FAILURE() << where << ": " << command_line(args) << " printed no JSON (" << e.what() << "):\n"
                        << r.out;
          continue;
        }
        ++count.compared;
        const AccelAnswer<S>& a = *answer;
        if (a.field == std::string("generated")) ++count.generated;
        EXPECT_EQ(out.value("study", ""), a.study) << where << ": study";
        EXPECT_EQ(out.value("formulation", ""), a.formulation) << where << ": the evaluated formulation";
        EXPECT_EQ(out.value("field", ""), a.field) << where << ": the field backend";
        EXPECT_EQ(out.value("precision", ""), precision) << where << ": precision";
        if (library) {
          EXPECT_EQ(a.field, "library") << where;
        }
        if (!out.contains("parameters") || !out["parameters"].is_object()) {
          ADD_FAILURE() << where << ": the tool printed no parameters object:\n" << r.out;
          continue;
        }
        for (const auto& [pname, pvalue] : a.parameters) {
          if (!out["parameters"].contains(pname)) {
            ADD_FAILURE() << where << ": the tool printed no parameter " << pname << ", the library has "
                          << to_string<S>(pvalue);
            continue;
          }
          expect_same_number<S>(where, "parameter " + pname, out["parameters"][pname], pvalue);
        }
        EXPECT_EQ(out["parameters"].size(), a.parameters.size()) << where << ": parameters " << out["parameters"];
        expect_same_vector<S>(where, "q", out.value("q", nlohmann::json()), a.q);
        expect_same_vector<S>(where, "qdot", out.value("qdot", nlohmann::json()), a.qdot);
        expect_same_vector<S>(where, "qddot", out.value("qddot", nlohmann::json()), a.acceleration.qddot);
        expect_same_optional<S>(where, "multipliers", out, a.acceleration.multipliers);
        expect_same_optional<S>(where, "reaction", out, a.acceleration.reaction);
        expect_same_number<S>(where, "gauss_z", out.value("gauss_z", nlohmann::json()), a.gauss_z);
      }
    }
  }
  count.numbers = numbers_compared - numbers_before;
  return count;
}

/// A CSV cell as CsvRecorder writes it: to_string, empty for NaN (an
/// invariant that is not finite).
template <class S>
std::string csv_cell(const S& v) {
  using boost::multiprecision::isnan;
  using std::isnan;
  return isnan(v) ? std::string() : to_string<S>(v);
}

/// `nhs run STUDY --precision P --t-end 0.5 --dt-out 0.25 --out F` against
/// RunSpec -> plan_run -> run_motion with a MotionTable, for every study.
template <class S>
int check_run_grid(const Runner& nhs, const std::filesystem::path& dir) {
  int compared = 0;
  long cells_compared = 0;
  const std::string precision(ScalarName<S>::value);
  const std::string t_end = "0.5", dt_out = "0.25";
  for (const Study<S>& st : studies<S>()) {
    const std::string study = st.info.name;
    const std::filesystem::path csv = dir / (study + "." + precision + ".csv");
    const std::vector<std::string> args = {"run",      study,  "--precision", precision, "--t-end",
                                           t_end,      "--dt-out", dt_out,    "--out",   csv.string()};

    // In-process: the request the tool builds from these options
    // (cli::run_spec): no formulation, no field, no state, no tolerances.
    RunSpec<S> spec;
    spec.problem.system = study;
    spec.problem.precision = precision;
    spec.t_end = parse_number<S>("--t-end", t_end);
    spec.dt_out = parse_number<S>("--dt-out", dt_out);
    std::string formulation = "(default)";
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::exception_ptr error;
    try {
      const RunPlan<S> plan = plan_run<S>(spec);
      const Problem<S>& p = plan.problem;
      formulation = p.formulation->name();
      const MotionReference<S> reference = plan_reference(plan);
      const MotionTable<S> table(p.sys, reference);
      header = table.columns();
      MotionObservers<S> observers;
      observers.record = [&](const Sample<S>& s) {
        const std::vector<S> values = table.values(s);  // throws as the CSV writer does, before the row
        std::vector<std::string> row;
        for (const S& v : values) row.push_back(csv_cell<S>(v));
        rows.push_back(std::move(row));
      };
      const MotionRun<S> run =
          run_motion<S>(p.sys, *p.formulation, State<S>{p.q, p.qdot}, plan.options, reference, observers);
      error = run.error;
    } catch (...) {
      error = std::current_exception();
    }
    const std::string where = "study " + study + ", formulation " + formulation + ", precision " + precision;

    const CliResult r = nhs(args);
    const int code = error ? expected_exit_code(error) : 0;
    EXPECT_EQ(r.code, code) << where << ": " << command_line(args) << " exits " << r.code << ", the library's run "
                            << (error ? "ends with: " + error_message(error) : std::string("completes"))
                            << "\nstderr: " << r.err;
    if (code == 0) {
      EXPECT_NE(r.err.find("with " + formulation + " in " + precision), std::string::npos)
          << where << ": the tool's summary names another formulation: " << r.err;
    }
    const std::string text = test::slurp(csv);
    std::string expected_text;
    if (!rows.empty()) {
      std::string line;
      for (std::size_t k = 0; k < header.size(); ++k) line += (k ? "," : "") + header[k];
      expected_text += line + "\n";
      for (const auto& row : rows) {
        line.clear();
        for (std::size_t k = 0; k < row.size(); ++k) line += (k ? "," : "") + row[k];
        expected_text += line + "\n";
      }
    }
    const std::vector<std::string> lines = lines_of(text);
    EXPECT_EQ(lines.size(), rows.empty() ? 0 : rows.size() + 1)
        << where << ": the tool wrote " << lines.size() << " CSV lines, the library " << rows.size()
        << " rows and a header";
    if (!lines.empty() && !rows.empty()) {
      EXPECT_EQ(split_cells(lines[0]), header) << where << ": the CSV header";
    }
    int reported = 0;
    for (std::size_t i = 0; i + 1 < lines.size() && i < rows.size(); ++i) {
      const std::vector<std::string> cells = split_cells(lines[i + 1]);
      EXPECT_EQ(cells.size(), rows[i].size()) << where << ", row " << i << ": cells";
      for (std::size_t k = 0; k < cells.size() && k < rows[i].size(); ++k) {
        ++cells_compared;
        if (cells[k] == rows[i][k]) continue;
        if (++reported > 20) break;  // the first 20 differences are enough to read
        ADD_FAILURE() << where << ", row " << i << " (t = " << rows[i][0] << "), column "
                      << (k < header.size() ? header[k] : std::to_string(k)) << ": the tool wrote '" << cells[k]
                      << "', the library's row has '" << rows[i][k] << "'";
      }
    }
    EXPECT_TRUE(text == expected_text) << where << ": the CSV body differs from the library's rows ("
                                       << text.size() << " bytes against " << expected_text.size() << ")";
    EXPECT_FALSE(rows.empty()) << where << ": the library's run wrote no row";
    ++compared;
  }
  std::printf("run %s: %d studies, %ld CSV cells compared\n", precision.c_str(), compared, cells_compared);
  return compared;
}

class LayersBitwise : public test::CliProcessTest {
 protected:
  Runner runner() {
    return [this](const std::vector<std::string>& args) { return nhs(args); };
  }

  template <class S>
  void accel() {
    const AccelCount c = check_accel_grid<S>(runner());
    std::printf("accel %s: %d requests compared (%d on the generated field), %d refused alike, %ld numbers\n",
                std::string(ScalarName<S>::value).c_str(), c.compared, c.generated, c.refused, c.numbers);
    // Every study gives at least its default formulation in both fields,
    // and the default field is the generated code somewhere.
    EXPECT_GE(c.compared, 2 * static_cast<int>(studies<S>().size())) << ScalarName<S>::value;
    EXPECT_GT(c.generated, 0) << ScalarName<S>::value;
  }

  template <class S>
  void run() {
    EXPECT_EQ(check_run_grid<S>(runner(), dir_), static_cast<int>(studies<S>().size()));
  }
};

TEST_F(LayersBitwise, AccelDouble) { accel<double>(); }
TEST_F(LayersBitwise, AccelLongDouble) { accel<long double>(); }
TEST_F(LayersBitwise, AccelFloat128) { accel<float128>(); }
TEST_F(LayersBitwise, AccelMp50) { accel<mp50>(); }
TEST_F(LayersBitwise, AccelMp100) { accel<mp100>(); }

TEST_F(LayersBitwise, RunDouble) { run<double>(); }
TEST_F(LayersBitwise, RunMp50) { run<mp50>(); }

}  // namespace
}  // namespace nhs
