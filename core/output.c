/* Output selection shared by every command that runs jobs: formats, destination, exit code. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "report.h"
#include "tempfiles.h"

int output_parse_formats(const char *list, unsigned *formats, struct iop_err *err)
{
	char buf[128], *tok, *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return iop_errf(err, -EINVAL, "--output-format: value too long");
	strcpy(buf, list);
	*formats = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			*formats |= OUT_NORMAL;
		else if (!strcmp(tok, "json"))
			*formats |= OUT_JSON;
		else if (!strcmp(tok, "json+"))
			*formats |= OUT_JSONPLUS;
		else
			return iop_errf(err, -EINVAL,
					"--output-format: unknown format '%s' (accepted: normal, json, json+)",
					tok);
	}
	if (!*formats)
		return iop_errf(err, -EINVAL, "--output-format: empty (accepted: normal, json, json+)");
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0; i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

int output_results(const struct run_results *r, const struct output_opts *o, int argc,
		   char **argv, struct iop_err *err)
{
	struct run_env env;
	FILE *text = stdout;
	json_t *root;
	int ret = 0;

	run_env_fill(&env, argc, argv);
	if (o->formats & OUT_NORMAL) {
		/* with JSON on stdout too, the text goes to stderr so stdout stays parseable */
		if (!o->path && (o->formats & (OUT_JSON | OUT_JSONPLUS)))
			text = stderr;
		report_normal(text, r);
		fflush(text);
	}
	if (!(o->formats & (OUT_JSON | OUT_JSONPLUS)))
		return 0;
	root = report_json(r, &env, o->formats & OUT_JSONPLUS);
	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory building the JSON result");
	{
		char *cmd = join_args(argc, argv);

		if (cmd) {
			json_object_set_new(json_object_get(root, "iopath"), "command_line",
					    json_string(cmd));
			free(cmd);
		}
	}
	ret = report_json_write(root, o->path);
	json_decref(root);
	if (ret)
		return iop_errf(err, ret, "cannot write the result to %s: %s",
				o->path ? o->path : "stdout", strerror(-ret));
	return 0;
}

int output_exit_code(const struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (r->res[i].error)
			fprintf(stderr, "iopath: job %s failed: %s\n", r->res[i].spec->name,
				r->res[i].errmsg);
	if (r->interrupted)
		return EXIT_INTERRUPTED;
	return run_failed(r) ? EXIT_JOB_FAILED : 0;
}

static volatile sig_atomic_t stops;

static void on_stop(int sig)
{
	(void)sig;
	if (stops++) {
		tempfiles_remove_all();
		_exit(EXIT_INTERRUPTED);
	}
	run_request_stop();
}

void install_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
