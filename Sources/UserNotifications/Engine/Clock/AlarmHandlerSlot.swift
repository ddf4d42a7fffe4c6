import DesktopNotificationsSupport

/// Holds an alarm's handler until the alarm either rings or is cancelled, so that exactly one
/// of the two wins and the handler runs at most once.
package final class AlarmHandlerSlot: Sendable {
    package typealias Handler = @Sendable (NotificationClockEvent) -> Void

    private let handler: Locked<Handler?>

    package init(_ handler: @escaping Handler) {
        self.handler = Locked(handler)
    }

    /// Whether the alarm has neither rung nor been cancelled.
    package var isWaiting: Bool {
        handler.withLock { $0 != nil }
    }

    /// Takes the handler out; `nil` when the alarm already rang or was cancelled.
    package func take() -> Handler? {
        handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
    }

    /// Calls the handler unless the alarm already rang or was cancelled.
    package func ring(_ event: NotificationClockEvent) {
        take()?(event)
    }
}
