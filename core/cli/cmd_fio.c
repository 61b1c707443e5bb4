/* iopath [options] [jobfile ...]: fio-style invocation of job files and --opt=value jobs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>

#include "job/cmdhelp.h"
#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "base/msg.h"
#include "base/version.h"
#include "fleet/fleet.h"
#include "io/iolog.h"
#include "job/job.h"
#include "job/options.h"
#include "base/parse.h"
#include "report/output.h"
#include "report/report.h"
#include "run/idleprof.h"
#include "run/run.h"
#include "base/atomic.h"

static void usage(FILE *f)
{
	commands_synopsis(f, false);
	fprintf(f,
		"fio-style options (iopath COMMAND --help: a command's own; iopath help: the topics):\n"
		"  --name=NAME          start a job; options before the first --name are global\n"
		"  --OPTION=VALUE       any job option, fio's names (rw, bs, iodepth, ioengine, ...)\n"
		"  --output-format=F    normal, json, json+, terse, csv (comma-separated for several)\n"
		"  --minimal            terse output (fio's --minimal)\n"
		"  --append-terse       terse lines as well as the formats asked before it\n"
		"  --terse-version=N    fio's terse version 2, 3 (the default), 4 or 5\n"
		"  --output=FILE        write the result to FILE (atomically)\n"
		"  --parse-only         parse the jobs and stop (with --output-format=json: print them)\n"
		"  --showcmd            print the jobs as one equivalent command line and stop\n"
		"  --section=NAME       only the job sections named (may be repeated)\n"
		"  --eta=WHEN           progress line on stderr: always, never, auto (a terminal)\n"
		"  --eta-newline=TIME   start a new progress line every TIME instead of rewriting it\n"
		"  --status-interval=TIME  the full report so far every TIME while the jobs run (fio's;\n"
		"                       SIGUSR1 asks for one at once)\n"
		"  --readonly           refuse every job that would write, trim, create or extend a file\n"
		"  --max-jobs=N         accepted as fio does, not enforced (a warning when exceeded)\n"
		"  --enforce-max-jobs   refuse job sets that start more than --max-jobs workers\n"
		"  --bandwidth-log      the run's bandwidth, all jobs together, every 500 ms in\n"
		"                       agg-read_bw.log and agg-write_bw.log (fio's agg logs)\n"
		"  --warnings-fatal     a warning about a job file is an error\n"
		"  --cmdhelp[=OPT|all]  job options and what they do\n"
		"  --enghelp[=ENGINE[,OPT]]  the engines, or an engine's options\n"
		"  --alloc-size=KB      accepted for fio's sake: iopath has no fixed-size pool to size\n"
		"  --aux-path=DIR       where verify state files go (local-JOB-N-verify.state)\n"
		"  --debug=TYPE,...     fio's debug lines on stdout: parse, file, io, job (help lists)\n"
		"  --idle-prof=MODE     each CPU's idleness while the jobs run (fio's): system, percpu;\n"
		"                       calibrate times the unit of work alone and runs no job\n"
		"  --ignore-unsupported warn about fio options iopath lacks instead of refusing\n"
		"  --allow-overwrite    let write jobs overwrite existing files iopath did not create\n"
		"  --allow-fill         let layouts and writes fill a filesystem below iopath's reserve\n"
		"  --allow-destructive=DEV  let write jobs write DEV even though it holds data\n");
}

#define MAX_JOB_FILES 256
#define MAX_SECTIONS 64

struct fio_args {
	struct output_opts out;
	bool parse_only;
	const char *inflate_log;	/* --inflate-log=FILE: print that log and exit */
	const char *files[MAX_JOB_FILES];	/* parsed after every --option, as fio does */
	unsigned nr_files;
	const char *sections[MAX_SECTIONS];
	unsigned nr_sections;
	bool ignore_unsupported;
	bool showcmd;
	int eta;		/* -1 never, 0 auto, 1 always */
	uint64_t eta_newline_ns;	/* --eta-newline: a fresh progress line this often */
	uint64_t status_ns;	/* --status-interval: an interim report this often (0: none) */
	unsigned max_jobs;	/* --max-jobs: workers allowed in all, 0 = no limit */
	bool enforce_max_jobs;	/* --enforce-max-jobs: refuse more (fio only warns, as we do) */
	const char *aux_path;	/* --aux-path: the directory of the jobs' state files */
	bool bandwidth_log;	/* --bandwidth-log: the run's agg-*_bw.log files */
	bool warnings_fatal;
	bool version;
	bool second_pass;	/* parse_args' look at the tool's options: they were taken already */
	const char *cmdhelp, *enghelp;	/* --cmdhelp / --enghelp asked for (value or "") */
	unsigned idle_prof;		/* --idle-prof: enum run_idle_mode */
};

