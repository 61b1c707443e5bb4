/* The io_uring and libaio trials: set the interface up and complete one read. */
#include <errno.h>
#include <libaio.h>
#include <liburing.h>
#include <string.h>

#include "probe_int.h"

/* Direct liburing use until the engines land; then this drives engine_find("io_uring"). */
void probe_trial_io_uring(struct probe_trial *t, int fd, void *buf, unsigned len)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret) {
		probe_trial_set(t, ret, "io_uring_setup: %s", strerror(-ret));
		return;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, buf, len, 0);
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret < 0) {
		probe_trial_set(t, ret, "io_uring_enter: %s", strerror(-ret));
		goto out_exit;
	}
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (ret) {
		probe_trial_set(t, ret, "io_uring_wait_cqe: %s", strerror(-ret));
		goto out_exit;
	}
	if (cqe->res < 0)
		probe_trial_set(t, cqe->res, "read completed with %s", strerror(-cqe->res));
	else
		probe_trial_set(t, 0, "ring set up, one %u-byte read completed", len);
	io_uring_cqe_seen(&ring, cqe);
out_exit:
	io_uring_queue_exit(&ring);
}

/* Direct libaio use until the engines land; then this drives engine_find("libaio"). */
void probe_trial_libaio(struct probe_trial *t, int fd, void *buf, unsigned len)
{
	io_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	int ret;

	ret = io_setup(4, &ctx);
	if (ret) {
		probe_trial_set(t, ret, "io_setup: %s", strerror(-ret));
		return;
	}
	io_prep_pread(&cb, fd, buf, len, 0);
	ret = io_submit(ctx, 1, cbs);
	if (ret != 1) {
		ret = ret < 0 ? ret : -EAGAIN;
		probe_trial_set(t, ret, "io_submit: %s", strerror(-ret));
		goto out_destroy;
	}
	ret = io_getevents(ctx, 1, 1, &ev, NULL);
	if (ret != 1) {
		ret = ret < 0 ? ret : -EIO;
		probe_trial_set(t, ret, "io_getevents: %s", strerror(-ret));
		goto out_destroy;
	}
	if ((long)ev.res < 0)
		probe_trial_set(t, (int)(long)ev.res, "read completed with %s",
				strerror((int)-(long)ev.res));
	else
		probe_trial_set(t, 0, "context set up, one %u-byte read completed", len);
out_destroy:
	io_destroy(ctx);
}
