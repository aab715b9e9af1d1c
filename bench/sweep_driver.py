"""What the benchmark drivers that run `nhs sweep` share (bench/drift.py,
bench/work_precision.py, bench/sweep_engines.py): the tool's listings, and
one sweep run on threads or on MPI ranks of this machine (loopback and
shared memory only). Not a script."""
import os
import re
import subprocess
import sys
import time

# Every rank on this machine; no traffic beyond loopback and shared memory.
MPI_LOCAL = ["--oversubscribe", "--mca", "btl", "self,vader", "--mca", "btl_tcp_if_include", "lo",
             "--mca", "oob_tcp_if_include", "lo"]
# Open MPI refuses root (CI) unless told.
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def common_arguments(p, out, runs_dir):
    """The options every driver takes: --nhs, --out, --specs-dir, --runs-dir,
    --quick, --jobs, --mpi, --restart."""
    p.add_argument("--nhs", default="build/nhs")
    p.add_argument("--out", default=out)
    p.add_argument("--specs-dir", default="reports/bench/sweeps")
    p.add_argument("--runs-dir", default=runs_dir)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--jobs", type=int, default=0, help="threads (0: one per core)")
    p.add_argument("--mpi", type=int, default=0, help="mpirun -n N on this machine instead of threads")
    p.add_argument("--restart", action="store_true", help="discard the sweeps' rows in --runs-dir")


def listing(nhs, *args):
    """`nhs list [SYSTEM]`'s text."""
    return subprocess.run([nhs, "list", *args], check=True, capture_output=True, text=True).stdout


def sections(text):
    """The lines of each section of a listing ("studies", "formulations",
    ...: a line ending in ':' at column 0), as (name, rest) pairs."""
    out, part = {}, None
    for line in text.splitlines():
        if re.match(r"^\S.*:", line):
            part = line.split(":")[0]
            out.setdefault(part, [])
            continue
        m = re.match(r"^  (\S+)\s+(.*)$", line)
        if m and part:
            out[part].append((m.group(1), m.group(2)))
    return out


def studies_and_formulations(nhs):
    """The study ids, every formulation, and the negative controls with
    their reason, from `nhs list`."""
    s = sections(listing(nhs))
    formulations = [name for name, _ in s.get("formulations", [])]
    negative = {name: "negative control" for name, rest in s.get("formulations", [])
                if rest.startswith("NEGATIVE CONTROL")}
    return [name for name, _ in s.get("studies", [])], formulations, negative


def run_sweep(nhs, system, spec, out, jobs=0, mpi=0, restart=False, who="sweep"):
    """Runs `nhs sweep` (under mpirun -n MPI when MPI > 0); its wall time."""
    cmd = [nhs, "sweep", system, spec, "--out", out] + (["--restart"] if restart else [])
    env = None
    if mpi:
        env = MPI_ENV
        cmd = ["mpirun", "-n", str(mpi), *MPI_LOCAL, *cmd]
    else:
        cmd += ["--jobs", str(jobs)]
    print(f"{who}: " + " ".join(cmd), file=sys.stderr, flush=True)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, env=env)
    return time.monotonic() - t0
