#import <Foundation/Foundation.h>

@implementation WidgetRefresher

// sample: dispatches, then waits on a semaphore
- (void)refresh {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Refresh" usingBlock:^(BOOL expired) {
        if (expired) return;
        dispatch_semaphore_t done = dispatch_semaphore_create(0);
        dispatch_async(dispatch_get_global_queue(QOS_CLASS_UTILITY, 0), ^{
            [Widgets reload];
            dispatch_semaphore_signal(done);
        });
        dispatch_semaphore_wait(done, DISPATCH_TIME_FOREVER);
    }];
}

// sample: synchronous work
- (void)sync {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Sync" usingBlock:^(BOOL expired) {
        if (expired) {
            [Store cancelSync];
        } else {
            [Store syncSynchronously];
        }
    }];
}

// sample: a dispatch group waited for
- (void)compact {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Compact" usingBlock:^(BOOL expired) {
        if (expired) return;
        dispatch_group_t group = dispatch_group_create();
        dispatch_group_async(group, dispatch_get_global_queue(QOS_CLASS_UTILITY, 0), ^{
            [Store compact];
        });
        dispatch_group_wait(group, DISPATCH_TIME_FOREVER);
    }];
}

// sample: a dispatch_async only to cancel on expiry; otherwise the work runs synchronously
- (void)upload {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Upload" usingBlock:^(BOOL expired) {
        if (expired) {
            dispatch_async(dispatch_get_main_queue(), ^{
                [Uploads cancel];
            });
            return;
        }
        [Uploads runSynchronously];
    }];
}

// sample: the work done synchronously (stopped when told expired), then a UI update posted to the main queue
- (void)render {
    [[NSProcessInfo processInfo] performExpiringActivityWithReason:@"Render" usingBlock:^(BOOL expired) {
        if (expired) {
            [Thumbnails cancelRendering];
            return;
        }
        NSArray *result = [Thumbnails renderAll];
        dispatch_async(dispatch_get_main_queue(), ^{
            [self show:result];
        });
    }];
}

@end
