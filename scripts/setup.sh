#!/usr/bin/env bash
# Installs the Debian packages nhs needs, only those that are missing
# (checked with dpkg -s). As root it runs apt-get; otherwise it prints the
# command and fails if a package the build needs is missing.
set -euo pipefail

# Needed to build and test.
required=(cmake g++ libeigen3-dev libboost-dev libmpfr-dev libgmp-dev libgtest-dev
          libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev
          libtomlplusplus-dev libginac-dev pkg-config python3-dev pybind11-dev libjs-mathjax
          libjs-three)
# (libjs-three: three.js r111, which `nhs animate` copies into its folder;
# docs/animation.md.) Needed to test, installed without recommends:
# Chromium, in which the tests WorksheetInBrowser and AnimationInBrowser
# render `nhs worksheet`'s page (MathJax from libjs-mathjax above;
# docs/equations.md, "Worksheet") and `nhs animate`'s (WebGL by SwiftShader).
required_no_recommends=(chromium)
# Nice to have: faster rebuilds, profiling (perf, callgrind). Installed
# without recommends: plots, the sympy comparisons, and the Python module's
# tests (pytest; the notebook run by nbclient in an ipykernel; mpmath for
# the multiprecision results; SciPy for bench/python_vs_sympy.py; pandas for
# Run.to_pandas(), tested with and without it), and Open
# MPI for the MPI engine of `nhs sweep` (built when CMake finds it; its
# tests are skipped without it).
optional=(ccache linux-perf valgrind)
optional_no_recommends=(python3-matplotlib python3-sympy python3-numpy python3-mpmath python3-scipy python3-pandas
                        python3-pytest python3-nbclient python3-nbformat python3-ipykernel
                        libopenmpi-dev openmpi-bin)

if ! command -v dpkg >/dev/null 2>&1; then
  echo "setup: no dpkg here (not Debian); install the equivalents of: ${required[*]}" >&2
  exit 0
fi

missing() {
  local p
  for p in "$@"; do
    dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || echo "$p"
  done
}
mapfile -t miss_required < <(missing "${required[@]}")
mapfile -t miss_required_norec < <(missing "${required_no_recommends[@]}")
mapfile -t miss_optional < <(missing "${optional[@]}")
mapfile -t miss_norec < <(missing "${optional_no_recommends[@]}")

if [ ${#miss_required[@]} -eq 0 ] && [ ${#miss_required_norec[@]} -eq 0 ] && [ ${#miss_optional[@]} -eq 0 ] &&
   [ ${#miss_norec[@]} -eq 0 ]; then
  echo "setup: all Debian packages present"
  exit 0
fi

install=("${miss_required[@]}" "${miss_optional[@]}")
no_recommends=("${miss_required_norec[@]}" "${miss_norec[@]}")
commands=("apt-get update")
[ ${#install[@]} -gt 0 ] &&
  commands+=("DEBIAN_FRONTEND=noninteractive apt-get install -y ${install[*]}")
[ ${#no_recommends[@]} -gt 0 ] &&
  commands+=("DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${no_recommends[*]}")

if [ "$(id -u)" -eq 0 ]; then
  for c in "${commands[@]}"; do
    echo "setup: $c"
    eval "$c"
  done
else
  echo "setup: not root; run as root:" >&2
  for c in "${commands[@]}"; do echo "  $c" >&2; done
  if [ ${#miss_required[@]} -gt 0 ] || [ ${#miss_required_norec[@]} -gt 0 ]; then
    echo "setup: missing packages needed for the build and tests: ${miss_required[*]} ${miss_required_norec[*]}" >&2
    exit 1
  fi
fi
