#import <UIKit/UIKit.h>

@implementation Exporter

// sample: an early return without braces
- (void)exportItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (items.count == 0) return;  // expect: BT008
    [self.archive writeItems:items];
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: an error path that returns
- (void)saveData:(NSData *)data {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    NSError *error = nil;
    if (![data writeToURL:self.url options:0 error:&error]) {
        NSLog(@"save failed: %@", error);
        return;  // expect: BT008
    }
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: an exception thrown between begin and end
- (void)validateItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Validate" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (items == nil) {
        @throw [NSException exceptionWithName:@"Invalid" reason:@"no items" userInfo:nil];  // expect: BT008
    }
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: a handler-only end; the upload's completion does not end the stored task
- (void)uploadOnBackground {
    if (self.uploadTask != UIBackgroundTaskInvalid) return;
    self.uploadTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{  // expect: BT008
        [[UIApplication sharedApplication] endBackgroundTask:self.uploadTask];
        self.uploadTask = UIBackgroundTaskInvalid;
    }];
    [self.uploader uploadWithCompletion:^(NSError *error) {
        [self log:error];
    }];
}

// sample: besides the handler, ended only in dealloc
- (void)connectInBackground {
    if (self.connectTask != UIBackgroundTaskInvalid) return;
    self.connectTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Connect" expirationHandler:^{  // expect: BT008
        [self endConnectTask];
    }];
}

- (void)endConnectTask {
    [[UIApplication sharedApplication] endBackgroundTask:self.connectTask];
    self.connectTask = UIBackgroundTaskInvalid;
}

- (void)dealloc {
    [self endConnectTask];
}

@end
