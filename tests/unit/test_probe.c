/* Unit tests for the storage-path probe: this machine, loop/FUSE mounts, recorded sample trees. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "base/err.h"
#include "iopath/engine.h"
#include "iopath/probe.h"
#include "probe/probe_int.h"

#ifndef SAMPLES_DIR
#define SAMPLES_DIR "tests/probe-samples"
#endif

static struct probe_path pp;
static struct probe_host ph;

/* Probe path inside sample tree name, without trials. */
static void sample_path(const char *name, const char *path)
{
	char root[256];
	struct probe_env env = { .root = root };
	struct iop_err err = { "" };
	int ret;

	snprintf(root, sizeof(root), "%s/%s", SAMPLES_DIR, name);
	ret = probe_path_env(&env, path, 0, &pp, &err);
	cr_assert_eq(ret, 0, "probe of %s in %s: %d %s", path, name, ret, err.msg);
}

static void sample_host(const char *name, const char *sig, char *const *envp)
{
	char root[256];
	char *const empty[] = { NULL };
	struct probe_env env = { .root = root, .cpuid_sig = sig, .envp = envp ? envp : empty };

	snprintf(root, sizeof(root), "%s/%s", SAMPLES_DIR, name);
	cr_assert_eq(probe_host_env(&env, &ph), 0);
}

static void summary_of(char *buf, size_t len, bool with_host)
{
	probe_summary(&pp, with_host ? &ph : NULL, buf, len);
}

/* ---- this machine ---- */

static bool root_on(const char *dev)
{
	struct probe_path *p = malloc(sizeof(*p));
	bool on;

	cr_assert(p);
	on = probe_path("/", 0, p, NULL) == 0 && p->nr_chain && !strcmp(p->chain[0].name, dev);
	free(p);
	return on;
}

Test(probe, this_machine_root_is_ext4_on_virtio_blk)
{
	char line[512];

	if (!root_on("vda"))
		cr_skip_test("/ is not on /dev/vda here: the layout of the build machine is checked");
	probe_host(&ph);
	cr_assert_eq(probe_path("/", 0, &pp, NULL), 0);
	cr_assert_str_eq(pp.fs, "ext4");
	cr_assert_eq(pp.fs_class, PROBE_FS_BLOCK);
	cr_assert_eq(pp.f_type, 0xEF53);
	cr_assert_str_eq(pp.chain[0].driver, "virtio_blk");
	cr_assert_str_eq(pp.chain[0].kind, "disk");
	cr_assert_str_eq(pp.chain[0].write_cache, "write back");
	cr_assert_gt(pp.chain[0].logical_bs, 0);
	summary_of(line, sizeof(line), true);
	cr_assert(strstr(line, "ext4 on /dev/vda (virtio_blk, write-back cache)"), "%s", line);
}

Test(probe, this_machine_hypervisor_matches_cpuinfo_flag)
{
	char *text = NULL;
	bool flagged;

	cr_assert_eq(probe_slurp(NULL, "/proc/cpuinfo", &text), 0);
	flagged = strstr(text, " hypervisor") != NULL;
	free(text);
	probe_host(&ph);
	cr_assert_eq(flagged, ph.hv_sig[0] != '\0', "cpuinfo flag %d, signature '%s'", flagged,
		     ph.hv_sig);
	if (flagged)
		cr_assert_str_neq(ph.hypervisor, "none");
	cr_assert_neq(ph.kernel[0], '\0');
	cr_assert_gt(ph.nr_cpus, 0);
}

Test(probe, dev_shm_is_tmpfs_in_memory)
{
	struct stat st;

	if (stat("/dev/shm", &st))
		cr_skip_test("no /dev/shm here");
	cr_assert_eq(probe_path("/dev/shm", 0, &pp, NULL), 0);
	cr_assert_str_eq(pp.fs, "tmpfs");
	cr_assert_eq(pp.fs_class, PROBE_FS_MEMORY);
	cr_assert_eq(pp.f_type, 0x01021994);
	cr_assert_eq(pp.nr_chain, 0);
}

Test(probe, direct_reads_on_tmpfs_are_not_honoured)
{
	cr_assert_eq(probe_path("/dev/shm", PROBE_TRIALS | PROBE_TIMING, &pp, NULL), 0);
	if (pp.trial[PROBE_T_DIRECT_OPEN].state != PROBE_OK)
		cr_skip_test("tmpfs refuses O_DIRECT on this kernel (before 6.6)");
	cr_assert_eq(pp.direct_honoured, PROBE_NO, "%s", pp.direct_evidence);
}

static bool root_is_block(void)
{
	struct probe_path *p = malloc(sizeof(*p));
	bool block;

	cr_assert(p);
	block = probe_path("/var/tmp", 0, p, NULL) == 0 && p->fs_class == PROBE_FS_BLOCK &&
		p->nr_chain && strcmp(p->chain[p->nr_chain - 1].kind, "loop");
	free(p);
	return block;
}

