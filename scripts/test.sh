#!/usr/bin/env bash
# Builds nhs and runs the quick test suite (ctest, without the `slow` label)
# in ./build. With --sanitizers (or NHS_ASAN=1) it then builds and runs the
# sanitizer subset (label `asan`: the tool, the CLI tests, the command-line
# and system-file fuzz tests and the library's guarantees under bad input)
# with -fsanitize=address,undefined in ./build/asan (the `asan` preset).
# The subset is not in the default: cold, it compiles the library a second
# time (reports/README.md, "A fresh clone"), and the two builds together do
# not fit CI's 90 minutes on 2 cores. On a fresh Debian 12 machine this is
# all the set-up there is.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sanitizers="${NHS_ASAN:-0}"
for arg in "$@"; do
  case "$arg" in
    --sanitizers) sanitizers=1 ;;
    *) echo "test.sh: unknown option '$arg' (known: --sanitizers)" >&2; exit 2 ;;
  esac
done

bash scripts/setup.sh
# ccache (when installed) keys on paths relative to the checkout, so that a
# fresh clone elsewhere reuses what an earlier build compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
jobs="${NHS_JOBS:-$(nproc)}"  # about 1.5 GB of memory per compile job (docs/numerics.md)

# With --sanitizers, both parts run even when the first fails (a red quick suite must not hide
# the sanitizers' verdict); the script fails if either does.
status=0
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
# The quick suite is deterministic: fixed fuzz seeds, no wall-clock limits
# (random seeds: `ctest -L fuzz`, labels fuzz and slow).
(cd build && ctest --output-on-failure -LE slow -j"$(nproc)") || status=$?

if [ "$sanitizers" != 0 ]; then
  # The labelled subset, not the whole quick suite: that would take hours
  # under the sanitizers (reports/README.md, "Sanitizers").
  cmake --preset asan
  # CLN's static initializers (under GiNaC) leak once per program: suppressed
  # for the build (nhs_codegen runs in it) and the tests.
  # print_suppressions=0: the CLI tests expect one line on stderr.
  export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  cmake --build build/asan -j"$jobs" --target nhs_cli test_cli test_guarantees test_cli_fuzz test_system_file_fuzz test_cli_sweep
  ctest --test-dir build/asan --output-on-failure -L asan -LE slow -j"$(nproc)" || { [ "$status" -ne 0 ] || status=$?; }
fi
what="the quick suite"
[ "$sanitizers" != 0 ] && what="the quick suite and the sanitizer subset"
[ "$status" -eq 0 ] && echo "test.sh: $what passed" >&2 ||
  echo "test.sh: FAILED (exit $status): see the failures above" >&2
exit "$status"
