import Foundation
import DesktopNotificationsSupport

/// The object that decides how a notification is presented and learns what the person did
/// with it.
///
/// Write either form of each method, the completion-handler form or the `async` form, or
/// neither: every method has a default.
///
/// As on Apple platforms the protocol is not isolated to an actor, so a plain `NSObject`
/// subclass conforms from any context (top-level code in Swift 5 mode, a nonisolated
/// factory). The completion-handler forms are called on the main thread, as Apple calls
/// them; an `async` form runs where its own isolation says: on the main actor for a
/// main-actor delegate, on the global executor for a nonisolated one, again as on Apple
/// platforms. A main-actor class conforms in Swift 6 mode the way Apple's Swift 6 code does:
/// `@MainActor final class AppDelegate: NSObject, @preconcurrency UNUserNotificationCenterDelegate`,
/// an isolated conformance (`@MainActor UNUserNotificationCenterDelegate`), or `nonisolated`
/// methods.
///
/// Linux differences:
/// - An app is always "in the foreground" while it runs on Linux, so
///   ``userNotificationCenter(_:willPresent:withCompletionHandler:)`` is asked before every
///   delivery. Without a delegate (or without that method), notifications are shown with
///   `[.banner, .list, .sound, .badge]`, where Apple would show nothing for a foreground app.
/// - `userNotificationCenter(_:openSettingsFor:)` is called never: no Linux desktop offers
///   an in-app settings button.
/// - Apple's methods are `optional` Objective-C requirements; here every requirement has a
///   default implementation instead, which a program cannot tell apart.
///
/// As in Apple's current SDK the completion handlers are `@Sendable` and the requirements
/// `@preconcurrency`: a method written with `@escaping (…) -> Void` (Swift 5 era code) and one
/// written with `@escaping @Sendable (…) -> Void` (as Xcode completes it now) both implement
/// them, and a `nonisolated` method can finish from a `Task`.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// Asked before a notification is shown; answer with the presentation options
    /// (`[]` means do not show it: it is then not posted and not in the delivered list).
    /// Without an answer within ``UNUserNotificationCenter/presentationDeadline`` (5 s) the
    /// notification is not shown.
    @preconcurrency
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)

    /// The `async` form of ``userNotificationCenter(_:willPresent:withCompletionHandler:)``.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions

    /// Told what the person did: clicked the notification (`UNNotificationDefaultActionIdentifier`),
    /// chose an action, replied (a ``UNTextInputNotificationResponse``) or dismissed it
    /// (`UNNotificationDismissActionIdentifier`, for categories with `.customDismissAction`).
    /// Call the completion handler when done.
    @preconcurrency
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

    /// The `async` form of ``userNotificationCenter(_:didReceive:withCompletionHandler:)``.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async

    /// Apple calls this from the Settings app; Linux desktops have no such button, so it is
    /// never called.
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    /// Default: show the notification with `[.banner, .list, .sound, .badge]`.
    @preconcurrency
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler(UNUserNotificationCenter.defaultPresentationOptions)
    }

    /// Default: asks the completion-handler form on the main actor, so a delegate that wrote
    /// only that form works and is called on the main thread.
    @MainActor
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            userNotificationCenter(center, willPresent: notification) { once.resume(returning: $0) }
        }
    }

    /// Default: nothing to do.
    @preconcurrency
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        completionHandler()
    }

    /// Default: calls the completion-handler form on the main actor and waits for its handler.
    @MainActor
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            userNotificationCenter(center, didReceive: response) { once.resume(returning: ()) }
        }
    }

    /// Default: nothing.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}

/// Resumes a continuation at most once, whatever a completion handler does (Apple's
/// handlers may be called once; ours tolerate a second call instead of trapping).
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Locked(continuation)
    }

    func resume(returning value: Value) {
        let pending = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
    }
}
