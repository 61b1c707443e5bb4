/*
 * Integration: fio's job options that act on the worker thread and on its files, seen from
 * outside as fio's are: the system calls (strace) and /proc.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness.h"

TestSuite(jobopts, .fini = tmpdir_cleanup);

#define NO_STRACE "strace is not installed (scripts/deps.sh installs it): the system calls cannot be seen"

static bool have_strace(void)
{
	return !access("/usr/bin/strace", X_OK);
}

/*
 * Run iopath under strace -f -e trace=calls with the NULL-terminated job options (a file
 * "f" in the test's directory is the job's) and return the calls on that file or, for calls
 * that take no path, every traced line. The test fails unless iopath exits 0.
 */
static char *traced(const char *calls, const char *path_part, ...)
{
	const char *dir = tmpdir_make(), *bin = getenv("IOPATH_BIN");
	char fname[320], log[320], oarg[340], targ[128], line[1024];
	char *argv[40], *out;
	size_t len = 0, cap = 1 << 16;
	unsigned a = 0;
	struct run_out r;
	va_list ap;
	const char *s;
	FILE *f;

	snprintf(fname, sizeof(fname), "--filename=%s/f", dir);
	snprintf(log, sizeof(log), "%s/trace", dir);
	snprintf(oarg, sizeof(oarg), "-o%s", log);
	snprintf(targ, sizeof(targ), "trace=%s", calls);
	argv[a++] = "strace";
	argv[a++] = "-f";
	argv[a++] = "-e";
	argv[a++] = targ;
	argv[a++] = oarg;
	argv[a++] = (char *)bin;
	argv[a++] = "--name=t";
	argv[a++] = fname;
	argv[a++] = "--output-format=terse";
	va_start(ap, path_part);
	while ((s = va_arg(ap, const char *)) && a < 38)
		argv[a++] = (char *)s;
	va_end(ap);
	argv[a] = NULL;
	leak_check_off_under_ptrace();
	r = prog_runv("/usr/bin/strace", argv);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	f = fopen(log, "r");
	cr_assert_not_null(f, "strace wrote no log");
	out = calloc(1, cap);
	cr_assert_not_null(out);
	while (fgets(line, sizeof(line), f)) {
		if (path_part && !strstr(line, path_part))
			continue;
		if (len + strlen(line) + 1 >= cap)
			break;
		strcpy(out + len, line);
		len += strlen(line);
	}
	fclose(f);
	return out;
}

/* fio 3.33: sync=1|sync is O_SYNC, dsync O_DSYNC, on every open of the job's files */
Test(jobopts, sync_reaches_the_open_flags)
{
	char *t;

	if (!have_strace())
		cr_skip_test(NO_STRACE);
	/* the job's own descriptors reopen the file checked before the run, by /proc/self/fd */
	t = traced("openat", "/proc/self/fd/", "--rw=write", "--size=64k", "--sync=1", NULL);
	cr_assert(strstr(t, "O_SYNC"), "sync=1: %s", t);
	free(t);
	t = traced("openat", "/proc/self/fd/", "--rw=read", "--size=64k", "--sync=dsync", NULL);
	cr_assert(strstr(t, "O_DSYNC") && !strstr(t, "O_SYNC"), "sync=dsync: %s", t);
	free(t);
	t = traced("openat", "/f\"", "--rw=write", "--size=64k", "--sync=none", NULL);
	cr_assert(strstr(t, "O_RDWR") && !strstr(t, "SYNC"), "sync=none: %s", t);
	free(t);
}

/* cpus_allowed_policy=split: worker N (fio's thread number) runs on CPU N mod the set's size */
Test(jobopts, cpus_split_gives_each_worker_one_cpu)
{
	json_t *root;
	const char *args[] = { "--name=t", "--ioengine=null", "--size=16m", "--numjobs=2",
			       "--cpus_allowed=0-1", "--cpus_allowed_policy=split", NULL };
	const char *c0, *c1;
	char *t;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		cr_skip_test("one CPU online: split cannot give two workers different CPUs");
	root = tool_json(false, args);
	c0 = json_string_value(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(root, "jobs"), 0), "iopath"), "engine_applied"), "cpus"));
	c1 = json_string_value(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(root, "jobs"), 1), "iopath"), "engine_applied"), "cpus"));
	cr_assert(c0 && c1, "no applied cpus in the result");
	cr_assert(strcmp(c0, c1) && strlen(c0) == 1 && strlen(c1) == 1, "cpus %s and %s", c0, c1);
	json_decref(root);
	if (!have_strace())
		cr_skip_test(NO_STRACE);
	t = traced("sched_setaffinity", NULL, "--ioengine=null", "--size=16m", "--numjobs=2",
		   "--cpus_allowed=0-1", "--cpus_allowed_policy=split", NULL);
	cr_assert(strstr(t, "[0]") && strstr(t, "[1]"), "%s", t);
	free(t);
}

