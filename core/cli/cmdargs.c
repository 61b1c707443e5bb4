/* Command-line helpers shared by the sweep, compare and history commands. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmdargs.h"

int arg_value(int argc, char **argv, int *i, const char *name, const char **val,
	      struct iop_err *err)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	if (strncmp(a, "--", 2) || strncmp(a + 2, name, len))
		return 0;
	if (a[2 + len] == '=') {
		*val = a + 3 + len;
		return 1;
	}
	if (a[2 + len])
		return 0;
	if (*i + 1 >= argc)
		return iop_errf(err, -EINVAL, "--%s needs a value", name);
	*val = argv[++*i];
	return 1;
}

int parse_percent(const char *opt, const char *s, double *out, struct iop_err *err)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0 || v > 1000)
		return iop_errf(err, -EINVAL, "%s '%s': expected a percentage such as 5%% or 2.5", opt, s);
	*out = v / 100;
	return 0;
}

int parse_count(const char *opt, const char *s, unsigned min, unsigned max, unsigned *out,
		struct iop_err *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (end == s || *end || errno || v < min || v > max || *s == '-')
		return iop_errf(err, -EINVAL, "%s '%s': expected a whole number from %u to %u", opt, s,
				min, max);
	*out = (unsigned)v;
	return 0;
}

struct str_list {
	char **v;
	int n, cap;
};

static int list_add(struct str_list *l, const char *s)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strdup(s);
	return l->v[l->n++] ? 0 : -ENOMEM;
}

static int walk(const char *dir, bool recursive, struct str_list *l, unsigned depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (depth > 8)
		return 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && recursive)
			ret = walk(path, recursive, l, depth + 1);
		else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(de->d_name + len - 5, ".json"))
			ret = list_add(l, path);
	}
	closedir(d);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void free_list(char **list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

int list_json_files(const char *dir, bool recursive, char ***out, struct iop_err *err)
{
	struct str_list l = { 0 };
	int ret = walk(dir, recursive, &l, 0);

	if (ret) {
		free_list(l.v, l.n);
		return iop_errf(err, ret, "%s: %s", dir, strerror(-ret));
	}
	if (l.n)
		qsort(l.v, (size_t)l.n, sizeof(*l.v), cmp_str);
	*out = l.v;
	return l.n;
}

static int load_one_into(const char *path, bool first, struct results *out, struct iop_err *err)
{
	struct results r;
	int ret;

	if (first)
		return results_load(path, out, err);
	ret = results_load(path, &r, err);
	if (ret)
		return ret;
	ret = results_merge(out, &r, err);
	results_free(&r);
	return ret;
}

int results_load_set(const char *spec, bool recursive, struct results *out, struct iop_err *err)
{
	struct str_list files = { 0 };
	char *copy = strdup(spec), *tok, *save = NULL;
	struct stat st;
	int i, ret = 0;

	if (!copy)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ",", &save); !ret && tok; tok = strtok_r(NULL, ",", &save)) {
		if (!stat(tok, &st) && S_ISDIR(st.st_mode)) {
			char **list;
			int n = list_json_files(tok, recursive, &list, err);

			if (n < 0) {
				ret = n;
				break;
			}
			if (!n)
				ret = iop_errf(err, -ENOENT, "%s: no .json result files in this directory", tok);
			for (i = 0; !ret && i < n; i++)
				ret = list_add(&files, list[i]);
			free_list(list, n);
		} else {
			ret = list_add(&files, tok);
		}
	}
	free(copy);
	if (!ret && !files.n)
		ret = iop_errf(err, -EINVAL, "no result file given");
	for (i = 0; !ret && i < files.n; i++)
		ret = load_one_into(files.v[i], i == 0, out, err);
	if (!ret && files.n > 1)
		snprintf(out->source, sizeof(out->source), "%s (%d files)", spec, files.n);
	if (ret && files.n && i > 1)
		results_free(out);
	free_list(files.v, files.n);
	return ret;
}
