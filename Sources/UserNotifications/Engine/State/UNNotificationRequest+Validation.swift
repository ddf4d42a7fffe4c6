extension UNNotificationRequest {
    /// Checks what every engine refuses before it takes the request in: a trigger that is not
    /// valid, a NUL character in the identifier or a text (a D-Bus string cannot carry one),
    /// and a user info that cannot be archived.
    ///
    /// - Throws: the trigger's ``UNError``; ``NotificationDeliveryError/invalidContent(field:reason:)``
    ///   naming the field with a NUL; what archiving the user info throws.
    func validateForDelivery() throws {
        try trigger?.validate()
        let fields = [
            ("identifier", identifier), ("title", content.title), ("subtitle", content.subtitle),
            ("body", content.body), ("categoryIdentifier", content.categoryIdentifier),
            ("threadIdentifier", content.threadIdentifier),
        ]
        for (field, text) in fields where text.containsNUL {
            throw NotificationDeliveryError.invalidContent(field: field, reason: "contains a NUL character")
        }
        if !content.userInfo.isEmpty { _ = try NotificationContentSnapshot(content) }
    }
}
