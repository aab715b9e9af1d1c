// `nhs findings`: the bipendulum's findings as CSV files for the report
// (reports/<dir>/studies/), each computed by the library functions the tests
// assert (nhs/studies/bipendulum.hpp):
//   bipendulum_epsilon_circle.csv        the circle of 000 eq. 89 as the
//                                        epsilon -> 0 limit (mp50)
//   bipendulum_epsilon_circle_paths.csv  P1's path for each epsilon
//   bipendulum_linear_nonlinear.csv      linear vs non-linear bipendulum (Hertz)
//   bipendulum_symmetric_pendulum.csv    the symmetric motion against the exact
//                                        pendulum, up to the singular turning point
//   bipendulum_near_singular.csv         digits kept per precision as t -> T/4
//   bipendulum_energy_separation.csv     T_k + V_k drift, incline and harmonic
//                                        (the incline series ends at t = 2:
//                                        its later fields are empty)
// Each file is written as soon as it is computed; a failure keeps the files
// already written.
#include "cli.hpp"

#include "nhs/studies/bipendulum.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>

namespace nhs::cli {

namespace {

namespace fs = std::filesystem;

class Csv {
 public:
  Csv(const fs::path& path, const std::string& header) : path_(path), out_(path) {
    if (!out_) throw IoError("--out-dir: cannot write '" + path.string() + "'");
    write(header);
  }
  template <class... T>
  void row(const T&... values) {
    std::string line;
    bool first = true;
    ((line += (first ? "" : ",") + cell(values), first = false), ...);
    write(line);
  }
  ~Csv() { fmt::print(stderr, "nhs findings: wrote {}\n", path_.string()); }