/* the affinity is the worker thread's own: the main thread keeps its CPUs (/proc) */
/*
 * Of the threads of b, an iopath started by iopath_start_running (a time-based job that runs
 * until stopped), once its workers have done I/O: how many have in their
 * /proc/PID/task/TID/file what is_it finds (1), and how many something else (0); a thread
 * where it finds nothing (-1) counts in neither. Then b is stopped (Ctrl-C) and must say so.
 */
static void count_threads(struct run_bg *b, const char *file, int (*is_it)(FILE *f, const char *arg),
			  const char *arg, unsigned *yes, unsigned *no)
{
	char path[128];
	struct run_out r;
	struct dirent *e;
	DIR *d;

	*yes = *no = 0;
	cr_assert(running_reached(b), "no worker completed an I/O");
	snprintf(path, sizeof(path), "/proc/%d/task", (int)b->pid);
	d = opendir(path);
	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		FILE *f;
		int v;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/%s", (int)b->pid, e->d_name, file);
		f = fopen(path, "r");
		if (!f)
			continue;
		v = is_it(f, arg);
		fclose(f);
		if (v > 0)
			(*yes)++;
		else if (!v)
			(*no)++;
	}
	closedir(d);
	kill(b->pid, SIGINT);
	r = iopath_wait(b, 30);
	cr_assert_eq(r.status, 130, "%s", r.err);
	run_out_free(&r);
}

/* A status file: is the thread's CPU list list? */
static int allowed_on(FILE *f, const char *list)
{
	char line[256];
	int is = -1;

	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			char *v = line + 18;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = 0;
			is = !strcmp(v, list);
		}
	return is;
}

Test(jobopts, cpus_allowed_pins_only_the_worker_thread)
{
	struct run_bg b;
	char opt[128], list[16];
	unsigned pinned, other;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		cr_skip_test("one CPU online: a pinned thread looks like any other");
	snprintf(list, sizeof(list), "%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
	snprintf(opt, sizeof(opt), "--cpus_allowed=%s", list);
	{
		char *argv[] = { (char *)"iopath", (char *)"--name=t", (char *)"--ioengine=null",
				 (char *)"--size=16m", (char *)"--time_based", (char *)"--runtime=600",
				 (char *)"--output-format=terse", opt, NULL };

		b = iopath_start_running(tmpdir_make(), argv, NULL);
	}
	count_threads(&b, "status", allowed_on, list, &pinned, &other);
	cr_assert_geq(pinned, 1, "no thread on CPU %s", list);
	cr_assert_geq(other, 1, "every thread was pinned, the main one too");
}

/* a CPU the machine does not have: refused when the job is read, one line, exit 2 */
Test(jobopts, cpus_allowed_refuses_absent_cpu)
{
	struct run_out r = iopath_run("--name=t", "--ioengine=null", "--size=1m",
				      "--cpus_allowed=1023", NULL);

	if (sysconf(_SC_NPROCESSORS_CONF) >= 1024)
		cr_skip_test("this machine has CPU 1023");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "CPU 1023") && strchr(r.err, '\n') == strrchr(r.err, '\n'), "%s", r.err);
	run_out_free(&r);
	r = iopath_run("--name=t", "--ioengine=null", "--size=1m", "--cpumask=0x80000000", NULL);
	if (sysconf(_SC_NPROCESSORS_CONF) < 32)
		cr_assert_eq(r.status, 2, "%s", r.err);
	run_out_free(&r);
}

/* fio's mapping: prio alone is best-effort; prioclass alone is level 0 of that class */
Test(jobopts, prio_and_prioclass_reach_ioprio_set)
{
	char *t;

	if (!have_strace())
		cr_skip_test(NO_STRACE);
	t = traced("ioprio_set", NULL, "--ioengine=null", "--size=1m", "--prio=3", NULL);
	cr_assert(strstr(t, "IOPRIO_CLASS_BE, 3)"), "prio=3: %s", t);
	free(t);
	t = traced("ioprio_set", NULL, "--ioengine=null", "--size=1m", "--prioclass=3", "--prio=2",
		   NULL);
	cr_assert(strstr(t, "IOPRIO_CLASS_IDLE, 2)"), "prioclass=3 prio=2: %s", t);
	free(t);
	t = traced("ioprio_set", NULL, "--ioengine=null", "--size=1m", NULL);
	cr_assert(!strstr(t, "ioprio_set("), "neither given: %s", t);
	free(t);
}

/* A stat file: is the thread's nice value nice? */
static int at_nice(FILE *f, const char *nice)
{
	char line[1024], *p;
	int i;

	if (!fgets(line, sizeof(line), f) || !(p = strrchr(line, ')')))
		return -1;
	/* after the name: state is field 3, nice field 19 */
	for (i = 3; i <= 19 && p; i++)
		p = strchr(p + 1, ' ');
	return (p ? atoi(p + 1) : 0) == atoi(nice);
}

