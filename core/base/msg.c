/* Messages from below cli/: formatted here, printed (or not) by the sink cli/ installs. */
#include <stdarg.h>
#include <stdio.h>

#include "base/msg.h"

static void (*msg_sink)(const char *line);

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
