/* Integration-test helpers: run the iopath binary, capture its output, read its JSON. */
#ifndef IOPATH_TEST_HARNESS_H
#define IOPATH_TEST_HARNESS_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct run_out {
	int status;		/* exit code, or 128 + signal */
	char *out;		/* stdout */
	char *err;		/* stderr */
};

/* A fresh temporary directory for this test, removed by tmpdir_cleanup. */
const char *tmpdir_make(void);
void tmpdir_cleanup(void);
/* The string fmt makes (a path or an option in the test's directory), freed by tmpdir_cleanup. */
char *tmp_str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run iopath with the NULL-terminated arguments. */
struct run_out iopath_run(const char *arg, ...) __attribute__((sentinel));
struct run_out iopath_runv(char *const argv[]);
void run_out_free(struct run_out *r);

/* Run iopath as another user (uid and gid uid; needs root): for permission tests. */
struct run_out iopath_run_as(uid_t uid, const char *arg, ...) __attribute__((sentinel));

/*
 * Before running iopath under a tracer (strace): an iopath built with the leak sanitizer
 * (make check) refuses to run its leak check under ptrace and fails; turn that check off.
 */
void leak_check_off_under_ptrace(void);

/*
 * Before a second Ctrl-C: iopath then exits at once from its signal handler, leaving its
 * workers unjoined on purpose; an iopath built with the thread sanitizer (make check) would
 * report them as leaked threads. Turn that report off for this test's iopath alone.
 */
void thread_leaks_off_for_an_abandoned_run(void);
/* /usr/bin/strace, or NULL where it is not installed. */
const char *strace_bin(void);
/*
 * iopath with args (NULL-ended) under strace -f -e trace=CALLS, its log in log (kept for the
 * caller to remove); asserts the run succeeded; the log's text (free it).
 */
char *strace_iopath(const char *calls, const char *log, const char *const *args);

/* Run another program (bin: a path) the same way; status 127 when it cannot be run. */
struct run_out prog_runv(const char *bin, char *const argv[]);

/*
 * Run bin in dir (the names it is given are dir's) with the arguments (NULL ends them, argv[0]
 * is bin); stdout to dir/out_name (NULL: /dev/null), stderr to dir/err. Its exit status, or
 * 128 + the signal that ended it.
 */
int run_in_dir(const char *bin, const char *dir, const char *const *args, const char *out_name);

/* Where Debian's fio is, for side-by-side runs. */
#define FIO_BIN "/usr/bin/fio"

/*
 * Run iopath (or, fio true, fio) with --output-format=json and the NULL-terminated arguments;
 * the test fails unless it exits 0. The parsed result (anything fio prints before it skipped).
 */
json_t *tool_json(bool fio, const char *const *args);
/* tool_json with --output-format=format ("json+", "json,normal"...). */
json_t *tool_json_as(bool fio, const char *format, const char *const *args);
/* Run fio (fio true) or iopath with the NULL-terminated arguments (argv[0] is given here). */
struct run_out tool_runv(bool fio, const char *const *args);
/*
 * The JSON in text, from the first '{' that ends a line (else the first '{'): a tool may print
 * before it, as fio its job lines, and after it, as the normal output of json,normal. The test
 * fails, naming what, without one.
 */
json_t *json_in_text(const char *text, const char *what);
/* Every JSON document in text, one after another (--status-interval's), at most max: how many. */
unsigned json_docs_in_text(const char *text, json_t **docs, unsigned max, const char *what);

/*
 * Run iopath with the NULL-terminated arguments and its JSON result written to DIR/out.json;
 * the test fails unless it exits want_status. The result when one was written (a failed job
 * writes one too), else NULL; *err_out (if not NULL) gets a copy of its stderr to free.
 */
json_t *iopath_json_in(const char *dir, char *const *args, int want_status, char **err_out);

/*
 * iopath_json_in with the arguments given one by one (NULL ends them, so an optional NULL
 * argument ends them there) and exit 0 wanted; the test fails unless a result was written.
 */
json_t *iopath_json_ok(const char *dir, const char *arg, ...) __attribute__((sentinel));

