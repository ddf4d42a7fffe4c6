extension UNNotificationRequest {
    /// The request as it is delivered now: the content's texts that came from
    /// `localizedUserNotificationString(forKey:arguments:)` looked up again. The request itself
    /// when it has none.
    func resolvingDeferredLocalizations() -> UNNotificationRequest {
        guard !content.fields.localizations.isEmpty else { return self }
        let content = UNNotificationContent(fields: content.fields.resolvingDeferredLocalizations())
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }
}
