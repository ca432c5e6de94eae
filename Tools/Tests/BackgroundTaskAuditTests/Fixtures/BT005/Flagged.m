#import <UIKit/UIKit.h>

static UIBackgroundTaskIdentifier sUploadTask;

@implementation DraftSaver {
    UIBackgroundTaskIdentifier _autosaveTask;
}

// sample: an instance variable
- (void)save {
    _saveTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Save draft" expirationHandler:^{  // expect: BT005 BT008
        [[UIApplication sharedApplication] endBackgroundTask:self->_saveTask];
        self->_saveTask = UIBackgroundTaskInvalid;
    }];
}

// sample: a __block local, copied to a property afterwards, where the next call overwrites it
- (void)saveCopy {
    UIApplication *app = [UIApplication sharedApplication];
    __block UIBackgroundTaskIdentifier task = UIBackgroundTaskInvalid;
    task = [app beginBackgroundTaskWithName:@"Save draft" expirationHandler:^{  // expect: BT005
        [app endBackgroundTask:task];
        task = UIBackgroundTaskInvalid;
    }];
    self.saveTask = task;
}

// sample: a property through self
- (void)autosave {
    self.autosaveTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Autosave" expirationHandler:^{  // expect: BT005 BT008
        [[UIApplication sharedApplication] endBackgroundTask:self.autosaveTask];
        self.autosaveTask = UIBackgroundTaskInvalid;
    }];
}

// sample: an instance variable through self->
- (void)sync {
    self->_syncTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Sync" expirationHandler:^{  // expect: BT005 BT008
        [[UIApplication sharedApplication] endBackgroundTask:self->_syncTask];
        self->_syncTask = UIBackgroundTaskInvalid;
    }];
}

// sample: a static global
- (void)upload {
    sUploadTask = [[UIApplication sharedApplication] beginBackgroundTaskWithName:@"Upload" expirationHandler:^{  // expect: BT005 BT008
        [[UIApplication sharedApplication] endBackgroundTask:sUploadTask];
        sUploadTask = UIBackgroundTaskInvalid;
    }];
}

@end
