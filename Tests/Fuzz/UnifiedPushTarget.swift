import DBus
import Foundation
import UserNotifications

extension FuzzTarget {
    /// A call a bus peer makes on the app's (or the agent's) `org.unifiedpush.Connector2`: the
    /// wire bytes through `DBusMessage(wire:)`, then `UnifiedPushCall.parse`. The seeds are
    /// marshalled by libdbus: `NewEndpoint`, `Message` (`ay` and `s`, with and without an id)
    /// and `Unregistered`.
    static let unifiedPushCall = FuzzTarget(
        name: "unifiedpush-call",
        seeds: unifiedPushSeeds,
        tokens: [
            [0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x10, 0x00, 0x00], Array("a{sv}".utf8), Array("ay".utf8), Array("token".utf8),
            Array("message".utf8), Array("endpoint".utf8), Array("https://".utf8), [1, UInt8(ascii: "s"), 0], [2, UInt8(ascii: "a"), UInt8(ascii: "y"), 0],
        ],
        nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8)],
        run: { bytes throws(FuzzFinding) in
            guard let message = try? DBusMessage(wire: bytes) else { return .refused }
            do {
                let call = try UnifiedPushCall.parse(member: message.member, body: message.body)
                guard !call.token.isEmpty, call.token.utf8.count <= 100 else { throw FuzzFinding(description: "an unbounded token was accepted") }
                if case .message(_, let data, _) = call, data.isEmpty || data.count > 4096 {
                    throw FuzzFinding(description: "a message of \(data.count) bytes was accepted")
                }
                return .accepted
            } catch let finding as FuzzFinding {
                throw finding
            } catch {
                return .refused
            }
        })

    private static var unifiedPushSeeds: [[UInt8]] {
        let path = "/org/unifiedpush/Connector"
        let interface = "org.unifiedpush.Connector2"
        let token = DBusValue.string("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        let calls: [(String, [(String, DBusValue)])] = [
            ("NewEndpoint", [("token", token), ("endpoint", .string("https://push.example.test/up/abc"))]),
            ("Message", [("token", token), ("message", .byteArray(Array(repeating: 0x5A, count: 120))), ("id", .string("m-1"))]),
            ("Message", [("token", token), ("message", .string("text message"))]),
            ("Unregistered", [("token", token)]),
        ]
        return calls.enumerated().map { index, call in
            LibDBusMarshal.marshal(
                .call(destination: "org.example.App", path: path, interface: interface, member: call.0),
                body: [.variantDictionary(call.1)], serial: UInt32(index + 1)) ?? []
        }
    }

    /// `push.json`, the keys and registration an app (or the agent, for each app) keeps:
    /// `RemotePushRecord.decode`, bounded, with its keys checked.
    static let pushRecord = FuzzTarget(
        name: "push-record",
        seeds: [
            #"{"authSecret":"BTBZMqHH6r4Tts7J_aSIgg","privateKey":"q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94","token":"t-1"}"#,
            #"{"authSecret":"BTBZMqHH6r4Tts7J_aSIgg","distributor":"org.unifiedpush.Distributor.fake","endpoint":"https://push.example.test/up/1","privateKey":"q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94","token":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}"#,
        ].map { Array($0.utf8) },
        tokens: [
            "{", "}", "\"", ",", ":", "null", "\"\"", "\"privateKey\"", "\"authSecret\"", "\"token\"", "\"endpoint\"", "\"=\"", "\"AAAA\"",
            "\"__________________________________________8\"", "\"org.unifiedpush.Distributor.\"", "\"http://\"",
        ].map { Array($0.utf8) },
        nesting: ["{\"a\":", "["].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            guard let record = try? RemotePushRecord.decode(Data(bytes), path: "push.json") else { return .refused }
            guard (try? record.keys(path: "push.json")) != nil else { throw FuzzFinding(description: "a record with unusable keys was accepted") }
            return .accepted
        })
}