Test(probe, trials_on_a_block_filesystem_find_direct_io_and_async_interfaces)
{
	if (!root_is_block())
		cr_skip_test("/var/tmp is not on a block device here");
	cr_assert_eq(probe_path("/var/tmp", PROBE_TRIALS, &pp, NULL), 0);
	cr_assert_eq(pp.trial[PROBE_T_CREATE].state, PROBE_OK, "%s", pp.trial[PROBE_T_CREATE].why);
	cr_assert_eq(pp.trial[PROBE_T_DIRECT_OPEN].state, PROBE_OK);
	cr_assert_eq(pp.trial[PROBE_T_DIRECT_RW].state, PROBE_OK);
	cr_assert(pp.direct_align == 512 || pp.direct_align == 4096);
	cr_assert_eq(pp.trial[PROBE_T_UNALIGNED].state, PROBE_FAILED);
	cr_assert_eq(pp.trial[PROBE_T_UNALIGNED].err, EINVAL);
	cr_assert_not_null(probe_engine_trial(&pp, "io_uring"), "no io_uring trial");
	cr_assert_eq(probe_engine_trial(&pp, "io_uring")->state, PROBE_OK, "%s",
		     probe_engine_trial(&pp, "io_uring")->why);
	cr_assert_not_null(probe_engine_trial(&pp, "libaio"), "no libaio trial");
	cr_assert_eq(probe_engine_trial(&pp, "libaio")->state, PROBE_OK, "%s",
		     probe_engine_trial(&pp, "libaio")->why);
	cr_assert_eq(pp.trial[PROBE_T_MMAP].state, PROBE_OK);
	cr_assert_eq(pp.trial[PROBE_T_FSYNC].state, PROBE_OK);
	cr_assert_gt(pp.fsync_ns, 0);
}

Test(probe, direct_reads_on_a_real_disk_are_honoured)
{
	if (!root_is_block())
		cr_skip_test("/var/tmp is not on a block device here");
	cr_assert_eq(probe_path("/var/tmp", PROBE_TRIALS | PROBE_TIMING, &pp, NULL), 0);
	cr_assert_eq(pp.direct_honoured, PROBE_YES, "%s", pp.direct_evidence);
}

static bool dir_has_probe_files(const char *dir)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	cr_assert(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, ".iopath-probe-", 14))
			found = true;
	closedir(d);
	return found;
}

Test(probe, trials_leave_no_temporary_file)
{
	char dir[] = "/var/tmp/iopath-test-XXXXXX";

	cr_assert(mkdtemp(dir));
	cr_assert_eq(probe_path(dir, PROBE_TRIALS | PROBE_TIMING, &pp, NULL), 0);
	cr_assert_eq(pp.trial[PROBE_T_CREATE].state, PROBE_OK);
	cr_assert_not(dir_has_probe_files(dir));
	rmdir(dir);
}

Test(probe, cheap_probe_writes_nothing_and_runs_no_trial)
{
	char dir[] = "/var/tmp/iopath-test-XXXXXX";
	unsigned i;

	cr_assert(mkdtemp(dir));
	cr_assert_eq(probe_path(dir, 0, &pp, NULL), 0);
	cr_assert_not(dir_has_probe_files(dir));
	cr_assert_eq(rmdir(dir), 0, "the directory stayed empty");
	for (i = 0; i < PROBE_T_NR; i++)
		cr_assert_eq(pp.trial[i].state, PROBE_NOT_RUN);
	cr_assert_eq(pp.direct_honoured, PROBE_UNKNOWN);
}

Test(probe, trials_where_no_file_can_be_made_are_recorded_not_errors)
{
	cr_assert_eq(probe_path("/proc/sys", PROBE_TRIALS, &pp, NULL), 0);
	cr_assert_eq(pp.trial[PROBE_T_CREATE].state, PROBE_FAILED);
	cr_assert_neq(pp.trial[PROBE_T_CREATE].err, 0);
	cr_assert_eq(pp.trial[PROBE_T_DIRECT_OPEN].state, PROBE_NOT_RUN);
	cr_assert_eq(pp.fs_class, PROBE_FS_PSEUDO);
}

Test(probe, missing_file_is_described_by_its_directory)
{
	cr_assert_eq(probe_path("/var/tmp/iopath-no-such-file", 0, &pp, NULL), 0);
	cr_assert_str_eq(pp.resolved, "/var/tmp/iopath-no-such-file");
	cr_assert_neq(pp.fs[0], '\0');
}

Test(probe, missing_directory_is_an_error_naming_the_path)
{
	struct iop_err err = { "" };

	cr_assert_eq(probe_path("/no-such-dir-iopath/x", 0, &pp, &err), -ENOENT);
	cr_assert(strstr(err.msg, "/no-such-dir-iopath/x"), "%s", err.msg);
}

/* ---- loop devices and FUSE, as root ---- */

