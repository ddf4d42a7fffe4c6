/// Starts an app so that it takes the responses queued for it: the agent asks this when a
/// response arrives while none of the app's centers is connected.
public protocol AppLaunching: Sendable {
    /// Launches the app with desktop-entry id `appID` for the queued response `responseID`,
    /// handing over the activation token of the click when the server gave one.
    func launch(appID: String, responseID: String, activationToken: String?) async throws
}

/// The launcher used when none is given: it launches nothing. A queued response waits, for
/// up to ``AgentLimits/responseLifetime``, until the app is started by other means and its
/// center takes it.
public struct NoAppLauncher: AppLaunching {
    /// Creates the launcher.
    public init() {}

    /// Does nothing: the response stays queued.
    public func launch(appID: String, responseID: String, activationToken: String?) async throws {}
}
