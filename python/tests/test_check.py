"""System.check: `nhs check` from Python.

Reference: `nhs check FILE` run by the CLI with the same options (its exit
code and summary.json, whose every field but the timings the returned
nhs.CheckReport must hold), and a file whose [[exact]] motion is
deliberately wrong, which check must fail.
"""

from __future__ import annotations

import json

import nhs

OPTIONS = dict(precision="double", states=6, quick=True, jobs=2)
CLI_OPTIONS = ("--precision", "double", "--states", "6", "--quick", "--jobs", "2", "--no-report")


def without_timings(summary, csv=True):
    """summary.json's content without what differs from run to run: the
    date (generated), the wall times (wall_seconds, each row's and run's seconds),
    and the order of the failures and notes (added by the worker threads
    as they finish: sorted here); without each run's csv when csv is
    False."""
    out = {k: v for k, v in summary.items() if k not in ("generated", "wall_seconds")}
    out["failures"], out["notes"] = sorted(summary["failures"]), sorted(summary["notes"])
    out["rows"] = [{k: v for k, v in r.items() if k != "seconds"} for r in summary["rows"]]
    out["runs"] = [{k: v for k, v in r.items() if k != "seconds" and (csv or k != "csv")} for r in summary["runs"]]
    return out


def test_check_passes_on_a_small_file(tools, tmp_path):
    path = tools.path("examples/knife-edge-incline.toml")
    knife = nhs.load(path)
    summary = knife.check(**OPTIONS)
    assert isinstance(summary, nhs.CheckReport)
    assert summary["pass"] is True and getattr(summary, "pass") is True
    assert summary.failures == summary["failures"] == []
    rows = summary["rows"]
    assert {r["formulation"] for r in rows} == set(knife.formulations())
    assert all(r["precision"] == "double" for r in rows)
    assert all(r["pass"] for r in rows if not r["negative_control"])
    # without out_dir nothing was written: no run has a CSV
    assert summary.runs and all(r["csv"] == "" for r in summary.runs)
    # out_dir gets summary.json, whose content is the report's, and the CSVs
    out = tmp_path / "check"
    kept = knife.check(out_dir=out, **OPTIONS)
    assert json.loads((out / "summary.json").read_text()) == kept.to_dict()
    assert (out / "summary.md").exists()
    assert all((out / r["csv"]).is_file() for r in kept.runs)
    # the CLI on the same file and options: the same fields and figures
    cli_out = tmp_path / "cli"
    p = tools.cli("check", path, *CLI_OPTIONS, "--out-dir", cli_out)
    assert p.returncode == 0, p.stderr
    cli = json.loads((cli_out / "summary.json").read_text())
    assert cli["pass"] is True
    assert without_timings(kept.to_dict()) == without_timings(cli)
    assert without_timings(summary.to_dict(), csv=False) == without_timings(cli, csv=False)


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
    p = tools.cli("check", bad, *CLI_OPTIONS, "--out-dir", tmp_path / "cli")
    assert p.returncode == 1
    cli = json.loads((tmp_path / "cli" / "summary.json").read_text())
    assert without_timings(summary.to_dict(), csv=False) == without_timings(cli, csv=False)
