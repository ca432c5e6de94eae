import BackgroundTaskDiagnostics
import BackgroundTaskFieldTelemetry
import BackgroundTaskKit
import BackgroundTaskKitTesting
import BackgroundTaskTimeline
import TestSupport
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
        #expect(timeline.lanes.first?.ending == .inFlight)
        #expect(timeline.lanes.first?.hasProblem == false)
        #expect(timeline.notes.contains("\(site): begun 5, ended 4, held after handlers 1"))
        #expect(timeline.subtitle == "1 running when the report was made; 1 call site misbehaved")
    }
}

/// The timeline of an observer's events: every task's times, and how each ended.
struct EventTimelineTests {
    private let site = BackgroundTaskCallSite(fileID: "App/Sync.swift", line: 9, function: "sync()")

    private func event(
        _ kind: BackgroundTaskEvent.Kind, _ number: UInt64, at time: Double, name: String? = "sync"
    ) -> BackgroundTaskEvent {
        BackgroundTaskEvent(kind: kind, taskID: .init(number: number), name: name, callSite: site, time: time)
    }

    @Test func eachTaskIsALaneFromItsBeginToHowItEnded() {
        let events = [
            event(.began, 1, at: 100), event(.began, 2, at: 101), event(.began, 3, at: 102), event(.began, 4, at: 103),
            event(.ended, 1, at: 104), event(.stale(age: 30), 2, at: 131), event(.expired, 2, at: 132),
            event(.heldAfterExpirationHandlers, 2, at: 132), event(.rescued, 2, at: 132),
            event(.endedBySafetyNet, 3, at: 133),
            event(.refused(.notGranted), 5, at: 134, name: nil),
        ]
        let timeline = BackgroundTaskTimeline(events: events)
        #expect(timeline.lanes.map(\.identifier) == ["#1", "#2", "#3", "#4"])
        #expect(timeline.lanes.map(\.begin) == [0, 1, 2, 3])
        #expect(timeline.lanes.map(\.end) == [4, 32, 33, nil])
        #expect(timeline.lanes.map(\.ending) == [.ended, .rescued, .endedBySafetyNet, .inFlight])
        #expect(timeline.lanes[1].marks.map(\.kind) == [.warning, .expirationHandlerCalled, .heldAfterHandlers])
        #expect(timeline.moments.map(\.kind) == [.refused])
        #expect(timeline.end == 34)
        #expect(timeline.subtitle == "1 still held at the last event")
        #expect(timeline.lanes.first?.callSite == "App/Sync.swift:9 (sync())")
    }

    @Test func anExpiryWithNoEndAfterItEndsTheLaneAsExpiredAndLaterEventsMarkItInstead() {
        // A manager's task ends with its expiry; a diagnosing backend reports no end after it.
        let events = [
            event(.began, 1, at: 0), event(.expired, 1, at: 26), event(.expirationHandlerEntered, 1, at: 26),
            event(.expirationHandlerExited(duration: 0.5), 1, at: 26.5), event(.ended, 2, at: 27, name: "late"),
            event(.began, 3, at: 1), event(.ended, 3, at: 2), event(.ended, 3, at: 3), event(.endedTwice, 3, at: 3),
        ]
        let timeline = BackgroundTaskTimeline(events: events)
        #expect(timeline.lanes.map(\.identifier) == ["#1", "#2", "#3"])
        #expect(timeline.lanes[0].ending == .expired && timeline.lanes[0].end == 26.5)
        #expect(timeline.lanes[0].marks.map(\.kind) == [.expirationHandlerCalled, .expirationHandlerReturned])
        // Seen first at its end: a lane of no length, not a phantom held one.
        #expect(timeline.lanes[1].ending == .ended && timeline.lanes[1].begin == 27 && timeline.lanes[1].end == 27)
        #expect(timeline.lanes[2].end == 2)
        #expect(timeline.lanes[2].marks.map(\.kind) == [.endedTwice, .endedTwice])
        #expect(timeline.subtitle == "every task ended")
    }

    @Test func aTaskHeldAfterItsHandlersStaysHeld() {
        let events = [
            event(.began, 1, at: 0), event(.expired, 1, at: 26), event(.heldAfterExpirationHandlers, 1, at: 26),
            event(.expired, 1, at: 26),
        ]
        let timeline = BackgroundTaskTimeline(events: events)
        #expect(timeline.lanes.count == 1)
        #expect(timeline.lanes[0].end == nil && timeline.lanes[0].ending == .inFlight)
        #expect(timeline.lanes[0].marks.map(\.kind) == [.expirationHandlerCalled, .heldAfterHandlers])
        #expect(timeline.lanes[0].hasProblem)
    }

