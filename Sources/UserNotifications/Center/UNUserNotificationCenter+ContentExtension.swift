import Foundation

extension UNUserNotificationCenter {
    /// Registers a content extension for notifications of `categories` (Apple takes them from
    /// the extension's `UNNotificationExtensionCategory`). A Linux addition; `nil` removes it.
    public func setContentExtension(_ contentExtension: (any UNNotificationContentExtension)?, forCategories categories: Set<String>) {
        contentExtensions.withLock { registry in
            for category in categories { registry[category] = contentExtension.map(ContentExtensionReference.init) }
        }
        engine.contentExtensionsChanged()
    }

    /// The categories a content extension is registered for.
    package var contentExtensionCategories: Set<String> {
        contentExtensions.withLock { Set($0.keys) }
    }

    /// The content extension registered for `category`, if any.
    func contentExtension(for category: String) -> ContentExtensionReference? {
        contentExtensions.withLock { $0[category] }
    }

    /// Tells the extension of a notification's category that it was shown.
    package func hasContentExtension(forCategory category: String) -> Bool {
        contentExtension(for: category) != nil
    }

    package func contentExtensionShown(_ notification: UNNotification) async {
        guard let reference = contentExtension(for: notification.request.content.categoryIdentifier) else { return }
        await MainActor.run { reference.object.didReceive(notification) }
    }

    /// The extension's answer for a response, or `nil` when its category has no extension.
    package func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption? {
        guard let reference = contentExtension(for: response.notification.request.content.categoryIdentifier) else { return nil }
        return await Task { @MainActor in await reference.object.didReceive(response) }.value
    }
}

/// A registered content extension, used only on the main actor.
struct ContentExtensionReference: @unchecked Sendable {
    let object: any UNNotificationContentExtension
}
