/* One-line error messages carried from core code up to main. */
#include <stdarg.h>
#include <stdio.h>

#include "base/err.h"

int iop_errf(struct iop_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	char *c;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	/*
	 * One line, and nothing a terminal would act on: a message may quote a job file's
	 * binary garbage (escape sequences, newlines), so control bytes become '?'.
	 */
	for (c = err->msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return code;
}
