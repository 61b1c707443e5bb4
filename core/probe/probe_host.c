/* Host probe: kernel, CPU, hypervisor (CPUID, DMI), WSL and container markers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "probe/probe_int.h"

extern char **environ;

struct name_map {
	const char *key;
	const char *name;
};

/* CPUID leaf 0x40000000 signatures (EBX, ECX, EDX), trailing NULs dropped. */
static const struct name_map hv_sigs[] = {
	{ "KVMKVMKVM", "KVM" },
	{ "Linux KVM Hv", "KVM" },
	{ "TCGTCGTCGTCG", "QEMU/TCG" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "XenVMMXenVMM", "Xen" },
	{ "bhyve bhyve ", "bhyve" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "QNXQVMBSQG", "QNX" },
	{ "Apple VZ", "Apple Virtualization" },
	{ "prl hyperv  ", "Parallels" },
	{ " lrpepyh  vr", "Parallels" },
	{ "Jailhouse", "Jailhouse" },
	{ NULL, NULL },
};

const char *probe_hv_name(const char *sig)
{
	const struct name_map *m;

	for (m = hv_sigs; m->key; m++)
		if (!strcmp(sig, m->key))
			return m->name;
	return NULL;
}

/* DMI sys_vendor / product_name fragments of virtual and cloud machines. */
static const struct name_map dmi_vendors[] = {
	{ "QEMU", "QEMU" },
	{ "innotek GmbH", "VirtualBox" },
	{ "VirtualBox", "VirtualBox" },
	{ "VMware", "VMware" },
	{ "Microsoft Corporation", "Hyper-V" },
	{ "Amazon EC2", "Amazon EC2" },
	{ "Google", "Google Compute Engine" },
	{ "Xen", "Xen" },
	{ "Parallels", "Parallels" },
	{ "Bochs", "Bochs" },
	{ "OpenStack", "OpenStack" },
	{ "DigitalOcean", "DigitalOcean" },
	{ "Hetzner", "Hetzner Cloud" },
	{ "Alibaba Cloud", "Alibaba Cloud" },
	{ "KVM", "KVM" },
	{ "VirtualMac", "Apple Virtualization" },
	{ NULL, NULL },
};

/* What DMI says the machine is when it is a known virtual or cloud one, else NULL. */
const char *probe_dmi_platform(const char *vendor, const char *product)
{
	const struct name_map *m;

	for (m = dmi_vendors; m->key; m++) {
		if (!strcmp(m->key, "Microsoft Corporation")) {
			/* Microsoft also makes laptops: only its "Virtual Machine" is Hyper-V. */
			if (strstr(vendor, m->key) && strstr(product, "Virtual Machine"))
				return m->name;
			continue;
		}
		if (strstr(vendor, m->key) || strstr(product, m->key))
			return m->name;
	}
	return NULL;
}

/* 0 when /proc/version is not a WSL kernel's, else 1 or 2. */
int probe_wsl_version(const char *proc_version)
{
	if (!strcasestr(proc_version, "microsoft"))
		return 0;
	if (strstr(proc_version, "WSL2") || strstr(proc_version, "microsoft-standard"))
		return 2;
	return 1;
}

/* The container runtime a cgroup path names, or NULL. */
const char *probe_cgroup_container(const char *cgroup)
{
	if (strstr(cgroup, "kubepods"))
		return "kubernetes";
	if (strstr(cgroup, "libpod"))
		return "podman";
	if (strstr(cgroup, "docker"))
		return "docker";
	if (strstr(cgroup, "/lxc"))
		return "lxc";
	if (strstr(cgroup, "containerd"))
		return "containerd";
	return NULL;
}

/* The live CPUID leaf 0x40000000 signature, "" when no hypervisor bit is set. */
static void cpuid_live(char *sig, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char raw[13];

	sig[0] = '\0';
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(raw, &b, 4);
	memcpy(raw + 4, &c, 4);
	memcpy(raw + 8, &d, 4);
	raw[12] = '\0';
	/* KVM with Hyper-V enlightenments shows Hyper-V first and itself at 0x40000100. */
	if (!strcmp(raw, "Microsoft Hv")) {
		__cpuid(0x40000100, a, b, c, d);
		if (b == 0x4b4d564b && c == 0x564b4d56 && d == 0x4d)
			memcpy(raw, "KVMKVMKVM\0\0\0", 12);
	}
	for (a = 0; a < 12 && raw[a]; a++)
		if (raw[a] < 0x20 || raw[a] > 0x7e)
			raw[a] = '?';
	probe_fmt(sig, len, "%s", raw);
#else
	sig[0] = '\0';
#endif
}

static void cpuid_signature(const struct probe_env *env, struct probe_host *h)
{
	if (env && env->cpuid_sig)
		probe_fmt(h->hv_sig, sizeof(h->hv_sig), "%s", env->cpuid_sig);
	else if (probe_live(env))
		cpuid_live(h->hv_sig, sizeof(h->hv_sig));
}

static void cpu_info(const struct probe_env *env, struct probe_host *h)
{
	char *text, *line, *save = NULL;

	if (probe_slurp(env, "/proc/cpuinfo", &text))
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "processor", 9))
			h->nr_cpus++;
		else if (!h->cpu_model[0] && (!strncmp(line, "model name", 10) ||
					      !strncmp(line, "Model", 5)))
			probe_fmt(h->cpu_model, sizeof(h->cpu_model), "%s", colon + 2);
	}
	free(text);
}