    @Test func noEventsGiveAnEmptyTimeline() {
        let timeline = BackgroundTaskTimeline(events: [])
        #expect(timeline.lanes.isEmpty && timeline.end == 0)
        #expect(timeline.subtitle == "every task ended")
    }
}

/// Events from real sources, drawn: each task once, ending as its source reported it.
@MainActor
struct RecordedEventTimelineTests {
    @Test func aDiagnosingBackendsExpiredTaskIsOneLaneEndingAtItsExpiry() {
        let simulator = BackgroundTaskSimulator()
        let backend = DiagnosingBackend(wrapping: simulator)
        let log = EventLog()
        _ = backend.addObserver { log.record($0) }
        simulator.enterBackground()
        let quick = backend.beginBackgroundTask(named: "Quick", expirationHandler: nil)
        simulator.advance(by: 1)
        if let quick { backend.endBackgroundTask(quick) }
        _ = backend.beginBackgroundTask(named: "Forgotten", expirationHandler: {})
        simulator.advance(by: 60)
        backend.waitForObservers()

        let timeline = BackgroundTaskTimeline(events: log.all)
        #expect(timeline.lanes.map(\.label) == ["Quick", "Forgotten"])
        #expect(timeline.lanes.map(\.ending) == [.ended, .expired])
        #expect(timeline.lanes[1].marks.first?.kind == .expirationHandlerCalled)
        #expect(timeline.lanes[1].hasProblem && !timeline.lanes[0].hasProblem)
    }

    @Test func aManagersExpiredTaskEndsWithItsExpiry() throws {
        let simulator = BackgroundTaskSimulator()
        let manager = BackgroundTaskManager(backend: simulator, diagnostics: BackgroundTaskDiagnostics.Configuration())
        let log = EventLog()
        _ = manager.diagnostics?.addObserver { log.record($0) }
        simulator.enterBackground()
        let task = try manager.beginTask("Sync")
        simulator.advance(by: 60)
        manager.diagnostics?.waitForObservers()
        withExtendedLifetime(task) {}

        let timeline = BackgroundTaskTimeline(events: log.all)
        #expect(timeline.lanes.count == 1)
        #expect(timeline.lanes.first?.ending == .expired)
        #expect(timeline.lanes.first?.end != nil)
    }
}

/// The recorder an app adds as an observer to draw its own runs.
struct TimelineEventRecorderTests {
    private let site = BackgroundTaskCallSite(fileID: "App/Sync.swift", line: 9, function: "sync()")

    @MainActor @Test func aRecordedRunIsDrawnFromADiagnosingBackend() {
        let simulator = BackgroundTaskSimulator()
        let backend = DiagnosingBackend(wrapping: simulator)
        let recorder = TimelineEventRecorder()
        _ = backend.addObserver(recorder)
        simulator.enterBackground()
        if let id = backend.beginBackgroundTask(named: "Upload", expirationHandler: nil) {
            simulator.advance(by: 2)
            backend.endBackgroundTask(id)
        }
        backend.waitForObservers()
        let timeline = recorder.timeline(title: "field")
        #expect(timeline.title == "field")
        #expect(timeline.lanes.map(\.label) == ["Upload"])
        #expect(timeline.lanes.first?.ending == .ended)
        #expect(timeline.lanes.first?.begin == 0 && timeline.lanes.first?.end == 2)
        #expect(recorder.droppedEventCount == 0)
    }

    @Test func theOldestEventsAreDroppedBeyondTheLimitAndTheTimelineSaysSo() {
        let recorder = TimelineEventRecorder(maximumEvents: 3)
        for number in 1...10 {
            recorder.backgroundTaskEventOccurred(
                BackgroundTaskEvent(
                    kind: .began, taskID: .init(number: UInt64(number)), name: nil, callSite: site, time: Double(number)
                ))
        }
        #expect(recorder.events.map(\.taskID.number) == [8, 9, 10])
        #expect(recorder.droppedEventCount == 7)
        #expect(recorder.timeline().notes.last?.hasPrefix("7 older events were dropped") == true)
        recorder.removeAll()
        #expect(recorder.events.isEmpty && recorder.droppedEventCount == 0)
        #expect(TimelineEventRecorder(maximumEvents: 0).maximumEvents == 1)
    }
}
