/* fio's --cmdhelp and --enghelp. */
#ifndef IOPATH_CMDHELP_H
#define IOPATH_CMDHELP_H

#include <stdio.h>

#include "base/err.h"

/* One job option's help, or (which NULL, empty or "all") every option's. 0 or -EINVAL. */
int print_cmdhelp(FILE *f, const char *which, struct iop_err *err);

/* The engines (which NULL or empty), an engine's options ("io_uring"), or one ("io_uring,fixedbufs"). */
int print_enghelp(FILE *f, const char *which, struct iop_err *err);

#endif
