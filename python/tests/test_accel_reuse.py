"""System.accel keeps its admitted model between calls, and never answers from a stale one.

Reference: a fresh System (a new handle, so a model made for this call
alone) asked the same: its answer, every digit (AccelResult.strings), is the
kept model's. The kept model must follow what it was made of: a call at
other parameters, with another formulation or field, or after the system
file was edited answers as a fresh System does, and (so that the test
fails where a change is ignored) differently from the answer before the
change.
"""

from __future__ import annotations

import os
import random
import re

import pytest

import nhs

SLEIGH = """name = "reuse-sleigh"
title = "a Chaplygin sleigh"
source = "python/tests/test_accel_reuse.py"
coordinates = ["x", "y", "theta"]
quasi_velocities = ["v", "omega"]

[parameters]
m = {{ default = "{m}", meaning = "mass" }}
I = {{ default = "0.25", meaning = "moment of inertia" }}
a = {{ default = "0.5", meaning = "blade distance" }}

[dynamics]
kinetic_energy = "m/2*(x_dot^2 + y_dot^2) + I/2*theta_dot^2"

[constraints]
blade = "-x_dot*sin(theta) + y_dot*cos(theta) - a*theta_dot"

[parametrization]
x_dot = "v*cos(theta) - a*omega*sin(theta)"
y_dot = "v*sin(theta) + a*omega*cos(theta)"
theta_dot = "omega"

[chart]
v = "x_dot*cos(theta) + y_dot*sin(theta)"
omega = "theta_dot"

[initial]
q = ["0", "0", "0"]
z = ["1", "0.5"]
"""


def strings(result):
    return dict(result.strings, formulation=result.formulation, field=result.field)


def seeded_states(system, count, seed=61):
    """count states (q, z) near the default state, seeded."""
    rng = random.Random(seed)
    q0 = [float(v) for v in system.accel().q]
    m = len(system.quasi_velocities)
    return [([v + 0.05 * rng.gauss(0, 1) for v in q0], [rng.gauss(0, 1) for _ in range(m)]) for _ in range(count)]


@pytest.mark.parametrize("name", ["whipple-bicycle", "rolling-disc"])
@pytest.mark.parametrize("formulation", ["second-kind", "first-kind"])
def test_kept_model_answers_as_a_fresh_system(name, formulation):
    kept = nhs.System(name)
    answered = 0
    for q, z in seeded_states(kept, 20):
        try:
            fresh = strings(nhs.System(name).accel(q=q, z=z, formulation=formulation))
        except nhs.Error as e:
            with pytest.raises(type(e), match="^" + re.escape(str(e)) + "$"):
                kept.accel(q=q, z=z, formulation=formulation)
            continue
        assert strings(kept.accel(q=q, z=z, formulation=formulation)) == fresh
        answered += 1
    assert answered >= 15


def test_mp50_kept_model_answers_as_a_fresh_system():
    kept = nhs.System("rolling-disc")
    for q, z in seeded_states(kept, 5):
        assert strings(kept.accel(q=q, z=z, precision="mp50")) == \
            strings(nhs.System("rolling-disc").accel(q=q, z=z, precision="mp50"))


def test_parameters_formulation_and_field_changes_are_followed():
    kept = nhs.System("rolling-disc")
    base = strings(kept.accel())
    heavier = strings(kept.accel(params={"m": 2.5}))
    assert heavier == strings(nhs.System("rolling-disc").accel(params={"m": 2.5}))
    assert heavier["parameters"] != base["parameters"]
    assert heavier["gauss_z"] != base["gauss_z"] or heavier["reaction"] != base["reaction"]
    assert strings(kept.accel()) == base  # back at the defaults
    first = strings(kept.accel(formulation="first-kind"))
    assert first == strings(nhs.System("rolling-disc").accel(formulation="first-kind"))
    assert first["formulation"] == "first-kind" and "multipliers" not in first and "multipliers" in base
    library = strings(kept.accel(field="library"))
    assert library == strings(nhs.System("rolling-disc").accel(field="library"))
    assert library["field"] == "library" and base["field"] == "generated"


def test_an_edited_file_is_followed(tmp_path):
    path = tmp_path / "sleigh.toml"
    path.write_text(SLEIGH.format(m="1.5"))
    kept = nhs.System(str(path))
    q, z = [0.1, -0.2, 0.3], [1.0, 0.5]
    before = strings(kept.accel(q=q, z=z))
    # Another mass, and a modification time surely not the first's.
    path.write_text(SLEIGH.format(m="3.25"))
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    after = strings(kept.accel(q=q, z=z))
    assert after == strings(nhs.System(str(path)).accel(q=q, z=z))
    assert after["parameters"]["m"] == "3.25" and before["parameters"]["m"] == "1.5"
    assert after["reaction"] != before["reaction"]
