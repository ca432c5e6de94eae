import BackgroundTaskTimeline
import CommandLineSupport
import Foundation

/// Writes the `--timeline FILE` and `--timelines DIR` pictures of `bgtask simulate` and `bgtask report`.
enum TimelineOutput {
    /// Writes `timelines` to `path`: an SVG document with one panel each, or, for a path ending in `.txt`, the plain
    /// text charts; `-` returns the text to print instead.
    ///
    /// - Returns: The text for standard output (the charts for `-`, otherwise nothing), or an error to print.
    static func write(_ timelines: [BackgroundTaskTimeline], to path: String) -> Result<String, TimelineWriteError> {
        if path == "-" { return .success(text(timelines)) }
        let contents =
            path.lowercased().hasSuffix(".txt") ? text(timelines) : BackgroundTaskTimeline.svg(of: timelines)
        do {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return .failure(TimelineWriteError(message: "cannot write the timeline to \(path): \(reason(error, path))"))
        }
        return .success("")
    }

    /// `result` with the timelines written to `path` (or printed, for `-`), or the error that kept them from it.
    static func adding(_ timelines: [BackgroundTaskTimeline], at path: String, to result: CommandResult)
        -> CommandResult
    {
        switch write(timelines, to: path) {
        case .failure(let error):
            return CommandResult(
                exitStatus: 2, standardOutput: result.standardOutput, standardError: "error: \(error.message)\n")
        case .success(let text):
            var result = result
            result.standardOutput += text.isEmpty ? "" : "\n" + text
            if path != "-" { result.standardError += "Timeline written to \(path).\n" }
            return result
        }
    }

    /// Writes one SVG per entry into `folder`, made if missing, named `NAME.svg`.
    static func write(
        _ files: [(name: String, timelines: [BackgroundTaskTimeline])], into folder: String
    ) -> Result<Void, TimelineWriteError> {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            return .failure(TimelineWriteError(message: "cannot make the folder \(folder): \(reason(error, folder))"))
        }
        for file in files {
            let target = url.appendingPathComponent(file.name + ".svg")
            do {
                try Data(BackgroundTaskTimeline.svg(of: file.timelines).utf8).write(to: target, options: .atomic)
            } catch {
                return .failure(
                    TimelineWriteError(message: "cannot write \(target.path): \(reason(error, target.path))"))
            }
        }
        return .success(())
    }

    private static func text(_ timelines: [BackgroundTaskTimeline]) -> String {
        timelines.map { $0.text() }.joined(separator: "\n")
    }

    private static func reason(_ error: any Error, _ path: String) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder"
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: parent) { return "no folder \(parent)" }
        return (error as NSError).localizedDescription
    }
}

/// A timeline that could not be written, in words.
struct TimelineWriteError: Error {
    let message: String
}
