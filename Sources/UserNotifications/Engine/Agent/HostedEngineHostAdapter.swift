import DesktopNotificationsSupport

/// The ``EngineHost`` of a hosted engine: it asks the agent's ``HostedEngineHost`` (held
/// weakly, as an engine holds its host), which asks the connected app about its content
/// extensions. It has no service extension: the agent asks a connected app's center to run
/// its service extension before it adds a push.
final class HostedEngineHostAdapter: EngineHost {
    // @unchecked: the weak reference is read and written only under `slot`'s lock.
    private struct Slot: @unchecked Sendable {
        weak var host: (any HostedEngineHost)?
    }

    /// One presentation question and whom to tell.
    private struct Ask: Sendable {
        let notification: UNNotification
        let then: @Sendable (UNNotificationPresentationOptions) -> Void
    }

    private let slot: Locked<Slot>
    private let asks: AsyncStream<Ask>.Continuation

    /// Questions are asked one at a time, in the order the engine asks them, and answered in
    /// that order: the engine posts in the order of the answers, so an app's adds are shown in
    /// the order it made them (a task per question could ask, and answer, in any order).
    init(_ host: any HostedEngineHost) {
        let slot = Locked(Slot(host: host))
        self.slot = slot
        let (questions, asks) = AsyncStream.makeStream(of: Ask.self)
        self.asks = asks
        Task {
            for await ask in questions {
                let host = slot.withLock { $0.host }
                ask.then(await host?.presentationOptions(for: ask.notification) ?? UNUserNotificationCenter.defaultPresentationOptions)
            }
        }
    }

    deinit {
        asks.finish()
    }

    private var host: (any HostedEngineHost)? { slot.withLock { $0.host } }

    var presentationOptionsWithoutAsking: UNNotificationPresentationOptions? { nil }

    func askPresentationOptions(
        for notification: UNNotification, then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        asks.yield(Ask(notification: notification, then: then))
    }

    func receive(_ response: UNNotificationResponse) {
        host?.receive(response)
    }

    func hasContentExtension(forCategory category: String) -> Bool {
        host?.hasContentExtension(forCategory: category) ?? false
    }

    /// The agent is told the categories at `Connect`; it has none of its own to tell.
    var contentExtensionCategories: Set<String> { [] }

    func contentExtensionShown(_ notification: UNNotification) async {
        await host?.contentExtensionShown(notification)
    }

    func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption? {
        await host?.contentExtensionAnswer(for: response)
    }

    func serviceExtensionContent(for request: UNNotificationRequest) async -> UNNotificationContent { request.content }
}
