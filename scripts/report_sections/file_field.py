"""A system file's traced field against the generated code (bench_file_field).
"""
import os

from .common import bench_json, fmt, gbench_rows, plt, read_json


def section_file_field(rep):
    """A system file's traced field (codegen::Interpreter) against the
    build-time generated code of the same study: reports/bench/file_field.json
    (bench/bench_file_field.cpp)."""
    d = bench_json(rep, "file_field.json", "`./build/bench/bench/bench_file_field "
                   "--benchmark_out=reports/bench/file_field.json`")
    if d is None:
        return
    times, ops, load = {}, {}, {}
    for b in gbench_rows(d):
        parts = b["name"].split("/")
        if "error_occurred" in b:
            continue
        if parts[0] == "field" and len(parts) == 5:
            _, kind, study, form, prec = parts
            times[(study, form, prec, kind)] = b.get("cpu_time", b.get("real_time"))
            ops[(study, form, kind)] = b.get("operations")
        elif parts[0] == "load-and-trace":
            load[parts[1]] = (b.get("cpu_time", b.get("real_time")), b.get("time_unit", ""))
    keys = sorted({(s, f) for (s, f, _, _) in times}, key=lambda k: (ops.get((k[0], k[1], "generated")) or 0, k))
    precs = [p for p in ("double", "mp50") if any(k[2] == p for k in times)]
    rep.md("One field evaluation at the default state: the study's build-time generated C++ against "
           "the same study written as a system file (`studies/files/`), traced at load and run by "
           "`codegen::Interpreter`; ratio = traced / generated, one run of `bench_file_field` "
           "(goals: double within 3x, mp50 within 1.2x).")
    rep.md()
    rep.md("| study / field | operations | " + " | ".join(f"{p}: generated, traced, ratio" for p in precs) + " |")
    rep.md("|---|---|" + "---|" * len(precs))
    ratios = {p: [] for p in precs}
    for study, form in keys:
        cells = []
        for p in precs:
            g, t = times.get((study, form, p, "generated")), times.get((study, form, p, "traced-file"))
            if g and t:
                ratios[p].append((f"{study}\n{form}", t / g))
                cells.append(f"{g:.3g} ns, {t:.3g} ns, {t / g:.2f}" if max(g, t) < 1e3
                             else f"{g / 1e3:.3g} us, {t / 1e3:.3g} us, {t / g:.2f}")
            else:
                cells.append("-")
        o = ", ".join(str(int(v)) if v is not None else "-"
                      for v in (ops.get((study, form, "generated")), ops.get((study, form, "traced-file"))))
        rep.md(f"| {study} / {form} | {o} | " + " | ".join(cells) + " |")
    rep.md()
    for name, (v, unit) in sorted(load.items()):
        goal = " (goal: under 100 ms)" if name.startswith("n_trailer") else ""
        rep.md(f"- Load, check and trace the second kind of `{name}`: {fmt(v)} {unit}{goal}.")
    rep.md()
    compiled_table(rep, ops)
    if not any(ratios.values()):
        return
    ratio_figure(rep, precs, ratios)


def compiled_table(rep, ops):
    """The table of bench/file_field_compiled.json (`bench_file_field --compiled`),
    when it exists: generated, traced and compiled times per study and field, the
    rows in the order of `ops` (operations of the generated code, from file_field.json)."""
    cpath = os.path.join(rep.reports, "bench", "file_field_compiled.json")
    if not os.path.exists(cpath):
        return
    ct = {}
    for b in gbench_rows(read_json(cpath)):
        parts = b["name"].split("/")
        if parts[0] == "field" and len(parts) == 5 and "error_occurred" not in b:
            ct[(parts[2], parts[3], parts[1])] = b.get("cpu_time", b.get("real_time"))
    ckeys = sorted({(s_, f_) for (s_, f_, _) in ct}, key=lambda k: (ops.get((k[0], k[1], "generated")) or 0, k))
    rep.md("With `--compiled` (the trace compiled at run time by the system's C++ compiler, "
           "double; another run, `bench/file_field_compiled.json`), ratios to the generated code:")
    rep.md()
    rep.md("| study / field | generated | traced | compiled |")
    rep.md("|---|---|---|---|")
    for study, form in ckeys:
        g = ct.get((study, form, "generated"))
        cells = [f"{g:.3g} ns" if g else "-"]
        for kind in ("traced-file", "compiled-file"):
            v = ct.get((study, form, kind))
            cells.append(f"{v:.3g} ns ({v / g:.2f})" if v and g else "-")
        rep.md(f"| {study} / {form} | " + " | ".join(cells) + " |")
    rep.md()


def ratio_figure(rep, precs, ratios):
    """The bar chart of traced / generated per study and field, one panel per
    precision in precs; ratios: {precision: [(label, ratio)]}."""
    fig, axes = plt.subplots(1, len(precs), figsize=(5.5 * len(precs), 3.8), squeeze=False)
    for ax, p, goal in zip(axes[0], precs, (3.0, 1.2)):
        labels = [k for k, _ in ratios[p]]
        ax.bar(range(len(labels)), [r for _, r in ratios[p]], color="tab:blue")
        ax.axhline(goal if p == "double" else 1.2, color="tab:red", ls="--", lw=1, label="goal")
        ax.axhline(1.0, color="grey", lw=0.6)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7, rotation=35, ha="right")
        ax.set_ylabel("traced / generated")
        ax.set_title(p)
        ax.legend(fontsize=8)
    rep.figure(fig, "file-field-ratios.png",
               "A system file's traced field over the generated code of the same study, per field "
               "evaluation (bench/file_field.json); dashed: the goal.")
