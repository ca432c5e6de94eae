#import <UIKit/UIKit.h>

@implementation ContactSync

// sample: declared and assigned in one statement, without __block
- (void)sync {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{  // expect: BT006
        [app endBackgroundTask:task];
    }];
}

// sample: declared first, assigned later, without __block
- (void)merge {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task;
    task = [app beginBackgroundTaskWithName:@"Merge" expirationHandler:^{  // expect: BT006
        [app endBackgroundTask:task];
    }];
}

// sample: initialized to invalid, without __block
- (void)prune {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Prune" expirationHandler:^{  // expect: BT006
        if (task != UIBackgroundTaskInvalid) {
            [app endBackgroundTask:task];
        }
    }];
}

@end

// sample: in a C function
void ExportContacts(UIApplication *app) {
    NSUInteger task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{  // expect: BT006
        [app endBackgroundTask:task];
    }];
}
