#!/usr/bin/env bash
# Instructions per begin+end pair of every face and peer, counted with callgrind, and the allocations
# per pair and per held task, counted by FaceCost with ordo-one's malloc interposer preloaded.
#
# Usage: bash Benchmarks/instructions.sh [face ...]          (default: every face and peer)
# Environment: LOW=1000 HIGH=101000, the two pair counts; instructions per pair are
#   (Ir(HIGH) - Ir(LOW)) / (HIGH - LOW), so start-up and the 10 held tasks cancel out.
#   HIGH=11000 gives the same figures to about 0.1 % in a tenth of the time.
# Needs valgrind. Valgrind 3.19 cannot read the debug info of Swift 6.3, so a copy of the binary is
# stripped of it first.
set -euo pipefail

package="$(cd "$(dirname "$0")" && pwd)"
low="${LOW:-1000}"
high="${HIGH:-101000}"
if [ "$#" -gt 0 ]; then
    faces=("$@")
else
    faces=(raw hand-written safe scoped with with-async hand-written-async manager manager-separate)
fi

swift build -c release --package-path "$package" --product FaceCost >&2
swift build -c release --package-path "$package" --product MallocInterposerSwift >&2
bin="$(swift build -c release --package-path "$package" --show-bin-path)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$bin/FaceCost" "$work/FaceCost"
strip --strip-debug "$work/FaceCost"

# Total instructions of `FaceCost <face> <count>`, every thread included.
instructions() {
    if ! valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
        "$work/FaceCost" "$1" "$2" >/dev/null 2>"$work/valgrind.log"; then
        cat "$work/valgrind.log" >&2
        exit 1
    fi
    awk '/^totals:/ { print $2 }' "$work/callgrind.out"
}

# One field of FaceCost's `key=value` line, or "-".
field() {
    grep -o " $1=[0-9.]*" <<<"$2" | cut -d= -f2 || echo "-"
}

library="$(git -C "$package/.." log -1 --format=%h 2>/dev/null || echo "unknown")"
if [ -n "$(git -C "$package/.." status --porcelain -- Sources 2>/dev/null)" ]; then
    library="$library + uncommitted changes"
fi
echo "library: $library; instructions per pair = (Ir($high) - Ir($low)) / $((high - low)), 10 tasks held"

declare -A perPair allocations
# Counts the instructions per pair of one face, and its allocations.
measure() {
    echo "  counting $1 ..." >&2
    perPair[$1]=$(( ($(instructions "$1" "$high") - $(instructions "$1" "$low")) / (high - low) ))
    allocations[$1]="$(LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/FaceCost" "$1" 10000)"
}
for face in "${faces[@]}"; do measure "$face"; done
[ -n "${perPair[hand-written]:-}" ] || measure hand-written  # the reference of the ratio

printf "%-18s %18s %15s %13s %11s %13s %16s %11s\n" face "instructions/pair" "x hand-written" \
    "mallocs/pair" "bytes/pair" "mallocs/task" "live-bytes/task" "bytes/task"
for face in "${faces[@]}"; do
    printf "%-18s %18d %15s %13s %11s %13s %16s %11s\n" "$face" "${perPair[$face]}" \
        "$(awk -v a="${perPair[$face]}" -v b="${perPair[hand-written]}" 'BEGIN { printf "%.2f", a / b }')" \
        "$(field mallocs/pair "${allocations[$face]}")" "$(field bytes/pair "${allocations[$face]}")" \
        "$(field mallocs/task "${allocations[$face]}")" "$(field live-bytes/task "${allocations[$face]}")" \
        "$(field bytes/task "${allocations[$face]}")"
done
