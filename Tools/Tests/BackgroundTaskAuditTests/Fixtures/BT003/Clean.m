#import <UIKit/UIKit.h>

@implementation LogUploader

// sample: a handler that ends the task
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Upload log" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [Logs uploadWithCompletion:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
}

// sample: a handler block passed in
- (UIBackgroundTaskIdentifier)rotateWithHandler:(void (^)(void))handler {
    return [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Rotate log" expirationHandler:handler];
}

// sample: a handler with a typed block literal
- (void)compress {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Compress log" expirationHandler:^void (void) {
        [Logs cancelCompression];
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

@end
