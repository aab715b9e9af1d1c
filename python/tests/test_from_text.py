"""Systems from text in memory (issue 58): System.from_text and
System.from_sympy read no file and write none, and System.check reads
nothing back from disk.

References: the same text saved as a file and loaded with nhs.load (the
same accelerations, bit for bit, and the same check report but for the
names of the system and the timings); the text's own lines (an error
names the name given with the line and column of the offending
character); an empty temporary directory, which must stay empty.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

import nhs

t = sp.Symbol("t")
KNIFE = "examples/knife-edge-incline.toml"


def knife_from_sympy(name):
    """The knife edge on an incline (examples/knife-edge-incline.toml) in
    sympy, without its [[exact]] motion."""
    x, y, th = dynamicsymbols("x y theta")
    xd, yd, thd = x.diff(t), y.diff(t), th.diff(t)
    m, J, g = sp.symbols("m J g")
    return nhs.System.from_sympy(
        coordinates=[x, y, th], kinetic_energy=m / 2 * (xd**2 + yd**2) + J / 2 * thd**2, potential=m * g * y,
        constraints={"blade": xd * sp.sin(th) - yd * sp.cos(th)}, parameters={m: "1", J: "0.5", g: "1"},
        initial={"q": [0, 0, 0], "qdot": [1, 0, "0.7"]}, name=name)


def test_from_sympy_accel_and_check_write_no_file(monkeypatch, tmp_path):
    """Python's and C++'s temporary directory (tempfile.tempdir, TMPDIR) is
    an empty directory: from_sympy, accel and check leave it empty."""
    empty = tmp_path / "tmp"
    empty.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(empty))
    monkeypatch.setenv("TMPDIR", str(empty))
    assert tempfile.gettempdir() == str(empty)
    knife = knife_from_sympy("knife-no-file")
    assert knife.accel().qddot.shape == (3,)
    report = knife.check(quick=True, precision="double", states=4, jobs=1)
    assert isinstance(report, nhs.CheckReport)
    assert report["pass"] is True, report.failures
    assert report.runs and all(r["csv"] == "" for r in report.runs)
    assert os.listdir(empty) == []
    assert not hasattr(nhs, "_write_system_file")
    assert knife.path.startswith("text:") and knife.path.endswith("/knife-no-file.toml")
    assert knife.name == "knife-no-file" and "[constraints]" in knife.toml


def test_from_text_is_the_file(tools, tmp_path):
    """A file's text given to from_text: the file's accelerations at the
    default state in every formulation (bit for bit: one loader, one text)
    and its check report, but for the system's name in the command."""
    path = tools.path(KNIFE)
    text = open(path, encoding="utf-8").read()
    made, ref = nhs.System.from_text(text, "knife.toml"), nhs.load(path)
    assert made.toml == text and made.name == "knife.toml"
    assert made.formulations() == ref.formulations()
    for f in ref.formulations():
        a, b = made.accel(formulation=f), ref.accel(formulation=f)
        assert a.study == b.study == "knife-edge-incline"
        assert a.qddot.tobytes() == b.qddot.tobytes(), f
    options = dict(precision="double", states=4, quick=True, jobs=1)
    mine, theirs = made.check(**options).to_dict(), ref.check(**options).to_dict()
    assert mine["system"] == made.path and theirs["system"] == path
    for d in (mine, theirs):
        for k in ("system", "command", "generated", "wall_seconds"):
            del d[k]
        for r in d["rows"] + d["runs"]:
            del r["seconds"]
        d["failures"], d["notes"] = sorted(d["failures"]), sorted(d["notes"])
    assert mine == theirs


def test_from_text_errors_name_the_name_with_line_and_column(tools):
    text = open(tools.path(KNIFE), encoding="utf-8").read()
    lines = text.splitlines(keepends=True)
    k = next(i for i, l in enumerate(lines) if l.startswith("kinetic_energy = \""))
    lines[k] = lines[k].replace('kinetic_energy = "', 'kinetic_energy = "nope + ', 1)
    with pytest.raises(nhs.UsageError) as e:
        nhs.System.from_text("".join(lines), "mine.toml")
    column = len('kinetic_energy = "') + 1  # the 'n' of nope
    assert str(e.value).startswith(f"mine.toml:{k + 1}:{column}: "), str(e.value)
    assert "nope" in str(e.value)
    # the TOML pre-scan guards the text as it guards a file
    with pytest.raises(nhs.UsageError, match=r"^guarded:2:21: TOML syntax: "):
        nhs.System.from_text('name = "x"\ncoordinates = ["x"] \u00a7\n', "guarded")
    with pytest.raises(nhs.UsageError, match=r"^text: expected a str"):
        nhs.System.from_text(b"name = 'x'")


def test_two_texts_under_one_name_are_two_systems(tools):
    text = open(tools.path(KNIFE), encoding="utf-8").read()
    mass = 'm = { default = "1"'
    assert mass in text
    light = nhs.System.from_text(text, "same.toml")
    heavy = nhs.System.from_text(text.replace(mass, 'm = { default = "2"'), "same.toml")
    again = nhs.System.from_text(text, "same.toml")
    assert light.path != heavy.path and again.path == light.path
    assert (light.parameters["m"], heavy.parameters["m"]) == ("1", "2")
