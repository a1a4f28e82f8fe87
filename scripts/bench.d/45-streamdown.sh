# Streamdown (the Python terminal streaming renderer) against `replykit stream --to ansi` on the
# same 200 KB mixed reply.
SD_VENV=${SD_VENV:-.build/streamdown-venv}
# `scripts/bench.sh` defines ratio; this keeps the script usable on its own.
type ratio >/dev/null 2>&1 || ratio() { python3 -c "print('%.2f'%($1/$2))"; }
SD_NOTE=""
if [ ! -x "$SD_VENV/bin/sd" ]; then
  if ! { python3 -m venv "$SD_VENV" && "$SD_VENV/bin/pip" install -q streamdown; } >"$WORK/streamdown-install.log" 2>&1; then
    SD_NOTE="Streamdown could not be installed (\`python3 -m venv $SD_VENV && $SD_VENV/bin/pip install streamdown\` failed, see \`$WORK/streamdown-install.log\`; on Debian install python3-venv): section skipped."
  fi
fi
"$BIN/replykit-bench" mixed-reply 1 200000 > "$WORK/mixed-200kb.md"
sd_ours="$BIN/replykit stream $WORK/mixed-200kb.md --to ansi --chunk-bytes 20"
# Streamdown reads the file (or standard input) line by line and writes ANSI; without a terminal it
# still renders everything (TERM and COLUMNS set, width 80 like ours).
sd_peer="env TERM=xterm-256color COLUMNS=80 $SD_VENV/bin/sd -w 80 $WORK/mixed-200kb.md"
# hyperfine median in seconds of $1 over $2 runs after $3 warm-ups, output to /dev/null.
hf_s() {
  hyperfine -N --warmup "$3" --runs "$2" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1
  python3 -c "import json;print('%.3f'%json.load(open('$WORK/h.json'))['results'][0]['median'])"
}
if [ -n "$SD_NOTE" ]; then
  cat <<MD
## Streamdown comparison (issue 12)

$SD_NOTE
MD
else
  t_sd_ours=$(hf_s "$sd_ours" 10 2)
  t_sd_peer=$(hf_s "$sd_peer" 3 0)
  cat <<MD
## Streamdown comparison (issue 12)

Input: \`$BIN/replykit-bench mixed-reply 1 200000 > $WORK/mixed-200kb.md\` ($(wc -c < "$WORK/mixed-200kb.md") bytes, the
200 KB mixed reply of the table above). Median wall time, output to /dev/null
(\`hyperfine -N\`; ours 10 runs after 2 warm-ups, Streamdown 3 runs); Streamdown
$("$SD_VENV/bin/pip" show streamdown 2>/dev/null | sed -n 's/^Version: //p') from PyPI in \`$SD_VENV\`.

| command | median |
|---|---|
| \`$sd_ours\` | $t_sd_ours s |
| \`$sd_peer\` | $t_sd_peer s |
| **speed-up** (target ≥ 100x) | **$(ratio "$t_sd_peer" "$t_sd_ours")x** |
MD
fi
