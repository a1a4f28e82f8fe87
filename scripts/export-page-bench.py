#!/usr/bin/env python3
"""Measures the exported thread page (issue 17): export time, page size, first paint and scroll
frame times in headless Chromium, for threads of 1,000 and 10,000 messages.

Usage: scripts/export-page-bench.py [--sizes 1000,10000] [--runs N] [--bin .build/release/replykit]
(after the release build of `make bench`; prints a markdown section for BENCHMARKS.md).

The threads come from a seeded generator (random.Random(seed)): questions and replies that mix
paragraphs, lists, tables, footnotes and code in six languages (so highlighting has work), a turn
a minute, with stopped, failed and rated replies and a recorded model.

Browser figures: a fresh headless Chromium per run, driven over the DevTools protocol on
--remote-debugging-pipe (fd 3 and 4, NUL-terminated JSON). Before the page loads, a DevTools
script (which the page's CSP does not cover) records when the page's own script marks <html
data-ready>. First paint and first contentful paint come from the Paint Timing entries
(performance.getEntriesByType('paint')), DOMContentLoaded and load from the Navigation Timing
entry, all in ms from navigation start. Scroll: 240 animation frames, each scrolling 400 px
(wrapping to the top at the end), rAF-to-rAF intervals reported as median, 95th percentile and
worst.
"""
import argparse
import fcntl
import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ("thread reply layout render buffer stream token cache index table column value swift parser string "
         "memory window scroll anchor number format option state request server client result error type").split()
CODE = {
    "swift": ["let value = try decoder.decode(Reply.self, from: data)", "func load() async throws -> [Item] {",
              "  return items.filter { $0.isVisible } // keep the shown ones", "}"],
    "python": ["def load(path: str) -> list[str]:", "    with open(path) as f:  # read it all",
               "        return [line.strip() for line in f]"],
    "typescript": ["export async function load(url: string): Promise<Item[]> {",
                   "  const response = await fetch(url);", "  return (await response.json()) as Item[];", "}"],
    "rust": ["fn main() -> Result<(), Box<dyn Error>> {", "    let text = fs::read_to_string(\"a.txt\")?;",
             "    println!(\"{}\", text.len());", "    Ok(())", "}"],
    "sql": ["SELECT name, COUNT(*) AS n", "FROM orders JOIN users ON users.id = orders.user_id",
            "WHERE created_at > '2024-01-01' GROUP BY name;"],
    "sh": ["for f in *.md; do", "  wc -c \"$f\"  # bytes", "done"],
}


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 20))]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def reply(rng):
    blocks = []
    for _ in range(rng.randint(1, 6)):
        kind = rng.randrange(10)
        if kind < 4:
            blocks.append(" ".join(sentence(rng) for _ in range(rng.randint(1, 5))))
        elif kind < 6:
            language = rng.choice(sorted(CODE))
            lines = CODE[language] * rng.randint(1, 3)
            blocks.append("```%s\n%s\n```" % (language, "\n".join(lines)))
        elif kind == 6:
            blocks.append("\n".join("- " + sentence(rng) for _ in range(rng.randint(2, 6))))
        elif kind == 7:
            rows = "\n".join("| %s | %d | %s |" % (rng.choice(WORDS), rng.randint(1, 999), sentence(rng))
                             for _ in range(rng.randint(1, 6)))
            blocks.append("| name | value | notes |\n|---|---:|---|\n" + rows)
        elif kind == 8:
            blocks.append("## " + sentence(rng).rstrip("."))
        else:
            blocks.append(sentence(rng) + " See the note[^1].\n\n[^1]: " + sentence(rng))
    return "\n\n".join(blocks)


