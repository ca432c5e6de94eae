#import <UIKit/UIKit.h>

// sample: a macro declares the identifier without __block and begins into it
#define StartCacheTask() UIBackgroundTaskIdentifier cacheTask = UIBackgroundTaskInvalid; \
cacheTask = [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:^{ [[UIApplication sharedApplication] endBackgroundTask:cacheTask]; }];  // expect: BT006 BT002
#define EndCacheTask() [[UIApplication sharedApplication] endBackgroundTask:cacheTask];  // expect: BT007

@implementation ContactSync

// sample: declared and assigned in one statement, without __block
- (void)sync {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = [app beginBackgroundTaskWithName:@"Sync" expirationHandler:^{  // expect: BT006 BT008
        [app endBackgroundTask:task];
    }];
}

// sample: declared first, assigned later, without __block
- (void)merge {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task;
    task = [app beginBackgroundTaskWithName:@"Merge" expirationHandler:^{  // expect: BT006 BT008
        [app endBackgroundTask:task];
    }];
}

// sample: initialized to invalid, without __block
- (void)prune {
    UIApplication *app = [UIApplication sharedApplication];
    UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Prune" expirationHandler:^{  // expect: BT006 BT008
        if (task != UIBackgroundTaskInvalid) {
            [app endBackgroundTask:task];
        }
    }];
}

@end

// sample: in a C function
void ExportContacts(UIApplication *app) {
    NSUInteger task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{  // expect: BT006 BT008
        [app endBackgroundTask:task];
    }];
}

@implementation FetchOperation2

// sample: an NSOperation subclass begins in start, off the main thread (declared : NSOperation)
- (void)start {
    self.fetchTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Fetch" expirationHandler:^{  // expect: BT006 BT008
        [[UIApplication sharedApplication] endBackgroundTask:self.fetchTask];
        self.fetchTask = UIBackgroundTaskInvalid;
    }];
}

@end

@interface FetchOperation2 : NSOperation
@end

@implementation EventStore

// sample: a __block identifier begun inside dispatch_async on a private queue
- (void)storeEvent {
    dispatch_async(self.storageQueue, ^{
        __block UIBackgroundTaskIdentifier storeTask = UIBackgroundTaskInvalid;
        storeTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Store" expirationHandler:^{  // expect: BT006
            [[UIApplication sharedApplication] endBackgroundTask:storeTask];
            storeTask = UIBackgroundTaskInvalid;
        }];
        [self writeEvent];
        [[UIApplication sharedApplication] endBackgroundTask:storeTask];  // expect: BT007
        storeTask = UIBackgroundTaskInvalid;
    });
}

@end

@implementation CacheTask

// sample: a class method that begins, called from a cache queue as [CacheTask start]
+ (instancetype)start {
    CacheTask *task = [[self alloc] init];
    task.taskID = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Cache" expirationHandler:^{  // expect: BT006
        [[UIApplication sharedApplication] endBackgroundTask:task.taskID];
        task.taskID = UIBackgroundTaskInvalid;
    }];
    return task;
}

- (void)end {
    [[UIApplication sharedApplication] endBackgroundTask:self.taskID];
    self.taskID = UIBackgroundTaskInvalid;
}

@end

@implementation DiskCache

- (void)trim {
    dispatch_async(self.queue, ^{
        CacheTask *task = [CacheTask start];
        [self trimToSize];
        [task end];
    });
}

@end
