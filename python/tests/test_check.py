"""System.check: `nhs check` from Python.

Reference: `nhs check FILE` run by the CLI with the same options (its exit
code and summary.json), and a file whose [[exact]] motion is deliberately
wrong, which check must fail.
"""

from __future__ import annotations

import json

import nhs

OPTIONS = dict(precision="double", states=6, quick=True, jobs=2)


def test_check_passes_on_a_small_file(tools, tmp_path):
    path = tools.path("examples/knife-edge-incline.toml")
    knife = nhs.load(path)
    summary = knife.check(**OPTIONS)
    assert summary["pass"] is True
    assert summary["failures"] == []
    rows = summary["rows"]
    assert {r["formulation"] for r in rows} == set(knife.formulations())
    assert all(r["precision"] == "double" for r in rows)
    assert all(r["pass"] for r in rows if not r["negative_control"])
    # out_dir keeps summary.json, which is the dict returned
    out = tmp_path / "check"
    kept = knife.check(out_dir=out, **OPTIONS)
    assert json.loads((out / "summary.json").read_text()) == kept
    assert (out / "summary.md").exists()
    # the CLI on the same file and options
    cli_out = tmp_path / "cli"
    p = tools.cli("check", path, "--precision", "double", "--states", "6", "--quick", "--jobs", "2",
                  "--no-report", "--out-dir", cli_out)
    assert p.returncode == 0, p.stderr
    cli = json.loads((cli_out / "summary.json").read_text())
    assert cli["pass"] is True
    assert [(r["formulation"], r["result"]) for r in cli["rows"]] == \
        [(r["formulation"], r["result"]) for r in kept["rows"]]


def test_check_fails_on_a_wrong_exact_motion(tools, tmp_path):
    """The knife edge's [[exact]] motion with theta = 0.9 t instead of 0.8 t:
    the motion from its start no longer follows it."""
    text = (tools.source_dir / "examples" / "knife-edge-incline.toml").read_text()
    assert '     "0.8*t"]' in text
    bad = tmp_path / "wrong-exact.toml"
    bad.write_text(text.replace('     "0.8*t"]', '     "0.8*t + 0.01*t^2"]'))
    summary = nhs.load(bad).check(**OPTIONS)
    assert summary["pass"] is False
    assert summary["failures"], summary
    # quick: runs cut at t = 2, where the wrong theta is off by 0.01 t^2 = 0.04
    assert all("turning on the incline" in f and "error vs analytic solution 0.04 >" in f
               for f in summary["failures"]), summary["failures"]
    assert {r["error_vs_exact"] for r in summary["rows"] if r["formulation"] != "naive-reduced"
            and r["error_vs_exact"] != "-"} == {"0.04"}
    p = tools.cli("check", bad, "--precision", "double", "--states", "6", "--quick", "--jobs", "2",
                  "--no-report", "--out-dir", tmp_path / "cli")
    assert p.returncode == 1
