import CDBus

/// The descriptors of a received message's `h` values, in body order, each a duplicate of its
/// own made by libdbus (`dbus_message_iter_get_basic` duplicates the message's descriptor).
///
/// Made only for a message that is decoded: one dropped from its header alone is freed by
/// libdbus with its descriptors, none duplicated. Descriptors not handed to a value (when
/// decoding fails) close with this object.
final class ReceivedDescriptors {
    private var descriptors: [DBusFileDescriptor] = []
    private var nextIndex = 0

    /// Walks `message`'s body for its `h` values, skipping arrays of other basic types.
    ///
    /// - Throws: ``DBusError/tooManyFileDescriptors(limit:)`` past
    ///   ``WireLimits/maxFileDescriptors``; ``DBusError/malformed(_:)`` for an index libdbus
    ///   cannot resolve.
    init(_ message: OpaquePointer) throws(DBusError) {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return }
        try collect(&iterator)
    }

    /// The descriptor of the next `h` value.
    func next() throws(DBusError) -> DBusFileDescriptor {
        guard nextIndex < descriptors.count else { throw .malformed("more file descriptors than libdbus found") }
        defer { nextIndex += 1 }
        return descriptors[nextIndex]
    }

    /// The type codes that may hold an `h`: itself and the containers (`r` a structure, `e` a
    /// dictionary entry, as libdbus has them).
    private static let mayHoldDescriptors: Set<Int32> = Set("harev".unicodeScalars.map { Int32($0.value) })
    private static let array = Int32(Unicode.Scalar("a").value)
    private static let descriptor = Int32(Unicode.Scalar("h").value)

    private func collect(_ iterator: inout DBusMessageIter) throws(DBusError) {
        repeat {
            let type = dbus_message_iter_get_arg_type(&iterator)
            if type == Self.descriptor {
                try take(&iterator)
            } else if Self.mayHoldDescriptors.contains(type),
                      type != Self.array || Self.mayHoldDescriptors.contains(dbus_message_iter_get_element_type(&iterator)) {
                try recurse(into: &iterator)
            }
        } while dbus_message_iter_next(&iterator) != 0
    }

    private func recurse(into iterator: inout DBusMessageIter) throws(DBusError) {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        try collect(&inner)
    }

    private func take(_ iterator: inout DBusMessageIter) throws(DBusError) {
        guard descriptors.count < WireLimits.maxFileDescriptors else {
            throw .tooManyFileDescriptors(limit: WireLimits.maxFileDescriptors)
        }
        var raw: Int32 = -1
        dbus_message_iter_get_basic(&iterator, &raw)
        guard raw >= 0 else {
            throw .fileDescriptorUnavailable("libdbus could not duplicate it, or its index is past the message's descriptors")
        }
        descriptors.append(DBusFileDescriptor(taking: raw))
    }
}
