/* Probe helpers: reading small files below the probe root, trial records, enum names. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_int.h"

const char *probe_root(const struct probe_env *env)
{
	return env && env->root ? env->root : "";
}

bool probe_live(const struct probe_env *env)
{
	return probe_root(env)[0] == '\0';
}

/* Read a small file into buf, trailing whitespace dropped. Returns its length or -errno. */
int probe_read_abs(const char *abs, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	fd = open(abs, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int probe_read(const struct probe_env *env, const char *rel, char *buf, size_t len)
{
	char abs[PATH_MAX];

	if (snprintf(abs, sizeof(abs), "%s%s", probe_root(env), rel) >= (int)sizeof(abs)) {
		if (len)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return probe_read_abs(abs, buf, len);
}

/* Read a whole (proc) file of unknown size into a new NUL-terminated string. */
int probe_slurp(const struct probe_env *env, const char *rel, char **text)
{
	char abs[PATH_MAX];
	size_t cap = 16384, used = 0;
	char *buf, *nbuf;
	ssize_t n;
	int fd;

	*text = NULL;
	if (snprintf(abs, sizeof(abs), "%s%s", probe_root(env), rel) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	fd = open(abs, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf)
		goto err_close;
	for (;;) {
		if (cap - used < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto err_free;
			buf = nbuf;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0) {
			n = -errno;
			free(buf);
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	*text = buf;
	return 0;

err_free:
	free(buf);
err_close:
	close(fd);
	return -ENOMEM;
}

/* snprintf for fields where a truncated value is acceptable (sysfs strings, descriptions). */
void probe_fmt(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

void probe_trial_set(struct probe_trial *t, int err, const char *fmt, ...)
{
	va_list ap;

	t->state = err ? PROBE_FAILED : PROBE_OK;
	t->err = err < 0 ? -err : err;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

static const char *const trial_names[PROBE_T_NR] = {
	[PROBE_T_CREATE] = "create",
	[PROBE_T_DIRECT_OPEN] = "direct_open",
	[PROBE_T_DIRECT_RW] = "direct_rw",
	[PROBE_T_UNALIGNED] = "direct_unaligned",
	[PROBE_T_MMAP] = "mmap_shared",
	[PROBE_T_FALLOCATE] = "fallocate",
	[PROBE_T_FSYNC] = "fsync",
};

const char *probe_trial_name(enum probe_trial_id id)
{
	return (unsigned)id < PROBE_T_NR ? trial_names[id] : "?";
}

const char *probe_fs_class_name(enum probe_fs_class c)
{
	switch (c) {
	case PROBE_FS_BLOCK:
		return "block";
	case PROBE_FS_MEMORY:
		return "memory";
	case PROBE_FS_HOSTSHARE:
		return "host-share";
	case PROBE_FS_NETWORK:
		return "network";
	case PROBE_FS_FUSE:
		return "fuse";
	case PROBE_FS_OVERLAY:
		return "overlay";
	case PROBE_FS_PSEUDO:
		return "pseudo";
	default:
		return "unknown";
	}
}

const char *probe_tri_name(enum probe_tri t)
{
	return t == PROBE_YES ? "true" : t == PROBE_NO ? "false" : "unknown";
}
