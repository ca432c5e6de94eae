#import <UIKit/UIKit.h>

@implementation Sync

// sample: a literal name
- (void)pull {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Pull changes" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: a name computed from the method
- (void)push {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:NSStringFromSelector(_cmd) expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: a name in a parameter
- (void)mergeNamed:(NSString *)name {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:name expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

// sample: an expiring activity with a reason
- (void)compact {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Compact store" usingBlock:^(BOOL expired) {
        if (!expired) { [self compactSynchronously]; }
    }];
}

@end
