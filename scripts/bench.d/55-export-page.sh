# The exported page (issue 17): export time, page size, first paint and scroll frames for 1,000 and
# 10,000 messages, in headless Chromium (scripts/export-page-bench.py says how each is measured).
page_out=$(scripts/export-page-bench.py --bin "$BIN/replykit" --runs 3)
cat <<MD
## The exported page: 1,000 and 10,000 messages (issue 17)

\`scripts/export-page-bench.py --bin $BIN/replykit --runs 3\` — threads from the script's seeded
generator (seed 17: paragraphs, lists, tables, footnotes, code in six languages, a recorded model),
exported with highlighting (GitHub Light and Dark) and without (\`--highlight never\`); each figure
is the median of 3 runs. Browser figures: a fresh headless Chromium $(chromium --version 2>/dev/null | cut -d' ' -f2) per run over the
DevTools protocol (\`--remote-debugging-pipe\`): paint and navigation timing entries in ms from
navigation start, "script ready" when the page's own script marked \`<html data-ready>\`
(recorded by a DevTools script installed before the page loads), and 240 animation frames each
scrolling 400 px.

$page_out
MD
