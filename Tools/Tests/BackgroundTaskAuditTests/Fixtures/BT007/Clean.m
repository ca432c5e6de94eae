#import <UIKit/UIKit.h>

@implementation Uploader

// sample: the handler resets after its end
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.uploads startWithCompletion:^(NSError *error) {
        [app endBackgroundTask:task];
    }];
}

// sample: two branches of one if/else
- (void)saveFailing:(BOOL)failed {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (failed) {
        [app endBackgroundTask:task];
    } else {
        [self.store flush];
        [app endBackgroundTask:task];
    }
}

// sample: each end resets the instance variable
- (void)start {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Transfer" expirationHandler:^{
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.transfer runWithSuccess:^{
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    } failure:^(NSError *error) {
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: a switch whose cases end once each
- (void)finishWithResult:(NSInteger)result {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Finish" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    switch (result) {
    case 0:
        [app endBackgroundTask:task];
        break;
    default:
        [app endBackgroundTask:task];
        break;
    }
}

// sample: both ends under @synchronized on the same object
- (void)storeEvents {
    if (self.storeTask != UIBackgroundTaskInvalid) return;
    self.storeTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Store" expirationHandler:^{
        @synchronized (self) {
            [[UIApplication sharedApplication] endBackgroundTask:self.storeTask];
            self.storeTask = UIBackgroundTaskInvalid;
        }
    }];
    dispatch_async(self.storageQueue, ^{
        [self writeEvents];
        @synchronized (self) {
            if (self.storeTask != UIBackgroundTaskInvalid) {
                [[UIApplication sharedApplication] endBackgroundTask:self.storeTask];
                self.storeTask = UIBackgroundTaskInvalid;
            }
        }
    });
}

// sample: the queue side ends through a serial queue it waits for (dispatch_sync), as the handler does
- (void)sendEvents {
    if (self.sendTask != UIBackgroundTaskInvalid) return;
    self.sendTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Send" expirationHandler:^{
        [self endSendTask];
    }];
    dispatch_async(self.networkQueue, ^{
        [self uploadEvents];
        [self endSendTask];
    });
}

- (void)endSendTask {
    dispatch_sync(self.taskQueue, ^{
        if (self.sendTask != UIBackgroundTaskInvalid) {
            [[UIApplication sharedApplication] endBackgroundTask:self.sendTask];
            self.sendTask = UIBackgroundTaskInvalid;
        }
    });
}

// sample: the handler resets to the project's own invalid constant before the completion ends
- (void)transform {
    __block XYZBackgroundIdentifier taskID = XYZBackgroundIdentifierInvalid;
    taskID = [self.application beginBackgroundTaskWithName:@"Transform" expirationHandler:^{
        [self.application endBackgroundTask:taskID];
        taskID = XYZBackgroundIdentifierInvalid;
    }];
    [self.transformer run];
    [self.application endBackgroundTask:taskID];
    taskID = XYZBackgroundIdentifierInvalid;
}

@end

@implementation TerminationFlusher

// sample: the handler block is also called when the work finishes, on the main queue: the two runs take turns
// on the main thread, and the second finds the identifier reset
- (void)applicationWillTerminate {
    UIApplication *application = UIApplication.sharedApplication;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    void (^finish)(void) = ^{
        if (task == UIBackgroundTaskInvalid) return;
        [application endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    };
    task = [application beginBackgroundTaskWithName:@"Flush on terminate" expirationHandler:finish];
    [self.queue runAsync:^{
        [self persistQueues];
        dispatch_async(dispatch_get_main_queue(), finish);
    }];
}

@end

@implementation SharedUploadTask

// sample: an object used from several threads whose end helper checks, ends and resets under the same lock
- (instancetype)initWithName:(NSString *)name {
    self = [super init];
    if (self) {
        _identifier = [UIApplication.sharedApplication beginBackgroundTaskWithName:name expirationHandler:^{
            [self endTask];
        }];
    }
    return self;
}

- (void)stop {
    @synchronized (self) {
        self.users--;
    }
    [self endTask];
}

- (void)endTask {
    @synchronized (self) {
        if (self.identifier != UIBackgroundTaskInvalid) {
            [UIApplication.sharedApplication endBackgroundTask:self.identifier];
            self.identifier = UIBackgroundTaskInvalid;
        }
    }
}

@end

@implementation RequestOperation

// sample: the handler's own end is put off to the main queue (BT004's concern), not a completion of an overlapping run
- (void)main {
    if (_backgroundTask == UIBackgroundTaskInvalid) {
        _backgroundTask = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Request" expirationHandler:^{
            [UIApplication.sharedApplication endBackgroundTask:self->_backgroundTask];
            self->_backgroundTask = UIBackgroundTaskInvalid;
        }];
    }
    [self startRequest];
}

- (void)markAsFinished {
    dispatch_async(dispatch_get_main_queue(), ^{
        if (self->_backgroundTask != UIBackgroundTaskInvalid) {
            [UIApplication.sharedApplication endBackgroundTask:self->_backgroundTask];
            self->_backgroundTask = UIBackgroundTaskInvalid;
        }
    });
}

@end
