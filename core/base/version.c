/* The build's identity, from build/buildinfo.h, which the Makefile rewrites only on change. */
#include "buildinfo.h"
#include "base/version.h"

const char iopath_version[] = IOPATH_BUILD_VERSION;
const char iopath_git_rev[] = IOPATH_GIT_REV;
const char iopath_cflags[] = IOPATH_BUILD_CFLAGS;

const char *iopath_fio_version(void)
{
	return "iopath-" IOPATH_BUILD_VERSION " (" IOPATH_FIO_FOLLOWS ")";
}
