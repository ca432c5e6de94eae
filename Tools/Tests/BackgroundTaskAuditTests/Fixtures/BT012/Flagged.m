#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: completed, never told to stop
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT012
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

// sample: the handling method has none either
- (void)registerCleanup {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT012
        [self handleCleanup:task];
    }];
}

- (void)handleCleanup:(BGProcessingTask *)task {
    [self.database compact];
    [task setTaskCompletedWithSuccess:YES];
}

// sample: work on a queue, with nothing to stop it
- (void)registerSync {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT012
        dispatch_async(self.queue, ^{
            [self.sync run];
            [task setTaskCompletedWithSuccess:YES];
        });
    }];
}

@end
