#import <UIKit/UIKit.h>

@implementation FeedRefresher

// sample: ends synchronously, then dispatches other work
- (void)refresh {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Refresh" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
        dispatch_async(dispatch_get_main_queue(), ^{
            [self showPausedBanner];
        });
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: ends through a same-file helper on self
- (void)prefetch {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Prefetch" expirationHandler:^{
        [self finishTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [self finishTask:task]; }];
}

// sample: a weak reference only for the cleanup
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
        [weakSelf cancelUpload];
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: the end inside @synchronized, which runs now
- (void)archive {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Archive" expirationHandler:^{
        @synchronized (self) {
            [app endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        }
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: a weak reference for the cleanup, then a return on the identifier, not on the reference
- (void)sync {
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
        [weakSelf cancelUpload];
        if (task == UIBackgroundTaskInvalid) return;
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: a strong alias only around the cleanup; the end follows it
- (void)compact {
    __weak __typeof__ (self) wself = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Compact" expirationHandler:^{
        __strong __typeof (wself) sself = wself;
        if (sself) {
            [sself cancelUpload];
        }
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

- (void)finishTask:(UIBackgroundTaskIdentifier)task {
    [[UIApplication sharedApplication] endBackgroundTask:task];
}

// sample: the handler calls a block variable of the same method that ends the task
- (void)storeEvent {
    __block UIBackgroundTaskIdentifier taskID = UIBackgroundTaskInvalid;
    dispatch_block_t endTask = ^{
        if (taskID != UIBackgroundTaskInvalid) {
            [[UIApplication sharedApplication] endBackgroundTask:taskID];
            taskID = UIBackgroundTaskInvalid;
        }
    };
    taskID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Store" expirationHandler:^{
        [self cancelStore];
        endTask();
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:taskID]; }];
    [self.store save:^{ endTask(); }];
}

// sample: an end in a block run by a function synchronous by name (my_dispatch_specific_sync)
- (void)flushEvents {
    if (self.flushTask != UIBackgroundTaskInvalid) return;
    self.flushTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Flush" expirationHandler:^{
        [self endFlushTask];
    }];
    [self.uploader flushWithCompletion:^{ [self endFlushTask]; }];
}

- (void)endFlushTask {
    my_dispatch_specific_sync(self.queue, ^{
        [[UIApplication sharedApplication] endBackgroundTask:self.flushTask];
        self.flushTask = UIBackgroundTaskInvalid;
    });
}

// sample: a weak reference to the application object, which outlives every handler
- (void)transformEvent {
    __block UIBackgroundTaskIdentifier taskID = UIBackgroundTaskInvalid;
    __weak UIApplication *weakApplication = self.application;
    taskID = [self.application beginBackgroundTaskWithName:@"Transform" expirationHandler:^{
        [weakApplication endBackgroundTask:taskID];
        taskID = UIBackgroundTaskInvalid;
    }];
    [self.transformer runWithCompletion:^{
        [weakApplication endBackgroundTask:taskID];
        taskID = UIBackgroundTaskInvalid;
    }];
}

@end

@implementation ContactsSyncController

- (void)runOnMain:(dispatch_block_t)block {
    if ([NSThread isMainThread]) {
        block();
    } else {
        dispatch_sync(dispatch_get_main_queue(), block);
    }
}

// sample: the handler ends through the project's helper that runs a block inline on the main thread, where the
// handler already is
- (void)startSync {
    UIApplication *app = UIApplication.sharedApplication;
    if (_task != UIBackgroundTaskInvalid) return;
    _task = [app beginBackgroundTaskWithName:@"Sync contacts" expirationHandler:^{
        [self runOnMain:^{
            [app endBackgroundTask:self->_task];
            self->_task = UIBackgroundTaskInvalid;
        }];
    }];
    [self.client syncWithCompletion:^(NSError *error) {
        [self runOnMain:^{
            if (self->_task != UIBackgroundTaskInvalid) {
                [app endBackgroundTask:self->_task];
                self->_task = UIBackgroundTaskInvalid;
            }
        }];
    }];
}

@end

@implementation TransportSession

// sample: the handler ends under the project's lock helper, which runs the block before it returns; the handler
// holds `self` strongly (`self.lock`), so the weak reference inside cannot be nil
- (void)startTask {
    if (self.taskIdentifier != UIBackgroundTaskInvalid) return;
    __weak __typeof(self) weakSelf = self;
    self.taskIdentifier = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Transport" expirationHandler:^{
        [self.lock syncWriteAccessWithBlock:^{
            [UIApplication.sharedApplication endBackgroundTask:weakSelf.taskIdentifier];
            weakSelf.taskIdentifier = UIBackgroundTaskInvalid;
        }];
    }];
    [self.session resumeWithCompletion:^{ [self endTask]; }];
}

- (void)endTask {
    [self.lock syncWriteAccessWithBlock:^{
        if (self.taskIdentifier == UIBackgroundTaskInvalid) return;
        [UIApplication.sharedApplication endBackgroundTask:self.taskIdentifier];
        self.taskIdentifier = UIBackgroundTaskInvalid;
    }];
}

@end
