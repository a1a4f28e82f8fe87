# Reply versions: switching a version in a 10,000-message thread with 1,000 branches.
cat <<MD
## Reply versions (issue 18)

\`$BIN/replykit-bench versions\` — \`VersionSwitchBenchmark.run()\` builds, through the engine's own
actions, 5,000 questions and answers with every fifth answer regenerated (10,000 shown messages,
1,000 branches), then switches 2,000 seeded random forks to the old version and back, timing each
\`showVersion\` call (wall time, the thread's CPU time, and the wall time of the switches during which
the thread was not switched out: a shared machine preempts), the same switches on a
\`ChatThreadTree\` value, and the rows after each switch. Target: p99 per switch ≤ 1 ms. The terminal frame after
a switch is the last rows of the \`replykit chat --benchmark\` table (target: within the chat's
frame target, p99 under 8 ms).

$($BIN/replykit-bench versions)
MD