struct scratch {
	char dir[64];
	char img[96];
	char loopdev[32];
	bool mounted;
};

static struct scratch sc;

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void scratch_init(void)
{
	memset(&sc, 0, sizeof(sc));
	snprintf(sc.dir, sizeof(sc.dir), "/var/tmp/iopath-mnt-XXXXXX");
	cr_assert(mkdtemp(sc.dir));
}

static void scratch_fini(void)
{
	char cmd[256];

	if (sc.mounted)
		umount2(sc.dir, MNT_DETACH);
	if (sc.loopdev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", sc.loopdev);
		run(cmd);
	}
	if (sc.img[0])
		unlink(sc.img);
	rmdir(sc.dir);
}

/* Make a filesystem image with mkfs, attach it to a loop device and mount it on sc.dir. */
static void loop_mount(const char *mkfs, unsigned mib)
{
	char cmd[512];
	FILE *f;

	if (geteuid())
		cr_skip_test("loop mounts need root");
	snprintf(sc.img, sizeof(sc.img), "%s.img", sc.dir);
	snprintf(cmd, sizeof(cmd), "truncate -s %uM %s && %s %s >/dev/null 2>&1", mib, sc.img,
		 mkfs, sc.img);
	if (run(cmd))
		cr_skip_test("%s is not available here", mkfs);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s", sc.img);
	f = popen(cmd, "r");
	cr_assert(f);
	if (!fgets(sc.loopdev, sizeof(sc.loopdev), f))
		sc.loopdev[0] = '\0';
	pclose(f);
	sc.loopdev[strcspn(sc.loopdev, "\n")] = '\0';
	if (!sc.loopdev[0])
		cr_skip_test("no free loop device");
	snprintf(cmd, sizeof(cmd), "mount %s %s", sc.loopdev, sc.dir);
	cr_assert_eq(run(cmd), 0, "%s failed", cmd);
	sc.mounted = true;
}

Test(probe, loop_mounted_ext4_names_the_loop_and_its_backing_file, .init = scratch_init,
     .fini = scratch_fini)
{
	loop_mount("mkfs.ext4 -q -F", 32);
	cr_assert_eq(probe_path(sc.dir, PROBE_TRIALS | PROBE_TIMING, &pp, NULL), 0);
	cr_assert_str_eq(pp.fs, "ext4");
	cr_assert_str_eq(pp.mount_point, sc.dir);
	cr_assert_eq(pp.nr_chain, 1);
	cr_assert_str_eq(pp.chain[0].kind, "loop");
	cr_assert(strstr(pp.chain[0].extra, sc.img), "%s", pp.chain[0].extra);
	cr_assert_eq(pp.direct_honoured, PROBE_NO, "a loop device without dio is page cache: %s",
		     pp.direct_evidence);
}

Test(probe, loop_mounted_xfs_is_xfs_with_direct_io, .init = scratch_init, .fini = scratch_fini)
{
	loop_mount("mkfs.xfs -q -f", 300);
	cr_assert_eq(probe_path(sc.dir, PROBE_TRIALS, &pp, NULL), 0);
	cr_assert_str_eq(pp.fs, "xfs");
	cr_assert_eq(pp.f_type, 0x58465342);
	cr_assert_eq(pp.trial[PROBE_T_DIRECT_RW].state, PROBE_OK);
	cr_assert_not(dir_has_probe_files(sc.dir));
}

Test(probe, bindfs_mount_is_fuse_and_its_direct_reads_are_cached, .init = scratch_init,
     .fini = scratch_fini)
{
	char cmd[256], src[80];

	if (geteuid() || access("/usr/bin/bindfs", X_OK) || access("/dev/fuse", R_OK))
		cr_skip_test("needs root, /dev/fuse and bindfs (apt-get install bindfs)");
	snprintf(src, sizeof(src), "%s.src", sc.dir);
	mkdir(src, 0700);
	snprintf(cmd, sizeof(cmd), "bindfs %s %s", src, sc.dir);
	cr_assert_eq(run(cmd), 0);
	sc.mounted = true;
	cr_assert_eq(probe_path(sc.dir, PROBE_TRIALS | PROBE_TIMING, &pp, NULL), 0);
	umount2(sc.dir, MNT_DETACH);
	sc.mounted = false;
	rmdir(src);
	cr_assert_str_eq(pp.fstype, "fuse");
	cr_assert_eq(pp.fs_class, PROBE_FS_FUSE);
	cr_assert_eq(pp.f_type, 0x65735546);
	cr_assert_eq(pp.trial[PROBE_T_DIRECT_OPEN].state, PROBE_OK);
	cr_assert_eq(pp.direct_honoured, PROBE_NO, "%s", pp.direct_evidence);
}

/* ---- recorded and reconstructed samples ---- */

