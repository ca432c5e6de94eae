#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: the expiration handler cancels the work
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

// sample: the setter's form, in the handling method
- (void)registerCleanup {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        [self handleCleanup:task];
    }];
}

- (void)handleCleanup:(BGProcessingTask *)task {
    [task setExpirationHandler:^{ [self.database interrupt]; }];
    [self.database compactWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
}

// sample: handed to an object of another file
- (void)registerSync {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        [SyncCoordinator.shared handle:task];
    }];
}

@end
