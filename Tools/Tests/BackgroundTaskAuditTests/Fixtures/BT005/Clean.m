#import <UIKit/UIKit.h>

@implementation DraftSaver

// sample: behind an "already started" check of the same property
- (void)startSync {
    if (self.syncTask != UIBackgroundTaskInvalid) {
        return;
    }
    self.syncTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
        [self endSyncTask];
    }];
}

// sample: the old task is ended first, then a new one begun into the same property
- (void)restartSync {
    [self endSyncTask];
    self.syncTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
        [self endSyncTask];
    }];
    [self.syncer syncWithCompletion:^{ [self endSyncTask]; }];
}

- (void)endSyncTask {
    if (self.syncTask != UIBackgroundTaskInvalid) {
        [[UIApplication sharedApplication] endBackgroundTask:self.syncTask];
        self.syncTask = UIBackgroundTaskInvalid;
    }
}

// sample: returned to the caller
- (UIBackgroundTaskIdentifier)beginTaskWithHandler:(void (^)(void))handler {
    return [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Made" expirationHandler:handler];
}

// sample: a __block local declared and assigned in one statement
- (void)autosave {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Autosave" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

@end

@implementation TelemetryReporter

// sample: a locked "already started" check, computed into a flag first
- (BOOL)startTelemetryTaskIfNeeded {
    @synchronized (self) {
        BOOL shouldStart = self.inBackground && (self.telemetryTask == UIBackgroundTaskInvalid);
        if (shouldStart) {
            self.telemetryTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Telemetry" expirationHandler:^{
                [self endTelemetryTaskIfNeeded];
            }];
        }
        return shouldStart;
    }
}

// sample: copy, reset, then end the copy (under the same lock)
- (void)endTelemetryTaskIfNeeded {
    @synchronized (self) {
        if (self.telemetryTask != UIBackgroundTaskInvalid) {
            UIBackgroundTaskIdentifier taskID = self.telemetryTask;
            self.telemetryTask = UIBackgroundTaskInvalid;
            [[UIApplication sharedApplication] endBackgroundTask:taskID];
        }
    }
}

- (void)telemetryDidFlush {
    [self endTelemetryTaskIfNeeded];
}

@end
