import CDBus

extension DBusMessage {
    /// The message as a libdbus message with `serial`, built through libdbus's API: the way
    /// of a message whose body carries descriptors, since libdbus attaches descriptors only as
    /// they are appended (it appends a duplicate; the values keep their own). The caller owns
    /// the result and unrefs it.
    ///
    /// - Throws: ``DBusError/fileDescriptorUnavailable(_:)`` for a descriptor that was taken,
    ///   closed, or could not be duplicated; ``DBusError/rejected(name:message:)`` when libdbus
    ///   runs out of memory.
    func makeLibdbusMessage(serial: UInt32) throws(DBusError) -> OpaquePointer {
        guard let message = dbus_message_new(Int32(kind.rawValue)) else { throw LibdbusAppender.noMemory }
        do throws(DBusError) {
            try fillHeader(of: message)
            dbus_message_set_serial(message, serial)
            var iterator = DBusMessageIter()
            dbus_message_iter_init_append(message, &iterator)
            for value in body { try LibdbusAppender.append(value, to: &iterator) }
        } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }

    private func fillHeader(of message: OpaquePointer) throws(DBusError) {
        func check(_ done: dbus_bool_t) throws(DBusError) {
            guard done != 0 else { throw LibdbusAppender.noMemory }
        }
        if let path { try check(dbus_message_set_path(message, path.rawValue)) }
        if let interface { try check(dbus_message_set_interface(message, interface)) }
        if let member { try check(dbus_message_set_member(message, member)) }
        if let errorName { try check(dbus_message_set_error_name(message, errorName)) }
        if let replySerial { try check(dbus_message_set_reply_serial(message, replySerial)) }
        if let destination { try check(dbus_message_set_destination(message, destination)) }
        if let sender { try check(dbus_message_set_sender(message, sender)) }
        dbus_message_set_no_reply(message, flags.contains(.noReplyExpected) ? 1 : 0)
        dbus_message_set_auto_start(message, flags.contains(.noAutoStart) ? 0 : 1)
        dbus_message_set_allow_interactive_authorization(message, flags.contains(.allowInteractiveAuthorization) ? 1 : 0)
    }
}
