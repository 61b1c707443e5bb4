/* One-line error messages carried from core code up to main. */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

int iop_errf(struct iop_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}
