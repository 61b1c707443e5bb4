/*
 * ioscheduler= (fio's switch_ioscheduler): the disk under the job's first file runs the named
 * I/O scheduler while the job runs. fio writes the name to the disk's queue/scheduler and
 * leaves it there; iopath puts back what was there when the job's group ends, so that a run
 * does not change the machine for whatever runs after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "probe/diskutil.h"
#include "run/runner.h"

/* The file's text, up to its first newline, into buf. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	while (n > 0 && buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	return 0;
}

static int write_name(const char *path, const char *name)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, name, strlen(name)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The selected scheduler of a list ("none [mq-deadline] kyber"): the bracketed name. */
static int selected(const char *list, char *out, size_t len)
{
	const char *a = strchr(list, '['), *b = a ? strchr(a, ']') : NULL;

	if (!b || (size_t)(b - a - 1) >= len)
		return -1;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return 0;
}

int iosched_switch(struct job_plan *plan, struct iop_err *err)
{
	const struct job_spec *job = plan->job;
	char file[PATH_MAX], list[512], want[80], prev[64];
	struct disk_set disks;
	int ret;

	if (!job->ioscheduler[0] || (job->engine->flags & ENGINE_DISKLESS) || !plan->paths)
		return 0;
	disk_set_init(&disks, NULL);
	ret = disk_set_add_path(&disks, plan->paths[0]);
	if (ret || !disks.nr) {
		disk_set_free(&disks);
		return iop_errf(err, -ENODEV,
				"job %s: ioscheduler=%s: %s is on no block device (a memory, network or FUSE filesystem): there is no scheduler to switch",
				job->name, job->ioscheduler, plan->paths[0]);
	}
	/* the disk's own name: /sys/block holds every whole disk, dm and md devices too */
	snprintf(file, sizeof(file), "/sys/block/%s/queue/scheduler", disks.dev[0].name);
	disk_set_free(&disks);
	ret = read_line(file, list, sizeof(list));
	if (ret)
		return iop_errf(err, ret, "job %s: ioscheduler=%s: %s: %s", job->name, job->ioscheduler,
				file, strerror(-ret));
	if (selected(list, prev, sizeof(prev))) {
		/* "none" alone: the queue has no scheduler to choose (fio says the same and goes on) */
		iop_msgf("job %s: ioscheduler=%s: the I/O scheduler of %s is not tunable (%s)", job->name,
			 job->ioscheduler, file, list);
		return 0;
	}
	snprintf(want, sizeof(want), "[%s]", job->ioscheduler);
	if (strstr(list, want))
		return 0;	/* already so: nothing to put back */
	ret = write_name(file, job->ioscheduler);
	if (ret == -EACCES || ret == -EPERM) {
		iop_msgf("job %s: ioscheduler=%s: not allowed to switch the I/O scheduler (%s); the job runs under %s, as fio goes on",
			 job->name, job->ioscheduler, file, prev);
		return 0;
	}
	if (!ret)
		ret = read_line(file, list, sizeof(list));
	if (!ret && !strstr(list, want))
		ret = -EINVAL;
	if (ret)
		return iop_errf(err, ret, "job %s: ioscheduler=%s: %s does not take it (offered: %s)",
				job->name, job->ioscheduler, file, list);
	snprintf(plan->iosched_file, sizeof(plan->iosched_file), "%s", file);
	snprintf(plan->iosched_prev, sizeof(plan->iosched_prev), "%s", prev);
	return 0;
}

void iosched_restore(struct job_plan *plan)
{
	int ret;

	if (!plan->iosched_file[0])
		return;
	ret = write_name(plan->iosched_file, plan->iosched_prev);
	if (ret)
		iop_msgf("job %s: could not put the I/O scheduler %s back in %s: %s", plan->job->name,
			 plan->iosched_prev, plan->iosched_file, strerror(-ret));
	plan->iosched_file[0] = '\0';
}
