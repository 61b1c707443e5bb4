#!/usr/bin/python3
"""make html-test: every kind of iopath HTML report opened in headless Chromium.

Makes each kind of input with ./iopath (a sweep, a plain run, suite vm-paths, compare, a
history of labelled runs, a probe, and a sweep of 1,000 cells), writes its page, opens it and
fails on: any console message of level warning or above, a series of two or more points
not drawn as one line through them, a text leaving its chart or box or a chart its figure (at
1280 px and as printed on A4), any network request besides the page
itself, a chart without drawn content, a table number that differs from the JSON's (medians
recomputed here from the samples), a table that does not sort. A screenshot per kind goes to
build/html-test/KIND.png. The 1,000-cell page's size and load time are printed (a benchmark,
not a timed test). Without Chromium, chromedriver or Selenium it says so and skips.
"""
import json
import math
import re
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IOPATH = os.environ.get("IOPATH_BIN", os.path.join(ROOT, "iopath"))
OUT = os.path.join(ROOT, "build", "html-test")
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000"]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what, flush=True)
    return ok


def skip(why):
    print("html-test: skipped: " + why)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)


def iopath(*args, ok=(0,)):
    r = subprocess.run([IOPATH] + list(args), capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit("html-test: iopath %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r


# ---- what the JSON says, computed the way results/README.md defines the metrics ----

def job_metrics(job):
    iops = bw = 0.0
    busiest, most = None, 0
    for d in ("read", "write", "trim"):
        x = job.get(d)
        if not isinstance(x, dict):
            continue
        iops += x.get("iops", 0)
        bw += x.get("bw_bytes", 0)
        if x.get("total_ios", 0) > most:
            most, busiest = x["total_ios"], x
    p99 = None
    if busiest:
        p99 = busiest.get("clat_ns", {}).get("percentile", {}).get("99.000000")
    return {"iops": iops, "bw": bw, "clat_p99": p99}


def cell_medians(cell):
    ms = [job_metrics(s) for s in cell.get("samples", [])]
    out = {}
    for k in ("iops", "bw", "clat_p99"):
        v = [m[k] for m in ms if m[k] is not None]
        out[k] = statistics.median(v) if v else None
    return out


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


# ---- the browser ----

def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    o = Options()
    for f in FLAGS:
        o.add_argument(f)
    o.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="iopath-chromium-"))
    o.binary_location = CHROMIUM
    o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=o)


def open_page(d, path):
    url = "file://" + path
    d.get_log("browser")
    d.get_log("performance")
    t = time.monotonic()
    d.get(url)
    elapsed = time.monotonic() - t
    for e in d.get_log("browser"):
        check(e["level"] not in ("WARNING", "SEVERE"), "%s: console %s: %s" % (path, e["level"], e["message"]))
    ours = set()
    for e in d.get_log("performance"):
        m = json.loads(e["message"])["message"]
        p = m.get("params", {})
        # the browser's own pages (its new-tab page) log here too: only the page's requests count
        if m["method"] == "Network.requestWillBeSent" and p.get("documentURL") == url:
            ours.add(p.get("requestId"))
            u = p["request"]["url"]
            check(u == url, "%s: the page loads %s" % (path, u))
        if m["method"] == "Network.loadingFailed" and p.get("requestId") in ours:
            check(False, "%s: a load failed: %s" % (path, p.get("errorText")))
    res = d.execute_script("return performance.getEntriesByType('resource').map(function(r){return r.name})")
    check(not res, "%s: resources loaded: %s" % (path, res))
    return elapsed


def charts_drawn(d, path):
    info = d.execute_script("""
        return Array.prototype.map.call(document.querySelectorAll('svg.chart'), function(s) {
          var b = s.getBBox(), marks = s.querySelectorAll('rect.bar, g.series path, circle, g.cell rect, line.ci');
          var ink = 0;
          marks.forEach(function(m) { var r = m.getBBox(); if (r.width > 0 || r.height > 0) ink++; });
          return [s.getAttribute('data-kind'), b.width, b.height, marks.length, ink,
                  s.querySelector('title') ? s.querySelector('title').textContent : ''];
        });""")
    check(len(info) > 0, "%s: no chart" % path)
    for kind, w, h, marks, ink, title in info:
        check(w > 0 and h > 0 and marks > 0 and ink > 0,
              "%s: chart '%s' (%s) has nothing drawn: %sx%s, %d marks, %d with ink" % (path, title, kind, w, h, marks, ink))
    return len(info)