Test(probe, sample_of_this_machine_reads_back_the_same_chain)
{
	sample_path("kvm-virtio-blk", "/");
	cr_assert_str_eq(pp.fs, "ext4");
	cr_assert_str_eq(pp.chain[0].name, "vda");
	cr_assert_str_eq(pp.chain[0].drivers, "virtio_blk virtio-pci");
	cr_assert_str_eq(pp.chain[0].scheduler, "mq-deadline");
	cr_assert_eq(pp.chain[0].nr_requests, 256);
}

Test(probe, classifies_9p_from_mountinfo)
{
	char line[256];

	sample_path("qemu-9p", "/mnt/none/file");
	sample_host("qemu-9p", "TCGTCGTCGTCG", NULL);
	cr_assert_str_eq(pp.fs, "9p");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	cr_assert_str_eq(pp.p9_trans, "virtio");
	cr_assert_eq(pp.p9_msize, 512000);
	cr_assert_str_eq(pp.p9_cache, "none");
	cr_assert_str_eq(pp.p9_version, "9p2000.L");
	cr_assert_eq(pp.nr_chain, 0);
	summary_of(line, sizeof(line), true);
	cr_assert_str_eq(line, "9p (virtio, msize 512000, cache=none) under QEMU/TCG");
}

Test(probe, reads_9p_cache_mode_by_name)
{
	sample_path("qemu-9p", "/mnt/loose");
	cr_assert_str_eq(pp.p9_cache, "loose");
}

Test(probe, reads_9p_cache_mode_from_hex_bits)
{
	sample_path("qemu-9p", "/mnt/mmap");
	cr_assert_str_eq(pp.p9_cache, "mmap");
	sample_path("qemu-9p", "/mnt/fscache");
	cr_assert_str_eq(pp.p9_cache, "fscache");
}

Test(probe, reads_9p_cache_mode_shown_bare_by_old_kernels)
{
	sample_path("qemu-9p", "/mnt/old");
	cr_assert_str_eq(pp.p9_cache, "mmap");
	cr_assert_eq(pp.p9_msize, 0);
	cr_assert(strstr(pp.fs_desc, "default msize"), "%s", pp.fs_desc);
}

Test(probe, reads_9p2000u_version)
{
	sample_path("qemu-9p", "/mnt/dotu");
	cr_assert_str_eq(pp.p9_version, "9p2000.u");
	cr_assert(strstr(pp.fs_desc, "9p2000.u"), "%s", pp.fs_desc);
}

Test(probe, trusts_mountinfo_over_the_host_magic_9p_passes_through)
{
	sample_path("qemu-9p", "/mnt/none");
	pp.f_type = 0xEF53;
	probe_classify(&pp);
	cr_assert_str_eq(pp.fs, "9p");
	cr_assert(strstr(pp.magic_note, "host"), "%s", pp.magic_note);
}

Test(probe, decodes_escaped_spaces_in_mount_points)
{
	sample_path("qemu-9p", "/mnt/my share/f");
	cr_assert_str_eq(pp.mount_point, "/mnt/my share");
	cr_assert_str_eq(pp.mount_source, "my share");
	cr_assert_eq(pp.p9_msize, 131072);
}

Test(probe, picks_the_longest_covering_mount_point)
{
	sample_path("qemu-9p", "/mnt/none/inner/x");
	cr_assert_str_eq(pp.fs, "tmpfs");
	sample_path("qemu-9p", "/mnt/none/innerx");
	cr_assert_str_eq(pp.fs, "9p");
}

Test(probe, a_later_mount_on_the_same_point_hides_the_earlier)
{
	struct mnt_entry *e = malloc(sizeof(*e));
	const char *text = "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
			   "2 1 0:30 / /data rw - ext4 /dev/sdb rw\n"
			   "3 1 0:31 / /data rw - tmpfs tmpfs rw\n";

	cr_assert(e);
	cr_assert_eq(mountinfo_find(text, "/data/x", e), 0);
	cr_assert_str_eq(e->fstype, "tmpfs");
	free(e);
}

Test(probe, rejects_a_malformed_mountinfo_line)
{
	struct mnt_entry *e = malloc(sizeof(*e));

	cr_assert(e);
	cr_assert_eq(mountinfo_parse_line("36 35 98:0 /mnt1 /mnt/parent rw,noatime", e), -EINVAL);
	cr_assert_eq(mountinfo_parse_line("garbage", e), -EINVAL);
	free(e);
}

Test(probe, walks_partition_to_virtio_blk_disk)
{
	char line[256];

	sample_path("qemu-9p", "/");
	sample_host("qemu-9p", "TCGTCGTCGTCG", NULL);
	cr_assert_eq(pp.nr_chain, 2);
	cr_assert_str_eq(pp.chain[0].name, "vda1");
	cr_assert_str_eq(pp.chain[0].kind, "partition");
	cr_assert_str_eq(pp.chain[1].name, "vda");
	cr_assert_str_eq(pp.chain[1].driver, "virtio_blk");
	cr_assert_str_eq(pp.chain[1].scheduler, "mq-deadline");
	summary_of(line, sizeof(line), true);
	cr_assert_str_eq(line, "ext4 on /dev/vda1 (virtio_blk, write-back cache) under QEMU/TCG");
}

