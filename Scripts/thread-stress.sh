#!/usr/bin/env bash
# Runs `thread-stress` and checks what it wrote: six real threads race every face (and SafeTaskScheduler's launched
# tasks) against expiry for 40 rounds, dropping tasks to the default leak handler (one line on standard error per
# leak).
#
# Usage: bash Scripts/thread-stress.sh [--sanitize=thread] [rounds]
# Fails when the stress crashes or breaks the promise, or when the leak lines do not match the tasks
# it dropped (every line is a dropped task; a dropped task that an expiry or `endAll` ended first is
# not a leak, so a few may have no line).
set -euo pipefail
cd "$(dirname "$0")/.."

build=(-c release)
scratch=.build
if [ "${1:-}" = "--sanitize=thread" ]; then
    build=(--sanitize=thread)
    scratch=.build-tsan
    shift
fi
rounds="${1:-40}"

swift build "${build[@]}" --scratch-path "$scratch" --product thread-stress
binary="$(swift build "${build[@]}" --scratch-path "$scratch" --show-bin-path)/thread-stress"
errors="$(mktemp)"
trap 'rm -f "$errors"' EXIT

status=0
output=$("$binary" "$rounds" 2>"$errors") || status=$?
echo "$output"
if [ "$status" != "0" ]; then
    echo "thread-stress exited with status $status; the end of its standard error:"
    tail -n 40 "$errors"
    exit 1
fi
dropped=$(sed -n 's/^dropped=//p' <<<"$output")
leaks=$(grep -c "the safety net ended it" "$errors" || true)
others=$(grep -vc "the safety net ended it" "$errors" || true)
echo "leak lines: $leaks for $dropped dropped task(s); other lines on standard error: $others"
if [ "$others" != "0" ]; then
    grep -v "the safety net ended it" "$errors" | head -n 40
    exit 1
fi
if [ "$leaks" -gt "$dropped" ] || [ "$((leaks * 10))" -lt "$((dropped * 9))" ]; then
    echo "expected between 90 % and 100 % of the dropped tasks as leak lines"
    exit 1
fi
