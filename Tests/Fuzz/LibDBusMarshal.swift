import CDBus
import DBus

/// Marshals messages with libdbus: the encoder that every incoming message the connection
/// parses went through, so the wire seeds are exactly what a peer's bytes look like.
enum LibDBusMarshal {
    enum Header {
        case call(destination: String, path: String, interface: String, member: String)
        case signal(sender: String, path: String, interface: String, member: String)
        case reply(serial: UInt32)
        case error(name: String, replySerial: UInt32)
    }

    /// The marshalled message, or `nil` when libdbus refuses it (a bad name, a bad value).
    static func marshal(_ header: Header, body: [DBusValue], serial: UInt32) -> [UInt8]? {
        guard let message = makeMessage(header) else { return nil }
        defer { dbus_message_unref(message) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in body {
            guard append(value, to: &iterator) else { return nil }
        }
        dbus_message_set_serial(message, serial)
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else { return nil }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    private static func makeMessage(_ header: Header) -> OpaquePointer? {
        switch header {
        case .call(let destination, let path, let interface, let member):
            return dbus_message_new_method_call(destination, path, interface, member)
        case .signal(let sender, let path, let interface, let member):
            let message = dbus_message_new_signal(path, interface, member)
            if let message { dbus_message_set_sender(message, sender) }
            return message
        case .reply(let serial):
            let message = dbus_message_new(Int32(DBUS_MESSAGE_TYPE_METHOD_RETURN))
            if let message { dbus_message_set_reply_serial(message, serial) }
            return message
        case .error(let name, let replySerial):
            let message = dbus_message_new(Int32(DBUS_MESSAGE_TYPE_ERROR))
            if let message {
                dbus_message_set_error_name(message, name)
                dbus_message_set_reply_serial(message, replySerial)
            }
            return message
        }
    }

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var byte): return dbus_message_iter_append_basic(&iterator, code("y"), &byte) != 0
        case .boolean(let flag):
            var raw: dbus_bool_t = flag ? 1 : 0
            return dbus_message_iter_append_basic(&iterator, code("b"), &raw) != 0
        case .int16(var number): return dbus_message_iter_append_basic(&iterator, code("n"), &number) != 0
        case .uint16(var number): return dbus_message_iter_append_basic(&iterator, code("q"), &number) != 0
        case .int32(var number): return dbus_message_iter_append_basic(&iterator, code("i"), &number) != 0
        case .uint32(var number): return dbus_message_iter_append_basic(&iterator, code("u"), &number) != 0
        case .int64(var number): return dbus_message_iter_append_basic(&iterator, code("x"), &number) != 0
        case .uint64(var number): return dbus_message_iter_append_basic(&iterator, code("t"), &number) != 0
        case .double(var number): return dbus_message_iter_append_basic(&iterator, code("d"), &number) != 0
        case .string(let text): return appendText(text, code: code("s"), to: &iterator)
        case .objectPath(let path): return appendText(path.rawValue, code: code("o"), to: &iterator)
        case .signature(let signature): return appendText(signature.rawValue, code: code("g"), to: &iterator)
        case .unixFileDescriptor(let descriptor):
            let appended = try? descriptor.withDescriptor { raw in
                var raw = raw
                return dbus_message_iter_append_basic(&iterator, code("h"), &raw) != 0
            }
            return appended ?? false
        case .byteArray(let bytes):
            return appendContainer(code("a"), signature: "y", to: &iterator) { inner in
                bytes.allSatisfy { append(.byte($0), to: &inner) }
            }
        case .array(let element, let elements):
            return appendContainer(code("a"), signature: element.signature, to: &iterator) { inner in
                elements.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            return appendContainer(code("a"), signature: "{\(key.signature)\(valueType.signature)}", to: &iterator) { inner in
                entries.allSatisfy { entry in
                    appendContainer(code("e"), signature: nil, to: &inner) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            return appendContainer(code("r"), signature: nil, to: &iterator) { inner in
                fields.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            return appendContainer(code("v"), signature: inner.type.signature, to: &iterator) { content in
                append(inner, to: &content)
            }
        }
    }

    private static func appendText(_ text: String, code: Int32, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            var address: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, code, &address) != 0
        }
    }

    private static func appendContainer(
        _ type: Int32, signature: String?, to iterator: inout DBusMessageIter, contents: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened = signature.map { dbus_message_iter_open_container(&iterator, type, $0, &inner) }
            ?? dbus_message_iter_open_container(&iterator, type, nil, &inner)
        guard opened != 0 else { return false }
        let filled = contents(&inner)
        guard dbus_message_iter_close_container(&iterator, &inner) != 0 else { return false }
        return filled
    }
}
