#!/usr/bin/env bash
# Builds every library product an app links at run time the way a binary SDK (an XCFramework) builds it: with
# library evolution and a textual module interface, which the compiler verifies after emitting it (a failing
# verification fails the build). CI runs it; `Documentation/ForSDKVendors.md` says how to vendor the package.
#
# Usage: bash Scripts/library-evolution.sh [SCRATCH_PATH]    (default .build-library-evolution)
#
# The products are read from Package.swift: every library product except the test kit and the simulator (linked by
# test targets and tools only). `-alias-module-names-in-module-interface` is needed because two modules declare a type of
# their own name (`BackgroundTaskDiagnostics`, `BackgroundTaskTimeline`); the modules that import them need it too.
# On Linux the compiler warns that Foundation and Dispatch were not built with library evolution: on Apple platforms
# they are, so those warnings are expected here and not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${1:-.build-library-evolution}"
mkdir -p "$scratch"

products=$(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
for product in package["products"]:
    if "library" in product["type"] and product["name"] not in ("BackgroundTaskKitTesting", "BackgroundTaskSimulation"):
        print(product["name"], " ".join(product["targets"]))
')

failed=0
while read -r product targets; do
    for target in $targets; do
        if swift build --scratch-path "$scratch" --target "$target" -Xswiftc -enable-library-evolution \
            -Xswiftc -emit-module-interface -Xswiftc -Xfrontend -Xswiftc -alias-module-names-in-module-interface \
            >"$scratch/$target.log" 2>&1; then
            interface=$(find "$scratch" -path "*/$target.build/$target.swiftinterface" | head -1)
            if [ -n "$interface" ] && grep -q -- "-enable-library-evolution" "$interface"; then
                echo "$product ($target): builds with library evolution; its module interface verifies"
                continue
            fi
            echo "$product ($target): built, but no module interface was written"
        else
            grep -E "error:" "$scratch/$target.log" | grep -v '^ ' | sort -u | head -20
            echo "$product ($target): does not build with library evolution (log: $scratch/$target.log)"
        fi
        failed=1
    done
done <<<"$products"
exit "$failed"
