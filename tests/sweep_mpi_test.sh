#!/bin/bash
# nhs sweep's MPI engine (docs/sweeps.md): the same spec under mpirun with
# RANKS ranks (--oversubscribe: more ranks than cores) writes the same
# cases.csv, cases.jsonl and series/, byte for byte, as the threaded engine, and
# sweep.json names the MPI engine. Every rank on this machine, with traffic
# kept to loopback and shared memory. Exit 77 (skipped) without mpirun or
# the plug-in (NHS_WITH_MPI off or MPI not found).
# Usage: sweep_mpi_test.sh NHS PLUGIN SPEC SYSTEM RANKS...
set -euo pipefail
nhs=$1
plugin=$2
spec=$3
system=$4
shift 4
if ! command -v mpirun >/dev/null 2>&1; then
  echo "skipped: no mpirun (install openmpi-bin)"
  exit 77
fi
if [ ! -f "$plugin" ]; then
  echo "skipped: no MPI plug-in at $plugin (nhs built without MPI)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# CI runs as root; Open MPI refuses root unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mca=(--mca btl self,vader --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)
"$nhs" sweep "$system" "$spec" --out "$dir/threads" --jobs 2
for ranks in "$@"; do
  mpirun -n "$ranks" --oversubscribe "${mca[@]}" "$nhs" sweep "$system" "$spec" --out "$dir/mpi$ranks"
  for f in cases.csv cases.jsonl; do
    if ! cmp "$dir/threads/$f" "$dir/mpi$ranks/$f"; then
      echo "FAIL: $f differs between the threads and mpirun -n $ranks" >&2
      diff "$dir/threads/$f" "$dir/mpi$ranks/$f" | head -20 >&2
      exit 1
    fi
  done
  if [ -d "$dir/threads/series" ] && ! diff -r "$dir/threads/series" "$dir/mpi$ranks/series" >/dev/null; then
    echo "FAIL: series/ differs between the threads and mpirun -n $ranks" >&2
    exit 1
  fi
  grep -q "\"engine\": \"mpi ($ranks ranks" "$dir/mpi$ranks/sweep.json" || {
    echo "FAIL: sweep.json of mpirun -n $ranks does not name the MPI engine" >&2
    exit 1
  }
  echo "mpirun -n $ranks: the same rows as the threads ($(($(wc -l < "$dir/threads/cases.csv") - 1)) cases)"
done
echo "ok"
