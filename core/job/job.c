/* Job text (fio job files and --opt=value command lines) into a list of job specs. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "job/job.h"
#include "job/options.h"

#define JOB_FILE_MAX (16u << 20)
#define JOB_LINE_MAX 8192	/* fio's OPT_LEN_MAX */

void job_parser_init(struct job_parser *p, struct job_list *list)
{
	memset(p, 0, sizeof(*p));
	p->list = list;
	job_defaults(&p->global);
	snprintf(p->global.name, sizeof(p->global.name), "global");
	p->cur = &p->global;
}

void job_parser_fio_defaults(struct job_parser *p)
{
	p->fio_defaults = true;
	p->global.mem = MEM_MALLOC;
}

void job_parser_free(struct job_parser *p)
{
	free(p->warnings);
	p->warnings = NULL;
	p->nr_warnings = 0;
}

void job_list_free(struct job_list *list)
{
	free(list->jobs);
	list->jobs = NULL;
	list->nr = list->cap = 0;
}

static void warn(void *arg, const char *msg)
{
	struct job_parser *p = arg;
	char (*w)[JOB_WARN_LEN];

	w = realloc(p->warnings, (p->nr_warnings + 1) * sizeof(*w));
	if (!w)
		return;
	p->warnings = w;
	snprintf(w[p->nr_warnings++], JOB_WARN_LEN, "%s", msg);
}

