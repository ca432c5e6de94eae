// permitted: com.example.refresh com.example.cleanup
#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: a typo in the registered identifier
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refersh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT014
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

// sample: a refresh request the Info.plist does not list
- (void)scheduleSync {
    BGAppRefreshTaskRequest *request = [[BGAppRefreshTaskRequest alloc] initWithIdentifier:@"com.example.sync"];  // expect: BT014
    [[BGTaskScheduler sharedScheduler] submitTaskRequest:request error:nil];
}

// sample: a processing request with another app's prefix
- (void)scheduleCleanup {
    BGProcessingTaskRequest *request = [[BGProcessingTaskRequest alloc] initWithIdentifier:@"com.other.cleanup"];  // expect: BT014
    [[BGTaskScheduler sharedScheduler] submitTaskRequest:request error:nil];
}

@end
