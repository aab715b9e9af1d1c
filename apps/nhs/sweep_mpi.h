/* The MPI engine of `nhs sweep` (docs/sweeps.md, "On a cluster"): a plug-in
 * (libnhs_sweep_mpi.so, built when CMake finds MPI: NHS_WITH_MPI) that the
 * tool loads with dlopen only when it was started by mpirun, so that the
 * tool itself links no MPI library (its start-up, docs/cli.md) and runs
 * where MPI is not installed. The interface is C: no C++ object crosses it.
 *
 * Rank 0 is the master: it hands out work units (the case indices of one
 * unit: one case, or one chain of [sweep] stop_after_budget) to the workers
 * as they free up, receives every case's row, and alone writes the output.
 * Every other rank is a worker: it asks for a unit, runs it, sends one row
 * per case as soon as the case ends, and asks again. */
#ifndef NHS_SWEEP_MPI_H
#define NHS_SWEEP_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Callbacks of the tool. A non-zero return is fatal: the plug-in then calls
 * MPI_Abort with that code (the rows written so far are kept). */
typedef struct nhs_sweep_mpi_host {
  void* self;
  /* Master: the next unit's case indices (valid until the next call), or
   * *count = 0 when none is left. */
  int (*next_unit)(void* self, const uint64_t** cases, size_t* count);
  /* Master: one case's row, as a worker sent it. */
  int (*write_row)(void* self, int worker, const char* row, size_t length);
  /* Master: called while waiting, at least every 20 ms (progress). */
  int (*idle)(void* self);
  /* Worker: runs the unit, calling emit(ctx, row, length) for each case in
   * order as it ends. */
  int (*run_unit)(void* self, const uint64_t* cases, size_t count,
                  int (*emit)(void* ctx, const char* row, size_t length), void* ctx);
} nhs_sweep_mpi_host;

/* MPI_Init; this process's rank and the number of ranks. 0 on success. */
typedef int (*nhs_sweep_mpi_init_fn)(int* rank, int* size);
/* The master's loop (rank 0), handing out `units` units, or a worker's
 * (every other rank), until every unit is done; returns 0, or the host's
 * non-zero code after MPI_Abort. */
typedef int (*nhs_sweep_mpi_master_fn)(const nhs_sweep_mpi_host* host, size_t units);
typedef int (*nhs_sweep_mpi_worker_fn)(const nhs_sweep_mpi_host* host);
/* MPI_Finalize. */
typedef int (*nhs_sweep_mpi_finalize_fn)(void);
/* MPI_Abort(MPI_COMM_WORLD, code): ends every rank. */
typedef void (*nhs_sweep_mpi_abort_fn)(int code);

/* The plug-in's symbols (dlsym names). */
#define NHS_SWEEP_MPI_INIT "nhs_sweep_mpi_init"
#define NHS_SWEEP_MPI_MASTER "nhs_sweep_mpi_master"
#define NHS_SWEEP_MPI_WORKER "nhs_sweep_mpi_worker"
#define NHS_SWEEP_MPI_FINALIZE "nhs_sweep_mpi_finalize"
#define NHS_SWEEP_MPI_ABORT "nhs_sweep_mpi_abort"

#ifdef __cplusplus
}
#endif

#endif /* NHS_SWEEP_MPI_H */