Test(probe, classifies_virtiofs)
{
	sample_path("qemu-virtiofs", "/mnt/vfs/data");
	cr_assert_str_eq(pp.fs, "virtiofs");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	cr_assert_str_eq(pp.fs_desc, "virtiofs");
	sample_path("qemu-virtiofs", "/mnt/vfsdax");
	cr_assert_str_eq(pp.fs_desc, "virtiofs (dax)");
	cr_assert(strstr(pp.perf_opts, "dax=always"), "%s", pp.perf_opts);
}

Test(probe, walks_nvme_partition_and_reads_the_model)
{
	sample_path("qemu-virtiofs", "/");
	cr_assert_str_eq(pp.fs, "xfs");
	cr_assert_eq(pp.nr_chain, 2);
	cr_assert_str_eq(pp.chain[1].driver, "nvme");
	cr_assert_str_eq(pp.chain[1].model, "QEMU NVMe Ctrl");
	cr_assert_eq(pp.chain[1].rotational, 0);
	cr_assert(strstr(pp.perf_opts, "logbsize=32k"), "%s", pp.perf_opts);
}

Test(probe, classifies_vboxsf_and_names_virtualbox_from_dmi)
{
	sample_path("virtualbox", "/media/sf_shared");
	sample_host("virtualbox", NULL, NULL);
	cr_assert_str_eq(pp.fs, "vboxsf");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	cr_assert_str_eq(ph.platform, "VirtualBox");
	cr_assert_str_eq(ph.hypervisor, "VirtualBox");
}

Test(probe, finds_ahci_behind_the_sd_driver)
{
	sample_path("virtualbox", "/");
	cr_assert_str_eq(pp.chain[1].drivers, "sd ahci");
	cr_assert_str_eq(pp.chain[1].driver, "ahci");
	cr_assert_str_eq(pp.chain[1].model, "VBOX HARDDISK");
}

Test(probe, classifies_hgfs_through_fuse)
{
	sample_path("vmware", "/mnt/hgfs");
	sample_host("vmware", "VMwareVMware", NULL);
	cr_assert_str_eq(pp.fs, "hgfs");
	cr_assert_str_eq(pp.fs_subtype, "vmhgfs-fuse");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	cr_assert_str_eq(ph.hypervisor, "VMware");
}

Test(probe, classifies_hgfs_when_fuse_shows_no_subtype)
{
	memset(&pp, 0, sizeof(pp));
	strcpy(pp.fstype, "fuse");
	strcpy(pp.mount_source, "vmhgfs-fuse");
	probe_classify(&pp);
	cr_assert_str_eq(pp.fs, "hgfs");
}

Test(probe, walks_dm_over_a_partition_to_pvscsi)
{
	char line[256];

	sample_path("vmware", "/");
	cr_assert_eq(pp.nr_chain, 3);
	cr_assert_str_eq(pp.chain[0].kind, "dm");
	cr_assert_str_eq(pp.chain[0].extra, "name vg-root");
	cr_assert_str_eq(pp.chain[1].name, "sda3");
	cr_assert_str_eq(pp.chain[2].driver, "vmw_pvscsi");
	summary_of(line, sizeof(line), false);
	cr_assert_str_eq(line, "ext4 on /dev/dm-0 over /dev/sda (vmw_pvscsi, write-through cache)");
}

Test(probe, classifies_wsl2_drvfs_and_the_wsl_kernel)
{
	char line[256];

	sample_path("wsl2", "/mnt/c/Users");
	sample_host("wsl2", "Microsoft Hv", NULL);
	cr_assert_str_eq(pp.fs, "drvfs");
	cr_assert_str_eq(pp.fs_subtype, "9p");
	cr_assert_str_eq(pp.p9_trans, "fd");
	cr_assert_str_eq(pp.mount_source, "C:\\");
	cr_assert_eq(ph.wsl, 2);
	summary_of(line, sizeof(line), true);
	cr_assert_str_eq(line, "drvfs (WSL2 9p) (fd, msize 65536, cache=mmap) under WSL2");
}

Test(probe, finds_hv_storvsc_under_wsl2)
{
	sample_path("wsl2", "/home");
	cr_assert_str_eq(pp.chain[0].driver, "hv_storvsc");
	cr_assert_eq(pp.chain[0].nr_requests, 2);
}

Test(probe, classifies_wsl1_drvfs)
{
	sample_path("wsl1", "/mnt/c");
	sample_host("wsl1", NULL, NULL);
	cr_assert_str_eq(pp.fs, "drvfs");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	cr_assert_eq(ph.wsl, 1);
}

