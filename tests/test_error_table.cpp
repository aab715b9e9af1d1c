// ctest-labels: unit
// The one error table (nhs/session/error_table.hpp): every error type the
// library and the tool throw is classified into the category whose row
// gives the exit code of README.md's "Exit codes", the sweep status of
// docs/sweeps.md, the Python exception of docs/python.md and whether a
// Python run keeps its rows (its failure kind); a SingularState keeps its
// condition and time; a run over its RHS or wall-time budget is the
// budget row (classify_run_error, nhs/session/simulate.hpp).
#include "nhs/session/error_table.hpp"
#include "nhs/scalar.hpp"
#include "nhs/session/simulate.hpp"
#include "nhs/session/wall_budget.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>

namespace {

using nhs::ErrorCategory;

template <class E>
nhs::ClassifiedError classified(const E& e) {
  return nhs::classify_error(std::make_exception_ptr(e));
}

TEST(ErrorTable, RowsAreInTheOrderOfTheCategories) {
  for (std::size_t k = 0; k < nhs::kErrorTable.size(); ++k)
    EXPECT_EQ(static_cast<std::size_t>(nhs::kErrorTable[k].category), k);
  EXPECT_EQ(&nhs::error_class(ErrorCategory::internal), &nhs::kErrorTable.back());
}

// The exit codes of README.md ("Exit codes"), the statuses of docs/sweeps.md
// and the exceptions of docs/python.md, for each error type.
TEST(ErrorTable, EveryErrorTypeHasItsDocumentedCodeStatusAndException) {
  struct Case {
    nhs::ClassifiedError got;
    ErrorCategory category;
    int exit_code;
    const char* sweep_status;  // nullptr: ends the sweep
    std::string python;
  };
  const Case cases[] = {
      {classified(nhs::UsageError("u")), ErrorCategory::usage, 2, "refused", "UsageError"},
      {classified(nhs::NotApplicable("n")), ErrorCategory::usage, 2, "refused", "UsageError"},
      {classified(nhs::MalformedNumber("m")), ErrorCategory::usage, 2, "refused", "UsageError"},
      {classified(nhs::InvalidState("i")), ErrorCategory::invalid_state, 3, "invalid-state", "InvalidState"},
      {classified(nhs::SingularState("g", "s")), ErrorCategory::singular_state, 3, "singular", "InvalidState"},
      {classified(nhs::IntegrationFailure("f")), ErrorCategory::integration_failure, 4, "integration-failure",
       "IntegrationError"},
      {classified(nhs::NonFiniteValue("v")), ErrorCategory::non_finite, 4, "non-finite", "IntegrationError"},
      {classified(nhs::IoError("o")), ErrorCategory::io, 5, "error", "IOError"},
      {classified(std::filesystem::filesystem_error("p", std::make_error_code(std::errc::no_space_on_device))),
       ErrorCategory::io, 5, "error", "IOError"},
      {classified(std::system_error(std::make_error_code(std::errc::broken_pipe))), ErrorCategory::io, 5, "error",
       "IOError"},
      {classified(nhs::Interrupted("c")), ErrorCategory::interrupted, 130, nullptr, "KeyboardInterrupt"},
      {classified(std::bad_alloc()), ErrorCategory::out_of_memory, 6, nullptr, "MemoryError"},
      {classified(std::logic_error("l")), ErrorCategory::internal, 1, "error", "RuntimeError"},
      {classified(42), ErrorCategory::internal, 1, "error", "RuntimeError"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.got.message);
    EXPECT_EQ(c.got.category, c.category);
    const nhs::ErrorClass& row = nhs::error_class(c.got.category);
    EXPECT_EQ(row.exit_code, c.exit_code);
    if (c.sweep_status)
      EXPECT_STREQ(row.sweep_status, c.sweep_status);
    else
      EXPECT_EQ(row.sweep_status, nullptr);
    EXPECT_EQ(row.python_exception, c.python);
  }
}

// A run's end (classify_run_error): over the wall-time budget, or past
// max_rhs_calls, is the budget row (exit 4, status "budget",
// IntegrationError, rows kept); another IntegrationFailure is not, nor a
// SingularState or a NonFiniteValue.
TEST(ErrorTable, ABudgetIsItsOwnRowOfARunsEnd) {
  nhs::IntegrationOptions<double> options;
  options.max_rhs_calls = 100;
  nhs::IntegrationStats within, past;
  within.rhs_calls = 100;
  past.rhs_calls = 101;
  const auto run_end = [&](const auto& e, const nhs::IntegrationStats& stats) {
    return nhs::classify_run_error<double>(std::make_exception_ptr(e), stats, options).category;
  };
  EXPECT_EQ(run_end(nhs::WallTimeExceeded("w"), within), ErrorCategory::budget);
  EXPECT_EQ(run_end(nhs::IntegrationFailure("f"), past), ErrorCategory::budget);
  EXPECT_EQ(run_end(nhs::IntegrationFailure("f"), within), ErrorCategory::integration_failure);
  EXPECT_EQ(run_end(nhs::SingularState("g", "s"), past), ErrorCategory::singular_state);
  EXPECT_EQ(run_end(nhs::NonFiniteValue("v"), past), ErrorCategory::non_finite);
  // Alone, the exception does not say which budget: classify_error's
  // WallTimeExceeded is an integration failure, with the same exit code.
  EXPECT_EQ(classified(nhs::WallTimeExceeded("w")).category, ErrorCategory::integration_failure);
  const nhs::ErrorClass& budget = nhs::error_class(ErrorCategory::budget);
  EXPECT_EQ(budget.exit_code, 4);
  EXPECT_STREQ(budget.sweep_status, "budget");
  EXPECT_STREQ(budget.python_exception, "IntegrationError");
  EXPECT_STREQ(budget.python_failure_kind, "integration");
}

// Python's System.run keeps its rows (docs/python.md: the Run in the
// exception's .run) for an integration failure, a budget, a value not
// finite ("integration") and a singular set reached ("singular"); every
// other error is raised without rows.
TEST(ErrorTable, PythonKeepsTheRowsOfARunThatFailedOrMetASingularSet) {
  for (const nhs::ErrorClass& row : nhs::kErrorTable) {
    SCOPED_TRACE(row.python_exception);
    switch (row.category) {
      case ErrorCategory::singular_state: EXPECT_STREQ(row.python_failure_kind, "singular"); break;
      case ErrorCategory::integration_failure:
      case ErrorCategory::budget:
      case ErrorCategory::non_finite: EXPECT_STREQ(row.python_failure_kind, "integration"); break;
      default: EXPECT_EQ(row.python_failure_kind, nullptr);
    }
  }
}

TEST(ErrorTable, MessagesConditionsAndTimesAreKept) {
  const nhs::ClassifiedError s = classified(nhs::SingularState("det g = 0", "g singular at q = (0)", "0.25"));
  EXPECT_EQ(s.message, "g singular at q = (0)");
  EXPECT_EQ(s.condition, "det g = 0");
  EXPECT_EQ(s.time, "0.25");
  const nhs::ClassifiedError w = classified(std::system_error(std::make_error_code(std::errc::no_space_on_device)));
  EXPECT_EQ(w.message.rfind("cannot write: ", 0), 0u) << w.message;
  EXPECT_EQ(classified(42).message, "unknown error");
  const nhs::ClassifiedError none = nhs::classify_error(nullptr);
  EXPECT_EQ(none.category, ErrorCategory::internal);
  EXPECT_EQ(none.message, "unknown error");
}

// A NaN in a message reads "nan" in every precision, never "-nan" (its sign
// bit means nothing); numbers print as before.
template <class S>
void expect_nan_text() {
  const S nan = std::numeric_limits<S>::quiet_NaN();
  EXPECT_EQ(nhs::to_string<S>(nan), "nan");
  EXPECT_EQ(nhs::to_string<S>(-nan), "nan");
  EXPECT_EQ(nhs::to_string<S>(S(0) * std::numeric_limits<S>::infinity()), "nan");
  EXPECT_EQ(nhs::to_string<S>(-std::numeric_limits<S>::infinity()), "-inf");
  EXPECT_EQ(nhs::to_string<S>(S(-2.5)), "-2.5");
}

TEST(ErrorTable, NotANumberPrintsWithoutASign) {
  expect_nan_text<double>();
  expect_nan_text<long double>();
  expect_nan_text<nhs::mp50>();
}

}  // namespace
