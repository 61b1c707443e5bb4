/* Disk utilization: which block devices a run's files are on, and their stat over the run. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/diskutil.h"

void disk_set_init(struct disk_set *s, const char *root)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->sysfs, sizeof(s->sysfs), "%s", root ? root : "/sys");
}

void disk_set_free(struct disk_set *s)
{
	free(s->dev);
	s->dev = NULL;
	s->nr = s->cap = 0;
}

static bool has_entry(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return false;
	return stat(p, &st) == 0;
}

/* A partition is counted with its disk, as fio does: its sysfs directory is the disk's child. */
static void whole_disk(char *dir)
{
	char *slash;

	if (!has_entry(dir, "partition"))
		return;
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
}

static int find_dev(const struct disk_set *s, const char *name)
{
	unsigned i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->dev[i].name, name))
			return (int)i;
	return -1;
}

static int add_dir(struct disk_set *s, const char *dir, unsigned depth);

/* A dm or md device's slaves: each added (below it) and remembered as its slave. */
static int add_slaves(struct disk_set *s, unsigned master, const char *dir, unsigned depth)
{
	char sl[PATH_MAX], p[PATH_MAX], real[PATH_MAX];
	struct disk_dev *m;
	struct dirent *de;
	unsigned k;
	DIR *dh;
	int ret = 0, idx;

	if (snprintf(sl, sizeof(sl), "%s/slaves", dir) >= (int)sizeof(sl))
		return 0;
	dh = opendir(sl);
	if (!dh)
		return 0;
	while ((de = readdir(dh)) && !ret) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", sl, de->d_name) >= (int)sizeof(p) ||
		    !realpath(p, real))
			continue;
		whole_disk(real);
		ret = add_dir(s, real, depth + 1);
		idx = find_dev(s, strrchr(real, '/') + 1);
		if (ret || idx < 0)
			continue;
		m = &s->dev[master];	/* after add_dir: the array may have moved */
		for (k = 0; k < m->nr_slaves && m->slaves[k] != (unsigned)idx; k++)
			;
		if (k == m->nr_slaves && m->nr_slaves < DISK_SLAVES_MAX)
			m->slaves[m->nr_slaves++] = (unsigned)idx;
	}
	closedir(dh);
	return ret;
}

/* Add the device whose (whole-disk) sysfs directory is dir, once, then what is below it. */
static int add_dir(struct disk_set *s, const char *dir, unsigned depth)
{
	const char *name = strrchr(dir, '/');
	struct disk_dev *d;
	unsigned idx;

	if (!name || !name[1] || depth > 8)	/* stacks are shallow; a loop in sysfs is not */
		return 0;
	name++;
	if (find_dev(s, name) >= 0)
		return 0;
	if (s->nr == s->cap) {
		unsigned cap = s->cap ? s->cap * 2 : 4;
		struct disk_dev *n = realloc(s->dev, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->dev = n;
		s->cap = cap;
	}
	idx = s->nr++;
	d = &s->dev[idx];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->sysdir, sizeof(d->sysdir), "%s", dir);
	return add_slaves(s, idx, dir, depth);
}

int disk_set_add_devnum(struct disk_set *s, unsigned major, unsigned minor)
{
	char link[PATH_MAX], real[PATH_MAX];

	if (!major)		/* anonymous device numbers: tmpfs, 9p, virtiofs, FUSE, NFS ... */
		return 0;
	if (snprintf(link, sizeof(link), "%s/dev/block/%u:%u", s->sysfs, major, minor) >=
	    (int)sizeof(link) || !realpath(link, real))
		return 0;
	if (!has_entry(real, "stat"))
		return 0;
	whole_disk(real);
	return add_dir(s, real, 0);
}

int disk_set_add_path(struct disk_set *s, const char *path)
{
	char tmp[PATH_MAX];
	struct stat st;

	if (!lstat(path, &st)) {
		if (S_ISBLK(st.st_mode))
			return disk_set_add_devnum(s, major(st.st_rdev), minor(st.st_rdev));
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
			return 0;
	} else {
		/* not there yet: the filesystem that will hold it (its nearest directory there) */
		char *d;

		snprintf(tmp, sizeof(tmp), "%s", path);
		do
			d = dirname(tmp);
		while (stat(d, &st) && errno == ENOENT && strcmp(d, ".") && strcmp(d, "/"));
		if (stat(d, &st))
			return 0;
	}
	return disk_set_add_devnum(s, major(st.st_dev), minor(st.st_dev));
}

