/// What the audited code base itself declares that changes how its calls read: shims that forward
/// to the system's begin or end under another name (`beginBgTask(_:)`,
/// `seg_beginBackgroundTaskWithName:expirationHandler:`), and a method of its own named
/// `beginBackgroundTask()` that takes no arguments.
///
/// The auditor collects it from every file before it checks any, so a shim declared in one file is
/// recognized where it is called in another: calls of a begin shim are checked like begins (the
/// handler, where the identifier goes, how it is ended), calls of an end shim count as ends.
struct ProjectVocabulary: Sendable, Equatable {
    /// A shim's call shape.
    struct Shim: Sendable, Equatable {
        /// Swift: the parameters' argument labels in order (`nil` for `_`). Objective-C: the selector's
        /// keyword pieces.
        var pieces: [String?]
        /// Which piece carries the expiration handler (begin) or the identifier (end).
        var argumentIndex: Int?
        /// Which piece carries the task's name (begin).
        var nameIndex: Int?
    }

    /// Begin shims by their name (Swift) or first selector piece (Objective-C).
    var beginShims: [String: Shim] = [:]
    /// End shims by their name (Swift) or first selector piece (Objective-C).
    var endShims: [String: Shim] = [:]
    /// The code base declares `func beginBackgroundTask()` (no parameters): a call with no arguments
    /// and no closure is that method, not UIKit's.
    var declaresZeroArgumentBegin = false
    /// The code base declares a Swift method with UIKit's name and labels,
    /// `beginBackgroundTask(withName:expirationHandler:)`, that passes the handler on to the system's: a call of that
    /// name on a receiver that is not the application is that method (checked like a begin, not a raw call).
    var declaresSameNameBegin = false
    /// The app's `BGTaskSchedulerPermittedIdentifiers`, when known (``AuditConfiguration/permittedTaskIdentifiers``).
    var permittedTaskIdentifiers: [String]?
    /// Names called inside closures that run on a queue (``ThreadPlaces``), anywhere in the code base.
    var queueCalledNames: Set<String> = []
    /// For each function, the names it calls synchronously in its own body.
    var callGraph: [String: Set<String>] = [:]
    /// Classes declared as operations (`: NSOperation`, `: Operation`, `: AsyncOperation`).
    var operationClasses: Set<String> = []
    /// Functions that run on a queue: called from a queue closure, or from such a function (a few
    /// calls deep), after ``resolveThreads()``.
    var offMainFunctions: Set<String> = []
    /// How often each name is called in the files read, all files together.
    var callCounts: [String: Int] = [:]
    /// The types that declare a function of each name in the files read (`""` for a free function): a call of
    /// `sync()` says which function it is only when one type declares one.
    var declaringTypes: [String: Set<String>] = [:]
    /// Functions declared `private` or `fileprivate` (Swift): no other file calls them.
    var privateNames: Set<String> = []

    var isEmpty: Bool {
        beginShims.isEmpty && endShims.isEmpty && !declaresZeroArgumentBegin && !declaresSameNameBegin
    }

    /// Every name whose call a file must be read for.
    var shimNames: [String] { Array(beginShims.keys) + Array(endShims.keys) }

    /// Functions that begin or end a task, by name (when specific enough to find their callers).
    var siteFunctions: Set<String> = []
    /// Classes with a method that begins or ends a task (their headers may say they are operations).
    var siteClasses: Set<String> = []

    /// The names a file must be read for: shims (their calls are checked) and functions that begin
    /// or end a task (their callers say on which thread).
    var namesWorthReading: Set<String> { siteFunctions.union(shimNames).union(siteClasses) }

