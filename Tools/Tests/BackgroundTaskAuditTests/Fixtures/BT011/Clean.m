#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: completed by the work and by the expiration handler
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{
            [self.feed cancel];
            [task setTaskCompletedWithSuccess:NO];
        };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

// sample: the early return completes first
- (void)registerCleanup {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.database interrupt]; };
        if (!self.database.isOpen) {
            [task setTaskCompletedWithSuccess:NO];
            return;
        }
        [self.database compact];
        [task setTaskCompletedWithSuccess:YES];
    }];
}

// sample: handed to an object of another file
- (void)registerSync {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        [SyncCoordinator.shared handle:task];
    }];
}

@end
