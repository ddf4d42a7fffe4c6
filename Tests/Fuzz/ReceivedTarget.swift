import CDBus
import DBus

extension FuzzTarget {
    /// `DBusMessage(received:from:bytes:)`, the reader of every message a connection receives
    /// without descriptors: its header as libdbus read it, its body from the bytes. A case
    /// that libdbus takes (`dbus_message_demarshal`, with libdbus's own checks, as when it
    /// reads a socket) is read both ways: the message must be the one the whole-message reader
    /// (`DBusMessage(wire:)`) gives, or both readers must refuse it. The seeds are the wire
    /// target's, less the one with descriptors.
    static let received = FuzzTarget(
        name: "received",
        seeds: Array(wireSeeds.dropLast()),
        tokens: wire.tokens,
        nesting: wire.nesting,
        run: { bytes throws(FuzzFinding) in
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
            }
            guard let raw = parsed else { return .refused }
            defer { dbus_message_unref(raw) }
            guard dbus_message_contains_unix_fds(raw) == 0, let header = MessageHeader(received: raw) else { return .refused }
            var buffer: UnsafeMutablePointer<CChar>?
            var length: Int32 = 0
            guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { return .refused }
            let marshalled = buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                Array(UnsafeBufferPointer(start: $0, count: Int(length)))
            }
            dbus_free(buffer)
            let whole: DBusMessage?
            do {
                whole = try DBusMessage(wire: marshalled)
            } catch {
                whole = nil
            }
            let once: DBusMessage?
            do {
                once = try DBusMessage(received: header, from: raw, bytes: marshalled)
            } catch {
                once = nil
            }
            switch (whole, once) {
            case (nil, nil):
                return .refused
            case (let whole?, let once?) where whole.isSame(as: once):
                return .accepted
            default:
                let shown = { (message: DBusMessage?) in message.map { String(String(describing: $0).prefix(600)) } ?? "refused" }
                throw FuzzFinding(description: "the two readers differ: whole \(shown(whole)), header from libdbus \(shown(once))")
            }
        }
    )
}

extension DBusMessage {
    /// Whether the two messages are the same, their bodies compared as
    /// ``DBus/DBusValue/isSame(as:)`` compares values (a NaN as any other NaN).
    func isSame(as other: DBusMessage) -> Bool {
        var header = self
        var otherHeader = other
        header.body = []
        otherHeader.body = []
        return header == otherHeader && body.count == other.body.count && zip(body, other.body).allSatisfy { $0.isSame(as: $1) }
    }
}