Test(probe, classifies_nfs_with_its_transfer_sizes)
{
	sample_path("ec2-network", "/mnt/nfs/x");
	cr_assert_str_eq(pp.fs, "nfs");
	cr_assert_eq(pp.fs_class, PROBE_FS_NETWORK);
	cr_assert(strstr(pp.perf_opts, "vers=4.1"), "%s", pp.perf_opts);
	cr_assert(strstr(pp.perf_opts, "rsize=1048576"), "%s", pp.perf_opts);
	cr_assert(strstr(pp.perf_opts, "hard"), "%s", pp.perf_opts);
	cr_assert(strstr(pp.fs_desc, "fs-1234.efs"), "%s", pp.fs_desc);
	sample_path("ec2-network", "/mnt/nfs3");
	cr_assert(strstr(pp.fs_desc, "vers=3"), "%s", pp.fs_desc);
}

Test(probe, classifies_cifs_with_its_cache_mode)
{
	sample_path("ec2-network", "/mnt/smb");
	cr_assert_str_eq(pp.fs, "cifs");
	cr_assert(strstr(pp.perf_opts, "cache=strict"), "%s", pp.perf_opts);
	cr_assert(strstr(pp.perf_opts, "vers=3.1.1"), "%s", pp.perf_opts);
}

Test(probe, names_the_cloud_behind_kvm)
{
	sample_host("ec2-network", "KVMKVMKVM", NULL);
	cr_assert_str_eq(ph.platform, "Amazon EC2");
	cr_assert_str_eq(ph.virt, "KVM (Amazon EC2)");
	sample_path("ec2-network", "/");
	cr_assert_str_eq(pp.chain[1].model, "Amazon Elastic Block Store");
}

Test(probe, finds_docker_from_its_markers)
{
	sample_host("docker", NULL, NULL);
	cr_assert_str_eq(ph.container, "docker");
	cr_assert(strstr(ph.container_evidence, "/.dockerenv"));
	cr_assert(strstr(ph.container_evidence, "cgroup"));
	cr_assert(strstr(ph.container_evidence, "overlay"));
	sample_path("docker", "/etc");
	cr_assert_eq(pp.fs_class, PROBE_FS_OVERLAY);
}

Test(probe, finds_podman_from_containerenv)
{
	sample_host("podman", NULL, NULL);
	cr_assert_str_eq(ph.container, "podman");
}

Test(probe, finds_a_container_from_the_environment)
{
	char *const envp[] = { "container=lxc", NULL };

	sample_host("qemu-9p", NULL, envp);
	cr_assert_str_eq(ph.container, "lxc");
}

Test(probe, says_none_only_without_any_container_marker)
{
	sample_host("qemu-9p", NULL, NULL);
	cr_assert_str_eq(ph.container, "none");
	cr_assert_str_eq(ph.container_evidence, "");
}

Test(probe, classifies_docker_desktop_shares)
{
	sample_path("docker-desktop", "/src/main.c");
	cr_assert_str_eq(pp.fs, "grpcfuse");
	cr_assert_eq(pp.fs_class, PROBE_FS_HOSTSHARE);
	sample_path("docker-desktop", "/data");
	cr_assert_str_eq(pp.fs, "fakeowner");
}

Test(probe, names_hypervisors_from_cpuid_signatures)
{
	cr_assert_str_eq(probe_hv_name("KVMKVMKVM"), "KVM");
	cr_assert_str_eq(probe_hv_name("TCGTCGTCGTCG"), "QEMU/TCG");
	cr_assert_str_eq(probe_hv_name("Microsoft Hv"), "Hyper-V");
	cr_assert_str_eq(probe_hv_name("VMwareVMware"), "VMware");
	cr_assert_str_eq(probe_hv_name("VBoxVBoxVBox"), "VirtualBox");
	cr_assert_str_eq(probe_hv_name("XenVMMXenVMM"), "Xen");
	cr_assert_str_eq(probe_hv_name("bhyve bhyve "), "bhyve");
	cr_assert_str_eq(probe_hv_name("ACRNACRNACRN"), "ACRN");
	cr_assert_str_eq(probe_hv_name("QNXQVMBSQG"), "QNX");
	cr_assert_str_eq(probe_hv_name("Apple VZ"), "Apple Virtualization");
	cr_assert_null(probe_hv_name("SomethingNew"));
}

Test(probe, reports_an_unknown_signature_as_such)
{
	sample_host("wsl1", "SomethingNew", NULL);
	cr_assert_str_eq(ph.hypervisor, "unknown (SomethingNew)");
}

Test(probe, reads_wsl_version_from_proc_version)
{
	cr_assert_eq(probe_wsl_version("Linux version 5.15.153.1-microsoft-standard-WSL2 (x)"), 2);
	cr_assert_eq(probe_wsl_version("Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)"), 1);
	cr_assert_eq(probe_wsl_version("Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)"), 0);
}

