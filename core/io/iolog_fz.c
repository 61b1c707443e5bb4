/* fio's compressed logs (log_store_compressed, NAME_TYPE.log.fz) turned back into log lines. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <sys/stat.h>

#include "io/iolog.h"

/*
 * A .fz file is zlib streams one after another (fio compresses a log a chunk at a time, and
 * writers of a shared file append theirs); each inflates to fio's binary samples (struct
 * io_sample: time, value, direction, priority, block size; then the offset with log_offset=1),
 * in the writer's byte order. The direction word's top bits say which: offset, priority value.
 */
#define SAMPLE_LEN 32
#define SAMPLE_OFFSET_LEN 40
#define SAMPLE_OFFSET_BIT 0x80000000u
#define SAMPLE_PRIO_BIT 0x40000000u
#define SAMPLE_DDIR_MASK (~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT))

static int read_whole(const char *path, unsigned char **buf, size_t *len, struct iop_err *err)
{
	struct stat st;
	size_t got = 0;
	ssize_t n;
	/* O_NONBLOCK: a FIFO's open would wait for a writer; the descriptor is then checked */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret = 0;

	*buf = NULL;
	if (fd < 0)
		return iop_errf(err, -errno, "--inflate-log=%s: cannot open it: %s", path,
				strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ret = iop_errf(err, -EINVAL, "--inflate-log=%s: not a regular file", path);
		goto out;
	}
	if (!st.st_size) {
		ret = iop_errf(err, -EINVAL, "--inflate-log=%s: the file is empty (accepted: a log written with log_store_compressed=1)",
			       path);
		goto out;
	}
	*buf = malloc((size_t)st.st_size);
	if (!*buf) {
		ret = iop_errf(err, -ENOMEM, "--inflate-log=%s: out of memory for %lld bytes", path,
			       (long long)st.st_size);
		goto out;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, *buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = iop_errf(err, n ? -errno : -EIO, "--inflate-log=%s: read failed: %s",
				       path, n ? strerror(errno) : "the file shrank");
			goto out;
		}
		got += (size_t)n;
	}
	*len = got;
out:
	close(fd);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* One stream's samples as fio's lines (its flush_samples). */
static int print_samples(FILE *out, const unsigned char *s, size_t len, size_t at,
			 const char *path, struct iop_err *err)
{
	uint32_t ddir;
	size_t one, i;
	int offsets, prio_value;

	memcpy(&ddir, s + 16, 4);
	offsets = (ddir & SAMPLE_OFFSET_BIT) != 0;
	prio_value = (ddir & SAMPLE_PRIO_BIT) != 0;
	one = offsets ? SAMPLE_OFFSET_LEN : SAMPLE_LEN;
	if (len % one)
		return iop_errf(err, -EINVAL, "--inflate-log=%s: the stream at byte %zu holds %zu bytes, not a whole number of fio's %zu-byte log samples",
				path, at, len, one);
	for (i = 0; i < len; i += one) {
		uint64_t t, bs, off = 0;
		int64_t val;
		uint16_t prio;

		memcpy(&t, s + i, 8);
		memcpy(&val, s + i + 8, 8);
		memcpy(&ddir, s + i + 16, 4);
		memcpy(&prio, s + i + 20, 2);
		memcpy(&bs, s + i + 24, 8);
		if ((ddir & SAMPLE_DDIR_MASK) > 2)
			return iop_errf(err, -EINVAL, "--inflate-log=%s: the stream at byte %zu is not a log of fio's samples (sample %zu has direction %u; logs hold 0 read, 1 write, 2 trim)",
					path, at, i / one, ddir & SAMPLE_DDIR_MASK);
		fprintf(out, "%llu, %" PRId64 ", %u, %llu", (unsigned long long)t, val,
			ddir & SAMPLE_DDIR_MASK, (unsigned long long)bs);
		if (offsets) {
			memcpy(&off, s + i + 32, 8);
			fprintf(out, ", %llu", (unsigned long long)off);
		}
		if (prio_value)
			fprintf(out, ", 0x%04x\n", prio);
		else
			fprintf(out, ", %u\n", (prio >> IOPRIO_CLASS_SHIFT) == IOPRIO_CLASS_RT);
	}
	return 0;
}

