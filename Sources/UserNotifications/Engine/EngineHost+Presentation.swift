extension EngineHost {
    /// Hands `response` to the content extension of its category first, when there is one, and
    /// its answer (`.dismissAndForwardAction` when it gives none) to `answered`, in a task of its
    /// own; without an extension the host receives the response at once.
    func route(
        _ response: UNNotificationResponse, answered: @escaping @Sendable (UNNotificationContentExtensionResponseOption) async -> Void
    ) {
        guard hasContentExtension(forCategory: response.notification.request.content.categoryIdentifier) else { return receive(response) }
        Task { await answered(await contentExtensionAnswer(for: response) ?? .dismissAndForwardAction) }
    }
}
