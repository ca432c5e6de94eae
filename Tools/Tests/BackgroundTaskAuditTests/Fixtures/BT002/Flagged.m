#import <UIKit/UIKit.h>

@implementation Sync

// sample: the unnamed selector
- (void)pull {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithExpirationHandler:^{  // expect: BT002 BT008
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: a nil name
- (void)push {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:nil expirationHandler:^{  // expect: BT002 BT008
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: an empty name
- (void)merge {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"" expirationHandler:^{  // expect: BT002 BT008
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: an expiring activity with an empty reason
- (void)compact {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"" usingBlock:^(BOOL expired) {  // expect: BT002
        if (!expired) { [self compactSynchronously]; }
    }];
}

@end