def lines_joined(d, path):
    """Every series with two or more points is drawn as one line through all of them."""
    bad = d.execute_script("""
        var bad = [];
        document.querySelectorAll('svg.chart g.series').forEach(function(g) {
          var pts = g.querySelectorAll('circle.dot').length, p = g.querySelector('path.line');
          if (pts < 2) return;
          var dd = p ? p.getAttribute('d') : '', m = (dd.match(/M/g) || []).length, l = (dd.match(/L/g) || []).length;
          if (m !== 1 || l !== pts - 1 || p.getTotalLength() <= 0)
            bad.push(g.closest('svg').querySelector('title').textContent + ': ' + pts + ' points, d=' + dd.slice(0, 60));
        });
        return bad;""")
    for b in bad:
        check(False, "%s: a series is not one line: %s" % (path, b))
    return not bad


def nothing_overflows(d, path, how):
    """No chart text leaves its chart, no chart leaves its figure, no text its box, no page scrolls sideways."""
    bad = d.execute_script("""
        var bad = [], W = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > W + 1)
          bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + W + ' px window');
        document.querySelectorAll('svg.chart').forEach(function(s) {
          var r = s.getBoundingClientRect(), t = s.querySelector('title').textContent;
          s.querySelectorAll('text').forEach(function(x) {
            var b = x.getBoundingClientRect();
            if (b.width && (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1))
              bad.push('chart "' + t + '": text "' + x.textContent + '" leaves it by ' +
                       Math.round(Math.max(r.left - b.left, b.right - r.right, r.top - b.top, b.bottom - r.bottom)) + ' px');
          });
          var fig = s.closest('figure');
          if (fig && fig.scrollWidth > fig.clientWidth + 1)
            bad.push('chart "' + t + '" is wider than its figure: ' + fig.scrollWidth + ' > ' + fig.clientWidth);
        });
        document.querySelectorAll('h1, h2, h3, p, summary, .card, .summary, li').forEach(function(e) {
          if (e.closest('.scroll') || e.closest('svg')) return;
          if (e.scrollWidth > e.clientWidth + 1)
            bad.push(e.tagName + ' "' + e.textContent.slice(0, 60) + '" overflows: ' + e.scrollWidth + ' > ' + e.clientWidth);
        });
        return bad;""")
    for b in bad[:20]:
        check(False, "%s (%s): %s" % (path, how, b))
    if len(bad) > 20:
        check(False, "%s (%s): %d more overflows" % (path, how, len(bad) - 20))
    return not bad


def printed_fits(d, path):
    """As printed on A4 (an 718-pixel column): nothing leaves the page."""
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    d.set_window_size(718 + 16, 1000)
    try:
        nothing_overflows(d, path, "printed")
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        d.set_window_size(1280, 1000)


def tables_fit(d, path):
    """At 1280 pixels every table shows all its columns: none hides one behind its scroll bar."""
    bad = d.execute_script("""
        var bad = [];
        document.querySelectorAll('.scroll').forEach(function(e) {
          var t = e.querySelector('table');
          if (t && e.scrollWidth > e.clientWidth + 1)
            bad.push('table ' + (t.id || t.className) + ' is ' + e.scrollWidth + ' px wide in its ' + e.clientWidth + ' px box');
        });
        return bad;""")
    for b in bad[:20]:
        check(False, "%s (1280 px): %s" % (path, b))
    if not bad:
        check(True, "")


def table(d, table_id):
    return d.execute_script("""
        var t = document.getElementById(arguments[0]); if (!t) return null;
        var keys = Array.prototype.map.call(t.tHead.rows[0].cells, function(c) { return c.getAttribute('data-key') || c.textContent; });
        var rows = Array.prototype.map.call(t.tBodies[0].rows, function(r) {
          var o = {_cell: r.getAttribute("data-cell")};
          Array.prototype.forEach.call(r.cells, function(c, i) {
            o[keys[i]] = c.hasAttribute('data-v') ? (c.getAttribute('data-v') === '' ? null : parseFloat(c.getAttribute('data-v'))) : c.textContent; });
          return o; });
        return {keys: keys, rows: rows};""", table_id)


def results_table_matches(d, path, doc, table_id):
    t = table(d, table_id)
    if not check(t is not None, "%s: no table #%s" % (path, table_id)):
        return
    by_key = {r["_cell"]: r for r in t["rows"]}
    check(len(t["rows"]) == len(doc["cells"]), "%s: %d rows for %d cells" % (path, len(t["rows"]), len(doc["cells"])))
    for c in doc["cells"]:
        r = by_key.get(c["key"])
        if not check(r is not None, "%s: no row for %s" % (path, c["key"])):
            continue
        m = cell_medians(c)
        if c.get("status", "ok") != "ok" or m["iops"] is None:
            continue
        for k in ("iops", "bw", "clat_p99"):
            check(close(r[k], m[k]), "%s: %s %s: the page says %s, the JSON %s" % (path, c["key"], k, r[k], m[k]))