/*
 * fio 3.33's own command-line options (fio --help) that iopath does not have. The ones that
 * change what the invocation is (a server, a client, a tool run instead of jobs) are refused
 * even with --ignore-unsupported.
 */
static const struct {
	const char *name;
	bool always;
	const char *what;
} fio_cli_unsupported[] = {
	{ "trigger-file", false, "triggers" },
	{ "trigger-timeout", false, "triggers" },
	{ "trigger", false, "triggers" },
	{ "trigger-remote", false, "triggers" },
	{ "merge-blktrace-only", true, "blktrace merging" },
	{ "cpuclock-test", true, "fio's CPU clock test" },
	{ "crctest", true, "fio's checksum speed test" },
	{ "server", true, "fio's client/server mode; across hosts, run iopath under mpirun" },
	{ "daemonize", true, "fio's client/server mode" },
	{ "client", true, "fio's client/server mode; across hosts, run iopath under mpirun" },
	{ "remote-config", true, "fio's client/server mode" },
};

/* 1 when key is one of fio's command-line options iopath lacks and it was only warned about. */
static int fio_cli_refused(const struct fio_args *a, const char *key, struct iop_err *err)
{
	size_t i;

	for (i = 0; i < sizeof(fio_cli_unsupported) / sizeof(fio_cli_unsupported[0]); i++) {
		if (strcmp(key, fio_cli_unsupported[i].name))
			continue;
		if (a->ignore_unsupported && !fio_cli_unsupported[i].always) {
			if (!a->second_pass)
				fprintf(stderr, "iopath: warning: fio option --%s is not supported by iopath (%s); ignored\n",
					key, fio_cli_unsupported[i].what);
			return 1;
		}
		return iop_errf(err, -ENOTSUP, "command line: fio option --%s is not supported by iopath (%s)%s",
				key, fio_cli_unsupported[i].what,
				fio_cli_unsupported[i].always ? "" : "; --ignore-unsupported lets the run go on without it");
	}
	return 0;
}

/*
 * --debug=TYPE[,TYPE...]: fio's debug lines on stdout, for the types iopath traces (parse, file,
 * io, job, random); fio's other types, and names fio has no type for, are warned about and ignored;
 * "all" takes every one iopath traces, "help" lists them. Returns 1, or -errno.
 */
static int debug_option(const char *val, struct iop_err *err)
{
	static const unsigned traced = 1u << DBG_PARSE | 1u << DBG_FILE | 1u << DBG_IO |
				       1u << DBG_JOB | 1u << DBG_RANDOM;
	char buf[256], *tok, *save = NULL, *colon;
	unsigned t;

	if (!val || !*val)
		return iop_errf(err, -EINVAL, "--debug needs a type (help lists them)");
	if (!strcmp(val, "help") || !strcmp(val, "?")) {
		printf("iopath: dumping debug options:");
		for (t = 0; t < DBG_NR; t++)
			printf("%s%s", t ? "," : "", iop_debug_names[t]);
		printf(",all\n");
		exit(0);
	}
	if (strlen(val) >= sizeof(buf))
		return iop_errf(err, -EINVAL, "--debug: value too long");
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		/* fio's job:N (only job N's lines): iopath's job lines are few, all are kept */
		colon = strchr(tok, ':');
		if (colon)
			*colon = '\0';
		if (!strcmp(tok, "all")) {
			iop_debug_mask = traced;
			fprintf(stderr, "iopath: warning: --debug=all: iopath traces parse, file, io, job and random only\n");
			continue;
		}
		for (t = 0; t < DBG_NR && strcmp(tok, iop_debug_names[t]); t++)
			;
		if (t == DBG_NR)	/* as fio: "debug mask X not found", and on */
			fprintf(stderr, "iopath: warning: --debug: fio has no debug type '%s' (--debug=help lists them); ignored\n",
				tok);
		else if (traced & (1u << t))
			iop_debug_mask |= 1u << t;
		else
			fprintf(stderr, "iopath: warning: --debug=%s: iopath does not trace %s; accepted and ignored\n",
				tok, tok);
	}
	return 1;
}

