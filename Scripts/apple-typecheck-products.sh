#!/usr/bin/env bash
# Type-checks every library product above the core against the real Apple SDKs, the way
# ../shared/tools/apple-typecheck.sh checks the core (which it does alone: Sources/BackgroundTaskKit).
#
# Usage: bash Scripts/apple-typecheck-products.sh
# Run ../shared/tools/apple-typecheck.sh first: it extracts the SDKs and makes the private resource
# folders this script reuses (in $APPLE_SDK_CACHE, default ${TMPDIR:-/tmp}/apple-sdk-cache).
# For each configuration (iOS 18.6, iOS app extension, Mac Catalyst, macOS 15.5, tvOS 18.0, iOS 26.2),
# the core is emitted as a module, then each product above it is emitted against it in dependency
# order. Then the Xcode 26-defaults client's field-telemetry target (IntegrationTests/Xcode26Defaults/
# Field) is type-checked against them for iOS 18.6, and every non-test target (the executables too)
# for macOS 12, and every product for iOS 18.6 again with library evolution and a verified module interface.
# Last line: products-typecheck: LABEL=ok|N problems …
set -u
cd "$(dirname "$0")/.."
project=$(pwd)
cache=${APPLE_SDK_CACHE:-${TMPDIR:-/tmp}/apple-sdk-cache}
products=(BackgroundTaskTimeline BackgroundTaskDiagnostics BackgroundTaskTracing BackgroundTaskFieldTelemetry BackgroundTaskKitObjC
    BackgroundTaskScheduling)
result=""

sources() { # $1 = module or executable: its folder, in the library's package or the tool package (Tools/)
    if [ -d "Sources/$1" ]; then echo "Sources/$1"; else echo "Tools/Sources/$1"; fi
}

emit() { # $1 = module, $2 = out dir, $3 = SDK, $4 = target, rest = extra flags; prints error count
    local module=$1 out=$2 sdk=$3 target=$4; shift 4
    local name; name=$(basename "$sdk" .sdk)
    local log="$out/$module.log"
    local interface=()  # a binary SDK's build: the module interface too, verified by the compiler
    case " $* " in *" -enable-library-evolution "*) interface=(-emit-module-interface-path "$out/$module.swiftinterface");; esac
    swiftc -emit-module -emit-module-path "$out/$module.swiftmodule" "${interface[@]}" -parse-as-library -continue-building-after-errors \
        -module-name "$module" -package-name backgroundtaskkit -swift-version 6 -resource-dir "$cache/res-$name" \
        -sdk "$sdk" -target "$target" -module-cache-path "$cache/mc-$name-$target" -I "$out" "$@" \
        $(find "$(sources "$module")" -name '*.swift' | sort) >"$log" 2>&1
    grep -E ': (error|warning):' "$log" | sed "s|^|  [$module] |" >&2
    grep -c ': error:\|: warning:' "$log"
}

check() { # $1 = label, $2 = SDK name, $3 = target, rest = extra flags
    local label=$1 name=$2 sdk=$cache/sdk/$2.sdk target=$3; shift 3
    if [ ! -f "$sdk/SDKSettings.json" ] || [ ! -d "$cache/res-$name" ]; then result="$result $label=no-sdk"; return; fi
    local out; out=$(mktemp -d)
    local extra=("$@")
    case $target in *-macabi) extra+=(-Fsystem "$sdk/System/iOSSupport/System/Library/Frameworks" -I "$sdk/System/iOSSupport/usr/lib/swift");; esac
    echo "checking $label: $target against $name" >&2
    local problems=0 module
    for module in BackgroundTaskKit "${products[@]}"; do
        problems=$((problems + $(emit "$module" "$out" "$sdk" "$target" "${extra[@]}")))
    done
    if [ "$label" = ios ] && [ -d IntegrationTests/Xcode26Defaults/Field ]; then
        swiftc -typecheck -parse-as-library -module-name FieldApp -swift-version 6 -default-isolation MainActor \
            -enable-upcoming-feature InferIsolatedConformances -enable-upcoming-feature NonisolatedNonsendingByDefault \
            -resource-dir "$cache/res-$name" -sdk "$sdk" -target "$target" -module-cache-path "$cache/mc-$name-$target" \
            -I "$out" $(find IntegrationTests/Xcode26Defaults/Field -name '*.swift' | sort) >"$out/client.log" 2>&1
        grep -E ': (error|warning):' "$out/client.log" | sed "s|^|  [xcode26-client] |" >&2
        problems=$((problems + $(grep -c ': error:\|: warning:' "$out/client.log")))
    fi
    rm -rf "$out"
    if [ "$problems" -gt 0 ]; then result="$result $label=$problems problems"; else result="$result $label=ok"; fi
}

# Every non-test target but BackgroundTaskKitTesting (it imports Swift Testing), on macOS 12, emitted in
# dependency order, the tool package's (Tools/Sources) included: the shared script's own list of them predates the
# products.
chain() {
    local name=MacOSX15.5 sdk=$cache/sdk/MacOSX15.5.sdk target=arm64-apple-macos12.0
    if [ ! -f "$sdk/SDKSettings.json" ]; then result="$result macos-all-targets=no-sdk"; return; fi
    local out; out=$(mktemp -d)
    echo "checking macos-all-targets: $target against $name" >&2
    local problems=0 module
    for module in BackgroundTaskKit "${products[@]}" BackgroundTaskAudit BackgroundTaskSimulation \
        BackgroundTaskScenarios BackgroundTaskPromiseChecking BGTaskCLI; do
        problems=$((problems + $(emit "$module" "$out" "$sdk" "$target")))
    done
    for executable in bgtask promise-check thread-stress; do
        swiftc -typecheck -module-name "${executable//-/_}" -package-name backgroundtaskkit -swift-version 6 \
            -resource-dir "$cache/res-$name" -sdk "$sdk" -target "$target" -module-cache-path "$cache/mc-$name-$target" \
            -I "$out" $(find "$(sources "$executable")" -name '*.swift' | sort) >"$out/$executable.log" 2>&1
        grep -E ': (error|warning):' "$out/$executable.log" | sed "s|^|  [$executable] |" >&2
        problems=$((problems + $(grep -c ': error:\|: warning:' "$out/$executable.log")))
    done
    rm -rf "$out"
    if [ "$problems" -gt 0 ]; then result="$result macos-all-targets=$problems problems"; else result="$result macos-all-targets=ok"; fi
}

check ios iPhoneOS18.6 arm64-apple-ios15.0
check extension iPhoneOS18.6 arm64-apple-ios15.0 -application-extension
check catalyst MacOSX15.5 arm64-apple-ios15.0-macabi
check macos MacOSX15.5 arm64-apple-macos12.0
check tvos AppleTVOS18.0 arm64-apple-tvos15.0
check ios26 iPhoneOS26.2 arm64-apple-ios15.0
# As a binary SDK (an XCFramework) builds them: library evolution and a verified module interface
# (Documentation/ForSDKVendors.md says why the alias flag is there).
check ios-library-evolution iPhoneOS18.6 arm64-apple-ios15.0 -enable-library-evolution -verify-emitted-module-interface \
    -Xfrontend -alias-module-names-in-module-interface
chain
echo "products-typecheck:$result"
case "$result" in *problems*|*no-sdk*) exit 1 ;; esac
