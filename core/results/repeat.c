/* Repeats: a job list run N times through the runner, every result kept as a sample. */
#include "results/repeat.h"
#include "run/run.h"

int repeat_run(struct results *res, const struct job_list *jobs, const json_t *identity,
	       const char *label, unsigned repeats, repeat_progress_fn progress, void *arg,
	       struct iop_err *err)
{
	unsigned rep;
	int ret = 0;

	for (rep = 0; rep < repeats && !ret; rep++) {
		struct run_results run = { 0 };

		if (run_stop_requested()) {
			res->interrupted = true;
			break;
		}
		if (progress)
			progress(arg, rep, repeats);
		ret = run_jobs(jobs, &run, err);
		if (!ret)
			ret = results_add_run(res, &run, identity, label, err);
		run_results_free(&run);
	}
	return ret;
}
