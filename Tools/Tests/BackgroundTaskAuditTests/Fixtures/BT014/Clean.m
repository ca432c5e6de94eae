// permitted: com.example.refresh com.example.cleanup
#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: a listed identifier, registered
- (void)registerRefresh {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

// sample: a listed processing request
- (void)scheduleCleanup {
    BGProcessingTaskRequest *request = [[BGProcessingTaskRequest alloc] initWithIdentifier:@"com.example.cleanup"];
    [[BGTaskScheduler sharedScheduler] submitTaskRequest:request error:nil];
}

// sample: an identifier from a constant, not a literal here
- (void)scheduleRefresh {
    BGAppRefreshTaskRequest *request = [[BGAppRefreshTaskRequest alloc] initWithIdentifier:kRefreshIdentifier];
    [[BGTaskScheduler sharedScheduler] submitTaskRequest:request error:nil];
}

@end
