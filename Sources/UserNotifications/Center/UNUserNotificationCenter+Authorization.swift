import Foundation
import FreedesktopNotifications

extension UNUserNotificationCenter {
    /// Asks for permission to notify. On Linux nobody is asked: permission is granted when a
    /// notification server runs on the session bus or the bus can start one, and denied
    /// otherwise, or when the person turned the app's notifications off in GNOME's settings.
    /// The answer and `options` are remembered with the app's state.
    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        await engine.requestAuthorization(options: options)
    }

    /// The completion-handler form of ``requestAuthorization(options:)``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func requestAuthorization(
        options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let queue = callbackQueue
        Task {
            do {
                let granted = try await requestAuthorization(options: options)
                queue.async { completionHandler(granted, nil) }
            } catch {
                queue.async { completionHandler(false, error) }
            }
        }
    }

    /// The settings, from the server's capabilities and the remembered authorization:
    /// sound is `.enabled` when the server plays sounds (`sound`), the notification list
    /// when it keeps notifications (`persistence`); what no Linux desktop has (lock screen,
    /// CarPlay, critical alerts, announcements, scheduled summaries, time-sensitive and
    /// direct-message settings) is `.notSupported`. `locationSetting` (a Linux addition) says
    /// whether GeoClue2 can watch location triggers.
    public func notificationSettings() async -> UNNotificationSettings {
        Self.settings(for: await engine.authorization())
    }

    /// The completion-handler form of ``notificationSettings()``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        complete(completionHandler) { [self] in await notificationSettings() }
    }
}

extension UNUserNotificationCenter {
    /// The settings an authorization answer and the server's capabilities amount to.
    static func settings(for authorization: EngineAuthorization) -> UNNotificationSettings {
        let capabilities = authorization.capabilities ?? []
        let authorized = authorization.status == .authorized
        func setting(_ on: Bool) -> UNNotificationSetting { authorized ? (on ? .enabled : .notSupported) : .disabled }
        return UNNotificationSettings(
            authorizationStatus: authorization.status,
            soundSetting: setting(capabilities.contains(.sound)),
            badgeSetting: setting(true),
            alertSetting: setting(true),
            notificationCenterSetting: setting(capabilities.contains(.persistence)),
            lockScreenSetting: .notSupported,
            carPlaySetting: .notSupported,
            alertStyle: authorized ? .banner : .none,
            showPreviewsSetting: .always,
            criticalAlertSetting: .notSupported,
            providesAppNotificationSettings: false,
            announcementSetting: .notSupported,
            timeSensitiveSetting: .notSupported,
            scheduledDeliverySetting: .notSupported,
            directMessagesSetting: .notSupported,
            locationSetting: authorization.location)
    }
}
