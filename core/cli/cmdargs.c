/* Command-line helpers shared by the commands: value options, result sets, the database. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/msg.h"
#include "cli/cmdargs.h"
#include "results/runid.h"
#include "report/output.h"
#include "report/report.h"
#include "stats/metrics.h"

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

int html_check_path(const char *opt, const char *path, struct iop_err *err)
{
	if (!strcmp(path, "-"))
		return 0;
	return atomic_check_as(opt, path, err);
}

static int parse_alpha(const char *opt, const char *s, double *out, struct iop_err *err)
{
	char *end;

	*out = strtod(s, &end);
	if (end == s || *end || !(*out > 0 && *out < 1))
		return iop_errf(err, -EINVAL, "%s '%s': expected a level between 0 and 1, e.g. 0.05", opt, s);
	return 0;
}

int arg_table(int argc, char **argv, int *i, const struct arg_opt *opts, struct iop_err *err)
{
	const struct arg_opt *o;
	const char *v;
	char opt[64];
	int ret = 0;

	for (o = opts; o->name; o++) {
		ret = arg_value(argc, argv, i, o->name, &v, err);
		if (ret)
			break;
	}
	if (ret <= 0)
		return ret;
	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->kind) {
	case ARG_STRING:
		*o->dst.s = v;
		return 1;
	case ARG_HTML:
		ret = html_check_path(opt, v, err);
		if (!ret)
			*o->dst.s = v;
		break;
	case ARG_PERCENT:
		ret = parse_percent(opt, v, o->dst.d, err);
		break;
	case ARG_ALPHA:
		ret = parse_alpha(opt, v, o->dst.d, err);
		break;
	case ARG_REPEAT:
		ret = parse_count(opt, v, 1, 1000, o->dst.u, err);
		break;
	case ARG_METRICS:
		ret = metric_parse_list(v, o->dst.u, err);
		break;
	}
	return ret ? ret : 1;
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

/* What a walk has met, by device and inode: a directory is entered once, a file listed once. */
struct walk_seen {
	dev_t *dev;
	ino_t *ino;
	unsigned n;
};

/* Was (st_dev, st_ino) met before? If not, it is now. -ENOMEM, 1 met, 0 new. */
static int walk_meet(struct walk_seen *w, const struct stat *st)
{
	dev_t *d;
	ino_t *i;
	unsigned k;

	for (k = 0; k < w->n; k++)
		if (w->dev[k] == st->st_dev && w->ino[k] == st->st_ino)
			return 1;
	d = realloc(w->dev, (w->n + 1) * sizeof(*d));
	if (d)
		w->dev = d;
	i = realloc(w->ino, (w->n + 1) * sizeof(*i));
	if (i)
		w->ino = i;
	if (!d || !i)
		return -ENOMEM;
	w->dev[w->n] = st->st_dev;
	w->ino[w->n++] = st->st_ino;
	return 0;
}

/*
 * The *.json files under dir. Links are followed (a results directory may gather others by
 * links), but a directory or file met before, through a link or a link loop, is not again.
 */
static int walk(const char *dir, bool recursive, struct str_list *l, struct walk_seen *w,
		unsigned depth)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0, met = 0;

	if (depth > 32)
		return 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	if (fstat(dirfd(d), &st) || (met = walk_meet(w, &st)) != 0) {
		ret = met < 0 ? met : 0;
		closedir(d);
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && recursive)
			ret = walk(path, recursive, l, w, depth + 1);
		else if (S_ISREG(st.st_mode) && len > 5 && !strcmp(de->d_name + len - 5, ".json") &&
			 !(ret = walk_meet(w, &st)))
			ret = list_add(l, path);
		if (ret > 0)
			ret = 0;
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
	struct walk_seen w = { 0 };
	int ret = walk(dir, recursive, &l, &w, 0);

	free(w.dev);
	free(w.ino);
	if (ret) {
		free_list(l.v, l.n);
		return iop_errf(err, ret, "%s: %s", dir, strerror(-ret));
	}
	if (l.n)
		qsort(l.v, (size_t)l.n, sizeof(*l.v), cmp_str);
	*out = l.v;
	return l.n;
}

void seen_free(struct seen_runs *s)
{
	free_list(s->from, (int)s->n);
	free(s->fp);
	memset(s, 0, sizeof(*s));
}

int seen_meet(struct seen_runs *s, const struct results *r, const char **first)
{
	uint64_t fp = results_fingerprint(r), *nfp;
	char **nfrom;
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->fp[i] == fp) {
			*first = s->from[i];
			return 1;
		}
	nfp = realloc(s->fp, (s->n + 1) * sizeof(*nfp));
	if (nfp)
		s->fp = nfp;
	nfrom = realloc(s->from, (s->n + 1) * sizeof(*nfrom));
	if (nfrom)
		s->from = nfrom;
	if (!nfp || !nfrom || !(s->from[s->n] = strdup(r->source)))
		return -ENOMEM;
	s->fp[s->n++] = fp;
	return 0;
}

