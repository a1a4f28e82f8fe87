# ChatEngine: cost per chunk while a 100 KB reply streams into a 10,000-message thread.
cat <<MD
## ChatEngine (issue 5)

\`$BIN/replykit-bench engine\` — \`ChatEngineBenchmark.run()\` streams a 100 KB reply in 4-byte chunks
(25,000 chunks) into a thread of 10,000 messages, timing each chunk's delivery into the engine (the
run fence, the buffer append and the coalesced publish about 30 times per simulated second), then
day sections and rows for the same thread. Target: p99 per chunk ≤ 50 µs.

$($BIN/replykit-bench engine)
MD
