#import <UIKit/UIKit.h>

@implementation DraftSaver

// sample: a __block local, copied to a property afterwards
- (void)save {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save draft" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    self.saveTask = task;
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
}

@end
