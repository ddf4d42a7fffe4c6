import Foundation
import Testing
@testable import UserNotifications
@testable import NotificationAgent

@Suite("Queued responses in agent.json")
struct QueuedResponseTests {
    static func response(_ text: String) -> UNNotificationResponse {
        let content = UNMutableNotificationContent()
        content.title = "Queued"
        content.userInfo = ["n": 1]
        let notification = UNNotification(date: Date(timeIntervalSinceReferenceDate: 5_000), request: UNNotificationRequest(identifier: "q", content: content, trigger: nil))
        return UNTextInputNotificationResponse(notification: notification, actionIdentifier: "reply", userText: text, activationToken: nil)
    }

    @Test("a record with queued responses reads back equal")
    func roundTrip() throws {
        var record = AgentAppRecord(identity: ApplicationIdentity(id: "org.example.Queued", displayName: "Queued"))
        record.responses = [QueuedResponse(id: "r1", response: try AgentStoredResponse(Self.response("hi")), queuedAt: Date(timeIntervalSinceReferenceDate: 9))]
        let read = try JSONDecoder().decode(AgentAppRecord.self, from: try JSONEncoder().encode(record))
        #expect(read.responses == record.responses)
        #expect(try AgentPayload.response(from: read.responses[0].response.record).actionIdentifier == "reply")
    }

    @Test("a record an earlier agent wrote, each response as the JSON it travelled in, still reads; a broken one does not")
    func earlierForm() throws {
        let stored = try AgentStoredResponse(Self.response("from before"))
        // The response JSON as earlier agents sent and stored it: the snapshot, keys sorted.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(stored), as: UTF8.self)
        let file: [String: Any] = [
            "displayName": "Queued", "icon": "",
            "responses": [["id": "r0", "json": json, "queuedAt": 12.5]],
        ]
        let read = try JSONDecoder().decode(AgentAppRecord.self, from: try JSONSerialization.data(withJSONObject: file))
        #expect(read.responses.map(\.id) == ["r0"])
        #expect(read.responses.first?.response == stored)
        let broken: [String: Any] = ["displayName": "Queued", "icon": "", "responses": [["id": "r0", "json": "{not json", "queuedAt": 12.5]]]
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(AgentAppRecord.self, from: try JSONSerialization.data(withJSONObject: broken))
        }
    }
}
