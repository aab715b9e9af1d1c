// The module's exceptions (nhs._core): nhs.Error and its subclasses, the
// error table's Python column (nhs/error_table.hpp), and the translator of
// the library's typed errors into them.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>

namespace nhs::python {

/// Raised from a GIL-released call when Python's SIGINT handler has set
/// KeyboardInterrupt (PyErr_CheckSignals): the error stays set.
struct PythonSignal : std::exception {};

/// Registers nhs.Error, nhs.UsageError (a ValueError), nhs.InvalidState
/// (a ValueError, with .condition), nhs.IntegrationError (an
/// ArithmeticError) and nhs.IOError (an OSError) in m, with the translator
/// of the library's errors (classify_error): KeyboardInterrupt for an
/// interrupted call; MemoryError and RuntimeError by pybind11's own.
void register_errors(pybind11::module_& m);

}  // namespace nhs::python
