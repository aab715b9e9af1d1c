#!/usr/bin/python3
"""Groups a flat `perf report` by where the time goes (heap, text formatting, AD/Eigen).

  perf record -e cpu-clock -o /tmp/p.data -- ./build/bench/bench_closed_form \
      --benchmark_filter='generic/coaxial-discs/second-kind/double' --benchmark_min_time=3
  perf report -i /tmp/p.data --stdio --no-children --sort dso,symbol | /usr/bin/python3 bench/perf_categories.py
"""
import re
import sys

CATEGORIES = [
    ("kernel", None),
    ("heap (malloc/free)", r"malloc|_int_free|cfree|free@|^free|tcache|unlink_chunk"),
    ("text formatting (error-context strings: to_string, printf, locale, dynamic_cast)",
     r"printf|hack_digit|to_string|locale|num_put|ostream|dyncast|dynamic_cast|strlen|strchrnul|"
     r"__mpn_|has_facet|use_facet|ios_base|basic_string|strcmp|stringbuf|round_and"),
    ("memmove/memcpy/memset", r"memmove|memcpy|memset"),
    ("AD arithmetic, Eigen dynamic temporaries, nhs code", r"Eigen|nhs::"),
]
totals = {name: 0.0 for name, _ in CATEGORIES}
totals["other"] = 0.0
for line in sys.stdin:
    m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)", line)
    if not m:
        continue
    pct, kind, sym = float(m.group(1)), m.group(3), m.group(4)
    for name, pattern in CATEGORIES:
        if (pattern is None and kind == "k") or (pattern and kind != "k" and re.search(pattern, sym)):
            totals[name] += pct
            break
    else:
        totals["other"] += pct
for name, pct in totals.items():
    print("%5.1f%%  %s" % (pct, name))
