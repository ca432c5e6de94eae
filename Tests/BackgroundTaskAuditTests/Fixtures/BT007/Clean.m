#import <UIKit/UIKit.h>

@implementation Uploader

// sample: the handler resets after its end
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.uploads startWithCompletion:^(NSError *error) {
        [app endBackgroundTask:task];
    }];
}

// sample: two branches of one if/else
- (void)saveFailing:(BOOL)failed {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (failed) {
        [app endBackgroundTask:task];
    } else {
        [self.store flush];
        [app endBackgroundTask:task];
    }
}

// sample: each end resets the instance variable
- (void)start {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Transfer" expirationHandler:^{
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.transfer runWithSuccess:^{
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    } failure:^(NSError *error) {
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: a switch whose cases end once each
- (void)finishWithResult:(NSInteger)result {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Finish" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    switch (result) {
    case 0:
        [app endBackgroundTask:task];
        break;
    default:
        [app endBackgroundTask:task];
        break;
    }
}

@end