def thread(count, seed):
    rng = random.Random(seed)
    start = 1709280000  # 2024-03-01T08:00:00Z
    messages = []
    for i in range(count):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(start + 60 * i))
        message = {"id": "00000000-0000-4000-8000-%012d" % (i + 1), "date": stamp, "state": "complete"}
        if i % 2 == 0:
            message.update(role="user", text="Question %d: %s" % (i // 2 + 1, sentence(rng)))
        else:
            message.update(role="assistant", text=reply(rng), feedback=rng.choice(["good", None, None, "bad"]))
            roll = rng.randrange(50)
            if roll == 7:
                message["state"] = "stopped"
            elif roll == 13:
                message.update(state="failed", error="The network connection was lost.")
        messages.append(message)
    return {"model": "bench-model", "messages": messages}


class Browser:
    """Headless Chromium over --remote-debugging-pipe."""

    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="replykit-bench-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            # Moved above 10 first, so that the dup2 onto 3 and 4 never meets its own source.
            reads, writes = os.dup(to_browser_r), os.dup(from_browser_w)
            high_reads, high_writes = fcntl.fcntl(reads, fcntl.F_DUPFD, 10), fcntl.fcntl(writes, fcntl.F_DUPFD, 10)
            os.dup2(high_reads, 3)
            os.dup2(high_writes, 4)

        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--lang=en-US", "--hide-scrollbars",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--mute-audio", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "about:blank"]
        env = dict(os.environ, TZ="UTC", LANG="en_US.UTF-8")
        # Python's own descriptors are close-on-exec; 3 and 4 are made in the child and kept.
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=env)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.session = None
        self.events = []
        target = self.send("Target.createTarget", {"url": "about:blank"}, page=False)
        attached = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, page=False)
        self.session = attached["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium exited")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, page=True, timeout=120):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if page and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            answer = self.read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def evaluate(self, expression, timeout=120):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            raise RuntimeError("%s: %s" % (expression[:60], result["exceptionDetails"]))
        return result["result"].get("value")

    def close(self):
        try:
            os.write(self.to_browser, json.dumps({"id": self.next_id + 1, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


READY_HOOK = """
new MutationObserver(function (changes, observer) {
  if (document.documentElement && document.documentElement.hasAttribute('data-ready')) {
    window.__readyAt = performance.now(); observer.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
"""

MEASURE = """
(() => {
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
  const nav = performance.getEntriesByType('navigation')[0];
  return { fp: paint['first-paint'], fcp: paint['first-contentful-paint'], dcl: nav.domContentLoadedEventEnd,
           load: nav.loadEventEnd, ready: window.__readyAt, height: document.documentElement.scrollHeight,
           turns: document.querySelectorAll('article.turn').length };
})()
"""

SCROLL = """
new Promise(resolve => {
  const gaps = []; let last = performance.now(); let frames = 0;
  function step(now) {
    gaps.push(now - last); last = now; frames += 1;
    const max = document.documentElement.scrollHeight - innerHeight;
    scrollTo(0, scrollY + 400 > max ? 0 : scrollY + 400);
    if (frames < 240) { requestAnimationFrame(step); } else { resolve(gaps.slice(1)); }
  }
  requestAnimationFrame(t => { last = t; requestAnimationFrame(step); });
})
"""


def browser_run(chromium, url, width, height):
    browser = Browser(chromium, width, height)
    try:
        browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": READY_HOOK})
        browser.send("Page.navigate", {"url": url})
        deadline = time.time() + 300
        while time.time() < deadline:
            if browser.evaluate("document.readyState === 'complete' && window.__readyAt !== undefined"):
                break
            time.sleep(0.05)
        time.sleep(0.3)
        figures = browser.evaluate(MEASURE)
        gaps = sorted(browser.evaluate(SCROLL, timeout=300))
        figures["scroll_median"] = statistics.median(gaps)
        figures["scroll_p95"] = gaps[int(len(gaps) * 0.95) - 1]
        figures["scroll_worst"] = gaps[-1]
        return figures
    finally:
        browser.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--bin", default=".build/release/replykit")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--work", default=".build/export-page-bench")
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    env = dict(os.environ, TZ="UTC", LANG="en_US.UTF-8")
    rows = []
    for size in [int(s) for s in options.sizes.split(",")]:
        source = os.path.join(options.work, "thread-%d.json" % size)
        page = os.path.join(options.work, "thread-%d.html" % size)
        with open(source, "w", encoding="utf-8") as f:
            json.dump(thread(size, options.seed), f, ensure_ascii=False)
        times = []
        for _ in range(options.runs + 1):
            start = time.perf_counter()
            subprocess.run([options.bin, "export", source, "--to", "html", "-o", page], check=True, env=env)
            times.append((time.perf_counter() - start) * 1000)
        times = sorted(times[1:])  # the first run warms the file cache
        plain_times = []
        plain_page = os.path.join(options.work, "thread-%d-plain.html" % size)
        for _ in range(options.runs):
            start = time.perf_counter()
            subprocess.run([options.bin, "export", source, "--highlight", "never", "-o", plain_page], check=True,
                           env=env)
            plain_times.append((time.perf_counter() - start) * 1000)
        data = open(page, "rb").read()
        url = "file://" + os.path.abspath(page)
        browser = {}
        for width, height in ((1280, 900), (390, 844)):
            runs = [browser_run(options.chromium, url, width, height) for _ in range(options.runs)]
            browser[width] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        rows.append((size, os.path.getsize(source), times, sorted(plain_times), len(data),
                     len(gzip.compress(data, 9)), browser))

    print("| messages | thread file | export (median of %d; best) | without highlighting | page | gzip -9 |"
          % options.runs)
    print("|---|---|---|---|---|---|")
    for size, source_bytes, times, plain, page_bytes, gz, _ in rows:
        print("| %s | %.1f MB | %.0f ms; %.0f ms | %.0f ms | %.1f MB | %.1f MB |" % (
            format(size, ","), source_bytes / 1e6, statistics.median(times), times[0], statistics.median(plain),
            page_bytes / 1e6, gz / 1e6))
    print()
    print("| messages | width | first paint | first contentful paint | DOMContentLoaded | script ready | load "
          "| scroll frame median / p95 / worst |")
    print("|---|---|---|---|---|---|---|---|")
    for size, _, _, _, _, _, browser in rows:
        for width in (1280, 390):
            b = browser[width]
            print("| %s | %d px | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.1f / %.1f / %.1f ms |" % (
                format(size, ","), width, b["fp"], b["fcp"], b["dcl"], b["ready"], b["load"], b["scroll_median"],
                b["scroll_p95"], b["scroll_worst"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
