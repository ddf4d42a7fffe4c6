import Foundation
import UserNotifications

extension FuzzTarget {
    /// The JSON a bus peer hands the agent (`Add`, `SetCategories`) or the agent hands a center
    /// (`WillPresent`, `Response`, the lists) or a center answers (`ServiceExtension`'s content): `AgentPayload`'s decoders, one after the other. An
    /// accepted request must survive its own encoding with its identifier.
    static func agentPayload() -> FuzzTarget {
        FuzzTarget(
            name: "agent-payload",
            seeds: agentSeeds().map { Array($0.utf8) },
            tokens: [
                "{", "}", "[", "]", ",", ":", "null", "true", "1e999", "-1", "\"identifier\"", "\"content\"", "\"trigger\"",
                "\"actions\"", "\"options\"", "\"userInfo\"", "{\"string\":{\"_0\":\"%999999999$@\"}}", "\"\\u0000\"",
                "\"\\ud800\"", "9223372036854775807", "{\"timeInterval\":{\"_0\":-1,\"repeats\":true}}",
            ].map { Array($0.utf8) },
            nesting: ["[", "{\"a\":", "{\"array\":{\"_0\":[", "{\"dictionary\":{\"_0\":{\"k\":"].map { Array($0.utf8) },
            run: { bytes throws(FuzzFinding) in
                let json = String(decoding: bytes, as: UTF8.self)
                if let request = try? AgentPayload.request(from: json) {
                    let again: UNNotificationRequest
                    do {
                        again = try AgentPayload.request(from: AgentPayload.encode(request))
                    } catch {
                        throw FuzzFinding(description: "an accepted request does not survive its own encoding: \(error)")
                    }
                    guard again.identifier == request.identifier else {
                        throw FuzzFinding(description: "identifier \(request.identifier) came back as \(again.identifier)")
                    }
                    return .accepted
                }
                let accepted = (try? AgentPayload.requests(from: json)) != nil
                    || (try? AgentPayload.notification(from: json)) != nil
                    || (try? AgentPayload.notifications(from: json)) != nil
                    || (try? AgentPayload.categories(from: json)) != nil
                    || (try? AgentPayload.response(from: json)) != nil
                    || (try? AgentPayload.content(from: json)) != nil
                return accepted ? .accepted : .refused
            }
        )
    }

    /// Valid payloads of each kind, encoded by the agent's own coder.
    private static func agentSeeds() -> [String] {
        let content = UNMutableNotificationContent()
        content.title = "Standup"
        content.subtitle = "Room 4"
        content.body = "In 5 minutes"
        content.categoryIdentifier = "meeting"
        content.userInfo = ["k": "v", "n": 5, "list": [true, 1.5]]
        let later = UNNotificationRequest(
            identifier: "later", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true))
        let now = UNNotificationRequest(identifier: "now", content: content, trigger: nil)
        let category = UNNotificationCategory(
            identifier: "meeting",
            actions: [UNNotificationAction(identifier: "ok", title: "OK", options: [.foreground]),
                      UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [],
                                                    textInputButtonTitle: "Send", textInputPlaceholder: "…")],
            intentIdentifiers: [], options: [.customDismissAction])
        return [
            (try? AgentPayload.encode(later)) ?? "",
            (try? AgentPayload.encode([later, now])) ?? "",
            (try? AgentPayload.encode(Set([category]))) ?? "",
        ].filter { !$0.isEmpty }
    }
}
