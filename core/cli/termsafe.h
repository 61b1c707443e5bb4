/* What iopath prints is text: control characters (from host names, labels, job names...) are shown escaped. */
#ifndef IOPATH_TERMSAFE_H
#define IOPATH_TERMSAFE_H

/*
 * Replace stdout and stderr with streams that write to the same descriptors with every
 * control character escaped (\x1b, \u009b) but newline and tab, and on stderr the carriage
 * return and erase-line (ESC [ K) of iopath's own progress lines: a string from a result
 * file, the database or a job file (ESC, OSC 52, BEL) never reaches the terminal raw.
 */
void term_guard_streams(void);

#endif
