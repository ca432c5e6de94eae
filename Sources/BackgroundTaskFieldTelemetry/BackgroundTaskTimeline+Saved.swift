import BackgroundTaskDiagnostics
import BackgroundTaskKit
import BackgroundTaskTimeline
import Foundation

extension BackgroundTaskTimeline {
    /// The timeline of a flight-recorder snapshot: one lane per task held when it was taken, each as long as the task
    /// had been held, ending at the snapshot.
    ///
    /// A snapshot records one moment, so the picture shows what was held then, with whether each task's expiry had
    /// started and whether its handler had returned; what ended earlier, the app's state before the moment and the
    /// budget are not recorded, and the timeline says so in its notes. Time 0 is the begin of the oldest task held.
    ///
    /// ```swift
    /// if let snapshot = recorder.lastSnapshot {
    ///     print(BackgroundTaskTimeline(snapshot: snapshot).text())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot, for example read back by `bgtask report`.
    ///   - title: What the picture shows; `nil` for the snapshot's moment, process and build.
    public init(snapshot: FlightRecorderSnapshot, title: String? = nil) {
        let oldest = snapshot.tasks.map { $0.age.isFinite ? max($0.age, 0) : 0 }.max() ?? 0
        let lanes = snapshot.tasks.map { task in
            let age = task.age.isFinite ? max(task.age, 0) : 0
            var marks: [TimelineMark] = []
            if task.expiryStarted {
                marks.append(
                    TimelineMark(
                        kind: .expirationHandlerCalled, time: oldest,
                        text: "its expiry had started when the snapshot was taken (when is not recorded)"))
            }
            if task.handlerReturned {
                marks.append(
                    TimelineMark(
                        kind: .heldAfterHandlers, time: oldest,
                        text: "its expiration handler had returned and it was still held: the system terminates an app "
                            + "in this state (0x8badf00d)"))
            }
            return TimelineLane(
                name: task.name, callSite: task.callSite.description, begin: oldest - age, end: nil,
                ending: .inFlight, marks: marks)
        }
        let state =
            switch snapshot.inBackground {
            case true?: "in the background"
            case false?: "in the foreground"
            case nil: "in a state the recorder could not tell"
            }
        var notes = [
            "A snapshot records one moment: each lane is how long its task had been held when the snapshot was taken; "
                + "tasks that had ended, the app's earlier states and the budget are not recorded."
        ]
        if snapshot.omittedTaskCount > 0 {
            notes.append(
                "\(snapshot.omittedTaskCount) more tasks were held and left out of the snapshot to keep it small.")
        }
        self.init(
            title: title
                ?? "Flight-recorder snapshot (\(snapshot.moment.rawValue)), process \(snapshot.processID), build "
                + (snapshot.appBuild ?? "unknown"),
            subtitle: snapshot.suggestsBackgroundTaskTermination
                ? "had the process vanished here, the next launch records a probable background-task termination"
                : "had the process vanished here, it was not for a background task",
            start: 0, end: oldest, lanes: lanes,
            appStates: [TimelineStateSpan(state: .unknown, from: 0, to: oldest)],
            moments: [
                TimelineMoment(
                    kind: .note, time: oldest,
                    text: "snapshot taken at moment \(snapshot.moment.rawValue), the app \(state)")
            ],
            notes: notes)
    }

    /// The timeline of a diagnostics report (`DiagnosingBackend.report()`, `BackgroundTaskTracer.report()`, a
    /// manager's report): one lane per task still running when it was made, and the counters of the call sites that
    /// leaked or misbehaved as notes.
    ///
    /// A report counts finished tasks per call site but keeps no times for them, so only the running tasks are
    /// drawn, each ending at the report. Time 0 is the begin of the oldest task running.
    ///
    /// - Parameters:
    ///   - report: The report.
    ///   - title: What the picture shows; `nil` for a title with the report's version.
    public init(report: BackgroundTaskReport, title: String? = nil) {
        let oldest = report.outstandingTasks.map { $0.age.isFinite ? max($0.age, 0) : 0 }.max() ?? 0
        let lanes = report.outstandingTasks.map { task in
            TimelineLane(
                name: task.name, identifier: "#\(task.taskNumber)", callSite: task.callSite.description,
                begin: oldest - (task.age.isFinite ? max(task.age, 0) : 0), end: nil, ending: .inFlight)
        }
        let troubled = report.callSites.filter { site in
            // Counters from a file: compared one by one, never summed (a corrupt file must not overflow).
            [
                site.expired, site.endedBySafetyNet, site.heldAfterHandlers, site.doubleEnds, site.endedAfterRescue,
                site.rescued,
            ]
            .contains { $0 > 0 }
        }
        var notes = [
            "A report counts finished tasks per call site and keeps no times for them: the lanes are the tasks running "
                + "when it was made. Most held at once: \(report.outstandingHighWaterMark)."
        ]
        for site in troubled.prefix(8) {
            let counts = [
                ("begun", site.begun), ("ended", site.ended), ("expired", site.expired),
                ("held after handlers", site.heldAfterHandlers), ("rescued", site.rescued),
                ("safety net", site.endedBySafetyNet), ("ended twice", site.doubleEnds),
                ("ended after rescue", site.endedAfterRescue),
            ]
            notes.append(
                "\(site.callSite): "
                    + counts.filter { $0.1 > 0 || $0.0 == "begun" }.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        }
        if troubled.count > 8 { notes.append("… and \(troubled.count - 8) more call sites that misbehaved.") }
        self.init(
            title: title ?? "Background-task report (version \(report.version))",
            subtitle: "\(report.outstandingTasks.count) running when the report was made; "
                + "\(troubled.count) call site\(troubled.count == 1 ? "" : "s") misbehaved",
            start: 0, end: oldest, lanes: lanes, appStates: [TimelineStateSpan(state: .unknown, from: 0, to: oldest)],
            notes: notes)
    }
}
