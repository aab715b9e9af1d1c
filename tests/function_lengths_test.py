#!/usr/bin/env python3
"""The length checkers themselves (scripts/function_lengths.py,
scripts/file_lengths.py): fixtures
written to a temporary folder, one line either side of the limit, so that
each rule the docstrings state could fail.

Usage: function_lengths_test.py (exits non-zero when a case fails).
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts")
FUNCTION_LENGTHS = os.path.join(SCRIPTS, "function_lengths.py")
FILE_LENGTHS = os.path.join(SCRIPTS, "file_lengths.py")


def python_function(name, lines, indent=""):
    """A Python function `name` of exactly `lines` lines (def line included)."""
    body = [f"{indent}    x = {k}" for k in range(lines - 1)]
    return "\n".join([f"{indent}def {name}():"] + body) + "\n"


def cpp_function(name, lines):
    """A C++ function `name` of exactly `lines` lines (name line to closing brace)."""
    body = [f"  x += {k};" for k in range(lines - 2)]
    return "\n".join([f"int {name}(int x) {{"] + body + ["}"]) + "\n"


class Checker(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_checker(self, *args, script=FUNCTION_LENGTHS):
        p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr


class FunctionChecker(Checker):
    def run_checker(self, *args):
        return super().run_checker("--max", "80", *args)


class PythonFunctions(FunctionChecker):
    def test_80_lines_pass_81_fail(self):
        ok = self.write("ok.py", python_function("f", 80))
        self.assertEqual(self.run_checker("--python", ok)[0], 0)
        long = self.write("long.py", python_function("g", 81))
        code, out, _ = self.run_checker("--python", long)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["81", f"{long}:1", "g"])

    def test_nested_functions_count_towards_their_parent(self):
        # an outer function of 81 lines, 70 of which are a nested function
        text = "def outer():\n" + python_function("inner", 70, "    ") + \
               "".join(f"    y = {k}\n" for k in range(10))
        path = self.write("nested.py", text)
        code, out, _ = self.run_checker("--all", "--python", path)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["81", f"{path}:1", "outer"])

    def test_methods_are_measured_and_named_by_their_class(self):
        text = "class A:\n    class B:\n" + python_function("m", 81, "        ") + \
               python_function("n", 80, "    ")
        path = self.write("methods.py", text)
        code, out, _ = self.run_checker("--all", "--python", path)
        self.assertEqual(code, 1)
        self.assertEqual([r.split() for r in out.splitlines()],
                         [["81", f"{path}:3", "A.B.m"], ["80", f"{path}:84", "A.n"]])

    def test_decorators_are_not_counted(self):
        text = "import functools\n\n\n@functools.lru_cache\n@staticmethod\n" + python_function("f", 80)
        path = self.write("decorated.py", text)
        code, out, _ = self.run_checker("--all", "--python", path)
        self.assertEqual(code, 0)
        self.assertEqual(out.split(), ["80", f"{path}:6", "f"])

    def test_a_file_that_does_not_parse_is_named_with_its_line(self):
        path = self.write("broken.py", "def f():\n    return 1\n\ndef g(:\n    pass\n")
        code, _, err = self.run_checker("--python", path)
        self.assertEqual(code, 2)
        self.assertIn(f"{path}:4: does not parse as Python", err)

    def test_directories_are_searched_for_the_language_they_are_given_for(self):
        self.write("src/long.py", python_function("g", 81))
        self.write("src/long.cpp", cpp_function("h", 81))
        src = os.path.join(self.dir, "src")
        self.assertEqual(self.run_checker(src)[1].split()[2], "h")
        self.assertEqual(self.run_checker("--python", src)[1].split()[2], "g")


class CppFunctions(FunctionChecker):
    def test_80_lines_pass_81_fail(self):
        ok = self.write("ok.cpp", cpp_function("f", 80))
        self.assertEqual(self.run_checker(ok)[0], 0)
        long = self.write("long.cpp", cpp_function("g", 81))
        code, out, _ = self.run_checker(long)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["81", f"{long}:1", "g"])

    def test_lambdas_count_towards_their_function(self):
        text = "int f(int x) {\n  auto g = [&](int y) {\n" + "".join(f"    y += {k};\n" for k in range(75)) + \
               "    return y;\n  };\n  return g(x);\n}\n"
        path = self.write("lambda.cpp", text)
        code, out, _ = self.run_checker("--all", path)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["81", f"{path}:1", "f"])


class FileLengths(Checker):
    def lines(self, n, first=""):
        """A file of n lines, the first one `first`."""
        return first + "\n" + "".join(f"x{k} = {k}\n" for k in range(n - 1))

    def run_checker(self, *args):
        return super().run_checker("--max", "800", *args, script=FILE_LENGTHS)

    def test_800_lines_pass_801_fail(self):
        self.write("src/ok.py", self.lines(800))
        self.write("src/ok.cpp", self.lines(800))
        src = os.path.join(self.dir, "src")
        self.assertEqual(self.run_checker(src)[0], 0)
        long = self.write("src/long.hpp", self.lines(801))
        code, out, _ = self.run_checker(src)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["801", long])

    def test_an_exempt_file_says_why_in_its_first_lines(self):
        self.write("src/table.hpp", self.lines(900, "// file-length: exempt (a coefficient table)"))
        self.write("src/gen.py", self.lines(900, "# file-length: exempt (generated by hand-made.py)"))
        src = os.path.join(self.dir, "src")
        self.assertEqual(self.run_checker(src)[0], 0)
        no_reason = self.write("src/no_reason.cpp", self.lines(900, "// file-length: exempt"))
        late = self.write("src/late.cpp", "\n" * 10 + self.lines(900, "// file-length: exempt (too late)"))
        code, out, _ = self.run_checker(src)
        self.assertEqual(code, 1)
        self.assertEqual(out.split(), ["910", late, "900", no_reason])

    def test_tests_and_third_party_are_not_read(self):
        for d in ("tests", "third_party", "src/tests"):
            self.write(f"{d}/long.cpp", self.lines(900))
        self.write("src/ok.cpp", self.lines(10))
        self.assertEqual(self.run_checker(self.dir)[0], 0)
        self.assertEqual(self.run_checker(os.path.join(self.dir, "nothing"))[0], 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
