"""Unit tests of scripts/vmlab's pieces that need no QEMU: the path table, module ordering,
job rewriting, the initramfs format, the serial fallback parser and the path checks."""

import contextlib
import importlib.machinery
import io
import importlib.util
import os
import signal
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
VMLAB = os.path.join(HERE, "..", "..", "scripts", "vmlab")


def load_vmlab():
    loader = importlib.machinery.SourceFileLoader("vmlab", VMLAB)
    spec = importlib.util.spec_from_loader("vmlab", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


vm = load_vmlab()


def path(name):
    return next(p for p in vm.PATHS if p.name == name)


class Progress(unittest.TestCase):
    def test_the_line_before_each_cell_counts_and_gives_an_eta_once_one_ran(self):
        self.assertEqual(vm.progress_line([], 4, "QEMU 7.2.0 blk-raw"),
                         "cell 1/4: QEMU 7.2.0 blk-raw (ETA ?)")
        # two cells took 30 and 50 s: the two left take about 80 s more
        self.assertEqual(vm.progress_line([30.0, 50.0], 4, "QEMU 10.0.0 9p-none"),
                         "cell 3/4: QEMU 10.0.0 9p-none (ETA 1:20)")
        self.assertEqual(vm.progress_line([125.0], 2, "x"), "cell 2/2: x (ETA 2:05)")


class PathTable(unittest.TestCase):
    def test_names_are_unique(self):
        names = [p.name for p in vm.PATHS]
        self.assertEqual(len(names), len(set(names)))

    def test_every_entry_is_complete_for_its_kind(self):
        for p in vm.PATHS:
            with self.subTest(p.name):
                self.assertIn(p.kind, ("blk", "ext4", "9p", "virtiofs"))
                self.assertTrue(p.expect, "no probe expectation")
                if p.kind in ("blk", "ext4"):
                    self.assertIn(p.image, ("qcow2", "raw"))
                    self.assertTrue(p.dev and p.device and p.modules)
                    self.assertIn("cache=", p.drive)
                else:
                    self.assertFalse(p.image)

    def test_issue_paths_are_all_present(self):
        kinds = {(p.kind, p.image) for p in vm.PATHS}
        for want in (("blk", "qcow2"), ("blk", "raw"), ("ext4", "raw"), ("9p", ""),
                     ("virtiofs", "")):
            self.assertIn(want, kinds)
        drivers = {dict(p.expect).get("driver") for p in vm.PATHS}
        self.assertTrue({"virtio_blk", "virtio_scsi", "nvme", "ahci", "ata_piix"} <= drivers)
        caches = {dict(p.expect).get("cache") for p in vm.PATHS if p.kind == "9p"}
        self.assertEqual(caches, {"none", "loose", "mmap"})

    def test_aio_native_only_with_cache_none(self):
        # QEMU refuses aio=native without O_DIRECT on the image.
        for p in vm.PATHS:
            if "aio=native" in p.drive:
                self.assertIn("cache=none", p.drive, p.name)

    def test_virtiofs_without_allow_direct_io_must_be_flagged(self):
        for p in vm.PATHS:
            if p.kind == "virtiofs":
                flagged = ("direct_honoured", "false") in p.expect
                self.assertEqual(flagged, "allow_direct_io" not in p.virtiofsd, p.name)

    def test_virtiofs_with_allow_direct_io_must_be_found_honoured(self):
        for p in vm.PATHS:
            if p.kind == "virtiofs":
                honoured = ("direct_honoured", "true") in p.expect
                self.assertEqual(honoured, "allow_direct_io" in p.virtiofsd, p.name)


class SelectPaths(unittest.TestCase):
    def test_globs_select_in_table_order(self):
        got = [p.name for p in vm.select_paths("9p-*")]
        self.assertEqual(got, ["9p-none", "9p-loose", "9p-mmap"])

    def test_all_is_everything(self):
        self.assertEqual(vm.select_paths("all"), vm.PATHS)

    def test_unknown_name_is_refused(self):
        with self.assertRaises(vm.LabError):
            vm.select_paths("virtio-blk-qcow2-none-threads,floppy")


class Modules(unittest.TestCase):
    GRAPH = {"virtio_ring": [], "virtio": ["virtio_ring"], "virtio_pci": ["virtio", "virtio_ring"],
             "scsi_common": [], "scsi_mod": ["scsi_common"], "sd_mod": ["scsi_mod"],
             "virtio_scsi": ["scsi_mod", "virtio", "virtio_ring"]}

    def test_dependencies_load_first(self):
        order = vm.module_order(self.GRAPH, ["virtio_scsi", "sd_mod"])
        for mod, deps in self.GRAPH.items():
            if mod in order:
                for d in deps:
                    self.assertLess(order.index(d), order.index(mod))

    def test_only_what_the_roots_need(self):
        self.assertEqual(vm.module_order(self.GRAPH, ["virtio-pci"]),
                         ["virtio_ring", "virtio", "virtio_pci"])

    def test_modinfo_depends_and_softdeps_are_read(self):
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".ko") as f:
            f.write(b"\x7fELF junk\x00license=GPL\x00softdep=pre: crc32c\x00"
                    b"depends=jbd2,mbcache,crc16\x00name=ext4\x00")
            f.flush()
            self.assertEqual(vm.module_info(f.name), ["crc32c", "jbd2", "mbcache", "crc16"])


