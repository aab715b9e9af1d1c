"""Shared helpers for the pytest suite of the Python module `nhs`.

The suite compares the module with the command-line tool `nhs` (the
reference: what the module promises is "the same numbers as the CLI"):

    cd /work/main && PYTHONPATH=build/python NHS_CLI=build/nhs NHS_SOURCE_DIR=/work/main \
        /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests

NHS_CLI is the `nhs` executable, NHS_SOURCE_DIR the source tree (for the
example system files). Both default to the layout of a build in ./build.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

# mpmath is imported here, before any nhs call converts a result: the
# module's first conversion to mpmath.mpf imports mpmath inside a C++
# function-local static, which deadlocks when two threads get there at once
# (see test_threads.py::test_first_mp_conversion_in_two_threads_does_not_deadlock).
import mpmath  # noqa: F401
import numpy as np
import pytest

import nhs

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])
CLI = os.environ.get("NHS_CLI") or str(SOURCE_DIR / "build" / "nhs")
BITS = nhs._core.binary_digits()  # precision -> binary digits of its mantissa

# The CLI's exit codes (README) and the exception each one becomes.
EXIT_EXCEPTION = {2: nhs.UsageError, 3: nhs.InvalidState, 4: nhs.IntegrationError}


class Tools:
    """Helpers handed to the tests by the `tools` fixture."""

    source_dir = SOURCE_DIR
    cli_path = CLI
    bits = BITS
    exit_exception = EXIT_EXCEPTION

    @staticmethod
    def path(relative):
        """A file of the source tree, as an absolute path string."""
        return str(SOURCE_DIR / relative)

    @staticmethod
    def cli(*args, timeout=120):
        """Runs `nhs ARGS...` and returns the CompletedProcess (text)."""
        return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True,
                              timeout=timeout, cwd=str(SOURCE_DIR))

    @classmethod
    def cli_json(cls, *args):
        p = cls.cli(*args)
        assert p.returncode == 0, f"nhs {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}"
        return json.loads(p.stdout)

    @staticmethod
    def error_line(stderr):
        """The text of the CLI's `nhs: error: ...` line."""
        lines = [l for l in stderr.splitlines() if l.startswith("nhs: error: ")]
        assert len(lines) == 1, f"expected one error line in: {stderr!r}"
        return lines[0][len("nhs: error: "):]

    @staticmethod
    def mpf(text, precision):
        """The decimal string `text` rounded to nearest at the binary digits
        of `precision` (mpmath's own parser: the independent reference)."""
        with mpmath.workprec(BITS[precision]):
            return mpmath.mpf(text)

    @staticmethod
    def same_double(a, b):
        """Bitwise equality of two doubles (0.0 and -0.0 differ)."""
        return np.float64(a).tobytes() == np.float64(b).tobytes()

    @staticmethod
    def read_csv(path_or_text):
        """(header, rows of strings) of a CSV written by `nhs run`."""
        text = Path(path_or_text).read_text() if isinstance(path_or_text, Path) else path_or_text
        lines = text.splitlines()
        header = lines[0].split(",")
        rows = [line.split(",") for line in lines[1:] if line]
        assert all(len(r) == len(header) for r in rows)
        return header, rows


@pytest.fixture(scope="session")
def tools():
    assert Path(CLI).exists(), f"NHS_CLI={CLI} does not exist"
    return Tools
