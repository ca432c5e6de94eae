#import <UIKit/UIKit.h>

@implementation Exporter

// sample: the early exit ends the task first
- (void)exportItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Export" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    if (items.count == 0) {
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
        return;
    }
    [self.archive writeItems:items];
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: a return inside the handler and one inside an unrelated block
- (void)saveItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save" expirationHandler:^{
        if (task == UIBackgroundTaskInvalid) return;
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    [items enumerateObjectsUsingBlock:^(id item, NSUInteger index, BOOL *stop) {
        if (item == nil) return;
        [self.archive writeItem:item];
    }];
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
}

// sample: the return comes after the end
- (BOOL)validateItems:(NSArray *)items {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Validate" expirationHandler:^{
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    BOOL valid = [self.validator validate:items];
    [app endBackgroundTask:task];
    task = UIBackgroundTaskInvalid;
    return valid;
}

// sample: the completion's early return ends the task first
- (void)signInInBackground {
    __weak typeof(self) weakSelf = self;
    __block UIBackgroundTaskIdentifier signInTask = UIBackgroundTaskInvalid;
    void (^completion)(NSError *) = ^(NSError *error) {
        typeof(self) strongSelf = weakSelf;
        if (!strongSelf) {
            [[UIApplication sharedApplication] endBackgroundTask:signInTask];
            return;
        }
        [strongSelf finishSignIn:error];
        [[UIApplication sharedApplication] endBackgroundTask:signInTask];
    };
    signInTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sign in" expirationHandler:^{
        [[UIApplication sharedApplication] endBackgroundTask:signInTask];
        signInTask = UIBackgroundTaskInvalid;
    }];
    [self.session startWithCompletion:completion];
}

@end

@implementation ProfileStore

// sample: the block that ends the task is passed to a method that calls it on every path
- (void)persistProfileInBackground {
    UIApplication *application = UIApplication.sharedApplication;
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    void (^finish)(void) = ^{
        [application endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    };
    task = [application beginBackgroundTaskWithName:@"Persist profile" expirationHandler:finish];
    [self persistProfileWithCompletion:finish];
}

- (void)persistProfileWithCompletion:(void (^)(void))completion {
    dispatch_async(self.queue, ^{
        NSDictionary *profile = [self.profile copy];
        if (profile.count == 0) {
            completion();
            return;
        }
        [self.archiver archive:profile];
        completion();
    });
}

@end

@implementation HTTPRequest

// sample: a work method that returns early hands back to -main, which still goes on to the end
- (void)main {
    if (_backgroundTask == UIBackgroundTaskInvalid) {
        _backgroundTask = [UIApplication.sharedApplication beginBackgroundTaskWithName:@"Request" expirationHandler:^{
            [self markAsFinished];
        }];
    }
    [self buildPostBody];
    [self markAsFinished];
}

- (void)buildPostBody {
    if (self.haveBuiltPostBody) {
        return;
    }
    self.haveBuiltPostBody = YES;
}

- (void)markAsFinished {
    if (_backgroundTask != UIBackgroundTaskInvalid) {
        [UIApplication.sharedApplication endBackgroundTask:_backgroundTask];
        _backgroundTask = UIBackgroundTaskInvalid;
    }
}

@end
