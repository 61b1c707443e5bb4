/*
 * exec_prerun and exec_postrun (fio's): a shell command a worker runs after its files are set
 * up and before its I/O, and after its I/O. As fio's exec_string, each worker (each clone of
 * numjobs) runs it, its output and errors go to NAME.prerun.txt or NAME.postrun.txt in the
 * current directory. Unlike fio's, the job's name never reaches the shell: the file is made
 * once as the job is laid out, as every file iopath writes (never through a link, never over
 * a file not iopath's), and each worker adds the whole command's output to it; a prerun that
 * fails fails the job rather than leaving it to do no I/O unsaid.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/iolog.h"
#include "base/msg.h"
#include "run/runner.h"
#include "run/worker.h"

extern char **environ;

/* Run cmd under /bin/sh with stdout and stderr on out, stdin on /dev/null; its wait status. */
static int spawn_shell(const char *cmd, int out, int *status)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	pid_t pid;
	int ret;

	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	posix_spawnattr_init(&at);
	/* the worker thread's blocked signals and handlers are not the command's */
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	ret = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int exec_path(const struct job_spec *job, bool post, char *path, size_t len)
{
	int n = snprintf(path, len, "%s.%s.txt", job->name, post ? "postrun" : "prerun");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int exec_outputs_make(const struct job_spec *job, struct iop_err *err)
{
	char path[PATH_MAX];
	unsigned post;
	int ret;

	for (post = 0; post < 2; post++) {
		if (!(post ? job->exec_postrun : job->exec_prerun)[0])
			continue;
		ret = exec_path(job, post, path, sizeof(path));
		if (!ret)
			ret = iolog_create(path);
		if (ret)
			return iop_errf(err, ret, "job %s: exec_%s's output %s: %s", job->name,
					post ? "postrun" : "prerun", path,
					ret == -EPERM || ret == -EEXIST ?
					"the file is there and is not iopath's (remove it)" : strerror(-ret));
	}
	return 0;
}

int worker_exec(struct worker *w, bool post)
{
	const struct job_spec *job = w->job;
	const char *cmd = post ? job->exec_postrun : job->exec_prerun;
	const char *mode = post ? "postrun" : "prerun";
	char path[PATH_MAX];
	int st = 0, ret;
	FILE *f;

	if (!cmd[0])
		return 0;
	ret = exec_path(job, post, path, sizeof(path));
	iop_msgf("%s : Saving output of %s in %s", job->name, mode, path);
	/* made (empty, iopath's) as the job was laid out; each worker adds its output */
	f = ret ? NULL : iolog_open(path);
	if (!ret && !f)
		ret = -errno;
	if (f) {
		ret = spawn_shell(cmd, fileno(f), &st);
		fclose(f);
	}
	if (ret) {
		worker_fail(w, -ret, "exec_%s: cannot run it with its output in %s: %s", mode, path,
			    strerror(-ret));
		return ret;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (post) {
		iop_msgf("job %s: exec_postrun '%s' %s %d (its output is in %s)", job->name, cmd,
			 WIFEXITED(st) ? "exited with status" : "was ended by signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), path);
		return 0;
	}
	worker_fail(w, ECANCELED, "exec_prerun '%s' %s %d, so the job did no I/O (its output is in %s)",
		    cmd, WIFEXITED(st) ? "exited with status" : "was ended by signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), path);
	return -ECANCELED;
}
