#import <UIKit/UIKit.h>

@implementation FeedRefresher

// sample: the handler never ends the task
- (void)refresh {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Refresh" expirationHandler:^{  // expect: BT004 BT008
        [self.feed cancel];
    }];
}

// sample: the end is dispatched asynchronously
- (void)prefetch {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Prefetch" expirationHandler:^{  // expect: BT004 BT008
        dispatch_async(dispatch_get_main_queue(), ^{
            [app endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        });
    }];
}

// sample: a helper message to a weak reference
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{  // expect: BT004 BT008
        [weakSelf finishTask:task];
    }];
}

// sample: strongSelf bails out before the end
- (void)download {
    UIApplication *app = [UIApplication sharedApplication];
    __weak __typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Download" expirationHandler:^{  // expect: BT004 BT008
        __strong __typeof(weakSelf) strongSelf = weakSelf;
        if (!strongSelf) {
            return;
        }
        [strongSelf cancelDownload];
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: the end is queued on an operation queue
- (void)archive {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Archive" expirationHandler:^{  // expect: BT004 BT008
        [[NSOperationQueue mainQueue] addOperationWithBlock:^{
            [app endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        }];
    }];
}

// sample: SDWebImage-style sself alias, the end only inside if (sself)
- (void)store {
    UIApplication *application = [UIApplication sharedApplication];
    __weak __typeof__ (self) wself = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [application beginBackgroundTaskWithName:@"Store" expirationHandler:^{  // expect: BT004 BT008
        __strong __typeof (wself) sself = wself;
        if (sself) {
            [sself cancelDownload];
            [application endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        }
    }];
}

// sample: a local strong alias that bails out without braces
- (void)sync {
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{  // expect: BT004 BT008
        typeof(self) me = weakSelf;
        if (!me) return;
        [me cancelDownload];
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: a local strong alias, the end only inside if (me)
- (void)compact {
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Compact" expirationHandler:^{  // expect: BT004 BT008
        typeof(self) me = weakSelf;
        if (me) {
            [me cancelDownload];
            [[UIApplication sharedApplication] endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        }
    }];
}

- (void)finishTask:(UIBackgroundTaskIdentifier)task {
    [[UIApplication sharedApplication] endBackgroundTask:task];
}

// sample: ends only when a flag is set, in a braceless if
- (void)syncInBackground {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{  // expect: BT004
        if (self.syncing)
            [[UIApplication sharedApplication] endBackgroundTask:task];
    }];
    [self.syncer syncEndingTask:task];
}

// sample: the handler calls another object's method that happens to share a name with this file's ending one
- (void)flushInBackground {
    if (self.flushTaskID != UIBackgroundTaskInvalid) return;
    self.flushTaskID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Flush" expirationHandler:^{  // expect: BT004
        [self.sender stopFlushing];
    }];
    [self.sender flushWithCompletion:^{ [self stopFlushing]; }];
}

- (void)stopFlushing {
    [[UIApplication sharedApplication] endBackgroundTask:self.flushTaskID];
    self.flushTaskID = UIBackgroundTaskInvalid;
}

@end

@implementation ContactsSyncController

- (void)runOnMain:(dispatch_block_t)block {
    dispatch_async(dispatch_get_main_queue(), block);
}

// sample: the handler ends through a project helper that always posts the block to the main queue: after it returns
- (void)startSync {
    UIApplication *app = UIApplication.sharedApplication;
    if (_task != UIBackgroundTaskInvalid) return;
    _task = [app beginBackgroundTaskWithName:@"Sync contacts" expirationHandler:^{  // expect: BT004
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
