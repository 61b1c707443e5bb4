/* Charts with gnuplot: data and script files per chart, rendered to PNG and SVG. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/atomic.h"
#include "results/plot.h"
#include "results/history.h"
#include "results/report_cells.h"

/* Text safe inside a gnuplot double-quoted string or a quoted data column. */
static void gp_quote(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 1 < len; src++) {
		if (*src == '"')
			dst[o++] = '\'';
		else if (*src == '\\')
			dst[o++] = '/';
		else if ((unsigned char)*src >= 0x20)
			dst[o++] = *src;
	}
	dst[o] = '\0';
}

/*
 * A gnuplot string expression holding src as data: single-quoted pieces (no backquote
 * substitution, no escapes inside), a quote or a newline joined on as the constant "'" or
 * "\n", other control characters dropped. Nothing in src can end the string or run a command.
 */
static void gp_lit(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	if (len < 3) {
		dst[0] = '\0';
		return;
	}
	dst[o++] = '\'';
	for (; *src && o + 9 < len; src++) {
		if (*src == '\'') {
			memcpy(dst + o, "'.\"'\".'", 7);
			o += 7;
		} else if (*src == '\n') {
			memcpy(dst + o, "'.\"\\n\".'", 8);
			o += 8;
		} else if ((unsigned char)*src >= 0x20 && *src != 0x7f) {
			dst[o++] = *src;
		}
	}
	dst[o++] = '\'';
	dst[o] = '\0';
}

/*
 * An existing chart directory may hold only what iopath wrote there: its charts and their
 * data (marked, each checked on the file opened without following links), empty files, and
 * the private directories of an earlier drawing. Anything else (a file of the user's, a
 * link, a device, a directory of theirs) refuses the directory before the run, naming it.
 */
static int plot_dir_is_ours(const char *opt, const char *dir, struct iop_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return iop_errf(err, -errno, "%s %s: %s", opt, dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		struct stat st;
		int fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st))
			ret = -(errno == ELOOP ? ELOOP : errno);
		else if (S_ISDIR(st.st_mode) && strncmp(de->d_name, ".iopath-plot.", 13))
			ret = -EISDIR;
		else if (S_ISREG(st.st_mode) && st.st_size && !iop_marked_fd(fd))
			ret = -EEXIST;
		else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			ret = -EPERM;
		if (fd >= 0)
			close(fd);
		if (ret)
			ret = iop_errf(err, ret,
				       "%s %s: %s/%s is %s, which iopath did not write; iopath draws charts only into a new directory or one holding only its own charts (name another)",
				       opt, dir, dir, de->d_name,
				       ret == -ELOOP ? "a symbolic link" : ret == -EEXIST ? "a file of someone else's" :
				       ret == -EISDIR ? "a directory" : ret == -EPERM ? "not a regular file" : strerror(-ret));
	}
	closedir(d);
	return ret;
}

/* Whether an executable gnuplot is on $PATH (the charts are its work; found before any I/O). */
static bool gnuplot_found(void)
{
	const char *path = getenv("PATH"), *p, *end;
	char name[PATH_MAX];

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(name, sizeof(name), "%.*s/gnuplot", end > p ? (int)(end - p) : 1,
			     end > p ? p : ".") < (int)sizeof(name) && !access(name, X_OK))
			return true;
	}
	return false;
}

