// The N-trailer (studies/n_trailer.cpp): every applicable formulation
// against every other at random regular states for N = 1, 5, 20; the chart's
// psi on C; N = 0 against the skate study (001 §9.1); the trailer geometry
// and dynamics against an independent model in maximal coordinates (N + 1
// free skates tied by hitch constraints); the special motions' closed-form
// accelerations; where the naive-reduced negative control agrees; the
// registry's n-trailer-<N> ids and their thread-safe cache.
// ctest-labels: study
#include "motion_error.hpp"
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/integrate.hpp"
#include "nhs/second_kind.hpp"
#include "nhs/studies/all.hpp"

#include <set>
#include <thread>

namespace nhs {
namespace {

template <class S>
class NTrailer : public ::testing::Test {};
TYPED_TEST_SUITE(NTrailer, TestScalars, ScalarNames);

/// Random states per N: fewer for the larger systems (the cost of one
/// acceleration grows like n^3 with the dynamic nested AD).
int states_for(int N) { return N <= 1 ? 20 : N <= 5 ? 8 : 3; }

TYPED_TEST(NTrailer, AllFormulationsAgreeAtRandomRegularStates) {
  using S = TypeParam;
  std::mt19937_64 rng(20260601);
  for (int N : {1, 5, 20}) {
    const Study<S> st = n_trailer_study<S>(N);
    S worst = 0;
    std::set<std::string> used;
    for (int k = 0; k < states_for(N); ++k) {
      const System<S> sys =
          st.build(k % 2 ? randomized_parameters(st, rng) : st.default_parameters());
      const State<S> x = st.random_state(sys, rng);
      ASSERT_LE(max_abs<S>(constraint_residuals(sys, x.q, x.qdot)), S(100) * epsilon<S>())
          << "N = " << N;
      std::vector<std::pair<std::string, Vec<S>>> results;
      for (const auto& f : formulations<S>()) {
        if (f->is_negative_control() || !f->not_applicable_reason(sys).empty()) continue;
        results.emplace_back(f->name(), f->acceleration(sys, x.q, x.qdot).qddot);
        used.insert(f->name());
      }
      for (std::size_t i = 1; i < results.size(); ++i) {
        const S d = relative_difference<S>(results[0].second, results[i].second);
        using std::max;
        worst = max(worst, d);
        EXPECT_LE(d, Tolerance<S>::cross) << "N = " << N << " " << results[0].first << " vs "
                                          << results[i].first << " state " << k;
      }
    }
    // Every formulation applies: linear constraints, a chart, bodies, a split.
    for (const char* name : {"first-kind", "maggi", "gibbs-appell", "second-kind",
                             "udwadia-kalaba", "lagrange-multipliers", "voronec"})
      EXPECT_TRUE(used.count(name)) << name << " not run at N = " << N;
    std::cout << "[ n-trailer] N = " << N << ": max relative difference " << double(worst)
              << " over " << states_for(N) << " states\n";
  }
}

// C(q, psi(q, z)) = 0 and chart(q, psi(q, z)) = z at random q, z.
TYPED_TEST(NTrailer, ChartSatisfiesTheConstraintsAndInvertsPsi) {
  using S = TypeParam;
  std::mt19937_64 rng(11);
  for (int N : {0, 1, 5, 20, 100}) {
    const Study<S> st = n_trailer_study<S>(N);
    const System<S> sys = st.build(randomized_parameters(st, rng));
    ASSERT_EQ(sys.n, N + 3);
    ASSERT_EQ(sys.r, N + 1);
    ASSERT_EQ(sys.m, 2);
    for (int k = 0; k < 10; ++k) {
      Vec<S> q(sys.n), z(2), qd(sys.n), back(2);
      for (auto& v : q) v = uniform<S>(rng, -3, 3);
      for (auto& v : z) v = uniform<S>(rng, -1, 1);
      sys.parametrization(q, z, qd);
      const S scale = S(1) + max_abs<S>(qd);
      EXPECT_LE(max_abs<S>(constraint_residuals(sys, q, qd)), S(100) * epsilon<S>() * scale)
          << "N = " << N;
      sys.chart(q, qd, back);
      EXPECT_LE(max_abs<S>(Vec<S>(back - z)), S(100) * epsilon<S>() * scale) << "N = " << N;
    }
  }
}

// N = 0 is one skate: the same T, C, V and psi as the skate study (001
// §9.1), so the same accelerations at the same state, for any m, I, g.
TYPED_TEST(NTrailer, NoTrailerIsTheSkate) {
  using S = TypeParam;
  std::mt19937_64 rng(12);
  const Study<S>& skate = find_study<S>("skate");
  const Study<S>& zero = find_study<S>("n-trailer-0");
  for (int k = 0; k < 20; ++k) {
    const std::vector<S> ps = randomized_parameters(skate, rng);  // m, I, g
    std::vector<S> pt = zero.default_parameters();                // m, I, L, g
    pt[0] = ps[0];
    pt[1] = ps[1];
    pt[2] = uniform<S>(rng, 0.5, 2);  // L does not enter at N = 0
    pt[3] = ps[2];
    const System<S> a = skate.build(ps), b = zero.build(pt);
    const State<S> x = skate.random_state(a, rng);
    for (const char* name : {"second-kind", "first-kind", "gibbs-appell"}) {
      const Vec<S> ra = find_formulation<S>(name).acceleration(a, x.q, x.qdot).qddot;
      const Vec<S> rb = find_formulation<S>(name).acceleration(b, x.q, x.qdot).qddot;
      EXPECT_LE(relative_difference<S>(ra, rb), Tolerance<S>::cross) << name << " state " << k;
    }
  }
}

// An independent model of the same train in maximal coordinates: N + 1 free
// skates, q = (x_k, y_k, theta_k)_k, T = sum m/2 (xd_k^2 + yd_k^2) + I/2
// thetad_k^2, V = -m g sum x_k; constraints: the knife edges
// xd_k sin theta_k - yd_k cos theta_k, and the hitches P_{k-1} = P_k + L e_k
// differentiated once, xd_{k-1} - xd_k + L sin(theta_k) thetad_k and
// yd_{k-1} - yd_k - L cos(theta_k) thetad_k (linear in qdot, r = 3N + 1).
struct FreeSkates {
  template <class T>
  static T kinetic_energy(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd) {
    (void)q;
    T half = ratio<T>(1, 2);
    T translation = qd[0] * qd[0], rotation = qd[2] * qd[2];
    translation = translation + qd[1] * qd[1];
    for (Eigen::Index b = 3; b < q.size(); b += 3) {
      translation = translation + qd[b] * qd[b] + qd[b + 1] * qd[b + 1];
      rotation = rotation + qd[b + 2] * qd[b + 2];
    }
    return translation * half * p[0] + rotation * half * p[1];
  }
  template <class T>
  static T potential(const Params<T>& p, const Vec<T>& q) {
    T sum = q[0];
    for (Eigen::Index b = 3; b < q.size(); b += 3) sum = sum + q[b];
    return -(sum * p[0] * p[3]);
  }
  template <class T>
  static void constraints(const Params<T>& p, const Vec<T>& q, const Vec<T>& qd, Vec<T>& C) {
    using std::cos;
    using std::sin;
    const Eigen::Index bodies = q.size() / 3;
    for (Eigen::Index k = 0; k < bodies; ++k)
      C[k] = qd[3 * k] * sin(q[3 * k + 2]) - qd[3 * k + 1] * cos(q[3 * k + 2]);
    for (Eigen::Index k = 1; k < bodies; ++k) {
      const Eigen::Index b = 3 * k, a = b - 3;
      C[bodies + 2 * (k - 1)] = qd[a] - qd[b] + sin(q[b + 2]) * qd[b + 2] * p[2];
      C[bodies + 2 * (k - 1) + 1] = qd[a + 1] - qd[b + 1] - cos(q[b + 2]) * qd[b + 2] * p[2];
    }
  }
};

SystemInfo free_skates_info(int N) {
  SystemInfo info;
  info.name = "free-skates-" + std::to_string(N);
  info.parameters = {{"m", "1", ""}, {"I", "0.5", ""}, {"L", "1", ""}, {"g", "0", ""}};
  for (int k = 0; k <= N; ++k)
    for (const char* c : {"x", "y", "theta"}) info.coordinates.push_back(c + std::to_string(k));
  for (int a = 0; a < 3 * N + 1; ++a) info.constraint_names.push_back("C" + std::to_string(a));
  info.linear_constraints = true;
  return info;
}

TYPED_TEST(NTrailer, MatchesFreeSkatesWithHitchConstraints) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  std::mt19937_64 rng(13);
  for (int N : {1, 3, 6}) {
    const Study<S> st = n_trailer_study<S>(N);
    for (int k = 0; k < 6; ++k) {
      const std::vector<S> p = randomized_parameters(st, rng);
      const S L = p[2];
      const System<S> sys = st.build(p);
      const System<S> big = describe<S, FreeSkates>(p, free_skates_info(N));
      const State<S> x = st.random_state(sys, rng);
      const Vec<S> qdd = second_kind(sys, x.q, x.qdot).qddot;
      // Positions, velocities and accelerations of every P_k from the
      // reduced state: Pdot_k = Pdot_{k-1} + L thetad_k n_k, Pddot_k =
      // Pddot_{k-1} + L thetadd_k n_k + L thetad_k^2 e_k.
      Vec<S> Q(3 * N + 3), QD(3 * N + 3), QDD(3 * N + 3);
      S px = x.q[0], py = x.q[1], vx = x.qdot[0], vy = x.qdot[1], ax = qdd[0], ay = qdd[1];
      for (int b = 0; b <= N; ++b) {
        const S th = x.q[2 + b], w = x.qdot[2 + b], wd = qdd[2 + b];
        if (b > 0) {
          px -= L * cos(th);
          py -= L * sin(th);
          vx += L * w * sin(th);
          vy -= L * w * cos(th);
          ax += L * (wd * sin(th) + w * w * cos(th));
          ay += L * (-wd * cos(th) + w * w * sin(th));
        }
        Q.segment(3 * b, 3) << px, py, th;
        QD.segment(3 * b, 3) << vx, vy, w;
        QDD.segment(3 * b, 3) << ax, ay, wd;
      }
      ASSERT_LE(max_abs<S>(constraint_residuals(big, Q, QD)), S(100) * epsilon<S>() * S(N + 1));
      const Vec<S> reference = second_kind(big, Q, QD).qddot;
      EXPECT_LE(relative_difference<S>(QDD, reference), Tolerance<S>::cross)
          << "N = " << N << " state " << k;
    }
  }
}

// The special motions: the initial state lies on C and is the closed form at
// t = 0; at t in {0, 1.3, 7} the closed form is on C and every formulation's
// qddot is the closed form's second derivative:
//   straight: xdd = a cos(theta), ydd = a sin(theta), a = g cos(theta), thetadd_k = 0;
//   circle:   (xdd, ydd) = omega^2 R0 (-sin theta_0, cos theta_0) = omega (-yd, xd),
//             thetadd_k = 0.
TYPED_TEST(NTrailer, SpecialMotionsHaveTheirClosedFormAccelerations) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  for (int N : {1, 5, 20}) {
    const Study<S> st = n_trailer_study<S>(N);
    const auto motions = st.special_motions();
    ASSERT_EQ(motions.size(), 3u);
    for (const SpecialMotion<S>& mo : motions) {
      const System<S> sys = st.build(mo.parameters);
      const State<S> e0 = mo.exact(S(0));
      EXPECT_LE(max_abs<S>(Vec<S>(e0.q - mo.initial.q)) + max_abs<S>(Vec<S>(e0.qdot - mo.initial.qdot)),
                S(100) * epsilon<S>())
          << mo.name;
      const bool straight = mo.name.rfind("straight", 0) == 0;
      for (const char* t_text : {"0", "1.3", "7"}) {
        const State<S> e = mo.exact(from_string<S>(t_text));
        const S scale = S(1) + max_abs<S>(e.qdot);
        EXPECT_LE(max_abs<S>(constraint_residuals(sys, e.q, e.qdot)),
                  S(1000) * epsilon<S>() * scale)
            << mo.name << " t = " << t_text;
        Vec<S> expected = Vec<S>::Zero(sys.n);
        if (straight) {
          const S th = e.q[2], a = sys.parameter("g") * cos(th);
          expected[0] = a * cos(th);
          expected[1] = a * sin(th);
        } else {
          const S w = e.qdot[2];
          expected[0] = -w * e.qdot[1];
          expected[1] = w * e.qdot[0];
        }
        for (const char* name : {"second-kind", "first-kind", "udwadia-kalaba"}) {
          const Vec<S> qdd = find_formulation<S>(name).acceleration(sys, e.q, e.qdot).qddot;
          EXPECT_LE(max_abs<S>(Vec<S>(qdd - expected)), Tolerance<S>::cross * scale)
              << mo.name << " " << name << " N = " << N << " t = " << t_text;
        }
      }
    }
  }
}

