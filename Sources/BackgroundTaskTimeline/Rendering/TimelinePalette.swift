/// The colours and words of the pictures, one place for the SVG, its legend and the text chart.
enum TimelinePalette {
    static func fill(_ state: TimelineStateSpan.State) -> String {
        switch state {
        case .foreground: "#cfe8d0"
        case .background: "#fbe0a8"
        case .suspended: "#dcdcdc"
        case .terminated: "#f2b8b3"
        case .unknown: "#f4f4f4"
        }
    }

    static func fill(_ ending: TimelineLane.Ending) -> String {
        switch ending {
        case .ended: "#3f78c0"
        case .endedBySafetyNet: "#e08a1e"
        case .rescued: "#8b5cc4"
        case .endedBySystem: "#8c8c8c"
        case .expired: "#f08c00"
        case .heldAtTermination: "#cc2b22"
        case .stillHeld: "#e8776f"
        case .inFlight: "#8fb3de"
        }
    }

    static func fill(_ kind: TimelineMark.Kind) -> String {
        switch kind {
        case .expirationHandlerCalled: "#f08c00"
        case .expirationHandlerReturned: "#333333"
        case .heldAfterHandlers: "#b00000"
        case .warning: "#c99a00"
        case .endedTwice: "#111111"
        case .note: "#9a9a9a"
        }
    }

    static func fill(_ kind: TimelineMoment.Kind) -> String {
        switch kind {
        case .handlersCalled: "#f08c00"
        case .console: "#f2c300"
        case .refused: "#111111"
        case .terminationPrevented: "#cc2b22"
        case .note: "#9a9a9a"
        }
    }

    static let termination = "#c1121f"
    static let budgetRun = "#e0a030"
    static let band = "#7d9cc6"
    static let troubledBand = "#e8776f"

    static func words(_ state: TimelineStateSpan.State) -> String {
        switch state {
        case .foreground: "foreground"
        case .background: "background"
        case .suspended: "suspended"
        case .terminated: "terminated"
        case .unknown: "state unknown"
        }
    }

    static func words(_ ending: TimelineLane.Ending) -> String {
        switch ending {
        case .ended: "ended"
        case .endedBySafetyNet: "ended by the safety net (leaked)"
        case .rescued: "rescued by the tracer"
        case .endedBySystem: "ended by the system"
        case .expired: "expired"
        case .heldAtTermination: "held at termination"
        case .stillHeld: "still held"
        case .inFlight: "in flight"
        }
    }

    static func words(_ kind: TimelineMark.Kind) -> String {
        switch kind {
        case .expirationHandlerCalled: "expiration handler called"
        case .expirationHandlerReturned: "handler returned"
        case .heldAfterHandlers: "held after handlers"
        case .warning: "iOS warning"
        case .endedTwice: "ended twice"
        case .note: "note"
        }
    }

    static func words(_ kind: TimelineLane.Kind) -> String {
        switch kind {
        case .assertion: "assertion"
        case .scheduledTask: "scheduled task"
        case .fileLock: "file lock"
        }
    }

    /// A lane's name in its row: the identifier of an assertion, `BGTask` or `lock` before the label.
    static func rowName(_ lane: TimelineLane) -> String {
        switch lane.kind {
        case .assertion: (lane.identifier.map { "\($0) " } ?? "") + lane.label
        case .scheduledTask: "BGTask " + lane.label
        case .fileLock: "lock " + lane.label
        }
    }

    /// The one character a lane's held stretch has in the text chart.
    static func character(_ ending: TimelineLane.Ending) -> Character {
        switch ending {
        case .ended: "="
        case .endedBySafetyNet: "~"
        case .rescued: "r"
        case .endedBySystem: "-"
        case .expired: "e"
        case .heldAtTermination, .stillHeld: "#"
        case .inFlight: "+"
        }
    }

    static func character(_ kind: TimelineMark.Kind) -> Character {
        switch kind {
        case .expirationHandlerCalled: "E"
        case .expirationHandlerReturned: "<"
        case .heldAfterHandlers: "!"
        case .warning: "w"
        case .endedTwice: "2"
        case .note: "*"
        }
    }

    static func character(_ state: TimelineStateSpan.State) -> Character {
        switch state {
        case .foreground: "F"
        case .background: "B"
        case .suspended: "s"
        case .terminated: "X"
        case .unknown: "?"
        }
    }
}
