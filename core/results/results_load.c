/*
 * Loading a result file: read it (a regular file, bounded), parse its JSON, and hand it to
 * the lab's loader (labload.c) or to the loader of iopath's and fio's JSON (results_json.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/results.h"

static json_t *parse_json(const char *buf, size_t len, const char *origin, struct iop_err *err)
{
	json_error_t jerr;
	json_t *root;

	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root && len && buf[0] != '{') {
		/* fio writes notes ("fio: ...") ahead of its JSON: start at the first line that opens it */
		const char *brace = memmem(buf, len, "\n{", 2);
		json_error_t again;

		if (brace)
			root = json_loadb(brace + 1, len - (size_t)(brace + 1 - buf),
					  JSON_REJECT_DUPLICATES, &again);
	}
	if (!root)
		iop_errf(err, -EINVAL, "%s: not valid JSON (line %d: %s)", origin, jerr.line, jerr.text);
	return root;
}

/* The whole file, at most RESULTS_FILE_MAX bytes; *len its length. NULL with err on failure. */
static char *read_file(const char *path, size_t *len, struct iop_err *err)
{
	struct stat st;
	char *buf;
	ssize_t got;
	size_t off = 0;
	int fd;

	/* O_NONBLOCK: a FIFO's open would wait for a writer; the descriptor is then checked */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		iop_errf(err, -errno, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		iop_errf(err, -EINVAL, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > RESULTS_FILE_MAX) {
		iop_errf(err, -EFBIG, "%s: larger than %u MiB; not a result file", path,
			 RESULTS_FILE_MAX >> 20);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		iop_errf(err, -ENOMEM, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	while (off < (size_t)st.st_size && (got = read(fd, buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)got;
	close(fd);
	*len = off;
	return buf;
}

/*
 * A fio-shaped file's (suite --explain's) explain cells, as its jobs are read: each cell's
 * samples appended to a copy's jobs, named by the cell's label.
 */
static json_t *with_explain_jobs(json_t *root, const json_t *ex)
{
	json_t *copy = json_copy(root), *jobs = json_copy(json_object_get(root, "jobs")), *job;
	const json_t *c, *smp;
	size_t i, k;

	if (!copy || !jobs || json_object_set_new(copy, "jobs", jobs)) {
		json_decref(copy);
		return NULL;
	}
	json_array_foreach(ex, i, c)
		json_array_foreach(json_object_get(c, "samples"), k, smp) {
			job = json_deep_copy(smp);
			if (!job || json_object_set(job, "jobname", json_object_get(c, "label")) ||
			    json_array_append_new(jobs, job)) {
				json_decref(copy);
				return NULL;
			}
		}
	return copy;
}

/*
 * sweep --explain and suite --explain keep explain's cells in the explanation's section
 * (iopath.explain.cells):
 * they are loaded after the sweep's own, so that explain, compare and the store read all that
 * was measured (results_explain_cells says how many). root itself when there are none.
 */
static json_t *with_explain_cells(json_t *root)
{
	const json_t *ex = json_object_get(json_object_get(json_object_get(root, "iopath"), "explain"),
					   "cells");
	json_t *copy, *cells;

	if (json_array_size(ex) && !json_object_get(root, "cells") &&
	    json_is_array(json_object_get(root, "jobs")))
		return with_explain_jobs(root, ex);
	if (!json_array_size(ex) || !json_is_array(json_object_get(root, "cells")))
		return json_incref(root);
	copy = json_copy(root);
	cells = json_copy(json_object_get(root, "cells"));
	if (!copy || !cells || json_array_extend(cells, (json_t *)ex) ||
	    json_object_set_new(copy, "cells", cells)) {
		json_decref(copy);
		return NULL;
	}
	return copy;
}

unsigned results_explain_cells(const json_t *root)
{
	return (unsigned)json_array_size(json_object_get(json_object_get(json_object_get(root, "iopath"),
									 "explain"), "cells"));
}

int results_from_json(json_t *root, const char *origin, struct results *out, struct iop_err *err)
{
	int ret;

	if (!json_is_object(root) || json_object_get(root, "schema_version") ||
	    !results_is_vmlab(root)) {
		json_t *all = json_is_object(root) ? with_explain_cells(root) : json_incref(root);

		if (!all)
			return iop_errf(err, -ENOMEM, "out of memory");
		ret = results_from_result_json(all, origin, out, err);
		json_decref(all);
		return ret;
	}
	results_zero(out);
	snprintf(out->source, sizeof(out->source), "%s", origin);
	ret = results_load_vmlab(out, root, origin, err);
	if (ret)
		results_free(out);
	snprintf(out->source, sizeof(out->source), "%s", origin);
	return ret;
}

int results_parse(const char *buf, size_t len, const char *origin, struct results *out,
		  struct iop_err *err)
{
	json_t *root;
	int ret;

	results_zero(out);
	snprintf(out->source, sizeof(out->source), "%s", origin);
	root = parse_json(buf, len, origin, err);
	if (!root)
		return -EINVAL;
	ret = results_from_json(root, origin, out, err);
	json_decref(root);
	return ret;
}

int results_load(const char *path, struct results *out, struct iop_err *err)
{
	size_t len = 0;
	char *buf;
	int ret;

	results_zero(out);
	snprintf(out->source, sizeof(out->source), "%s", path);
	buf = read_file(path, &len, err);
	if (!buf)
		return -EINVAL;
	ret = results_parse(buf, len, path, out, err);
	free(buf);
	return ret;
}
