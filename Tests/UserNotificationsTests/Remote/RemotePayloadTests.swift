import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Remote payloads (APNs JSON)")
struct RemotePayloadTests {
    func payload(_ json: String) throws(RemoteNotificationPayload.Failure) -> RemoteNotificationPayload {
        try RemoteNotificationPayload(json: Data(json.utf8))
    }

    @Test("seed 000: an alert string, the default sound and a badge")
    func alertString() throws {
        let parsed = try payload(#"{"aps":{"alert":"Test","sound":"default","badge":1}}"#)
        #expect(parsed.content.body == "Test")
        #expect(parsed.content.title.isEmpty)
        #expect(parsed.content.sound == .default)
        #expect(parsed.content.badge == 1)
        #expect(!parsed.isMutable && !parsed.isSilent)
    }

    @Test("seed 000: an alert dictionary with title, subtitle and body")
    func alertDictionary() throws {
        let parsed = try payload(#"{"aps":{"alert":{"title":"I am title","subtitle":"I am subtitle","body":"I am body"},"sound":"default","badge":1}}"#)
        #expect(parsed.content.title == "I am title")
        #expect(parsed.content.subtitle == "I am subtitle")
        #expect(parsed.content.body == "I am body")
    }

    @Test("seed 000: a category; mutable content; custom keys reach userInfo")
    func categoryAndCustomKeys() throws {
        let category = try payload(#"{"aps":{"alert":"Please say something","category":"saySomething"}}"#)
        #expect(category.content.categoryIdentifier == "saySomething")
        let image = try payload(#"{"aps":{"alert":{"title":"Image Notification","body":"Show me an image from web!"},"mutable-content":1},"image":"https://onevcat.com/assets/images/background-cover.jpg"}"#)
        #expect(image.isMutable)
        #expect(image.content.userInfo["image"] as? String == "https://onevcat.com/assets/images/background-cover.jpg")
        #expect((image.content.userInfo["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
    }

    @Test("JSON nulls are left out of userInfo, at any depth, so a pushed request can be kept and sent to the agent")
    func nullsLeftOut() throws {
        let parsed = try payload(#"{"aps":{"alert":"x"},"gone":null,"kept":{"a":null,"b":[1,null,"c"]}}"#)
        #expect(parsed.content.userInfo["gone"] == nil)
        let kept = try #require(parsed.content.userInfo["kept"] as? [String: Any])
        #expect(kept["a"] == nil)
        #expect((kept["b"] as? [Any])?.count == 2)
        let request = parsed.request(identifier: "n")
        #expect(try AgentPayload.request(from: AgentPayload.encode(request)).trigger is UNPushNotificationTrigger)
    }

    @Test("thread id, interruption level, critical sound, localized keys fall back to their key")
    func moreKeys() throws {
        let parsed = try payload(#"{"aps":{"alert":{"title-loc-key":"GREETING","loc-key":"MESSAGE","loc-args":["Ann"]},"thread-id":"chat-1","interruption-level":"time-sensitive","sound":{"critical":1,"name":"default","volume":0.5}}}"#)
        #expect(parsed.content.title == "GREETING")
        #expect(parsed.content.body == "MESSAGE")
        #expect(parsed.content.threadIdentifier == "chat-1")
        #expect(parsed.content.interruptionLevel == .timeSensitive)
        #expect(parsed.content.sound?.isCritical == true)
    }

    @Test("content-available alone is a silent payload")
    func silent() throws {
        #expect(try payload(#"{"aps":{"content-available":1},"sync":"now"}"#).isSilent)
    }

    @Test("malformed payloads are typed errors", arguments: [
        ("not json", RemoteNotificationPayload.Failure.notAnObject("")),
        ("[1,2]", .notAnObject("")),
        (#"{"alert":"x"}"#, .missingAPS),
        (#"{"aps":{"alert":7}}"#, .wrongType(key: "alert", expected: "a string or a dictionary")),
        (#"{"aps":{"badge":"one"}}"#, .wrongType(key: "badge", expected: "a number")),
        (#"{"aps":{"alert":{"title":3}}}"#, .wrongType(key: "title", expected: "a string")),
        (#"{"aps":{"sound":[1]}}"#, .wrongType(key: "sound", expected: "a string or a dictionary")),
    ])
    func malformed(_ sample: (String, RemoteNotificationPayload.Failure)) {
        do {
            _ = try payload(sample.0)
            Issue.record("\(sample.0) was accepted")
        } catch {
            switch (error, sample.1) {
            case (.notAnObject, .notAnObject): break
            default: #expect(error == sample.1)
            }
        }
    }

    @Test("a delivered payload is a push-triggered request; the same collapse id updates in place")
    func delivery() async throws {
        let fixture = try await CenterFixture()
        let first = try await fixture.center.deliverRemoteNotification(try payload(#"{"aps":{"alert":"1:0"}}"#), collapseIdentifier: "match")
        #expect(first?.trigger is UNPushNotificationTrigger)
        try await fixture.center.deliverRemoteNotification(try payload(#"{"aps":{"alert":"2:0"}}"#), collapseIdentifier: "match")
        let calls = fixture.server.notifications
        #expect(calls.map(\.request.body) == ["1:0", "2:0"])
        #expect(calls[1].request.replacesID == calls[0].id)
        #expect(try await fixture.center.deliverRemoteNotification(try payload(#"{"aps":{"content-available":1}}"#)) == nil)
        #expect(fixture.server.notifications.count == 2)
    }
}
