/*
 * Progress of a long command on stderr, with an ETA: a line per item where stderr is not a
 * terminal ("suite: run 3/36: copy disk -> share (ETA 1:02)"), a bar redrawn four times a
 * second where it is. sweep's cells, suite's runs and --explain's cells all show it.
 */
#ifndef IOPATH_PROGRESS_H
#define IOPATH_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct progress {
	const char *what;	/* the line's lead: "sweep", "suite" */
	const char *unit;	/* what an item is: "cell", "run", "explain cell" */
	bool tty;
	bool begun, in_item;
	unsigned done, total;
	char label[256];	/* a copy: the caller's may be gone while the line is redrawn */
	double item_expect;	/* seconds an item is expected to take, 0: unknown */
	double spent;		/* seconds of finished items */
	uint64_t item_start;
	pthread_t thread;
	pthread_mutex_t lock;
	atomic_bool running, stop;
};

/* total items of about expect seconds each (0: unknown until the first ends). */
void progress_begin(struct progress *p, const char *what, const char *unit, unsigned total,
		    double expect);

/* An item starts (the one running before it, if any, ends); rep of repeats when repeats > 1. */
void progress_item(struct progress *p, const char *label, unsigned rep, unsigned repeats);

/* The running item ended. */
void progress_item_end(struct progress *p);

/* One item fewer than planned (skipped after all). */
void progress_drop(struct progress *p);

/* The last item ended: the bar is cleared and the drawing thread stopped. */
void progress_finish(struct progress *p);

#endif