/*
 * The options of what the run writes: formats, file, terse, interim reports, idle profile. 1 when
 * key is one.
 */
static int output_option(struct fio_args *a, const char *key, const char *val, struct iop_err *err)
{
	int ret;

	if (!strcmp(key, "output-format")) {
		if (!val)
			return iop_errf(err, -EINVAL, "--output-format needs a value (normal, json, json+)");
		ret = output_parse_formats(val, &a->out.formats, err);
		return ret ? ret : 1;
	}
	if (!strcmp(key, "output")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "--output needs a file name");
		a->out.path = val;
		return 1;
	}
	if (!strcmp(key, "parse-only")) {
		a->parse_only = true;
		return 1;
	}
	if (!strcmp(key, "showcmd")) {
		a->showcmd = true;
		return 1;
	}
	if (!strcmp(key, "minimal")) {
		a->out.formats = OUT_TERSE;
		return 1;
	}
	if (!strcmp(key, "idle-prof")) {
		ret = idle_prof_mode(val, &a->idle_prof, err);
		return ret ? ret : 1;
	}
	if (!strcmp(key, "status-interval")) {
		/* fio's: a time in seconds by default, at least a millisecond */
		if (!val || parse_time_ns(val, 1000000000ull, &a->status_ns) ||
		    a->status_ns < 1000000ull)
			return iop_errf(err, -EINVAL, "--status-interval=%s: bad time (accepted: 1ms or more, "
					"e.g. 1, 5s, 500ms)", val ? val : "");
		return 1;
	}
	if (!strcmp(key, "append-terse")) {
		/* fio's: the terse lines too, added to the formats asked so far (its value ignored) */
		a->out.formats |= OUT_TERSE;
		return 1;
	}
	if (!strcmp(key, "terse-version")) {
		if (!val || strlen(val) != 1 || val[0] < '2' || val[0] > '5')
			return iop_errf(err, -EINVAL, "--terse-version=%s: fio's terse versions are 2, 3, 4 and 5",
					val ? val : "");
		a->out.terse_version = (unsigned)(val[0] - '0');
		return 1;
	}
	return 0;
}

