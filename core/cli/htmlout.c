/* Gathering the HTML report's documents from files and from commands' results, and writing it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic.h"
#include "cli/cmdargs.h"
#include "cli/htmlout.h"
#include "results/explain.h"
#include "results/history.h"
#include "results/report_cells.h"

static json_t *hold(struct html_set *s, json_t *j)
{
	if (!j)
		return NULL;
	if (s->nown == sizeof(s->own) / sizeof(s->own[0])) {
		json_decref(j);
		return NULL;
	}
	s->own[s->nown++] = j;
	return j;
}

static const char *keep_str(struct html_set *s, const char *str)
{
	char *c;

	if (s->nstrs == sizeof(s->strs) / sizeof(s->strs[0]) || !(c = strdup(str)))
		return NULL;
	s->strs[s->nstrs++] = c;
	return c;
}

static int add_doc(struct html_set *s, enum html_kind kind, json_t *doc, json_t *raw,
		   const char *origin, struct iop_err *err)
{
	struct html_doc *d;

	if (s->nr == HTML_DOCS_MAX) {
		json_decref(doc);
		json_decref(raw);
		return iop_errf(err, -E2BIG, "report: at most %d inputs", HTML_DOCS_MAX);
	}
	d = &s->docs[s->nr];
	d->kind = kind;
	d->doc = hold(s, doc);
	d->raw = raw ? hold(s, raw) : NULL;
	d->origin = keep_str(s, origin);
	if (!d->doc || (raw && !d->raw) || !d->origin)
		return iop_errf(err, -ENOMEM, "out of memory");
	s->nr++;
	return 0;
}

int html_add_results(struct html_set *s, const struct results *r, const char *origin,
		     struct iop_err *err)
{
	json_t *doc = results_json(r);

	if (!doc)
		return iop_errf(err, -ENOMEM, "out of memory");
	return add_doc(s, HTML_RESULTS, doc, NULL, origin, err);
}

int html_add_explained(struct html_set *s, const struct results *r, const json_t *explain,
		       const char *origin, struct iop_err *err)
{
	json_t *doc, *raw;

	if (!explain)
		return html_add_results(s, r, origin, err);
	doc = results_json(r);
	raw = json_pack("{s:{s:O}}", "iopath", "explain", (json_t *)explain);
	if (!doc || !raw) {
		json_decref(doc);
		json_decref(raw);
		return iop_errf(err, -ENOMEM, "out of memory");
	}
	return add_doc(s, HTML_RESULTS, doc, raw, origin, err);
}

int html_add_json(struct html_set *s, json_t *doc, const char *origin, struct iop_err *err)
{
	enum html_kind kind;
	struct results r;
	char *text;
	bool keep;
	int ret;

	if (html_doc_kind(doc, origin, &kind, err)) {
		json_decref(doc);
		return -EINVAL;
	}
	if (kind != HTML_RESULTS)
		return add_doc(s, kind, doc, NULL, origin, err);
	/* results go through the one loader, which reads every format and version */
	text = json_dumps(doc, JSON_COMPACT);
	if (!text) {
		json_decref(doc);
		return iop_errf(err, -ENOMEM, "out of memory");
	}
	ret = results_parse(text, strlen(text), origin, &r, err);
	free(text);
	if (ret) {
		json_decref(doc);
		return ret;
	}
	/* kept: a fio-shaped file's host, probes and suite rows; any file's iopath.explain */
	keep = json_object_get(doc, "jobs") || json_object_get(doc, "iopath");
	if (!strcmp(r.kind, "lab")) {
		/* a QEMU lab's lab.json (nothing of it kept): explained here, as vmlab does */
		json_t *ex = explain_results(&r, err);

		json_decref(doc);
		doc = ex ? json_pack("{s:{s:o}}", "iopath", "explain", ex) : NULL;
		if (!doc) {
			results_free(&r);
			return ex ? iop_errf(err, -ENOMEM, "out of memory") : -ENOMEM;
		}
		keep = true;
	}
	{
		/* explain's cells (loaded last) are shown in its section, from doc, not the sweep's */
		unsigned extra = results_explain_cells(doc);
		struct results own = r;

		if (extra <= own.nr)
			own.nr -= extra;
		ret = add_doc(s, kind, results_json(&own), keep ? doc : NULL, origin, err);
	}
	if (!keep)
		json_decref(doc);
	results_free(&r);
	return ret;
}

static int by_time(const void *a, const void *b)
{
	const struct results *x = *(const struct results *const *)a;
	const struct results *y = *(const struct results *const *)b;

	return x->timestamp_ms < y->timestamp_ms ? -1 : x->timestamp_ms > y->timestamp_ms;
}

int html_add_trend(struct html_set *s, const struct results *const *runs, unsigned nr,
		   const char *const *xlabels, const char *by, struct iop_err *err)
{
	unsigned i;

	if (s->has_trend)
		return iop_errf(err, -EINVAL, "report: one directory (or history) per report");
	s->runs = calloc(nr + 1, sizeof(*s->runs));
	s->xlabels = calloc(nr + 1, sizeof(*s->xlabels));
	if (!s->runs || !s->xlabels)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < nr; i++) {
		s->runs[i] = results_json(runs[i]);
		s->xlabels[i] = strdup(xlabels[i]);
		if (!s->runs[i] || !s->xlabels[i])
			return iop_errf(err, -ENOMEM, "out of memory");
	}
	s->trend = (struct html_trend){
		.nr = nr, .runs = (const json_t *const *)s->runs,
		.xlabels = (const char *const *)s->xlabels, .by = keep_str(s, by ? by : "time"),
	};
	s->has_trend = true;
	return 0;
}

