/* Integration-test helpers: run the iopath binary, capture its output, read its JSON. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* Every directory tmpdir_make gave the running test, removed by tmpdir_cleanup. */
#define TMPDIRS_MAX 64
static char tmpdirs[TMPDIRS_MAX][256];
static unsigned nr_tmpdirs;

const char *tmpdir_make(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *d;

	cr_assert_lt(nr_tmpdirs, TMPDIRS_MAX, "more than %d temporary directories in one test",
		     TMPDIRS_MAX);
	d = tmpdirs[nr_tmpdirs];
	snprintf(d, sizeof(tmpdirs[0]), "%s/iopath-test.XXXXXX", base);
	cr_assert_not_null(mkdtemp(d), "mkdtemp: %s", strerror(errno));
	nr_tmpdirs++;
	return d;
}

/* A directory made elsewhere, removed by tmpdir_cleanup as tmpdir_make's are. */
static void tmpdir_adopt(const char *dir)
{
	cr_assert_lt(nr_tmpdirs, TMPDIRS_MAX, "more than %d temporary directories in one test",
		     TMPDIRS_MAX);
	snprintf(tmpdirs[nr_tmpdirs++], sizeof(tmpdirs[0]), "%s", dir);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Every string tmp_str made for the running test, freed by tmpdir_cleanup. */
#define TMPSTRS_MAX 64
static char *tmpstrs[TMPSTRS_MAX];
static unsigned nr_tmpstrs;

char *tmp_str(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	cr_assert_lt(nr_tmpstrs, TMPSTRS_MAX, "more than %d tmp_str strings in one test",
		     TMPSTRS_MAX);
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	cr_assert_geq(n, 0, "vasprintf: out of memory");
	tmpstrs[nr_tmpstrs++] = s;
	return s;
}

void tmpdir_cleanup(void)
{
	while (nr_tmpstrs)
		free(tmpstrs[--nr_tmpstrs]);
	while (nr_tmpdirs) {
		nr_tmpdirs--;
		nftw(tmpdirs[nr_tmpdirs], rm_one, 16, FTW_DEPTH | FTW_PHYS);
		tmpdirs[nr_tmpdirs][0] = '\0';
	}
}

static char *slurp_fd(int fd)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;

	cr_assert_not_null(buf);
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
	}
	buf[len] = '\0';
	return buf;
}

static uid_t run_uid = (uid_t)-1;

struct run_out iopath_runv(char *const argv[])
{
	const char *bin = getenv("IOPATH_BIN");

	cr_assert_not_null(bin, "IOPATH_BIN is not set (run through 'make test')");
	return prog_runv(bin, argv);
}

struct run_out prog_runv(const char *bin, char *const argv[])
{
	struct run_bg b = prog_startv(bin, argv, NULL);

	return iopath_wait(&b, 0);
}

struct run_bg prog_startv(const char *bin, char *const argv[], const char *cwd)
{
	struct run_bg b = { 0 };

	b.o = tmpfile();
	b.e = tmpfile();
	cr_assert(b.o && b.e);
	b.pid = fork();
	cr_assert_neq(b.pid, -1);
	if (b.pid == 0) {
		dup2(fileno(b.o), 1);
		dup2(fileno(b.e), 2);
		if (run_uid != (uid_t)-1 && (setgid(run_uid) || setuid(run_uid) || chdir("/")))
			_exit(126);
		if (cwd && chdir(cwd))
			_exit(126);
		execvp(bin, argv);
		_exit(127);
	}
	return b;
}

/* iopath's argv: "iopath", then arg and those after it up to the NULL (at most 62). */
static void iopath_argv(char *argv[64], const char *arg, va_list ap)
{
	unsigned n = 0;

	argv[n++] = (char *)"iopath";
	for (; arg && n < 63; arg = va_arg(ap, const char *))
		argv[n++] = (char *)arg;
	argv[n] = NULL;
}

struct run_out iopath_run(const char *arg, ...)
{
	char *argv[64];
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	return iopath_runv(argv);
}

void run_out_free(struct run_out *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

json_t *json_load_path(const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);

	cr_assert_not_null(root, "%s: JSON does not parse: %s (line %d)", path, jerr.text, jerr.line);
	return root;
}

json_t *json_from_string(const char *s)
{
	json_error_t jerr;
	json_t *root = json_loads(s, 0, &jerr);

	cr_assert_not_null(root, "JSON does not parse: %s (line %d): %.200s", jerr.text, jerr.line, s);
	return root;
}

