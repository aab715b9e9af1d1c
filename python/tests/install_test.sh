#!/usr/bin/env bash
# ctest PythonInstall: `cmake --install` puts the package nhs where Python
# imports it. Installs the build tree into a temporary prefix, imports nhs
# from <prefix>/<install-dir> (outside the build and source trees) and
# computes an acceleration; then checks that the default prefix's
# directory is on the interpreter's own sys.path (Debian's python3 searches
# /usr/local/lib/python3.X/dist-packages), so that a plain `cmake --install`
# needs no PYTHONPATH.
# Usage: install_test.sh <build-dir> <python3> <install-dir> <default-prefix>
set -euo pipefail
build=$1 python=$2 dir=$3 default_prefix=$4
cmake=${CMAKE:-cmake}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nhs-python-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
cd "$tmp"
PYTHONPATH="$tmp/prefix/$dir" "$python" - "$tmp/prefix/$dir" <<'PY'
import sys
import nhs
assert nhs.__file__.startswith(sys.argv[1]), nhs.__file__
a = nhs.study("skate").accel(q=[0, 0, 0.3], qdot=[1, 0.30933624960962325, 0.5])
print("installed nhs:", nhs.__file__, a.qddot)
PY
"$python" -c "import sys; d = sys.argv[1]; sys.exit(0 if d in sys.path else 1)" "$default_prefix/$dir" ||
  { echo "install_test.sh: $default_prefix/$dir is not on $python's sys.path" >&2; exit 1; }
echo "install_test.sh: $default_prefix/$dir is on $python's sys.path"
