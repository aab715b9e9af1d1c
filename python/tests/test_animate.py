"""Run.animate writes the folder of `nhs animate` (docs/animation.md, docs/python.md).

Reference: the folder the CLI writes for the same system and run options:
index.html, three.min.js and OrbitControls.js byte for byte, data.js byte
for byte once its "command" (the CLI's command line, the Python call) is
set to the same text. The refusals are the tool's, under Python's names.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nhs

FILES = ["index.html", "data.js", "three.min.js", "OrbitControls.js"]


def animation_head(text):
    assert text.startswith("window.NHS_ANIMATION = ") and text.endswith("};\n")
    return json.loads(text[len("window.NHS_ANIMATION = "):-2])


def same_folder(cli_dir, py_dir):
    for f in FILES:
        a, b = (Path(cli_dir) / f).read_bytes(), (Path(py_dir) / f).read_bytes()
        if f == "data.js":
            ta, tb = a.decode(), b.decode()
            ca, cb = animation_head(ta)["command"], animation_head(tb)["command"]
            assert ca != cb  # each records its own command
            tb = tb.replace(json.dumps(cb, ensure_ascii=False), json.dumps(ca, ensure_ascii=False), 1)
            a, b = ta.encode(), tb.encode()
        assert a == b, f"{f} differs between {cli_dir} and {py_dir}"


CASES = [
    # (id, system file, CLI options, run keyword arguments, fps)
    ("rattleback", "examples/bodies/rattleback.toml", ["--t-end", "1"], dict(t_end=1), 10),
    ("rolling-disc-long-double", "examples/bodies/rolling-disc.toml",
     ["--t-end", "0.5", "--precision", "long-double", "--rtol", "1e-10"],
     dict(t_end=0.5, precision="long-double", rtol="1e-10"), 8),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_run_animate_writes_the_folder_of_nhs_animate(tools, tmp_path, case):
    _, system, options, kwargs, fps = case
    p = tools.cli("animate", tools.path(system), *options, "--fps", fps, "--out", tmp_path / "cli")
    assert p.returncode == 0, p.stderr
    run = nhs.load(tools.path(system)).run(dt_out=0.25, **kwargs)  # a grid coarser than 1 / fps
    anim = run.animate(tmp_path / "py", fps=fps)
    same_folder(tmp_path / "cli", tmp_path / "py")
    head = animation_head((tmp_path / "py" / "data.js").read_text())
    assert anim.path == str(tmp_path / "py")
    assert anim.samples == len(head["t"]) == round(kwargs["t_end"] * fps) + 1
    assert anim.t_last == head["t"][-1] and anim.bodies == len(head["bodies"]) and anim.stopped == ""
    html = anim._repr_html_()
    assert html.startswith("<iframe src=") and "index.html" in html


def test_a_run_that_stops_writes_what_was_integrated(tools, tmp_path):
    disc = nhs.load(tools.path("examples/bodies/rolling-disc.toml"))
    args = dict(q0=[0, 0, 0.3, 0, 0], z0=[0, 0, 0], singular_margin=0.05, t_end=10)
    with pytest.raises(nhs.InvalidState) as e:
        disc.run(**args)
    anim = e.value.run.animate(tmp_path / "py")
    p = tools.cli("animate", tools.path("examples/bodies/rolling-disc.toml"), "--q", "0,0,0.3,0,0", "--z", "0,0,0",
                  "--singular-margin", "0.05", "--t-end", "10", "--out", tmp_path / "cli")
    assert p.returncode == 3, p.stderr
    same_folder(tmp_path / "cli", tmp_path / "py")
    head = animation_head((tmp_path / "py" / "data.js").read_text())
    assert "singular" in anim.stopped and anim.stopped == head["stopped"]


def test_refusals_name_what_is_wrong_and_write_nothing(tools, tmp_path):
    rb = nhs.load(tools.path("examples/bodies/rattleback.toml"))
    run = rb.run(t_end=0.2)
    with pytest.raises(nhs.UsageError, match="path: .*README.md' exists and is not a directory"):
        run.animate(tools.path("README.md"))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(nhs.UsageError, match="other files than an animation"):
        run.animate(mine)
    assert (mine / "notes.txt").read_text() == "keep me"
    for fps in (0, -1, 2e6):
        with pytest.raises(nhs.UsageError, match="fps: .* in \\(0, 1e6\\]"):
            run.animate(tmp_path / "bad", fps=fps)
    with pytest.raises(nhs.UsageError, match="fps: malformed number 'nan'"):
        run.animate(tmp_path / "bad", fps=float("nan"))
    with pytest.raises(nhs.UsageError, match="three: .*three.min.js' not found"):
        run.animate(tmp_path / "bad", three=tmp_path)
    with pytest.raises(nhs.UsageError, match="samples of 2 bodies and contacts exceed the animation's bound of "
                                             "2000000 body-samples"):
        rb.run(t_end=2).animate(tmp_path / "bad", fps=1e6)
    none = nhs.load(tools.path("tests/systems/integrable.toml")).run(t_end=0.2)
    p = tools.cli("animate", tools.path("tests/systems/integrable.toml"), "--t-end", "0.2", "--out", tmp_path / "bad")
    assert p.returncode == 2
    with pytest.raises(nhs.UsageError) as e:
        none.animate(tmp_path / "bad")
    assert str(e.value) == tools.error_line(p.stderr) and "has no bodies to draw" in str(e.value)
    assert not (tmp_path / "bad").exists()
    assert not [f for f in tmp_path.iterdir() if "nhs-tmp" in f.name]


def test_a_support_surface_is_drawn_as_the_mesh_of_its_boundary_points(tools, tmp_path):
    # The rounded rattleback's h(u) = sqrt(u^T A u) + r |u|, A = diag(a^2, b^2, c^2), has
    # grad h(u) = A u / sqrt(u^T A u) + r u / |u| (Schneider, Cor. 1.7.3): the vertices at the
    # UV sphere's directions (FileSceneBody::Shape::Mesh), from the surface's centre (0, 0, h).
    import math
    rb = nhs.load(tools.path("examples/bodies/rounded-rattleback.toml"))
    anim = rb.run(t_end=0.2).animate(tmp_path / "rounded", fps=10)
    body, = animation_head((tmp_path / "rounded" / "data.js").read_text())["bodies"]
    assert anim.bodies == 1 and body["shape"] == "mesh"
    a, b, c, r, h = 0.2, 0.03, 0.02, 0.005, 0.015
    directions = [(0.0, 0.0, 1.0)]
    for i in range(1, 12):
        for j in range(24):
            theta, phi = math.pi * i / 12, 2 * math.pi * j / 24
            directions.append((math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta)))
    directions.append((0.0, 0.0, -1.0))
    size = body["size"]
    assert len(size) == 3 + 3 * len(directions) == 801
    assert size[:3] == pytest.approx([0, 0, h], abs=1e-15)
    for k, u in enumerate(directions):
        q = math.sqrt(a * a * u[0] ** 2 + b * b * u[1] ** 2 + c * c * u[2] ** 2)
        n = math.sqrt(sum(x * x for x in u))
        want = [s * s * x / q + r * x / n for s, x in zip((a, b, c), u)]
        assert size[3 + 3 * k: 6 + 3 * k] == pytest.approx(want, rel=1e-13, abs=1e-16), k
