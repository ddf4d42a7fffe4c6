/// One item of a ``NotificationsClient`` channel: an event of the server, or the reply to a
/// `Notify` posted through the channel, in the order the socket gave them.
///
/// A `Notify` reply and the signals that follow it reach a channel's handler in the order they
/// were received, on the connection's executor, so a consumer never sees a signal for an id
/// before the reply that told it the id, unless the server sent it first.
package struct NotificationChannelItem: Sendable {
    /// What the item carries.
    package enum Kind: Sendable {
        /// An event of the server (or of the client: server changed, disconnected).
        case event(NotificationEvent)
        /// The outcome of ``NotificationsClient/post(_:tag:on:)``, under the tag it was given.
        case posted(tag: UInt64, Result<NotificationPosting, NotificationsError>)
    }

    /// The receive order of this item among all the client's items (from 1, increasing).
    package let sequence: UInt64
    /// The owner of `org.freedesktop.Notifications` as of this item, in the same order.
    package let owner: String?
    /// The event or reply.
    package let kind: Kind
}

/// A consumer's registration with ``NotificationsClient/openChannel(_:)``; the handler is
/// called until ``close()``.
package struct NotificationChannel: Sendable {
    let id: UInt64
    let closeAction: @Sendable () -> Void

    /// Stops the handler's calls.
    package func close() { closeAction() }
}
