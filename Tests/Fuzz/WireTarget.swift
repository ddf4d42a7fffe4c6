import DBus
import Foundation

extension FuzzTarget {
    /// `DBusMessage(wire:)`, the wire reader: every message from a bus peer goes through it.
    /// The seeds are marshalled by libdbus; a message it would not marshal becomes an empty
    /// seed, which the check of the seeds before the run reports. Each case is read with
    /// ``wireDescriptors`` as the message's descriptors, so `h` indices resolve or are refused.
    static let wire = FuzzTarget(
        name: "wire",
        seeds: wireSeeds,
        tokens: [
            [0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x04], [0x04, 0x00, 0x00, 0x00],
            Array("l".utf8), Array("B".utf8), Array("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaay".utf8), Array("a{sv}".utf8),
            Array("(((((((((((((((((i)))))))))))))))))".utf8), Array("vvvv".utf8), Array("h".utf8), Array("/o\0".utf8),
            [1, 1, UInt8(ascii: "o"), 0], [8, 1, UInt8(ascii: "g"), 0], [0xC3, 0x28],
        ],
        nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8), [4, 0, 0, 0]],
        run: { bytes throws(FuzzFinding) in
            do {
                let message = try DBusMessage(wire: bytes, fileDescriptors: wireDescriptors)
                _ = message.bodySignature
                return .accepted
            } catch {
                return .refused
            }
        }
    )

    /// Four descriptors of `/dev/null`, the descriptors of every case. libdbus gives each `h` it
    /// marshals an index of its own, so the seed that carries four indexes them in order.
    private static let wireDescriptors: [DBusFileDescriptor] = (0..<4).map { _ in DBusFileDescriptor(taking: open("/dev/null", O_RDONLY | O_CLOEXEC)) }

    private static let notifications = "org.freedesktop.Notifications"
    private static let notificationsPath = "/org/freedesktop/Notifications"

    static var wireSeeds: [[UInt8]] {
        let image = DBusValue.structure([.int32(2), .int32(1), .int32(8), .boolean(true), .int32(8), .int32(4), .byteArray([1, 2, 3, 4, 5, 6, 7, 8])])
        let hints = DBusValue.variantDictionary([
            ("urgency", .byte(2)), ("category", .string("email.arrived")), ("image-data", image),
            ("x", .int32(-5)), ("transient", .boolean(true)), ("value", .double(0.5)), ("nested", .variant(.uint64(7))),
        ])
        let notify: [DBusValue] = [
            .string("Mail"), .uint32(0), .string("mail-unread"), .string("New mail"), .string("From <b>Ann</b>"),
            .stringArray(["default", "Open", "reply", "Reply"]), hints, .int32(-1),
        ]
        let sessions = DBusValue.dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [
            DBusDictionaryEntry(.string("one"), .variantDictionary([("a", .int16(-3)), ("b", .uint16(9))])),
            DBusDictionaryEntry(.string("two"), .variantDictionary([])),
        ])
        let complex: [DBusValue] = [
            sessions,
            .array(element: .structure([.int32, .uint32]), [.structure([.int32(1), .uint32(2)]), .structure([.int32(-1), .uint32(.max)])]),
            .array(element: .array(.string), [.stringArray(["a", "b"]), .stringArray([])]),
            .variant(.variant(.variant(.structure([.string("deep"), .int64(.min)])))),
            .uint64(.max), .objectPath(.root), .byteArray(Array(repeating: 0xAB, count: 300)),
        ]
        let messages: [(LibDBusMarshal.Header, [DBusValue], UInt32)] = [
            (.call(destination: notifications, path: notificationsPath, interface: notifications, member: "Notify"), notify, 7),
            (.signal(sender: ":1.5", path: notificationsPath, interface: notifications, member: "ActionInvoked"), [.uint32(3), .string("reply")], 12),
            (.reply(serial: 7), [.string("dunst"), .string("knopwob"), .string("1.9.0"), .string("1.2")], 8),
            (.error(name: "org.freedesktop.DBus.Error.Failed", replySerial: 9), [.string("it failed")], 10),
            (.reply(serial: 4), complex, 5),
            (.call(destination: notifications, path: notificationsPath, interface: notifications, member: "GetCapabilities"), [], 1),
        ]
        let signatureReply = (try? DBusSignature("a{sv}")).flatMap {
            LibDBusMarshal.marshal(.reply(serial: 2), body: [.signature($0), .boolean(false)], serial: 3)
        }
        let descriptors: [DBusValue] = [
            .unixFileDescriptor(wireDescriptors[0]),
            .dictionary(key: .string, value: .unixFileDescriptor, [DBusDictionaryEntry(.string("icon"), .unixFileDescriptor(wireDescriptors[1]))]),
            .structure([.unixFileDescriptor(wireDescriptors[2]), .unixFileDescriptor(wireDescriptors[3])]),
        ]
        let descriptorReply = LibDBusMarshal.marshal(.reply(serial: 11), body: descriptors, serial: 12)
        return messages.map { LibDBusMarshal.marshal($0.0, body: $0.1, serial: $0.2) ?? [] } + [signatureReply ?? [], descriptorReply ?? []]
    }
}
