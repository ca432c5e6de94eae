#import <UIKit/UIKit.h>

@interface ManagedTask : NSObject
@property (nonatomic, copy) NSString *name;
@property (nonatomic) UIBackgroundTaskIdentifier identifier;
@property (nonatomic, copy) void (^expirationHandler)(ManagedTask *task);
@end

@implementation TaskWrapper

// sample: a wrapper method named like the API it wraps
- (UIBackgroundTaskIdentifier)beginBackgroundTaskWithName:(NSString *)name expirationHandler:(void (^)(void))handler {
    return [[UIApplication sharedApplication] beginBackgroundTaskWithName:name expirationHandler:handler];
}

// sample: calls in comments and strings
- (NSArray *)documentation {
    // [[UIApplication sharedApplication] beginBackgroundTaskWithExpirationHandler:nil];
    /* [app beginBackgroundTaskWithName:@"x" expirationHandler:^{}]; */
    NSString *objc = @"[app beginBackgroundTaskWithExpirationHandler:^{ }]";
    const char *c = "[app endBackgroundTask:task]";
    char quote = '"';
    return @[ objc, @(c), @(quote) ];
}

// sample: selectors and declarations are not calls
- (SEL)selector {
    return @selector(beginBackgroundTaskWithExpirationHandler:);
}

// sample: a suppressed call (block comment form)
- (void)legacy {
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Legacy" expirationHandler:^{ /* bgtask:ignore BT001 */
        [[UIApplication sharedApplication] endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [self.worker finishWithCompletion:^{ [[UIApplication sharedApplication] endBackgroundTask:task]; }];
}

@end

@implementation TaskManager

// sample: a manager's begin for a task object it was given: the handler calls that object's handler
- (BOOL)startTask:(ManagedTask *)task {
    @synchronized (self) {
        if ([_tasks containsObject:task]) return NO;
        [_tasks addObject:task];
        task.identifier = [UIApplication.sharedApplication beginBackgroundTaskWithName:task.name expirationHandler:^{
            task.expirationHandler(task);
        }];
        return task.identifier != UIBackgroundTaskInvalid;
    }
}

- (void)finishTask:(ManagedTask *)task {
    @synchronized (self) {
        if (![_tasks containsObject:task]) return;
        [_tasks removeObject:task];
        [UIApplication.sharedApplication endBackgroundTask:task.identifier];
        task.identifier = UIBackgroundTaskInvalid;
    }
}

@end

@implementation NetworkCommunication

// sample: a wrapper under another name that takes the caller's handler and calls it from its own
- (UIBackgroundTaskIdentifier)beginSafeTaskWithExpirationHandler:(void (^)(void))handler {
    __block UIBackgroundTaskIdentifier taskId = UIBackgroundTaskInvalid;
    taskId = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Network" expirationHandler:^{
        if (handler) handler();
        [UIApplication.sharedApplication endBackgroundTask:taskId];
    }];
    return taskId;
}

@end
