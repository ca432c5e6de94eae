#import <UIKit/UIKit.h>

@implementation ContactSync

// sample: __block before the type
- (void)sync {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: __block after the type
- (void)merge {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier __block task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Merge" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: __block, declared and assigned in one statement
- (void)prune {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Prune" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

@end

@implementation MainRunner

// sample: called on a queue, but the begin and the store run inside the project's helper named for the main thread
- (void)startFromQueue {
    dispatch_async(self.queue, ^{
        [Executor executeOnMainSync:^{
            if (self.task != UIBackgroundTaskInvalid) return;
            self.task = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Run" expirationHandler:^{
                [UIApplication.sharedApplication endBackgroundTask:self.task];
                self.task = UIBackgroundTaskInvalid;
            }];
        }];
        [self runWork];
        [Executor executeOnMainSync:^{
            [UIApplication.sharedApplication endBackgroundTask:self.task];
            self.task = UIBackgroundTaskInvalid;
        }];
    });
}

@end
