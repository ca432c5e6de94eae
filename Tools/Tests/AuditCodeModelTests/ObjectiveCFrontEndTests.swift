import AuditCodeModel
import BackgroundTaskAudit
import Testing

/// The Objective-C front end builds the same model as the Swift one: messages with their selector parts, blocks with
/// their weak captures, local declarations, branches, `@try` and `@synchronized`.
struct ObjectiveCFrontEndTests {
    private func read(_ source: String) -> CodeFile {
        ObjectiveCFrontEnd.read(source, path: "SDK/Flusher.m")
    }

    private func body(_ file: CodeFile, _ name: String) throws -> CodeBody {
        try #require(file.bodies.first { $0.name == name }, "no body named \(name)")
    }

    private let flusher = """
        @interface Flusher : NSObject <Flushing>
        @property (nonatomic, assign) UIBackgroundTaskIdentifier task;
        @property (nonatomic, copy) void (^completion)(BOOL finished);
        @end

        @implementation Flusher {
            dispatch_queue_t _queue;
        }

        - (void)flushWithReason:(NSString *)reason completion:(void (^)(void))done {
            __weak typeof(self) weakSelf = self;
            self.task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
                [weakSelf endTask];
            }];
            if (reason == nil) {
                return;
            } else {
                dispatch_async(_queue, ^{ [self endTask]; });
            }
        }

        - (void)endTask {
            @synchronized (self) {
                [[UIApplication sharedApplication] endBackgroundTask:self.task];
                self.task = UIBackgroundTaskInvalid;
            }
        }
        @end
        """

    @Test func typesPropertiesAndInstanceVariablesAreDeclarations() {
        let file = read(flusher)
        #expect(file.language == .objectiveC)
        #expect(file.types.first?.name == "Flusher")
        #expect(file.types.first?.inherits == ["NSObject", "Flushing"])
        #expect(file.properties.map(\.name) == ["task", "completion", "_queue"])
        #expect(file.properties.map(\.isClosure) == [false, true, false])
        #expect(Set(file.properties.compactMap(\.typeName)) == ["Flusher"])
    }

    @Test func aMethodHasItsSelectorPartsParametersAndType() throws {
        let flush = try body(read(flusher), "flushWithReason")
        #expect(flush.kind == .method)
        #expect(flush.typeName == "Flusher")
        #expect(flush.labels == ["flushWithReason", "completion"])
        #expect(flush.parameters.map(\.name) == ["reason", "done"])
        #expect(flush.parameters.map(\.isClosure) == [false, true])
        #expect(try body(read(flusher), "endTask").labels == [])
    }

    @Test func theBeginIsASystemCallWhoseBlockCapturesTheWeakLocal() throws {
        let flush = try body(read(flusher), "flushWithReason")
        guard case .declare(let name, _, _) = flush.steps[0].kind else {
            Issue.record("expected the weak local")
            return
        }
        #expect(name == "weakSelf")
        guard case .assign(let target, .call(let call)) = flush.steps[1].kind else {
            Issue.record("expected the begin's assignment")
            return
        }
        #expect(target.path == ["self", "task"])
        #expect(call.name == "beginBackgroundTaskWithName")
        #expect(call.location.line == 12)
        #expect(call.receiver?.calls.first?.name == "sharedApplication")
        guard case .begin(let taskName, .closure(let handler)) = SystemCall(call) else {
            Issue.record("expected a begin with a block")
            return
        }
        guard case .literal(.string(isEmpty: false)) = taskName else {
            Issue.record("expected the name")
            return
        }
        #expect(handler.captures.map(\.name) == ["weakSelf"])
        #expect(handler.captures.first?.strength == .weak)
        guard case .evaluate(.call(let end)) = handler.steps.first?.kind else {
            Issue.record("expected the handler's message")
            return
        }
        #expect(end.name == "endTask")
        #expect(end.receiver?.path == ["weakSelf"])
    }

    @Test func branchesExitsAndDispatchedBlocksAreSteps() throws {
        let flush = try body(read(flusher), "flushWithReason")
        guard case .branch(let branch) = flush.steps[2].kind else {
            Issue.record("expected the if")
            return
        }
        #expect(branch.form == .if)
        #expect(branch.isExhaustive)
        guard case .exit(.return, nil) = branch.arms[0].first?.kind else {
            Issue.record("expected the return")
            return
        }
        guard case .evaluate(.call(let dispatch)) = branch.arms[1].first?.kind else {
            Issue.record("expected dispatch_async")
            return
        }
        #expect(dispatch.name == "dispatch_async")
        #expect(dispatch.arguments.first?.value.path == ["_queue"])
        #expect(dispatch.closures.first?.captures.isEmpty == true)  // `self`, strongly
    }

    @Test func synchronizedBodiesAreReadInline() throws {
        let end = try body(read(flusher), "endTask")
        let kinds = end.steps.map { step -> String in
            switch step.kind {
            case .evaluate(.call(let call)): call.name
            case .evaluate: "evaluate"
            case .assign(let target, _): "assign \(target.path ?? [])"
            default: "other"
            }
        }
        // The lock is kept as a call named `synchronized`, its body read inline after it.
        #expect(kinds == ["synchronized", "endBackgroundTask", "assign [\"self\", \"task\"]"])
    }

    @Test func cFunctionsSwitchesAndTryAreRead() throws {
        let file = read(
            """
            static void Save(NSString *path) {
                UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:nil];
                switch (mode) {
                case 1: [app endBackgroundTask:task]; break;
                default: return;
                }
                @try { [store save]; } @catch (NSException *e) { return; } @finally { [app endBackgroundTask:task]; }
            }
            """)
        let save = try body(file, "Save")
        #expect(save.kind == .function)
        guard case .declare("task", _, .call(let begin)) = save.steps[0].kind else {
            Issue.record("expected the declaration")
            return
        }
        guard case .begin(nil, .literal(.nil)) = SystemCall(begin) else {
            Issue.record("expected a begin with a nil handler")
            return
        }
        guard case .branch(let switchBranch) = save.steps[1].kind, case .guarded(_, let handlers) = save.steps[2].kind
        else {
            Issue.record("expected the switch and the @try")
            return
        }
        #expect(switchBranch.arms.count == 2)
        #expect(switchBranch.isExhaustive)
        #expect(handlers.count == 1)
        guard case .evaluate(.call(let finallyEnd)) = save.steps[3].kind else {
            Issue.record("expected the @finally's end after the @try")
            return
        }
        #expect(finallyEnd.name == "endBackgroundTask")
    }

    @Test(arguments: [
        "", "@implementation", "- (void)x {", "}}}{{{ [[[ ^^^ ", "@implementation A\n- (void)b { [c d:^{ ]; }\n",
    ])
    func unreadableSourceGivesWhatItCanAndNeverTraps(_ source: String) {
        #expect(read(source).path == "SDK/Flusher.m")
    }
}
