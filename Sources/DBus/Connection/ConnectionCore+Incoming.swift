import CDBus

extension ConnectionCore {
    /// The filter: every message libdbus dispatches passes here, in arrival order, on the queue.
    func handleIncoming(_ message: OpaquePointer) -> DBusHandlerResult {
        if dbus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
            handleDisconnect()
            return DBUS_HANDLER_RESULT_HANDLED
        }
        let parsed: DBusMessage
        do {
            parsed = try decode(message)
        } catch {
            return refuseUndecodable(message, error)
        }
        switch parsed.kind {
        case .methodReturn, .error:
            return completeCall(with: parsed) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .signal:
            deliverSignal(parsed)
            return DBUS_HANDLER_RESULT_HANDLED
        case .methodCall:
            return handleMethodCall(parsed) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func decode(_ message: OpaquePointer) throws(DBusError) -> DBusMessage {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else {
            throw .rejected(name: "org.freedesktop.DBus.Error.NoMemory", message: "could not read a message")
        }
        defer { dbus_free(buffer) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        return try DBusMessage(wire: bytes)
    }

    /// A call we cannot read (for example one carrying file descriptors) gets an error reply;
    /// anything else we cannot read is dropped.
    private func refuseUndecodable(_ message: OpaquePointer, _ error: DBusError) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL,
              dbus_message_get_no_reply(message) == 0, let raw else {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if let reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.InvalidArgs", error.description) {
            _ = dbus_connection_send(raw, reply, nil)
            dbus_message_unref(reply)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }
}
