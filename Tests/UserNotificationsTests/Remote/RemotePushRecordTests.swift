import DBus
import Foundation
@testable import UserNotifications
import Testing

@Suite("push.json and Connector2 calls as read from outside")
struct RemotePushRecordTests {
    static let good = #"{"authSecret":"BTBZMqHH6r4Tts7J_aSIgg","privateKey":"q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94","token":"t"}"#

    func decode(_ text: String) throws(RemotePushStoreError) -> RemotePushRecord {
        try RemotePushRecord.decode(Data(text.utf8), path: "push.json")
    }

    @Test("a record reads back its keys; a tampered or oversized one is corrupt")
    func records() throws {
        #expect(try decode(Self.good).keys(path: "push.json").p256dh == RFC8291Example.receiverPublic)
        func tampered(_ change: (String) -> String) -> String { change(Self.good) }
        let bad = [
            tampered { $0.replacingOccurrences(of: #""token":"t""#, with: #""token":"""#) },
            tampered { $0.replacingOccurrences(of: #""token":"t""#, with: #""token":"\#(String(repeating: "x", count: 101))""#) },
            tampered { $0.replacingOccurrences(of: "BTBZMqHH6r4Tts7J_aSIgg", with: "AAAA") },
            tampered { $0.replacingOccurrences(of: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94", with: String(repeating: "_", count: 43)) },
            tampered { $0.replacingOccurrences(of: #""token":"t""#, with: #""token":"t","distributor":"org.example.Evil""#) },
            tampered { $0.replacingOccurrences(of: #""token":"t""#, with: #""token":"t","endpoint":"file:///etc/passwd""#) },
            "[]", String(repeating: " ", count: RemotePushRecord.maximumFileSize + 1),
        ]
        for text in bad {
            #expect(throws: RemotePushStoreError.self, "\(text.prefix(80))") { try decode(text) }
        }
    }

    @Test("Connector2 calls: each malformed one has its typed error")
    func calls() throws {
        let token = ("token", DBusValue.string("t"))
        #expect(try UnifiedPushCall.parse(member: "Unregistered", body: [.variantDictionary([token])]) == .unregistered(token: "t"))
        #expect(try UnifiedPushCall.parse(member: "Message", body: [.variantDictionary([token, ("message", .byteArray([1]))])])
            == .message(token: "t", bytes: Data([1]), id: nil))
        #expect(throws: UnifiedPushCallError.unknownMethod("Register")) { try UnifiedPushCall.parse(member: "Register", body: []) }
        #expect(throws: UnifiedPushCallError.notADictionary) { try UnifiedPushCall.parse(member: "Message", body: [.string("x")]) }
        #expect(throws: UnifiedPushCallError.invalidToken) {
            try UnifiedPushCall.parse(member: "Message", body: [.variantDictionary([("token", .uint32(1))])])
        }
        #expect(throws: UnifiedPushCallError.invalidEndpoint) {
            try UnifiedPushCall.parse(member: "NewEndpoint", body: [.variantDictionary([token, ("endpoint", .string("ftp://x/y"))])])
        }
        #expect(throws: UnifiedPushCallError.missingMessage) {
            try UnifiedPushCall.parse(member: "Message", body: [.variantDictionary([token, ("message", .int32(3))])])
        }
        #expect(throws: UnifiedPushCallError.messageSize(4097)) {
            try UnifiedPushCall.parse(member: "Message", body: [.variantDictionary([token, ("message", .byteArray(Array(repeating: 1, count: 4097)))])])
        }
        #expect(throws: UnifiedPushCallError.invalidID) {
            try UnifiedPushCall.parse(member: "Message", body: [.variantDictionary([token, ("message", .byteArray([1])), ("id", .int64(1))])])
        }
    }
}
