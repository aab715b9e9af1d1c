#!/usr/bin/env bash
# ctest ExternalExample: the library as others use it. Installs the build
# tree into a temporary prefix, configures examples/external (a separate
# project: find_package(nhs), nhs::nhs only) against it, builds it with one
# job and runs it. Usage: external_example.sh <build-dir> <example-dir>
# (env CMAKE: the cmake to use; CXX: the compiler, as for any first configure).
set -euo pipefail
build=$1
example=$2
cmake=${CMAKE:-cmake}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nhs-external-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" ||
  { cat "$tmp/install.log"; exit 1; }
# No absolute library path may remain in the exported targets (relocatable).
if grep -n "libmpfr\|libgmp\|/usr/lib" "$tmp"/prefix/lib*/cmake/nhs/nhsTargets*.cmake; then
  echo "external_example.sh: absolute library paths in the exported targets" >&2
  exit 1
fi
"$cmake" -S "$example" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix"
# The package found must be the one just installed (not another on the system).
grep -q "^nhs_DIR:PATH=$tmp/prefix/" "$tmp/build/CMakeCache.txt" ||
  { grep "^nhs_DIR" "$tmp/build/CMakeCache.txt" >&2; echo "external_example.sh: wrong nhs package" >&2; exit 1; }
start=$(date +%s)
"$cmake" --build "$tmp/build" -j1
echo "external_example.sh: built in $(($(date +%s) - start)) s"
"$tmp/build/nhs_external_example"
