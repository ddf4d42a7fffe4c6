import CDBus
@testable import DBus
import Testing

/// A received message is read once: its header as libdbus parsed it, its body by our reader.
/// The result must be the message that parsing the whole bytes gives.
@Suite("Received messages: the header from libdbus, the body from the wire")
struct ReceivedMessageTests {
    /// Messages of every kind and header field, with `body`.
    static func messages(body: [DBusValue]) throws -> [DBusMessage] {
        var call = try DBusMessage.methodCall(
            destination: "org.example.Service", path: DBusObjectPath("/org/example/Object"), interface: "org.example.Iface",
            member: "Do", body: body, flags: [.noReplyExpected, .noAutoStart])
        call.sender = ":1.9"
        var reply = DBusMessage(kind: .methodReturn, flags: .noReplyExpected, body: body)
        reply.replySerial = 7
        reply.destination = ":1.2"
        reply.sender = ":1.9"
        var error = DBusMessage(kind: .error, flags: .noReplyExpected, body: body)
        error.errorName = "org.example.Error.Failed"
        error.replySerial = 8
        error.destination = ":1.2"
        var signal = try DBusMessage.signal(path: DBusObjectPath("/a"), interface: "org.example.I", member: "S", body: body)
        signal.sender = ":1.7"
        return [call, reply, error, signal]
    }

    /// `message` as libdbus holds it after receiving it, with the bytes `dbus_message_marshal` gives.
    static func received<Result>(_ message: DBusMessage, serial: UInt32, _ use: (OpaquePointer, [UInt8]) throws -> Result) throws -> Result {
        let sent = try message.marshal(serial: serial)
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let parsed = sent.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        let raw = try #require(parsed, "libdbus refused the message")
        defer { dbus_message_unref(raw) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        #expect(dbus_message_marshal(raw, &buffer, &length) != 0)
        let marshalled = try #require(buffer)
        defer { dbus_free(marshalled) }
        return try use(raw, [UInt8](UnsafeRawBufferPointer(start: marshalled, count: Int(length))))
    }

    @Test("each kind of message, with each kind of value, reads as parsing the whole bytes reads it", arguments: [nil] + WireCodecTests.samples)
    func sameAsWholeParse(_ value: DBusValue?) throws {
        for message in try Self.messages(body: value.map { [.byte(1), $0] } ?? []) {
            try Self.received(message, serial: 42) { raw, bytes in
                let header = try #require(MessageHeader(received: raw))
                let read = try DBusMessage(received: header, from: raw, bytes: bytes)
                #expect(read == (try DBusMessage(wire: bytes)))
                #expect(read.serial == 42 && read.kind == message.kind && read.flags == message.flags)
                #expect(read.body == message.body && read.errorName == message.errorName && read.destination == message.destination)
            }
        }
    }

    @Test("bytes whose lengths do not add up, or a body that does not fit its signature, are malformed")
    func malformed() throws {
        let message = try Self.messages(body: [.string("text"), .uint32(5)])[3]
        try Self.received(message, serial: 3) { raw, bytes in
            let header = try #require(MessageHeader(received: raw))
            for broken in [Array(bytes.dropLast()), bytes + [0, 0, 0, 0], Array(bytes.prefix(12))] {
                #expect(throws: DBusError.self) { try DBusMessage(received: header, from: raw, bytes: broken) }
            }
            // The body's string length made to run past the end.
            var overlong = bytes
            let bodyStart = bytes.count - 16
            overlong[bodyStart] = 0xFF
            #expect(throws: DBusError.self) { try DBusMessage(received: header, from: raw, bytes: overlong) }
            // A signature the body does not match.
            var other = header
            other.signature = "ss"
            #expect(throws: DBusError.self) { try DBusMessage(received: other, from: raw, bytes: bytes) }
        }
    }
}