/*
 * Run iopath with the arguments (NULL ends them); the test fails unless it exits want_status.
 * What it printed on stdout, parsed as JSON (the test fails if it is not). These, tool_json,
 * iopath_json_in, iopath_json_kept and prog_json are the one runner that parses (harness.c:
 * run_json).
 */
json_t *iopath_json(int want_status, const char *arg, ...) __attribute__((sentinel));

/* Run iopath with the arguments (NULL ends them); the test fails unless it exits want_status. */
void iopath_exits(int want_status, const char *arg, ...) __attribute__((sentinel));

/*
 * Run iopath with the arguments (NULL ends them); the test fails unless it exits want_status
 * and its stdout holds each string of has (NULL ends them).
 */
void iopath_prints(int want_status, const char *const *has, const char *arg, ...)
	__attribute__((sentinel));
/* The strings iopath_prints looks for: HAS("one", "two"). */
#define HAS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * Run iopath with the arguments (NULL ends them), expecting it to refuse them: exit 2 (a usage
 * error) and why in what it printed on stderr.
 */
void iopath_refuses(const char *why, const char *arg, ...) __attribute__((sentinel));
/* iopath_json(0, ...). */
json_t *iopath_out_json(const char *arg, ...) __attribute__((sentinel));

/* A wanted exit status that takes any: the caller judges r->status itself. */
#define ANY_STATUS (-1)
/* A wanted exit status: any verdict of compare or history, 0 (none worse), 1 or 3 (undecided). */
#define ANY_VERDICT (-2)
/*
 * iopath_json that also keeps what iopath printed in *r (its exit status, stdout and stderr;
 * free it with run_out_free), for a test that checks them too. With want_status ANY_STATUS
 * the caller checks the status, and a stdout that is not JSON gives NULL.
 */
json_t *iopath_json_kept(struct run_out *r, int want_status, const char *arg, ...)
	__attribute__((sentinel));

/*
 * Another program (bin: a path, argv[0] its name) run as prog_runv; the test fails unless it
 * exits want_status. Its stdout parsed as iopath_json's.
 */
json_t *prog_json(const char *bin, char *const argv[], int want_status);

/* Parse a JSON file or string; the test fails if it does not parse. */
json_t *json_load_path(const char *path);
json_t *json_from_string(const char *s);

/* jobs[i].<dir>.<key> as an integer. */
long long job_int(json_t *root, unsigned i, const char *dir, const char *key);

bool is_root(void);

/* iopath running in the background. */
struct run_bg {
	pid_t pid;
	FILE *o, *e;
};

struct run_bg iopath_start(const char *arg, ...) __attribute__((sentinel));
struct run_bg iopath_startv(char *const argv[], const char *cwd);
/* Another program (bin: a path, or a name looked up in PATH) so, in cwd (NULL: here). */
struct run_bg prog_startv(const char *bin, char *const argv[], const char *cwd);

/*
 * Wait for it to exit (prog_runv and the like, which wait for it to end, use this too);
 * after timeout_s seconds (0: no limit) kill it and fail the test (a hang).
 */
struct run_out iopath_wait(struct run_bg *b, unsigned timeout_s);

/* Wait (at most timeout_s) until path exists. */
bool wait_for_file(const char *path, unsigned timeout_s);

/*
 * The runner's hold for races driven step by step: hold_arm(dir) makes the next iopath_start
 * stop before and after each group's layout (points 1, 2, 3... in that order) until released.
 * hold_reached waits until iopath holds at point n (false, iopath killed, when it never does);
 * hold_release lets it go on. hold_disarm before starting anything else.
 */
void hold_arm(const char *dir);
void hold_disarm(void);
bool hold_reached(struct run_bg *b, unsigned n);
void hold_release(unsigned n);
/* Release iopath's holds before n as it reaches them, then as hold_reached(b, n). */
bool hold_skip_to(struct run_bg *b, unsigned n);