int plot_check_dir(const char *opt, const char *dir, struct iop_err *err)
{
	struct stat st;

	if (!dir[0])
		return iop_errf(err, -EINVAL, "%s needs a directory", opt);
	if (!gnuplot_found())
		return iop_errf(err, -ENOENT, "%s %s: gnuplot, which draws the charts, is not on $PATH: install it (Debian: apt-get install gnuplot-nox; scripts/deps.sh does), or leave out %s",
				opt, dir, opt);
	if (strlen(dir) > PATH_MAX - 64)
		return iop_errf(err, -ENAMETOOLONG, "%s: directory name longer than %d bytes", opt,
				PATH_MAX - 64);
	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			return 0;
		return iop_errf(err, -errno, "%s %s: %s", opt, dir, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return iop_errf(err, -ELOOP,
				"%s %s is a symbolic link; iopath writes charts only into a directory it names directly (give the directory the link points to)",
				opt, dir);
	if (!S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "%s %s exists and is not a directory", opt, dir);
	return plot_dir_is_ours(opt, dir, err);
}

/*
 * The charts are drawn in a fresh private directory inside dir (gnuplot opens its outputs by
 * name, following links and truncating), then each file is moved into dir under the output
 * rules: never over a link, a device or a file iopath did not write.
 */
static int plot_begin(const char *dir, char *work, size_t len, struct iop_err *err)
{
	int ret = plot_check_dir("--plot", dir, err);

	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return iop_errf(err, -errno, "cannot create %s: %s", dir, strerror(errno));
	ret = plot_check_dir("--plot", dir, err);
	if (ret)
		return ret;
	if (snprintf(work, len, "%s/.iopath-plot.XXXXXX", dir) >= (int)len)
		return iop_errf(err, -ENAMETOOLONG, "--plot: directory name too long: %s", dir);
	if (!mkdtemp(work))
		return iop_errf(err, -errno, "cannot create a directory in %s: %s", dir,
				strerror(errno));
	return 0;
}

static int plot_finish(const char *work, const char *dir, int ret, struct iop_err *err)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(work);
	int r2 = 0;

	while (d && (de = readdir(d))) {
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(from, sizeof(from), "%s/%s", work, de->d_name);
		snprintf(to, sizeof(to), "%s/%s", dir, de->d_name);
		fd = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			(void)iop_mark_fd(fd);
			close(fd);
		}
		/* charts that failed (a full filesystem) are not placed: none is left half written */
		if (!ret && !r2 && (r2 = atomic_place(from, to, false)))
			ret = iop_errf(err, r2, "--plot: %s: %s (iopath writes charts only to new files or its own, never through links or onto devices)",
				       to, strerror(-r2));
		if (ret || r2)
			unlink(from);
	}
	if (d)
		closedir(d);
	rmdir(work);
	return ret;
}

static FILE *open_in(const char *dir, const char *name, struct iop_err *err)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		iop_errf(err, -errno, "cannot write %s: %s", path, strerror(errno));
	return f;
}

static int close_checked(FILE *f, const char *dir, const char *name, struct iop_err *err)
{
	if (ferror(f) | fclose(f))
		return iop_errf(err, -EIO, "cannot write %s/%s", dir, name);
	return 0;
}

