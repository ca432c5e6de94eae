#!/usr/bin/env python3
"""Compiles every Swift example of README.md, Documentation/*.md and the DocC articles (Sources/*/*.docc),
as a user would paste it.

Usage: python3 Scripts/doc-examples.py [--generate-only]

Each ```swift block becomes a file of two test targets of a generated package (in .build/doc-examples,
depending on this package by path): one built as Xcode 26 builds a new app target (default MainActor
isolation, the approachable-concurrency features), one in the plain Swift 6 language mode. Both import
every product. The names an example takes from its app (an `uploader`, a `Photo`) come from
IntegrationTests/DocExamples/Scaffold.swift, declared as an app would declare them.

An example with declarations only a file can hold (extensions, protocols, tests) is compiled as a
file of its own; any other is compiled as the body of a main-actor function (imports are hoisted).
`…` stands for code left out. Markers in an HTML comment on one of the three lines before a block:
`<!-- doc-example: skip REASON -->` does not compile it (the reason is printed);
`<!-- doc-example: given CODE -->` declares what the fragment takes from the code around it (CODE is
Swift, put before the example in the function); `<!-- doc-example: in a class -->` compiles it as the
body of a class (a fragment that uses `self`). Exit status 1 when an example does not compile, with the compiler's errors mapped back to
the document's lines.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "doc-examples")
DOCUMENTS = ["README.md"] + sorted(glob.glob(os.path.join(ROOT, "Documentation", "*.md"))) + sorted(
    glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "*.md")))
FILE_LEVEL = re.compile(r"^(extension |protocol |@main\b|@Test\b|@Suite\b|@MainActor @Test\b|@MainActor\s*$)", re.M)
APPLE_ONLY = {"os", "UIKit", "MetricKit"}  # imported where they exist; the scaffold stands in for them elsewhere
PRODUCTS = [
    "BackgroundTaskKit", "BackgroundTaskDiagnostics", "BackgroundTaskTracing", "BackgroundTaskFieldTelemetry",
    "BackgroundTaskKitTesting", "BackgroundTaskKitObjC", "BackgroundTaskScheduling", "BackgroundTaskTimeline",
]
CLIENTS = {
    "Xcode26Defaults": """[
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]""",
    "PlainSwift6": "[]",
}


def examples():
    """(document, line, text, skip reason or None) for each ```swift block."""
    for path in DOCUMENTS:
        lines = open(os.path.join(ROOT, path) if not os.path.isabs(path) else path).read().split("\n")
        name = os.path.relpath(path if os.path.isabs(path) else os.path.join(ROOT, path), ROOT)
        i = 0
        while i < len(lines):
            match = re.match(r"^(\s*)```swift\s*$", lines[i])
            if not match:
                i += 1
                continue
            indent = len(match.group(1))
            j = i + 1
            body = []
            while not re.match(r"^\s*```\s*$", lines[j]):
                body.append(lines[j][indent:])
                j += 1
            markers = {}
            for previous in lines[max(0, i - 3):i]:
                marker = re.match(r"^\s*<!-- doc-example: (skip|given|in a class)\s*(.*?) -->\s*$", previous)
                if marker:
                    markers[marker.group(1)] = marker.group(2)
            yield name, i + 2, "\n".join(body), markers
            i = j + 1


def source(number, document, line, text, markers):
    """The Swift file for one example, with `// document:line` comments to map errors back."""
    text = text.replace("…", "/* … */")
    imports = [l for l in text.split("\n") if l.startswith("import ")]
    code = [l if not l.startswith("import ") else "" for l in text.split("\n")]
    header = "\n".join(
        "#if canImport(%s)\n%s\n#endif" % (i.split()[1], i) if i.split()[1] in APPLE_ONLY else i
        for i in sorted(set(imports + ["import %s" % p for p in PRODUCTS] + ["import Foundation", "import Testing"])))
    mapped = "\n".join("%s  // @doc %s:%d" % (l, document, line + k) if l.strip() else l for k, l in enumerate(code))
    if "in a class" in markers:
        return "%s\n\n@MainActor final class DocExample%d {\n%s\n}\n" % (header, number, mapped)
    if FILE_LEVEL.search(text):
        return "%s\n\n%s\n" % (header, mapped)
    given = markers.get("given", "")
    return "%s\n\n@MainActor func docExample%d() async throws {\n%s\n%s\n}\n" % (header, number, given, mapped)


def generate():
    shutil.rmtree(OUT, ignore_errors=True)
    skipped, count = [], 0
    targets = []
    for client, settings in CLIENTS.items():
        folder = os.path.join(OUT, "Tests", client)
        os.makedirs(folder)
        shutil.copy(os.path.join(ROOT, "IntegrationTests", "DocExamples", "Scaffold.swift"), folder)
        targets.append(
            """        .testTarget(
            name: "%s",
            dependencies: [%s],
            swiftSettings: %s
        ),""" % (client, ", ".join('.product(name: "%s", package: "BackgroundTaskKit")' % p for p in PRODUCTS), settings))
    for number, (document, line, text, markers) in enumerate(examples()):
        if "skip" in markers:
            skipped.append("%s:%d: %s" % (document, line, markers["skip"]))
            continue
        count += 1
        for client in CLIENTS:
            with open(os.path.join(OUT, "Tests", client, "Example%03d.swift" % number), "w") as f:
                f.write(source(number, document, line, text, markers))
    with open(os.path.join(OUT, "Package.swift"), "w") as f:
        f.write("""// swift-tools-version: 6.2
// Generated by Scripts/doc-examples.py: the documentation's Swift examples, as two clients compile them.
import PackageDescription

let package = Package(
    name: "DocExamples",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [.package(name: "BackgroundTaskKit", path: %s)],
    targets: [
%s
    ],
    swiftLanguageModes: [.v6]
)
""" % ('"%s"' % os.path.relpath(ROOT, OUT), "\n".join(targets)))
    return count, skipped


def main():
    count, skipped = generate()
    print("doc examples: %d compiled in %d clients, %d not compiled:" % (count, len(CLIENTS), len(skipped)))
    for line in skipped:
        print("  " + line)
    if "--generate-only" in sys.argv:
        return 0
    build = subprocess.run(
        ["swift", "build", "--build-tests", "--package-path", OUT], capture_output=True, text=True)
    errors = []
    for line in (build.stdout + build.stderr).split("\n"):
        match = re.match(r"^(/\S+?/Tests/(\w+)/(\w+\.swift)):(\d+):\d+: error: (.*)$", line)
        if not match:
            continue
        path, client, _, number, message = match.groups()
        text = open(path).read().split("\n")[int(number) - 1]
        where = re.search(r"// @doc (\S+)$", text)
        errors.append("%s: [%s] error: %s" % (where.group(1) if where else "%s:%s" % (path, number), client, message))
    for error in sorted(set(errors)):
        print(error)
    if build.returncode != 0:
        if not errors:
            print(build.stdout[-4000:] + build.stderr[-4000:])
        print("doc examples: failed (%d errors)" % len(set(errors)))
        return 1
    print("doc examples: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