/*
 * Inflate the stream that starts at in[0] (zlib or gzip framed, as fio accepts) into *raw;
 * *used is how many input bytes it took.
 */
static int inflate_stream(const unsigned char *in, size_t avail, unsigned char **raw,
			  size_t *raw_len, size_t *used, size_t at, const char *path,
			  struct iop_err *err)
{
	size_t cap = avail * 4 < 65536 ? 65536 : avail * 4;
	z_stream zs;
	int zr = Z_OK, ret = 0;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 32) != Z_OK)
		return iop_errf(err, -ENOMEM, "--inflate-log=%s: zlib cannot start", path);
	*raw = malloc(cap);
	*raw_len = 0;
	if (!*raw) {
		ret = iop_errf(err, -ENOMEM, "--inflate-log=%s: out of memory", path);
		goto out;
	}
	zs.next_in = (unsigned char *)in;
	zs.avail_in = avail > UINT32_MAX ? UINT32_MAX : (uInt)avail;
	while (zr != Z_STREAM_END) {
		if (*raw_len == cap) {
			unsigned char *p = cap > SIZE_MAX / 2 ? NULL : realloc(*raw, cap * 2);

			if (!p) {
				ret = iop_errf(err, -ENOMEM, "--inflate-log=%s: out of memory", path);
				goto out;
			}
			*raw = p;
			cap *= 2;
		}
		zs.next_out = *raw + *raw_len;
		zs.avail_out = cap - *raw_len > UINT32_MAX ? UINT32_MAX : (uInt)(cap - *raw_len);
		zr = inflate(&zs, Z_NO_FLUSH);
		*raw_len = (size_t)(zs.next_out - *raw);
		if (zr == Z_BUF_ERROR && zs.avail_out && !zs.avail_in) {
			ret = iop_errf(err, -EINVAL, "--inflate-log=%s: the file ends inside the compressed stream that starts at byte %zu (truncated?)",
				       path, at);
			goto out;
		}
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			ret = iop_errf(err, -EINVAL, "--inflate-log=%s: the data at byte %zu is not a zlib-compressed log (%s); accepted: a log written with log_store_compressed=1 by fio or iopath",
				       path, at, zs.msg ? zs.msg : "bad data");
			goto out;
		}
	}
	*used = (size_t)(zs.next_in - in);
out:
	inflateEnd(&zs);
	if (ret) {
		free(*raw);
		*raw = NULL;
	}
	return ret;
}

int iolog_inflate(const char *path, char **text, size_t *text_len, struct iop_err *err)
{
	unsigned char *buf, *raw = NULL;
	size_t len = 0, at = 0, used = 0, raw_len = 0;
	FILE *out;
	int ret;

	*text = NULL;
	*text_len = 0;
	ret = read_whole(path, &buf, &len, err);
	if (ret)
		return ret;
	out = open_memstream(text, text_len);
	if (!out) {
		free(buf);
		return iop_errf(err, -ENOMEM, "--inflate-log=%s: out of memory", path);
	}
	while (!ret && at < len) {
		ret = inflate_stream(buf + at, len - at, &raw, &raw_len, &used, at, path, err);
		if (!ret && raw_len)
			ret = print_samples(out, raw, raw_len, at, path, err);
		free(raw);
		raw = NULL;
		at += used;
	}
	free(buf);
	if (fclose(out) && !ret)
		ret = iop_errf(err, -ENOMEM, "--inflate-log=%s: out of memory", path);
	if (ret) {
		free(*text);
		*text = NULL;
		*text_len = 0;
	}
	return ret;
}
