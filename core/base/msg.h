/* Messages from below cli/ (a rank that failed, a job's error lines): cli/ says where they go. */
#ifndef IOPATH_MSG_H
#define IOPATH_MSG_H

/* Where iop_msgf's lines go (cli/ installs one at start); NULL: nowhere. */
void iop_msg_set_sink(void (*sink)(const char *line));

/* One line for the user, without a trailing newline. */
void iop_msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
