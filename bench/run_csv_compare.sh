#!/bin/sh
# Numbers unchanged (issue 61, item 1): the run CSVs to t = 1 of every
# built-in study and every system file under examples/ (the default
# formulation and field), in double and in mp50, written by two builds of
# `nhs`, compared byte for byte.
#
#   bench/run_csv_compare.sh BEFORE_NHS AFTER_NHS [OUTDIR]
#
# Prints one line per run (same / DIFFERENT / both failed with the same exit
# code and stderr / exit codes differ) and exits 1 if any run differs.
# OUTDIR (default /tmp/run_csv_compare) keeps the CSVs.
set -u
before=$1
after=$2
out=${3:-/tmp/run_csv_compare}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/before" "$out/after"
studies=$("$after" list 2>/dev/null | awk '/^studies:/ {s = 1; next} /^[a-z]/ {s = 0} s && /^  [a-z]/ {print $1}')
files=$(find "$here/examples" -name '*.toml' -not -path '*/sweeps/*' | sort)
status=0
for system in $studies $files; do
  for precision in double mp50; do
    tag=$(echo "$system" | sed "s|$here/||; s|/|_|g")_$precision
    for side in before after; do
      bin=$before
      [ "$side" = after ] && bin=$after
      "$bin" run "$system" --precision "$precision" --t-end 1 --out "$out/$side/$tag.csv" \
        2>"$out/$side/$tag.err"
      echo $? >"$out/$side/$tag.rc"
    done
    rb=$(cat "$out/before/$tag.rc")
    ra=$(cat "$out/after/$tag.rc")
    if [ "$rb" != "$ra" ]; then
      echo "$tag: exit codes differ ($rb before, $ra after)"
      status=1
    elif ! cmp -s "$out/before/$tag.csv" "$out/after/$tag.csv"; then
      echo "$tag: DIFFERENT (exit $rb)"
      status=1
    elif [ "$rb" != 0 ]; then  # the rows written before the failure are the same
      echo "$tag: same, both failed (exit $rb): $(tail -c 120 "$out/after/$tag.err" | tr '\n' ' ')"
    else
      echo "$tag: same"
    fi
  done
done
exit $status