/*
 * The hold while workers move data: iopath_start_running starts iopath (as iopath_startv) so
 * that, once every worker of a group has completed an I/O, its main thread holds (the workers
 * go on) until running_release or a stop signal. running_reached waits until it holds (false,
 * iopath killed, when it never does). A test signals it, or changes a file under its jobs, there.
 */
struct run_bg iopath_start_running(const char *dir, char *const argv[], const char *cwd);
bool running_reached(struct run_bg *b);
void running_release(void);

/*
 * Deliver first and second to pid together: pid is stopped (SIGSTOP, every thread), both are
 * sent, then it continues and takes both before it runs on. Two different signals, as two
 * equal ones sent at once are one.
 */
void signals_together(pid_t pid, int first, int second);

/* Sleep ms milliseconds. */
void sleep_ms(unsigned ms);

/*
 * Mount the fault-injecting FUSE filesystem (tests/tools/faultfs.c) of backing on mnt with
 * faultfs options such as "--eio-read-after=10". Skips the test, with the reason, where it
 * cannot (not root, no /dev/fuse, faultfs not built).
 */
void faultfs_mount(const char *backing, const char *mnt, const char *opts);

/*
 * faultfs_mount with opts over DIR/back on DIR/mnt (test_mnt, which mount_cleanup detaches):
 * the backing directory, where a test puts what the mount is to show.
 */
const char *faultfs_over(const char *dir, const char *opts);

/*
 * Return once faultfs, mounted on mnt, has served every request made before: one request
 * through the mount, which its single thread serves after those. A descriptor's release,
 * which the kernel sends without waiting (and which removes the .fuse_hidden file an unlink
 * of an open file leaves), is done by then.
 */
void faultfs_settle(const char *mnt);

/*
 * A mount point a test sets up (faultfs, a small tmpfs...); mount_cleanup, a suite's .fini,
 * detaches it if set and removes the test's temporary directory.
 */
extern char test_mnt[300];
void mount_cleanup(void);

/*
 * Mount a filesystem of type (tmpfs, ramfs...) with flags and data on mnt (test_mnt itself,
 * or copied there), a directory made here. Skips the test where it cannot, with the reason: not root ("needs root
 * to mount " what), or the mount failed.
 */
void test_mount(const char *mnt, const char *type, unsigned long flags, const char *data,
		const char *what);

/* Create path holding size bytes of a pattern drawn from seed (0 size: an empty file). */
void file_make(const char *path, size_t size, unsigned seed);

/* The whole content of path as a string to free; the test fails if it cannot be read. */
char *file_text(const char *path);

/* Write text into path. */
void file_write_text(const char *path, const char *text);
/* Write the text fmt makes into path. */
void file_printf(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A checksum of the whole content of path (FNV-1a over its bytes, and its length). */
uint64_t file_sum(const char *path);

/*
 * Attach img to a free loop device (losetup --find --show, with opts such as
 * "--direct-io=on" or NULL), its name in dev (len bytes). Returns a descriptor that holds the
 * device, checked to be backed by img, or -1 (dev "") where no loop device can be had. Test
 * processes run side by side attach and detach loop devices: only the name losetup returned
 * is used, and the held descriptor keeps it from being given to another image until
 * loopdev_detach (the suite's .fini), which detaches it, closes *fd (set to -1) and clears dev.
 */
int loopdev_attach(const char *img, const char *opts, char *dev, size_t len);
void loopdev_detach(int *fd, char *dev);

/*
 * The atomic write limits (statx STATX_WRITE_ATOMIC) of a new file in dir, made unnamed
 * (O_TMPFILE); false where it has none (or none can be made there).
 */
bool atomic_write_limits(const char *dir, unsigned *min, unsigned *max, unsigned *segs);

/*
 * Give path iopath's mark as iopath sets it (tied to the file: its inode and birth time),
 * for a test that stands in for an earlier run's file.
 */
void iopath_mark(const char *path);

/* Run a shell command line built from fmt; returns its exit status (or -1). */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The test fails unless text holds each of the strings (NULL ends them), showing text. */
void assert_has(const char *text, const char *s, ...) __attribute__((sentinel));

/* Run a shell command line built from fmt; what it printed on stdout (free it). */
char *sh_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