Test(probe, tells_microsoft_laptops_from_hyperv)
{
	cr_assert_str_eq(probe_dmi_platform("Microsoft Corporation", "Virtual Machine"), "Hyper-V");
	cr_assert_null(probe_dmi_platform("Microsoft Corporation", "Surface Laptop 5"));
	cr_assert_null(probe_dmi_platform("Dell Inc.", "PowerEdge R650"));
}

/* ---- verdicts ---- */

static void fake_path(const char *fstype, enum probe_trial_id failing, int err)
{
	memset(&pp, 0, sizeof(pp));
	strcpy(pp.fstype, fstype);
	strcpy(pp.mount_point, "/mnt/shared");
	strcpy(pp.super_opts, "rw,trans=virtio");
	probe_classify(&pp);
	pp.flags = PROBE_TRIALS;
	if (failing != PROBE_T_NR)
		probe_trial_set(&pp.trial[failing], err, "open(O_DIRECT): %s", strerror(err));
}

/* An engine as the planner hands it to the probe: its ops, from the registry. */
static const struct engine_ops *ops_of(const char *name)
{
	const struct engine_entry *e = engine_find(name);

	cr_assert_not_null(e, "no engine %s", name);
	return e->ops;
}

Test(probe, refuses_direct_where_o_direct_open_fails)
{
	char why[256];

	fake_path("9p", PROBE_T_DIRECT_OPEN, EINVAL);
	cr_assert(probe_refuses(&pp, true, ops_of("psync"), why, sizeof(why)));
	cr_assert_str_eq(why, "direct=1 on 9p at /mnt/shared: O_DIRECT open gives EINVAL");
	cr_assert_not(probe_refuses(&pp, false, ops_of("psync"), why, sizeof(why)));
}

Test(probe, refuses_an_engine_whose_trial_failed)
{
	char why[256];

	fake_path("ext4", PROBE_T_NR, 0);
	pp.nr_etrials = 2;
	snprintf(pp.etrial[0].engine, sizeof(pp.etrial[0].engine), "libaio");
	probe_trial_set(&pp.etrial[0].t, 0, "ok");
	snprintf(pp.etrial[1].engine, sizeof(pp.etrial[1].engine), "io_uring");
	probe_trial_set(&pp.etrial[1].t, EPERM, "io_uring_setup: %s", strerror(EPERM));
	cr_assert(probe_refuses(&pp, false, ops_of("io_uring"), why, sizeof(why)));
	cr_assert(strstr(why, "ioengine=io_uring"), "%s", why);
	cr_assert_not(probe_refuses(&pp, false, ops_of("libaio"), why, sizeof(why)));
	cr_assert_not(probe_refuses(&pp, false, ops_of("psync"), why, sizeof(why)));
}

Test(probe, refuses_a_mapping_engine_where_shared_maps_fail)
{
	char why[256];

	fake_path("9p", PROBE_T_MMAP, ENODEV);
	cr_assert(probe_refuses(&pp, false, ops_of("mmap"), why, sizeof(why)));
	cr_assert(strstr(why, "ioengine=mmap"), "%s", why);
	cr_assert_not(probe_refuses(&pp, false, ops_of("psync"), why, sizeof(why)));
}

Test(probe, refuses_nothing_without_trials)
{
	char why[256];

	fake_path("9p", PROBE_T_NR, 0);
	cr_assert_not(probe_refuses(&pp, true, ops_of("io_uring"), why, sizeof(why)));
	cr_assert_str_eq(why, "");
}

Test(probe, flags_but_does_not_refuse_direct_where_a_cache_answers_it)
{
	char why[512];

	fake_path("virtiofs", PROBE_T_NR, 0);
	pp.direct_honoured = PROBE_NO;
	strcpy(pp.direct_evidence, "reads as fast as a hole");
	cr_assert_not(probe_refuses(&pp, true, ops_of("psync"), why, sizeof(why)));
	cr_assert(probe_direct_suspect(&pp, why, sizeof(why)));
	cr_assert(strstr(why, "not honoured"), "%s", why);
	fake_path("tmpfs", PROBE_T_NR, 0);
	pp.direct_honoured = PROBE_NO;
	cr_assert_not(probe_direct_suspect(&pp, why, sizeof(why)));
}

Test(probe, summary_says_when_o_direct_is_unsupported)
{
	char line[256];

	fake_path("9p", PROBE_T_DIRECT_OPEN, EINVAL);
	summary_of(line, sizeof(line), false);
	cr_assert_str_eq(line, "9p (virtio, default msize, cache=none) \xe2\x80\x94 O_DIRECT unsupported (EINVAL)");
}

/* ---- JSON and the subcommand ---- */

