import CDBus
import DesktopNotificationsSupport
import Logging

extension ConnectionCore {
    /// The filter: every message libdbus dispatches passes here, in arrival order, on the queue.
    ///
    /// The header is checked first: a message nobody here waits for, subscribes to or serves
    /// is passed on without its body ever being decoded.
    func handleIncoming(_ message: OpaquePointer) -> DBusHandlerResult {
        assertOnQueue()
        if dbus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
            handleDisconnect()
            return DBUS_HANDLER_RESULT_HANDLED
        }
        guard let header = MessageHeader(received: message) else { return DBUS_HANDLER_RESULT_HANDLED }
        guard isWanted(header) else {
            return header.kind == .signal ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let parsed: DBusMessage
        do {
            parsed = try decode(message, header: header)
        } catch {
            return refuseUndecodable(message, header: header, error)
        }
        switch parsed.kind {
        case .methodReturn, .error:
            return completeCall(with: parsed) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .signal:
            deliverSignal(parsed, header: header)
            return DBUS_HANDLER_RESULT_HANDLED
        case .methodCall:
            return handleMethodCall(parsed) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func isWanted(_ header: MessageHeader) -> Bool {
        switch header.kind {
        case .methodReturn, .error: header.replySerial.map { pendingCalls.contains($0) } ?? false
        case .signal: wantsSignal(header)
        case .methodCall: servesCall(header)
        }
    }

    /// The one decode of a message: libdbus's bytes to a ``DBusMessage``, its header taken from
    /// `header` (read through libdbus) for a message without descriptors.
    private func decode(_ message: OpaquePointer, header: MessageHeader) throws(DBusError) -> DBusMessage {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else {
            throw .rejected(name: "org.freedesktop.DBus.Error.NoMemory", message: "could not read a message")
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        // Freed before decoding: a large message is held twice at most, not three times.
        dbus_free(buffer)
        decodedByteCount += bytes.count
        guard dbus_message_contains_unix_fds(message) != 0 else {
            return try DBusMessage(received: header, from: message, bytes: bytes)
        }
        let descriptors = try ReceivedDescriptors(message)
        return try DBusMessage(wire: bytes) { _ throws(DBusError) in try descriptors.next() }
    }

    /// A reply we cannot read fails the call that waits for it; a call we cannot read (for
    /// example one with more descriptors than a message may carry) gets an error reply; a
    /// signal we cannot read is dropped, as there is no one to tell. The descriptors of a
    /// message not read go with it: libdbus closes them when it frees the message.
    private func refuseUndecodable(_ message: OpaquePointer, header: MessageHeader, _ error: DBusError) -> DBusHandlerResult {
        switch header.kind {
        case .methodReturn, .error:
            if let serial = header.replySerial, let call = pendingCalls.remove(serial) {
                call.complete(.failure(error))
            }
        case .methodCall:
            SubsystemLog.dbus.logger.info(
                "a call that could not be decoded was refused",
                metadata: ["member": "\(SubsystemLog.clean(header.member ?? ""))", "error": "\(SubsystemLog.clean(error.description))"])
            guard dbus_message_get_no_reply(message) == 0, let raw else { break }
            if let reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.InvalidArgs", error.description) {
                _ = dbus_connection_send(raw, reply, nil)
                dbus_message_unref(reply)
            }
        case .signal:
            SubsystemLog.dbus.logger.warning(
                "a signal that could not be decoded was dropped",
                metadata: [
                    "sender": "\(SubsystemLog.clean(header.sender ?? ""))", "interface": "\(SubsystemLog.clean(header.interface ?? ""))",
                    "member": "\(SubsystemLog.clean(header.member ?? ""))", "error": "\(SubsystemLog.clean(error.description))",
                ])
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }
}