static void warnf(struct job_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(struct job_parser *p, const char *fmt, ...)
{
	char msg[JOB_WARN_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(p, msg);
}

static struct job_spec *job_new(struct job_parser *p, const char *name, const char *origin,
				struct iop_err *err)
{
	struct job_list *l = p->list;
	struct job_spec *job;
	unsigned i;

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
	for (i = 0; i < job->nr_kv; i++)
		job->kv[i].own = false;	/* inherited: the global options' */
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

/* fio's keywords, replaced in option text. */
static void keyword_value(const char *word, char *buf, size_t len)
{
	struct sysinfo si;

	if (!strcmp(word, "$pagesize")) {
		snprintf(buf, len, "%ld", sysconf(_SC_PAGESIZE));
	} else if (!strcmp(word, "$ncpus")) {
		snprintf(buf, len, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	} else {
		/* $mb_memory: megabytes of total memory, as fio's os_phys_mem() */
		unsigned long long mb = 0;

		if (!sysinfo(&si))
			mb = (unsigned long long)si.totalram * si.mem_unit / (1024 * 1024);
		snprintf(buf, len, "%llu", mb);
	}
}

bool job_substitute(const char *s, char *buf, size_t len)
{
	static const char *const keywords[] = { "$pagesize", "$mb_memory", "$ncpus" };
	const char *close;
	size_t o = 0, i;
	bool found = false, hit;
	char v[256];

	while (*s && o + 1 < len) {
		close = s[0] == '$' && s[1] == '{' ? strchr(s, '}') : NULL;
		if (close && close > s + 2) {
			/* ${VAR}: the environment variable, or nothing when it is unset (fio's rule) */
			const char *env;

			snprintf(v, sizeof(v), "%.*s", (int)(close - s - 2), s + 2);
			env = getenv(v);
			o += (size_t)snprintf(buf + o, len - o, "%s", env ? env : "");
			s = close + 1;
			continue;
		}
		hit = false;
		for (i = 0; *s == '$' && i < sizeof(keywords) / sizeof(keywords[0]); i++) {
			if (strncmp(s, keywords[i], strlen(keywords[i])))
				continue;
			keyword_value(keywords[i], v, sizeof(v));
			o += (size_t)snprintf(buf + o, len - o, "%s", v);
			s += strlen(keywords[i]);
			found = hit = true;
			break;
		}
		if (!hit)
			buf[o++] = *s++;
	}
	if (o >= len)
		o = len - 1;
	buf[o] = '\0';
	return found;
}

static bool has_operator(const char *s)
{
	return strpbrk(s, "+-*/%^") != NULL;
}

/*
 * One "key[=value]" as written: substitute, split, and apply to job. fio hands a value with a
 * substituted keyword and arithmetic to bc as a whole; iopath evaluates it the same way, as if
 * it were in parentheses.
 */
static int apply_line(struct job_parser *p, struct job_spec *job, const char *text,
		      const char *where, struct iop_err *err)
{
	struct opt_ctx ctx = { NULL, p->ignore_unsupported, warn, p };
	char buf[JOB_LINE_MAX], wrapped[JOB_LINE_MAX + 2], written[JOB_LINE_MAX], *eq, *key;
	char *val = NULL;
	bool keyword = job_substitute(text, buf, sizeof(buf));
	const char *weq = strchr(text, '=');

	if (weq) {
		/* the report shows the value as written, as fio's "job options" does */
		snprintf(written, sizeof(written), "%s", weq + 1);
		ctx.written = trim(written);
	}

	eq = strchr(buf, '=');
	if (eq) {
		*eq = '\0';
		key = trim(buf);
		if (isspace((unsigned char)eq[1]) && *trim(eq + 1))
			warnf(p, "%s: a space after '=': fio 3.33 misreads such values (drops a size's suffix, refuses a word); iopath reads '%s=%s'",
			      where, key, trim(eq + 1));
		val = trim(eq + 1);
		if (!*key)
			return iop_errf(err, -EINVAL, "%s: value '%s' without an option name", where, val);
		if (keyword && val[0] != '(' && has_operator(val)) {
			snprintf(wrapped, sizeof(wrapped), "(%s)", val);
			val = wrapped;
		}
	} else {
		key = trim(buf);
	}
	if (job == &p->global && !strcmp(key, "name"))
		return 0;	/* a [global] section's name= names nothing */
	job->dryrun = p->dryrun;
	return opt_apply_ctx(job, key, val, where, &ctx, err);
}

/* The lines of one section, applied when the section ends (fio sorts them the same way). */
struct section {
	char name[JOB_NAME_MAX];
	bool active;
	bool global;
	bool skip;
	unsigned first_line;
	unsigned nr, cap;
	struct {
		char *text;
		char where[PATH_MAX + 32];
	} *lines;
};

static void section_clear(struct section *s)
{
	unsigned i;

	for (i = 0; i < s->nr; i++)
		free(s->lines[i].text);
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

static int section_add(struct section *s, const char *text, const char *where, struct iop_err *err)
{
	if (s->nr == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 16;
		void *l = realloc(s->lines, cap * sizeof(*s->lines));

		if (!l)
			return iop_errf(err, -ENOMEM, "%s: out of memory", where);
		s->lines = l;
		s->cap = cap;
	}
	s->lines[s->nr].text = strdup(text);
	if (!s->lines[s->nr].text)
		return iop_errf(err, -ENOMEM, "%s: out of memory", where);
	snprintf(s->lines[s->nr].where, sizeof(s->lines[0].where), "%s", where);
	s->nr++;
	return 0;
}

/*
 * A section's options are applied in the order of fio's option priorities (its sort_options):
 * those that change how others parse first (kb_base, ioengine), filename= and
 * filename_format= last (after directory=, and after an nrfiles= of the same section, which the
 * names then override), the others in the order written.
 */
static int option_prio(const char *text)
{
	size_t n = strcspn(text, "= \t");

	if ((n == 7 && !strncmp(text, "kb_base", 7)) || (n == 8 && !strncmp(text, "ioengine", 8)))
		return 1;
	if ((n == 8 && !strncmp(text, "filename", 8)) || (n == 15 && !strncmp(text, "filename_format", 15)))
		return -1;
	return 0;
}

static int section_finish(struct job_parser *p, struct section *s, bool *stonewall,
			  const char *origin, struct iop_err *err)
{
	struct job_spec *job = &p->global;
	unsigned pass, i;
	int ret = 0;

	if (!s->active || s->skip)
		goto out;
	if (!s->global) {
		char where[PATH_MAX + 32];

		snprintf(where, sizeof(where), "%s:%u", origin, s->first_line);
		job = job_new(p, s->name, where, err);
		if (!job) {
			ret = -ENOMEM;
			goto out;
		}
		if (*stonewall) {
			job->stonewall = true;
			*stonewall = false;
		}
	}
	for (pass = 0; pass < 3 && !ret; pass++)
		for (i = 0; i < s->nr && !ret; i++)
			if (option_prio(s->lines[i].text) == 1 - (int)pass)
				ret = apply_line(p, job, s->lines[i].text, s->lines[i].where, err);
out:
	section_clear(s);
	return ret;
}

static bool section_wanted(const struct job_parser *p, const char *name)
{
	unsigned i;

	if (!p->sections || !strncmp(name, "global", 6))
		return true;
	for (i = 0; i < p->nr_sections; i++)
		if (!strcmp(p->sections[i], name))
			return true;
	return false;
}

/* fio's strip_blank_end(): a ';' or '#' anywhere starts a comment. */
static char *strip_line(char *line)
{
	line[strcspn(line, ";#")] = '\0';
	return trim(line);
}

static int read_text(const char *path, char **out, struct iop_err *err);
static int parse_lines(struct job_parser *p, const char *text, const char *origin,
		       struct section *s, bool nested, bool *stonewall, struct iop_err *err);

/* "include FILE": as fio, FILE as given if it exists, else next to the including file. */
static int include_file(struct job_parser *p, const char *name, const char *origin,
			const char *where, struct section *s, struct iop_err *err)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(origin, '/');
	bool stonewall = false;
	char *text;
	unsigned i;
	int ret;

	if (!*name)
		return iop_errf(err, -EINVAL, "%s: include needs a file name", where);
	if (access(name, F_OK) && slash && name[0] != '/')
		snprintf(path, sizeof(path), "%.*s%s", (int)(slash - origin + 1), origin, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	if (!realpath(path, real))
		return iop_errf(err, -errno, "%s: include %s: %s", where, path, strerror(errno));
	for (i = 0; i < p->nr_includes; i++)
		if (!strcmp(p->includes[i], real))
			return iop_errf(err, -ELOOP, "%s: include %s: recursion (the file is already being read)",
					where, path);
	if (p->nr_includes == JOB_INCLUDE_DEPTH)
		return iop_errf(err, -ELOOP, "%s: include %s: more than %d nested includes", where,
				path, JOB_INCLUDE_DEPTH);
	ret = read_text(path, &text, err);
	if (ret) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return iop_errf(err, ret, "%s: include: %s", where, why);
	}
	p->includes[p->nr_includes++] = real;
	ret = parse_lines(p, text, path, s, true, &stonewall, err);
	p->nr_includes--;
	free(text);
	return ret;
}

static int section_start(struct job_parser *p, struct section *s, char *line, const char *where,
			 struct iop_err *err)
{
	char *close = strrchr(line, ']'), *name;

	if (!close)
		return iop_errf(err, -EINVAL, "%s: section header '%s' has no closing ']'", where, line);
	if (*trim(close + 1))
		return iop_errf(err, -EINVAL, "%s: text after the section header ']'", where);
	*close = '\0';
	name = trim(line + 1);
	if (!*name)
		return iop_errf(err, -EINVAL, "%s: empty section name '[]'", where);
	if (strlen(name) >= JOB_NAME_MAX)
		return iop_errf(err, -ENAMETOOLONG, "%s: section name longer than %d bytes", where,
				JOB_NAME_MAX - 1);
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->active = true;
	/* fio: any section whose name starts with "global" is a global section */
	s->global = !strncmp(name, "global", 6);
	s->skip = !section_wanted(p, name);
	return 0;
}

static int parse_lines(struct job_parser *p, const char *text, const char *origin,
		       struct section *s, bool nested, bool *stonewall, struct iop_err *err)
{
	char where[PATH_MAX + 32], *buf;
	const char *line = text;
	unsigned lineno = 0;
	int ret = 0;

	while (*line && !ret) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *l;

		lineno++;
		snprintf(where, sizeof(where), "%s:%u", origin, lineno);
		if (len >= JOB_LINE_MAX)
			return iop_errf(err, -E2BIG, "%s: line longer than %d bytes", where,
					JOB_LINE_MAX - 1);
		buf = malloc(len + 1);
		if (!buf)
			return iop_errf(err, -ENOMEM, "%s: out of memory", where);
		memcpy(buf, line, len);
		buf[len] = '\0';
		l = strip_line(buf);
		line = nl ? nl + 1 : line + len;
		if (!*l) {
			free(buf);
			continue;
		}
		if (*l == '[') {
			if (nested)
				ret = iop_errf(err, -EINVAL, "%s: an included file may not start sections (fio refuses it too)",
					       where);
			if (!ret)
				ret = section_finish(p, s, stonewall, origin, err);
			if (!ret)
				ret = section_start(p, s, l, where, err);
			s->first_line = lineno;
		} else if (!s->active) {
			ret = iop_errf(err, -EINVAL, "%s: option '%s' outside of any [section] (fio refuses it too)",
				       where, l);
		} else if (s->skip) {
			ret = 0;
		} else if (!strncmp(l, "include", 7) && isspace((unsigned char)l[7])) {
			ret = include_file(p, trim(l + 7), origin, where, s, err);
		} else {
			ret = section_add(s, l, where, err);
		}
		free(buf);
	}
	return ret;
}

int job_parse_text(struct job_parser *p, const char *text, const char *origin,
		   struct iop_err *err)
{
	struct section s = { 0 };
	bool stonewall = false;
	int ret;

	if (p->files_parsed) {
		/* fio resets its defaults between job files and separates them by a stonewall */
		if (p->cli_globals && p->files_parsed == 1)
			warnf(p, "%s: as in fio, the command line's global options apply only to the first job file",
			      origin);
		job_defaults(&p->global);
		if (p->fio_defaults)
			p->global.mem = MEM_MALLOC;
		snprintf(p->global.name, sizeof(p->global.name), "global");
		stonewall = true;
	}
	ret = parse_lines(p, text, origin, &s, false, &stonewall, err);
	if (!ret)
		ret = section_finish(p, &s, &stonewall, origin, err);
	section_clear(&s);
	p->files_parsed++;
	return ret;
}

static int read_text(const char *path, char **out, struct iop_err *err)
{
	/* O_NONBLOCK: a FIFO must not hold the parse; it is refused below, as a device is */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;
	char *text;
	size_t n;
	long len;
	int ret;

	if (fd < 0)
		return iop_errf(err, -errno, "job file %s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return iop_errf(err, ret, "job file %s: %s", path, strerror(-ret));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return iop_errf(err, -EINVAL,
				"job file %s: not a regular file (a %s); job files and includes must be files",
				path, S_ISDIR(st.st_mode) ? "directory" : S_ISFIFO(st.st_mode) ? "FIFO" :
				S_ISBLK(st.st_mode) ? "block device" : S_ISCHR(st.st_mode) ?
				"character device" : "socket");
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return iop_errf(err, ret, "job file %s: %s", path, strerror(-ret));
	}
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
	*out = text;
	return 0;
}

int job_parse_file(struct job_parser *p, const char *path, struct iop_err *err)
{
	char real[PATH_MAX];
	char *text;
	int ret;

	ret = read_text(path, &text, err);
	if (ret)
		return ret;
	if (realpath(path, real))
		p->includes[p->nr_includes++] = real;
	ret = job_parse_text(p, text, path, err);
	p->nr_includes = 0;
	free(text);
	return ret;
}

int job_parse_cli(struct job_parser *p, const char *key, const char *val, struct iop_err *err)
{
	char where[96], text[JOB_LINE_MAX];

	snprintf(where, sizeof(where), "command line --%s", key);
	if (!strcmp(key, "name")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "%s: a job name may not be empty", where);
		if (strlen(val) >= JOB_NAME_MAX)
			return iop_errf(err, -ENAMETOOLONG, "%s: job name longer than %d bytes", where,
					JOB_NAME_MAX - 1);
		if (!strncmp(val, "global", 6)) {
			/* fio: --name=global starts global options for the jobs after it */
			p->cur = &p->global;
			return 0;
		}
		if (!section_wanted(p, val)) {
			p->cur = NULL;
			return 0;
		}
		p->cur = job_new(p, val, "command line", err);
		if (!p->cur)
			return -ENOMEM;
		p->cli_jobs++;
	}
	if (!p->cur)
		return 0;	/* options of a section --section= left out */
	if (p->cur == &p->global)
		p->cli_globals = true;
	if (val)
		snprintf(text, sizeof(text), "%s=%s", key, val);
	else
		snprintf(text, sizeof(text), "%s", key);
	/* its errors name the option themselves ("command line: option bs: ...") */
	return apply_line(p, p->cur, text, "command line", err);
}

/* wait_for names an earlier job with a unique name (fio's stated limits). */
static int resolve_wait_for(struct job_list *l, unsigned i, struct iop_err *err)
{
	struct job_spec *job = &l->jobs[i];
	unsigned j, found = 0;

	if (!job->wait_for[0])
		return 0;
	for (j = 0; j < l->nr; j++) {
		if (strcmp(l->jobs[j].name, job->wait_for))
			continue;
		if (j >= i)
			return iop_errf(err, -EINVAL,
					"%s: wait_for=%s: the waited-for job must be defined before job '%s' (fio's rule)",
					job->origin, job->wait_for, job->name);
		found++;
		job->wait_for_index = j;
	}
	if (!found)
		return iop_errf(err, -EINVAL, "%s: wait_for=%s: no job of that name (job '%s')",
				job->origin, job->wait_for, job->name);
	if (found > 1)
		return iop_errf(err, -EINVAL, "%s: wait_for=%s: %u jobs have that name; the waited-for job must be unique",
				job->origin, job->wait_for, found);
	return 0;
}

int job_parser_finish(struct job_parser *p, struct iop_err *err)
{
	unsigned i, group = 0, phase = 0;
	int ret;

	p->list->nr_global_kv = p->global.nr_kv;
	memcpy(p->list->global_kv, p->global.kv, p->global.nr_kv * sizeof(p->global.kv[0]));
	for (i = 0; i < p->list->nr; i++) {
		struct job_spec *job = &p->list->jobs[i];

		job->global_kv = p->list->nr_global_kv ? p->list->global_kv : NULL;
		job->nr_global_kv = p->list->nr_global_kv;
		if (job->time.based && !job->time.runtime_ns) {
			/* fio's fixup_options: said, and the job runs by its size */
			warnf(p, "%s: job %s: time_based requires a runtime/timeout setting (as in fio, the job runs until its size is done)",
			      job->origin, job->name);
			job->time.based = false;
		}

		ret = job_finish(job, err);
		if (ret)
			return ret;
		/* fio's fixup_options says so too: the writes run until the runtime is up */
		if (job->verify.kind != VERIFY_NONE && job->verify.after_write &&
		    job_writes(job->rw) && !job_reads(job->rw) && job->time.based &&
		    job->time.runtime_ns && !job->verify.backlog)
			warnf(p, "%s: job %s: verification read phase will never start because write phase uses all of runtime",
			      job->origin, job->name);
		/* fio: stonewall and new_group start a reporting group; stonewall also waits */
		if (i && (job->stonewall || job->new_group))
			group++;
		if (i && job->stonewall)
			phase++;
		job->groupid = group;
		job->phase = phase;
		ret = resolve_wait_for(p->list, i, err);
		if (ret)
			return ret;
	}
	return 0;
}
