#import <UIKit/UIKit.h>

@implementation LogUploader

// sample: a nil handler
- (void)upload {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Upload log" expirationHandler:nil];  // expect: BT003
    [Logs uploadWithCompletion:^{ [app endBackgroundTask:task]; }];
}

// sample: a NULL handler
- (void)rotate {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Rotate log" expirationHandler:NULL];  // expect: BT003
    [Logs rotateWithCompletion:^{ [app endBackgroundTask:task]; }];
}

// sample: an empty block
- (void)compress {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Compress log" expirationHandler:^{ }];  // expect: BT003
    [Logs compressWithCompletion:^{ [app endBackgroundTask:task]; }];
}

// sample: a block with only a comment
- (void)prune {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Prune log" expirationHandler:^(void) {  // expect: BT003
        /* nothing to clean up */
    }];
    [Logs pruneWithCompletion:^{ [app endBackgroundTask:task]; }];
}

// sample: the unnamed selector with a nil handler
- (void)flush {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithExpirationHandler:nil];  // expect: BT003 BT002
    [Logs flushWithCompletion:^{ [app endBackgroundTask:task]; }];
}

@end
