#!/usr/bin/env bash
# Builds the libFuzzer harness (swiftc -sanitize=fuzzer,address) and fuzzes for SECONDS.
#
#   scripts/libfuzzer.sh SECONDS [extra libFuzzer flags...]
#
# ReplyMarkdown and ReplyKitFuzz are compiled straight from their sources (SwiftPM has no
# sanitizer-coverage build for libFuzzer), with Fuzz/LibFuzzerEntry.swift exporting
# LLVMFuzzerTestOneInput. Seeds: Corpus/ replies and fuzz regressions plus every spec example;
# dictionary: ../shared/corpus/fuzzing-dictionary.dict. The growing corpus lives in
# .build/libfuzzer/corpus; crashes go to .build/libfuzzer/artifacts (minimise one with
# `SWIFT_BACKTRACE=enable=no .build/libfuzzer/replykit-libfuzzer -minimize_crash=1 -runs=10000 FILE`). Extra flags go to
# libFuzzer (for a crash-stops run without fork mode: scripts/libfuzzer.sh 60 -fork=0).
#
# The Swift runtime's backtracer is off (SWIFT_BACKTRACE=enable=no): under AddressSanitizer it reads
# the shadow gap after a trap and is reported as an ASan "unknown-crash" ahead of the real cause. A
# failed oracle check prints `==PID==ERROR: FuzzOracle: check: detail` and aborts, so it is the
# first line of its report (docs/notes/fuzzing.md). Replay a saved input the same way:
#   SWIFT_BACKTRACE=enable=no .build/libfuzzer/replykit-libfuzzer -runs=1 FILE
set -euo pipefail
seconds=${1:?usage: scripts/libfuzzer.sh SECONDS [libFuzzer flags]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build/libfuzzer"
shared="$root/../shared/corpus"
mkdir -p "$out/obj" "$out/corpus" "$out/seeds" "$out/artifacts"
swiftc=${SWIFTC:-swiftc}
# One package name for both modules: the oracle uses ReplyMarkdown's `package` declarations.
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name ReplyKit -I "$root/Sources/CCmarkGFM" -I "$root/Sources/CUTF8Proc")

stamp="$out/.built"
sources=$(find "$root/Sources/ReplyMarkdown" "$root/Sources/ReplyKitFuzz" "$root/Fuzz" -name '*.swift' -newer "$stamp" 2>/dev/null | head -1 || true)
if [ ! -f "$stamp" ] || [ -n "$sources" ]; then
  echo "libfuzzer: building the harness" >&2
  "$swiftc" "${flags[@]}" -module-name ReplyMarkdown -wmo -emit-module -emit-module-path "$out/obj/ReplyMarkdown.swiftmodule" \
    -c $(find "$root/Sources/ReplyMarkdown" -name '*.swift' | sort) -o "$out/obj/ReplyMarkdown.o"
  "$swiftc" "${flags[@]}" -module-name ReplyKitFuzz -wmo -emit-module -emit-module-path "$out/obj/ReplyKitFuzz.swiftmodule" \
    -I "$out/obj" -c $(find "$root/Sources/ReplyKitFuzz" -name '*.swift' | sort) -o "$out/obj/ReplyKitFuzz.o"
  "$swiftc" "${flags[@]}" -module-name ReplyKitLibFuzzer -I "$out/obj" "$root/Fuzz/LibFuzzerEntry.swift" \
    "$out/obj/ReplyMarkdown.o" "$out/obj/ReplyKitFuzz.o" -lcmark-gfm -lcmark-gfm-extensions -lutf8proc \
    -use-ld=lld -o "$out/replykit-libfuzzer"
  touch "$stamp"
fi

# Seeds: a flags byte (0) before each document.
if [ -z "$(ls -A "$out/seeds")" ]; then
  for file in "$root"/Corpus/replies/*.md "$root"/Corpus/fuzz-regressions/*.md; do
    [ -f "$file" ] || continue
    { printf '\0'; cat "$file"; } > "$out/seeds/$(basename "$file")"
  done
  if [ -d "$shared" ]; then
    python3 - "$shared" "$out/seeds" <<'PY'
import json, os, sys
shared, seeds = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(shared)):
    if not name.endswith('.json') or name == 'pathological.json':
        continue
    for i, example in enumerate(json.load(open(os.path.join(shared, name)))):
        with open(os.path.join(seeds, '%s-%d' % (name[:-5], i)), 'wb') as f:
            f.write(b'\0' + example['markdown'].encode())
PY
  fi
fi
dict=()
[ -f "$shared/fuzzing-dictionary.dict" ] && dict=(-dict="$shared/fuzzing-dictionary.dict")
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# Fork mode keeps fuzzing after a failing input (each is saved under artifacts/), so one known bug
# does not end a long run; -jobs/-workers stay at 1 on this 2-core machine.
exec "$out/replykit-libfuzzer" "$out/corpus" "$out/seeds" "${dict[@]}" -max_total_time="$seconds" \
  -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_len=65536 -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
