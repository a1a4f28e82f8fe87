# replykit chat: frame time while a reply streams at the bottom of a 1,000-message thread.
cat <<MD
## replykit chat (issue 6)

\`$BIN/replykit chat --benchmark\` — lays out a 1,000-message thread at 120x40 and streams a reply at
the bottom, drawing a frame per chunk into an in-memory terminal (changed rows only, inside
synchronized-output brackets). Target: p99 under 8 ms. The last two rows (issue 18): the frame right
after a version switch in a 1,000-message thread with 100 branches (every fifth answer
regenerated), 400 seeded switches to the old version and back, following the latest; a switched-in
reply is rendered once.

$($BIN/replykit chat --benchmark)
MD
