#import <UIKit/UIKit.h>

@implementation Uploader

// sample: the handler ends without a reset, the completion ends again
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
        [app endBackgroundTask:task];
    }];
    [self.uploads startWithCompletion:^(NSError *error) {
        [app endBackgroundTask:task];  // expect: BT007
    }];
}

// sample: an error path ends, and the normal path ends again
- (void)saveFailing:(BOOL)failed {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (failed) {
        [app endBackgroundTask:task];
    }
    [self.store flush];
    [app endBackgroundTask:task];  // expect: BT007
}

// sample: finish and cancel both end the instance variable
- (void)start {
    _transferTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Transfer" expirationHandler:^{  // expect: BT005
        [[UIApplication sharedApplication] endBackgroundTask:self->_transferTask];
        self->_transferTask = UIBackgroundTaskInvalid;
    }];
}

- (void)finish {
    [[UIApplication sharedApplication] endBackgroundTask:_transferTask];
}

- (void)cancel {
    [[UIApplication sharedApplication] endBackgroundTask:self.transferTask];  // expect: BT007
}

// sample: a __block identifier ended on a private queue and by the handler, no lock
- (void)storeEvents {
    __block UIBackgroundTaskIdentifier storeTask = UIBackgroundTaskInvalid;
    storeTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Store" expirationHandler:^{
        [[UIApplication sharedApplication] endBackgroundTask:storeTask];
        storeTask = UIBackgroundTaskInvalid;
    }];
    dispatch_async(self.storageQueue, ^{
        [self writeEvents];
        [[UIApplication sharedApplication] endBackgroundTask:storeTask];  // expect: BT007
        storeTask = UIBackgroundTaskInvalid;
    });
}

// sample: a helper called from the handler and from a queue
- (void)sendEvents {
    [self endSendTaskIfNeeded];
    self.sendTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Send" expirationHandler:^{
        [self endSendTaskIfNeeded];
    }];
    dispatch_async(self.networkQueue, ^{
        [self uploadEvents];
        [self endSendTaskIfNeeded];
    });
}

- (void)endSendTaskIfNeeded {
    if (self.sendTask != UIBackgroundTaskInvalid) {
        [[UIApplication sharedApplication] endBackgroundTask:self.sendTask];  // expect: BT007
        self.sendTask = UIBackgroundTaskInvalid;
    }
}

// sample: the handler ends its local copy but resets the property the copy was stored in
- (void)cleanUpInBackground {
    __block UIBackgroundTaskIdentifier task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Clean up" expirationHandler:^{  // expect: BT005
        [[UIApplication sharedApplication] endBackgroundTask:task];
        self.cleanupTask = UIBackgroundTaskInvalid;  // expect: BT007
    }];
    self.cleanupTask = task;
    [self cleanUpWithCompletion:^{
        [[UIApplication sharedApplication] endBackgroundTask:task];  // expect: BT007
    }];
}

// sample: a local block called by the handler and at the end of the work on the queue
- (void)uploadTarget {
    __block UIBackgroundTaskIdentifier uploadID = UIBackgroundTaskInvalid;
    dispatch_block_t finishUpload = ^{
        if (uploadID != UIBackgroundTaskInvalid) {
            [[UIApplication sharedApplication] endBackgroundTask:uploadID];  // expect: BT007
            uploadID = UIBackgroundTaskInvalid;
        }
    };
    dispatch_async(self.uploadQueue, ^{
        uploadID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{  // expect: BT006
            finishUpload();
        }];
        [self uploadAll];
        finishUpload();
    });
}

// sample: the project's own queue runner, by name
- (void)enterBackground {
    [self endLogTaskIfNeeded];
    self.logTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Logs" expirationHandler:^{
        [self endLogTaskIfNeeded];
    }];
    [self runOnBackgroundQueue:^{
        [self uploadLogs];
        [self endLogTaskIfNeeded];
    }];
}

- (void)endLogTaskIfNeeded {
    if (self.logTask != UIBackgroundTaskInvalid) {
        [[UIApplication sharedApplication] endBackgroundTask:self.logTask];  // expect: BT007
        self.logTask = UIBackgroundTaskInvalid;
    }
}

@end

@implementation TerminationFlusher

// sample: the handler block is also called when the work finishes, and ends on a concurrent queue: both runs race
- (void)applicationWillTerminate {
    UIApplication *application = UIApplication.sharedApplication;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    void (^finish)(void) = ^{
        dispatch_async(dispatch_get_global_queue(QOS_CLASS_DEFAULT, 0), ^{
            [application endBackgroundTask:task];  // expect: BT007
            task = UIBackgroundTaskInvalid;
        });
    };
    task = [application beginBackgroundTaskWithName:@"Flush on terminate" expirationHandler:finish];  // expect: BT004
    [self.queue runAsync:^{
        [self persistQueues];
        finish();
    }];
}

@end

@implementation SharedUploadTask

// sample: an object used from several threads (it locks its counter), whose end helper runs from the handler and
// from -stop with no lock
- (instancetype)initWithName:(NSString *)name {
    self = [super init];
    if (self) {
        _identifier = [UIApplication.sharedApplication beginBackgroundTaskWithName:name expirationHandler:^{
            [self endTask];
        }];
    }
    return self;
}

- (void)retain {
    @synchronized (self) {
        self.users++;
    }
}

- (void)stop {
    @synchronized (self) {
        self.users--;
    }
    [self endTask];
}

- (void)endTask {
    if (self.identifier != UIBackgroundTaskInvalid) {
        [UIApplication.sharedApplication endBackgroundTask:self.identifier];  // expect: BT007
        self.identifier = UIBackgroundTaskInvalid;
    }
}

@end

@implementation NetworkTasks

// sample: the caller gets a copy of the identifier, while the handler ends and resets only the block's own
- (UIBackgroundTaskIdentifier)beginNetworkTask {
    __block UIBackgroundTaskIdentifier taskId = UIBackgroundTaskInvalid;
    taskId = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Network" expirationHandler:^{
        [UIApplication.sharedApplication endBackgroundTask:taskId];
        taskId = UIBackgroundTaskInvalid;
    }];
    return taskId;  // expect: BT007
}

@end
