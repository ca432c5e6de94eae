// The long texts behind `bgtask audit --explain`, one per rule, in id order. They restate the
// rule sections of Documentation/Audit.md for the terminal; keep the two in step.
extension RuleExplanation {
    static let catalog: [RuleExplanation] = [
        bt001, bt002, bt003, bt004, bt005, bt006, bt007, bt008, bt009, bt010, bt011, bt012, bt013, bt014,
    ]

    private static let bt001 = RuleExplanation(
        ruleID: "BT001",
        heading: "raw begin outside a wrapper",
        finds: """
            Every raw call of UIApplication's beginBackgroundTask (with or without a name) and of
            ProcessInfo's performExpiringActivity, in Swift or Objective-C, that is not in a path you
            allowed with --allow GLOB and not inside a function that is itself named
            beginBackgroundTask… or performExpiringActivity… and passes on a handler it was given (a
            backend forwarding its caller's handler; an app's helper of that name that makes its own
            handler is reported). A call of the code base's own beginBackgroundTask(withName:
            expirationHandler:) on a provider object, not the application, is a call of that wrapper.
            """,
        onDevice: """
            Nothing fails because of the call alone. But each raw call site has to end its task
            exactly once on every path, the expiry path included, and each one is another place to
            get that wrong. A task that is still open when its time runs out gets the app terminated
            with 0x8badf00d.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    var task = UIBackgroundTaskIdentifier.invalid
                    task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                    uploader.upload { _ in
                        UIApplication.shared.endBackgroundTask(task)
                        task = .invalid
                    }
                    """,
                after: """
                    let task = SafeBackgroundTask.begin("Upload") { uploader.cancel() }
                    uploader.upload { _ in task.end() }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                        [UIApplication.sharedApplication endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    [uploader uploadWithCompletion:^(NSError *error) {
                        [UIApplication.sharedApplication endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    """,
                after: """
                    @import BackgroundTaskKitObjC;  // the package's Objective-C face
                    BTKBackgroundTask *task = [BTKBackgroundTask beginWithName:@"Upload" expirationHandler:^{
                        [uploader cancel];
                    }];
                    [uploader uploadWithCompletion:^(NSError *error) { [task end]; }];
                    """
            ),
        ],
        remedy: """
            Replace the call with SafeBackgroundTask, ScopedBackgroundTask, withBackgroundTask or
            BackgroundTaskManager. If you keep a wrapper of your own, put the raw calls only there
            and tell the audit where it is: bgtask audit --allow 'Sources/Wrappers/**' .
            """,
        blindSpots: """
            A wrapper whose path is not given with --allow is reported (one --allow fixes that).
            Calls made through perform(_:), objc_msgSend, a stored method reference or a macro are
            not seen. Code under #if 0 or an inactive #if branch is scanned as if it were active.
            """
    )

    private static let bt002 = RuleExplanation(
        ruleID: "BT002",
        heading: "unnamed task",
        finds: """
            A begin call without a name: beginBackgroundTask(expirationHandler:), a name that is the
            literal nil, NULL, "" or @"", and performExpiringActivity with an empty reason.
            """,
        onDevice: """
            Nothing breaks because of it. But the name is what iOS prints when a task has been open
            too long ("Background Task 3 (…), was created over 30 seconds ago") and in the
            termination report; without one nobody can tell which code leaked the task.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    task = UIApplication.shared.beginBackgroundTask { … }
                    """,
                after: """
                    task = UIApplication.shared.beginBackgroundTask(withName: "Upload photos") { … }
                    // or
                    let task = SafeBackgroundTask.begin("Upload photos") { … }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    task = [app beginBackgroundTaskWithExpirationHandler:^{ … }];
                    """,
                after: """
                    task = [app beginBackgroundTaskWithName:@"Upload photos" expirationHandler:^{ … }];
                    """
            ),
        ],
        remedy: """
            Give every task a short name that says which job it protects; BackgroundTaskKit's faces
            take the name as their first argument.
            """,
        blindSpots: """
            Only literal nil, NULL, "" and @"" are caught: a name in a variable that turns out nil
            or empty at run time is not.
            """
    )

    private static let bt003 = RuleExplanation(
        ruleID: "BT003",
        heading: "missing, nil or empty handler",
        finds: """
            A begin call with no expiration handler, with nil as the handler, or with a handler
            closure or block that has nothing in it.
            """,
        onDevice: """
            When the background time runs out, nothing ends the task, and iOS terminates the app
            with 0x8badf00d.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    let task = app.beginBackgroundTask(withName: "Upload log")
                    let other = app.beginBackgroundTask(withName: "Upload log") { }
                    """,
                after: """
                    let task = SafeBackgroundTask.begin("Upload log")  // ends itself on expiry
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    UIBackgroundTaskIdentifier task =
                        [app beginBackgroundTaskWithName:@"Upload log" expirationHandler:nil];
                    """,
                after: """
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [app beginBackgroundTaskWithName:@"Upload log" expirationHandler:^{
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    """
            ),
        ],
        remedy: """
            Give the task a handler that ends it, synchronously, before it returns; or use
            SafeBackgroundTask, which ends the task on expiry even when you pass no cleanup.
            """,
        blindSpots: """
            A handler passed as a variable or a function reference is not looked into, even if its
            body is empty. A handler whose only call is to a function that does nothing is BT004's
            concern, not this rule's.
            """
    )

    private static let bt004 = RuleExplanation(
        ruleID: "BT004",
        heading: "handler that does not end the task synchronously",
        finds: """
            An expiration handler that does not end its task before it returns: the end is missing,
            is inside a closure that runs later (DispatchQueue.main.async, Task { }, an operation
            queue, a completion handler, or any closure the audit does not know to run at once), or
            can be skipped because it depends on a [weak self] or __weak reference that may be nil
            (self?.…, if let self, guard let self else { return }, if (!strongSelf) return;).
            An end in a function or method of the same file that ends a task synchronously counts, and
            so does an end in a block handed to the project's helper that runs it inline on the main
            thread. A handler kept in a local or in a property the function set first is looked into.
            A weak self whose deinit or dealloc ends the task is gone only after the end.
            """,
        onDevice: """
            iOS calls the handler on the main thread and expects the task to be ended by the time
            the handler returns. An end that comes later, or never, is too late: the app is
            terminated with 0x8badf00d.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    task = app.beginBackgroundTask(withName: "Refresh") { [weak self] in
                        guard let self else { return }
                        DispatchQueue.main.async { self.app.endBackgroundTask(self.task) }
                    }
                    """,
                after: """
                    task = app.beginBackgroundTask(withName: "Refresh") { [weak self] in
                        self?.cancelRefresh()
                        app.endBackgroundTask(task)
                        task = .invalid
                        DispatchQueue.main.async { self?.showPausedBanner() }
                    }
                    // or
                    let task = SafeBackgroundTask.begin("Refresh") { [weak self] in self?.cancelRefresh() }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    __weak typeof(self) weakSelf = self;
                    _task = [app beginBackgroundTaskWithName:@"Refresh" expirationHandler:^{
                        typeof(self) strongSelf = weakSelf;
                        if (!strongSelf) return;
                        dispatch_async(dispatch_get_main_queue(), ^{ [app endBackgroundTask:strongSelf->_task]; });
                    }];
                    """,
                after: """
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [app beginBackgroundTaskWithName:@"Refresh" expirationHandler:^{
                        [weakSelf cancelRefresh];
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    """
            ),
        ],
        remedy: """
            End the task inside the handler itself, on every path through it and before it
            returns; anything that really has to happen later can be dispatched after the end.
            With SafeBackgroundTask the handler is only your cleanup: the task ends itself when the
            cleanup returns.
            """,
        blindSpots: """
            Helpers in other files are not followed, so an end there looks like no end. An end of a
            different identifier still counts as an end. A closure the audit does not know that in
            fact runs at once is reported, and a handler passed as a parameter is not looked into.
            Only aliases assigned straight from the weak reference are recognised (not through a
            cast or a helper), a condition computed from it elsewhere is taken as unrelated, and
            only the innermost if or guard around a return is considered. A weak self in the app
            delegate or a singleton (static let shared = Type(), +sharedX with dispatch_once) is
            taken as never nil; a long-lived object that is neither is still reported.
            """
    )

    private static let bt005 = RuleExplanation(
        ruleID: "BT005",
        heading: "identifier stored in a property or instance variable",
        finds: """
            A task identifier kept anywhere other than a local of the enclosing functions and
            closures: self.x, a property of the type, _x or self->_x, another object's property, a
            global, or a local copied into one of those after the begin. An await or try in front of
            the call does not hide the assignment. Silent where a second begin cannot overwrite a
            live identifier: in an initializer or an operation's start/main, behind an "already
            started" check of the same variable or a one-at-a-time flag set before the begin and
            cleared with the end, after the same function ended the old task, or on entering the
            background when the return to the foreground ends it. Off the main thread an unlocked
            check is no guard, and the message says so.
            """,
        onDevice: """
            If the code runs again before the first task is ended, the second begin overwrites the
            stored identifier. The first task can then never be ended, and iOS terminates the app
            when it expires.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    self.saveTask = UIApplication.shared.beginBackgroundTask(withName: "Save") { … }
                    """,
                after: """
                    let task = SafeBackgroundTask.begin("Save") { store.cancel() }
                    store.save { task.end() }
                    // or, for many tasks across an app or SDK
                    let task = try manager.beginTask("Save")
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    _saveTask = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{ … }];
                    """,
                after: """
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    [store saveWithCompletion:^{
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    """
            ),
        ],
        remedy: """
            Keep one task per job, in a local that the job's completion captures; for many
            concurrent jobs, let BackgroundTaskManager keep track of them.
            """,
        blindSpots: """
            A local captured by the handler and then copied into a property for the completion is
            not reported, although a second begin still overwrites the copy. Storing into a
            dictionary or an array (tasks[id] = …) is not reported.
            """
    )

    private static let bt006 = RuleExplanation(
        ruleID: "BT006",
        heading: "identifier captured before assignment",
        finds: """
            A handler that uses the identifier its own begin call is about to return, in a way that
            reads it before the assignment: an Objective-C block that captures a local by value (no
            __block, also in a #define), a Swift capture list ([task]), or an implicitly unwrapped or
            optional Swift variable that is still nil when the handler runs (begun off the main thread
            as the code shows it). And any identifier
            stored after the begin returns and read by the handler when the begin runs off the main
            thread: in a closure handed to a queue, in an operation's start/main, or in a function
            the code base calls from such a place (followed across files, three calls deep).
            """,
        onDevice: """
            The handler ends UIBackgroundTaskInvalid (or traps on nil) instead of the real task,
            which stays open until iOS terminates the app.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    task = app.beginBackgroundTask(withName: "Sync") { [task] in app.endBackgroundTask(task) }
                    // or
                    var task: UIBackgroundTaskIdentifier!
                    task = app.beginBackgroundTask(withName: "Sync") { app.endBackgroundTask(task) }
                    """,
                after: """
                    let task = SafeBackgroundTask.begin("Sync") { contacts.cancelSync() }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
                        [app endBackgroundTask:task];  // the block copied task while it was still 0
                    }];
                    """,
                after: """
                    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
                    task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    """
            ),
        ],
        remedy: """
            Declare the variable first (__block in Objective-C, a plain var without a capture list
            in Swift), then assign the result of the begin call to it; or let SafeBackgroundTask
            hold the identifier.
            """,
        blindSpots: """
            A non-optional Swift var initialised to .invalid and read by its own handler is not
            reported, though it has the same race when the task is begun off the main thread with
            little time left; nor an optional one when the code does not show the begin off main. Objective-C instance variables are read through self and belong to
            BT005.
            """
    )

    private static let bt007 = RuleExplanation(
        ruleID: "BT007",
        heading: "double end",
        finds: """
            One identifier ended on two paths without being reset in between: an end in the handler
            with no reset to invalid (.invalid, UIBackgroundTaskInvalid, nil or 0) while the
            identifier is ended elsewhere too; ends in two different functions when one of them
            does not reset; or one end after an unreset one in the same function with no return,
            throw, break or other case between them. A reset after a synchronous closure counts
            for the end inside it; so does a reset to a project's own constant named ...Invalid.
            Also: an end on a queue of an identifier the handler (on the main thread) also ends,
            with no lock around the queue side; a handler that ends its local copy but resets
            the property the copy was stored in; an end helper without a reset called by the handler
            and from elsewhere; an unlocked end helper in a type that locks other state (so it runs on
            several threads); a handler block also called after the work that ends on a concurrent
            queue; a completion that ends a newer run's task after the handler cleared a
            one-at-a-time flag; and an identifier returned to the caller while the handler resets
            only its own copy.
            """,
        onDevice: """
            The second end logs "Can't end BackgroundTask: no background task exists with
            identifier …". Worse, if the variable was reused, it ends a newer task, which then runs
            unprotected and can be suspended mid-work.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    task = app.beginBackgroundTask(withName: "Upload") { app.endBackgroundTask(task) }
                    uploader.upload { _ in app.endBackgroundTask(task) }
                    """,
                after: """
                    task = app.beginBackgroundTask(withName: "Upload") {
                        app.endBackgroundTask(task)
                        task = .invalid
                    }
                    uploader.upload { _ in
                        if task != .invalid { app.endBackgroundTask(task); task = .invalid }
                    }
                    // or SafeBackgroundTask (end() can be called twice) / ScopedBackgroundTask
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                        [app endBackgroundTask:task];
                    }];
                    [uploader uploadWithCompletion:^(NSError *error) { [app endBackgroundTask:task]; }];
                    """,
                after: """
                    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
                        [app endBackgroundTask:task];
                        task = UIBackgroundTaskInvalid;
                    }];
                    [uploader uploadWithCompletion:^(NSError *error) {
                        if (task != UIBackgroundTaskInvalid) {
                            [app endBackgroundTask:task];
                            task = UIBackgroundTaskInvalid;
                        }
                    }];
                    """
            ),
        ],
        remedy: """
            Reset the identifier to invalid right after every end, and check it before ending; or
            use SafeBackgroundTask, whose end() is idempotent, or ScopedBackgroundTask, which cannot
            be ended twice.
            """,
        blindSpots: """
            Ends in two different closures of one function (success: and failure:) and in the two
            branches of an if/else are taken to exclude each other, which is usual but not certain.
            Ends in loops are not considered, and an identifier copied into another variable before
            it is ended counts as a different identifier.
            """
    )

    private static let bt008 = RuleExplanation(
        ruleID: "BT008",
        heading: "early exit between begin and end (best effort)",
        finds: """
            Between a begin and the first end of the same identifier later in the same function
            (outside the handler): each return, throw or @throw, and each Swift try (not try? or
            try!, and not inside do), that leaves a function or closure containing that end, unless
            the exit's own block ended the task first. A defer that ends the task, registered before
            the exit, covers it. The message names what the exit leaves, such as a
            guard let self else { return } in a completion closure after [weak self]. A call of a
            same-file end helper counts as the end of a stored identifier, and a try inside a do block
            that holds the end skips it unless a catch ends too. Also, at the begin: a task only its
            own expiration handler ends (nothing ends it when the work finishes), or one ended
            otherwise only in dealloc/deinit or on the return to the foreground. And: an exit between
            a begin helper and an end helper called in one block; a method given the ending
            completion that returns before calling it; a branch or switch case of the ending code
            that neither ends nor passes the task on; an ending completion passed to an
            optional-chained call.
            """,
        onDevice: """
            On that path the task stays open until it expires. If the handler does not end it then,
            iOS terminates the app.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    task = app.beginBackgroundTask(withName: "Export") { … }
                    guard !items.isEmpty else { return }
                    try archive.write(items)
                    app.endBackgroundTask(task)
                    """,
                after: """
                    try withBackgroundTask("Export") {
                        guard !items.isEmpty else { return }
                        try archive.write(items)
                    }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{ … }];
                    if (items.count == 0) return;
                    [archive writeItems:items];
                    [app endBackgroundTask:task];
                    """,
                after: """
                    task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{ … }];
                    if (items.count > 0) {
                        [archive writeItems:items];
                    }
                    [app endBackgroundTask:task];
                    task = UIBackgroundTaskInvalid;
                    """
            ),
        ],
        remedy: """
            End the task on every way out: in Swift, a defer right after the begin, or
            withBackgroundTask / ScopedBackgroundTask, which end it for you; in Objective-C, end it
            before each early return or restructure so there is one exit.
            """,
        blindSpots: """
            It does not follow control flow: break, continue, calls that never return and paths
            through switch are ignored. A return in a branch that can never run is still reported
            (silence it with // bgtask:ignore BT008). An if without an else that ends only when its
            condition holds is not reported, nor a completion its function never calls because it
            swallows an error.
            """
    )

    private static let bt009 = RuleExplanation(
        ruleID: "BT009",
        heading: "expiring activity that returns before its work is done",
        finds: """
            A performExpiringActivity block that passes a closure to a known asynchronous API
            (async, asyncAfter, Task, detached, addOperation, dispatch_async, dispatch_after, URL
            session tasks, completion handlers, …) and does not wait for it afterwards (wait(),
            dispatch_semaphore_wait, dispatch_group_wait, waitUntilFinished, …). Cleanup in a
            branch that tests the expired flag, and a main-queue post after the block has already
            done its work synchronously (and that makes no more calls than the block did), are not
            counted. A reactive chain (subscribe(onNext:), sink) runs later.
            """,
        onDevice: """
            The assertion lasts only as long as the block runs. A block that hands its work to
            another queue and returns gives the assertion up at once, and the process can be
            suspended in the middle of the work.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh") { expired in
                        guard !expired else { return }
                        DispatchQueue.global().async { widgets.reload() }
                    }
                    """,
                after: """
                    ProcessInfo.processInfo.performExpiringActivity(withReason: "Refresh") { expired in
                        guard !expired else { widgets.cancel(); return }
                        let done = DispatchSemaphore(value: 0)
                        DispatchQueue.global().async { widgets.reload(); done.signal() }
                        done.wait()
                    }
                    // or
                    try await withBackgroundTask("Refresh", backend: .expiringActivity) { try await widgets.reload() }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    [NSProcessInfo.processInfo performExpiringActivityWithReason:@"Refresh" usingBlock:^(BOOL expired) {
                        if (expired) return;
                        dispatch_async(dispatch_get_global_queue(QOS_CLASS_UTILITY, 0), ^{ [widgets reload]; });
                    }];
                    """,
                after: """
                    [NSProcessInfo.processInfo performExpiringActivityWithReason:@"Refresh" usingBlock:^(BOOL expired) {
                        if (expired) { [widgets cancel]; return; }
                        dispatch_semaphore_t done = dispatch_semaphore_create(0);
                        dispatch_async(dispatch_get_global_queue(QOS_CLASS_UTILITY, 0), ^{
                            [widgets reload];
                            dispatch_semaphore_signal(done);
                        });
                        dispatch_semaphore_wait(done, DISPATCH_TIME_FOREVER);
                    }];
                    """
            ),
        ],
        remedy: """
            Keep the block running until the work is finished (do it inline, or wait on a semaphore
            or group), and cancel the work when the block is called with expired set; or use
            withBackgroundTask with the expiringActivity backend.
            """,
        blindSpots: """
            Work started through a function of yours rather than a closure in the block is not
            seen; a wait that does not wait for that work still counts; the second, concurrent
            call with expired == true is not checked. A main-queue post is weighed by counting calls
            (semaphore or group set-up and log lines aside), so load(); DispatchQueue.main.async {
            doTheRealWork() } passes. A closure given to an API
            the audit does not know is not reported.
            """
    )

    private static let bt010 = RuleExplanation(
        ruleID: "BT010",
        heading: "task discarded as soon as it is begun",
        finds: """
            A BackgroundTaskKit task that nothing holds: _ = ScopedBackgroundTask(…),
            let _ = SafeBackgroundTask.begin(…), or either one as a statement of its own. A task
            that is returned, passed on or stored is fine. Swift only.
            """,
        onDevice: """
            The task ends the moment it is created, so the work after it runs with no background
            time at all and can be suspended as soon as the app leaves the foreground. Swift's
            fix-it for an unused let task = ScopedBackgroundTask(…) produces exactly this pattern.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    _ = ScopedBackgroundTask("Save library")
                    database.save()
                    """,
                after: """
                    let task = ScopedBackgroundTask("Save library")
                    database.save()
                    task.end()
                    // or
                    withBackgroundTask("Save library") { database.save() }
                    """
            )
        ],
        remedy: """
            Keep the task in a variable until the work is done and end it then, or put the work in
            a withBackgroundTask body. (There is no Objective-C form: the faces are Swift types.)
            """,
        blindSpots: """
            Only the statement forms above are recognised; a task stored in a variable that is then
            never used again is not reported.
            """
    )

    private static let bt011 = RuleExplanation(
        ruleID: "BT011",
        heading: "BGTask launch handler with a path that never calls setTaskCompleted",
        finds: """
            A BGTaskScheduler launch handler (register(forTaskWithIdentifier:using:launchHandler:),
            registerForTaskWithIdentifier:usingQueue:launchHandler:) whose code, with the methods of
            the same file it hands the task to, never calls setTaskCompleted(success:); or a return
            of that code, in an if or a guard, that neither completes the task nor hands it on.
            """,
        onDevice: """
            A task that is never completed keeps the app running in the background until its time
            is used up; Apple's header warns that not calling setTaskCompleted before then "may
            result in the system killing your app". Error paths (offline, no database) are where it
            is forgotten.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in
                        task.expirationHandler = { feed.cancel() }
                        guard network.isReachable else { return }
                        feed.refresh { ok in task.setTaskCompleted(success: ok) }
                    }
                    """,
                after: """
                    try SafeTaskScheduler.shared.register(id, onExpiration: { feed.cancel() }) {
                        guard network.isReachable else { throw Offline() }  // completed, unsuccessfully
                        try await feed.refresh()
                    }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:ID usingQueue:nil
                        launchHandler:^(__kindof BGTask *task) {
                        if (!self.reachable) { return; }
                        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
                    }];
                    """,
                after: """
                    if (!self.reachable) { [task setTaskCompletedWithSuccess:NO]; return; }
                    """
            ),
        ],
        remedy: """
            Complete the task on every path (success: false on errors), or register with
            SafeTaskScheduler (BackgroundTaskScheduling), which completes each launch exactly once:
            when the work returns, throws, is cancelled or expires.
            """,
        blindSpots: """
            Code the handler hands the task to in another file is not read (then nothing is
            reported); returns in switch cases and loops are not checked.
            """
    )

    private static let bt012 = RuleExplanation(
        ruleID: "BT012",
        heading: "BGTask launch handler that sets no expirationHandler",
        finds: """
            A BGTaskScheduler launch handler whose code (with the same-file methods it hands the task
            to) never sets the task's expirationHandler.
            """,
        onDevice: """
            Without an expiration handler the system marks the task complete and unsuccessful when
            its time runs out, and nothing tells the work to stop: it runs on until the app is
            suspended, and a file or SQLite lock it still holds then gets the app killed (0xdead10cc).
            A processing task is ended as soon as the person picks up the device.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in
                        Task {
                            try? await database.compact()
                            task.setTaskCompleted(success: true)
                        }
                    }
                    """,
                after: """
                    try SafeTaskScheduler.shared.register(id) {
                        try await database.compact()  // cancelled, and waited for, on expiry
                    }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    launchHandler:^(__kindof BGTask *task) {
                        [self.database compactWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
                    }
                    """,
                after: """
                    launchHandler:^(__kindof BGTask *task) {
                        task.expirationHandler = ^{ [self.database interrupt]; };
                        [self.database compactWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
                    }
                    """
            ),
        ],
        remedy: """
            Set an expirationHandler that stops the work (and completes the task), or register with
            SafeTaskScheduler, which cancels the work on expiry and waits for it to wind down before
            completing the task.
            """,
        blindSpots: """
            A handler set in code of another file is not seen (then nothing is reported).
            """
    )

    private static let bt013 = RuleExplanation(
        ruleID: "BT013",
        heading: "BGTask launch handler registered after the app finished launching",
        finds: """
            A BGTaskScheduler registration in a method that only runs after launch: viewDidLoad,
            viewWillAppear, viewDidAppear, loadView, scene(_:willConnectTo:options:) and the other
            scene callbacks, applicationDidBecomeActive and the other app-state callbacks, a SwiftUI
            body. Continued-processing registrations (the method submits a
            BGContinuedProcessingTaskRequest) are exempt, as Apple's header says.
            """,
        onDevice: """
            Launch handlers must be registered before application(_:didFinishLaunchingWithOptions:)
            returns; afterwards BGTaskScheduler raises an exception ("All launch handlers must be
            registered before application finishes launching") and the app crashes.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    override func viewDidLoad() {
                        super.viewDidLoad()
                        BGTaskScheduler.shared.register(forTaskWithIdentifier: id, using: nil) { task in … }
                    }
                    """,
                after: """
                    func application(_ application: UIApplication,
                                     didFinishLaunchingWithOptions options: …) -> Bool {
                        try? SafeTaskScheduler.shared.register(id) { … }  // a typed error, never a crash
                        return true
                    }
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    - (void)applicationDidBecomeActive:(UIApplication *)application {
                        [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:ID …];
                    }
                    """,
                after: """
                    - (BOOL)application:(UIApplication *)application
                        didFinishLaunchingWithOptions:(NSDictionary *)options {
                        [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:ID …];
                        return YES;
                    }
                    """
            ),
        ],
        remedy: """
            Register every identifier in application(_:didFinishLaunchingWithOptions:) or the App's
            init(). SafeTaskScheduler throws TaskSchedulingError.registeredAfterLaunch instead of
            crashing when it can tell.
            """,
        blindSpots: """
            A helper that registers and is called from one of those methods is not followed; a
            registration made on a timer or a notification after launch is not seen.
            """
    )

    private static let bt014 = RuleExplanation(
        ruleID: "BT014",
        heading: "BGTask identifier missing from the Info.plist",
        finds: """
            A task identifier, registered or passed to BGAppRefreshTaskRequest,
            BGProcessingTaskRequest or BGContinuedProcessingTaskRequest, that the audited tree's
            Info.plist files (their BGTaskSchedulerPermittedIdentifiers; an entry ending in .*
            admits its prefix) do not list: a string literal, a string constant of the same file
            (let taskID = "…", #define kTaskID @"…"), or the bundle identifier followed by a literal
            ("\\(Bundle.main.bundleIdentifier!).refresh", matched against
            $(PRODUCT_BUNDLE_IDENTIFIER).refresh). Only when a property list under the audited
            folders has that key (or AuditConfiguration.permittedTaskIdentifiers names them).
            """,
        onDevice: """
            The system refuses the registration and every request for an identifier the Info.plist
            does not permit (BGTaskScheduler.Error.notPermitted, or register returning false): the
            work never runs, and nothing crashes to tell you.
            """,
        examples: [
            Example(
                language: "Swift",
                before: """
                    // Info.plist: BGTaskSchedulerPermittedIdentifiers = [com.example.refresh]
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refersh", …)
                    """,
                after: """
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", …)
                    """
            ),
            Example(
                language: "Objective-C",
                before: """
                    [[BGProcessingTaskRequest alloc] initWithIdentifier:@"com.example.sync"];
                    """,
                after: """
                    // Add com.example.sync to BGTaskSchedulerPermittedIdentifiers, or use a listed one.
                    """
            ),
        ],
        remedy: """
            List the identifier in the app target's Info.plist (a continued-processing identifier
            under a prefix.* entry), or fix the typo. SafeTaskScheduler checks the running app's
            Info.plist and throws TaskSchedulingError.notPermitted.
            """,
        blindSpots: """
            Identifiers built at run time otherwise, or kept in constants of another file, are not
            checked; an entry or identifier built from a build variable matches any text in its
            place; with several apps in one tree every plist's identifiers are admitted for every
            file.
            """
    )
}
