# Syntax highlighting (issue 15): throughput against kate-syntax-highlighter (the same engine, its
# own CLI) and pygmentize (what rich uses), the cost it adds to `render --to ansi`, and streaming a
# long fence. Inputs: the Corpus replies' code blocks by language, repeated to about 1 MB in all.
HL=$WORK/highlight
mkdir -p "$HL"
# Per language: Corpus code blocks repeated to ~77 KB, as a source file (for the peers) and as one
# fence of a markdown reply (for ReplyKit), with the names each tool knows it by.
python3 - "$HL" <<'PY'
import glob, os, re, sys
out = sys.argv[1]
# fence name -> (file extension, kate-syntax-highlighter syntax, pygments lexer)
languages = {
    "python": ("py", "Python", "python"), "swift": ("swift", "Swift", "swift"),
    "ts": ("ts", "TypeScript", "typescript"), "typescript": ("ts", "TypeScript", "typescript"),
    "javascript": ("js", "JavaScript", "javascript"), "js": ("js", "JavaScript", "javascript"),
    "rust": ("rs", "Rust", "rust"), "go": ("go", "Go", "go"), "sql": ("sql", "SQL", "sql"),
    "bash": ("sh", "Bash", "bash"), "json": ("json", "JSON", "json"), "yaml": ("yaml", "YAML", "yaml"),
    "c": ("c", "C", "c"), "html": ("html", "HTML", "html"), "diff": ("diff", "Diff", "diff"),
}
blocks = {}
for path in sorted(glob.glob("Corpus/replies/*.md")):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^( *)```([A-Za-z+#-]+)\s*$", lines[i])
        if m and m.group(2) in languages:
            indent, name, body = len(m.group(1)), m.group(2), []
            i += 1
            while i < len(lines) and not re.match(r"^ *```\s*$", lines[i]):
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
                i += 1
            blocks.setdefault(languages[name], []).append("\n".join(body) + "\n")
        i += 1
target = 1_000_000 // len(blocks)
reply = []
with open(os.path.join(out, "files.txt"), "w") as listing:
    for (ext, kate, lexer), codes in sorted(blocks.items()):
        text = ""
        while len(text.encode()) < target:
            for code in codes:
                text += code
        path = os.path.join(out, "code." + ext)
        open(path, "w", encoding="utf-8").write(text)
        listing.write("%s %s %s\n" % (path, kate, lexer))
        reply.append("```%s\n%s```\n" % (ext, text))