/*
 * Merge src into *out (the first one loaded becomes out), unless it is a run pooled already
 * (the same file twice, through another name or a link, a copy, or a run of the database
 * given twice): its samples would count as more repeats, so it is refused.
 */
static int pool(struct results *out, struct results *src, struct seen_runs *seen,
		unsigned before, struct iop_err *err)
{
	const char *first;
	int ret = seen_meet(seen, src, &first);

	if (ret) {
		if (ret > 0)
			ret = iop_errf(err, -EINVAL, "%s is the same run as %s (given twice, its samples would count twice); give each run once",
				       src->source, first);
		else
			iop_errf(err, ret, "out of memory");
		results_free(src);
		return ret;
	}
	if (seen->n == before + 1) {
		*out = *src;
		return 0;
	}
	ret = results_merge(out, src, err);
	results_free(src);
	return ret;
}

/* The runs a selector names, one by one, into out. */
static int pool_selector(struct store *st, const char *sel, struct results *out,
			 struct seen_runs *seen, unsigned before, struct iop_err *err)
{
	struct results r;
	int64_t *ids;
	unsigned n, i;
	int ret = store_run_ids(st, sel, &ids, &n, err);

	if (ret)
		return ret;
	if (!n)
		ret = iop_errf(err, -ENOENT, "%s: no run matches '%s'", st->db.where, sel);
	for (i = 0; !ret && i < n; i++) {
		ret = store_load_run(st, ids[i], &r, err);
		if (!ret) {
			snprintf(r.source, sizeof(r.source), "%s run %" PRId64, st->db.where, ids[i]);
			ret = pool(out, &r, seen, before, err);
		}
	}
	free(ids);
	return ret;
}

int results_load_seen(const char *spec, bool recursive, const char *db, struct results *out,
		      struct seen_runs *seen, struct iop_err *err)
{
	struct str_list files = { 0 };
	char *copy = strdup(spec), *tok, *save = NULL;
	unsigned before = seen->n, met;
	struct store st;
	bool st_open = false;
	struct results r;
	struct stat sb;
	int i, ret = 0;

	if (!copy)
		return iop_errf(err, -ENOMEM, "out of memory");
	/* an empty element ("A.json,", "run:1,,run:2", ",,,") is a mistake: never dropped */
	if (!*spec || *spec == ',' || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,")) {
		free(copy);
		return iop_errf(err, -EINVAL, "'%s': an empty element in the list (accepted: result files, directories and run selectors, comma-separated)",
				spec);
	}
	for (tok = strtok_r(copy, ",", &save); !ret && tok; tok = strtok_r(NULL, ",", &save)) {
		if (!stat(tok, &sb) && S_ISDIR(sb.st_mode)) {
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
		} else if (stat(tok, &sb) && store_is_selector(tok)) {
			/* a run selector: the runs it names, from the database */
			if (!st_open && !(ret = store_open(&st, db ? db : store_default_db(), false, err)))
				st_open = true;
			if (!ret)
				ret = pool_selector(&st, tok, out, seen, before, err);
		} else {
			ret = list_add(&files, tok);
		}
	}
	free(copy);
	if (st_open)
		store_close(&st);
	if (!ret && !files.n && seen->n == before)
		ret = iop_errf(err, -EINVAL, "no result file given");
	for (i = 0; !ret && i < files.n; i++)
		if (!(ret = results_load(files.v[i], &r, err)))
			ret = pool(out, &r, seen, before, err);
	met = seen->n - before;
	if (!ret && (files.n > 1 || (files.n && met > (unsigned)files.n)))
		snprintf(out->source, sizeof(out->source), "%s (%u files/runs)", spec, met);
	else if (!ret && met > 1)
		snprintf(out->source, sizeof(out->source), "%s", spec);
	if (ret && met)
		results_free(out);
	free_list(files.v, files.n);
	return ret;
}

int results_load_set(const char *spec, bool recursive, const char *db, struct results *out,
		     struct iop_err *err)
{
	struct seen_runs seen = { 0 };
	int ret = results_load_seen(spec, recursive, db, out, &seen, err);

	seen_free(&seen);
	return ret;
}

const char *db_spec(const char *db, const char *results_dir, char *buf, size_t len)
{
	if (db)
		return db;
	if (results_dir) {
		snprintf(buf, len, "%s/iopath.db", results_dir);
		return buf;
	}
	return store_default_db();
}

int store_import_file(struct store *st, const char *path, int64_t *id, struct iop_err *err)
{
	char real[PATH_MAX];
	struct results r;
	int ret;

	if (!realpath(path, real))
		return iop_errf(err, -errno, "%s: %s", path, strerror(errno));
	ret = results_load(path, &r, err);
	if (ret)
		return ret;
	ret = store_save(st, &r, real, id, err);
	results_free(&r);
	return ret;
}

