// `import BackgroundTaskKitTesting` is all a test target needs: the simulator lives in
// BackgroundTaskSimulation (which does not link Swift Testing, so `bgtask` can use it) and the seam in
// BackgroundTaskKit.
@_exported import BackgroundTaskKit
@_exported import BackgroundTaskSimulation
@_exported import BackgroundTaskTimeline