open(os.path.join(out, "code-1mb.md"), "w", encoding="utf-8").write("\n".join(reply))
PY
# One script per peer: every file, one process each, as a user would run them.
{
  echo '#!/bin/sh'
  while read -r f kate lexer; do
    echo "kate-syntax-highlighter -f ansi256Colors -t 'GitHub Dark' -s '$kate' '$f'"
  done < "$HL/files.txt"
} > "$HL/kate.sh"
{
  echo '#!/bin/sh'
  while read -r f kate lexer; do echo "/usr/bin/pygmentize -f terminal256 -O style=github-dark -l $lexer '$f'"; done < "$HL/files.txt"
} > "$HL/pygmentize.sh"
chmod +x "$HL/kate.sh" "$HL/pygmentize.sh"
/usr/bin/pygmentize -L styles 2>/dev/null | grep -q github-dark || sed -i 's/ -O style=github-dark//' "$HL/pygmentize.sh"
code_bytes=$(cat $(cut -d' ' -f1 "$HL/files.txt") | wc -c)
nfiles=$(wc -l < "$HL/files.txt")
hl_ours="$BIN/replykit render $HL/code-1mb.md --to ansi --color always --width 100"
hl_plain="$hl_ours --highlight never"
t_hl=$(median_ms "$hl_ours" 10)
t_hl_plain=$(median_ms "$hl_plain" 10)
t_kate=$(median_ms "$HL/kate.sh" 5)
t_pyg=$(median_ms "$HL/pygmentize.sh" 3)
mbps() { python3 -c "print('%.1f'%($code_bytes/($1/1000)/1e6))"; }
# The cost highlighting adds to `render --to ansi` of the ~1 MB reply, the two alternating.
ansi_hl="$BIN/replykit render $WORK/input-1mb.md --to ansi --width 80 --color always --hyperlinks never"
times=$(scripts/interleaved-median.py 15 "$ansi_hl --highlight never" "$ansi_hl")
t_a_plain=${times% *}; t_a_hl=${times#* }
# A long fence streamed in 20-byte chunks, whole process into a pipe, 100 and 200 KB.
python3 - "$HL" <<'PY'
import sys
for size in (100_000, 200_000):
    code, i = "", 0
    while len(code) < size:
        code += "let value%d = compute(\"text \\(%d)\", [1, 2, 3]) // note %d\n" % (i, i, i)
        i += 1
    open("%s/fence-%dkb.md" % (sys.argv[1], size // 1000), "w").write("```swift\n" + code + "```\n")
PY
st() { echo "$BIN/replykit stream $HL/fence-$1kb.md --to ansi --chunk-bytes 20 --color always --width 100${2:-}"; }
t_s100=$(median_ms "$(st 100)" 5); t_s200=$(median_ms "$(st 200)" 5)
t_s100p=$(median_ms "$(st 100 ' --highlight never')" 5); t_s200p=$(median_ms "$(st 200 ' --highlight never')" 5)
cat <<MD
## Syntax highlighting (issue 15)

Input: the Corpus replies' code blocks in $nfiles languages (Python, Swift, TypeScript, JavaScript,
Rust, Go, SQL, shell, JSON, YAML, C, HTML, diff), each language's blocks repeated to about 77 KB:
$code_bytes bytes of code in \`$HL/code.*\`, and the same code as one fence per language in
\`$HL/code-1mb.md\` (made by \`scripts/bench.d/25-highlight.sh\`). Every tool writes 256-colour
ANSI in GitHub Dark (pygmentize: its \`github-dark\` style where it has one). The peers run one
process per file (\`$HL/kate.sh\`, \`$HL/pygmentize.sh\`), ReplyKit one process for the whole reply.
Median wall time (\`hyperfine -N\`, 10 runs; kate 5; pygmentize 3).

| command | median | throughput |
|---|---|---|
| \`$hl_ours\` | $t_hl ms | $(mbps "$t_hl") MB/s |
| \`$hl_plain\` (no highlighting, for the difference) | $t_hl_plain ms | |
| \`$HL/kate.sh\` (\`kate-syntax-highlighter -f ansi256Colors -t 'GitHub Dark' -s LANG FILE\` per file) | $t_kate ms | $(mbps "$t_kate") MB/s |
| \`$HL/pygmentize.sh\` (\`pygmentize -f terminal256 -l LEXER FILE\` per file) | $t_pyg ms | $(mbps "$t_pyg") MB/s |
| **ReplyKit / kate-syntax-highlighter** | **$(ratio "$t_hl" "$t_kate")x** | |
| **ReplyKit / pygmentize** | **$(ratio "$t_hl" "$t_pyg")x** | |

In-process (\`$BIN/replykit-bench highlight $HL/code-1mb.md\`; then the streaming rows):

$($BIN/replykit-bench highlight "$HL/code-1mb.md")

The cost highlighting adds to \`render --to ansi\` of the ~1 MB Corpus reply (\`scripts/interleaved-median.py 15 'A' 'B'\`,
the two alternating). Target: at most 2x.

| command | median |
|---|---|
| \`$ansi_hl --highlight never\` | $t_a_plain ms |
| \`$ansi_hl\` | $t_a_hl ms |
| **highlighted / plain** | **$(ratio "$t_a_hl" "$t_a_plain")x** |

A Swift fence streamed in 20-byte chunks, whole process into a pipe (\`hyperfine -N\`, 5 runs).
Target: at most 2.2x per doubling.

| command | median |
|---|---|
| \`$(st 100)\` | $t_s100 ms |
| \`$(st 200)\` | $t_s200 ms |
| **growth ×2, highlighted** | **$(ratio "$t_s200" "$t_s100")x** |
| \`$(st 100 ' --highlight never')\` | $t_s100p ms |
| \`$(st 200 ' --highlight never')\` | $t_s200p ms |
| growth ×2, not highlighted | $(ratio "$t_s200p" "$t_s100p")x |
MD