    mutating func merge(_ other: ProjectVocabulary) {
        beginShims.merge(other.beginShims) { first, _ in first }
        endShims.merge(other.endShims) { first, _ in first }
        declaresZeroArgumentBegin = declaresZeroArgumentBegin || other.declaresZeroArgumentBegin
        declaresSameNameBegin = declaresSameNameBegin || other.declaresSameNameBegin
        queueCalledNames.formUnion(other.queueCalledNames)
        siteFunctions.formUnion(other.siteFunctions)
        siteClasses.formUnion(other.siteClasses)
        callCounts.merge(other.callCounts, uniquingKeysWith: +)
        declaringTypes.merge(other.declaringTypes) { $0.union($1) }
        privateNames.formUnion(other.privateNames)
        callGraph.merge(other.callGraph) { $0.union($1) }
        operationClasses.formUnion(other.operationClasses)
    }

    /// A shim's name must say what it is about, so that a forwarding `start(_:)` does not turn every
    /// `start(…)` call of the code base into a begin.
    static func isPlausibleShimName(_ name: String) -> Bool {
        name.containsASCII("task") || name.containsASCII("background")
    }

    /// The vocabulary one file declares.
    static func collect(from syntax: SourceSyntax) -> ProjectVocabulary {
        collect(from: FileAnalysis(syntax: syntax, path: "", isAllowedWrapperPath: false))
    }

    /// The vocabulary one file declares, from its analysis without a vocabulary.
    static func collect(from analysis: FileAnalysis) -> ProjectVocabulary {
        let syntax = analysis.syntax
        var vocabulary = ProjectVocabulary()
        if syntax.isSwift { collectZeroArgumentBegin(syntax, into: &vocabulary) }
        vocabulary.collectThreads(from: analysis)
        vocabulary.resolveThreads()
        let sites = analysis.sites
        let forwarding = ForwardedArguments(syntax: syntax)
        for site in sites where site.kind != .expiringActivity {
            if let function = syntax.namedFunction(containing: site.nameToken), let full = syntax.scopes[function].name
            {
                let name = String(full.prefix { $0 != ":" })
                if isPlausibleShimName(name) || full.contains(":") { vocabulary.siteFunctions.insert(name) }
                if let owner = analysis.enclosingClassName(of: function) { vocabulary.siteClasses.insert(owner) }
            }
            guard let function = syntax.namedFunction(containing: site.nameToken),
                syntax.scopes[function].kind == .function,
                let signature = forwarding.signature(of: function),
                isPlausibleShimName(signature.name)
            else { continue }
            switch site.kind {
            case .begin:
                guard let handler = forwarding.forwardedParameter(site.handler, in: signature, within: function) else {
                    continue
                }
                guard signature.name != "beginBackgroundTask" else {
                    vocabulary.declaresSameNameBegin = vocabulary.declaresSameNameBegin || syntax.isSwift
                    continue
                }
                let name = forwarding.forwardedParameter(site.name, in: signature, within: function)
                let shim = Shim(pieces: signature.pieces, argumentIndex: handler, nameIndex: name)
                vocabulary.beginShims[signature.key] = vocabulary.beginShims[signature.key] ?? shim
            case .end:
                guard signature.name != "endBackgroundTask", let argument = site.endArgument,
                    let index = forwarding.parameterIndex(named: argument, in: signature)
                else { continue }
                let shim = Shim(pieces: signature.pieces, argumentIndex: index, nameIndex: nil)
                vocabulary.endShims[signature.key] = vocabulary.endShims[signature.key] ?? shim
            case .expiringActivity:
                continue
            }
        }
        return vocabulary
    }

    /// `func beginBackgroundTask()`: a declaration with an empty parameter list.
    private static func collectZeroArgumentBegin(_ syntax: SourceSyntax, into vocabulary: inout ProjectVocabulary) {
        for index in syntax.tokens.indices where syntax.tokens[index].isIdentifier("beginBackgroundTask") {
            guard syntax.token(index - 1)?.isIdentifier("func") == true,
                syntax.token(index + 1)?.is("(") == true, syntax.token(index + 2)?.is(")") == true
            else { continue }
            vocabulary.declaresZeroArgumentBegin = true
            return
        }
    }
}