Test(probe, path_json_carries_fs_devices_and_trials)
{
	json_t *o;

	sample_path("qemu-9p", "/");
	pp.flags = PROBE_TRIALS;
	o = probe_path_json(&pp);
	cr_assert(o);
	cr_assert_str_eq(json_string_value(json_object_get(o, "fs")), "ext4");
	cr_assert_eq(json_array_size(json_object_get(o, "devices")), 2);
	cr_assert(json_object_get(json_object_get(o, "trials"), "direct_open"));
	cr_assert_str_eq(json_string_value(json_object_get(o, "direct_honoured")), "unknown");
	json_decref(o);
}

Test(probe, host_json_carries_the_hypervisor)
{
	json_t *o;

	sample_host("qemu-9p", "TCGTCGTCGTCG", NULL);
	o = probe_host_json(&ph);
	cr_assert(o);
	cr_assert_str_eq(json_string_value(json_object_get(o, "hypervisor")), "QEMU/TCG");
	cr_assert_str_eq(json_string_value(json_object_get(o, "dmi_vendor")), "QEMU");
	json_decref(o);
}

Test(probe, cmd_rejects_an_unknown_option_with_status_2, .init = cr_redirect_stderr)
{
	char *argv[] = { "probe", "--bogus", NULL };

	cr_assert_eq(cmd_probe(2, argv), 2);
	fflush(stderr);
	cr_assert_stderr_eq_str("iopath probe: unknown option '--bogus' (accepted: PATH ..., --json, --no-trials, --help)\n");
}

Test(probe, cmd_prints_one_json_object_with_host_and_paths, .init = cr_redirect_stdout)
{
	char *argv[] = { "probe", "--json", "--no-trials", "/dev/shm", "/", NULL };
	json_error_t jerr;
	json_t *o;

	cr_assert_eq(cmd_probe(5, argv), 0);
	fflush(stdout);
	o = json_loadf(cr_get_redirected_stdout(), 0, &jerr);
	cr_assert(o, "%s", jerr.text);
	cr_assert(json_is_object(json_object_get(o, "host")));
	cr_assert_eq(json_array_size(json_object_get(o, "paths")), 2);
	cr_assert(json_string_value(json_object_get(json_array_get(json_object_get(o, "paths"), 0),
						    "summary")));
	json_decref(o);
}

Test(probe, block_device_node_describes_the_device_not_devtmpfs)
{
	struct probe_path bp;
	struct iop_err e;
	char node[300] = "";
	struct dirent *de;
	struct stat st;
	DIR *d = opendir("/sys/block");

	if (!d)
		cr_skip_test("no /sys/block here");
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strncmp(de->d_name, "loop", 4) ||
		    !strncmp(de->d_name, "ram", 3))
			continue;
		snprintf(node, sizeof(node), "/dev/%s", de->d_name);
		if (stat(node, &st) == 0 && S_ISBLK(st.st_mode))
			break;
		node[0] = '\0';
	}
	closedir(d);
	if (!node[0])
		cr_skip_test("no block device node under /dev for a disk in /sys/block");
	cr_assert_eq(probe_path(node, 0, &bp, &e), 0, "%s", e.msg);
	cr_assert_eq(bp.fs_class, PROBE_FS_BLOCK);
	cr_assert_str_eq(bp.fs, "block device");
	cr_assert_geq(bp.nr_chain, 1);
	cr_assert_str_eq(bp.chain[0].name, node + 5);
}

/* The verdict from the timed reads alone: a share whose round trip dwarfs a fast host disk
 * (virtiofs with allow_direct_io under TCG: 190 us a hole, 230 us data) is honoured when a
 * layer below refuses unaligned O_DIRECT, memory when unaligned reads are accepted, and
 * undecided when the data is not DEVICE_US slower. */
static enum probe_tri verdict_of(double data_us, double hole_us, bool unaligned_ok)
{
	memset(&pp, 0, sizeof(pp));
	pp.fs_class = PROBE_FS_FUSE;
	pp.direct_data_ns = (uint64_t)(data_us * 1e3);
	pp.direct_hole_ns = (uint64_t)(hole_us * 1e3);
	pp.trial[PROBE_T_UNALIGNED].state = unaligned_ok ? PROBE_OK : PROBE_FAILED;
	probe_direct_verdict(&pp, true);
	return pp.direct_honoured;
}

Test(probe, direct_reads_behind_a_slow_round_trip_are_judged_with_the_unaligned_trial)
{
	cr_assert_eq(verdict_of(230, 190, false), PROBE_YES, "%s", pp.direct_evidence);
	cr_assert(strstr(pp.direct_evidence, "unaligned O_DIRECT is refused"), "%s", pp.direct_evidence);
	cr_assert_eq(verdict_of(230, 190, true), PROBE_NO, "%s", pp.direct_evidence);
	cr_assert_eq(verdict_of(195, 190, false), PROBE_UNKNOWN, "%s", pp.direct_evidence);
	cr_assert_eq(verdict_of(306, 183, true), PROBE_YES, "%s", pp.direct_evidence);
	cr_assert_eq(verdict_of(120, 123, true), PROBE_NO, "%s", pp.direct_evidence);
}
