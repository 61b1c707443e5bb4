/* One-line error messages carried from core code up to main, which prints them. */
#ifndef IOPATH_ERR_H
#define IOPATH_ERR_H

struct iop_err {
	char msg[768];
};

/* Format the message into err (if non-NULL) and return code, a negative errno. */
int iop_errf(struct iop_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Exit codes: only cli/ exits, but every layer may say which one a failure deserves. */
#define EXIT_JOB_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130
/* the fio invocation exits with the number of workers that failed, as fio does, at most this
 * (above it the shell's 126/127 and the signals' 128+N) */
#define EXIT_FAILED_MAX 125

#endif
