#!/usr/bin/env bash
# The size of the core module every app imports, and what it must not contain (issue 21).
#
# Usage: bash Scripts/core-layout.sh [--enforce]
# Prints, for Sources/BackgroundTaskKit: Swift lines, public declarations (lines that declare
# something `public` or `open`; enum cases of public enums are not counted), the longest file, and
# every use of a method exchange, a symbol look-up or MetricKit. Declarations in a file that declares
# SPI (`@_spi`, for the package's own modules) are not API and not counted. With --enforce, exits 1 when the core
# is over 4,300 lines (4,000 until issue 24 added the wind-down, 4,100 until issue 33 added leak reporting per owner) or 150 public
# declarations, has a file over 300 lines, or uses any of them.
set -euo pipefail
cd "$(dirname "$0")/.."

core=Sources/BackgroundTaskKit
files=$(find "$core" -name '*.swift' | sort)
lines=$(cat $files | wc -l)
api_files=$(grep -L '^@_spi(' $files)
public=$(cat $api_files | grep -cE '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(public|open)\s+(static\s+|final\s+|nonisolated\s+|override\s+|convenience\s+|required\s+|mutating\s+|class\s+)*(func|var|let|init|struct|class|enum|protocol|typealias|subscript|actor|extension)\b' || true)
longest=$(wc -l $files | grep -v ' total$' | sort -n | tail -1)
# Code only: comment lines that merely name them do not count.
foreign=$(grep -nE 'method_exchangeImplementations|method_setImplementation|class_addMethod|imp_implementationWithBlock|\bdladdr\b|\bdlsym\b|import MetricKit|\bMXMetricManager\b' $files \
    | grep -vE '^[^:]+:[0-9]+:\s*//' || true)

echo "core module ($core): $lines lines in $(wc -w <<<"$files") files, $public public declarations"
echo "longest file: $longest"
if [ -n "$foreign" ]; then
    echo "method exchange, symbol look-up or MetricKit in the core ($(wc -l <<<"$foreign") lines):"
    sed 's/^/  /' <<<"$foreign"
else
    echo "no method exchange, symbol look-up or MetricKit in the core"
fi

if [ "${1:-}" = "--enforce" ]; then
    longestLines=$(awk '{ print $1 }' <<<"$longest")
    failed=0
    [ "$lines" -le 4300 ] || { echo "over 4,300 lines"; failed=1; }
    [ "$public" -le 150 ] || { echo "over 150 public declarations"; failed=1; }
    [ "$longestLines" -le 300 ] || { echo "a file over 300 lines"; failed=1; }
    [ -z "$foreign" ] || { echo "the core must not exchange methods, look symbols up or use MetricKit"; failed=1; }
    exit "$failed"
fi
