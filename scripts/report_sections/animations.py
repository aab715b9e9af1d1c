"""The bodies examples as animations (`nhs animate`, docs/animation.md).
"""
import os

# The bodies examples that scripts/report.sh animates, with the run options.
ANIMATIONS = [
    ("rolling-disc", "examples/bodies/rolling-disc.toml", "--t-end 10"),
    ("rattleback", "examples/bodies/rattleback.toml", "--t-end 20"),
    ("bicycle", "examples/bicycle/whipple-bicycle.toml", "--t-end 5"),
    ("chaplygin-sphere", "examples/bodies/chaplygin-sphere.toml", "--t-end 10"),
]


def section_animations(rep):
    """One line per animation that scripts/report.sh wrote under
    runs/animations/<name>/ (index.html opens offline), with its still
    frame (runs/animations/<name>.png, headless Chromium)."""
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "runs", "animations")
    rep.md("Each bodies example run and drawn in 3-D by `nhs animate` (docs/animation.md): the folder "
           "opens offline in a browser (three.js copied into it). The animations are under `runs/` "
           "(not committed); the still frames are the page at the time given.")
    rep.md()
    for name, system, options in ANIMATIONS:
        page = os.path.join(root, name, "index.html")
        still = os.path.join(root, name + ".png")
        if not os.path.exists(page):
            rep.missing.append(f"runs/animations/{name}/index.html (nhs animate {system} {options} "
                               f"--out runs/animations/{name})")
            continue
        rel = os.path.relpath(page, rep.reports)
        rep.md(f"- [{name}]({rel}): `nhs animate {system} {options} --out runs/animations/{name}`")
        if os.path.exists(still):
            rep.md(f"  ![{name}]({os.path.relpath(still, rep.reports)})")
    rep.md()
