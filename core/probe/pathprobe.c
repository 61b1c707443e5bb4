/* The probes of the paths a run touches: described once, checked against jobs, embedded in results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "probe/pathprobe.h"

void probe_dir_of(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		snprintf(out, PATH_MAX, "%s", path);
	else if (!slash)
		snprintf(out, PATH_MAX, ".");
	else
		snprintf(out, PATH_MAX, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

static struct probed_dir *find(struct probe_set *s, const char *dir)
{
	unsigned i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->dirs[i]->dir, dir))
			return s->dirs[i];
	return NULL;
}

static void probe_one(struct probed_dir *d, unsigned flags)
{
	struct iop_err err;

	memset(&d->p, 0, sizeof(d->p));
	d->flags = flags;
	d->error = probe_path(d->dir, flags, &d->p, &err);
}

const struct probed_dir *probe_set_need(struct probe_set *s, const char *dir, unsigned flags)
{
	struct probed_dir *d = find(s, dir);

	if (!s->have_host) {
		probe_host(&s->host);
		s->have_host = true;
	}
	if (d) {
		if ((d->flags | flags) != d->flags)
			probe_one(d, d->flags | flags);
		return d;
	}
	if (s->nr == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 4;
		struct probed_dir **dirs = realloc(s->dirs, cap * sizeof(*dirs));

		if (!dirs)
			return NULL;
		s->dirs = dirs;
		s->cap = cap;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	probe_one(d, flags);
	s->dirs[s->nr++] = d;
	return d;
}

void probe_set_free(struct probe_set *s)
{
	unsigned i;

	for (i = 0; i < s->nr; i++)
		free(s->dirs[i]);
	free(s->dirs);
	memset(s, 0, sizeof(*s));
}

json_t *probe_set_json(struct probe_set *s)
{
	json_t *o = json_object(), *targets = json_array(), *host;
	char line[512];
	unsigned i;

	if (!s->have_host) {
		probe_host(&s->host);
		s->have_host = true;
	}
	host = probe_host_json(&s->host);
	if (!o || !targets || !host)
		goto fail;
	json_object_set_new(o, "host", host);
	host = NULL;
	for (i = 0; i < s->nr; i++) {
		const struct probed_dir *d = s->dirs[i];
		json_t *t = d->error ? json_object() : probe_path_json(&d->p);

		if (!t)
			goto fail;
		json_object_set_new(t, "dir", json_string(d->dir));
		if (d->error) {
			json_object_set_new(t, "error", json_string(strerror(-d->error)));
		} else {
			probe_summary(&d->p, &s->host, line, sizeof(line));
			json_object_set_new(t, "summary", json_string(line));
		}
		json_array_append_new(targets, t);
	}
	json_object_set_new(o, "targets", targets);
	return o;
fail:
	json_decref(o);
	json_decref(targets);
	json_decref(host);
	return NULL;
}