static void container_add(struct probe_host *h, const char *name, const char *evidence)
{
	size_t n = strlen(h->container_evidence);

	if (!h->container[0])
		probe_fmt(h->container, sizeof(h->container), "%s", name);
	probe_fmt(h->container_evidence + n, sizeof(h->container_evidence) - n, "%s%s",
		 n ? ", " : "", evidence);
}

static const char *env_get(const struct probe_env *env, const char *key)
{
	char *const *e = env && env->envp ? env->envp : environ;
	size_t n = strlen(key);

	for (; e && *e; e++)
		if (!strncmp(*e, key, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static bool root_is_overlay(const struct probe_env *env)
{
	struct mnt_entry *e;
	char *text;
	bool ret = false;

	if (probe_slurp(env, "/proc/self/mountinfo", &text))
		return false;
	e = malloc(sizeof(*e));
	if (e && mountinfo_find(text, "/", e) == 0)
		ret = !strcmp(e->mount_point, "/") && !strcmp(e->fstype, "overlay");
	free(e);
	free(text);
	return ret;
}

static void container_detect(const struct probe_env *env, struct probe_host *h)
{
	char buf[4096], ev[160];
	const char *v;

	if (probe_read(env, "/.dockerenv", buf, sizeof(buf)) >= 0)
		container_add(h, "docker", "/.dockerenv");
	if (probe_read(env, "/run/.containerenv", buf, sizeof(buf)) >= 0)
		container_add(h, "podman", "/run/.containerenv");
	v = env_get(env, "container");
	if (v && v[0]) {
		probe_fmt(ev, sizeof(ev), "container=%s", v);
		container_add(h, v, ev);
	}
	if (probe_read(env, "/run/systemd/container", buf, sizeof(buf)) > 0) {
		probe_fmt(ev, sizeof(ev), "/run/systemd/container=%.64s", buf);
		container_add(h, buf, ev);
	}
	if (probe_read(env, "/proc/1/cgroup", buf, sizeof(buf)) > 0) {
		v = probe_cgroup_container(buf);
		if (v) {
			probe_fmt(ev, sizeof(ev), "/proc/1/cgroup names %s", v);
			container_add(h, v, ev);
		}
	}
	if (root_is_overlay(env))
		container_add(h, "container", "overlay root filesystem");
	if (!h->container[0])
		probe_fmt(h->container, sizeof(h->container), "none");
}

static void dmi_read(const struct probe_env *env, struct probe_host *h)
{
	const char *plat;

	probe_read(env, "/sys/class/dmi/id/sys_vendor", h->dmi_vendor, sizeof(h->dmi_vendor));
	probe_read(env, "/sys/class/dmi/id/product_name", h->dmi_product, sizeof(h->dmi_product));
	probe_read(env, "/sys/class/dmi/id/bios_vendor", h->dmi_bios, sizeof(h->dmi_bios));
	plat = probe_dmi_platform(h->dmi_vendor, h->dmi_product);
	if (!plat)
		plat = probe_dmi_platform(h->dmi_bios, "");
	probe_fmt(h->platform, sizeof(h->platform), "%s", plat ? plat : h->dmi_vendor);
}

/* Name the hypervisor from CPUID first, DMI and WSL second; then the phrase for summaries. */
static void hv_decide(struct probe_host *h)
{
	const char *hv = h->hv_sig[0] ? probe_hv_name(h->hv_sig) : NULL;
	bool dmi_virtual = probe_dmi_platform(h->dmi_vendor, h->dmi_product) ||
			   probe_dmi_platform(h->dmi_bios, "");

	if (hv)
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "%s", hv);
	else if (h->hv_sig[0])
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "unknown (%s)", h->hv_sig);
	else if (dmi_virtual)
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "%s", h->platform);
	else if (h->wsl)
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "Hyper-V");
	else if (strstr(h->cpu_model, "VirtualApple"))
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "Apple (Rosetta x86 translation)");
	else
		probe_fmt(h->hypervisor, sizeof(h->hypervisor), "none");

	if (h->wsl)
		probe_fmt(h->virt, sizeof(h->virt), "WSL%d", h->wsl);
	else if (!strcmp(h->hypervisor, "none"))
		probe_fmt(h->virt, sizeof(h->virt), "bare metal");
	else if (dmi_virtual && strcmp(h->platform, h->hypervisor) &&
		 strcmp(h->hypervisor, "QEMU/TCG"))
		probe_fmt(h->virt, sizeof(h->virt), "%s (%s)", h->hypervisor, h->platform);
	else
		probe_fmt(h->virt, sizeof(h->virt), "%s", h->hypervisor);
}

int probe_host_env(const struct probe_env *env, struct probe_host *h)
{
	struct utsname u;
	char buf[1024];

	memset(h, 0, sizeof(*h));
	if (probe_live(env) && uname(&u) == 0) {
		probe_fmt(h->kernel, sizeof(h->kernel), "%s", u.release);
		probe_fmt(h->machine, sizeof(h->machine), "%s", u.machine);
	} else {
		probe_read(env, "/proc/sys/kernel/osrelease", h->kernel, sizeof(h->kernel));
	}
	cpu_info(env, h);
	cpuid_signature(env, h);
	dmi_read(env, h);
	if (probe_read(env, "/proc/version", buf, sizeof(buf)) > 0)
		h->wsl = probe_wsl_version(buf);
	container_detect(env, h);
	hv_decide(h);
	return 0;
}

int probe_host(struct probe_host *h)
{
	return probe_host_env(NULL, h);
}
