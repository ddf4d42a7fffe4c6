/// Which of a content's texts came from `localizedUserNotificationString(forKey:arguments:)`,
/// and from which lookup. Kept with the content (and stored with pending requests) so the
/// center looks the texts up again when it delivers the notification.
struct DeferredLocalizations: Codable, Hashable, Sendable {
    var title: DeferredLocalization?
    var subtitle: DeferredLocalization?
    var body: DeferredLocalization?

    var isEmpty: Bool { title == nil && subtitle == nil && body == nil }
}

extension NotificationContentFields {
    /// The fields with each deferred text looked up again now; the lookups stay, so a
    /// repeating request is localized afresh each time it fires.
    func resolvingDeferredLocalizations() -> NotificationContentFields {
        var fields = self
        if let title = localizations.title { fields.title = title.resolve() }
        if let subtitle = localizations.subtitle { fields.subtitle = subtitle.resolve() }
        if let body = localizations.body { fields.body = body.resolve() }
        return fields
    }
}
