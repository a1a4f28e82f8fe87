# Hardening: every pathological case through the guards, parse and HTML; resource limits; fuzzing.
cat <<MD
## Hardening (issue 8)

### Pathological inputs, every case of \`../shared/corpus/pathological.json\` at full size

\`$BIN/replykit-bench pathological\` — CPU time of guard, parse and HTML per case (the thread's own
CPU clock, so other load does not inflate it), beside the C library's time as measured for
\`pathological.json\` ("C s"). Target: under 1 s each, output bounded.

$($BIN/replykit-bench pathological 2>&1)

### Resource limits

\`$BIN/replykit-bench resources\`:

$($BIN/replykit-bench resources 2>&1)

### Fuzzing

The long libFuzzer run (\`make fuzz FUZZ_SECONDS=1800\`, i.e. \`scripts/libfuzzer.sh 1800\`) is recorded in
\`docs/notes/fuzzing.md\` with its executions per second and coverage:

$(sed -n '/^## Last long run/,$p' docs/notes/fuzzing.md 2>/dev/null)
MD
