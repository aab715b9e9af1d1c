#!/bin/bash
# The nhs tool's start-up (docs/cli.md, "Start-up"): with NHS_STATIC_TOOL
# the tool needs no shared libstdc++, GiNaC, CLN, MPFR, GMP, quadmath, fmt or
# toml++ (each shared library loaded and relocated costs start-up time), and
# still runs: a null run and a system file (GiNaC and toml++ inside).
# Usage: tool_linkage_test.sh NHS SYSTEM_FILE
set -euo pipefail
nhs=$1
file=$2
needed=$(readelf -d "$nhs" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
for lib in $needed; do
  case $lib in
    libstdc++* | libginac* | libcln* | libmpfr* | libgmp* | libquadmath* | libfmt* | libtomlplusplus* | libgcc_s*)
      echo "FAIL: $nhs loads $lib at start-up" >&2
      exit 1 ;;
  esac
done
"$nhs" run skate --t-end 1e-9 --dt-out 1e-9 >/dev/null
"$nhs" accel "$file" --precision mp50 >/dev/null
echo "ok"
