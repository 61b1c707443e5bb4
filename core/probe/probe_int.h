/* Probe internals shared by core/probe*.c and the unit tests: parsers, classifiers, sysfs walk. */
#ifndef IOPATH_PROBE_INT_H
#define IOPATH_PROBE_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iopath/probe.h"

/* One line of /proc/self/mountinfo, unescaped (\040 and friends decoded). */
struct mnt_entry {
	int id;
	int parent;
	unsigned major;
	unsigned minor;
	char root[PATH_MAX];
	char mount_point[PATH_MAX];
	char opts[256];
	char fstype[64];
	char source[256];
	char super_opts[1024];
};

/* Pure parsing and classifying: no file is touched. */
int mountinfo_parse_line(const char *line, struct mnt_entry *e);
int mountinfo_find(const char *text, const char *path, struct mnt_entry *e);
bool mount_opt(const char *opts, const char *key, char *val, size_t len);
void probe_classify(struct probe_path *p);
const char *probe_magic_name(uint64_t f_type);
const char *probe_p9_cache_name(const char *val, char *buf, size_t len);
const char *probe_hv_name(const char *sig);
const char *probe_dmi_platform(const char *vendor, const char *product);
int probe_wsl_version(const char *proc_version);
const char *probe_cgroup_container(const char *cgroup);

/* Reading files below the probe root ("" = the live system). */
const char *probe_root(const struct probe_env *env);
bool probe_live(const struct probe_env *env);
int probe_read_abs(const char *abs, char *buf, size_t len);
int probe_read(const struct probe_env *env, const char *rel, char *buf, size_t len);
int probe_slurp(const struct probe_env *env, const char *rel, char **text);

/* The block device chain below a mount (sysfs walk). */
int probe_dev_chain(const struct probe_env *env, struct probe_path *p);
/* The NVMe controller's counters (Health Information log) of the block device p names. */
void probe_nvme_health(struct probe_path *p);

/* The trials in a temporary file in dir (live system only). */
void probe_trials(struct probe_path *p, const char *dir, unsigned flags);
/* direct_honoured and its evidence from the timed reads (direct_data_ns, direct_hole_ns) and
 * the unaligned trial; sparse: the file has a hole to compare with */
void probe_direct_verdict(struct probe_path *p, bool sparse);

/* The two asynchronous-interface trials, through the engines: one read of fd at offset 0. */
/* Try every engine flagged ENGINE_TRIAL on fd: its init, one read of len bytes, its exit. */
void probe_trial_engines(struct probe_path *p, int fd, bool direct, void *buf, unsigned len);
/* Try every engine flagged ENGINE_PASSTHRU on the block device p names (reads only). */
void probe_passthru_trials(struct probe_path *p);

/* snprintf whose truncation is acceptable (fields of fixed size). */
void probe_fmt(char *dst, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Record a trial outcome. */
void probe_trial_set(struct probe_trial *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
