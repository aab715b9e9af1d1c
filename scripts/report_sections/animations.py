"""The bodies examples as animations (`nhs animate`, docs/animation.md).

The one list of what scripts/report.sh animates: every system file in
examples/bodies/ and the Whipple bicycle, each run to T_END at FPS frames
per unit of simulated time (short: the report's time stays small) into
runs/animations/<name>/, with a still frame runs/animations/<name>.png of the
page at t = STILL (headless Chromium). `python3 animations.py --list` prints
"name system t_end fps still" lines for report.sh.
"""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T_END, FPS, STILL = "2", "10", "1"


def animations():
    """(name, system) of each animated example, relative to the source tree, sorted by name."""
    systems = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "examples", "bodies", "*.toml")))
    systems.append("examples/bicycle/whipple-bicycle.toml")
    return sorted((os.path.splitext(os.path.basename(s))[0], s) for s in systems)


def command(name, system):
    return f"nhs animate {system} --t-end {T_END} --fps {FPS} --out runs/animations/{name}"


def section_animations(rep):
    """One line per animation that scripts/report.sh wrote under
    runs/animations/<name>/ (index.html opens offline), with its still
    frame (runs/animations/<name>.png); a missing one is listed as missing."""
    root = os.path.join(ROOT, "runs", "animations")
    rep.md("Each bodies example run and drawn in 3-D by `nhs animate` (docs/animation.md): the folder "
           "opens offline in a browser (three.js copied into it). The animations are under `runs/` "
           f"(not committed); the still frames are the page at t = {STILL}.")
    rep.md()
    for name, system in animations():
        page = os.path.join(root, name, "index.html")
        still = os.path.join(root, name + ".png")
        if not os.path.exists(page):
            rep.missing.append(f"runs/animations/{name}/index.html ({command(name, system)})")
            continue
        rep.md(f"- [{name}]({os.path.relpath(page, rep.reports)}): `{command(name, system)}`")
        if os.path.exists(still):
            rep.md(f"  ![{name} at t = {STILL}]({os.path.relpath(still, rep.reports)})")
        else:
            rep.missing.append(f"runs/animations/{name}.png (the still frame: chromium, scripts/setup.sh)")
    rep.md()


if __name__ == "__main__":
    if sys.argv[1:] != ["--list"]:
        sys.exit("usage: python3 scripts/report_sections/animations.py --list")
    for name, system in animations():
        print(name, system, T_END, FPS, STILL)
