/* Unit tests for disk utilization: device resolution and the figures, on a made-up sysfs tree. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/diskutil.h"

static char root[PATH_MAX];

static void mk(const char *rel)
{
	char p[PATH_MAX * 2], *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	cr_assert_not_null(f, "cannot write %s", p);
	fputs(text, f);
	fclose(f);
}

static void link_at(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s", p);
}

/* The 11 classic fields of /sys/block/<dev>/stat (reads, ..., io_ticks, in_queue). */
static void stat_of(const char *dev, unsigned rios, unsigned wios, unsigned rt, unsigned wt,
		    unsigned io_ticks, unsigned in_queue)
{
	char text[256];

	snprintf(text, sizeof(text), "%u 1 %u %u %u 2 %u %u 0 %u %u 0 0 0 0\n", rios, rios * 8, rt,
		 wios, wios * 8, wt, io_ticks, in_queue);
	put(dev, text);
}

#define VDA "devices/pci0000:00/0000:00:04.0/virtio1/block/vda"
#define VDB "devices/pci0000:00/0000:00:05.0/virtio2/block/vdb"
#define DM0 "devices/virtual/block/dm-0"

/* vda with partition vda1; vdb; dm-0 over vda1 and vdb; tmpfs-like 0:40 has nothing. */
static void tree(void)
{
	snprintf(root, sizeof(root), "/tmp/iopath-du-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	mk(VDA "/vda1");
	mk(VDB);
	mk(DM0 "/slaves");
	mk(DM0 "/dm");
	mk("dev/block");
	put(VDA "/vda1/partition", "1\n");
	stat_of(VDA "/vda1/stat", 5, 5, 5, 5, 5, 5);
	stat_of(VDA "/stat", 100, 10, 50, 5, 200, 60);
	stat_of(VDB "/stat", 300, 30, 70, 7, 400, 80);
	stat_of(DM0 "/stat", 1000, 100, 500, 50, 600, 700);
	link_at("../../../../../" VDA "/vda1", DM0 "/slaves/vda1");
	link_at("../../../../../" VDB, DM0 "/slaves/vdb");
	link_at("../../" VDA, "dev/block/254:0");
	link_at("../../" VDA "/vda1", "dev/block/254:1");
	link_at("../../" VDB, "dev/block/254:16");
	link_at("../../" DM0, "dev/block/253:0");
}

static void untree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(diskutil, .init = tree, .fini = untree);

Test(diskutil, partition_counts_as_its_disk)
{
	struct disk_set s;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 254, 1), 0);
	cr_assert_eq(s.nr, 1);
	cr_assert_str_eq(s.dev[0].name, "vda");
	cr_assert_eq(s.dev[0].nr_slaves, 0);
	disk_set_free(&s);
}

Test(diskutil, device_without_block_node_adds_nothing)
{
	struct disk_set s;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 0, 40), 0);	/* tmpfs, 9p, virtiofs, FUSE */
	cr_assert_eq(disk_set_add_devnum(&s, 7, 99), 0);	/* not in sysfs */
	cr_assert_eq(s.nr, 0);
	disk_set_free(&s);
}

Test(diskutil, dm_lists_itself_then_its_slaves_once)
{
	struct disk_set s;
	unsigned i;
	bool vda = false, vdb = false;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 253, 0), 0);
	cr_assert_eq(disk_set_add_devnum(&s, 254, 0), 0);	/* a second job on vda itself */
	cr_assert_eq(s.nr, 3);
	cr_assert_str_eq(s.dev[0].name, "dm-0");
	cr_assert_eq(s.dev[0].nr_slaves, 2);
	for (i = 1; i < 3; i++) {
		vda |= !strcmp(s.dev[i].name, "vda");
		vdb |= !strcmp(s.dev[i].name, "vdb");
	}
	cr_assert(vda && vdb, "slaves: %s %s", s.dev[1].name, s.dev[2].name);
	disk_set_free(&s);
}

Test(diskutil, figures_are_end_minus_start_over_the_span)
{
	struct disk_set s;
	struct disk_util u;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 254, 16), 0);
	disk_set_start(&s);
	stat_of(VDB "/stat", 1300, 40, 170, 17, 900, 330);
	disk_set_end(&s);
	s.dev[0].start_ns = 0;
	s.dev[0].end_ns = 1000 * 1000000ull;		/* a 1 s span: io_ticks 500 ms is 50% */
	cr_assert(disk_set_util(&s, 0, &u));
	cr_assert_eq(u.d.ios[0], 1000);
	cr_assert_eq(u.d.ios[1], 10);
	cr_assert_eq(u.d.ticks[0], 100);
	cr_assert_eq(u.d.ticks[1], 10);
	cr_assert_eq(u.d.in_queue, 250);
	cr_assert_eq(u.msec, 1000);
	cr_assert_float_eq(u.util, 50.0, 1e-9);
	cr_assert_eq(u.slavecount, 0);
	disk_set_free(&s);
}

Test(diskutil, util_is_capped_at_100)
{
	struct disk_set s;
	struct disk_util u;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 254, 16), 0);
	disk_set_start(&s);
	stat_of(VDB "/stat", 300, 30, 70, 7, 5400, 80);
	disk_set_end(&s);
	s.dev[0].start_ns = 0;
	s.dev[0].end_ns = 1000 * 1000000ull;
	cr_assert(disk_set_util(&s, 0, &u));
	cr_assert_float_eq(u.util, 100.0, 1e-9);
	disk_set_free(&s);
}

Test(diskutil, dm_aggr_is_the_slaves_mean_and_busiest_util)
{
	struct disk_set s;
	struct disk_util u;
	unsigned i;

	disk_set_init(&s, root);
	cr_assert_eq(disk_set_add_devnum(&s, 253, 0), 0);
	disk_set_start(&s);
	stat_of(VDA "/stat", 200, 20, 150, 15, 300, 160);	/* +100 +10, io_ticks +100 */
	stat_of(VDB "/stat", 600, 30, 370, 7, 1000, 480);	/* +300 +0, io_ticks +600 */
	stat_of(DM0 "/stat", 1400, 110, 900, 60, 1300, 1200);
	disk_set_end(&s);
	for (i = 0; i < s.nr; i++) {
		s.dev[i].start_ns = 0;
		s.dev[i].end_ns = 1000 * 1000000ull;
	}
	cr_assert(disk_set_util(&s, 0, &u));
	cr_assert_eq(u.slavecount, 2);
	cr_assert_eq(u.d.ios[0], 400);
	cr_assert_eq(u.aggr.ios[0], 200);	/* (100 + 300) / 2 */
	cr_assert_eq(u.aggr.ios[1], 5);
	cr_assert_eq(u.aggr.ticks[0], 200);	/* (100 + 300) / 2 */
	cr_assert_eq(u.aggr.in_queue, 250);	/* (100 + 400) / 2 */
	cr_assert_float_eq(u.aggr_util, 60.0, 1e-9);
	cr_assert_float_eq(u.util, 70.0, 1e-9);
	disk_set_free(&s);
}