/*
 * The JSON store of earlier versions (DIR/NAME/<time>-<host>.json beside DIR/iopath.db),
 * imported when the database is made; the files stay where they are.
 */
static void import_json_store(struct store *st, const char *spec)
{
	char dir[PATH_MAX], sub[PATH_MAX + 256], *slash, **list;
	struct iop_err err = { "" };
	unsigned imported = 0;
	struct dirent *de;
	int64_t id;
	DIR *d;
	int n, i;

	snprintf(dir, sizeof(dir), "%s", spec);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		n = list_json_files(sub, false, &list, &err);
		for (i = 0; i < n; i++) {
			struct results r;

			/* only result files of the old store: iopath results with a schema */
			if (results_load(list[i], &r, &err))
				continue;
			if (!strcmp(r.format, "iopath-results") && !store_import_file(st, list[i], &id, &err))
				imported++;
			results_free(&r);
		}
		if (n > 0)
			free_list(list, n);
	}
	closedir(d);
	if (imported)
		fprintf(stderr, "iopath: imported %u run(s) of the JSON store under %s into %s (the files stay; iopath reads the database from now on)\n",
			imported, dir, st->db.where);
}

int save_check(const char *spec, struct iop_err *err)
{
	struct store st;
	char msg[sizeof(err->msg)];
	int ret = store_open(&st, spec, true, err);

	if (!ret) {
		if (st.created && st.db.kind == DB_SQLITE)
			import_json_store(&st, spec);
		store_close(&st);
		return 0;
	}
	if (ret == -EBUSY)
		iop_errf(err, ret, "--db %s: locked by another writer for longer than the busy timeout (%u s, $IOPATH_DB_TIMEOUT); try again",
			 spec, db_busy_timeout_ms() / 1000);
	else if (strncmp(err->msg, "--db ", 5)) {
		snprintf(msg, sizeof(msg), "%s", err->msg);
		iop_errf(err, ret, "--db %s: %s", spec, msg);
	}
	return ret;
}

static char kept_path[PATH_MAX];
static int kept_ret;

/* The one fallback file of this process: written once, named again by later failures. */
static void say_kept(const char *what, bool importable)
{
	if (!kept_ret && importable)
		fprintf(stderr, "iopath: %s failed; the whole result is kept in %s (iopath results import %s saves it)\n",
			what, kept_path, kept_path);
	else if (!kept_ret)
		fprintf(stderr, "iopath: %s failed; the whole result is kept in %s\n", what, kept_path);
	else
		fprintf(stderr, "iopath: %s failed, and the result could not be kept in %s either: %s\n",
			what, kept_path, strerror(-kept_ret));
}

void results_keep(const struct results *r, const char *what)
{
	struct iop_err err = { "" };

	if (!kept_path[0]) {
		output_fallback_path(kept_path, sizeof(kept_path), "json");
		kept_ret = results_write(r, kept_path, &err);
	}
	say_kept(what, true);
}

void json_keep(json_t *root, const char *what, bool importable)
{
	if (!kept_path[0]) {
		output_fallback_path(kept_path, sizeof(kept_path), "json");
		kept_ret = root ? report_json_write(root, kept_path) : -ENOMEM;
	}
	say_kept(what, importable);
}

int save_to_db(const struct results *r, const char *spec)
{
	struct iop_err err = { "" };
	struct store st;
	int64_t id;
	int ret = store_open(&st, spec, true, &err);

	if (!ret && st.created && st.db.kind == DB_SQLITE)
		import_json_store(&st, spec);
	if (!ret)
		ret = store_save(&st, r, NULL, &id, &err);
	if (ret) {
		fprintf(stderr, "iopath: --save: %s\n", err.msg);
		results_keep(r, "--save");
	} else {
		fprintf(stderr, "iopath: saved run %lld into %s\n", (long long)id, st.db.where);
	}
	store_close(&st);
	return ret;
}

static FILE *debug_file;

void debug_lines_to(FILE *f)
{
	debug_file = f;
}

void print_debug(unsigned type, const char *line)
{
	FILE *f = debug_file ? debug_file : stdout;

	flockfile(f);
	fprintf(f, "%-8s %-5d %s\n", iop_debug_names[type], (int)gettid(), line);
	funlockfile(f);
}

bool cmp_flag_arg(const char *arg, struct cmp_opts *o)
{
	if (!strcmp(arg, "--strict"))
		o->strict = true;
	else if (!strcmp(arg, "--allow-inconclusive"))
		o->allow_inconclusive = true;
	else if (!strcmp(arg, "--ignore-environment"))
		o->ignore_env = true;
	else
		return false;
	return true;
}
