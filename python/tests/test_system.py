"""System's properties, and loading system files.

Reference: `nhs list SYSTEM` (docs/cli.md): n, r, m, the names, the
parameters' defaults and which formulations apply.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import nhs

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])
SYSTEMS = nhs.studies() + ["n-trailer-5"] + [
    str(p) for p in sorted((SOURCE_DIR / "studies" / "files").glob("*.toml"))] + [
    str(SOURCE_DIR / "examples" / "contact-oscillator.toml")]


def parse_list(text):
    out = {}
    for line in text.splitlines():
        if m := re.match(r"  n = (\d+) coordinates q = \((.*)\)$", line):
            out["n"], out["coordinates"] = int(m[1]), m[2].split(", ")
        elif m := re.match(r"  r = (\d+) constraints: (.*)$", line):
            out["r"] = int(m[1])
            out["constraints"] = re.findall(r"(?:^|, )(\S+) \((?:non-linear|linear|affine) in qdot\)", m[2])
        elif m := re.match(r"  m = (\d+) quasi-velocities z = \((.*)\)", line):
            out["m"], out["quasi_velocities"] = int(m[1]), m[2].split(", ")
        elif line.startswith("  parameters: "):
            out["parameters_line"] = line
        elif m := re.match(r"  (\S+)\s+(applies|not applicable)", line):
            out.setdefault("applies", []).append(m[1]) if m[2] == "applies" else None
    return out


@pytest.mark.parametrize("name", SYSTEMS, ids=[Path(s).name for s in SYSTEMS])
def test_properties_equal_nhs_list(tools, name):
    listed = parse_list(tools.cli("list", name).stdout)
    s = nhs.System(name)
    assert (s.n, s.r, s.m) == (listed["n"], listed["r"], listed["m"])
    assert s.coordinates == listed["coordinates"]
    assert s.constraints == listed["constraints"]
    assert s.quasi_velocities == listed["quasi_velocities"]
    assert s.formulations() == listed["applies"]
    line = listed["parameters_line"]
    positions = [line.index(f" {k} = {v} (") for k, v in s.parameters.items()]
    assert positions == sorted(positions)
    # all of them: the names `nhs accel` prints, in order
    assert list(tools.cli_json("accel", name)["parameters"]) == list(s.parameters)
    assert s.is_file == name.endswith(".toml")


def test_load_takes_a_path_object(tools):
    path = Path(tools.path("examples/contact-oscillator.toml"))
    a, b = nhs.load(path), nhs.load(str(path))
    assert a.accel().strings == b.accel().strings
    assert repr(a).startswith("nhs.System(") and "n = 3, r = 1, m = 2" in repr(a)


def test_load_after_the_file_changed_reads_the_new_file(tools, tmp_path):
    path = tmp_path / "knife.toml"
    text = (tools.source_dir / "examples" / "knife-edge-incline.toml").read_text()
    path.write_text(text)
    before = nhs.load(path)
    assert before.parameters["g"] == "1"
    changed = 'g = { default = "3"'
    path.write_text(text.replace('g = { default = "1"', changed))
    assert changed in path.read_text()
    after = nhs.load(path)
    assert after.parameters["g"] == "3", "nhs.load returned the file's old content"
    assert after.accel().strings["parameters"]["g"] == "3"


def test_module_docstring_accel_example_runs():
    """The first lines of `help(nhs)`: skate.accel(q=[0, 0, 0.3],
    qdot=[1, 0.309, 0.5]). The skate's constraint asks y_dot = tan(theta)
    x_dot = 0.30934 here, so this state is 3.2e-4 off C: nhs.InvalidState."""
    lines = [l.strip()[4:] for l in nhs.__doc__.splitlines() if l.strip().startswith(">>> ")]
    example = [l.split("#")[0] for l in lines if "nhs.study(" in l or ".accel(" in l]
    assert len(example) == 2, lines
    scope = {"nhs": nhs}
    for line in example:
        exec(line, scope)  # noqa: S102 - the module's own example
    assert scope["a"].qddot.shape == (3,)