/* Options of the tool itself rather than of a job. Returns 1 when arg was one of them. */
static int tool_option(struct fio_args *a, const char *key, const char *val, struct iop_err *err)
{
	int ret;

	ret = output_option(a, key, val, err);
	if (ret)
		return ret;
	if (!strcmp(key, "eta")) {
		if (val && !strcmp(val, "never"))
			a->eta = -1;
		else if (val && !strcmp(val, "always"))
			a->eta = 1;
		else if (val && !strcmp(val, "auto"))
			a->eta = 0;
		else
			return iop_errf(err, -EINVAL, "--eta=%s: accepted: always, never, auto",
					val ? val : "");
		return 1;
	}
	if (!strcmp(key, "eta-newline")) {
		if (!val || parse_time_ns(val, 1000000000ull, &a->eta_newline_ns) || !a->eta_newline_ns)
			return iop_errf(err, -EINVAL, "--eta-newline=%s: bad time (accepted: e.g. 5, 5s, 500ms)",
					val ? val : "");
		return 1;
	}
	if (!strcmp(key, "bandwidth-log")) {
		a->bandwidth_log = true;
		return 1;
	}
	if (!strcmp(key, "max-jobs")) {
		uint64_t n;

		/* fio 3.33 takes any value and does not enforce it: neither do we, unless asked */
		if (val && !parse_u64(val, &n) && n && n <= 1000000)
			a->max_jobs = (unsigned)n;
		else if (!a->second_pass)
			fprintf(stderr, "iopath: warning: --max-jobs=%s is not a number from 1 to 1000000; ignored, as fio does\n",
				val ? val : "");
		return 1;
	}
	if (!strcmp(key, "debug"))
		return a->second_pass ? 1 : debug_option(val, err);
	if (!strcmp(key, "inflate-log")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "--inflate-log needs a file (a NAME_TYPE.log.fz written with log_store_compressed=1)");
		a->inflate_log = val;
		return 1;
	}
	if (!strcmp(key, "aux-path")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "--aux-path needs a directory (where verify state files go)");
		if (strlen(val) >= sizeof(((struct job_spec *)0)->aux_path))
			return iop_errf(err, -ENAMETOOLONG, "--aux-path=%.40s...: longer than %zu bytes",
					val, sizeof(((struct job_spec *)0)->aux_path) - 1);
		a->aux_path = val;
		return 1;
	}
	if (!strcmp(key, "enforce-max-jobs")) {
		a->enforce_max_jobs = true;
		return 1;
	}
	if (!strcmp(key, "alloc-size")) {
		uint64_t n;

		if (!val || parse_u64(val, &n) || !n)
			return iop_errf(err, -EINVAL, "--alloc-size=%s: bad number of KiB", val ? val : "");
		return 1;
	}
	if (!strcmp(key, "warnings-fatal")) {
		a->warnings_fatal = true;
		return 1;
	}
	if (!strcmp(key, "version")) {
		a->version = true;
		return 1;
	}
	if (!strcmp(key, "cmdhelp")) {
		a->cmdhelp = val ? val : "";
		return 1;
	}
	if (!strcmp(key, "enghelp")) {
		a->enghelp = val ? val : "";
		return 1;
	}
	if (!strcmp(key, "ignore-unsupported")) {
		a->ignore_unsupported = true;
		return 1;
	}
	if (!strcmp(key, "section")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "--section needs a job section name");
		if (a->nr_sections == MAX_SECTIONS)
			return iop_errf(err, -E2BIG, "--section: more than %d given", MAX_SECTIONS);
		a->sections[a->nr_sections++] = val;
		return 1;
	}
	return fio_cli_refused(a, key, err);
}

/* The tool's own options that take a value. */
static const char *const tool_valued[] = {
	"output-format", "output", "section", "eta", "terse-version", "allow-destructive",
	"eta-newline", "max-jobs", "alloc-size", "status-interval", "debug", "idle-prof",
	"trigger-file", "trigger-timeout", "trigger", "trigger-remote", "aux-path", "crctest",
	"inflate-log", "daemonize", "client", "remote-config", NULL,
};

/* Would fio (getopt) take the next word as this option's value ("--bs 4k")? */
static bool takes_value(const char *key)
{
	const struct opt_def *o = opt_find(key);
	unsigned i;

	for (i = 0; tool_valued[i]; i++)
		if (!strcmp(key, tool_valued[i]))
			return true;
	return o && o->type != OPT_FLAG && o->type != OPT_FN_OPT;
}

/* argv[*i] as --key[=value], or "--key value" for an option that needs one, as fio reads it. */
static int split_arg(int argc, char **argv, int *i, char *key, size_t klen, const char **val,
		     struct iop_err *err)
{
	const char *arg = argv[*i], *eq = strchr(arg + 2, '=');
	size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

	if (n >= klen)
		return iop_errf(err, -EINVAL, "command line: option name too long: %.40s...", arg);
	if (!n)
		return iop_errf(err, -EINVAL, "command line: '%s' is not an option", arg);
	snprintf(key, klen, "%.*s", (int)n, arg + 2);
	*val = eq ? eq + 1 : NULL;
	if (!eq && takes_value(key) && *i + 1 < argc)
		*val = argv[++*i];
	return 0;
}

