// Counts the heap allocations of one acceleration evaluation in double: the closed forms of nhs/studies/closed_forms.hpp and the generated fields of nhs/generated.hpp (none, asserted) and every study x formulation of the library (recorded, not asserted).
// ctest-labels: unit bench-check
//
// Counting is done at the C allocator: this executable defines malloc,
// calloc, realloc and the aligned variants, which forward to glibc's
// __libc_* entry points and count while a window is open. Replacing only
// the global operator new would miss most of the heap traffic: Eigen's
// dynamic matrices (and so every AutoDiffScalar derivative vector) allocate
// through Eigen::internal::aligned_malloc, which calls std::malloc directly.
// libstdc++'s operator new calls malloc too, so both paths are counted.
//
// The generic counts are printed as a table and, with NHS_ALLOC_JSON=path,
// written as JSON (reports/bench/allocations.json). Asserted: the counter
// sees an Eigen and a std::vector allocation; the closed forms and the
// generated fields allocate nothing; a generic count is the same on two consecutive calls.
#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/formulation.hpp"
#include "nhs/generated.hpp"
#include "nhs/generated_formulation.hpp"
#include "nhs/regularity.hpp"
#include "nhs/studies/all.hpp"
#include "nhs/studies/closed_forms.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#if !defined(__SANITIZE_ADDRESS__)
#define NHS_COUNT_ALLOCATIONS 1
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
inline void count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) noexcept {
  count();
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) noexcept {
  count();
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) noexcept {
  count();
  return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
  count();
  return __libc_memalign(alignment, n);
}
void* memalign(std::size_t alignment, std::size_t n) noexcept {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  count();
  *out = __libc_memalign(alignment, n);
  return *out ? 0 : ENOMEM;
}
}  // extern "C"
#endif

