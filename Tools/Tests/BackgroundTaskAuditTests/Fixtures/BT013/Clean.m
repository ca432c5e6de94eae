#import <BackgroundTasks/BackgroundTasks.h>

@implementation AppDelegate

// sample: registered while launching
- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
    [self registerMaintenance];
    return YES;
}

// sample: a helper called from didFinishLaunching
- (void)registerMaintenance {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.database interrupt]; };
        [self.database compactWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
    }];
}

// sample: willFinishLaunching is before the end of launch too
- (BOOL)application:(UIApplication *)application willFinishLaunchingWithOptions:(NSDictionary *)options {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {
        task.expirationHandler = ^{ [self.sync cancel]; };
        [self.sync runWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
    }];
    return YES;
}

@end
