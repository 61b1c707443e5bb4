/* A long command's progress with its ETA on stderr (progress.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "cli/progress.h"

static double since(uint64_t t0)
{
	return (double)(mono_ns() - t0) / 1e9;
}

/* "1:02" or "1:02:03", or "?" while nothing says how long an item takes. */
static void fmt_eta(char *buf, size_t len, const struct progress *p, double in_item)
{
	double per = p->done ? p->spent / p->done : p->item_expect;
	double left = (double)(p->total - p->done) * per - in_item;
	unsigned long t = left > 0 ? (unsigned long)(left + 0.5) : 0;

	if (per <= 0)
		snprintf(buf, len, "?");
	else if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

static void draw(struct progress *p)
{
	char bar[31], e[32];
	double in_item = since(p->item_start);
	unsigned fill = p->total ? (unsigned)(30.0 * p->done / p->total) : 30, i;

	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fmt_eta(e, sizeof(e), p, in_item);
	fprintf(stderr, "\r\033[K[%s] %u/%u %.60s  %.1fs  ETA %s", bar, p->done + 1, p->total,
		p->label, in_item, e);
	fflush(stderr);
}

static void *draw_main(void *arg)
{
	struct progress *p = arg;

	while (!atomic_load(&p->stop)) {
		pthread_mutex_lock(&p->lock);
		if (atomic_load(&p->running))
			draw(p);
		pthread_mutex_unlock(&p->lock);
		usleep(250000);
	}
	return NULL;
}

void progress_begin(struct progress *p, const char *what, const char *unit, unsigned total,
		    double expect)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->unit = unit;
	p->total = total;
	p->item_expect = expect;
	p->tty = isatty(STDERR_FILENO);
	pthread_mutex_init(&p->lock, NULL);
	if (p->tty && pthread_create(&p->thread, NULL, draw_main, p))
		p->tty = false;
	p->begun = true;
}

static void item_end_locked(struct progress *p)
{
	if (!p->in_item)
		return;
	p->spent += since(p->item_start);
	p->done++;
	p->in_item = false;
	atomic_store(&p->running, false);
}

void progress_item(struct progress *p, const char *label, unsigned rep, unsigned repeats)
{
	char e[32];

	pthread_mutex_lock(&p->lock);
	item_end_locked(p);
	snprintf(p->label, sizeof(p->label), "%s", label);
	p->item_start = mono_ns();
	p->in_item = true;
	if (p->total <= p->done)
		p->total = p->done + 1;
	atomic_store(&p->running, true);
	if (!p->tty) {
		fmt_eta(e, sizeof(e), p, 0);
		if (repeats > 1)
			fprintf(stderr, "%s: %s %u/%u (repeat %u/%u): %s (ETA %s)\n", p->what, p->unit,
				p->done + 1, p->total, rep + 1, repeats, label, e);
		else
			fprintf(stderr, "%s: %s %u/%u: %s (ETA %s)\n", p->what, p->unit, p->done + 1,
				p->total, label, e);
	} else {
		draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_item_end(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	item_end_locked(p);
	pthread_mutex_unlock(&p->lock);
}

void progress_drop(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	p->total -= p->total > p->done ? 1 : 0;
	pthread_mutex_unlock(&p->lock);
}

void progress_finish(struct progress *p)
{
	if (!p->begun)
		return;
	progress_item_end(p);
	atomic_store(&p->stop, true);
	if (p->tty) {
		pthread_join(p->thread, NULL);
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	pthread_mutex_destroy(&p->lock);
	p->begun = false;
}
