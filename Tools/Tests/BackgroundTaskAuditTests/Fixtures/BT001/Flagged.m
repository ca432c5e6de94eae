#import <UIKit/UIKit.h>

@implementation PhotoUploader

// sample: through [UIApplication sharedApplication]
- (void)upload {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload photos" expirationHandler:^{  // expect: BT001 BT008
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: through a local variable, over several lines
- (void)syncWithApplication:(UIApplication *)application {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [application
        beginBackgroundTaskWithName:@"Sync"  // expect: BT001 BT008
        expirationHandler:^{
            [application endBackgroundTask:task];
            task = UIBackgroundTaskInvalid;
        }];
}

// sample: a raw expiring activity
- (void)refresh {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Refresh" usingBlock:^(BOOL expired) {  // expect: BT001
        if (!expired) { [self reloadSynchronously]; }
    }];
}

@end

// sample: in a C function
void SaveEverything(UIApplication *app) {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{  // expect: BT001 BT008
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

@implementation TaskManager

// sample: a manager that gets a task object but makes its own handler: a raw call
- (BOOL)startTask:(ManagedTask *)task {
    @synchronized (self) {
        if ([_tasks containsObject:task]) return NO;
        [_tasks addObject:task];
        task.identifier = [UIApplication.sharedApplication beginBackgroundTaskWithName:task.name expirationHandler:^{  // expect: BT001 BT008
            [self endTask:task];
        }];
        return task.identifier != UIBackgroundTaskInvalid;
    }
}

- (void)endTask:(ManagedTask *)task {
    @synchronized (self) {
        if (![_tasks containsObject:task]) return;
        [_tasks removeObject:task];
        [UIApplication.sharedApplication endBackgroundTask:task.identifier];
        task.identifier = UIBackgroundTaskInvalid;
    }
}

@end
