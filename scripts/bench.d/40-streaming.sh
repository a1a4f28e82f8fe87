# MarkdownStream: cost per update while replies of each kind stream in small chunks.
cat <<MD
## MarkdownStream (issue 4)

\`$BIN/replykit-bench stream\` — \`StreamingBenchmark.run()\` streams synthetic replies of 50 and 200 KB
(prose, one long code fence, a 2,000-item list, a 1,000-row table, CJK text) in 4- and 20-byte chunks
through \`MarkdownStream\` and the HTML consumer, timing every update. "× one-shot" is the total
against one one-shot parse + render; "100→200 KB" the growth of the total; the naive way (a one-shot
render of everything received after each chunk) is timed on 200 evenly spread updates and scaled to
all of them. Targets: p99 ≤ 1 ms at 200 KB, growth ≤ 2.3x, ≥ 50x faster than naive.

$($BIN/replykit-bench stream)
MD