long long job_int(json_t *root, unsigned i, const char *dir, const char *key)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), i);
	json_t *v;

	cr_assert_not_null(job, "no jobs[%u]", i);
	v = dir ? json_object_get(json_object_get(job, dir), key) : json_object_get(job, key);
	cr_assert(json_is_integer(v), "jobs[%u].%s.%s is not an integer", i, dir ? dir : "", key);
	return json_integer_value(v);
}

bool is_root(void)
{
	return geteuid() == 0;
}

void file_make(const char *path, size_t size, unsigned seed)
{
	FILE *f = fopen(path, "w");
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	for (i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		fputc((int)(x & 0xff), f);
	}
	cr_assert_eq(fclose(f), 0);
}

void file_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

void file_printf(const char *path, const char *fmt, ...)
{
	FILE *f = fopen(path, "w");
	va_list ap;

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	cr_assert_eq(fclose(f), 0);
}

uint64_t file_sum(const char *path)
{
	unsigned char buf[65536];
	uint64_t h = 1469598103934665603ull, len = 0;
	ssize_t n, i;
	int fd = open(path, O_RDONLY);

	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
		len += (uint64_t)n;
	}
	close(fd);
	return h ^ (len * 0x9e3779b97f4a7c15ull);
}

int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void assert_has(const char *text, const char *s, ...)
{
	va_list ap;

	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *))
		cr_assert_not_null(strstr(text, s), "lacks \"%s\": %s", s, text);
	va_end(ap);
}

char *sh_out(const char *fmt, ...)
{
	char cmd[2048], *out;
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	cr_assert_not_null(p, "cannot run %s", cmd);
	out = slurp_fd(fileno(p));
	pclose(p);
	return out;
}

struct run_bg iopath_startv(char *const argv[], const char *cwd)
{
	const char *bin = getenv("IOPATH_BIN");

	cr_assert_not_null(bin, "IOPATH_BIN is not set (run through 'make test')");
	return prog_startv(bin, argv, cwd);
}

struct run_bg iopath_start(const char *arg, ...)
{
	char *argv[64];
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	return iopath_startv(argv, NULL);
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

struct run_out iopath_wait(struct run_bg *b, unsigned timeout_s)
{
	struct run_out r = { 0 };
	unsigned waited = 0;
	pid_t got;
	int st;

