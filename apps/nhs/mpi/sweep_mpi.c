/* The MPI engine of `nhs sweep` (sweep_mpi.h): master-worker over
 * MPI_COMM_WORLD with dynamic load balancing (case costs differ by orders
 * of magnitude). Messages:
 *   worker -> master  TAG_READY     (empty)          idle: a unit, please
 *   worker -> master  TAG_PREFETCH  (empty)          busy: my next unit, please
 *   worker -> master  TAG_IDLE      (empty)          my unit is done and my
 *                                                    request unanswered
 *   master -> worker  TAG_UNIT      uint64_t[count]  a unit's case indices
 *   master -> worker  TAG_STOP      (empty)          no unit left
 *   worker -> master  TAG_ROW       char[length]     one case's row
 *   worker -> master  TAG_DONE      (empty)          all its rows are sent
 * A worker asks for its next unit as soon as it starts one, so that with
 * many units it never waits a round trip between them. When fewer units
 * are left than workers, the master holds such a request until the worker
 * says it is idle: a unit queued behind a long one would wait while
 * another worker has nothing to do. MPI keeps the order of the messages of
 * one sender that match one receive, so the master has every row of a
 * worker once that worker's DONE arrives.
 * Waiting ranks poll (MPI_Iprobe; backoff_wait) instead of blocking in
 * MPI_Recv, which Open MPI spins in: a rank that waits long takes no core
 * from the others, and a busy master answers within microseconds. */
#include "sweep_mpi.h"

#include <mpi.h>

#include <sched.h>
#include <stdlib.h>
#include <time.h>

enum { TAG_READY = 1, TAG_UNIT = 2, TAG_STOP = 3, TAG_ROW = 4, TAG_DONE = 5, TAG_PREFETCH = 6, TAG_IDLE = 7 };

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

/* The wait of a rank that found no message: sched_yield for the first
 * 200 polls (a message is usually microseconds away while cases are
 * short; nanosleep's timer slack makes even a 10 us sleep last 60-80 us),
 * then sleeps from 10 us doubling to 1 ms, so that a rank that waits long
 * takes no core from the others. Reset when a message arrives. */
typedef struct {
  int polls;
  long sleep_ns;
} backoff;
static void backoff_reset(backoff* b) {
  b->polls = 0;
  b->sleep_ns = 10000L;
}
static void backoff_wait(backoff* b) {
  if (b->polls < 200) {
    ++b->polls;
    sched_yield();
    return;
  }
  struct timespec t = {0, b->sleep_ns};
  nanosleep(&t, NULL);
  if (b->sleep_ns < 1000000L) b->sleep_ns *= 2;
}

/* The answer to a worker's request: its next unit, or STOP. */
static int answer(const nhs_sweep_mpi_host* host, int worker, size_t* left) {
  const uint64_t* cases = NULL;
  size_t count = 0;
  const int code = host->next_unit(host->self, &cases, &count);
  if (code != 0) return code;
  if (count == 0) {
    MPI_Send(NULL, 0, MPI_CHAR, worker, TAG_STOP, MPI_COMM_WORLD);
  } else {
    MPI_Send(cases, (int)count, MPI_UINT64_T, worker, TAG_UNIT, MPI_COMM_WORLD);
    if (*left > 0) --*left;
  }
  return 0;
}

int nhs_sweep_mpi_master(const nhs_sweep_mpi_host* host, size_t units) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int workers = size - 1;
  int active = workers;  /* workers whose DONE has not arrived */
  size_t left = units;   /* units not yet handed out */
  char* deferred = (char*)calloc((size_t)size, 1); /* a held prefetch request, by rank */
  char* buffer = NULL;
  int capacity = 0;
  int code = deferred ? 0 : 1;
  backoff wait;
  backoff_reset(&wait);
  while (code == 0 && active > 0) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      if ((code = host->idle(host->self)) != 0) break;
      backoff_wait(&wait);
      continue;
    }
    backoff_reset(&wait);
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
    const int w = st.MPI_SOURCE;
    MPI_Recv(buffer, length, MPI_CHAR, w, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    switch (st.MPI_TAG) {
      case TAG_ROW:
        code = host->write_row(host->self, w, buffer, (size_t)length);
        break;
      case TAG_READY:
        code = answer(host, w, &left);
        break;
      case TAG_PREFETCH:
        if (left == 0 || left > (size_t)workers)
          code = answer(host, w, &left);
        else
          deferred[w] = 1;
        break;
      case TAG_IDLE:
        if (deferred[w]) {
          deferred[w] = 0;
          code = answer(host, w, &left);
        }
        break;
      case TAG_DONE:
        --active;
        break;
      default:
        break;
    }
  }
  free(buffer);
  free(deferred);
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
  MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_READY, MPI_COMM_WORLD);
  for (;;) {
    MPI_Status st;
    int flag = 0;
    backoff wait;
    backoff_reset(&wait);
    while (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && !flag) backoff_wait(&wait);
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
    /* The next unit travels while this one runs. */
    MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_PREFETCH, MPI_COMM_WORLD);
    if ((code = host->run_unit(host->self, cases, (size_t)count, emit_row, &ctx)) != 0) break;
    /* Done: when the answer is not here yet, the master may be holding it. */
    int waiting = 0;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
    if (!waiting) MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_IDLE, MPI_COMM_WORLD);
  }
  free(cases);
  if (code != 0) MPI_Abort(MPI_COMM_WORLD, code);
  MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
  return code;
}
