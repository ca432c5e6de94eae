#import <Foundation/Foundation.h>

@implementation WidgetRefresher

// sample: dispatch_async and return
- (void)refresh {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Refresh" usingBlock:^(BOOL expired) {  // expect: BT009
        if (expired) return;
        dispatch_async(dispatch_get_global_queue(QOS_CLASS_UTILITY, 0), ^{
            [Widgets reload];
        });
    }];
}

// sample: an operation queue
- (void)sync {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Sync" usingBlock:^(BOOL expired) {  // expect: BT009
        if (expired) return;
        [self.queue addOperationWithBlock:^{
            [Store sync];
        }];
    }];
}

// sample: dispatch_after
- (void)compact {
    NSProcessInfo *info = [NSProcessInfo processInfo];
    [info performExpiringActivityWithReason:@"Compact" usingBlock:^(BOOL expired) {  // expect: BT009
        dispatch_after(dispatch_time(DISPATCH_TIME_NOW, NSEC_PER_SEC), dispatch_get_main_queue(), ^{
            [Store compact];
        });
    }];
}

// sample: cleanup on expiry, then dispatch_async of the work
- (void)upload {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Upload" usingBlock:^(BOOL expired) {  // expect: BT009
        if (expired) {
            [Uploads cancel];
            return;
        }
        dispatch_async(dispatch_get_main_queue(), ^{
            [Uploads run];
        });
    }];
}

// sample: waits for the work with a 30-second timeout, then returns
- (void)uploadOnWatch {
    dispatch_semaphore_t done = dispatch_semaphore_create(0);
    [self.uploader uploadWithCompletion:^{ dispatch_semaphore_signal(done); }];
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Upload" usingBlock:^(BOOL expired) {  // expect: BT009
        if (!expired) {
            dispatch_semaphore_wait(done, dispatch_time(DISPATCH_TIME_NOW, 30 * NSEC_PER_SEC));
        }
    }];
}

@end
