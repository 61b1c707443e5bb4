/* The worker's I/O: the submit/reap loop, the offload pool or the file-operation loop. */
#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"

void io_loop(struct worker *w)
{
	const struct job_spec *job = w->job;

	if (job->engine->flags & ENGINE_FILE_OP)
		io_loop_fileop(w);
	else if (job->submit_offload)
		io_loop_offload(w);
	else
		io_loop_engine(w);
	/* a reap failure can leave the loop with reads still being checked */
	if (w->verify.async)
		vfy_drain(w);
}
