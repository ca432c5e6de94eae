// An Objective-C caller of BTKBackgroundTask, compiled against the header Swift generates for
// BackgroundTaskKitObjC and the iOS SDK by Scripts/objc-face-check.sh (it is not part of the package).
#import <Foundation/Foundation.h>
#import "BackgroundTaskKitObjC-Swift.h"

// Names the calling line in leak reports and diagnostics, as #fileID and #line do in Swift.
#define BTKBeginBackgroundTask(taskName, handler) \
    [BTKBackgroundTask beginWithName:(taskName) holdsAssertionOnlyInBackground:NO expirationHandler:(handler) \
                                file:@__FILE__ line:__LINE__]

@interface UploadController : NSObject
- (void)uploadData:(NSData *)data completion:(void (^)(void))completion;
@end

@implementation UploadController {
    NSURLSessionDataTask *_request;
}

- (void)uploadData:(NSData *)data completion:(void (^)(void))completion {
    __weak typeof(self) weakSelf = self;
    BTKBackgroundTask *task = [BTKBackgroundTask beginWithName:@"Upload" expirationHandler:^{
        [weakSelf cancel];  // on the main thread; the task is ended after this returns
    }];
    NSMutableURLRequest *request = [NSMutableURLRequest requestWithURL:[NSURL URLWithString:@"https://example.com"]];
    request.HTTPMethod = @"POST";
    _request = [[NSURLSession sharedSession] uploadTaskWithRequest:request fromData:data
                                                  completionHandler:^(NSData *body, NSURLResponse *response,
                                                                      NSError *error) {
        completion();
        [task end];  // once the work is done; a second end, or one after expiry, does nothing
    }];
    [_request resume];
}

- (void)cancel {
    [_request cancel];
}

- (void)syncLater {
    BTKBackgroundTask *task = BTKBeginBackgroundTask(@"Sync", nil);
    if (task.isRunning && !task.isExpired) {
        NSLog(@"syncing under %@", task.name);
    }
    [task end];
    BTKBackgroundTask *foreground = [BTKBackgroundTask beginWithName:nil
                                      holdsAssertionOnlyInBackground:YES
                                                   expirationHandler:nil
                                                                file:nil
                                                                line:0];
    [foreground end];
}

@end
