/* Job text (fio job files and --opt=value command lines) into a list of job specs. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "options.h"

#define JOB_FILE_MAX (16u << 20)

void job_parser_init(struct job_parser *p, struct job_list *list)
{
	memset(p, 0, sizeof(*p));
	p->list = list;
	job_defaults(&p->global);
	snprintf(p->global.name, sizeof(p->global.name), "global");
	p->cur = &p->global;
}

void job_list_free(struct job_list *list)
{
	free(list->jobs);
	list->jobs = NULL;
	list->nr = list->cap = 0;
}

static struct job_spec *job_new(struct job_parser *p, const char *name, const char *origin,
				struct iop_err *err)
{
	struct job_list *l = p->list;
	struct job_spec *job;

	if (l->nr == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 8;
		struct job_spec *jobs = realloc(l->jobs, cap * sizeof(*jobs));

		if (!jobs) {
			iop_errf(err, -ENOMEM, "%s: out of memory for job '%s'", origin, name);
			return NULL;
		}
		l->jobs = jobs;
		l->cap = cap;
	}
	job = &l->jobs[l->nr++];
	*job = p->global;
	/* a job inherits the global options, but not the global section's own name */
	snprintf(job->name, sizeof(job->name), "%s", name);
	snprintf(job->origin, sizeof(job->origin), "%s", origin);
	return job;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int parse_line(struct job_parser *p, char *line, const char *where, struct iop_err *err)
{
	char *s = trim(line), *eq, *key, *val;

	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		char *name;

		if (!close)
			return iop_errf(err, -EINVAL, "%s: section header '%s' has no closing ']'",
					where, s);
		*close = '\0';
		if (*trim(close + 1))
			return iop_errf(err, -EINVAL, "%s: text after the section header ']'", where);
		name = trim(s + 1);
		if (!*name)
			return iop_errf(err, -EINVAL, "%s: empty section name '[]'", where);
		if (strlen(name) >= JOB_NAME_MAX)
			return iop_errf(err, -ENAMETOOLONG, "%s: section name longer than %d bytes",
					where, JOB_NAME_MAX - 1);
		if (!strcmp(name, "global")) {
			p->cur = &p->global;
			return 0;
		}
		p->cur = job_new(p, name, where, err);
		return p->cur ? 0 : -ENOMEM;
	}
	eq = strchr(s, '=');
	if (eq) {
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (!*key)
			return iop_errf(err, -EINVAL, "%s: value '%s' without an option name", where, val);
	} else {
		key = s;
		val = NULL;
	}
	return opt_apply(p->cur, key, val, where, err);
}

int job_parse_text(struct job_parser *p, const char *text, const char *origin,
		   struct iop_err *err)
{
	char where[PATH_MAX + 32];
	const char *line = text;
	unsigned lineno = 0;
	char *buf;
	int ret = 0;

	/* each job file starts outside any job section */
	p->cur = &p->global;
	while (*line && !ret) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		lineno++;
		snprintf(where, sizeof(where), "%s:%u", origin, lineno);
		buf = malloc(len + 1);
		if (!buf)
			return iop_errf(err, -ENOMEM, "%s: out of memory", where);
		memcpy(buf, line, len);
		buf[len] = '\0';
		ret = parse_line(p, buf, where, err);
		free(buf);
		line = nl ? nl + 1 : line + len;
	}
	p->files_parsed++;
	return ret;
}

int job_parse_file(struct job_parser *p, const char *path, struct iop_err *err)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	long len;
	int ret;

	if (!f)
		return iop_errf(err, -errno, "job file %s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		ret = -errno;
		fclose(f);
		return iop_errf(err, ret, "job file %s: cannot read: %s", path, strerror(-ret));
	}
	if ((unsigned long)len > JOB_FILE_MAX) {
		fclose(f);
		return iop_errf(err, -EFBIG, "job file %s: larger than %u MiB", path, JOB_FILE_MAX >> 20);
	}
	text = malloc((size_t)len + 1);
	if (!text) {
		fclose(f);
		return iop_errf(err, -ENOMEM, "job file %s: out of memory", path);
	}
	n = fread(text, 1, (size_t)len, f);
	fclose(f);
	text[n] = '\0';
	if (strlen(text) != n) {
		free(text);
		return iop_errf(err, -EINVAL, "job file %s: contains a NUL byte; not a text job file",
				path);
	}
	ret = job_parse_text(p, text, path, err);
	free(text);
	return ret;
}

int job_parse_cli(struct job_parser *p, const char *key, const char *val, struct iop_err *err)
{
	char where[96];

	snprintf(where, sizeof(where), "command line --%s", key);
	if (!strcmp(key, "name")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "%s: a job name may not be empty", where);
		if (strlen(val) >= JOB_NAME_MAX)
			return iop_errf(err, -ENAMETOOLONG, "%s: job name longer than %d bytes", where,
					JOB_NAME_MAX - 1);
		p->cur = job_new(p, val, "command line", err);
		if (!p->cur)
			return -ENOMEM;
	}
	return opt_apply(p->cur, key, val, where, err);
}

int job_parser_finish(struct job_parser *p, struct iop_err *err)
{
	unsigned i, group = 0;
	int ret;

	for (i = 0; i < p->list->nr; i++) {
		struct job_spec *job = &p->list->jobs[i];

		ret = job_finish(job, err);
		if (ret)
			return ret;
		if (i && job->stonewall)
			group++;
		job->groupid = group;
	}
	return 0;
}
