import DesktopNotificationsSupport

/// The ``EngineHost`` of a hosted engine: it asks the agent's ``HostedEngineHost`` (held
/// weakly, as an engine holds its host) and has no content or service extensions, which live
/// in the app (the agent asks a connected app's center to run its service extension before it
/// adds a push).
final class HostedEngineHostAdapter: EngineHost {
    // @unchecked: the weak reference is read and written only under `slot`'s lock.
    private struct Slot: @unchecked Sendable {
        weak var host: (any HostedEngineHost)?
    }

    private let slot: Locked<Slot>

    init(_ host: any HostedEngineHost) {
        slot = Locked(Slot(host: host))
    }

    private var host: (any HostedEngineHost)? { slot.withLock { $0.host } }

    var presentationOptionsWithoutAsking: UNNotificationPresentationOptions? { nil }

    func askPresentationOptions(
        for notification: UNNotification, then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        let host = host
        Task { then(await host?.presentationOptions(for: notification) ?? UNUserNotificationCenter.defaultPresentationOptions) }
    }

    func receive(_ response: UNNotificationResponse) {
        host?.receive(response)
    }

    func hasContentExtension(forCategory category: String) -> Bool { false }

    func contentExtensionShown(_ notification: UNNotification) async {}

    func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption? { nil }

    func serviceExtensionContent(for request: UNNotificationRequest) async -> UNNotificationContent { request.content }
}