	if (!timeout_s)
		got = waitpid(b->pid, &st, 0);
	else
		while ((got = waitpid(b->pid, &st, WNOHANG)) == 0 && waited < timeout_s * 100) {
			sleep_ms(10);
			waited++;
		}
	if (got == 0) {
		kill(b->pid, SIGKILL);
		waitpid(b->pid, &st, 0);
		cr_assert_fail("it did not exit within %u s", timeout_s);
	}
	cr_assert_eq(got, b->pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = slurp_fd(fileno(b->o));
	r.err = slurp_fd(fileno(b->e));
	fclose(b->o);
	fclose(b->e);
	return r;
}

bool wait_for_file(const char *path, unsigned timeout_s)
{
	unsigned i;

	for (i = 0; i < timeout_s * 100; i++) {
		if (!access(path, F_OK))
			return true;
		sleep_ms(10);
	}
	return false;
}

/*
 * The one runner that parses: bin (fio's, or iopath when NULL) with argv, the test failing
 * unless it exits want_status; its JSON result read from out (a file, when not NULL: NULL
 * when none was written) or its stdout (lead: from the first '{', as fio may print before).
 */
static json_t *run_json(const char *bin, char *const *argv, int want_status, const char *out,
			bool lead, struct run_out *keep)
{
	struct run_out r = bin ? prog_runv(bin, argv) : iopath_runv(argv);
	const char *at = lead ? strchr(r.out, '{') : NULL;
	json_t *root;

	if (want_status == ANY_VERDICT)
		cr_assert(r.status == 0 || r.status == 1 || r.status == 3,
			  "%s %s: exit %d (wanted a verdict, 0, 1 or 3): %s", argv[0],
			  argv[1] ? argv[1] : "", r.status, r.err);
	else if (want_status != ANY_STATUS)
		cr_assert_eq(r.status, want_status, "%s %s: exit %d (wanted %d): %s", argv[0],
			     argv[1] ? argv[1] : "", r.status, want_status, r.err);
	if (out)
		root = access(out, F_OK) ? NULL : json_load_path(out);
	else if (want_status == ANY_STATUS)
		root = json_loads(at ? at : r.out, 0, NULL);
	else
		root = json_from_string(at ? at : r.out);
	if (keep)
		*keep = r;
	else
		run_out_free(&r);
	return root;
}

int run_in_dir(const char *bin, const char *dir, const char *const *args, const char *out_name)
{
	char *argv[64], out[400], err[400];
	unsigned n = 0;
	pid_t pid;
	int st;

	argv[n++] = (char *)bin;
	for (; *args && n < 63; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s/%s", dir, out_name ? out_name : "");
	snprintf(err, sizeof(err), "%s/err", dir);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		int o = out_name ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) :
				   open("/dev/null", O_WRONLY);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || chdir(dir))
			_exit(126);
		dup2(o, 1);
		dup2(e, 2);
		execvp(bin, argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* argv[0] the tool's name, then args up to their NULL (at most 62 in all). */
static void tool_argv(char *argv[64], bool fio, const char *format, const char *const *args)
{
	unsigned n = 0;

	argv[n++] = fio ? (char *)"fio" : (char *)"iopath";
	if (format)
		argv[n++] = (char *)format;
	for (; *args && n < 63; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
}

struct run_out tool_runv(bool fio, const char *const *args)
{
	char *argv[64];

	tool_argv(argv, fio, NULL, args);
	return fio ? prog_runv(FIO_BIN, argv) : iopath_runv(argv);
}

json_t *tool_json_as(bool fio, const char *format, const char *const *args)
{
	char opt[64], *argv[64];

	snprintf(opt, sizeof(opt), "--output-format=%s", format);
	tool_argv(argv, fio, opt, args);
	return run_json(fio ? FIO_BIN : NULL, argv, 0, NULL, true, NULL);
}

json_t *tool_json(bool fio, const char *const *args)
{
	return tool_json_as(fio, "json", args);
}

json_t *json_in_text(const char *text, const char *what)
{
	const char *at = strstr(text, "{\n") ? strstr(text, "{\n") : strchr(text, '{');
	json_error_t jerr;
	json_t *root;

	cr_assert_not_null(at, "%s: no JSON in: %.300s", what, text);
	root = json_loads(at, JSON_DISABLE_EOF_CHECK, &jerr);
	cr_assert_not_null(root, "%s: JSON does not parse: %s (line %d)", what, jerr.text, jerr.line);
	return root;
}

unsigned json_docs_in_text(const char *text, json_t **docs, unsigned max, const char *what)
{
	const char *at = text;
	json_error_t jerr;
	unsigned n = 0;

	while (n < max && (at = strstr(at, "{\n"))) {
		docs[n] = json_loads(at, JSON_DISABLE_EOF_CHECK, &jerr);
		cr_assert_not_null(docs[n], "%s: document %u does not parse: %s (line %d)", what, n + 1,
				   jerr.text, jerr.line);
		at += jerr.position;
		n++;
	}
	cr_assert_gt(n, 0, "%s: no JSON in: %.300s", what, text);
	return n;
}

json_t *iopath_json_in(const char *dir, char *const *args, int want_status, char **err_out)
{
	char out[320], oarg[340], *argv[64];
	struct run_out r;
	unsigned n = 0;
	json_t *root;

	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(oarg, sizeof(oarg), "--output=%s", out);
	unlink(out);
	argv[n++] = (char *)"iopath";
	argv[n++] = (char *)"--output-format=json";
	argv[n++] = oarg;
	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	root = run_json(NULL, argv, want_status, out, false, &r);
	if (err_out)
		*err_out = strdup(r.err);
	run_out_free(&r);
	return root;
}

json_t *iopath_json_ok(const char *dir, const char *arg, ...)
{
	char *argv[64];
	json_t *root;
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	root = iopath_json_in(dir, argv + 1, 0, NULL);
	cr_assert_not_null(root, "iopath wrote no result in %s", dir);
	return root;
}

/* run_json of iopath with arg and those after it up to their NULL. */
static json_t *iopath_json_va(int want_status, struct run_out *keep, const char *arg, va_list ap)
{
	char *argv[64];

	iopath_argv(argv, arg, ap);
	return run_json(NULL, argv, want_status, NULL, false, keep);
}

json_t *iopath_json(int want_status, const char *arg, ...)
{
	json_t *root;
	va_list ap;

	va_start(ap, arg);
	root = iopath_json_va(want_status, NULL, arg, ap);
	va_end(ap);
	return root;
}

void iopath_exits(int want_status, const char *arg, ...)
{
	char *argv[64];
	struct run_out r;
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	r = iopath_runv(argv);
	cr_assert_eq(r.status, want_status, "%s: exit %d (wanted %d):\n%s%s", argv[1], r.status,
		     want_status, r.out, r.err);
	run_out_free(&r);
}

void iopath_prints(int want_status, const char *const *has, const char *arg, ...)
{
	char *argv[64];
	struct run_out r;
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	r = iopath_runv(argv);
	cr_assert_eq(r.status, want_status, "%s: exit %d (wanted %d):\n%s%s", argv[1], r.status,
		     want_status, r.out, r.err);
	for (; *has; has++)
		cr_assert_not_null(strstr(r.out, *has), "%s: stdout lacks \"%s\": %s", argv[1],
				   *has, r.out);
	run_out_free(&r);
}

void iopath_refuses(const char *why, const char *arg, ...)
{
	char *argv[64];
	struct run_out r;
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	r = iopath_runv(argv);
	cr_expect_eq(r.status, 2, "%s: exit %d (wanted 2): %s", argv[1], r.status, r.err);
	cr_expect_not_null(strstr(r.err, why), "%s: stderr lacks \"%s\": %s", argv[1], why, r.err);
	run_out_free(&r);
}

json_t *iopath_out_json(const char *arg, ...)
{
	json_t *root;
	va_list ap;

	va_start(ap, arg);
	root = iopath_json_va(0, NULL, arg, ap);
	va_end(ap);
	return root;
}

json_t *iopath_json_kept(struct run_out *r, int want_status, const char *arg, ...)
{
	json_t *root;
	va_list ap;

	va_start(ap, arg);
	root = iopath_json_va(want_status, r, arg, ap);
	va_end(ap);
	return root;
}

json_t *prog_json(const char *bin, char *const argv[], int want_status)
{
	return run_json(bin, argv, want_status, NULL, false, NULL);
}

void leak_check_off_under_ptrace(void)
{
	const char *cur = getenv("ASAN_OPTIONS");
	char opts[512];

	snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", cur ? cur : "", cur && *cur ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
}

void thread_leaks_off_for_an_abandoned_run(void)
{
	const char *cur = getenv("TSAN_OPTIONS");
	char opts[512];

	snprintf(opts, sizeof(opts), "%s%sreport_thread_leaks=0", cur ? cur : "",
		 cur && *cur ? ":" : "");
	setenv("TSAN_OPTIONS", opts, 1);
}

const char *strace_bin(void)
{
	return access("/usr/bin/strace", X_OK) ? NULL : "/usr/bin/strace";
}

char *strace_iopath(const char *calls, const char *log, const char *const *args)
{
	char trace[128], oarg[PATH_MAX + 4], *argv[64];
	struct run_out r;
	unsigned n = 0;
	char *text;

	snprintf(trace, sizeof(trace), "trace=%s", calls);
	snprintf(oarg, sizeof(oarg), "-o%s", log);
	argv[n++] = "strace";
	argv[n++] = "-f";
	argv[n++] = "-e";
	argv[n++] = trace;
	argv[n++] = oarg;
	argv[n++] = (char *)getenv("IOPATH_BIN");
	for (; *args && n < 63; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	leak_check_off_under_ptrace();
	r = prog_runv(strace_bin(), argv);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	text = file_text(log);
	cr_assert_not_null(text, "strace wrote no log");
	return text;
}

char test_mnt[300];

void mount_cleanup(void)
{
	if (test_mnt[0])
		umount2(test_mnt, MNT_DETACH);
	test_mnt[0] = '\0';
	tmpdir_cleanup();
}

void test_mount(const char *mnt, const char *type, unsigned long flags, const char *data,
		const char *what)
{
	if (!is_root())
		cr_skip_test("needs root to mount %s", what);
	cr_assert_eq(mkdir(mnt, 0755), 0, "%s: %s", mnt, strerror(errno));
	if (mount("none", mnt, type, flags, data))
		cr_skip_test("cannot mount %s here", type);
	if (mnt != test_mnt)
		snprintf(test_mnt, sizeof(test_mnt), "%s", mnt);
}

void faultfs_settle(const char *mnt)
{
	DIR *d = opendir(mnt);

	cr_assert_not_null(d, "%s: %s", mnt, strerror(errno));
	while (readdir(d))
		;
	closedir(d);
}

void faultfs_mount(const char *backing, const char *mnt, const char *opts)
{
	const char *bin = getenv("FAULTFS_BIN");

	if (!is_root())
		cr_skip_test("needs root to mount the FUSE fault filesystem");
	if (access("/dev/fuse", R_OK | W_OK))
		cr_skip_test("no /dev/fuse on this machine");
	if (!bin || access(bin, X_OK))
		cr_skip_test("faultfs was not built (libfuse3-dev missing?)");
	mkdir(backing, 0755);
	mkdir(mnt, 0755);
	if (sh("%s %s %s %s", bin, opts ? opts : "", backing, mnt))
		cr_skip_test("faultfs cannot mount here");
}

const char *faultfs_over(const char *dir, const char *opts)
{
	const char *back = tmp_str("%s/back", dir);

	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	faultfs_mount(back, test_mnt, opts);
	return back;
}

/*
 * The binary as another user can run it: the checkout may lie in a directory only its owner
 * can enter (root's home, a mktemp -d), so a copy goes to a fresh 0755 directory of its own,
 * removed with the test's temporary directories. The child also starts in "/".
 */
static const char *staged_bin(void)
{
	static char path[PATH_MAX];
	const char *bin = getenv("IOPATH_BIN");
	char dir[] = "/tmp/iopath-bin.XXXXXX";

	cr_assert_not_null(bin, "IOPATH_BIN is not set (run through 'make test')");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	cr_assert_eq(chmod(dir, 0755), 0);
	tmpdir_adopt(dir);
	snprintf(path, sizeof(path), "%s/iopath", dir);
	cr_assert_eq(sh("cp '%s' '%s' && chmod 0755 '%s'", bin, path, path), 0,
		     "cannot stage %s for another user", bin);
	return path;
}

struct run_out iopath_run_as(uid_t uid, const char *arg, ...)
{
	char *argv[64];
	struct run_out r;
	va_list ap;

	va_start(ap, arg);
	iopath_argv(argv, arg, ap);
	va_end(ap);
	run_uid = uid;
	r = prog_runv(staged_bin(), argv);
	run_uid = (uid_t)-1;
	return r;
}

char *file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	cr_assert_not_null(f, "cannot read %s", path);
	m = open_memstream(&buf, &len);
	cr_assert_not_null(m);
	for (int c; (c = fgetc(f)) != EOF;)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* ---- the runner's test hold (IOPATH_TEST_HOLD) ---- */

static char hold_base[300];

void hold_arm(const char *dir)
{
	snprintf(hold_base, sizeof(hold_base), "%s/hold", dir);
	setenv("IOPATH_TEST_HOLD", hold_base, 1);
}

void hold_disarm(void)
{
	unsetenv("IOPATH_TEST_HOLD");
}

bool hold_reached(struct run_bg *b, unsigned n)
{
	char p[340];

	snprintf(p, sizeof(p), "%s.%u", hold_base, n);
	if (wait_for_file(p, 120))
		return true;
	kill(b->pid, SIGKILL);
	return false;
}

void hold_release(unsigned n)
{
	char p[340];

	snprintf(p, sizeof(p), "%s.%u.go", hold_base, n);
	file_write_text(p, "");
}

bool hold_skip_to(struct run_bg *b, unsigned n)
{
	unsigned i;

	for (i = 1; i < n; i++) {
		if (!hold_reached(b, i))
			return false;
		hold_release(i);
	}
	return hold_reached(b, n);
}

/* ---- the hold while workers move data (IOPATH_TEST_HOLD_RUNNING) ---- */

static char running_base[300];

struct run_bg iopath_start_running(const char *dir, char *const argv[], const char *cwd)
{
	struct run_bg b;

	snprintf(running_base, sizeof(running_base), "%s/running", dir);
	setenv("IOPATH_TEST_HOLD_RUNNING", running_base, 1);
	b = iopath_startv(argv, cwd);
	unsetenv("IOPATH_TEST_HOLD_RUNNING");
	return b;
}

bool running_reached(struct run_bg *b)
{
	if (wait_for_file(running_base, 120))
		return true;
	kill(b->pid, SIGKILL);
	return false;
}

void running_release(void)
{
	char p[320];

	snprintf(p, sizeof(p), "%s.go", running_base);
	file_write_text(p, "");
}

/* Whether every thread of pid is stopped (state T in /proc/PID/task/TID/stat). */
static bool all_stopped(pid_t pid)
{
	char path[128], state = 0;
	struct dirent *e;
	bool all = true;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (all && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* a thread that has ended */
		/* "TID (comm) S ...": comm may hold spaces and parentheses; the state follows the last ')' */
		{
			char line[512], *p;

			if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')))
				state = p[2];
		}
		fclose(f);
		all = state == 'T' || state == 't';
	}
	closedir(d);
	return all;
}

void signals_together(pid_t pid, int first, int second)
{
	unsigned i;

	cr_assert_eq(kill(pid, SIGSTOP), 0);
	for (i = 0; i < 6000 && !all_stopped(pid); i++)
		sleep_ms(10);
	cr_assert(all_stopped(pid), "iopath (pid %d) did not stop", (int)pid);
	cr_assert_eq(kill(pid, first), 0);
	cr_assert_eq(kill(pid, second), 0);
	cr_assert_eq(kill(pid, SIGCONT), 0);
}

/* ---- loop devices shared with other test processes ---- */

/* Whether the loop device open on fd has path's inode as its backing file. */
static bool loop_backs(int fd, const char *path)
{
	struct loop_info64 info;
	struct stat st;

	return !stat(path, &st) && !ioctl(fd, LOOP_GET_STATUS64, &info) &&
	       info.lo_inode == st.st_ino && info.lo_device == st.st_dev;
}

int loopdev_attach(const char *img, const char *opts, char *dev, size_t len)
{
	unsigned tries;

	for (tries = 0; tries < 5; tries++) {
		char cmd[700];
		FILE *p;
		int fd;

		snprintf(cmd, sizeof(cmd), "losetup --find --show %s '%s' 2>/dev/null",
			 opts ? opts : "", img);
		p = popen(cmd, "r");
		dev[0] = '\0';
		if (!p || !fgets(dev, (int)len, p) || strncmp(dev, "/dev/", 5)) {
			if (p)
				pclose(p);
			dev[0] = '\0';
			return -1;
		}
		pclose(p);
		dev[strcspn(dev, "\n")] = '\0';
		/*
		 * Held open from here: a detach (ours, or another process's by a stale name) only
		 * marks it to go at the last close, so nobody else can bind it to another image
		 * while this test uses the name. Between losetup and this open it could have
		 * been, by a stale detach and another attach: then its backing file is not img.
		 */
		fd = open(dev, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && loop_backs(fd, img))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	dev[0] = '\0';
	return -1;
}

void loopdev_detach(int *fd, char *dev)
{
	if (dev[0])
		sh("losetup -d %s 2>/dev/null", dev);
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	dev[0] = '\0';
}

/* the fields statx gives atomic writes, read at their offsets (older C libraries lack them) */
bool atomic_write_limits(const char *dir, unsigned *min, unsigned *max, unsigned *segs)
{
	struct statx stx;
	unsigned v[3];
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);

	*min = *max = *segs = 0;
	if (fd < 0)
		return false;
	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, 0x10000u, &stx) || !(stx.stx_mask & 0x10000u) ||
	    !(stx.stx_attributes & 0x400000u)) {
		close(fd);
		return false;
	}
	memcpy(v, (unsigned char *)&stx + 168, sizeof(v));
	close(fd);
	*min = v[0], *max = v[1], *segs = v[2];
	return *min && *max >= *min;
}

void iopath_mark(const char *path)
{
	struct statx stx;
	char val[128];
	int n;

	cr_assert_eq(statx(AT_FDCWD, path, 0, STATX_INO | STATX_BTIME, &stx), 0, "statx %s", path);
	n = snprintf(val, sizeof(val), "created-by-iopath ino=%llu", (unsigned long long)stx.stx_ino);
	if (stx.stx_mask & STATX_BTIME)
		n += snprintf(val + n, sizeof(val) - (size_t)n, " btime=%lld.%09u",
			      (long long)stx.stx_btime.tv_sec, stx.stx_btime.tv_nsec);
	cr_assert_eq(setxattr(path, "user.iopath", val, (size_t)n, 0), 0, "setxattr %s", path);
}