namespace nhs {
namespace {

#ifdef NHS_COUNT_ALLOCATIONS
// Keeps v (and the work that made it) from being optimized away.
template <class T>
void benchmark_sink(const T& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

// Heap allocations made by f().
template <class F>
long allocations_of(F&& f) {
  allocations.store(0);
  counting.store(true);
  f();
  counting.store(false);
  return allocations.load();
}

TEST(Allocations, CounterSeesEigenAndStdAllocations) {
  EXPECT_EQ(allocations_of([] { benchmark_sink(Vec<double>(10)); }), 1);
  EXPECT_GE(allocations_of([] { benchmark_sink(std::vector<double>(10)); }), 1);
}

TEST(Allocations, ClosedFormsAllocateNothing) {
  closed_form::for_each_closed_form<double>([](std::string_view id, auto params_tag, auto rhs) {
    using P = typename decltype(params_tag)::type;
    using Q = typename P::Q;
    const P p = P::from(std::vector<double>(6, 0.75));
    const Q q = Q::Constant(0.5), qd = Q::LinSpaced(0.3, 1.1);
    Q out;
    const long n = allocations_of([&] { out = rhs(p, q, qd); });
    EXPECT_EQ(n, 0) << id;
    EXPECT_TRUE(out.allFinite()) << id;
  });
}

// The generated fields (nhs/generated.hpp) are straight-line code over
// caller-provided arrays: none may allocate.
TEST(Allocations, GeneratedFieldsAllocateNothing) {
  for (const generated::GeneratedField<double>& f : generated::generated_fields<double>()) {
    const Study<double>& st = find_study<double>(f.study);
    const std::vector<double> p = st.default_parameters();
    const System<double> sys = st.build(p);
    const State<double> s = st.default_state(sys);
    Vec<double> x(f.inputs), out(f.outputs);
    if (std::string(f.formulation) == "second-kind") {
      x << s.q, s.qdot;
    } else {
      Vec<double> z(sys.m);
      sys.chart(s.q, s.qdot, z);
      x << s.q, z;
    }
    int status = -1;
    const long n = allocations_of([&] { status = f.evaluate(p.data(), x.data(), out.data()); });
    EXPECT_EQ(status, 0) << f.study << " " << f.formulation;
    EXPECT_EQ(n, 0) << f.study << " " << f.formulation;
    EXPECT_TRUE(out.allFinite()) << f.study << " " << f.formulation;
    // Behind the Formulation interface (nhs run --generated), field()
    // allocates its returned vector only.
    const generated::GeneratedFormulation<double> gen(f, find_formulation<double>(f.formulation));
    gen.field(sys, x);
    EXPECT_EQ(allocations_of([&] { benchmark_sink(gen.field(sys, x)); }), 1)
        << f.study << " " << f.formulation;
  }
}

struct Row {
  std::string study, formulation;
  long count;
};

// One acceleration() per study x applicable formulation at the default
// state, after a warm-up call (function-local statics, lazily built tables).
TEST(Allocations, GenericFormulationsPerCall) {
  std::vector<Row> rows;
  for (const Study<double>& st : studies<double>()) {
    const System<double> sys = st.build(st.default_parameters());
    const State<double> x = st.default_state(sys);
    for (const auto& f : formulations<double>()) {
      if (!f->not_applicable_reason(sys).empty()) continue;
      f->acceleration(sys, x.q, x.qdot);
      const long first = allocations_of([&] { benchmark_sink(f->acceleration(sys, x.q, x.qdot)); });
      const long second = allocations_of([&] { benchmark_sink(f->acceleration(sys, x.q, x.qdot)); });
      EXPECT_EQ(first, second) << st.info.name << " / " << f->name();
      rows.push_back({st.info.name, f->name(), first});
    }
    // The pieces every formulation is built from (derivatives.hpp, regularity.hpp).
    const auto piece = [&](const std::string& name, auto&& fn) {
      rows.push_back({st.info.name, "piece:" + name, allocations_of(fn)});
    };
    piece("inertia (g, Gamma by AD2)", [&] { benchmark_sink(inertia(sys, x.q, x.qdot)); });
    piece("constraint_jacobians (AD1)",
          [&] { benchmark_sink(constraint_jacobians(sys, x.q, x.qdot)); });
    piece("active_force (AD1 on V)", [&] { benchmark_sink(active_force(sys, x.q, x.qdot)); });
    if (sys.has_parametrization()) {
      Vec<double> z(sys.m);
      sys.chart(x.q, x.qdot, z);
      piece("parametrization_jacobians (AD1)",
            [&] { benchmark_sink(parametrization_jacobians(sys, x.q, z)); });
    }
    const ConstraintJacobians<double> J = constraint_jacobians(sys, x.q, x.qdot);
    const Inertia<double> I = inertia(sys, x.q, x.qdot);
    piece("require_full_rank (JacobiSVD of dC/dqdot)",
          [&] { require_full_rank<double>(J.C_qdot, "rank", [] { return std::string(); }); });
    if (!sys.info.semidefinite_metric)  // g singular: nothing to factor
      piece("factor_positive_definite (LDLT of g)",
            [&] { benchmark_sink(factor_positive_definite<double>(I.g, "g", [] { return std::string(); })); });
    piece("kinetic_energy in double via std::function",
          [&] { benchmark_sink(sys.kinetic_energy(x.q, x.qdot)); });
  }

  std::cout << "| study | formulation or piece | heap allocations per call (double) |\n"
               "|---|---|---:|\n";
  for (const Row& r : rows)
    std::cout << "| " << r.study << " | " << r.formulation << " | " << r.count << " |\n";
  if (const char* path = std::getenv("NHS_ALLOC_JSON")) {
    std::ofstream out(path);
    out << "[\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
      out << "  {\"study\": \"" << rows[i].study << "\", \"what\": \"" << rows[i].formulation
          << "\", \"allocations\": " << rows[i].count << "}" << (i + 1 < rows.size() ? "," : "")
          << "\n";
    out << "]\n";
    EXPECT_TRUE(out.good()) << path;
  }
}
#else
TEST(Allocations, SkippedUnderAddressSanitizer) {
  GTEST_SKIP() << "ASan owns malloc; allocation counting is off in this build";
}
#endif

}  // namespace
}  // namespace nhs
