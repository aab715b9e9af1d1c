"""Systems that depend on the time t (docs/system-files.md, "Time"):
accel(t=...) and run(t0=...) set the clock coordinate that the loader adds.

References: the closed form of examples/pushed-skate.toml (a skate pushed
along its blade by F = k t: s_dot = k t / m, theta_ddot = 0), and the same
state given with its clock entry.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

import nhs

SOURCE_DIR = Path(os.environ.get("NHS_SOURCE_DIR") or Path(__file__).resolve().parents[2])
SKATE = SOURCE_DIR / "examples" / "pushed-skate.toml"


def test_accel_at_t_is_the_push_of_that_time():
    """At t = 2.5 the push is k t along the blade: qddot from the closed form
    x_ddot = s_dot cos(theta) - s omega sin(theta), s_dot = k t / m."""
    skate = nhs.load(SKATE)
    assert skate.coordinates == ["x", "y", "theta", "time"]
    m, k = 1.0, 0.5  # the file's defaults
    theta, s, omega, t = 0.3, 0.4, 0.5, 2.5
    for formulation in ("second-kind", "first-kind", "maggi", "gibbs-appell", "udwadia-kalaba",
                        "lagrange-multipliers"):
        a = skate.accel(q=[0.1, -0.2, theta], z=[s, omega], t=t, formulation=formulation)
        assert a.q[3] == t and a.qdot[3] == 1.0
        s_dot = k * t / m
        expected = [s_dot * math.cos(theta) - s * omega * math.sin(theta),
                    s_dot * math.sin(theta) + s * omega * math.cos(theta), 0.0, 0.0]
        assert np.max(np.abs(np.asarray(a.qddot) - expected)) <= 1e-13, formulation


def test_the_clock_may_be_given_in_q():
    """q with its clock entry t and no t= gives the same answer, bit for bit."""
    skate = nhs.load(SKATE)
    a = skate.accel(q=[0.1, -0.2, 0.3], z=[0.4, 0.5], t=2.5)
    b = skate.accel(q=[0.1, -0.2, 0.3, 2.5], z=[0.4, 0.5])
    assert list(a.qddot) == list(b.qddot)


def test_time_is_refused_where_it_has_no_meaning():
    with pytest.raises(nhs.UsageError, match="does not depend on the time t"):
        nhs.study("skate").accel(t=1.0)
    with pytest.raises(nhs.UsageError, match="gives already as its clock coordinate time"):
        nhs.load(SKATE).accel(q=[0.1, -0.2, 0.3, 2.5], z=[0.4, 0.5], t=2.5)
    with pytest.raises(nhs.UsageError, match="--t0"):
        nhs.load(SKATE).run(motion=1, t0=1.0)


def test_run_from_t0_keeps_the_closed_forms_impulse():
    """From t0 = 3 the impulse s - k t^2/(2 m) stays constant, with the
    clock's column the system's time t0 + t."""
    skate = nhs.load(SKATE)
    run = skate.run(t_end=2, dt_out=0.5, t0=3)
    time = np.asarray(run["time"], dtype=float)
    t = np.asarray(run["t"], dtype=float)
    assert np.max(np.abs(time - (3 + t))) <= 1e-12
    impulse = np.asarray(run["impulse"], dtype=float)
    assert np.max(np.abs(impulse - impulse[0])) <= 1e-10


def test_run_carries_the_work_of_the_push():
    """The run carries W, the work of the push k t along the blade (the
    last column, `work`): from t0 = 3, W = m/2 (s^2 - s(0)^2) with
    s = s(0) + k ((3 + t)^2 - 9)/(2 m), the closed form, and the summary's
    work-energy balance is within the drift bound."""
    skate = nhs.load(SKATE)
    run = skate.run(t_end=2, dt_out=0.5, t0=3)
    assert run.columns[-1] == "work"
    m, k = 1.0, 0.5  # the file's defaults
    theta = np.asarray(run["theta"], dtype=float)
    s0 = float(run["x_dot"][0]) * math.cos(theta[0]) + float(run["y_dot"][0]) * math.sin(theta[0])
    t = np.asarray(run["t"], dtype=float)
    s = s0 + k * ((3 + t) ** 2 - 9) / (2 * m)
    work = np.asarray(run["work"], dtype=float)
    assert np.max(np.abs(work - m / 2 * (s**2 - s0**2))) <= 1e-9 * (1 + np.max(np.abs(work)))
    balance = run.summary["work_balance"]
    assert balance["work_scale"] > 1
    assert balance["drift"] <= 1e-9 * (1 + balance["work_scale"] + np.max(np.abs(run["energy"])))