 private:
  static std::string cell(const std::string& s) { return s; }
  static std::string cell(const char* s) { return s; }
  // A missing or non-finite value is an empty field, never "nan".
  static std::string cell(double x) { return std::isfinite(x) ? fmt::format("{:.17g}", x) : ""; }
  template <class S>
  static std::string cell(const S& x) {
    using boost::multiprecision::isfinite;
    using std::isfinite;
    return isfinite(x) ? to_string<S>(x) : "";
  }
  void write(const std::string& line) {
    out_ << line << "\n";
    out_.flush();
    if (!out_) throw IoError("cannot write '" + path_.string() + "'");
  }
  fs::path path_;
  std::ofstream out_;
};

template <class S>
S max_error(const State<S>& a, const State<S>& b) {
  using std::max;
  return max((a.q - b.q).cwiseAbs().maxCoeff(), (a.qdot - b.qdot).cwiseAbs().maxCoeff());
}

}  // namespace

int findings_command(const FindingsOptions& opts) {
  const fs::path dir = fs::path(opts.out_dir) / "studies";
  fs::create_directories(dir);

  {  // Energy separation (000 eqs. 85-86), double and mp50.
    Csv csv(dir / "bipendulum_energy_separation.csv",
            "t,E1_drift_incline_double,E2_drift_incline_double,E1_drift_harmonic_double,"
            "E2_drift_harmonic_double,E1_drift_harmonic_mp50,E2_drift_harmonic_mp50");
    auto drifts = [&]<class S>(const std::vector<S>& params, const State<S>& x0, const S& t_end) {
      const Study<S>& st = find_study<S>("bipendulum");
      const System<S> sys = st.build(params);
      const auto inv = st.invariants(sys);
      const S e10 = inv[0].value(x0.q, x0.qdot), e20 = inv[1].value(x0.q, x0.qdot);
      IntegrationOptions<S> io;
      io.t_end = t_end;
      io.dt_out = S(1) / S(10);
      std::vector<std::pair<double, double>> out;
      integrate<S>(sys, find_formulation<S>("second-kind"), x0.q, x0.qdot, io,
                   [&](const Sample<S>& s) {
                     using std::abs;
                     out.emplace_back(static_cast<double>(abs(inv[0].value(s.q, s.qdot) - e10)),
                                      static_cast<double>(abs(inv[1].value(s.q, s.qdot) - e20)));
                   },
                   nullptr);
      return out;
    };
    auto states = [&]<class S>(bool incline) {
      Vec<S> q(4);
      if (incline) {
        q << from_string<S>("1.2"), from_string<S>("0.3"), from_string<S>("-0.9"),
            from_string<S>("-0.5");
        return bipendulum_state<S>(q, from_string<S>("0.4"), from_string<S>("0.6"),
                                   from_string<S>("-0.8"));
      }
      q << from_string<S>("1.5"), S(0), from_string<S>("0.5"), S(1);
      return bipendulum_state<S>(q, S(0), S(1), S(-1));
    };
    // The incline motion of docs/special-motions.md (a) stays regular to t = 2;
    // the harmonic one (k = 1, test_bipendulum.cpp) to t = 20.
    const auto inc = drifts(std::vector<double>{0.8, 1.5, 2.2, 0}, states.operator()<double>(true), 2.0);
    const std::vector<mp50> pm = {from_string<mp50>("0.8"), from_string<mp50>("1.5"), mp50(0),
                                  mp50(1)};
    const auto har = drifts(std::vector<double>{0.8, 1.5, 0, 1}, states.operator()<double>(false), 20.0);
    const auto har50 = drifts(pm, states.operator()<mp50>(false), mp50(opts.quick ? 2 : 20));
    for (std::size_t i = 0; i < har.size(); ++i) {
      const auto at = [](const auto& v, std::size_t k, bool first) {
        return k < v.size() ? (first ? v[k].first : v[k].second) : std::nan("");
      };
      csv.row(0.1 * static_cast<double>(i), at(inc, i, true), at(inc, i, false),
              at(har, i, true), at(har, i, false), at(har50, i, true), at(har50, i, false));
    }
  }

  {  // Linear vs non-linear bipendulum (Hertz's limit), double.
    Csv csv(dir / "bipendulum_linear_nonlinear.csv",
            "t,distance_P1,distance_P2,y0_bipendulum,y0_linear_m0_1,y0_linear_m0_1e-8");
    const FindingSettings<double> fsd{1e-13};
    const auto a = hertz_comparison<double>(1.0, 10.0, 0.05, fsd);
    const auto b = hertz_comparison<double>(1e-8, 10.0, 0.05, fsd);
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
      csv.row(a[i].t, a[i].distance_P1, a[i].distance_P2, a[i].y0_bipendulum, a[i].y0_linear,
              b[i].y0_linear);
  }

  {  // The symmetric motion against the exact pendulum, to 0.999 T/4.
    Csv csv(dir / "bipendulum_symmetric_pendulum.csv",
            "t,theta_exact,error_double,sigma_min_dC_dqdot,t_over_quarter_period");
    const SpecialMotion<double> mo = symmetric_pendulum_motion<double>(0.999);
    const PendulumMotion<double> p(1.2, 3.0, 1.5, 1.0);
    const System<double> sys = find_study<double>("bipendulum").build(mo.parameters);
    IntegrationOptions<double> io;
    io.t_end = mo.t_end;
    io.dt_out = mo.t_end / 200;
    io.rtol = io.atol = 1e-13;
    integrate<double>(sys, find_formulation<double>("second-kind"), mo.initial.q,
                      mo.initial.qdot, io,
                      [&](const Sample<double>& s) {
                        const State<double> e = mo.exact(s.t);
                        csv.row(s.t, std::atan2(e.q[1], e.q[0]),
                                max_error<double>({s.q, s.qdot}, e),
                                regularity_margins(sys, s.q, s.qdot).front().value,
                                s.t / p.quarter_period);
                      },
                      nullptr);
  }

  {  // Digits kept near the singular turning point, per precision.
    Csv csv(dir / "bipendulum_near_singular.csv",
            "one_minus_fraction,error_double,error_mp50,sigma_min_double,sigma_min_mp50");
    for (const char* f : {"0.1", "0.01", "0.001", "0.0001", "0.00001"}) {
      const auto d = symmetric_near_turning_point<double>(1.0 - std::stod(f), {1e-13});
      const auto m = symmetric_near_turning_point<mp50>(mp50(1) - from_string<mp50>(f),
                                                        {from_string<mp50>("1e-42")});
      csv.row(std::string(f), d.error, m.error, d.sigma_min, m.sigma_min);
    }
  }

  {  // The epsilon-limit of the circle (mp50).
    Csv csv(dir / "bipendulum_epsilon_circle.csv",
            "epsilon,distance_from_eq89,radial_distance,min_sigma_dC_dqdot");
    Csv paths(dir / "bipendulum_epsilon_circle_paths.csv", "epsilon,t,x1,y1,x2,y2");
    const FindingSettings<mp50> fs{from_string<mp50>("1e-25")};
    for (const char* e : {"1e-2", "1e-3", "1e-4", "1e-5", "1e-6"}) {
      const mp50 eps = from_string<mp50>(e);
      const CircleLimit<mp50> c = circle_limit<mp50>(eps, mp50(3), mp50(1) / mp50(20), fs);
      csv.row(std::string(e), c.distance, c.radial_distance, c.min_sigma);
      for (std::size_t i = 0; i < c.samples.size(); ++i)
        paths.row(std::string(e), 0.05 * static_cast<double>(i), c.samples[i].q[0],
                  c.samples[i].q[1], c.samples[i].q[2], c.samples[i].q[3]);
      if (opts.quick && std::string(e) == "1e-4") break;
    }
  }
  return 0;
}

}  // namespace nhs::cli
