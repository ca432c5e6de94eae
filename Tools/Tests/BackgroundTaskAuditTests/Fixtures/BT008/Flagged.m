#import <UIKit/UIKit.h>

@implementation Exporter

// sample: an early return without braces
- (void)exportItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (items.count == 0) return;  // expect: BT008
    [self.archive writeItems:items];
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: an error path that returns
- (void)saveData:(NSData *)data {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    NSError *error = nil;
    if (![data writeToURL:self.url options:0 error:&error]) {
        NSLog(@"save failed: %@", error);
        return;  // expect: BT008
    }
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: an exception thrown between begin and end
- (void)validateItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Validate" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (items == nil) {
        @throw [NSException exceptionWithName:@"Invalid" reason:@"no items" userInfo:nil];  // expect: BT008
    }
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: a handler-only end; the upload's completion does not end the stored task
- (void)uploadOnBackground {
    if (self.uploadTask != UIBackgroundTaskInvalid) return;
    self.uploadTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{  // expect: BT008
        [[UIApplication sharedApplication] endBackgroundTask:self.uploadTask];
        self.uploadTask = UIBackgroundTaskInvalid;
    }];
    [self.uploader uploadWithCompletion:^(NSError *error) {
        [self log:error];
    }];
}

// sample: besides the handler, ended only in dealloc
- (void)connectInBackground {
    if (self.connectTask != UIBackgroundTaskInvalid) return;
    self.connectTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Connect" expirationHandler:^{  // expect: BT008
        [self endConnectTask];
    }];
}

- (void)endConnectTask {
    [[UIApplication sharedApplication] endBackgroundTask:self.connectTask];
    self.connectTask = UIBackgroundTaskInvalid;
}

- (void)dealloc {
    [self endConnectTask];
}

// sample: a local identifier only its own handler ends; the flush never does
- (void)flushOnBackground {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier flushTask = [app beginBackgroundTaskWithName:@"Flush" expirationHandler:^{  // expect: BT008
        [app endBackgroundTask:flushTask];
        flushTask = UIBackgroundTaskInvalid;
    }];
    [self.channel flushAll];
}

// sample: the ending block is kept in a property that only dealloc and the handler call
- (void)continueInBackground {
    __block UIBackgroundTaskIdentifier connectionTask = UIBackgroundTaskInvalid;
    self.connectionCleanup = ^{
        if (connectionTask != UIBackgroundTaskInvalid) {
            [[UIApplication sharedApplication] endBackgroundTask:connectionTask];
            connectionTask = UIBackgroundTaskInvalid;
        }
    };
    connectionTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Connection" expirationHandler:^{  // expect: BT008
        [self cancel];
        self.connectionCleanup();
    }];
}

- (void)dealloc {
    if (_connectionCleanup) {
        _connectionCleanup();
    }
}

// sample: the work function returns early, before the call whose completion ends the stored task
- (void)applicationDidEnterBackground {
    [self endEventsTaskIfNeeded];
    self.eventsTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Events" expirationHandler:^{
        [self endEventsTaskIfNeeded];
    }];
    [self uploadPendingEvents];
}

- (void)uploadPendingEvents {
    if (self.pendingEvents.count == 0) {
        return;  // expect: BT008
    }
    [self postEvents:self.pendingEvents];
}

- (void)postEvents:(NSArray *)events {
    [self.session postEvents:events completion:^{
        [self endEventsTaskIfNeeded];
    }];
}

- (void)endEventsTaskIfNeeded {
    if (self.eventsTask != UIBackgroundTaskInvalid) {
        [[UIApplication sharedApplication] endBackgroundTask:self.eventsTask];
        self.eventsTask = UIBackgroundTaskInvalid;
    }
}

// sample: the completion, declared before the begin, returns early when the owner is gone
- (void)signInInBackground {
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier signInTask = UIBackgroundTaskInvalid;
    void (^completion)(NSError *) = ^(NSError *error) {
        typeof(self) strongSelf = weakSelf;
        if (!strongSelf) {
            return;  // expect: BT008
        }
        [strongSelf finishSignIn:error];
        [[UIApplication sharedApplication] endBackgroundTask:signInTask];
        signInTask = UIBackgroundTaskInvalid;
    };
    signInTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sign in" expirationHandler:^{
        [[UIApplication sharedApplication] endBackgroundTask:signInTask];
        signInTask = UIBackgroundTaskInvalid;
    }];
    [self.session startWithCompletion:completion];
}

@end

@implementation ProfileStore

// sample: the block that ends the task is passed to a method that returns before calling it
- (void)persistProfileInBackground {
    UIApplication *application = UIApplication.sharedApplication;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    void (^finish)(void) = ^{
        [application endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    };
    task = [application beginBackgroundTaskWithName:@"Persist profile" expirationHandler:finish];
    [self persistProfileWithCompletion:finish];
}

- (void)persistProfileWithCompletion:(void (^)(void))completion {
    dispatch_async(self.queue, ^{
        NSDictionary *profile = [self.profile copy];
        if (profile.count == 0) return;  // expect: BT008
        [self.archiver archive:profile];
        if (completion) {
            completion();
        }
    });
}

@end
