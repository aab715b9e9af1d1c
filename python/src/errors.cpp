// The module's exceptions (errors.hpp).
#include "errors.hpp"

#include "nhs/session/error_table.hpp"

#include <string_view>

namespace nhs::python {

namespace py = pybind11;

namespace {

// The Python exception types (created once in register_errors, never freed).
PyObject* g_error = nullptr;
PyObject* g_usage = nullptr;
PyObject* g_invalid = nullptr;
PyObject* g_integration = nullptr;
PyObject* g_io = nullptr;

void raise(PyObject* type, const char* message, const char* condition) {
  py::object exc = py::reinterpret_steal<py::object>(PyObject_CallFunction(type, "s", message));
  if (!exc) return;  // the call's own error stays set
  if (type == g_invalid)
    exc.attr("condition") = condition ? py::object(py::str(condition)) : py::object(py::none());
  PyErr_SetObject(type, exc.ptr());
}

/// The exception of the error p: the error table's.
void translate(std::exception_ptr p) {
  if (!p) return;
  try {
    std::rethrow_exception(p);
  } catch (const PythonSignal&) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    return;
  } catch (...) {
  }
  const ClassifiedError e = classify_error(p);
  const std::string_view name = error_class(e.category).python_exception;
  PyObject* type = name == "UsageError"         ? g_usage
                   : name == "InvalidState"     ? g_invalid
                   : name == "IntegrationError" ? g_integration
                   : name == "IOError"          ? g_io
                                                : nullptr;
  if (type)
    raise(type, e.message.c_str(),
          e.category == ErrorCategory::singular_state ? e.condition.c_str() : "off the constraint manifold C");
  else if (name == "KeyboardInterrupt")
    PyErr_SetString(PyExc_KeyboardInterrupt, e.message.c_str());
  else
    std::rethrow_exception(p);
}

PyObject* subclass(const char* name, PyObject* base) {
  return PyErr_NewException(name, py::make_tuple(py::handle(g_error), py::handle(base)).release().ptr(), nullptr);
}

}  // namespace

void register_errors(py::module_& m) {
  g_error = PyErr_NewException("nhs.Error", PyExc_Exception, nullptr);
  g_usage = subclass("nhs.UsageError", PyExc_ValueError);
  g_invalid = subclass("nhs.InvalidState", PyExc_ValueError);
  g_integration = subclass("nhs.IntegrationError", PyExc_ArithmeticError);
  g_io = subclass("nhs.IOError", PyExc_OSError);
  m.attr("Error") = py::handle(g_error);
  m.attr("UsageError") = py::handle(g_usage);
  m.attr("InvalidState") = py::handle(g_invalid);
  m.attr("IntegrationError") = py::handle(g_integration);
  m.attr("IOError") = py::handle(g_io);
  py::register_exception_translator(&translate);
}

}  // namespace nhs::python