/* A directory of saved results: the trend by time, and the latest run in full. */
static int add_dir(struct html_set *s, const char *dir, struct iop_err *err)
{
	struct results *runs = NULL, **order = NULL;
	char **files = NULL, **xl = NULL, shared[16], axis[48];
	struct seen_runs seen = { 0 };
	const char *first;
	unsigned nr = 0, i;
	int n, ret = -ENOMEM;

	n = list_json_files(dir, true, &files, err);
	if (n < 0)
		return n;
	if (!n)
		return iop_errf(err, -ENOENT, "report: no .json result files under %s", dir);
	runs = calloc((size_t)n, sizeof(*runs));
	order = calloc((size_t)n, sizeof(*order));
	xl = calloc((size_t)n, sizeof(*xl));
	if (!runs || !order || !xl) {
		iop_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < (unsigned)n; i++) {
		ret = results_load(files[i], &runs[nr], err);
		if (ret)
			goto out;
		ret = seen_meet(&seen, &runs[nr], &first);
		if (ret) {
			results_free(&runs[nr]);
			if (ret < 0) {
				iop_errf(err, ret, "out of memory");
				goto out;
			}
			fprintf(stderr, "iopath: report: skipping %s: the same run as %s\n", files[i], first);
			continue;
		}
		order[nr] = &runs[nr];
		nr++;
	}
	ret = 0;
	qsort(order, nr, sizeof(*order), by_time);
	for (i = 0; i < nr; i++) {
		xl[i] = malloc(48);
		if (!xl[i]) {
			ret = iop_errf(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	/* each run its shortest distinct time; the day (or year) they share said once */
	history_names(order, nr, NULL, xl, 48, shared, sizeof(shared));
	snprintf(axis, sizeof(axis), "time (UTC%s%s)", *shared ? ", " : "", shared);
	ret = html_add_trend(s, (const struct results *const *)order, nr, (const char *const *)xl,
			     axis, err);
	if (!ret)
		ret = html_add_results(s, order[nr - 1], order[nr - 1]->source, err);
out:
	for (i = 0; xl && i < nr; i++)
		free(xl[i]);
	for (i = 0; runs && i < nr; i++)
		results_free(&runs[i]);
	free(xl);
	free(order);
	free(runs);
	free_list(files, n);
	seen_free(&seen);
	return ret;
}

int html_add_path(struct html_set *s, const char *path, struct iop_err *err)
{
	json_error_t je;
	struct stat st;
	json_t *doc;
	int fd;

	/* checked on the descriptor then read (O_NONBLOCK: a FIFO's open would wait) */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return iop_errf(err, -e, "report: %s: %s", path, strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return add_dir(s, path, err);
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > RESULTS_FILE_MAX) {
		close(fd);
		if (!S_ISREG(st.st_mode))
			return iop_errf(err, -EINVAL, "report: %s is not a regular file or a directory",
					path);
		return iop_errf(err, -EFBIG, "report: %s is larger than %u MiB", path,
				RESULTS_FILE_MAX >> 20);
	}
	doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je);
	close(fd);
	if (!doc)
		return iop_errf(err, -EINVAL, "report: %s:%d: not valid JSON: %s", path, je.line,
				je.text);
	return html_add_json(s, doc, path, err);
}

int html_set_write(struct html_set *s, const char *title, const char *path, struct iop_err *err)
{
	struct html_page p = {
		.title = title, .nr = s->nr, .docs = s->docs,
		.trend = s->has_trend ? &s->trend : NULL,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return iop_errf(err, -ENOMEM, "out of memory");
	ret = html_report(f, &p, err);
	if (fclose(f) && !ret)
		ret = iop_errf(err, -ENOMEM, "writing the HTML report: out of memory");
	if (!ret && !strcmp(path, "-")) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
			ret = iop_errf(err, -EIO, "--html -: writing stdout failed");
	} else if (!ret) {
		ret = write_text_atomic(path, buf, len);
		if (ret)
			iop_errf(err, ret, "--html %s: %s", path, strerror(-ret));
	}
	free(buf);
	return ret;
}

void html_set_free(struct html_set *s)
{
	unsigned i;

	for (i = 0; i < s->nown; i++)
		json_decref(s->own[i]);
	for (i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	for (i = 0; s->runs && s->runs[i]; i++)
		json_decref(s->runs[i]);
	for (i = 0; s->xlabels && s->xlabels[i]; i++)
		free(s->xlabels[i]);
	free(s->runs);
	free(s->xlabels);
	memset(s, 0, sizeof(*s));
}

int html_write_results(const struct results *r, const json_t *explain, const char *path,
		       struct iop_err *err)
{
	struct html_set set = { 0 };
	int ret = html_add_explained(&set, r, explain, r->kind[0] ? r->kind : "results", err);

	if (!ret)
		ret = html_set_write(&set, NULL, path, err);
	html_set_free(&set);
	return ret;
}

int html_write_json(const json_t *doc, const char *origin, const char *path, struct iop_err *err)
{
	struct html_set set = { 0 };
	int ret = html_add_json(&set, json_incref((json_t *)doc), origin, err);

	if (!ret)
		ret = html_set_write(&set, NULL, path, err);
	html_set_free(&set);
	return ret;
}
