/* Output selection shared by every command that runs jobs: formats, destination, exit code. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/err.h"
#include "report/output.h"
#include "report/report.h"
#include "base/atomic.h"
#include "base/stop.h"
#include "base/tempfiles.h"

int output_parse_formats_among(const char *list, unsigned accepted, unsigned *formats,
				struct iop_err *err)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "normal", OUT_NORMAL }, { "json", OUT_JSON }, { "json+", OUT_JSONPLUS },
		{ "terse", OUT_TERSE }, { "csv", OUT_CSV },
	};
	char buf[128], which[64] = "", *tok, *save = NULL;
	size_t i, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++)
		if (accepted & names[i].bit)
			snprintf(which + strlen(which), sizeof(which) - strlen(which), "%s%s",
				 which[0] ? ", " : "", names[i].name);
	if (strlen(list) >= sizeof(buf))
		return iop_errf(err, -EINVAL, "--output-format: value too long");
	strcpy(buf, list);
	*formats = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && (strcmp(tok, names[i].name) || !(accepted & names[i].bit)); i++)
			;
		if (i == n)
			return iop_errf(err, -EINVAL,
					"--output-format: unknown format '%s' (accepted: %s)", tok, which);
		*formats |= names[i].bit;
	}
	if (!*formats)
		return iop_errf(err, -EINVAL, "--output-format: empty (accepted: %s)", which);
	return 0;
}

int output_parse_formats(const char *list, unsigned *formats, struct iop_err *err)
{
	return output_parse_formats_among(list, OUT_NORMAL | OUT_JSON | OUT_JSONPLUS | OUT_TERSE | OUT_CSV,
					  formats, err);
}

void output_fallback_path(char *out, size_t len, const char *ext)
{
	const char *dir = getenv("TMPDIR");

	snprintf(out, len, "%s/iopath-result.%d.%s", dir && *dir ? dir : "/tmp", (int)getpid(), ext);
}

/* The text formats asked for, in fio's order: terse, normal; then csv, which fio lacks. */
static void text_formats(FILE *f, const struct run_results *r, unsigned formats,
			 unsigned terse_version)
{
	if (formats & OUT_TERSE)
		report_terse_version(f, r, terse_version);
	if (formats & OUT_NORMAL)
		report_normal(f, r);
	if (formats & OUT_CSV)
		report_csv(f, r);
}

/*
 * Every format asked for into one file, in fio's order (terse, JSON, normal; then CSV, which
 * fio lacks): fio writes all of them to --output, not only the JSON.
 */
static int write_file(const struct run_results *r, const char *path, unsigned formats,
		      unsigned terse_version, json_t *root, FILE *lead)
{
	struct atomic_file a;
	int ret = atomic_open(&a, path);
	char buf[65536];
	size_t n;

	if (ret)
		return ret;
	if (lead && fflush(lead) == 0 && fseek(lead, 0, SEEK_SET) == 0)
		while ((n = fread(buf, 1, sizeof(buf), lead)) && fwrite(buf, 1, n, a.f) == n)
			;
	if (formats & OUT_NORMAL)
		report_normal_layouts(a.f, r);
	if (formats & OUT_TERSE)
		report_terse_version(a.f, r, terse_version);
	if (root && report_json_dump(root, a.f)) {
		ret = errno ? -errno : -EIO;
		atomic_abort(&a);
		return ret;
	}
	text_formats(a.f, r, formats & ~OUT_TERSE, terse_version);
	return atomic_commit(&a);
}

static int saved_elsewhere(struct iop_err *err, int ret, const char *path, const char *alt,
			   int ret2)
{
	if (!ret2)
		return iop_errf(err, ret, "cannot write the result to %s: %s; it was saved to %s instead",
				path ? path : "stdout", strerror(-ret), alt);
	return iop_errf(err, ret, "cannot write the result to %s: %s (nor to %s: %s)",
			path ? path : "stdout", strerror(-ret), alt, strerror(-ret2));
}

