#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: a block that never completes the task
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT011
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refresh];
    }];
}

// sample: an if that returns before the completion
- (void)registerCleanup {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.database interrupt]; };
        if (!self.database.isOpen) {
            return;  // expect: BT011
        }
        [self.database compact];
        [task setTaskCompletedWithSuccess:YES];
    }];
}

// sample: the handling method returns early
- (void)registerSync {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        [self handleSync:task];
    }];
}

- (void)handleSync:(BGProcessingTask *)task {
    task.expirationHandler = ^{ [self.sync cancel]; };
    if (!self.reachable) {
        return;  // expect: BT011
    }
    [self.sync runWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
}

@end
