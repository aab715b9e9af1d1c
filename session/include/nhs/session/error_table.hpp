// The one table of what an error becomes: the `nhs` tool's exit code, a
// sweep case's status, the Python module's exception and whether a Python
// run keeps its rows (its failure kind). The tool (report_error), the
// sweeps (a case's status column), simulate (a run's outcome:
// nhs/session/simulate.hpp) and the Python module (its exception
// translator and System.run's kept rows) all classify an exception with
// classify_error (or classify_run_error, for a run's budget) and read this
// table; none has its own list of exception types or outcome rules.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/scalar.hpp"  // MalformedNumber

#include <array>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>

namespace nhs {

/// The kinds of error, one per row of kErrorTable.
enum class ErrorCategory {
  usage,                ///< UsageError (NotApplicable, FileError, ExpressionError), MalformedNumber
  invalid_state,        ///< InvalidState that is not a SingularState: off C, not in a chart
  singular_state,       ///< SingularState: on a singular set (a condition, maybe a time)
  integration_failure,  ///< IntegrationFailure: step underflow, a stepper's refusal
  /// A run over its RHS or wall-time budget (max_rhs_calls, max_wall_time):
  /// an IntegrationFailure that classify_run_error tells apart
  /// (nhs/session/simulate.hpp); classify_error alone says integration_failure.
  budget,
  non_finite,           ///< NonFiniteValue: an overflow or a NaN at a finite input
  io,                   ///< IoError, std::filesystem_error, a failed write (std::system_error)
  interrupted,          ///< Interrupted (SIGINT): the samples so far were delivered
  out_of_memory,        ///< std::bad_alloc
  internal,             ///< anything else: a defect of nhs
};

/// What one category becomes.
struct ErrorClass {
  ErrorCategory category;
  /// The `nhs` tool's exit code (docs/cli.md, "Exit codes").
  int exit_code;
  /// A sweep case's `status` (docs/sweeps.md); nullptr: the error ends the
  /// whole sweep instead of one case (an interrupt, memory exhausted).
  const char* sweep_status;
  /// The Python exception raised (python/nhs: nhs.UsageError,
  /// nhs.InvalidState, nhs.IntegrationError, nhs.IOError; or a built-in).
  const char* python_exception;
  /// A Python System.run that ends with this error keeps its rows (the Run
  /// in the exception's .run), its summary's failure_kind: "integration"
  /// or "singular"; nullptr: the error is raised without rows (a refusal
  /// before the run, an interrupt, an internal error).
  const char* python_failure_kind;
};

/// The table, one row per ErrorCategory, in the enumeration's order.
inline constexpr std::array<ErrorClass, 10> kErrorTable = {{
    {ErrorCategory::usage, 2, "refused", "UsageError", nullptr},
    {ErrorCategory::invalid_state, 3, "invalid-state", "InvalidState", nullptr},
    {ErrorCategory::singular_state, 3, "singular", "InvalidState", "singular"},
    {ErrorCategory::integration_failure, 4, "integration-failure", "IntegrationError", "integration"},
    {ErrorCategory::budget, 4, "budget", "IntegrationError", "integration"},
    {ErrorCategory::non_finite, 4, "non-finite", "IntegrationError", "integration"},
    {ErrorCategory::io, 5, "error", "IOError", nullptr},
    {ErrorCategory::interrupted, 130, nullptr, "KeyboardInterrupt", nullptr},
    {ErrorCategory::out_of_memory, 6, nullptr, "MemoryError", nullptr},
    {ErrorCategory::internal, 1, "error", "RuntimeError", nullptr},
}};

/// The row of category c.
constexpr const ErrorClass& error_class(ErrorCategory c) { return kErrorTable[static_cast<std::size_t>(c)]; }

/// An exception, classified: its category, its message, and for a
/// SingularState its condition and the time at which a motion reached it
/// (empty when the state was refused outside a motion).
struct ClassifiedError {
  ErrorCategory category = ErrorCategory::internal;
  std::string message;
  std::string condition, time;
};

/// The category and message of the exception e (the most derived type that
/// the table knows decides: a SingularState is singular_state, not
/// invalid_state). A std::system_error that is not a filesystem error is a
/// failed write (fmt::print's): its message starts "cannot write: ". Never
/// throws; a null e is an internal error "unknown error".
inline ClassifiedError classify_error(const std::exception_ptr& e) noexcept {
  const auto with = [](ErrorCategory c, const char* what) {
    ClassifiedError r;
    r.category = c;
    try {
      r.message = what;
    } catch (...) {  // out of memory: no message
    }
    return r;
  };
  if (!e) return with(ErrorCategory::internal, "unknown error");
  try {
    std::rethrow_exception(e);
  } catch (const SingularState& x) {
    ClassifiedError r = with(ErrorCategory::singular_state, x.what());
    try {
      r.condition = x.condition;
      r.time = x.time;
    } catch (...) {
    }
    return r;
  } catch (const InvalidState& x) {
    return with(ErrorCategory::invalid_state, x.what());
  } catch (const UsageError& x) {
    return with(ErrorCategory::usage, x.what());
  } catch (const MalformedNumber& x) {
    return with(ErrorCategory::usage, x.what());
  } catch (const IntegrationFailure& x) {
    return with(ErrorCategory::integration_failure, x.what());
  } catch (const NonFiniteValue& x) {
    return with(ErrorCategory::non_finite, x.what());
  } catch (const IoError& x) {
    return with(ErrorCategory::io, x.what());
  } catch (const std::filesystem::filesystem_error& x) {
    return with(ErrorCategory::io, x.what());
  } catch (const std::system_error& x) {
    ClassifiedError r = with(ErrorCategory::io, x.what());
    try {
      r.message = "cannot write: " + r.message;
    } catch (...) {
    }
    return r;
  } catch (const Interrupted& x) {
    return with(ErrorCategory::interrupted, x.what());
  } catch (const std::bad_alloc& x) {
    return with(ErrorCategory::out_of_memory, x.what());
  } catch (const std::exception& x) {
    return with(ErrorCategory::internal, x.what());
  } catch (...) {
    return with(ErrorCategory::internal, "unknown error");
  }
}

}  // namespace nhs
