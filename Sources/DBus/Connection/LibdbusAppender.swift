import CDBus

/// Appends values to a libdbus message through its iterators, for the messages that carry
/// descriptors (``DBusMessage/makeLibdbusMessage(serial:)``). The values were marshalled by
/// ``WireWriter`` first, so they fit their types and their limits.
enum LibdbusAppender {
    static let noMemory = DBusError.rejected(name: "org.freedesktop.DBus.Error.NoMemory", message: "libdbus could not build the message")

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) throws(DBusError) {
        switch value {
        case .byte(var byte): try basic("y", &byte, to: &iterator)
        case .boolean(let flag):
            var raw: dbus_bool_t = flag ? 1 : 0
            try basic("b", &raw, to: &iterator)
        case .int16(var number): try basic("n", &number, to: &iterator)
        case .uint16(var number): try basic("q", &number, to: &iterator)
        case .int32(var number): try basic("i", &number, to: &iterator)
        case .uint32(var number): try basic("u", &number, to: &iterator)
        case .int64(var number): try basic("x", &number, to: &iterator)
        case .uint64(var number): try basic("t", &number, to: &iterator)
        case .double(var number): try basic("d", &number, to: &iterator)
        case .string(let text): try string("s", text, to: &iterator)
        case .objectPath(let path): try string("o", path.rawValue, to: &iterator)
        case .signature(let signature): try string("g", signature.rawValue, to: &iterator)
        case .unixFileDescriptor(let descriptor):
            try descriptor.withDescriptor { raw throws(DBusError) in
                var raw = raw
                guard dbus_message_iter_append_basic(&iterator, code("h"), &raw) != 0 else {
                    throw .fileDescriptorUnavailable("libdbus could not duplicate it")
                }
            }
        case .byteArray(let bytes):
            try container("a", signature: "y", in: &iterator) { inner throws(DBusError) in
                let appended = bytes.withUnsafeBufferPointer { buffer in
                    var start = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&inner, code("y"), &start, Int32(buffer.count))
                }
                guard appended != 0 else { throw noMemory }
            }
        case .array(let element, let elements):
            try container("a", signature: element.signature, in: &iterator) { inner throws(DBusError) in
                for element in elements { try append(element, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            try container("a", signature: "{\(key.signature)\(valueType.signature)}", in: &iterator) { inner throws(DBusError) in
                for entry in entries {
                    try container("e", signature: nil, in: &inner) { pair throws(DBusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container("r", signature: nil, in: &iterator) { inner throws(DBusError) in
                for field in fields { try append(field, to: &inner) }
            }
        case .variant(let inner):
            try container("v", signature: inner.type.signature, in: &iterator) { content throws(DBusError) in
                try append(inner, to: &content)
            }
        }
    }

    /// The type code of `character` (`r` a structure, `e` a dictionary entry, as libdbus has them).
    private static func code(_ character: Unicode.Scalar) -> Int32 {
        Int32(character.value)
    }

    private static func basic<Value: BitwiseCopyable>(_ type: Unicode.Scalar, _ value: inout Value, to iterator: inout DBusMessageIter) throws(DBusError) {
        guard dbus_message_iter_append_basic(&iterator, code(type), &value) != 0 else { throw noMemory }
    }

    private static func string(_ type: Unicode.Scalar, _ text: String, to iterator: inout DBusMessageIter) throws(DBusError) {
        let appended = text.withCString { pointer in
            var address: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, code(type), &address)
        }
        guard appended != 0 else { throw noMemory }
    }

    /// Opens a container, fills it with `contents` and closes it; abandons it when filling fails.
    private static func container(
        _ type: Unicode.Scalar, signature: String?, in iterator: inout DBusMessageIter,
        contents: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var inner = DBusMessageIter()
        let opened = signature.map { dbus_message_iter_open_container(&iterator, code(type), $0, &inner) }
            ?? dbus_message_iter_open_container(&iterator, code(type), nil, &inner)
        guard opened != 0 else { throw noMemory }
        do throws(DBusError) {
            try contents(&inner)
        } catch {
            dbus_message_iter_abandon_container(&iterator, &inner)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &inner) != 0 else { throw noMemory }
    }
}
