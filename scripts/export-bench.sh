#!/usr/bin/env bash
# Measures `replykit export` on a 1,000-message thread and prints the figures for BENCHMARKS-export.md.
# Usage: scripts/export-bench.sh   (after the release build of `make bench`)
# The thread: 500 questions and 500 replies, the replies cycling through the 30 Corpus replies,
# one turn a minute over three days, every state and rating represented.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/replykit}
WORK=.build/export-bench
RUNS=${BENCH_RUNS:-10}
mkdir -p "$WORK"

python3 - "$WORK/thread-1000.json" <<'PY'
import glob, json, sys, datetime
replies = [open(f, encoding='utf-8').read() for f in sorted(glob.glob('Corpus/replies/*.md'))]
start = datetime.datetime(2026, 3, 1, 8, 0, tzinfo=datetime.timezone.utc)
messages = []
for i in range(1000):
    date = (start + datetime.timedelta(minutes=4 * i)).isoformat(timespec='milliseconds').replace('+00:00', 'Z')
    m = {"id": "00000000-0000-4000-8000-%012d" % (i + 1), "date": date}
    if i % 2 == 0:
        m.update(role="user", text="Question %d: could you explain this with an example?" % (i // 2 + 1), state="complete")
    else:
        k = i // 2
        m.update(role="assistant", text=replies[k % len(replies)], state="complete",
                 feedback=["good", None, "bad", None][k % 4])
        if k % 50 == 7: m.update(state="stopped")
        if k % 50 == 13: m.update(state="failed", error="The network connection was lost.")
    messages.append(m)
json.dump({"messages": messages}, open(sys.argv[1], 'w', encoding='utf-8'), ensure_ascii=False)
PY

input_bytes=$(wc -c < "$WORK/thread-1000.json")
for format in html transcript markdown; do
  "$BIN" export "$WORK/thread-1000.json" --to "$format" -o "$WORK/thread-1000.$format" >/dev/null
done
page_bytes=$(wc -c < "$WORK/thread-1000.html")
gzip_bytes=$(gzip -9 -c "$WORK/thread-1000.html" | wc -c)

# Wall time of whole runs (process start, read, parse 500 replies, render, write), best and median.
times=()
for _ in $(seq "$RUNS"); do
  s=$(date +%s%N)
  "$BIN" export "$WORK/thread-1000.json" --to html -o "$WORK/thread-1000.html"
  e=$(date +%s%N)
  times+=($(( (e - s) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
best=${sorted[0]}
median=${sorted[$(( RUNS / 2 ))]}
peak_kb=$( { /usr/bin/time -f '%M' "$BIN" export "$WORK/thread-1000.json" --to html -o "$WORK/thread-1000.html"; } 2>&1 | tail -1)

echo "input: $input_bytes bytes (1,000 messages, 500 replies)"
echo "page: $page_bytes bytes, $gzip_bytes bytes gzip -9"
echo "export --to html: best $((best / 1000)).$(( (best % 1000) / 100 )) ms, median $((median / 1000)).$(( (median % 1000) / 100 )) ms over $RUNS runs; peak RSS ${peak_kb} KB"
for format in transcript markdown; do
  echo "$format: $(wc -c < "$WORK/thread-1000.$format") bytes"
done
