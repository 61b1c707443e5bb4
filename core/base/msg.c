/* Messages from below cli/: formatted here, printed (or not) by the sink cli/ installs. */
#include <stdarg.h>
#include <stdio.h>

#include "base/msg.h"

static void (*msg_sink)(const char *line);
static void (*debug_sink)(unsigned type, const char *line);

unsigned iop_debug_mask;

const char *const iop_debug_names[DBG_NR] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil", "job",
	"mutex", "profile", "time", "net", "rate", "compress", "steadystate", "helperthread", "zbd",
};

void iop_debug_set_sink(void (*sink)(unsigned type, const char *line))
{
	debug_sink = sink;
}

void iop_debugf(unsigned type, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!debug_sink || !iop_debug_on(type))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	debug_sink(type, line);
}

void iop_msg_set_sink(void (*sink)(const char *line))
{
	msg_sink = sink;
}

void iop_msgf(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!msg_sink)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	msg_sink(line);
}