class Jobs(unittest.TestCase):
    def test_engine_and_target_go_into_existing_global(self):
        text = "[global]\ndirect=1\nioengine=sync\n[a]\nrw=read\nfilename=/x\n"
        out = vm.lab_job_text(text, "io_uring", "t.fio")
        lines = out.splitlines()
        g = lines.index("[global]")
        self.assertEqual(lines[g + 1:g + 3], ["ioengine=io_uring", "filename=@TARGET@"])
        self.assertNotIn("ioengine=sync", out)
        self.assertNotIn("filename=/x", out)
        self.assertIn("direct=1", out)

    def test_global_is_added_when_absent(self):
        out = vm.lab_job_text("[a]\nrw=read\ndirectory=/d\n", "psync", "t.fio")
        body = [l for l in out.splitlines() if not l.startswith(";")]
        self.assertEqual(body[:3], ["[global]", "ioengine=psync", "filename=@TARGET@"])
        self.assertNotIn("directory=/d", out)

    def test_expected_exit_marker(self):
        self.assertEqual(vm.expected_exit("; vmlab-expect-exit: 2\n[t]\nsize=1m\n"), 2)
        self.assertEqual(vm.expected_exit("[t]\n; expect nothing\n"), 0)

    def test_numa_refusal_is_told_from_other_errors(self):
        self.assertTrue(vm.numa_refusal("iopath: j.fio:3: option numa_cpu_nodes: '1': node "
                                        "argument 1 is out of range: not available on this "
                                        "machine (its nodes: 0-0; libnuma)"))
        self.assertFalse(vm.numa_refusal("iopath: j.fio:3: option bs: 'x' is not a size"))

    def test_a_job_expected_refused_is_ok_with_that_exit_and_keeps_what_it_said(self):
        ctx = type("Ctx", (), {})()
        ctx.args = type("A", (), {"repeat": 1})()
        ctx.jobs = [("bad--libaio", "; vmlab-expect-exit: 2\n")]
        ctx.expect = {"bad--libaio": 2}
        q = {"binary": "q", "version": "7.2", "version_line": "", "accel_reason": ""}
        boot = {"status": "ok", "machine": "pc", "accel": "tcg"}
        files = {"bad--libaio.r1.rc": "2\n", "bad--libaio.r1.log": "iopath: refused\n"}
        rec = vm.cell_records(ctx, q, boot, files, path("9p-none"))[0]
        self.assertEqual((rec["status"], rec["exit_code"], rec["output"]),
                         ("ok", 2, "iopath: refused\n"))
        files["bad--libaio.r1.rc"] = "0\n"
        rec = vm.cell_records(ctx, q, boot, files, path("9p-none"))[0]
        self.assertEqual(rec["status"], "failed")
        self.assertIn("exit 0, expected 2", rec["error"])

    def test_engines_alternate_within_each_job(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            files = []
            for n in ("a", "b"):
                files.append(os.path.join(d, n + ".fio"))
                with open(files[-1], "w") as f:
                    f.write("[x]\nrw=read\n")
            names = [n for n, _ in vm.prepare_jobs(files, ["psync", "libaio"])]
        self.assertEqual(names, ["a--psync", "a--libaio", "b--psync", "b--libaio"])


class Initramfs(unittest.TestCase):
    def test_newc_archive_round_trips(self):
        data = vm.cpio_newc([("bin", 0o40755, b"", (0, 0)), ("init", 0o100755, b"#!/bin/sh\n",
                                                                (0, 0)),
                             ("dev/console", 0o20600, b"", (5, 1))])
        seen, off = [], 0
        while True:
            hdr = data[off:off + 110]
            self.assertEqual(hdr[:6], b"070701")
            f = [int(hdr[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
            namesize, filesize = f[11], f[6]
            name = data[off + 110:off + 110 + namesize - 1].decode()
            off += 110 + namesize
            off += -off % 4
            body = data[off:off + filesize]
            off += filesize + (-filesize % 4)
            if name == "TRAILER!!!":
                break
            seen.append((name, f[1], body, (f[9], f[10])))
        self.assertEqual(seen[1], ("init", 0o100755, b"#!/bin/sh\n", (0, 0)))
        self.assertEqual(seen[2][3], (5, 1))
        self.assertEqual(len(data) % 4, 0)

    def test_dynamic_executables_and_scripts_are_not_static(self):
        self.assertFalse(vm.is_static(os.path.realpath("/bin/sh")))   # Debian's dash
        self.assertFalse(vm.is_static(__file__))


class SerialFallback(unittest.TestCase):
    def test_files_between_markers_with_carriage_returns(self):
        console = ("[    1.0] boot noise\r\nvmlab: ready\r\n@@vmlab-begin a.json\r\n"
                   "{\"x\": 1}\r\n@@vmlab-end a.json\r\n@@vmlab-begin done\r\n"
                   "@@vmlab-end done\r\n")
        got = vm.serial_files(console)
        self.assertEqual(got["a.json"], "{\"x\": 1}\n")
        self.assertIn("done", got)

    def test_truncated_file_is_dropped(self):
        got = vm.serial_files("@@vmlab-begin a.json\n{\"x\":\n")
        self.assertNotIn("a.json", got)


class Checks(unittest.TestCase):
    def test_probe_check_finds_nested_keys(self):
        probe = {"paths": [{"fs": "9p", "9p": {"cache": "loose", "msize": 512000}}]}
        self.assertEqual(vm.probe_check(path("9p-loose"), probe), "ok")
        self.assertTrue(vm.probe_check(path("9p-mmap"), probe).startswith("mismatch"))

    def test_probe_check_for_block_driver_in_chain(self):
        probe = {"paths": [{"fs": "", "devices": [{"name": "nvme0n1", "driver": "nvme"}]}]}
        self.assertEqual(vm.probe_check(path("nvme"), probe), "ok")
        self.assertIn("virtio_blk", vm.probe_check(path("virtio-blk-raw"), probe))

    def test_probe_check_wants_the_ignored_direct_flag(self):
        probe = {"paths": [{"fs": "virtiofs", "direct_honoured": "true"}]}
        self.assertEqual(vm.probe_check(path("virtiofs-auto-dio"), probe), "ok")
        self.assertIn("direct_honoured=false", vm.probe_check(path("virtiofs-auto"), probe))

    def test_an_undecided_direct_flag_is_said_not_called_a_mismatch(self):
        probe = {"paths": [{"fs": "virtiofs", "direct_honoured": "unknown",
                            "direct_evidence": "reads take 230 us against 220 us"}]}
        got = vm.probe_check(path("virtiofs-auto-dio"), probe)
        self.assertTrue(got.startswith("undecided"), got)
        self.assertIn("230 us", got)
        # the wrong answer, and a wrong filesystem beside an unknown flag, stay mismatches
        probe = {"paths": [{"fs": "virtiofs", "direct_honoured": "false"}]}
        self.assertTrue(vm.probe_check(path("virtiofs-auto-dio"), probe).startswith("mismatch"))
        probe = {"paths": [{"fs": "9p", "direct_honoured": "unknown"}]}
        self.assertTrue(vm.probe_check(path("virtiofs-auto-dio"), probe).startswith("mismatch"))

    def test_probe_of_a_device_node_that_sees_only_devtmpfs_is_unsupported(self):
        probe = {"paths": [{"path": "/dev/vda", "fs": "devtmpfs", "devices": []}]}
        self.assertTrue(vm.probe_check(path("nvme"), probe).startswith("unsupported"))

    def test_facts_check_blk_drivers(self):
        facts = {"drivers": "sd ahci"}
        self.assertEqual(vm.facts_check(path("ahci"), facts), "ok")
        self.assertTrue(vm.facts_check(path("ide"), facts).startswith("mismatch"))

    def test_facts_check_9p_cache_mode_as_61_shows_it(self):
        line = "shared /mnt/target 9p rw,dirsync,relatime,loose,access=client,msize=512000 0 0"
        self.assertEqual(vm.facts_check(path("9p-loose"), {"mount": line}), "ok")
        self.assertTrue(vm.facts_check(path("9p-none"), {"mount": line}).startswith("mismatch"))
        plain = "shared /mnt/target 9p rw,relatime,access=client,msize=512000,trans=virtio 0 0"
        self.assertEqual(vm.facts_check(path("9p-none"), {"mount": plain}), "ok")

    def test_facts_check_unmounted_share(self):
        self.assertIn("not mounted", vm.facts_check(path("virtiofs-auto"), {"mount": ""}))


class PassthruRefusals(unittest.TestCase):
    LINE = ("iopath: job refusal: ioengine=io_uring_cmd on /dev/nvme0n1: /dev/ng0n1: no such "
            "device node: the namespace's generic device is 242:0 in sysfs but has no node in "
            "/dev (devtmpfs or udev makes it; mknod /dev/ng0n1 c 242 0)\n")

    def files(self, **over):
        f = {f"refusal-{n}.rc": "2\n" for n, _, _ in vm.REFUSALS}
        f["refusal-node-gone.err"] = self.LINE
        f.update(over)
        return f

    def test_exit_2_and_one_line_naming_what_is_missing_is_ok(self):
        rec = vm.refusal_records(self.files())[1]
        self.assertEqual((rec["case"], rec["status"], rec["problem"]), ("node-gone", "ok", None))

    def test_the_control_must_run(self):
        recs = vm.refusal_records(self.files(**{"refusal-generic-named-runs.rc": "0"}))
        self.assertEqual(recs[0]["case"], "generic-named-runs")
        self.assertEqual(recs[0]["status"], "ok")
        recs = vm.refusal_records(self.files(**{"refusal-generic-named-runs.err": "iopath: x\n"}))
        self.assertIn("exit 2, not 0", recs[0]["problem"])

    def test_another_exit_code_fails(self):
        rec = vm.refusal_records(self.files(**{"refusal-node-gone.rc": "1"}))[1]
        self.assertEqual(rec["status"], "failed")
        self.assertIn("exit 1, not 2", rec["problem"])

    def test_two_lines_fail(self):
        rec = vm.refusal_records(self.files(**{"refusal-node-gone.err": self.LINE * 2}))[1]
        self.assertIn("2 lines on stderr", rec["problem"])

    def test_a_line_that_does_not_name_the_missing_thing_fails(self):
        rec = vm.refusal_records(self.files(**{"refusal-node-gone.err": "iopath: error\n"}))[1]
        self.assertIn("does not name 'no such device node'", rec["problem"])

    def test_a_case_the_guest_did_not_run_fails_and_none_run_is_nothing(self):
        f = self.files()
        del f["refusal-kernel.rc"]
        rec = [r for r in vm.refusal_records(f) if r["case"] == "kernel"][0]
        self.assertEqual(rec["status"], "failed")
        self.assertEqual(vm.refusal_records({"done": ""}), [])

    def test_needs_an_nvme_path(self):
        saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
        try:
            with self.assertRaisesRegex(vm.LabError, "none of --paths has an NVMe disk"):
                vm.main(["--paths", "9p-none", "--passthru-refusals"])
        finally:
            for s, h in saved.items():
                signal.signal(s, h)


class CommandLine(unittest.TestCase):
    def test_disk_path_attaches_drive_d0(self):
        args, kargs = vm.path_cmdline(path("virtio-scsi"), "/w/disk.qcow2", "/w/share",
                                      "/w/vfs.sock", 1024, 512000)
        self.assertEqual(args[:2], ["-drive", "file=/w/disk.qcow2,format=qcow2,if=none,id=d0,"
                                              "cache=none,aio=native"])
        self.assertIn("scsi-hd,drive=d0,bus=scsi0.0", args)
        self.assertIn("vmlab.dev=sda", kargs)

    def test_9p_path_gets_share_and_msize(self):
        args, kargs = vm.path_cmdline(path("9p-mmap"), "", "/w/share", "", 1024, 131072)
        self.assertIn("local,path=/w/share,mount_tag=shared,security_model=none", args)
        self.assertIn("vmlab.opts=trans=virtio,version=9p2000.L,msize=131072,cache=mmap", kargs)

    def test_virtiofs_path_shares_guest_memory(self):
        args, _ = vm.path_cmdline(path("virtiofs-none"), "", "/w/s", "/w/vfs.sock", 768, 0)
        self.assertIn("memory-backend-memfd,id=mem,size=768M,share=on", args)
        self.assertIn("socket,id=vfs0,path=/w/vfs.sock", args)

    def test_two_numa_nodes_split_cpus_and_memory(self):
        args, _ = vm.path_cmdline(path("virtio-blk-raw"), "/w/d", "/w/s", "", 1024, 0, 2, 2)
        self.assertIn("memory-backend-ram,id=mem0,size=512M", args)
        self.assertIn("node,nodeid=0,cpus=0,memdev=mem0", args)
        self.assertIn("memory-backend-ram,id=mem1,size=512M", args)
        self.assertIn("node,nodeid=1,cpus=1,memdev=mem1", args)

    def test_numa_nodes_of_a_virtiofs_guest_stay_shared(self):
        args = vm.memory_args(2, 1000, 4, True)
        self.assertEqual(args[1::2][:2], ["memory-backend-memfd,id=mem0,size=500M,share=on",
                                          "node,nodeid=0,cpus=0-1,memdev=mem0"])
        self.assertIn("node,nodeid=1,cpus=2-3,memdev=mem1", args)

    def test_one_node_adds_nothing_but_virtiofs_memory(self):
        self.assertEqual(vm.memory_args(1, 1024, 2, False), [])
        self.assertEqual(vm.memory_args(1, 1024, 2, True)[1],
                         "memory-backend-memfd,id=mem,size=1024M,share=on")

    def test_numa_nodes_option_is_bounded_by_the_cpus(self):
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            vm.parse_args(["--numa-nodes", "3", "--smp", "2"])
        self.assertEqual(vm.parse_args(["--numa-nodes", "2"]).numa_nodes, 2)

    def test_tcg_and_kvm_cpu_models(self):
        self.assertEqual(vm.accel_args("tcg"), ["-accel", "tcg,thread=multi", "-cpu", "max"])
        self.assertEqual(vm.accel_args("kvm"), ["-accel", "kvm", "-cpu", "host"])

    def test_base_cmdline_resolves_machine_alias_and_never_reboots(self):
        q = {"binary": "qemu", "machines": {"q35": "pc-q35-7.2"}}
        argv = vm.base_cmdline(q, "tcg", "/k", "/i", "q35", 1024, 2, "vmlab.kind=blk", "/c")
        self.assertIn("pc-q35-7.2", argv)
        self.assertIn("-no-reboot", argv)
        self.assertIn("file:/c", argv)
        self.assertIn("panic=-1", argv[argv.index("-append") + 1])


class Summaries(unittest.TestCase):
    def test_fio_json_sections_are_summed_over_directions(self):
        rec = {"result": {"jobs": [{"jobname": "rw", "read": {"iops": 100, "bw_bytes": 4096e2},
                                    "write": {"iops": 50, "bw": 200}}]}}
        self.assertEqual(vm.summarize(rec), {"rw": (150.0, 4096e2 + 200 * 1024)})

    def test_cell_shows_median_and_spread_and_flags_wide_spread(self):
        s = vm.fmt_cell([(1000, 10e6), (2000, 20e6), (3000, 30e6)])
        self.assertEqual(s, "2.0k 20MB/s ±50%!")
        self.assertEqual(vm.fmt_cell([(1000, 10e6), (1100, 11e6)]), "1.1k 10MB/s ±5%")


class Compare(unittest.TestCase):
    def rec(self, qi, rnd, path, engine, status="ok"):
        return {"qemu_index": qi, "round": rnd, "path": path, "engine": engine, "job": "tiny",
                "status": status, "result": {"fio version": "iopath-x",
                                             "jobs": [{"jobname": "randread-4k", "read": {}}]}}

    def test_one_document_per_build_and_round_with_cells_named_by_path(self):
        recs = [self.rec(0, 1, "nvme", "psync"), self.rec(0, 2, "nvme", "psync"),
                self.rec(1, 1, "nvme", "psync"), self.rec(0, 1, "9p-none", "io_uring")]
        doc = vm.merged_result(recs, 0, 1)
        self.assertEqual([j["jobname"] for j in doc["jobs"]],
                         ["nvme/psync/tiny/randread-4k", "9p-none/io_uring/tiny/randread-4k"])
        self.assertEqual(doc["fio version"], "iopath-x")
        self.assertEqual(len(vm.merged_result(recs, 0, 2)["jobs"]), 1)

    def test_failed_cells_are_left_out(self):
        recs = [self.rec(0, 1, "nvme", "psync", status="failed")]
        self.assertIsNone(vm.merged_result(recs, 0, 1))

    def test_each_job_keeps_its_own_results_global_options(self):
        recs = [self.rec(0, 1, "nvme", "psync"), self.rec(0, 1, "nvme", "io_uring")]
        for r in recs:
            r["result"] = dict(r["result"], **{"global options": {"ioengine": r["engine"]}})
        doc = vm.merged_result(recs, 0, 1)
        self.assertEqual([j["job options"]["ioengine"] for j in doc["jobs"]],
                         ["psync", "io_uring"])
        self.assertEqual(doc["global options"], {})

    def test_each_job_carries_its_own_runs_environment_and_start(self):
        recs = [self.rec(0, 1, "nvme", "psync"), self.rec(0, 1, "nvme", "io_uring")]
        for k, r in enumerate(recs):
            r["result"] = dict(r["result"], timestamp_ms=1000 + k,
                               iopath={"machine": {"other_cpu": 0.1 * k}})
        doc = vm.merged_result(recs, 0, 1)
        self.assertEqual([j["iopath"]["machine"]["other_cpu"] for j in doc["jobs"]], [0, 0.1])
        self.assertEqual([j["iopath"]["start_unix_ms"] for j in doc["jobs"]], [1000, 1001])
        self.assertNotIn("iopath", vm.merged_result([self.rec(0, 1, "nvme", "psync")], 0, 1)
                         ["jobs"][0])

    def test_each_boot_is_its_own_document(self):
        recs = [dict(self.rec(0, 1, "nvme", "psync"), boot_index=b) for b in (1, 2)]
        recs[1]["result"] = dict(recs[1]["result"], marker=2)
        self.assertNotIn("marker", vm.merged_result(recs, 0, 1, 1))
        self.assertEqual(vm.merged_result(recs, 0, 1, 2)["marker"], 2)
        self.assertIsNone(vm.merged_result(recs, 0, 1, 3))


class HostFigures(unittest.TestCase):
    """What QEMU used of the host during each guest run, read at the guest's marks."""

    def sample(self, t, ticks, tasks, host):
        return {"t": t, "cpu_ticks": ticks, "tasks": tasks, "host": host}

    def test_proc_stat_fields_survive_a_command_name_with_spaces_and_parens(self):
        f = vm.proc_fields("42 (qemu (x) y) S 1 2 3 4 5 6 7 8 9 10 250 30 0 0")
        self.assertEqual((f[0], f[11], f[12]), ("S", "250", "30"))

    def test_a_runs_figures_from_its_two_marks(self):
        hz = vm.CLK_TCK
        a = self.sample(10.0, 100, {"1": (5e9, 1e9), "2": (1e9, 0), "3": (2e9, 2e9)},
                        [1000, 0, 500, 9000, 0, 0, 0, 0, 0, 0])
        # thread 3 ended (its schedstat is gone), thread 4 started between the marks
        b = self.sample(12.0, 100 + hz, {"1": (5.5e9, 1.5e9), "2": (1.25e9, 0.5e9),
                                         "4": (0.25e9, 0.25e9)},
                        [1000 + 2 * hz, 0, 500 + hz, 9000 + hz, 0, 0, 0, hz // 10, 0, 0])
        d = vm.sample_delta(a, b)
        self.assertEqual(d["wall_s"], 2.0)
        self.assertEqual(d["qemu_cpu_s"], 1.0)
        self.assertEqual(d["qemu_cpu_share"], 0.5)
        self.assertEqual(d["qemu_threads_run_s"], 1.0)
        self.assertEqual(d["qemu_threads_wait_s"], 1.25)
        self.assertEqual(d["host_busy_s"], 3.0)
        self.assertEqual(d["others_cpu_s"], 2.0)
        self.assertAlmostEqual(d["host_steal_s"], 0.1, places=2)

    def test_marks_on_the_console_are_sampled_once_each_and_lines_may_arrive_in_pieces(self):
        import tempfile
        with tempfile.NamedTemporaryFile("wb") as con:
            m = vm.ConsoleMarks(con.name, os.getpid())
            con.write(b"vmlab: ready\nvmlab: mark start a--psync.r1\nvmlab: mark en")
            con.flush()
            m.poll()
            self.assertEqual(list(m.marks), ["a--psync.r1"])
            self.assertEqual(list(m.marks["a--psync.r1"]), ["start"])
            con.write(b"d a--psync.r1\r\nvmlab: mark start b--psync.r1\n")
            con.flush()
            m.poll()
            m.poll()
            self.assertEqual(sorted(m.marks["a--psync.r1"]), ["end", "start"])
            runs = m.runs()
            self.assertEqual(list(runs), ["a--psync.r1"])      # b has no end yet
            self.assertGreaterEqual(runs["a--psync.r1"]["wall_s"], 0)

    def test_cpu_per_io_only_for_a_run_of_one_job_section(self):
        run = {"qemu_cpu_s": 0.5, "wall_s": 2.0}
        one = {"jobs": [{"read": {"total_ios": 1000}, "write": {"total_ios": 0}}]}
        h = vm.host_figures(run, one)
        self.assertEqual((h["guest_ios"], h["qemu_cpu_us_per_io"], h["ios_per_qemu_cpu_s"]),
                         (1000, 500.0, 2000.0))
        two = {"jobs": [{"read": {"total_ios": 10}}, {"write": {"total_ios": 10}}]}
        h = vm.host_figures(run, two)
        self.assertNotIn("qemu_cpu_us_per_io", h)
        self.assertIn("2 job sections", h["per_io"])
        self.assertIsNone(vm.host_figures(None, one))

    def test_the_cpu_time_documents_rate_per_qemu_cpu_second(self):
        job = {"jobname": "randread-4k", "read": {"total_ios": 4000, "io_bytes": 4096000,
                                                  "iops": 2000.0, "runtime": 2000,
                                                  "clat_ns": {"percentile": {}}}}
        rec = {"qemu_index": 0, "round": 1, "path": "9p-none", "engine": "io_uring",
               "job": "up", "status": "ok", "result": {"jobs": [job]},
               "host": {"qemu_cpu_s": 0.5, "ios_per_qemu_cpu_s": 8000.0}}
        wall = vm.merged_result([rec], 0, 1)
        self.assertEqual(wall["jobs"][0]["read"]["iops"], 2000.0)
        self.assertNotIn("iopath_vmlab_time_base", wall)
        cpu = vm.merged_result([rec], 0, 1, base="qemu-cpu")
        r = cpu["jobs"][0]["read"]
        self.assertEqual((r["iops"], r["bw_bytes"], r["runtime"]), (8000.0, 8192000.0, 500.0))
        self.assertNotIn("clat_ns", r)
        self.assertEqual(cpu["jobs"][0]["jobname"], "9p-none/io_uring/up/randread-4k")
        self.assertIn("CPU time", cpu["iopath_vmlab_time_base"])
        # a run without the host's figures has no CPU-time document
        del rec["host"]
        self.assertIsNone(vm.merged_result([rec], 0, 1, base="qemu-cpu"))


class CpuShareOption(unittest.TestCase):
    def test_a_share_outside_what_the_host_has_is_refused(self):
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            vm.parse_args(["--cpu-share", "0.01"])
        self.assertIn("--cpu-share 0.01: from 0.1 to the host's", err.getvalue())
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            vm.parse_args(["--cpu-share", str((os.cpu_count() or 1) + 1)])
        self.assertEqual(vm.parse_args(["--cpu-share", "0.5"]).cpu_share, 0.5)


class Interleaving(unittest.TestCase):
    def test_builds_alternate_per_path_and_boot(self):
        a, b = path("9p-none"), path("virtio-blk-raw")
        self.assertEqual(vm.boot_order(2, [a, b], 2),
                         [(1, a, 0), (1, a, 1), (1, b, 0), (1, b, 1),
                          (2, a, 0), (2, a, 1), (2, b, 0), (2, b, 1)])

    def test_one_build_boots_each_path_once_a_boot(self):
        a = path("9p-none")
        self.assertEqual(vm.boot_order(1, [a], 3), [(1, a, 0), (2, a, 0), (3, a, 0)])

    def test_boots_below_one_are_refused(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as e:
            vm.parse_args(["--boots", "0"])
        self.assertEqual(e.exception.code, 2)


class DataDirs(unittest.TestCase):
    def test_the_system_qemu_needs_none(self):
        self.assertEqual(vm.qemu_datadirs("/usr/bin/qemu-system-x86_64"), [])

    def test_an_unpacked_qemu_gets_its_own_firmware_dirs(self):
        import tempfile
        with tempfile.TemporaryDirectory() as t:
            for d in ("usr/bin", "usr/share/qemu", "usr/share/seabios"):
                os.makedirs(os.path.join(t, d))
            exe = os.path.join(t, "usr/bin/qemu-system-x86_64")
            open(exe, "w").close()
            self.assertEqual(vm.qemu_datadirs(exe),
                             [os.path.join(t, "usr/share/qemu"),
                              os.path.join(t, "usr/share/seabios")])
            q = {"binary": exe, "machines": {}, "datadirs": vm.qemu_datadirs(exe)}
            argv = vm.base_cmdline(q, "tcg", "K", "I", "pc", 512, 1, "", "C")
            self.assertEqual(argv[1:5], ["-L", os.path.join(t, "usr/share/qemu"),
                                         "-L", os.path.join(t, "usr/share/seabios")])


def load_lab_test():
    loader = importlib.machinery.SourceFileLoader("labtest", os.path.join(HERE, "lab-test"))
    spec = importlib.util.spec_from_loader("labtest", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def explained(p9, disk):
    """An explain object with the quick lab's two paths; p9 and disk list (code, from the
    ladder?) findings in verdict order."""
    def target(name, findings):
        return {"target": name, "findings": [
            {"code": c, "direction": "read", "evidence": {"ladder": []} if lad else {}}
            for c, lad in findings], "notes": []}
    return {"targets": [target("9p-none", p9), target("ext4-virtio-blk", disk)]}


class Explained(unittest.TestCase):
    lt = load_lab_test()

    def test_serialized_share_and_scaling_disk_pass(self):
        self.assertEqual(self.lt.explain_problems(explained(
            [("serialized", True)], [("device-bound", True)])), [])
        self.assertEqual(self.lt.explain_problems(explained(
            [("latency-bound", True)], [("latency-bound", True)])), [])

    def test_other_findings_ahead_of_the_ladder_do_not_decide(self):
        self.assertEqual(self.lt.explain_problems(explained(
            [("cpu-bound", False), ("cache", False), ("serialized", True)],
            [("cpu-bound", False), ("device-bound", True)])), [])

    def test_a_share_that_scales_fails(self):
        bad = self.lt.explain_problems(explained([("device-bound", True)],
                                                 [("device-bound", True)]))
        self.assertEqual(len(bad), 1)
        self.assertIn("9p-none: queue-depth ladder device-bound", bad[0])

    def test_a_serialized_disk_fails(self):
        bad = self.lt.explain_problems(explained([("serialized", True)],
                                                 [("serialized", True)]))
        self.assertEqual(len(bad), 1)
        self.assertIn("ext4-virtio-blk: queue-depth ladder serialized", bad[0])

    def test_no_ladder_verdict_fails(self):
        bad = self.lt.explain_problems(explained([("cpu-bound", False)],
                                                 [("cpu-bound", False)]))
        self.assertEqual(len(bad), 2)
        self.assertTrue(all("gave no verdict" in b for b in bad))

    def test_a_missing_path_fails(self):
        self.assertEqual(len(self.lt.explain_problems({"targets": []})), 2)


class ExplainRecord(unittest.TestCase):
    def test_without_explain_there_is_none(self):
        self.assertIsNone(vm.explain_record({"facts.txt": "x=1\n"}))

    def test_block_device_is_skipped_with_the_reason(self):
        r = vm.explain_record({"explain.skipped": "a bare block device\n"})
        self.assertEqual(r, {"status": "skipped", "reason": "a bare block device"})

    def test_result_and_exit_code(self):
        r = vm.explain_record({"explain.rc": "0\n", "explain.json": '{"cells": []}'})
        self.assertEqual((r["status"], r["exit_code"], r["result"]), ("ok", 0, {"cells": []}))

    def test_no_result_is_failed_with_the_log(self):
        r = vm.explain_record({"explain.rc": "2\n", "explain.log": "iopath: sweep: bad\n"})
        self.assertEqual((r["status"], r["error"]), ("failed", "iopath: sweep: bad"))


def numa_cells():
    """The NUMA lab's cells as a good run gives them (the figures of a TCG run)."""
    def job(name, cpus, per):
        return {"jobname": name, "error": 0, "iopath": {
            "engine_applied": {"cpus": cpus},
            "buffer_pages": {"per_node": {str(k): v for k, v in per.items()}, "elsewhere": 0}}}
    jobs = [job("job1", "0", {0: 2048}), job("job2", "0-1", {0: 768, 1: 1280}),
            job("bind-remote", "0", {1: 2048}), job("local-on-1", "1", {1: 2048}),
            job("prefer-1", "0", {1: 2048}), job("default-on-1", "1", {1: 2048})]
    facts = {"numa_nodes": "0:0 1:1"}
    return [{"job": "numa", "status": "ok", "guest_facts": facts, "result": {"jobs": jobs}},
            {"job": "numa-bad-cpu-node", "status": "ok", "exit_code": 2, "guest_facts": facts,
             "output": "iopath: /tmp/job.fio:10: option numa_cpu_nodes: '5': node argument 5 is"
                       " out of range: not available on this machine (its nodes: 0-1; libnuma)\n"},
            {"job": "numa-bad-mem-nodes", "status": "ok", "exit_code": 2, "guest_facts": facts,
             "output": "iopath: /tmp/job.fio:10: option numa_mem_policy: '0-7': node argument 7 "
                       "out of range: not available on this machine (its nodes: 0-1; libnuma)\n"}]


def numa_job(cells, name):
    return next(j for j in cells[0]["result"]["jobs"] if j["jobname"] == name)


class NumaLab(unittest.TestCase):
    lt = load_lab_test()

    def test_a_good_run_passes(self):
        self.assertEqual(self.lt.numa_problems(numa_cells()), [])

    def test_a_worker_on_the_wrong_node_fails(self):
        cells = numa_cells()
        numa_job(cells, "local-on-1")["iopath"]["engine_applied"]["cpus"] = "0"
        bad = self.lt.numa_problems(cells)
        self.assertEqual(len(bad), 1)
        self.assertIn("local-on-1: ran on CPUs [0], expected [1]", bad[0])

    def test_interleave_on_both_cpus_needs_both_nodes(self):
        cells = numa_cells()
        numa_job(cells, "job2")["iopath"]["engine_applied"]["cpus"] = "1"
        self.assertIn("job2: ran on CPUs [1]", self.lt.numa_problems(cells)[0])
        cells = numa_cells()
        numa_job(cells, "job2")["iopath"]["buffer_pages"]["per_node"] = {"0": 2000, "1": 48}
        self.assertIn("at least a quarter on each node", self.lt.numa_problems(cells)[0])

    def test_a_bound_page_elsewhere_fails(self):
        cells = numa_cells()
        numa_job(cells, "bind-remote")["iopath"]["buffer_pages"]["per_node"] = {"0": 1,
                                                                                 "1": 2047}
        self.assertIn("expected all 2048 on node 1", self.lt.numa_problems(cells)[0])
        cells = numa_cells()
        numa_job(cells, "prefer-1")["iopath"]["buffer_pages"]["elsewhere"] = 5
        self.assertIn("prefer-1: buffer pages", self.lt.numa_problems(cells)[0])

    def test_no_buffer_pages_in_the_result_fails(self):
        cells = numa_cells()
        del numa_job(cells, "job1")["iopath"]["buffer_pages"]
        self.assertEqual(self.lt.numa_problems(cells), ["job1: the result has no buffer_pages"])

    def test_a_missing_job_fails(self):
        cells = numa_cells()
        cells[0]["result"]["jobs"].pop()
        self.assertEqual(self.lt.numa_problems(cells), ["default-on-1: no result"])

    def test_a_one_node_guest_fails(self):
        cells = numa_cells()
        cells[0]["guest_facts"] = {"numa_nodes": "0:0-1"}
        self.assertIn("not two nodes", self.lt.numa_problems(cells)[0])

    def test_refusals_must_be_exit_2_in_one_line_naming_the_node(self):
        cells = numa_cells()
        cells[1]["exit_code"] = 1
        self.assertIn("numa-bad-cpu-node: exit 1", self.lt.numa_problems(cells)[0])
        cells = numa_cells()
        cells[2]["output"] += "and another line\n"
        self.assertIn("numa-bad-mem-nodes", self.lt.numa_problems(cells)[0])
        cells = numa_cells()
        cells[2]["output"] = cells[2]["output"].replace("argument 7", "argument 6")
        self.assertEqual(len(self.lt.numa_problems(cells)), 1)

    def test_cpu_lists(self):
        self.assertEqual(self.lt.parse_cpulist("0-2,5"), {0, 1, 2, 5})
        self.assertEqual(self.lt.guest_node_cpus("0:0 1:1-3"), {0: {0}, 1: {1, 2, 3}})


if __name__ == "__main__":
    unittest.main()


def load_upgrade_test():
    loader = importlib.machinery.SourceFileLoader("upgradetest",
                                                  os.path.join(HERE, "lab-upgrade-test"))
    spec = importlib.util.spec_from_loader("upgradetest", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class UpgradeGoals(unittest.TestCase):
    ut = load_upgrade_test()
    P9 = "9p-none/io_uring/upgrade-seqwrite/seqwrite-1m"
    BLK = "virtio-blk-qcow2-none-threads/io_uring/upgrade-seqwrite/seqwrite-1m"

    def orders(self, p9, blk, p9b=None, blkb=None):
        row = lambda v: {"verdict": v, "p_adj": 0.01}
        return {"old-first": {self.P9: row(p9), self.BLK: row(blk)},
                "new-first": {self.P9: row(p9b or p9), self.BLK: row(blkb or blk)}}

    def test_the_expected_verdicts_in_both_orders_pass(self):
        self.assertEqual(self.ut.judge(self.orders("regression", "within noise")), [])
        self.assertEqual(self.ut.judge(self.orders("regression", "unchanged")), [])
        self.assertEqual(self.ut.judge(self.orders("regression", "unchanged",
                                                   blkb="within noise")), [])

    def test_an_improvement_in_one_order_only_differs(self):
        bad = self.ut.judge(self.orders("regression", "unchanged", blkb="improvement"))
        self.assertEqual(len(bad), 1)
        self.assertIn("differ between the orders: old-first no change shown, new-first "
                      "improvement", bad[0])

    def test_a_9p_cell_within_noise_fails(self):
        bad = self.ut.judge(self.orders("regression", "unchanged", p9b="within noise"))
        self.assertTrue(any("new-first" in b and "expected regression" in b for b in bad))
        self.assertTrue(any("differ between the orders" in b for b in bad))

    def test_a_virtio_blk_regression_fails(self):
        bad = self.ut.judge(self.orders("regression", "regression"))
        self.assertEqual(len(bad), 2)
        self.assertIn("expected not a regression", bad[0])

    def test_nothing_compared_fails(self):
        self.assertEqual(self.ut.judge({"old-first": {}}), ["no cell was compared"])

    def test_the_iops_rows_are_read_from_compare_json(self):
        doc = {"cells": [{"label": self.P9, "metrics": [
            {"metric": "bw", "verdict": "x"}, {"metric": "iops", "verdict": "regression"}]}]}
        self.assertEqual(self.ut.cells_of(doc), {self.P9: {"metric": "iops",
                                                           "verdict": "regression"}})

    def test_each_boot_line_names_the_build_its_load_and_qemus_cpu_share(self):
        lab = {"qemus": [{"version": "7.2.22"}, {"version": "10.0.2"}],
               "boots": [{"qemu_index": 1, "path": "9p-none", "boot": 2,
                          "host_load1": [14.5, 16.0], "wall_seconds": 17.3}],
               "cells": [{"qemu_index": 1, "path": "9p-none", "boot_index": 2,
                          "host": {"qemu_cpu_share": s}} for s in (0.5, 0.7, 0.6)]}
        line, = self.ut.boot_lines(lab, "new-first")
        self.assertIn("boot 2  10.0.2", line)
        self.assertIn("load 14.5-16.0  QEMU CPU share 0.6  17.3 s", line)