/* Tool options anywhere; job files and --section first, as fio reads them. */
static int scan_args(int argc, char **argv, struct fio_args *a, struct iop_err *err)
{
	int i, ret;

	/* wherever it stands, it governs every fio option iopath lacks */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--ignore-unsupported"))
			a->ignore_unsupported = true;
	for (i = 1; i < argc; i++) {
		char *arg = argv[i], key[128];
		const char *val = NULL;

		if (strncmp(arg, "--", 2)) {
			if (a->nr_files == MAX_JOB_FILES)
				return iop_errf(err, -E2BIG, "more than %d job files", MAX_JOB_FILES);
			a->files[a->nr_files++] = arg;
			continue;
		}
		ret = split_arg(argc, argv, &i, key, sizeof(key), &val, err);
		if (ret)
			return ret;
		ret = tool_option(a, key, val, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * fio's order: every --option=value in command-line order (before the first --name they are
 * global), then the job files (getopt moves them behind the options).
 */
static int parse_args(int argc, char **argv, struct fio_args *a, struct job_parser *p,
		      struct iop_err *err)
{
	struct fio_args scratch;
	int i, ret;
	unsigned f;

	for (i = 1; i < argc; i++) {
		char key[128];
		const char *val = NULL;

		if (strncmp(argv[i], "--", 2))
			continue;
		ret = split_arg(argc, argv, &i, key, sizeof(key), &val, err);
		if (ret)
			return ret;
		/* scan_args took the tool's own options already */
		memset(&scratch, 0, sizeof(scratch));
		scratch.ignore_unsupported = a->ignore_unsupported;
		scratch.second_pass = true;
		ret = tool_option(&scratch, key, val, err);
		if (!ret)
			ret = target_policy_option(&p->list->policy, key, val, err);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		ret = job_parse_cli(p, key, val, err);
		if (ret)
			return ret;
	}
	for (f = 0; f < a->nr_files; f++) {
		ret = job_parse_file(p, a->files[f], err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * --max-jobs: fio's limit on the threads and processes of one invocation, which fio 3.33 does
 * not enforce (cdm passes --max-jobs=1 with 8-thread jobs). Exceeding it is a warning, and a
 * refusal only with --enforce-max-jobs.
 */
static int check_max_jobs(const struct job_list *jobs, const struct fio_args *a,
			  struct iop_err *err)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < jobs->nr; i++)
		n += jobs->jobs[i].numjobs;
	if (n <= a->max_jobs)
		return 0;
	if (a->enforce_max_jobs)
		return iop_errf(err, -E2BIG, "--max-jobs=%u: the jobs start %llu workers (numjobs summed over every job; --enforce-max-jobs refuses)",
				a->max_jobs, (unsigned long long)n);
	fprintf(stderr, "iopath: warning: --max-jobs=%u: the jobs start %llu workers; run anyway, as fio does (--enforce-max-jobs refuses)\n",
		a->max_jobs, (unsigned long long)n);
	return 0;
}

static void print_warnings(const struct job_parser *p)
{
	unsigned i;

	for (i = 0; i < p->nr_warnings; i++)
		fprintf(stderr, "iopath: warning: %s\n", p->warnings[i]);
}

/* The progress line: fio's "Jobs: ..." line, refreshed in place on stderr. */
struct eta_state {
	bool always;
	bool shown;
	uint64_t last_bytes, last_ios, last_ns;
	uint64_t newline_ns, line_ns;	/* --eta-newline: its period; when this line began */
};

static void fmt_rate(char *buf, size_t len, double v, const char *const *units, double base)
{
	unsigned u = 0;

	while (v >= base && units[u + 1]) {
		v /= base;
		u++;
	}
	snprintf(buf, len, "%.1f%s", v, units[u]);
}

static void show_progress(const struct run_progress *p, void *arg)
{
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB", NULL };
	static const char *const counts[] = { "", "k", "M", "G", NULL };
	struct eta_state *e = arg;
	uint64_t dt = p->elapsed_ns - e->last_ns;
	double secs = (double)dt / 1e9;
	char bw[32], iops[32];
	unsigned eta = (unsigned)(p->eta_ns / 1000000000ull);

	/* "auto": only runs longer than a few seconds get a line */
	if (!e->always && p->elapsed_ns < 3000000000ull)
		goto out;
	fmt_rate(bw, sizeof(bw), secs > 0 && p->bytes >= e->last_bytes ?
		 (double)(p->bytes - e->last_bytes) / secs : 0, bytes, 1024);
	fmt_rate(iops, sizeof(iops), secs > 0 && p->ios >= e->last_ios ?
		 (double)(p->ios - e->last_ios) / secs : 0, counts, 1000);
	if (e->shown && e->newline_ns && p->elapsed_ns - e->line_ns >= e->newline_ns) {
		fputc('\n', stderr);
		e->line_ns = p->elapsed_ns;
	}
	if (!e->shown)
		e->line_ns = p->elapsed_ns;
	fprintf(stderr, "\rJobs: %u (phase %u/%u): [%s/s][%s IOPS][eta %02um:%02us]   ",
		p->running, p->phase + 1, p->nr_phases, bw, iops, eta / 60, eta % 60);
	fflush(stderr);
	e->shown = true;
out:
	e->last_bytes = p->bytes;
	e->last_ios = p->ios;
	e->last_ns = p->elapsed_ns;
}

static void print_parsed(const struct fio_args *a, const struct job_list *jobs)
{
	json_t *root;

	if (!(a->out.formats & (OUT_JSON | OUT_JSONPLUS)))
		return;
	root = report_jobs_json(jobs);
	if (root)
		report_json_write(root, a->out.path);
	json_decref(root);
}

/*
 * The end of the spool of --debug lines meant for --output: back to stdout, and the lines
 * printed there when no result file took them (the run failed before its result).
 */
static void lead_end(FILE *lead, bool written)
{
	char buf[65536];
	size_t n;

	if (!lead)
		return;
	debug_lines_to(NULL);
	if (!written && fflush(lead) == 0 && fseek(lead, 0, SEEK_SET) == 0)
		while ((n = fread(buf, 1, sizeof(buf), lead)) && fwrite(buf, 1, n, stdout) == n)
			;
	fclose(lead);
}

/* --inflate-log=FILE: a compressed log's lines on stdout, as fio prints them; nothing if bad. */
static int inflate_log(const char *path)
{
	struct iop_err err = { "" };
	char *text;
	size_t len;

	if (iolog_inflate(path, &text, &len, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if ((len && fwrite(text, 1, len, stdout) != len) || fflush(stdout)) {
		fprintf(stderr, "iopath: --inflate-log=%s: writing stdout: %s\n", path, strerror(errno));
		free(text);
		return EXIT_JOB_FAILED;
	}
	free(text);
	return 0;
}


/*
 * fio's normal output starts before the jobs run (a line per job, the version, "Starting
 * N threads"): on the text's stream, or, with --output, first in the file (out->lead).
 */
static void start_lines(const struct output_opts *out, const struct job_list *jobs)
{
	FILE *f = out->path ? out->lead : out->formats & (OUT_JSON | OUT_JSONPLUS) ? stderr : stdout;

	if (!f)
		return;
	report_normal_preamble(f, jobs);
	fflush(f);
}

/* fio's --idle-prof=calibrate: the unit of work timed on every CPU, and no job run. */
static int idle_calibrate(void)
{
	struct iop_err err = { "" };
	struct idle_prof *ip;
	struct run_idle cal;

	if (idle_prof_start(IDLE_CALIBRATE, &ip, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		return EXIT_USAGE;
	}
	idle_prof_stop(ip, &cal);
	report_normal_idle(stdout, &cal);
	run_idle_free(&cal);
	return 0;
}

/*
 * As fio: with --output, the run's --debug lines go into the file, before the result, and so
 * do the normal output's start lines (a->out.lead, a temporary file until then).
 */
static void open_lead(struct fio_args *a)
{
	if (!a->out.path || !(iop_debug_mask || (a->out.formats & OUT_NORMAL) || a->status_ns) ||
	    fleet_active())
		return;
	a->out.lead = tmpfile();
	if (a->out.lead && iop_debug_mask)
		debug_lines_to(a->out.lead);
	else if (!a->out.lead)
		fprintf(stderr, "iopath: warning: %s (no temporary file: %s)\n",
			iop_debug_mask ? "--debug lines stay on stdout" :
					 "the lines printed before the run are left out of the file",
			strerror(errno));
}

/* The wall clock in ms since the epoch: the time a report is made. */
static uint64_t unix_ms_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

/* Where interim reports go, and whether one could not be written (said once). */
struct status_out {
	const struct output_opts *out;
	int argc;
	char **argv;
	bool failed;
};

/* --status-interval, SIGUSR1: the report so far, in the formats asked for. */
static void show_status(const struct run_results *r, void *arg)
{
	struct status_out *s = arg;
	int ret = output_status(r, s->out, s->argc, s->argv);

	if (ret && !s->failed)
		fprintf(stderr, "iopath: warning: an interim report could not be written: %s\n",
			strerror(-ret));
	s->failed |= ret != 0;
}

/*
 * Run the jobs, with the progress line and interim reports asked for (and one on SIGUSR1, as
 * fio) and, with --idle-prof, the CPUs' idleness measured from before the first job starts
 * until the last has ended (as fio). 0, or -errno with err (res is set up either way, for
 * run_results_free).
 */
static int run_fio_jobs(const struct fio_args *a, const struct job_list *jobs,
			struct run_results *res, int argc, char **argv, struct iop_err *err)
{
	struct eta_state eta = { .always = a->eta > 0, .newline_ns = a->eta_newline_ns };
	struct status_out so = { &a->out, argc, argv, false };
	struct run_watch watch = { .status_ns = a->status_ns };
	struct idle_prof *idle = NULL;
	int ret;

	memset(res, 0, sizeof(*res));
	install_stop_signals();
	if (!fleet_active()) {
		install_status_signal();
		watch.status = show_status;
		watch.status_arg = &so;
	}
	if (a->idle_prof) {
		ret = idle_prof_start(a->idle_prof, &idle, err);
		if (ret)
			return ret;
	}
	if (a->eta > 0 || (a->eta == 0 && isatty(STDERR_FILENO))) {
		watch.progress = show_progress;
		watch.progress_arg = &eta;
	}
	ret = run_jobs_watch(jobs, res, &watch, err);
	/* fio's JSON "timestamp" is when the report is made: the run's end */
	res->report_unix_ms = unix_ms_now();
	if (idle)
		idle_prof_stop(idle, &res->idle);
	if (eta.shown)
		fputc('\n', stderr);
	return ret;
}

/*
 * The invocations answered without a job (--version, --cmdhelp, --enghelp,
 * --idle-prof=calibrate, --inflate-log): true, with the exit code in *code, for those.
 */
static bool answered_alone(const struct fio_args *a, int *code)
{
	struct iop_err err = { "" };
	int ret = 0;

	if (a->version || a->cmdhelp || a->enghelp) {
		if (a->version)
			printf("iopath %s (follows %s)\n", iopath_version, IOPATH_FIO_FOLLOWS);
		else if (a->cmdhelp)
			ret = print_cmdhelp(stdout, a->cmdhelp, &err);
		else
			ret = print_enghelp(stdout, a->enghelp, &err);
		if (ret)
			fprintf(stderr, "iopath: %s\n", err.msg);
		*code = ret ? EXIT_USAGE : 0;
		return true;
	}
	if (a->idle_prof == IDLE_CALIBRATE) {
		*code = idle_calibrate();
		return true;
	}
	if (a->inflate_log) {
		*code = inflate_log(a->inflate_log);
		return true;
	}
	return false;
}

/*
 * Global options alone, run: fio's "No job(s) defined" on stderr, the usage on stdout and
 * exit 1 (its parse_options), which harnesses that append the job sections later meet.
 */
static int no_jobs(struct job_parser *p, struct job_list *jobs)
{
	fprintf(stderr, "iopath: No job(s) defined (global options alone: give a job section, "
		"[NAME] in a job file or --name=NAME on the command line)\n\n");
	usage(stdout);
	print_warnings(p);
	job_parser_free(p);
	job_list_free(jobs);
	return EXIT_JOB_FAILED;
}

int cmd_fio(int argc, char **argv)
{
	struct fio_args a = { .out = { .formats = OUT_NORMAL } };
	struct job_list jobs = { 0 };
	struct run_results res;
	struct job_parser p;
	struct iop_err err = { "" };
	unsigned i;
	int ret, code;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	job_parser_init(&p, &jobs);
	job_parser_fio_defaults(&p);
	/* a wrapper that asked its user for consent passes it on: --allow-overwrite for those */
	jobs.policy.allow_overwrite_paths = getenv("IOPATH_ALLOW_OVERWRITE");
	ret = scan_args(argc, argv, &a, &err);
	if (!ret && answered_alone(&a, &code)) {
		job_parser_free(&p);
		job_list_free(&jobs);
		return code;
	}
	p.ignore_unsupported = a.ignore_unsupported;
	p.dryrun = a.parse_only;
	p.sections = a.nr_sections ? a.sections : NULL;
	p.nr_sections = a.nr_sections;
	if (!ret)
		ret = parse_args(argc, argv, &a, &p, &err);
	if (!ret)
		ret = job_parser_finish(&p, &err);
	/* as fio: --parse-only (or --showcmd) of global options alone (no job) succeeds */
	if (!ret && !jobs.nr && !a.parse_only && !a.showcmd)
		return no_jobs(&p, &jobs);
	if (!ret && a.warnings_fatal && p.nr_warnings)
		ret = iop_errf(&err, -EINVAL, "--warnings-fatal: %s", p.warnings[0]);
	if (!ret && a.max_jobs)
		ret = check_max_jobs(&jobs, &a, &err);
	for (i = 0; !ret && a.aux_path && i < jobs.nr; i++)
		snprintf(jobs.jobs[i].aux_path, sizeof(jobs.jobs[i].aux_path), "%s", a.aux_path);
	for (i = 0; !ret && a.bandwidth_log && i < jobs.nr; i++)
		jobs.jobs[i].log.agg_bw = true;
	print_warnings(&p);
	job_parser_free(&p);
	/* --allow-overwrite covers an existing output file of someone else's too */
	atomic_allow_overwrite(jobs.policy.allow_overwrite);
	/* find out now, not after the jobs ran, that their result would have nowhere to go */
	if (!ret && a.out.path)
		ret = atomic_check(a.out.path, &err);
	if (!ret && a.status_ns && fleet_active())
		ret = iop_errf(&err, -EINVAL, "--status-interval is not supported under mpirun (each "
			       "rank would report its own workers alone): run it without MPI");
	if (!ret && a.idle_prof && fleet_active())
		ret = iop_errf(&err, -EINVAL, "--idle-prof is not supported under mpirun (each rank's "
			       "CPUs would be profiled alone): run it without MPI");
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		fleet_note_error(err.msg);
		job_list_free(&jobs);
		return EXIT_USAGE;
	}
	if (a.showcmd) {
		report_showcmd(stdout, &jobs);
		job_list_free(&jobs);
		return 0;
	}
	if (a.parse_only) {
		print_parsed(&a, &jobs);
		job_list_free(&jobs);
		return 0;
	}
	open_lead(&a);
	/* fio's lines before the jobs run (under MPI rank 0 writes the merged result alone) */
	if ((a.out.formats & OUT_NORMAL) && !fleet_active())
		start_lines(&a.out, &jobs);
	ret = run_fio_jobs(&a, &jobs, &res, argc, argv, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		fleet_note_error(err.msg);
		lead_end(a.out.lead, false);
		run_results_free(&res);
		job_list_free(&jobs);
		return EXIT_USAGE;
	}
	if (fleet_active()) {
		/* every rank's results to rank 0, which writes the merged result */
		code = fleet_output(&res, output_exit_code(&res), &a.out, argc, argv);
	} else {
		code = output_exit_code_fio(&res);
		if (output_results(&res, &a.out, argc, argv, &err)) {
			fprintf(stderr, "iopath: %s\n", err.msg);
			code = code ? code : EXIT_JOB_FAILED;
		}
	}
	lead_end(a.out.lead, true);
	run_results_free(&res);
	job_list_free(&jobs);
	return code;
}
