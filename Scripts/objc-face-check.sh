#!/usr/bin/env bash
# Checks the Objective-C face end to end against the real iOS SDK (PLATFORM-FACTS.md §6): emits the
# core and BackgroundTaskKitObjC as modules for arm64-apple-ios15.0 with the header Swift generates for
# Objective-C, checks that the header declares BTKBackgroundTask and its methods, then compiles
# IntegrationTests/ObjectiveC/UploadController.m against it with clang (ARC, modules, warnings as errors).
#
# Usage: bash Scripts/objc-face-check.sh
# Run ../shared/tools/apple-typecheck.sh first: it extracts the iPhoneOS 18.6 SDK and makes the private
# resource folder reused here (in $APPLE_SDK_CACHE, default ${TMPDIR:-/tmp}/apple-sdk-cache). CI cannot
# run it (no SDK there). Last line: objc-face-check: ok | no-sdk | failed (what).
set -u
cd "$(dirname "$0")/.."
cache=${APPLE_SDK_CACHE:-${TMPDIR:-/tmp}/apple-sdk-cache}
name=iPhoneOS18.6
sdk=$cache/sdk/$name.sdk
res=$cache/res-$name
target=arm64-apple-ios15.0
if [ ! -f "$sdk/SDKSettings.json" ] || [ ! -d "$res" ]; then
    echo "objc-face-check: no-sdk (run ../shared/tools/apple-typecheck.sh first)"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
emit() { # $1 = module, rest = extra flags
    local module=$1; shift
    swiftc -emit-module -emit-module-path "$out/$module.swiftmodule" -parse-as-library -module-name "$module" \
        -package-name backgroundtaskkit -swift-version 6 -warnings-as-errors -resource-dir "$res" -sdk "$sdk" \
        -target "$target" -module-cache-path "$cache/mc-$name-$target" -I "$out" "$@" \
        $(find "Sources/$module" -name '*.swift' | sort)
}
fail() { echo "objc-face-check: failed ($*)"; exit 1; }

emit BackgroundTaskKit || fail "the core does not build for $target"
emit BackgroundTaskKitObjC -emit-objc-header -emit-objc-header-path "$out/BackgroundTaskKitObjC-Swift.h" \
    || fail "BackgroundTaskKitObjC does not build for $target"
header=$out/BackgroundTaskKitObjC-Swift.h
for declaration in 'SWIFT_CLASS_NAMED("ObjectiveCBackgroundTask")' '@interface BTKBackgroundTask : NSObject' \
    '+ (BTKBackgroundTask * _Nonnull)beginWithName:(NSString * _Nullable)name expirationHandler:(void (^ _Nullable)(void))expirationHandler' \
    'holdsAssertionOnlyInBackground:(BOOL)holdsAssertionOnlyInBackground' '- (void)end;' \
    '@property (nonatomic, readonly) BOOL isRunning;' '@property (nonatomic, readonly) BOOL isExpired;' \
    '@property (nonatomic, readonly, copy) NSString * _Nullable name;'; do
    grep -qF -e "$declaration" "$header" || fail "the generated header lacks: $declaration"
done
echo "generated header: $(grep -c '' "$header") lines; BTKBackgroundTask and its methods are declared"
clang -fsyntax-only -fobjc-arc -fmodules -Werror -Wall -target "$target" -isysroot "$sdk" \
    -resource-dir "$res/clang" -fmodules-cache-path="$cache/mc-$name-$target-clang" -I "$out" \
    IntegrationTests/ObjectiveC/UploadController.m || fail "the Objective-C caller does not compile"
echo "objc-face-check: ok"
