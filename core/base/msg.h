/* Messages from below cli/ (a rank that failed, a job's error lines): cli/ says where they go. */
#ifndef IOPATH_MSG_H
#define IOPATH_MSG_H

/* Where iop_msgf's lines go (cli/ installs one at start); NULL: nowhere. */
void iop_msg_set_sink(void (*sink)(const char *line));

/* One line for the user, without a trailing newline. */
void iop_msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * fio's --debug types, in fio's order and with its names (debug_names). iopath traces parse,
 * file, io, job and random; cli/ accepts the others with a warning.
 */
enum iop_debug {
	DBG_PROCESS, DBG_FILE, DBG_IO, DBG_MEM, DBG_BLKTRACE, DBG_VERIFY, DBG_RANDOM, DBG_PARSE,
	DBG_DISKUTIL, DBG_JOB, DBG_MUTEX, DBG_PROFILE, DBG_TIME, DBG_NET, DBG_RATE, DBG_COMPRESS,
	DBG_STEADYSTATE, DBG_HELPERTHREAD, DBG_ZBD, DBG_NR,
};
extern const char *const iop_debug_names[DBG_NR];

/* The types asked for, one bit each (set by cli/ before anything runs). */
extern unsigned iop_debug_mask;

static inline int iop_debug_on(unsigned type)
{
	return (iop_debug_mask >> type) & 1;
}

/* Where iop_debugf's lines go: the type and the line (cli/ prints them as fio does). */
void iop_debug_set_sink(void (*sink)(unsigned type, const char *line));

/* One debug line of type, when that type is asked for. */
void iop_debugf(unsigned type, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
