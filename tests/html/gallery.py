#!/usr/bin/python3
"""make gallery: one page of each kind from a fixed set of results, with screenshots.

From the results in tests/html/gallery/ (measured once, kept small: tests/html/gallery/fixtures
makes them again), ./iopath writes every kind of page into build/gallery/: a sweep, the same
sweep with its explanation, compare, history (runs of one version pooled), a trend of a
directory, a plain run, suite vm-paths, a sweep with a target whose direct=1 a cache answers
(its NOT direct I/O box) and a probe. Each is opened in headless Chromium and
shot whole at 1280 pixels (KIND.png) and as printed on A4 (KIND-print.png); index.html shows
them side by side, so a reviewer sees every page after a change; each page is also checked as
make html-test checks its own (every series one line, no text out of its box at 1280 pixels
or printed, no console message, nothing loaded) and every table shows all its columns at 1280
pixels (none hidden behind its scroll bar), and a failure fails. Nothing is measured. Without
Chromium, chromedriver or Selenium the pages are still written and the screenshots skipped,
with the reason.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402

FIXED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gallery")
OUT = os.path.join(bt.ROOT, "build", "gallery")

# kind, what it shows, the iopath command line ({F}: the fixed results, {O}: the page)
PAGES = (
    ("sweep", "a sweep: 3 engines x 3 depths x 2 block sizes x 2 patterns on 2 targets, 2 repeats",
     ["report", "{F}/base.json", "-o", "{O}"]),
    ("explain", "the same sweep with what limits each target (iopath explain)",
     ["report", "{W}/explained.json", "-o", "{O}"]),
    ("compare", "compare of two such sweeps (qemu=8.2 against qemu=9.0)",
     ["compare", "{F}/base.json", "{F}/cur.json", "--html", "{O}"]),
    ("history", "history of four runs by qemu, the two of 8.1 pooled",
     ["history", "{F}/history", "--by", "qemu", "--html", "{O}"]),
    ("trend", "report of a directory: the runs' trend by time",
     ["report", "{F}/history", "-o", "{O}"]),
    ("run", "a built-in workload run (randread-4k-qd32)", ["report", "{F}/run.json", "-o", "{O}"]),
    ("suite", "suite vm-paths on 2 targets", ["report", "{F}/suite.json", "-o", "{O}"]),
    ("notdirect", "the sweep with one target whose direct=1 a cache answers: one NOT direct I/O box for it",
     ["report", "{F}/notdirect.json", "-o", "{O}"]),
    ("probe", "probe of 2 paths", ["report", "{F}/probe.json", "-o", "{O}"]),
)


def explained(work):
    """The sweep with its explanation in it, as sweep --explain keeps it."""
    ex = os.path.join(work, "explain.json")
    r = subprocess.run([bt.IOPATH, "explain", os.path.join(FIXED, "base.json"), "--output=" + ex],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("gallery: iopath explain: exit %d: %s" % (r.returncode, r.stderr))
    with open(os.path.join(FIXED, "base.json")) as f:
        doc = json.load(f)
    with open(ex) as f:
        doc["iopath"] = json.load(f)["iopath"]
    with open(os.path.join(work, "explained.json"), "w") as f:
        json.dump(doc, f)


def write_pages(work):
    explained(work)
    for kind, _, cmd in PAGES:
        page = os.path.join(OUT, kind + ".html")
        args = [a.format(F=FIXED, W=work, O=page) for a in cmd]
        r = subprocess.run([bt.IOPATH] + args, capture_output=True, text=True)
        # compare exits 1 on a regression, 3 when inconclusive or the environment differed,
        # history the same for its newest step, report 0: the page is what counts
        if r.returncode not in (0, 1, 3) or not os.path.exists(page):
            sys.exit("gallery: iopath %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    # the target a cache answers has its one box; the disk beside it none
    with open(os.path.join(OUT, "notdirect.html")) as f:
        boxes = f.read().count('<div class="bad direct">')
    if boxes != 1:
        sys.exit("gallery: notdirect.html has %d NOT direct I/O boxes, not 1 (for the share)" % boxes)


def index():
    with open(os.path.join(OUT, "index.html"), "w") as f:
        f.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>iopath gallery</title>\n"
                "<style>body{font:14px system-ui,sans-serif;margin:20px}div.k{display:inline-block;vertical-align:top;"
                "margin:0 16px 24px 0;width:330px}img{width:320px;border:1px solid #ccc}</style></head><body>\n"
                "<h1>iopath gallery</h1><p>Every kind of page from the fixed results in tests/html/gallery/ "
                "(make gallery). Click a page to open it, a picture to see it whole.</p>\n")
        for kind, what, _ in PAGES:
            f.write("<div class=\"k\"><h3><a href=\"%s.html\">%s</a></h3><p>%s</p>"
                    "<a href=\"%s.png\"><img src=\"%s.png\" alt=\"%s at 1280 px\"></a> "
                    "<a href=\"%s-print.png\">as printed</a></div>\n" % (kind, kind, what, kind, kind, kind, kind))
        f.write("</body></html>\n")


def shoot():
    for p, what in ((bt.CHROMIUM, "chromium"), (bt.DRIVER, "chromium-driver")):
        if not os.access(p, os.X_OK):
            return "%s is not installed (scripts/deps.sh --browser installs it)" % what
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium is not installed (scripts/deps.sh --browser installs it)"
    d = bt.browser()
    try:
        for kind, _, _ in PAGES:
            path = os.path.join(OUT, kind + ".html")
            bt.open_page(d, path)
            # the pages measured as make html-test measures its own
            bt.lines_joined(d, path)
            bt.nothing_overflows(d, path, "1280 px")
            bt.tables_fit(d, path)
            bt.printed_fits(d, path)
            bt.screenshot(d, kind, OUT)
            d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
            bt.screenshot(d, kind + "-print", OUT, 718)
            d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    finally:
        d.quit()
    return None


def main():
    if not os.access(bt.IOPATH, os.X_OK):
        sys.exit("gallery: %s is missing: make iopath first" % bt.IOPATH)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    work = os.path.join(OUT, ".work")
    os.makedirs(work)
    try:
        write_pages(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    index()
    why = shoot()
    if why:
        print("gallery: screenshots skipped: " + why)
    print("gallery: %d pages%s in %s (index.html)" % (len(PAGES), "" if why else " and their screenshots", OUT))
    if not why:
        print("gallery: %d checks passed, %d failed (lines joined, nothing overflowing at 1280 px or printed, tables whole at 1280 px)"
              % (bt.passed, bt.failed))
    sys.exit(1 if bt.failed else 0)


if __name__ == "__main__":
    main()