static bool read_counters(const char *sysdir, struct disk_counters *c)
{
	char p[PATH_MAX], line[512];
	unsigned long long v[11];
	FILE *f;
	int n;

	if (snprintf(p, sizeof(p), "%s/stat", sysdir) >= (int)sizeof(p))
		return false;
	f = fopen(p, "re");
	if (!f)
		return false;
	n = fgets(line, sizeof(line), f) ? sscanf(line,
		"%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) : 0;
	fclose(f);
	if (n != 11)
		return false;
	/* v[8] is the I/O in flight now: a level, not a counter */
	*c = (struct disk_counters){
		.ios = { v[0], v[4] }, .merges = { v[1], v[5] }, .sectors = { v[2], v[6] },
		.ticks = { v[3], v[7] }, .io_ticks = v[9], .in_queue = v[10],
	};
	return true;
}

void disk_set_start(struct disk_set *s)
{
	unsigned i;

	for (i = 0; i < s->nr; i++) {
		s->dev[i].start_ns = mono_ns();
		s->dev[i].have_start = read_counters(s->dev[i].sysdir, &s->dev[i].start);
	}
}

void disk_set_end(struct disk_set *s)
{
	unsigned i;

	for (i = 0; i < s->nr; i++) {
		s->dev[i].end_ns = mono_ns();
		s->dev[i].have_end = read_counters(s->dev[i].sysdir, &s->dev[i].end);
	}
}

/* end - start, 0 where a counter went back (a 32-bit counter wrapped, or was reset). */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

static void counters_delta(const struct disk_dev *d, struct disk_counters *o)
{
	unsigned k;

	for (k = 0; k < 2; k++) {
		o->ios[k] = delta(d->start.ios[k], d->end.ios[k]);
		o->merges[k] = delta(d->start.merges[k], d->end.merges[k]);
		o->sectors[k] = delta(d->start.sectors[k], d->end.sectors[k]);
		o->ticks[k] = delta(d->start.ticks[k], d->end.ticks[k]);
	}
	o->io_ticks = delta(d->start.io_ticks, d->end.io_ticks);
	o->in_queue = delta(d->start.in_queue, d->end.in_queue);
}

static double util_pct(uint64_t io_ticks, uint64_t msec)
{
	double u = msec ? 100.0 * (double)io_ticks / (double)msec : 0;

	return u > 100.0 ? 100.0 : u;
}

static uint64_t span_ms(const struct disk_dev *d)
{
	return (d->end_ns - d->start_ns) / 1000000;
}

bool disk_set_util(const struct disk_set *s, unsigned i, struct disk_util *u)
{
	const struct disk_dev *d = &s->dev[i];
	unsigned k, j;

	memset(u, 0, sizeof(*u));
	u->name = d->name;
	if (!d->have_start || !d->have_end)
		return false;
	counters_delta(d, &u->d);
	u->msec = span_ms(d);
	u->util = util_pct(u->d.io_ticks, u->msec);
	for (k = 0; k < d->nr_slaves; k++) {
		const struct disk_dev *sd = &s->dev[d->slaves[k]];
		struct disk_counters c;
		double su;

		if (!sd->have_start || !sd->have_end)
			continue;
		counters_delta(sd, &c);
		for (j = 0; j < 2; j++) {
			u->aggr.ios[j] += c.ios[j];
			u->aggr.merges[j] += c.merges[j];
			u->aggr.sectors[j] += c.sectors[j];
			u->aggr.ticks[j] += c.ticks[j];
		}
		u->aggr.in_queue += c.in_queue;
		su = util_pct(c.io_ticks, span_ms(sd));
		if (su > u->aggr_util)
			u->aggr_util = su;
		u->slavecount++;
	}
	if (u->slavecount) {
		for (j = 0; j < 2; j++) {
			u->aggr.ios[j] /= u->slavecount;
			u->aggr.merges[j] /= u->slavecount;
			u->aggr.sectors[j] /= u->slavecount;
			u->aggr.ticks[j] /= u->slavecount;
		}
		u->aggr.in_queue /= u->slavecount;
	}
	return true;
}
