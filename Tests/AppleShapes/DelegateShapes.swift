// Delegates as Apple-platform apps write them: on a plain class (Swift 5 era), with the
// handlers Apple's Xcode 16 SDK declares (`@Sendable`), on a `@MainActor` class with a
// `@preconcurrency` conformance, with `nonisolated` methods that hop to the main actor, and
// with the `async` forms.
import Foundation
import UserNotifications

/// A plain class, the handlers as Swift 5 era code writes them.
public final class PlainNotificationDelegate: NSObject, UNUserNotificationCenterDelegate {
    public private(set) var received: [String] = []

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .list, .sound])
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        received.append(response.actionIdentifier)
        completionHandler()
    }
}

/// The handlers as Apple's current SDK declares them (Xcode's completion writes this form).
public final class SendableHandlerDelegate: NSObject, UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        DispatchQueue.global().async { completionHandler([.banner]) }
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        DispatchQueue.global().async { completionHandler() }
    }
}

/// An app delegate on the main actor, conforming with `@preconcurrency`.
@MainActor
public final class MainActorNotificationDelegate: NSObject, @preconcurrency UNUserNotificationCenterDelegate {
    public private(set) var received: [String] = []

    public override init() {
        super.init()
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .sound])
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        received.append(response.actionIdentifier)
        completionHandler()
    }
}

/// A main-actor class whose delegate methods are `nonisolated` and hop to the main actor,
/// finishing from a task: the handler must be `@Sendable` to be captured there.
@MainActor
public final class HoppingNotificationDelegate: NSObject, UNUserNotificationCenterDelegate {
    public private(set) var received: [String] = []

    public override init() {
        super.init()
    }

    public nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        Task { @MainActor in
            completionHandler(self.received.isEmpty ? [.banner] : [.list])
        }
    }

    public nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        let identifier = response.actionIdentifier
        Task { @MainActor in
            self.received.append(identifier)
            completionHandler()
        }
    }
}

/// The `async` forms on a main-actor class.
@MainActor
public final class AsyncNotificationDelegate: NSObject, @preconcurrency UNUserNotificationCenterDelegate {
    public private(set) var received: [String] = []

    public override init() {
        super.init()
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list]
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        received.append(response.actionIdentifier)
    }
}