// The circle integrated by the second kind in double for N = 5 (the listed
// N = 3 is integrated by test_special_motions for every formulation).
TEST(NTrailerDouble, CircleIntegratesToItsClosedFormAtFiveTrailers) {
  const Study<double> st = n_trailer_study<double>(5);
  const SpecialMotion<double> mo = st.special_motions()[1];
  const System<double> sys = st.build(mo.parameters);
  IntegrationOptions<double> opts;
  opts.t_end = 10;
  opts.dt_out = 1;
  opts.rtol = opts.atol = 1e-13;
  const double err = motion_error<double>(sys, find_formulation<double>("second-kind"), mo, opts);
  EXPECT_LE(err, Tolerance<double>::analytic);
}

// naive-reduced (the negative control, 002 eq. 6) on the N-trailer: with
// x = (xd, thetad_0) and Voronec's split, the omitted terms are E_i =
// sum_nu dTbar/dq_{dep nu} a_nu,i + sum_nu p_nu b^nu_ij x_j, p_nu =
// dT/dqdot_dep (tests/test_naive_reduced.cpp). On C, Pdot_k = v_k e_k and
//   Tbar = m/2 sum_k v_k^2 + I/2 (thetad_0^2 + sum_k (v_{k-1}/L)^2 sin^2 phi_k),
//   v_0 = xd / cos theta_0, v_k = v_{k-1} cos phi_k, phi_k = theta_{k-1} - theta_k,
// a function of cos^2 theta_0, cos^2 phi_k, sin^2 phi_k, xd^2 and thetad_0^2.
// E vanishes (the naive method agrees) where
//   - v = 0 (any q, omega): Tbar's q-derivatives are O(xd^2) and every
//     Pdot_k and thetad_k (k >= 1) vanish, so p = 0;
//   - the train lies along the x axis, every theta_k in {0, pi} (any v,
//     omega): the q-derivatives of the squares above vanish there, and p = 0
//     (p_y = m sum_k Pdot_k,y = 0; p_{theta_k} = m L sum_{j>=k} Pdot_j . n_k
//     + I thetad_k = 0 with Pdot_j along x and n_k along y).
// It fails by O(1) at random states (N = 0 is the skate: test_naive_reduced).
TYPED_TEST(NTrailer, NaiveReducedAgreesOnlyWhereTheOmittedTermsVanish) {
  using S = TypeParam;
  using std::acos;
  using std::max;
  const Formulation<S>& naive = find_formulation<S>("naive-reduced");
  const Formulation<S>& truth = find_formulation<S>("second-kind");
  std::mt19937_64 rng(14);
  const S pi = acos(S(-1));
  for (int N : {1, 3, 8}) {
    const Study<S> st = n_trailer_study<S>(N);
    int large = 0;
    const int states = 10;
    for (int k = 0; k < states; ++k) {
      const System<S> sys = st.build(randomized_parameters(st, rng));
      const State<S> x = st.random_state(sys, rng);
      const S d = relative_difference<S>(naive.acceleration(sys, x.q, x.qdot).qddot,
                                         truth.acceleration(sys, x.q, x.qdot).qddot);
      if (d > S(1) / S(100)) ++large;
      // v = 0 at the same configuration, random omega.
      Vec<S> z(2), qd(sys.n);
      z << S(0), uniform<S>(rng, -1, 1);
      sys.parametrization(x.q, z, qd);
      EXPECT_LE(relative_difference<S>(naive.acceleration(sys, x.q, qd).qddot,
                                       truth.acceleration(sys, x.q, qd).qddot),
                Tolerance<S>::cross)
          << "v = 0, N = " << N << " state " << k;
      // Every theta_k in {0, pi}, random v and omega.
      Vec<S> q = x.q;
      for (int j = 0; j <= N; ++j) q[2 + j] = (rng() % 2) ? pi : S(0);
      z << uniform<S>(rng, -1, 1), uniform<S>(rng, -1, 1);
      sys.parametrization(q, z, qd);
      EXPECT_LE(relative_difference<S>(naive.acceleration(sys, q, qd).qddot,
                                       truth.acceleration(sys, q, qd).qddot),
                Tolerance<S>::cross)
          << "train along x, N = " << N << " state " << k;
    }
    EXPECT_GE(large, states / 2) << "N = " << N;
  }
}

