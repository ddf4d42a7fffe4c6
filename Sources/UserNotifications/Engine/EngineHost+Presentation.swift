extension EngineHost {
    /// The presentation options for `notification`: known at once without a delegate, else
    /// the delegate's answer (bounded by the presentation deadline).
    package func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
        if let options = presentationOptionsWithoutAsking { return options }
        return await withCheckedContinuation { continuation in
            askPresentationOptions(for: notification) { continuation.resume(returning: $0) }
        }
    }
}
