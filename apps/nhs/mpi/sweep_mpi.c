/* The MPI engine of `nhs sweep` (sweep_mpi.h): master-worker over
 * MPI_COMM_WORLD with dynamic load balancing (a worker gets its next unit
 * when it reports the last one done: case costs differ by orders of
 * magnitude). Messages:
 *   worker -> master  TAG_READY  (empty)          ready for a unit
 *   master -> worker  TAG_UNIT   uint64_t[count]  the unit's case indices
 *   master -> worker  TAG_STOP   (empty)          no unit left: finish
 *   worker -> master  TAG_ROW    char[length]     one case's row
 * A worker sends the rows of a unit before its next READY, and MPI keeps
 * the order of messages between two ranks, so the master has every row
 * of a worker once it stops it. The master polls (MPI_Iprobe, then a 1 ms
 * sleep) instead of blocking in MPI_Recv, which Open MPI spins in: a
 * waiting master does not take a core from the workers. */
#include "sweep_mpi.h"

#include <mpi.h>

#include <stdlib.h>
#include <time.h>

enum { TAG_READY = 1, TAG_UNIT = 2, TAG_STOP = 3, TAG_ROW = 4 };

int nhs_sweep_mpi_init(int* rank, int* size) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized && MPI_Init(NULL, NULL) != MPI_SUCCESS) return 1;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  return 0;
}

int nhs_sweep_mpi_finalize(void) { return MPI_Finalize() == MPI_SUCCESS ? 0 : 1; }

void nhs_sweep_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

static void nap(void) {
  struct timespec t = {0, 1000000L}; /* 1 ms */
  nanosleep(&t, NULL);
}

int nhs_sweep_mpi_master(const nhs_sweep_mpi_host* host) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int active = size - 1; /* workers not yet stopped */
  char* buffer = NULL;
  int capacity = 0;
  int code = 0;
  while (active > 0) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      if ((code = host->idle(host->self)) != 0) break;
      nap();
      continue;
    }
    int length = 0;
    MPI_Get_count(&st, MPI_CHAR, &length);
    if (length + 1 > capacity) {
      char* grown = (char*)realloc(buffer, (size_t)length + 1);
      if (!grown) {
        code = 1;
        break;
      }
      buffer = grown;
      capacity = length + 1;
    }
    MPI_Recv(buffer, length, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == TAG_ROW) {
      if ((code = host->write_row(host->self, st.MPI_SOURCE, buffer, (size_t)length)) != 0) break;
    } else if (st.MPI_TAG == TAG_READY) {
      const uint64_t* cases = NULL;
      size_t count = 0;
      if ((code = host->next_unit(host->self, &cases, &count)) != 0) break;
      if (count == 0) {
        MPI_Send(NULL, 0, MPI_CHAR, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
        --active;
      } else {
        MPI_Send(cases, (int)count, MPI_UINT64_T, st.MPI_SOURCE, TAG_UNIT, MPI_COMM_WORLD);
      }
    }
  }
  free(buffer);
  if (code != 0) MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

typedef struct {
  int master;
} emit_context;

static int emit_row(void* ctx, const char* row, size_t length) {
  const emit_context* e = (const emit_context*)ctx;
  return MPI_Send(row, (int)length, MPI_CHAR, e->master, TAG_ROW, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : 1;
}

int nhs_sweep_mpi_worker(const nhs_sweep_mpi_host* host) {
  emit_context ctx = {0};
  uint64_t* cases = NULL;
  int capacity = 0;
  int code = 0;
  for (;;) {
    MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_READY, MPI_COMM_WORLD);
    MPI_Status st;
    int flag = 0;
    /* Wait for the answer without spinning a core. */
    while (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && !flag) nap();
    int count = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &count);
    if (count > capacity) {
      uint64_t* grown = (uint64_t*)realloc(cases, (size_t)count * sizeof(uint64_t));
      if (!grown) {
        code = 1;
        break;
      }
      cases = grown;
      capacity = count;
    }
    MPI_Recv(cases, count, MPI_UINT64_T, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == TAG_STOP) break;
    if ((code = host->run_unit(host->self, cases, (size_t)count, emit_row, &ctx)) != 0) break;
  }
  free(cases);
  if (code != 0) MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}
