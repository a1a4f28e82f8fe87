# replykit export: a 1,000-message thread as a web page.
export_out=$(TZ=UTC LANG=en_US.UTF-8 BIN="$BIN/replykit" BENCH_RUNS="$RUNS" scripts/export-bench.sh)
cat <<MD
## replykit export (issue 7)

\`TZ=UTC LANG=en_US.UTF-8 BENCH_RUNS=$RUNS scripts/export-bench.sh\` — a thread of 1,000 messages
(500 questions, 500 replies cycling through \`Corpus/replies\`) exported as one self-contained page:

\`\`\`text
$export_out
\`\`\`

Where the bytes go and how the page behaves in Chromium: \`docs/notes/export-benchmark-notes.md\`.
MD
