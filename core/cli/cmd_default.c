/* iopath with no arguments: a short comparison of every engine on a temporary file here. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "job/job.h"
#include "report/output.h"
#include "report/report.h"
#include "run/run.h"
#include "stats/stats.h"
#include "job/target.h"
#include "base/tempfiles.h"

#define CMP_SIZE "256m"
#define CMP_RUNTIME "2"

static int append(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		return -ENOSPC;
	*off += (size_t)n;
	return 0;
}

/*
 * The comparison as a job file: per engine 4k random reads at QD1 (and QD32 for the
 * asynchronous ones) and 1M sequential writes; O_DIRECT for the engines that are only
 * asynchronous with it (libaio, io_uring) and for odirect, the page cache for the rest.
 */
static int build_jobs(char *buf, size_t len, const char *path)
{
	const struct engine_entry *e;
	size_t off = 0;
	int ret;

	ret = append(buf, len, &off,
		     "[global]\nfilename=%s\nsize=" CMP_SIZE "\nruntime=" CMP_RUNTIME
		     "\ntime_based\nstonewall\ngroup_reporting\n",
		     path);
	for (e = engine_table; !ret && e->name; e++) {
		bool async = !(e->ops->flags & ENGINE_SYNC);
		int direct = e->force_direct || (async && !(e->ops->flags & ENGINE_DISKLESS));

		if (e->ops->flags & ENGINE_NO_DATA)
			continue;	/* file operations: no reads and writes to compare */
		if (e->ops->flags & ENGINE_PASSTHRU)
			continue;	/* NVMe namespaces only, never the comparison's file */

		ret = append(buf, len, &off,
			     "[%s randread 4k qd1]\nioengine=%s\ndirect=%d\nrw=randread\nbs=4k\niodepth=1\n",
			     e->name, e->name, direct);
		if (!ret && async)
			ret = append(buf, len, &off,
				     "[%s randread 4k qd32]\nioengine=%s\ndirect=%d\nrw=randread\nbs=4k\niodepth=32\n",
				     e->name, e->name, direct);
		if (!ret)
			ret = append(buf, len, &off,
				     "[%s write 1m seq qd%d]\nioengine=%s\ndirect=%d\nrw=write\nbs=1m\niodepth=%d\n",
				     e->name, async ? 8 : 1, e->name, direct, async ? 8 : 1);
	}
	return ret;
}

static void print_row(const struct job_result *res, double ratio)
{
	uint64_t pct[2];
	const double want[2] = { 50.0, 99.0 };
	double secs = (double)res->runtime_ns / 1e9;
	unsigned d = res->dir[DDIR_WRITE].ios ? DDIR_WRITE : DDIR_READ;

	lat_percentiles(&res->dir[d].clat, want, 2, pct);
	printf("%-30s %6s %10.0f %10.1f %10.1f %10.1f %7.1f%s\n", res->spec->name,
	       !res->spec->direct ? "0" : res->direct_suspect ? "1*" : "1", report_job_iops(res),
	       secs > 0 ? (double)res->dir[d].bytes / secs / 1048576.0 : 0,
	       (double)pct[0] / 1000, (double)pct[1] / 1000,
	       secs > 0 ? 100.0 * (double)(res->usr_ns + res->sys_ns) / 1e9 / secs : 0,
	       report_implausible(ratio) ? "  !" : "");
}

static void print_table(const struct run_results *r)
{
	unsigned i, flagged = 0, suspect = 0;

	printf("\n%-30s %6s %10s %10s %10s %10s %7s\n", "engine / workload", "direct", "IOPS",
	       "MiB/s", "p50 us", "p99 us", "cpu%");
	for (i = 0; i < r->nr; i++) {
		const struct job_result *res = &r->res[i];

		if (res->error) {
			printf("%-30s %6d  refused or failed: %s\n", res->spec->name, res->spec->direct,
			       res->errmsg);
			continue;
		}
		print_row(res, report_neighbour_ratio(r, i));
		flagged += report_implausible(report_neighbour_ratio(r, i));
		suspect += res->direct_suspect;
	}
	for (i = 0; flagged && i < r->nr; i++)
		if (!r->res[i].error && report_implausible(report_neighbour_ratio(r, i)))
			printf("!  %s: %.1fx the IOPS of the other engines on %s with direct=%d (their median): implausible for the same work one request at a time; a page cache one engine found warm or a disturbance, rerun before believing it\n",
			       r->res[i].spec->name, report_neighbour_ratio(r, i), report_workload_of(&r->res[i]),
			       r->res[i].spec->direct);
	for (i = 0; suspect && i < r->nr; i++)
		if (r->res[i].direct_suspect) {
			printf("1* direct=1 not honoured: %s\n", r->res[i].direct_note);
			break;
		}
}

int cmd_default(int argc, char **argv)
{
	struct job_list jobs = { 0 };
	struct run_results res = { 0 };
	struct job_parser p;
	struct iop_err err = { "" };
	char path[64], side[80] = "", *text;
	size_t len = 64 * 1024;
	int fd, ret, code = EXIT_USAGE;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "iopath-compare.%d.tmp", (int)getpid());
	/* made here, exclusively and marked, before it is registered for removal: never another's */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "iopath: cannot create ./%s: %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (it is not this run's; remove it or run elsewhere)" : "");
		return EXIT_USAGE;
	}
	/* unmarked (no room for a sidecar...): the jobs' layout creates it, and says what failed */
	if (target_mark_owned(fd, path))
		unlink(path);
	close(fd);
	text = malloc(len);
	if (!text || build_jobs(text, len, path)) {
		fprintf(stderr, "iopath: out of memory building the default comparison\n");
		free(text);
		target_remove(path);
		return EXIT_USAGE;
	}
	job_parser_init(&p, &jobs);
	ret = job_parse_text(&p, text, "built-in engine comparison", &err);
	free(text);
	if (!ret)
		ret = job_parser_finish(&p, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	printf("iopath engine comparison: %u jobs of " CMP_RUNTIME " s on ./%s (" CMP_SIZE "), removed afterwards\n",
	       jobs.nr, path);
	fflush(stdout);
	/* the file and its ownership sidecar (where there are no xattrs) go on Ctrl-C too */
	if (!target_sidecar_path(path, side, sizeof(side)))
		tempfiles_register(side);
	tempfiles_register(path);
	install_stop_signals();
	ret = run_jobs(&jobs, &res, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	print_table(&res);
	code = res.interrupted ? EXIT_INTERRUPTED : run_failed(&res) ? EXIT_JOB_FAILED : 0;
	if (res.interrupted)
		printf("(interrupted: the table is partial)\n");
out:
	tempfiles_remove(path);
	tempfiles_remove(side);
	run_results_free(&res);
	job_list_free(&jobs);
	return code;
}