/*
 * nice is the worker thread's: /proc shows it on that thread and not on the main one. It adds to
 * the nice value iopath started with (fio's nice() is relative too), which is this test's own
 * under `nice -n 10 make test`.
 */
Test(jobopts, nice_changes_only_the_worker_thread)
{
	struct run_bg b;
	unsigned niced, other;
	char want[16];
	int base;

	errno = 0;
	base = getpriority(PRIO_PROCESS, 0);
	cr_assert(base != -1 || !errno, "getpriority: %s", strerror(errno));
	if (base + 7 > 19)
		cr_skip_test("the tests run at nice %d: a worker cannot be 7 above it", base);
	snprintf(want, sizeof(want), "%d", base + 7);
	{
		char *argv[] = { (char *)"iopath", (char *)"--name=t", (char *)"--ioengine=null",
				 (char *)"--size=16m", (char *)"--time_based", (char *)"--runtime=600",
				 (char *)"--output-format=terse", (char *)"--nice=7", NULL };

		b = iopath_start_running(tmpdir_make(), argv, NULL);
	}
	count_threads(&b, "stat", at_nice, want, &niced, &other);
	cr_assert_geq(niced, 1, "no thread at nice %s (started at %d)", want, base);
	cr_assert_geq(other, 1, "every thread was at nice %s, the main one too", want);
}

static unsigned count_lines(const char *t, const char *what)
{
	unsigned n = 0;

	for (t = strstr(t, what); t; t = strstr(t + 1, what))
		n++;
	return n;
}

/* pre_read reads the region once before the job (fio's pre_read_files) and keeps it cached */
Test(jobopts, pre_read_reads_the_file_first_and_keeps_it)
{
	char *with, *without;

	if (!have_strace())
		cr_skip_test(NO_STRACE);
	without = traced("pread64,fadvise64", NULL, "--rw=read", "--size=64k", "--bs=16k",
			 "--ioengine=psync", NULL);
	with = traced("pread64,fadvise64", NULL, "--rw=read", "--size=64k", "--bs=16k",
		      "--ioengine=psync", "--pre_read=1", NULL);
	cr_assert_eq(count_lines(with, ") = 16384\n"), count_lines(without, ") = 16384\n") + 4,
		     "with:\n%s\nwithout:\n%s", with, without);
	cr_assert(strstr(without, "POSIX_FADV_DONTNEED"), "%s", without);
	cr_assert(!strstr(with, "POSIX_FADV_DONTNEED"), "pre_read invalidated: %s", with);
	free(with);
	free(without);
}

/* with direct=1 it could fill nothing direct I/O reads (fio 3.33 fails the job): refused */
Test(jobopts, pre_read_refuses_direct)
{
	struct run_out r = iopath_run("--name=t", "--ioengine=null", "--size=1m", "--pre_read=1",
				      "--direct=1", NULL);

	cr_assert_eq(r.status, 2, "%s", r.err);
	cr_assert(strstr(r.err, "pre_read"), "%s", r.err);
	run_out_free(&r);
}

/* the share of submissions made at in-flight depth 9-16 (JSON iodepth_level "16") */
static double depth16_share(const char *low)
{
	const char *dir = tmpdir_make();
	struct run_out r;
	double v;
	json_t *root = iopath_json_kept(&r, ANY_STATUS, "--name=t",
					tmp_str("--filename=%s/f", dir), "--ioengine=io_uring",
					"--rw=randread", "--bs=4k", "--size=8m", "--iodepth=16",
					low, "--output-format=json", NULL);

	if (r.status && strstr(r.err, "io_uring"))
		cr_skip_test("io_uring is not available here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(root, "not JSON: %s", r.out);
	v = json_number_value(json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 0), "iodepth_level"), "16"));
	json_decref(root);
	run_out_free(&r);
	return v;
}

/*
 * iodepth_low=2 of 16: a full queue drains to 2 before refilling, so most submissions are
 * made at lower depths (fio 3.33, same job: 7.1% at 16 against 99.3% without it)
 */
Test(jobopts, iodepth_low_drains_a_full_queue_first)
{
	cr_assert_gt(depth16_share("--iodepth_low=16"), 90.0);
	cr_assert_lt(depth16_share("--iodepth_low=2"), 50.0);
}

/* serialize_overlap: on a two-block file no more than two requests are ever in flight. */
Test(jobopts, serialize_overlap_keeps_overlapping_requests_apart)
{
	const char *dir = tmpdir_make();
	char file[320];
	char *args[] = { "--name=s", file, "--size=8k", "--bs=4k", "--rw=randwrite", "--norandommap",
			 "--io_size=1m", "--ioengine=io_uring", "--iodepth=16", "--serialize_overlap=1",
			 NULL };
	json_t *root, *lv;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	root = iopath_json_in(dir, args, 0, NULL);
	lv = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					     "iodepth_level"), "4");
	cr_assert_not_null(lv);
	cr_assert_float_eq(json_number_value(lv), 0.0, 1e-9, "requests overlapped in flight");
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 256);
	json_decref(root);
}
