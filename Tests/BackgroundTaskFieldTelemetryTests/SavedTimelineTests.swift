import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import BackgroundTaskTimeline
import Testing

/// The timelines of what the field saves: a snapshot's held tasks and a report's running ones.
struct SavedTimelineTests {
    private let site = BackgroundTaskCallSite(image: "LeakySDK", symbol: "-[LKFlusher flush]", offset: 0x1c4)

    @Test func aSnapshotDrawsEachHeldTaskAsLongAsItWasHeldEndingAtTheSnapshot() {
        let snapshot = FlightRecorderSnapshot(
            processID: 7, appBuild: nil, appVersion: nil, writtenAt: 0, moment: .expiryStarted, inBackground: true,
            tasks: [
                .init(
                    callSite: site, name: "flush", age: 30, expiryStarted: true, handlerReturned: false,
                    source: "tracer"),
                .init(
                    callSite: site, name: nil, age: .nan, expiryStarted: false, handlerReturned: false, source: "tracer"
                ),
            ],
            omittedTaskCount: 3)
        let timeline = BackgroundTaskTimeline(snapshot: snapshot)
        #expect(timeline.title == "Flight-recorder snapshot (expiryStarted), process 7, build unknown")
        #expect(timeline.subtitle?.contains("probable background-task termination") == true)
        #expect(timeline.lanes.map(\.begin) == [0, 30])
        #expect(timeline.lanes.map(\.end) == [nil, nil])
        #expect(timeline.lanes.map(\.callSite) == [site.description, site.description])
        #expect(timeline.lanes[0].marks.map(\.kind) == [.expirationHandlerCalled])
        #expect(timeline.lanes[1].label == "(unnamed)")
        #expect(timeline.end == 30)
        #expect(timeline.notes.contains("3 more tasks were held and left out of the snapshot to keep it small."))
        #expect(timeline.appStates == [TimelineStateSpan(state: .unknown, from: 0, to: 30)])
    }

    @Test func aReportDrawsItsRunningTasksAndNamesTheCallSitesThatMisbehaved() {
        var leaky = CallSiteStatistics(callSite: site, firstBeganAt: 0)
        leaky.begun = 5
        leaky.ended = 4
        leaky.heldAfterHandlers = 1
        let report = BackgroundTaskReport(
            generatedAt: 50, outstandingHighWaterMark: 2, callSites: [leaky],
            outstandingTasks: [OutstandingBackgroundTask(taskNumber: 5, name: "flush", callSite: site, age: 12)])
        let timeline = BackgroundTaskTimeline(report: report)
        #expect(timeline.lanes.map(\.identifier) == ["#5"])
        #expect(timeline.lanes.first?.ending == .stillHeld)
        #expect(timeline.notes.contains("\(site): begun 5, ended 4, held after handlers 1"))
        #expect(timeline.subtitle == "1 running when the report was made; 1 call site misbehaved")
    }
}
