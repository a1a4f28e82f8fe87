# MarkdownStream: cost per update while replies of each kind stream in small chunks.
cat <<MD
## MarkdownStream (issues 4 and 12)

\`$BIN/replykit-bench stream\` — \`StreamingBenchmark.run()\` (\`Benchmarks/replykit-bench/\`) streams replies
in 4- and 20-byte chunks through \`MarkdownStream\` (policy \`.live\`) and each consumer (HTML, plain
text, ANSI at width 80), applying (rendering) the update after every chunk and timing each update.
Replies: synthetic ones of 50, 100 and 200 KB (prose, one long code fence, a 2,000-item list, a
1,000-row table, CJK text), seeded mixed replies (\`MixedReplyGenerator\` seed 1, every block kind
and nesting, citations and footnotes defined at the end; 50/100/200 KB of blocks plus the
definitions) and the Corpus replies concatenated (×1 and ×2). Columns: "× one-shot" is the total
(the least of three streams of the row, \`REPLYKIT_BENCH_STREAM_RUNS\`) against one one-shot parse +
render with the same consumer's renderer (best of 9); "growth ×2" the
growth of the total from 100 to 200 KB (Corpus: ×1 to ×2); "peak RSS added" the resident memory
the row added (sampled every 256 updates from \`/proc/self/statm\`); "max held+open" the largest
\`heldBytes + openBytes\` any update reported; "parsed / byte" all \`parsedBytes\` over the reply's
size; "bound breaks" the updates that broke \`StreamingBound\` (\`Sources/ReplyKitFuzz/StreamingBound.swift\`,
the first one is printed on standard error); the naive way (a one-shot render of everything received
after each chunk) is **estimated**: timed on 200 evenly spread prefixes and scaled to all updates.
"final = one-shot": whether the consumer's final output equals one-shot rendering (the terminal keeps
the lines it committed, so under \`.live\` ANSI may differ where a block committed before its
definition arrived). Targets (issue 12): growth ≤ 2.2x per doubling for every kind, total ≤ 10x
one-shot at 20-byte chunks, p99 per update ≤ 200 µs at 200 KB.

$($BIN/replykit-bench stream)
MD
