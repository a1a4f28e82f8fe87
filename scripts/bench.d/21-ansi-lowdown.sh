# The ANSI renderer without highlighting against lowdown -tterm, side by side (the two commands
# alternating), on the ~1 MB Corpus reply and on a 1.2 MB generated mixed reply (tables, lists,
# CJK, emoji, links, footnotes); cmark-gfm's own plain-text run of the mixed reply for scale.
"$BIN/replykit-bench" mixed-reply 1 1000000 > "$WORK/mixed-1mb.md"
al_row() {
  local ours="$BIN/replykit render --to ansi --width 80 --color never $1"
  local peer="lowdown -tterm --term-width=80 $1"
  local times t_ours t_peer
  times=$(scripts/interleaved-median.py 21 "$ours" "$peer" 2>/dev/null)
  t_ours=${times% *}; t_peer=${times#* }
  echo "| \`$ours\` | $t_ours ms | \`$peer\` | $t_peer ms | **$(ratio "$t_ours" "$t_peer")x** |"
}
cm_mixed="/usr/bin/cmark-gfm $EXTS -t plaintext $WORK/mixed-1mb.md"
low_mixed="lowdown -tterm --term-width=80 $WORK/mixed-1mb.md"
cm_times=$(scripts/interleaved-median.py 21 "$cm_mixed" "$low_mixed")
cat <<MD
## ANSI renderer against lowdown, side by side (issue 15)

Median wall time of 21 rounds, the two commands alternating (\`scripts/interleaved-median.py 21 OURS PEER\`).
The mixed reply is \`$BIN/replykit-bench mixed-reply 1 1000000 > $WORK/mixed-1mb.md\` ($(wc -c < "$WORK/mixed-1mb.md") bytes,
the streaming benchmark's generator). Target: within 1.2x on both.

| ReplyKit | median | lowdown | median | ratio |
|---|---|---|---|---|
$(al_row "$WORK/input-1mb.md")
$(al_row "$WORK/mixed-1mb.md")

For scale, the C library ReplyKit parses with, alone (\`scripts/interleaved-median.py 21 '$cm_mixed' '$low_mixed'\`):
\`cmark-gfm -t plaintext\` ${cm_times% *} ms against lowdown's ${cm_times#* } ms on the mixed reply.
MD
