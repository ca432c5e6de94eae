import Foundation

/// Writes a synthetic source tree: ordinary Swift and Objective-C (types, methods, closures,
/// comments, string literals of every kind) with raw background-task call sites — correct and
/// buggy — in a given share of the files.
struct CorpusGenerator {
    /// About how many lines to write in total.
    var targetLines: Int
    /// The share of files (0…1) that contain background-task calls; the rest are skipped after a
    /// byte search, as in a real app.
    var callSiteShare: Double
    /// Lines per file, roughly.
    var linesPerFile = 400

    struct Summary {
        var files = 0
        var lines = 0
        var bytes = 0
    }

    func write(into root: URL) throws -> Summary {
        var summary = Summary()
        var generator = SplitMix(seed: 2026_11_22)
        var fileIndex = 0
        while summary.lines < targetLines {
            let isSwift = fileIndex % 10 < 7
            let withCalls = Double(generator.next() % 1000) / 1000 < callSiteShare
            let folder = root.appendingPathComponent("Module\(fileIndex / 50)/Group\(fileIndex % 7)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let text =
                isSwift
                ? swiftFile(index: fileIndex, withCalls: withCalls, random: &generator)
                : objectiveCFile(index: fileIndex, withCalls: withCalls, random: &generator)
            let name = isSwift ? "Type\(fileIndex).swift" : "Type\(fileIndex).m"
            let data = Data(text.utf8)
            try data.write(to: folder.appendingPathComponent(name))
            summary.files += 1
            summary.lines += text.utf8.count { $0 == UInt8(ascii: "\n") }
            summary.bytes += data.count
            fileIndex += 1
        }
        return summary
    }

    private func swiftFile(index: Int, withCalls: Bool, random: inout SplitMix) -> String {
        var lines: [String] = [
            "// Generated for the audit benchmark. File \(index).",
            "import Foundation",
            "import UIKit",
            "",
            "/// A type with ordinary code and, sometimes, background tasks.",
            "final class Type\(index): NSObject {",
            "    private var items: [String] = []",
            "    private var currentTask = UIBackgroundTaskIdentifier.invalid",
            "",
        ]
        var method = 0
        while lines.count < linesPerFile - 12 {
            method += 1
            if withCalls, method % 3 == 1 {
                lines += swiftCallSite(method: method, variant: Int(random.next() % 6))
            } else {
                lines += [
                    "    /// Method \(method): maps, filters and formats.",
                    "    func method\(method)(_ input: [Int], label: String) -> [String] {",
                    "        let doubled = input.map { $0 * 2 }.filter { $0 % 3 != 0 }  // trailing comment",
                    "        let text = \"label: \\(label) count: \\(doubled.count) \\(\"nested\")\"",
                    "        let raw = #\"raw \"quoted\" beginBackgroundTask\"#",
                    "        /* block comment with endBackgroundTask(x) inside */",
                    "        guard !doubled.isEmpty else { return [] }",
                    "        var result: [String] = []",
                    "        for value in doubled where value > 10 {",
                    "            if value.isMultiple(of: 7) { result.append(text) } else { result.append(raw) }",
                    "        }",
                    "        DispatchQueue.main.async { [weak self] in self?.items.append(label) }",
                    "        return result",
                    "    }",
                    "",
                ]
            }
        }
        lines += ["    let help = \"\"\"", "        Multi-line help text.", "        \"\"\"", "}", ""]
        return lines.joined(separator: "\n")
    }

    private func swiftCallSite(method: Int, variant: Int) -> [String] {
        let header = "    func task\(method)() {"
        switch variant {
        case 0:
            return [
                header, "        var task = UIBackgroundTaskIdentifier.invalid",
                "        task = UIApplication.shared.beginBackgroundTask(withName: \"Task \(method)\") {",
                "            UIApplication.shared.endBackgroundTask(task)", "            task = .invalid", "        }",
                "        work { UIApplication.shared.endBackgroundTask(task); task = .invalid }", "    }", "",
            ]
        case 1:
            return [
                header, "        currentTask = UIApplication.shared.beginBackgroundTask {",
                "            DispatchQueue.main.async { UIApplication.shared.endBackgroundTask(self.currentTask) }",
                "        }", "    }", "",
            ]
        case 2:
            return [
                header, "        var task: UIBackgroundTaskIdentifier!",
                "        task = UIApplication.shared.beginBackgroundTask(withName: \"Sync\") { [weak self] in",
                "            guard let self else { return }",
                "            UIApplication.shared.endBackgroundTask(task)",
                "        }", "        guard ready else { return }",
                "        UIApplication.shared.endBackgroundTask(task)",
                "    }", "",
            ]
        case 3:
            return [
                header,
                "        ProcessInfo.processInfo.performExpiringActivity(withReason: \"Refresh\") { expired in",
                "            guard !expired else { return }", "            Task { await refresh() }", "        }",
                "    }", "",
            ]
        case 4:
            return [
                header,
                "        let task = UIApplication.shared.beginBackgroundTask(withName: \"Log\", expirationHandler: nil)",
                "        upload { UIApplication.shared.endBackgroundTask(task) }", "    }", "",
            ]
        default:
            return [
                header, "        let task = SafeBackgroundTask.begin(\"Upload \(method)\") { cancel() }",
                "        upload { task.end() }", "    }", "",
            ]
        }
    }

    private func objectiveCFile(index: Int, withCalls: Bool, random: inout SplitMix) -> String {
        var lines: [String] = [
            "// Generated for the audit benchmark. File \(index).",
            "#import <UIKit/UIKit.h>",
            "",
            "@implementation Type\(index) {",
            "    UIBackgroundTaskIdentifier _task;",
            "}",
            "",
        ]
        var method = 0
        while lines.count < linesPerFile - 4 {
            method += 1
            if withCalls, method % 3 == 1 {
                lines += objectiveCCallSite(method: method, variant: Int(random.next() % 4))
            } else {
                lines += [
                    "/// Method \(method).",
                    "- (NSArray *)method\(method):(NSArray *)input label:(NSString *)label {",
                    "    NSMutableArray *result = [NSMutableArray array];  // trailing comment",
                    "    NSString *text = [NSString stringWithFormat:@\"%@ [app endBackgroundTask:x] %lu\", label, (unsigned long)input.count];",
                    "    /* [app beginBackgroundTaskWithExpirationHandler:nil] */",
                    "    for (NSNumber *value in input) {",
                    "        if (value.integerValue % 7 == 0) { [result addObject:text]; } else { [result addObject:@'c']; }",
                    "    }",
                    "    dispatch_async(dispatch_get_main_queue(), ^{ [self reload]; });",
                    "    return result;",
                    "}",
                    "",
                ]
            }
        }
        lines += ["@end", ""]
        return lines.joined(separator: "\n")
    }

    private func objectiveCCallSite(method: Int, variant: Int) -> [String] {
        let header = "- (void)task\(method) {"
        switch variant {
        case 0:
            return [
                header, "    UIApplication *app = [UIApplication sharedApplication];",
                "    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;",
                "    task = [app beginBackgroundTaskWithName:@\"Task\" expirationHandler:^{",
                "        [app endBackgroundTask:task];", "        task = UIBackgroundTaskInvalid;", "    }];", "}", "",
            ]
        case 1:
            return [
                header, "    UIApplication *app = [UIApplication sharedApplication];",
                "    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:^{",
                "        [app endBackgroundTask:task];", "    }];", "}", "",
            ]
        case 2:
            return [
                header,
                "    _task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@\"Store\" expirationHandler:^{",
                "        dispatch_async(dispatch_get_main_queue(), ^{",
                "            [[UIApplication sharedApplication] endBackgroundTask:self->_task];",
                "        });", "    }];", "}", "",
            ]
        default:
            return [
                header,
                "    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@\"Refresh\" usingBlock:^(BOOL expired) {",
                "        dispatch_async(dispatch_get_global_queue(0, 0), ^{ [self refresh]; });", "    }];", "}", "",
            ]
        }
    }
}

/// A small, fast, seeded random number generator, so every run writes the same tree.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
