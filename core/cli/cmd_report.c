/* iopath report INPUT... -o FILE: one self-contained HTML page from results, probes and comparisons. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "cli/htmlout.h"

static void usage(FILE *f)
{
	command_usage(f, "report");
	fprintf(f,
		"  INPUT                 a result file (sweep, run or suite results, iopath or fio\n"
		"                        JSON, probe --json, compare --json), or a directory of\n"
		"                        saved results: the trend across them and the latest in full\n"
		"  -o, --output FILE     the page to write ('-': stdout)\n"
		"  --title TEXT          the page's title (default: iopath report)\n"
		"The page is self-contained: inline CSS, SVG charts and a small script; it fetches\n"
		"nothing, and prints.\n");
}

int cmd_report(int argc, char **argv)
{
	const char *out = NULL, *title = NULL, *v;
	const char *inputs[HTML_DOCS_MAX];
	struct iop_err err = { "" };
	struct html_set set = { 0 };
	unsigned nin = 0, i;
	int a, ret, code = EXIT_USAGE;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-o")) {
			if (a + 1 >= argc) {
				iop_errf(&err, -EINVAL, "report: -o needs a file name (FILE.html, or - for stdout)");
				goto bad;
			}
			out = argv[++a];
		} else if ((ret = arg_value(argc, argv, &a, "output", &v, &err))) {
			if (ret < 0)
				goto bad;
			out = v;
		} else if ((ret = arg_value(argc, argv, &a, "title", &v, &err))) {
			if (ret < 0)
				goto bad;
			title = v;
		} else if (!strncmp(argv[a], "-", 1) && strcmp(argv[a], "-")) {
			iop_errf(&err, -EINVAL, "report: unknown option '%s' (accepted: -o FILE, --title TEXT; see iopath report --help)",
				 argv[a]);
			goto bad;
		} else if (nin == HTML_DOCS_MAX) {
			iop_errf(&err, -E2BIG, "report: at most %d inputs", HTML_DOCS_MAX);
			goto bad;
		} else {
			inputs[nin++] = argv[a];
		}
	}
	if (!nin) {
		iop_errf(&err, -EINVAL, "report: give at least one result file or directory (see iopath report --help)");
		goto bad;
	}
	if (!out) {
		iop_errf(&err, -EINVAL, "report: give the page to write with -o FILE.html");
		goto bad;
	}
	if (html_check_path("--output", out, &err))
		goto bad;
	for (i = 0; i < nin; i++)
		if (html_add_path(&set, inputs[i], &err))
			goto bad;
	if (html_set_write(&set, title, out, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = EXIT_JOB_FAILED;
		goto out;
	}
	code = 0;
	goto out;
bad:
	fprintf(stderr, "iopath: %s\n", err.msg);
out:
	html_set_free(&set);
	return code;
}