int output_results(const struct run_results *r, const struct output_opts *o, int argc,
		   char **argv, struct iop_err *err)
{
	bool json = o->formats & (OUT_JSON | OUT_JSONPLUS);
	char alt[PATH_MAX];
	struct run_env env;
	json_t *root;
	int ret = 0;

	run_env_fill(&env, argc, argv);
	root = json ? report_json(r, &env, o->formats & OUT_JSONPLUS) : NULL;
	if (json && !root)
		return iop_errf(err, -ENOMEM, "out of memory building the JSON result");
	if (o->path) {
		ret = write_file(r, o->path, o->formats, o->terse_version, root, o->lead);
		if (ret) {
			output_fallback_path(alt, sizeof(alt), json ? "json" : "txt");
			saved_elsewhere(err, ret, o->path, alt, write_file(r, alt, o->formats, o->terse_version, root, o->lead));
		}
		json_decref(root);
		return ret;
	}
	if (o->formats & OUT_TEXT) {
		/* with JSON on stdout too, the text goes to stderr so stdout stays parseable */
		FILE *text = json ? stderr : stdout;

		if (o->formats & OUT_NORMAL)
			report_normal_layouts(text, r);
		text_formats(text, r, o->formats, o->terse_version);
		fflush(text);
	}
	if (!json)
		return 0;
	ret = report_json_write(root, NULL);
	if (ret) {
		output_fallback_path(alt, sizeof(alt), "json");
		saved_elsewhere(err, ret, NULL, alt, report_json_write(root, alt));
	}
	json_decref(root);
	return ret;
}

int output_status(const struct run_results *r, const struct output_opts *o, int argc,
		  char **argv)
{
	bool json = o->formats & (OUT_JSON | OUT_JSONPLUS);
	FILE *f = o->path ? o->lead : stdout, *text = o->path || !json ? f : stderr;
	struct run_env env;
	json_t *root = NULL;
	int ret = 0;

	if (!f)
		return -EBADF;
	if (json) {
		run_env_fill(&env, argc, argv);
		root = report_json(r, &env, o->formats & OUT_JSONPLUS);
		if (!root)
			return -ENOMEM;
	}
	/* fio's order, as in the final report: terse, JSON, normal, then CSV */
	if (o->formats & OUT_TERSE)
		report_terse_version(text, r, o->terse_version);
	if (root && report_json_dump(root, f))
		ret = errno ? -errno : -EIO;
	json_decref(root);
	text_formats(text, r, o->formats & ~OUT_TERSE, o->terse_version);
	if (fflush(f) || fflush(text))
		ret = ret ? ret : -errno;
	return ret;
}

/* Every job's error lines and failure on stderr. */
static void report_failures(const struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++) {
		const struct job_result *res = &r->res[i];
		const char *line = res->errlog, *nl;

		/* error_dump lines and non-fatal verify failures, fio's "fio: io_u error ..." */
		for (; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				break;
			iop_msgf("job %s: %.*s", res->spec->name, (int)(nl - line),
				line);
		}
		if (res->errlog_dropped)
			iop_msgf("job %s: %llu more error lines not kept",
				res->spec->name, (unsigned long long)res->errlog_dropped);
		if (res->error)
			iop_msgf("job %s failed: %s", res->spec->name, res->errmsg);
	}
}

int output_exit_code(const struct run_results *r)
{
	report_failures(r);
	if (r->interrupted)
		return EXIT_INTERRUPTED;
	return run_failed(r) ? EXIT_JOB_FAILED : 0;
}

int output_exit_code_fio(const struct run_results *r)
{
	unsigned n = run_failed_workers(r);

	report_failures(r);
	if (r->interrupted)
		return EXIT_INTERRUPTED;
	return n > EXIT_FAILED_MAX ? EXIT_FAILED_MAX : (int)n;
}

static volatile sig_atomic_t stops;

static void on_stop(int sig)
{
	(void)sig;
	if (stops++) {
		/* a second signal: leave at once, but leave no temporary file behind */
		tempfiles_remove_all();
		_exit(EXIT_INTERRUPTED);
	}
	run_request_stop();
}

static void on_exit_signal(int sig)
{
	(void)sig;
	tempfiles_remove_all();
	_exit(EXIT_INTERRUPTED);
}

static void install(void (*handler)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* a closed stdout is an error to report (and a reason to save the result elsewhere) */
	signal(SIGPIPE, SIG_IGN);
}

void install_stop_signals(void)
{
	install(on_stop);
}

static void on_status_signal(int sig)
{
	(void)sig;
	run_status_ask();
}

void install_status_signal(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_status_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

void install_exit_signals(void)
{
	install(on_exit_signal);
}
