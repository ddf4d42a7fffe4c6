import DBus

/// The behaviour behind a ``NotificationServer``: what to do with each call.
///
/// Every method is called on the connection's executor, in the order the calls arrive, and
/// must not block. Answer through the reply at once or later; a reply never given leaves the
/// caller to its own deadline, which is how a test server plays a hanging peer.
public protocol NotificationServerHandler: Sendable {
    /// `Notify`: answer with the id shown (or updated).
    func notify(_ request: NotifyRequest, sender: String, reply: NotificationServerReply<UInt32>)
    /// `CloseNotification`.
    func closeNotification(id: UInt32, sender: String, reply: NotificationServerReply<Void>)
    /// `GetCapabilities`.
    func capabilities() -> [NotificationCapability]
    /// `GetServerInformation`.
    func serverInformation() -> NotificationServerInformation
}

/// The answer to one call to a ``NotificationServer``; only the first answer counts.
public struct NotificationServerReply<Value>: Sendable {
    let invocation: DBusMethodInvocation

    /// The caller's unique bus name.
    public var caller: String? { invocation.message.sender }

    /// Answers with a D-Bus error, e.g. `org.freedesktop.Notifications.InvalidId`.
    public func fail(name: String, message: String) {
        invocation.fail(name: name, message: message)
    }
}

extension NotificationServerReply where Value == UInt32 {
    /// Answers `Notify` with the notification's id.
    public func succeed(_ id: UInt32) { invocation.reply([.uint32(id)]) }
}

extension NotificationServerReply where Value == Void {
    /// Answers with an empty reply.
    public func succeed() { invocation.reply() }
}
