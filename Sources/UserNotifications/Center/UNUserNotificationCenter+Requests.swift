import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

extension UNUserNotificationCenter {
    // MARK: - Adding

    /// Schedules `request`, or (with no trigger) shows it now. A request whose identifier is
    /// pending replaces it; one whose identifier is delivered updates it in place.
    ///
    /// Through the agent (``NotificationEngineKind/agent``) it returns once the agent accepted
    /// the request, as on Apple platforms, where completion reports that the request was
    /// scheduled: an immediate one is shown after, and a delivery failure then is logged by the
    /// agent, which tries again when a notification server appears. In process it returns when
    /// the notification server has answered, so a missing server is an error there.
    ///
    /// - Throws: a trigger that can never fire (``NotificationTriggerError``, where Apple traps),
    ///   ``UNError`` with `notificationInvalidNoDate`, ``NotificationDeliveryError`` for
    ///   content that cannot be sent or a missing server, ``UserInfoStorageError`` for
    ///   `userInfo` values that cannot be stored.
    ///
    /// Linux addition: an update that changes nothing but the content's ``UNNotificationContent/progress``
    /// within 100 ms of the last post of its identifier is held and returns at once; the last
    /// one held is posted when the 100 ms are over (an error then is logged, not thrown), and
    /// a request that changes more, or a removal of the identifier, replaces what is held.
    public func add(_ request: UNNotificationRequest) async throws {
        switch progressThrottle.admit(request) {
        case .now:
            try await engine.add(request)
        case .held(let delay?):
            Task { [self] in await postHeld(request.identifier, after: delay) }
        case .held(nil):
            return
        }
    }

    /// Posts what ``progressThrottle`` holds for `identifier` once `delay` has passed.
    private func postHeld(_ identifier: String, after delay: Duration) async {
        try? await Task.sleep(for: delay)
        guard let request = progressThrottle.takeHeld(identifier) else { return }
        do {
            try await engine.add(request)
        } catch {
            SubsystemLog.center.logger.error(
                "a progress update held back was not posted",
                metadata: ["identifier": "\(TerminalText.singleLine(identifier))", "error": SubsystemLog.describe(error)])
        }
    }

    /// The completion-handler form of ``add(_:)``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        complete(completionHandler) { [self] in
            do {
                try await add(request)
                return nil
            } catch {
                return error
            }
        }
    }

    // MARK: - Pending

    /// The requests waiting for their trigger, soonest first.
    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        await engine.pendingRequests()
    }

    /// The completion-handler form of ``pendingNotificationRequests()``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        complete(completionHandler) { [self] in await pendingNotificationRequests() }
    }

    /// Cancels the pending requests with these identifiers.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        progressThrottle.forget(identifiers)
        engine.removePendingRequests(withIdentifiers: identifiers)
    }

    /// Cancels every pending request.
    public func removeAllPendingNotificationRequests() {
        progressThrottle.forget(nil)
        engine.removePendingRequests(withIdentifiers: nil)
    }

    // MARK: - Delivered

    /// The notifications still shown by the server, oldest first.
    public func deliveredNotifications() async -> [UNNotification] {
        await engine.deliveredNotifications()
    }

    /// The completion-handler form of ``deliveredNotifications()``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        complete(completionHandler) { [self] in await deliveredNotifications() }
    }

    /// Withdraws delivered notifications (`CloseNotification`); they leave the list at once.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        progressThrottle.forget(identifiers)
        engine.removeDeliveredNotifications(withIdentifiers: identifiers)
    }

    /// Withdraws every delivered notification.
    public func removeAllDeliveredNotifications() {
        progressThrottle.forget(nil)
        engine.removeDeliveredNotifications(withIdentifiers: nil)
    }

    // MARK: - Categories

    /// Registers the categories, replacing those registered before.
    ///
    /// Of several categories in the set that share an identifier, one is kept, the same one
    /// on every engine and in every process whatever the set's order (the first by its
    /// contents); ``notificationCategories()`` then lists that one. Apple does not say which
    /// one it keeps.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        engine.setCategories(UNNotificationCategory.oneOfEachIdentifier(categories))
    }

    /// The registered categories.
    public func notificationCategories() async -> Set<UNNotificationCategory> {
        await engine.categories()
    }

    /// The completion-handler form of ``notificationCategories()``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        complete(completionHandler) { [self] in await notificationCategories() }
    }

    // MARK: - Badge

    /// Shows `newBadgeCount` on the app's launcher icon (0 hides it), through the Unity
    /// launcher-entry signal that docks read.
    public func setBadgeCount(_ newBadgeCount: Int) async throws {
        guard newBadgeCount >= 0 else { throw UNError(.badgeInputInvalid, description: "a badge count cannot be negative") }
        try await engine.setBadgeCount(newBadgeCount)
    }

    /// The completion-handler form of ``setBadgeCount(_:)``.
    ///
    /// `@preconcurrency`, as Swift imports Apple's: a handler that captures a value that is not
    /// `Sendable` is a warning in the Swift 6 language mode, not an error.
    @preconcurrency
    public func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        complete(completionHandler) { [self] in
            do {
                try await setBadgeCount(newBadgeCount)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Writes the state now if a write is waiting for its burst of changes to end: for a
    /// command that exits right after its last operation. Operations before it come first.
    ///
    /// - Throws: why the state is not saved, if it is not: ``StateStoreError`` (it could not
    ///   be read or written) or ``InvalidApplicationIdentifierError``.
    package func writeStateNow() async throws {
        try await engine.writeStateNow()
    }

    /// Whether content extensions are supported: no desktop has them.
    public var supportsContentExtensions: Bool { false }
}
