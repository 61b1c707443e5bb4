/* What iopath prints is text: control characters (from host names, labels, job names...) are shown escaped. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/termsafe.h"

/*
 * One guarded stream: its descriptor and the bytes of a sequence cut by a buffer's end (an
 * ESC or the first byte of a two-byte UTF-8 C1 control), kept until the next write decides.
 */
struct guard {
	int fd;
	bool progress;		/* stderr: iopath's own progress lines, "\r" and "ESC[K", pass */
	unsigned char pend[3];
	size_t npend;
	/*
	 * Held while the held-back bytes are used. The stream's own lock already orders its
	 * writers, but it is glibc's internal one, which thread checkers cannot see.
	 */
	pthread_mutex_t lock;
};

static struct guard guards[2] = { { STDOUT_FILENO, false, { 0 }, 0, PTHREAD_MUTEX_INITIALIZER },
				  { STDERR_FILENO, true, { 0 }, 0, PTHREAD_MUTEX_INITIALIZER } };

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Copy in[0..n) to out escaped: C0 controls but newline and tab (and for stderr carriage
 * return and ESC [ K), DEL, and the C1 controls U+0080..U+009F become \xNN or \u00NN. The
 * bytes of a sequence that may go on past n are left: *used says how many were taken.
 */
static size_t escape(const struct guard *g, const unsigned char *in, size_t n, char *out,
		     size_t *used)
{
	size_t i = 0, o = 0;

	while (i < n) {
		unsigned char c = in[i];

		if (c == 0x1b && g->progress) {
			if (n - i < 3 && !memcmp(in + i, "\x1b[K", n - i))
				break;		/* maybe iopath's own erase-line: wait for the rest */
			if (!memcmp(in + i, "\x1b[K", 3)) {
				memcpy(out + o, in + i, 3);
				o += 3;
				i += 3;
				continue;
			}
		}
		if (c == 0xc2) {
			if (i + 1 == n)
				break;
			if (in[i + 1] >= 0x80 && in[i + 1] <= 0x9f) {
				o += (size_t)sprintf(out + o, "\\u%04x", in[i + 1]);
				i += 2;
				continue;
			}
		}
		if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && g->progress)) || c == 0x7f)
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		else
			out[o++] = (char)c;
		i++;
	}
	*used = i;
	return o;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t n)
{
	struct guard *g = cookie;
	unsigned char in[4096 + sizeof(g->pend)];
	char out[sizeof(in) * 6];
	size_t done = 0, len, used, o;
	ssize_t ret = (ssize_t)n;

	pthread_mutex_lock(&g->lock);
	while (done < n) {
		size_t take = n - done < 4096 ? n - done : 4096;

		memcpy(in, g->pend, g->npend);
		memcpy(in + g->npend, buf + done, take);
		len = g->npend + take;
		o = escape(g, in, len, out, &used);
		if (write_all(g->fd, out, o)) {
			ret = done ? (ssize_t)done : -1;
			break;
		}
		g->npend = len - used;
		memcpy(g->pend, in + used, g->npend);
		done += take;
	}
	pthread_mutex_unlock(&g->lock);
	return ret;
}

/* At close (exit): what was held back is written as it is escaped alone. */
static int guard_close(void *cookie)
{
	struct guard *g = cookie;
	char out[sizeof(g->pend) * 6];
	size_t i, o = 0;

	pthread_mutex_lock(&g->lock);
	for (i = 0; i < g->npend; i++)
		o += (size_t)sprintf(out + o, "\\x%02x", g->pend[i]);
	g->npend = 0;
	pthread_mutex_unlock(&g->lock);
	return o ? write_all(g->fd, out, o) : 0;
}

static FILE *guarded(struct guard *g, int mode)
{
	cookie_io_functions_t io = { .write = guard_write, .close = guard_close };
	FILE *f = fopencookie(g, "w", io);

	if (f)
		setvbuf(f, NULL, mode, BUFSIZ);
	return f;
}

void term_guard_streams(void)
{
	FILE *out = guarded(&guards[0], isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
	FILE *err = guarded(&guards[1], _IONBF);

	if (out) {
		fflush(stdout);
		stdout = out;
	}
	if (err)
		stderr = err;
}
