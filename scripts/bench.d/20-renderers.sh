# Plain text and ANSI renderers against their peers, same ~1 MB input.
plain_ours="$BIN/replykit render --to plain $WORK/input-1mb.md"
plain_peer="/usr/bin/cmark-gfm $EXTS -t plaintext $WORK/input-1mb.md"
ansi_ours="$BIN/replykit render --to ansi --width 80 --color always --hyperlinks never $WORK/input-1mb.md"
ansi_ours_plain="$BIN/replykit render --to ansi --width 80 --color never $WORK/input-1mb.md"
ansi_lowdown="lowdown -tterm --term-width=80 $WORK/input-1mb.md"
ansi_rich="/usr/bin/python3 -m rich.markdown -w 80 -c $WORK/input-1mb.md"
r_plain_ours=$(row "$plain_ours"); t_plain_ours=$(echo "$r_plain_ours" | cut -d'|' -f3 | tr -dc '0-9.')
r_plain_peer=$(row "$plain_peer"); t_plain_peer=$(echo "$r_plain_peer" | cut -d'|' -f3 | tr -dc '0-9.')
r_ansi_ours=$(row "$ansi_ours"); t_ansi_ours=$(echo "$r_ansi_ours" | cut -d'|' -f3 | tr -dc '0-9.')
r_ansi_ours_plain=$(row "$ansi_ours_plain")
r_lowdown=$(row "$ansi_lowdown"); t_lowdown=$(echo "$r_lowdown" | cut -d'|' -f3 | tr -dc '0-9.')
r_rich=$(row "$ansi_rich" 3)
cat <<MD
## Plain text and ANSI renderers (issue 3)

Same input. Median wall time (\`hyperfine -N --warmup 3 --runs $RUNS\`; rich: 3 runs), CPU time
(mean user + system from hyperfine) and peak memory (\`/usr/bin/time -f %M\`).

| command | median | CPU | peak memory |
|---|---|---|---|
$r_plain_ours
$r_plain_peer
$r_ansi_ours
$r_ansi_ours_plain
$r_lowdown
$r_rich

| ratio | wall time | target |
|---|---|---|
| plain: ReplyKit / \`cmark-gfm -t plaintext\` | $(ratio "$t_plain_ours" "$t_plain_peer")x | ≤ 1.3x |
| ANSI: ReplyKit / \`lowdown -tterm\` | $(ratio "$t_ansi_ours" "$t_lowdown")x | ≤ 1.5x |

What each gets right or wrong on the same reply at width 60: \`docs/renderers-comparison.md\`.
MD
