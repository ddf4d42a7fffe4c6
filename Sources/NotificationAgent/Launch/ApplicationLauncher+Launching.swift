import UserNotifications

extension ApplicationLauncher: AppLaunching {
    /// Launches `appID` for a queued response: `ActivateAction("notification-response",
    /// [responseID], platform_data)` for a D-Bus activatable entry, else its Exec; either way
    /// the app's center takes the response from the agent when it starts.
    ///
    /// - Throws: ``ApplicationLaunchError``.
    package func launch(appID: String, responseID: String, activationToken: String?) async throws {
        try await launch(appID: appID, action: Self.notificationResponseAction, parameter: .string(responseID), activationToken: activationToken)
    }
}
