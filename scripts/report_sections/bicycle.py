"""The Whipple bicycle's eigenvalues against speed (Meijaard et al. 2007).
"""
import os

from .common import plt, read_csv, read_json


BICYCLE_CMD = ("nhs stability examples/bicycle/whipple-bicycle.toml --steady upright --from 0 --to 10 "
               "--points 201 --csv bench/bicycle_stability.csv > bench/bicycle_stability.json")


def section_bicycle(rep):
    """Meijaard et al. (2007) Figure 3: the Whipple bicycle's eigenvalues
    against the forward speed, with the crossings nhs finds (docs/bicycle.md)."""
    base = os.path.join(rep.reports, "bench", "bicycle_stability")
    if not (os.path.exists(base + ".csv") and os.path.exists(base + ".json")):
        rep.missing.append("bench/bicycle_stability.csv, .json (" + BICYCLE_CMD + ")")
        rep.md("(no input)")
        return
    header, cols = read_csv(base + ".csv")
    crossings = read_json(base + ".json").get("crossings", [])
    rep.md("The Carvallo-Whipple bicycle of Meijaard, Papadopoulos, Ruina and Schwab, Proc. R. Soc. A 463 "
           "(2007) 1955-1982 (examples/bicycle/whipple-bicycle.toml): the eigenvalues of upright running "
           "against the forward speed v, from the linearization of the non-linear model, as the paper's "
           "Figure 3. Command: `" + BICYCLE_CMD + "`.")
    rep.md()
    rep.md("| crossing | kind | v [m/s] | Meijaard Table 2 |")
    rep.md("| --- | --- | --- | --- |")
    printed = {"complex pair": ("weave", "4.29238253634111"), "real": ("capsize", "6.02426201538837")}
    for c in crossings:
        name, ref = printed.get(c["kind"], ("", ""))
        rep.md(f"| {name} | {c['kind']} | {c['at']} | {ref} |")
    rep.md()
    v = cols["v"]
    k = 1
    fig, ax = plt.subplots(figsize=(7, 4.5))
    while f"re_{k}" in header:
        re, im = cols[f"re_{k}"], [abs(x) for x in cols[f"im_{k}"]]
        ax.plot(v, re, "k.", ms=2, label="real part" if k == 1 else None)
        ax.plot(v, im, ".", color="tab:blue", ms=2, label="|imaginary part|" if k == 1 else None)
        k += 1
    for c in crossings:
        ax.axvline(float(c["at"]), color="tab:red", lw=0.8, ls="--")
        ax.annotate(f"{c['kind']}\nv = {float(c['at']):.6f}", (float(c["at"]), 8), fontsize=8,
                    ha="center", color="tab:red")
    ax.axhline(0, color="gray", lw=0.5)
    ax.set_ylim(-10, 10)
    ax.set_xlabel("forward speed v [m/s]")
    ax.set_ylabel("eigenvalue [1/s]")
    ax.legend(loc="lower left", fontsize=8)
    rep.figure(fig, "bicycle_eigenvalues.png",
               "The bicycle's eigenvalues against speed (Meijaard Figure 3); dashed: the weave and capsize "
               "crossings nhs refines, between which upright running is asymptotically stable.")