/* Run gnuplot on work/script with work as the working directory (dir: where it ends up). */
static int run_gnuplot(const char *work, const char *script, struct iop_err *err)
{
	const char *slash = strrchr(work, '/');
	char dir[PATH_MAX];

	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return iop_errf(err, -errno, "cannot start gnuplot: %s", strerror(errno));
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - work) : 1, slash ? work : ".");
	if (!pid) {
		int log;

		if (chdir(work))
			_exit(126);
		/* gnuplot's warnings (an empty series...) go to a log beside the charts */
		log = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log >= 0)
			dup2(log, STDERR_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return iop_errf(err, -errno, "waiting for gnuplot: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return iop_errf(err, -ENOENT, "gnuplot not found: install it (Debian: apt-get install gnuplot-nox; scripts/deps.sh does)");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return iop_errf(err, -EIO, "gnuplot failed on %s/%s (exit %d; see %s/gnuplot.log)", dir, script,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), dir);
	return 0;
}

/*
 * title with every line longer than max characters broken at its last space before max (a
 * gnuplot title does not wrap; one wider than the picture is cut at both ends).
 */
static void wrap_title(const char *title, char *out, size_t len, size_t max)
{
	size_t n = 0, line = 0, space = 0;

	for (; *title && n + 1 < len; title++) {
		out[n] = *title;
		if (*title == '\n') {
			line = space = 0;
		} else {
			if (*title == ' ')
				space = n;
			if (++line > max && space) {
				out[space] = '\n';
				line = n - space;
				space = 0;
			}
		}
		n++;
	}
	out[n] = '\0';
}

/* Font 9's characters are about this many pixels wide, its lines this many high. */
#define GP_CHAR_PX 7
#define GP_LINE_PX 14

/*
 * The width a chart of rows x tick labels needs so that upright labels do not overlap: at
 * least width, at most 6000 pixels.
 */
static int xtics_width(int width, unsigned rows)
{
	int need = 300 + GP_LINE_PX * (int)rows;

	return need > width ? (need > 6000 ? 6000 : need) : width;
}

/* The height that leaves the plot its room under turned labels of len characters. */
static int xtics_height(int height, size_t len)
{
	return height + (int)(0.72 * (double)len * GP_CHAR_PX) - 120;
}

/*
 * x tick labels that neither overlap nor leave the picture: turned 45 degrees and ending at
 * their tick where their spacing allows (the left margin holding the first, of first_len
 * characters), else upright.
 */
static void gp_xtics(FILE *f, int width, unsigned rows, size_t first_len)
{
	double dx = rows ? (double)(width - 300) / rows : width;

	if (dx * 0.707 >= GP_LINE_PX) {
		int lm = (int)(0.72 * (double)first_len - dx / (2 * GP_CHAR_PX)) + 2;

		fprintf(f, "set xtics rotate by 45 right noenhanced\n");
		if (lm > 10)
			fprintf(f, "set lmargin %d\n", lm);
	} else {
		fprintf(f, "set xtics rotate by 90 right noenhanced\n");
	}
}

/* The script's common head and the lines that render the plot into NAME.png and NAME.svg. */
static void gp_head(FILE *f, const char *script, const char *title, int width, int height)
{
	char lit[16384], wrapped[8192];

	wrap_title(title, wrapped, sizeof(wrapped), (size_t)(width / GP_CHAR_PX) - 8);
	gp_lit(lit, sizeof(lit), wrapped);
	fprintf(f, "# written by iopath; re-render in this directory with: gnuplot %s\n", script);
	fprintf(f, "set termoption noenhanced\n");
	fprintf(f, "set title %s noenhanced\n", lit);
	fprintf(f, "set key outside right top noenhanced\nset grid ytics\n");
	fprintf(f, "set datafile missing 'NaN'\n");
	fprintf(f, "W = %d\nH = %d\n", width, height);
}

static void gp_render(FILE *f, const char *name, const char *plot_cmd)
{
	fprintf(f, "set terminal pngcairo noenhanced size W,H font ',9'\nset output '%s.png'\n%s\n",
		name, plot_cmd);
	fprintf(f, "set terminal svg noenhanced size W,H dynamic font ',9'\nset output '%s.svg'\n%s\n",
		name, plot_cmd);
	fprintf(f, "unset output\n");
}

/* ---- grouping of a sweep's cells ---- */

#define NAMES_MAX 256

struct names {
	unsigned n;
	char *v[NAMES_MAX];
};

static int names_index(struct names *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return (int)i;
	if (s->n == NAMES_MAX)
		return -1;
	s->v[s->n] = strdup(name);
	return s->v[s->n] ? (int)s->n++ : -1;
}

static void names_free(struct names *s)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

static void strcat_kv(char *buf, size_t len, const char *k, const char *v, bool with_key)
{
	size_t o = strlen(buf);

	snprintf(buf + o, len - o, "%s%s%s%s", o ? " " : "", with_key ? k : "", with_key ? "=" : "", v);
}

/* A cell's series name (engine, and direct when it varies) and group (the rest that varies). */
static void split_cell(const struct cell *c, const char **vary, unsigned nv, const char *skip,
		       char *series, char *group, size_t len)
{
	const char *target = json_string_value(json_object_get(c->identity, "target"));
	unsigned k;

	series[0] = group[0] = '\0';
	/* grouped by target: its role heads every group, varying or not */
	if (target)
		strcat_kv(group, len, "target", target, false);
	for (k = 0; k < nv; k++) {
		const char *v = json_string_value(json_object_get(c->identity, vary[k]));

		if (!v)
			v = "-";
		if (!strcmp(vary[k], "engine"))
			strcat_kv(series, len, vary[k], v, false);
		else if (!strcmp(vary[k], "direct"))
			strcat_kv(series, len, vary[k], v, true);
		else if ((!skip || strcmp(vary[k], skip)) && strcmp(vary[k], "target"))
			strcat_kv(group, len, vary[k], v, true);
	}
	if (!series[0])
		snprintf(series, len, "%s",
			 json_string_value(json_object_get(c->identity, "engine")) ?: "all");
	if (!group[0])
		snprintf(group, len, "%s", json_string_value(json_object_get(c->identity, "target")) ?: "all");
}

/* What every cell shares, and where: the part of a title that says what was measured. */
static void title_context(const struct results *r, const char **vary, unsigned nv, char *buf,
			  size_t len)
{
	const char *all[64];
	unsigned n = cells_identity_keys(r, false, all, 64), i, j;
	const char *kernel = results_env_str(r, "host.kernel"), *hv = results_env_str(r, "host.hypervisor");
	const char *host = results_env_str(r, "hostname");
	const json_t *t;
	size_t k;
	char line[1024] = "";

	for (i = 0; i < n; i++) {
		for (j = 0; j < nv && strcmp(vary[j], all[i]); j++)
			;
		if (j == nv && r->nr)
			strcat_kv(line, sizeof(line), all[i],
				  json_string_value(json_object_get(r->cells[0].identity, all[i])) ?: "", true);
	}
	snprintf(buf, len, "%s\n", line);
	json_array_foreach(r->targets, k, t) {
		const char *s = json_string_value(json_object_get(t, "summary"));
		size_t o = strlen(buf);

		snprintf(buf + o, len - o, "%s%s=%s%s%s%s", k ? "\n" : "",
			 json_string_value(json_object_get(t, "role")) ?: "?",
			 json_string_value(json_object_get(t, "path")) ?: "?", s ? " (" : "", s ? s : "",
			 s ? ")" : "");
	}
	{
		size_t o = strlen(buf);

		snprintf(buf + o, len - o, "\nhost %s, kernel %s, %s", host ? host : "?",
			 kernel ? kernel : "?", hv && *hv ? hv : "hypervisor unknown");
	}
}

struct grid {
	struct names series, groups;
	int *cell_of;	/* [group * NAMES_MAX + series] = cell index or -1 */
};

static int grid_build(const struct results *r, const char **vary, unsigned nv, const char *skip,
		      struct grid *g, struct iop_err *err)
{
	char series[512], group[512];
	unsigned i;

	memset(g, 0, sizeof(*g));
	g->cell_of = malloc(sizeof(int) * NAMES_MAX * NAMES_MAX);
	if (!g->cell_of)
		return iop_errf(err, -ENOMEM, "out of memory for charts");
	for (i = 0; i < NAMES_MAX * NAMES_MAX; i++)
		g->cell_of[i] = -1;
	for (i = 0; i < r->nr; i++) {
		int s, gi;

		split_cell(&r->cells[i], vary, nv, skip, series, group, sizeof(series));
		s = names_index(&g->series, series);
		gi = names_index(&g->groups, group);
		if (s < 0 || gi < 0)
			return iop_errf(err, -E2BIG, "too many series or groups to chart (at most %d)",
					NAMES_MAX);
		g->cell_of[gi * NAMES_MAX + s] = (int)i;
	}
	return 0;
}

static void grid_free(struct grid *g)
{
	names_free(&g->series);
	names_free(&g->groups);
	free(g->cell_of);
}

static void put_value(FILE *f, const struct results *r, int ci, enum metric_id m, bool range)
{
	struct rsummary s;
	double div = metric_table[m].display_div;

	if (ci < 0 || cell_summary(&r->cells[ci], m, &s)) {
		fprintf(f, range ? " NaN NaN NaN" : " NaN");
		return;
	}
	if (range)
		fprintf(f, " %.6g %.6g %.6g", s.median / div, s.min / div, s.max / div);
	else
		fprintf(f, " %.6g", s.median / div);
}

static bool series_has_data(const struct results *r, const struct grid *g, unsigned s,
			    enum metric_id m)
{
	struct rsummary sum;
	unsigned gi;

	for (gi = 0; gi < g->groups.n; gi++) {
		int ci = g->cell_of[gi * NAMES_MAX + s];

		if (ci >= 0 && !cell_summary(&r->cells[ci], m, &sum))
			return true;
	}
	return false;
}

/* Clustered bars of metric m: groups on x, one bar per series, min-max error bars. */
static int chart_bars(const struct results *r, const struct grid *g, enum metric_id m,
		      const char *name, const char *context, const char *dir, struct iop_err *err)
{
	char file[64], title[5120], q[512], *cmd;
	size_t cmdlen;
	unsigned gi, s, plotted;
	int width;
	FILE *f;
	int ret;

	snprintf(file, sizeof(file), "%s.dat", name);
	f = open_in(dir, file, err);
	if (!f)
		return -EIO;
	fprintf(f, "# group");
	for (s = 0; s < g->series.n; s++) {
		gp_quote(q, sizeof(q), g->series.v[s]);
		fprintf(f, " \"%s\" min max", q);
	}
	fputc('\n', f);
	for (gi = 0; gi < g->groups.n; gi++) {
		gp_quote(q, sizeof(q), g->groups.v[gi]);
		fprintf(f, "\"%s\"", q);
		for (s = 0; s < g->series.n; s++)
			put_value(f, r, g->cell_of[gi * NAMES_MAX + s], m, true);
		fputc('\n', f);
	}
	ret = close_checked(f, dir, file, err);
	if (ret)
		return ret;
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(dir, file, err);
	if (!f)
		return -EIO;
	snprintf(title, sizeof(title), "%s%s%s%s by engine, grouped by target (median, min-max)\n%s",
		 metric_table[m].title, strcmp(metric_table[m].title, metric_table[m].unit) ? " (" : "",
		 strcmp(metric_table[m].title, metric_table[m].unit) ? metric_table[m].unit : "",
		 strcmp(metric_table[m].title, metric_table[m].unit) ? ")" : "", context);
	width = 300 + 60 * (int)(g->groups.n * (g->series.n + 1));
	width = xtics_width(width > 1800 ? 1800 : width < 800 ? 800 : width, g->groups.n);
	gp_head(f, file, title, width, xtics_height(560, g->groups.n ? strlen(g->groups.v[0]) : 0));
	gp_xtics(f, width, g->groups.n, g->groups.n ? strlen(g->groups.v[0]) : 0);
	fprintf(f, "set style data histogram\nset style histogram errorbars gap 1 lw 1\n");
	fprintf(f, "set style fill solid 0.8 border -1\nset boxwidth 0.9\n");
	gp_lit(q, sizeof(q), metric_table[m].unit);
	fprintf(f, "set ylabel %s\nset yrange [0:*]\n", q);
	fprintf(f, "set format y '%%.1s%%c'\n");
	cmdlen = 64 + g->series.n * (160 + sizeof(q));
	cmd = malloc(cmdlen);
	if (!cmd) {
		fclose(f);
		return iop_errf(err, -ENOMEM, "out of memory for charts");
	}
	snprintf(cmd, cmdlen, "plot ");
	for (s = 0, plotted = 0; s < g->series.n; s++) {
		size_t o = strlen(cmd);

		if (!series_has_data(r, g, s, m))
			continue;
		gp_lit(q, sizeof(q), g->series.v[s]);
		snprintf(cmd + o, cmdlen - o, "%s'%s.dat' using %u:%u:%u:xtic(1) title %s",
			 plotted++ ? ", " : "", name, 2 + 3 * s, 3 + 3 * s, 4 + 3 * s, q);
	}
	gp_render(f, name, cmd);
	free(cmd);
	ret = close_checked(f, dir, file, err);
	return ret ? ret : run_gnuplot(dir, file, err);
}

/* Latency percentiles: one cluster per cell (engine and what varies), bars p50, p99, p99.9. */
static int chart_latency(const struct results *r, const char **vary, unsigned nv,
			 const char *context, const char *dir, struct iop_err *err)
{
	static const char name[] = "latency";
	char title[5120], label[1024], q[1024], series[512], group[512];
	unsigned i, rows = 0;
	size_t first = 0;
	int ret, width;
	FILE *f;

	f = open_in(dir, "latency.dat", err);
	if (!f)
		return -EIO;
	fprintf(f, "# cell p50 p99 p99.9 (us)\n");
	for (i = 0; i < r->nr; i++) {
		struct rsummary s;

		if (cell_summary(&r->cells[i], MET_CLAT_P50, &s))
			continue;
		split_cell(&r->cells[i], vary, nv, NULL, series, group, sizeof(series));
		snprintf(label, sizeof(label), "%s %s", series, group);
		if (!rows)
			first = strlen(label);
		gp_quote(q, sizeof(q), label);
		fprintf(f, "\"%s\"", q);
		put_value(f, r, (int)i, MET_CLAT_P50, false);
		put_value(f, r, (int)i, MET_CLAT_P99, false);
		put_value(f, r, (int)i, MET_CLAT_P999, false);
		fputc('\n', f);
		rows++;
	}
	ret = close_checked(f, dir, "latency.dat", err);
	if (ret || !rows)
		return ret;
	f = open_in(dir, "latency.gp", err);
	if (!f)
		return -EIO;
	snprintf(title, sizeof(title), "completion latency percentiles per engine (us, median of repeats)\n%s",
		 context);
	width = rows * 70 + 300 > 1800 ? 1800 : rows * 70 + 300 < 800 ? 800 : (int)rows * 70 + 300;
	width = xtics_width(width, rows);
	gp_head(f, "latency.gp", title, width, xtics_height(560, first));
	gp_xtics(f, width, rows, first);
	fprintf(f, "set style data histogram\nset style histogram clustered gap 1\n");
	fprintf(f, "set style fill solid 0.8 border -1\nset logscale y\nset ylabel \"us\"\n");
	gp_render(f, name,
		  "plot 'latency.dat' using 2:xtic(1) title 'p50', '' using 3 title 'p99', "
		  "'' using 4 title 'p99.9'");
	ret = close_checked(f, dir, "latency.gp", err);
	return ret ? ret : run_gnuplot(dir, "latency.gp", err);
}

/* IOPS against iodepth, one line per series and group (all but iodepth). */
static int chart_qd(const struct results *r, const char **vary, unsigned nv, const char *context,
		    const char *dir, struct iop_err *err)
{
	struct names lines = { 0 };
	char series[512], group[512], label[1100], q[1100], title[5120], *cmd = NULL;
	unsigned l, i, blocks = 0;
	size_t cmdlen;
	FILE *f;
	int ret = 0;

	for (i = 0; i < r->nr; i++) {
		split_cell(&r->cells[i], vary, nv, "iodepth", series, group, sizeof(series));
		snprintf(label, sizeof(label), "%s %s", series, group);
		if (names_index(&lines, label) < 0) {
			names_free(&lines);
			return iop_errf(err, -E2BIG, "too many lines to chart");
		}
	}
	f = open_in(dir, "qd_scaling.dat", err);
	if (!f) {
		names_free(&lines);
		return -EIO;
	}
	/* one data block per line, points ordered by iodepth */
	for (l = 0; l < lines.n; l++) {
		unsigned long qd_prev = 0;

		gp_quote(q, sizeof(q), lines.v[l]);
		fprintf(f, "# %s\n", q);
		for (;;) {
			unsigned long best = 0;
			int bi = -1;

			for (i = 0; i < r->nr; i++) {
				const char *qs = json_string_value(json_object_get(r->cells[i].identity, "iodepth"));
				unsigned long qd = qs ? strtoul(qs, NULL, 10) : 0;

				split_cell(&r->cells[i], vary, nv, "iodepth", series, group, sizeof(series));
				snprintf(label, sizeof(label), "%s %s", series, group);
				if (strcmp(label, lines.v[l]) || qd <= qd_prev || (bi >= 0 && qd >= best))
					continue;
				best = qd;
				bi = (int)i;
			}
			if (bi < 0)
				break;
			fprintf(f, "%lu", best);
			put_value(f, r, bi, MET_IOPS, true);
			fputc('\n', f);
			qd_prev = best;
		}
		fprintf(f, "\n\n");
		blocks++;
	}
	ret = close_checked(f, dir, "qd_scaling.dat", err);
	if (ret)
		goto out;
	f = open_in(dir, "qd_scaling.gp", err);
	if (!f) {
		ret = -EIO;
		goto out;
	}
	snprintf(title, sizeof(title), "queue-depth scaling: IOPS against iodepth, median with min-max\n%s",
		 context);
	gp_head(f, "qd_scaling.gp", title, 1000, 600);
	fprintf(f, "set logscale x 2\nset xlabel \"iodepth\"\nset ylabel \"IOPS\"\nset yrange [0:*]\n");
	fprintf(f, "set format y '%%.1s%%c'\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	cmdlen = 64 + blocks * (200 + sizeof(q));
	cmd = malloc(cmdlen);
	if (!cmd) {
		fclose(f);
		ret = iop_errf(err, -ENOMEM, "out of memory for charts");
		goto out;
	}
	snprintf(cmd, cmdlen, "plot ");
	for (l = 0; l < lines.n; l++) {
		size_t o = strlen(cmd);

		gp_lit(q, sizeof(q), lines.v[l]);
		snprintf(cmd + o, cmdlen - o, "%s'qd_scaling.dat' index %u using 1:2:3:4 with yerrorlines title %s",
			 l ? ", " : "", l, q);
	}
	gp_render(f, "qd_scaling", cmd);
	ret = close_checked(f, dir, "qd_scaling.gp", err);
	if (!ret)
		ret = run_gnuplot(dir, "qd_scaling.gp", err);
out:
	free(cmd);
	names_free(&lines);
	return ret;
}

int plot_sweep(const struct results *r, const char *out, struct iop_err *err)
{
	const char *vary[24];
	unsigned nv, i, ok = 0;
	char context[4096], dir[PATH_MAX];
	struct grid g;
	bool qd_varies = false;
	int ret;

	for (i = 0; i < r->nr; i++)
		ok += r->cells[i].nr > 0;
	if (!ok)
		return iop_errf(err, -ENODATA, "no cell finished: nothing to chart");
	ret = plot_begin(out, dir, sizeof(dir), err);
	if (ret)
		return ret;
	nv = cells_identity_keys(r, true, vary, 24);
	for (i = 0; i < nv; i++)
		qd_varies |= !strcmp(vary[i], "iodepth");
	title_context(r, vary, nv, context, sizeof(context));
	ret = grid_build(r, vary, nv, NULL, &g, err);
	if (!ret)
		ret = chart_bars(r, &g, MET_IOPS, "iops", context, dir, err);
	if (!ret)
		ret = chart_bars(r, &g, MET_BW, "bw", context, dir, err);
	grid_free(&g);
	if (!ret)
		ret = chart_latency(r, vary, nv, context, dir, err);
	if (!ret && qd_varies)
		ret = chart_qd(r, vary, nv, context, dir, err);
	return plot_finish(dir, out, ret, err);
}

/* The steps as points (x = group, y = the median after the step), with their change. */
static int write_steps(const char *dir, const char *name, const struct hist_step *steps,
		       unsigned nsteps, struct iop_err *err)
{
	char file[96];
	struct rsummary s;
	unsigned i;
	FILE *f;

	snprintf(file, sizeof(file), "%s-steps.dat", name);
	f = open_in(dir, file, err);
	if (!f)
		return -EIO;
	fprintf(f, "# x median-after change verdict\n");
	for (i = 0; i < nsteps; i++)
		if (!cell_summary(steps[i].to, steps[i].m.m, &s))
			fprintf(f, "%u %.6g \"%+.0f%%\" %d\n", steps[i].at,
				s.median / metric_table[steps[i].m.m].display_div,
				100 * steps[i].m.change, steps[i].m.verdict == CMP_REGRESSION);
	return close_checked(f, dir, file, err);
}

/* NAME.dat in dir: one block per cell, x = run number, its median with min-max, the run's label. */
static int history_data(const char *dir, const char *name, const struct results *runs, unsigned nr,
			const struct names *cells, const char *const *xlabels, enum metric_id m,
			struct iop_err *err)
{
	char file[80], q[1024];
	unsigned i, c, k;
	FILE *f;

	snprintf(file, sizeof(file), "%s.dat", name);
	f = open_in(dir, file, err);
	if (!f)
		return -EIO;
	for (c = 0; c < cells->n; c++) {
		gp_quote(q, sizeof(q), cells->v[c]);
		fprintf(f, "# %s\n", q);
		for (i = 0; i < nr; i++) {
			for (k = 0; k < runs[i].nr && strcmp(runs[i].cells[k].key, cells->v[c]); k++)
				;
			fprintf(f, "%u", i);
			put_value(f, &runs[i], k < runs[i].nr ? (int)k : -1, m, true);
			gp_quote(q, sizeof(q), xlabels[i]);
			fprintf(f, " \"%s\"\n", q);
		}
		fprintf(f, "\n\n");
	}
	return close_checked(f, dir, file, err);
}

/* The history chart's title: the metric, the runs (and groups pooled), the last run's host. */
static void history_title(char *title, size_t len, const struct results *runs, unsigned nr,
			  unsigned saved, enum metric_id m, const char *by)
{
	const struct results *last = &runs[nr - 1];
	const char *host = results_env_str(last, "hostname"), *kernel = results_env_str(last, "host.kernel");
	bool unit = strcmp(metric_table[m].title, metric_table[m].unit) != 0;
	char groups[64] = "";

	/* runs of one value pooled: say both counts, so that neither reads as the other */
	if (saved != nr)
		snprintf(groups, sizeof(groups), " pooled into %u groups", nr);
	snprintf(title, len,
		 "%s%s%s%s of each cell across %u saved '%s' runs%s, by %s (median, min-max)\nlast run: host %s, kernel %s",
		 metric_table[m].title, unit ? " (" : "", unit ? metric_table[m].unit : "",
		 unit ? ")" : "", saved, last->name, groups, by, host ? host : "?",
		 kernel ? kernel : "?");
}

int plot_history(const struct results *runs, unsigned nr, unsigned saved, const char *const *xlabels,
		 enum metric_id m, const char *by, const struct hist_step *steps, unsigned nsteps,
		 const char *out, struct iop_err *err)
{
	struct names cells = { 0 };
	char name[64], file[80], q[1024], title[1024], dir[PATH_MAX], *cmd = NULL;
	unsigned i, c, k;
	size_t cmdlen;
	FILE *f;
	int ret;

	if (!nr)
		return iop_errf(err, -ENODATA, "no runs to chart");
	ret = plot_begin(out, dir, sizeof(dir), err);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++)
		for (c = 0; c < runs[i].nr; c++)
			if (runs[i].cells[c].nr && names_index(&cells, runs[i].cells[c].key) < 0) {
				names_free(&cells);
				return plot_finish(dir, out, iop_errf(err, -E2BIG, "too many cells to chart (at most %d)", NAMES_MAX), err);
			}
	if (!cells.n)
		return plot_finish(dir, out, iop_errf(err, -ENODATA, "no cell has samples to chart"), err);
	snprintf(name, sizeof(name), "history-%s", metric_table[m].name);
	ret = history_data(dir, name, runs, nr, &cells, xlabels, m, err);
	if (ret)
		goto out;
	snprintf(file, sizeof(file), "%s.gp", name);
	f = open_in(dir, file, err);
	if (!f) {
		ret = -EIO;
		goto out;
	}
	history_title(title, sizeof(title), runs, nr, saved, m, by);
	gp_head(f, file, title, xtics_width(1100, nr), 620);
	gp_xtics(f, xtics_width(1100, nr), nr, strlen(xlabels[0]));
	fprintf(f, "set key outside bottom center horizontal maxrows 8 noenhanced font ',7'\n");
	gp_lit(q, sizeof(q), metric_table[m].unit);
	fprintf(f, "set ylabel %s\n", q);
	gp_lit(q, sizeof(q), by);
	fprintf(f, "set xlabel %s\n", q);
	fprintf(f, "set offsets 0.3, 0.3, 0, 0\nset format y '%%.1s%%c'\n");
	if (nsteps && (ret = write_steps(dir, name, steps, nsteps, err))) {
		fclose(f);
		goto out;
	}
	cmdlen = 512 + cells.n * (200 + sizeof(q));
	cmd = malloc(cmdlen);
	if (!cmd) {
		fclose(f);
		ret = iop_errf(err, -ENOMEM, "out of memory for charts");
		goto out;
	}
	snprintf(cmd, cmdlen, "plot ");
	for (c = 0; c < cells.n; c++) {
		const char *label = cells.v[c];
		size_t o = strlen(cmd);

		for (i = 0; i < nr; i++)
			for (k = 0; k < runs[i].nr; k++)
				if (!strcmp(runs[i].cells[k].key, cells.v[c]))
					label = runs[i].cells[k].label;
		gp_lit(q, sizeof(q), label);
		snprintf(cmd + o, cmdlen - o, "%s'%s.dat' index %u using 1:2:3:4:xtic(5) with yerrorlines title %s",
			 c ? ", " : "", name, c, q);
	}
	if (nsteps) {
		size_t o = strlen(cmd);

		/* the steps: a ring on the point after each, red for a regression, and the change */
		snprintf(cmd + o, cmdlen - o,
			 ", '%s-steps.dat' using 1:2:($4 > 0.5 ? 0xd62728 : 0x2ca02c) with points pt 6 ps 3 lw 2 lc rgb variable title \"step (the compare test; red: regression)\""
			 ", '%s-steps.dat' using 1:2:3 with labels offset 0,1.6 font ',8' notitle",
			 name, name);
	}
	gp_render(f, name, cmd);
	ret = close_checked(f, dir, file, err);
	if (!ret)
		ret = run_gnuplot(dir, file, err);
out:
	free(cmd);
	names_free(&cells);
	return plot_finish(dir, out, ret, err);
}