def sorts(d, path, table_id, col):
    d.execute_script("""var t = document.getElementById(arguments[0]);
        Array.prototype.filter.call(t.tHead.rows[0].cells, function(c) { return c.getAttribute('data-key') === arguments[1]; }, 0);""", table_id, col)
    th = d.find_element("css selector", "#%s th[data-key='%s']" % (table_id, col))
    for direction in (1, -1):
        th.click()
        v = [r[col] for r in table(d, table_id)["rows"] if r[col] is not None]
        check(v == sorted(v, reverse=direction < 0), "%s: #%s not sorted %s by %s: %s" %
              (path, table_id, "up" if direction > 0 else "down", col, v[:8]))


def screenshot(d, kind, out=OUT, width=1280):
    """The whole page (up to 16,000 pixels of it) at width, as out/KIND.png."""
    d.set_window_size(width, 1000)
    h = d.execute_script("return document.documentElement.scrollHeight")
    d.set_window_size(width, min(max(h, 600), 16000))
    d.save_screenshot(os.path.join(out, kind + ".png"))
    d.set_window_size(1280, 1000)


def main():
    for p, what in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
        if not os.access(p, os.X_OK):
            skip("%s is not installed (scripts/deps.sh --browser installs it)" % what)
    try:
        import selenium  # noqa: F401
    except ImportError:
        skip("python3-selenium is not installed (scripts/deps.sh --browser installs it)")
    if not os.access(IOPATH, os.X_OK):
        sys.exit("html-test: %s is missing: make iopath first" % IOPATH)
    os.makedirs(OUT, exist_ok=True)
    work = tempfile.mkdtemp(prefix="iopath-html-test-")
    try:
        run(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


def run(work):
    disk, share = os.path.join(work, "disk"), os.path.join(work, "share")
    os.makedirs(disk)
    os.makedirs(share)
    j = lambda n: os.path.join(work, n)
    common = ["--size", "2m", "--runtime", "0"]
    # inputs of every kind
    iopath("sweep", "--engine", "null,psync,io_uring", "--iodepth", "1,4", "--target", "disk=" + disk,
           "--target", "share=" + share, "--repeat", "2", "--json", j("sweep.json"), "--html", j("sweep.html"), *common)
    iopath("sweep", "--engine", "null,psync,io_uring", "--iodepth", "1,4", "--target", "disk=" + disk,
           "--target", "share=" + share, "--repeat", "2", "--json", j("sweep2.json"), *common)
    iopath("compare", j("sweep.json"), j("sweep2.json"), "--json=" + j("compare.json"), "--html", j("compare.html"), ok=(0, 1, 3))
    iopath("run", "randread-4k-qd32", "--target", disk, "--scale=0.01", "--output-format=json",
           "--output=" + j("run.json"), "--html", j("run.html"))
    iopath("suite", "vm-paths", "--target", "disk=" + disk, "--target", "share=" + share, "--scale=0.005",
           "--repeat", "2", "--output-format=json", "--output=" + j("suite.json"), "--html", j("suite.html"))
    for q in ("8.0", "8.1", "8.2"):
        iopath("sweep", "--engine", "null,psync", "--iodepth", "1,4", "--target", "disk=" + disk, "--save=h",
               "--db", j("store.db"), "--label", "qemu=" + q, *common)
    iopath("history", "--db", j("store.db"), "--by", "qemu", "--html", j("history.html"), ok=(0, 1, 3))
    iopath("results", "export", "latest", "--db", j("store.db"), "--output", j("latest.json"))
    # names that are markup: if any reached the page as such, a script would run or a load fail
    # (a target's NAME ends at its first '=': the role has none, the label's value the rest)
    role = "<script>document.write('owned')</script>\"'&"
    evil = "<img src=x onerror=\"document.title='owned'\"><script>document.title='owned'</script>\"'&"
    iopath("sweep", "--engine", "null", "--iodepth", "1,2", "--target", role + "=" + disk, "--label",
           "host=" + evil, "--html", j("hostile.html"), *common)
    probe = iopath("probe", disk, share, "--json")
    with open(j("probe.json"), "w") as f:
        f.write(probe.stdout)
    iopath("report", j("probe.json"), "-o", j("probe.html"))
    iopath("sweep", "--engine", "null,psync,io_uring,libaio,sync", "--iodepth", "1,2,4,8,16",
           "--bs", "512,1k,2k,4k,8k,16k,32k,64k,128k,256k", "--rw", "randread,read", "--target", "a=" + disk,
           "--target", "b=" + share, "--size", "1m", "--runtime", "0", "--json", j("big.json"))
    t = time.monotonic()
    iopath("report", j("big.json"), "-o", j("big.html"))
    big_write = time.monotonic() - t

    load = lambda n: json.load(open(j(n)))
    d = browser()
    try:
        for kind in ("sweep", "compare", "run", "suite", "history", "probe", "hostile"):
            path = j(kind + ".html")
            open_page(d, path)
            n = charts_drawn(d, path) if kind != "probe" else 0
            lines_joined(d, path)
            nothing_overflows(d, path, "1280 px")
            printed_fits(d, path)
            check(d.execute_script("return document.querySelectorAll('.card').length") > 0 or kind == "compare",
                  "%s: no probe cards" % path)
            if kind == "sweep":
                results_table_matches(d, path, load("sweep.json"), "r0-table")
                sorts(d, path, "r0-table", "iops")
                titles = d.execute_script("return Array.prototype.map.call(document.querySelectorAll('svg.chart > title'), function(t) { return t.textContent; })")
                for want in ("IOPS against iodepth", "Latency against iodepth", "IOPS per engine and path", "Latency percentiles"):
                    check(any(t.startswith(want) for t in titles), "%s: no chart '%s...' among %s" % (path, want, titles))
            elif kind == "compare":
                cmp = load("compare.json")
                t = table(d, "r0-table")
                rows = {(r["_cell"], r["metric"]): r for r in t["rows"]}
                for c in cmp["cells"]:
                    for m in c["metrics"]:
                        r = rows.get((c["key"], m["metric"]))
                        if check(r is not None, "%s: no row for %s %s" % (path, c["key"], m["metric"])):
                            for a, b in (("BASE", "base"), ("CUR", "cur"), ("change", "change")):
                                check(close(r[a], m[b]), "%s: %s %s %s: page %s, JSON %s" % (path, c["key"], m["metric"], b, r[a], m[b]))
                results_table_matches(d, path, load("sweep.json"), "r1-table")
                results_table_matches(d, path, load("sweep2.json"), "r2-table")
            elif kind == "run":
                doc = load("run.json")
                want = sorted(job_metrics(x)["iops"] for x in doc["jobs"])
                got = sorted(r["iops"] for r in table(d, "r0-table")["rows"])
                check(len(want) == len(got) and all(close(a, b) for a, b in zip(got, want)),
                      "%s: IOPS on the page %s, in the JSON %s" % (path, got, want))
            elif kind == "suite":
                rows = load("suite.json")["iopath"]["suite"]["rows"]
                got = [r["median"] for r in table(d, "r0-suite")["rows"]]
                want = [r["median"] for r in rows]
                check(len(got) == len(want) and all((a is None and b is None) or close(a, b) for a, b in zip(got, want)),
                      "%s: suite medians on the page %s, in the JSON %s" % (path, got, want))
                check(d.execute_script("return document.querySelectorAll('svg[data-kind=heatmap] g.cell').length") >= len(rows) // 2,
                      "%s: the heat map lacks cells" % path)
            elif kind == "hostile":
                check(d.title == "iopath report", "%s: the title became %r: the data ran as markup" % (path, d.title))
                check(d.execute_script("return document.images.length + document.scripts.length") == 1,
                      "%s: the data added images or scripts" % path)
                text = d.execute_script("return document.body.textContent")
                check(evil in text and role in text, "%s: the hostile names are not shown as text" % path)
            elif kind == "history":
                t = table(d, "r0-groups")
                check(t is not None and [r["group"] for r in t["rows"]] == ["qemu=8.0", "qemu=8.1", "qemu=8.2"],
                      "%s: groups %s" % (path, t and [r["group"] for r in t["rows"]]))
                results_table_matches(d, path, load("latest.json"), "r1-table")
            if kind == "sweep":
                # printable: Chromium's print to PDF gives pages
                import base64
                pdf = base64.b64decode(d.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})["data"])
                with open(os.path.join(OUT, "sweep.pdf"), "wb") as f:
                    f.write(pdf)
                pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
                check(pdf.startswith(b"%PDF") and pages >= 2, "%s: printing gave %d pages" % (path, pages))
            screenshot(d, kind)
        # the benchmark: 1,000 cells
        path = j("big.html")
        size = os.path.getsize(path)
        times = [open_page(d, path) for _ in range(3)]
        nav = d.execute_script("var t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd")
        results_table_matches(d, path, load("big.json"), "r0-table")
        charts = charts_drawn(d, path)
        lines_joined(d, path)
        nothing_overflows(d, path, "1280 px")
        check(size < 5 << 20, "%s: %d bytes, over 5 MiB" % (path, size))
        screenshot(d, "sweep-1000")
        print("html-test: benchmark: 1000-cell sweep: page %.2f MB, %d charts, written in %.2f s; "
              "opened in %s s (load event %.0f ms)" % (size / 1e6, charts, big_write,
                                                     ", ".join("%.2f" % x for x in times), nav))
    finally:
        d.quit()
    print("html-test: screenshots in " + OUT)


if __name__ == "__main__":
    main()
