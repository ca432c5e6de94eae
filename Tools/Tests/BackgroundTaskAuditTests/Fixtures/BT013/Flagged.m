#import <BackgroundTasks/BackgroundTasks.h>

@implementation FeedViewController

// sample: registered when the first screen loads
- (void)viewDidLoad {
    [super viewDidLoad];
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.refresh" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT013
        task.expirationHandler = ^{ [self.feed cancel]; };
        [self.feed refreshWithCompletion:^(BOOL ok) { [task setTaskCompletedWithSuccess:ok]; }];
    }];
}

@end

@implementation AppDelegate

// sample: registered when the app becomes active
- (void)applicationDidBecomeActive:(UIApplication *)application {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.cleanup" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT013
        task.expirationHandler = ^{ [self.database interrupt]; };
        [self.database compactWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
    }];
}

// sample: registered when entering the foreground
- (void)applicationWillEnterForeground:(UIApplication *)application {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.sync" usingQueue:nil launchHandler:^(__kindof BGTask *task) {  // expect: BT013
        task.expirationHandler = ^{ [self.sync cancel]; };
        [self.sync runWithCompletion:^{ [task setTaskCompletedWithSuccess:YES]; }];
    }];
}

@end