// Registry: the listed "n-trailer" (N = kNTrailerDefault), "n-trailer-<N>"
// for N in 0..kNTrailerMax, a UsageError naming the text otherwise, one
// cached Study per N shared by every thread.
TYPED_TEST(NTrailer, RegistryIdsAndCache) {
  using S = TypeParam;
  const Study<S>& listed = find_study<S>("n-trailer");
  EXPECT_EQ(listed.info.coordinates.size(), static_cast<std::size_t>(kNTrailerDefault + 3));
  bool in_list = false;
  for (const Study<S>& st : studies<S>()) in_list = in_list || &st == &listed;
  EXPECT_TRUE(in_list);

  const Study<S>& seven = find_study<S>("n-trailer-7");
  EXPECT_EQ(seven.info.name, "n-trailer-7");
  EXPECT_EQ(seven.info.coordinates.size(), 10u);
  EXPECT_EQ(seven.info.constraint_names.size(), 8u);
  EXPECT_EQ(&find_study<S>("n-trailer-7"), &seven);
  EXPECT_EQ(find_study<S>("n-trailer-200").info.coordinates.size(), 203u);
  for (const char* bad : {"n-trailer-201", "n-trailer-", "n-trailer-abc", "n-trailer--1",
                          "n-trailer-+3", "n-trailer-07", "n-trailer-3x", "n-trailer-1e2"}) {
    try {
      find_study<S>(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(n_trailer_study<S>(-1), UsageError);

  // Many threads asking for the same and for new sizes get one Study each.
  std::vector<const Study<S>*> seen(8 * 4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &seen] {
      for (int i = 0; i < 4; ++i)
        seen[static_cast<std::size_t>(4 * t + i)] =
            &find_study<S>("n-trailer-" + std::to_string(40 + i));
    });
  for (auto& th : threads) th.join();
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k], seen[k % 4]);
    EXPECT_EQ(seen[k]->info.name, "n-trailer-" + std::to_string(40 + k % 4));
  }
}

}  // namespace
}  // namespace nhs
