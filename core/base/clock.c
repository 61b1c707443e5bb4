/* The TSC clock: whether the machine has a usable one, and its calibration. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/clock.h"

#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"
#define PAIR_TRIES 64
#define PAIR_MAX_WINDOW_NS 5000	/* wider: preempted or a noisy host; the pair is refused */

bool tsc_usable(char *why, size_t len)
{
#if IOPATH_HAVE_TSC
	unsigned a, b, c, d;
	char cs[32] = "";
	FILE *f;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) {
		snprintf(why, len, "the CPU does not report an invariant TSC");
		return false;
	}
	f = fopen(CLOCKSOURCE_PATH, "r");
	if (!f) {
		snprintf(why, len, "cannot read %s: %s", CLOCKSOURCE_PATH, strerror(errno));
		return false;
	}
	if (!fgets(cs, sizeof(cs), f))
		cs[0] = 0;
	fclose(f);
	cs[strcspn(cs, "\n")] = 0;
	if (strcmp(cs, "tsc")) {
		snprintf(why, len, "the kernel keeps time with '%s', not the TSC", cs);
		return false;
	}
	return true;
#else
	snprintf(why, len, "this CPU architecture has no TSC clock in iopath");
	return false;
#endif
}

int tsc_pair(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX, a, t, b;
	unsigned i;

	for (i = 0; i < PAIR_TRIES; i++) {
		a = mono_ns();
		t = tsc_ticks();
		b = mono_ns();
		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
	return best <= PAIR_MAX_WINDOW_NS ? 0 : -EAGAIN;
}

int tsc_calibrate(struct tsc_clock *c, uint64_t window_ns)
{
	struct timespec ts = { (time_t)(window_ns / 1000000000ull), (long)(window_ns % 1000000000ull) };
	uint64_t t0, n0, t1, n1;
	int ret;

	if (!IOPATH_HAVE_TSC)
		return -ENOTSUP;
	ret = tsc_pair(&t0, &n0);
	if (ret)
		return ret;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	ret = tsc_pair(&t1, &n1);
	if (ret)
		return ret;
	if (t1 <= t0 || n1 <= n0)
		return -EINVAL;
	c->tsc0 = t1;
	c->ns0 = n1;
	c->mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	return c->mult ? 0 : -EINVAL;
}

double tsc_mhz(const struct tsc_clock *c)
{
	return c->mult ? 4294967296.0 / (double)c->mult * 1000.0 : 0.0;
}
