import Foundation
import UserNotifications

extension FuzzTarget {
    /// The agent's fast reader of request JSON (`FastRequestDecoder`) against `JSONDecoder`:
    /// whatever text the fast reader takes, `JSONDecoder` must take too and read the same value.
    static func requestJSON() -> FuzzTarget {
        FuzzTarget(
            name: "request-json",
            seeds: requestSeeds().map { Array($0.utf8) },
            tokens: [
                "{", "}", "[", "]", ",", ":", " ", "\n", "null", "true", "false", "0", "-0", "1.0", "1e2", "-1", "1e999",
                "18446744073709551615", "9223372036854775808", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud800\"", "\"\\udc00\"",
                "\"\\/\"", "\"\\u0000\"", "\"\u{1}\"", "\"badge\"", "\"trigger\"", "\"push\":{}", "\"anchorDate\"", "\"_0\"",
                "\"repeats\"", "\"sound\"", "\"userInfo\"", "\"attachments\"", "\"interruptionLevel\"", "\"relevanceScore\"",
            ].map { Array($0.utf8) },
            nesting: ["[", "{\"a\":", "{\"content\":", "{\"trigger\":{\"timeInterval\":"].map { Array($0.utf8) },
            run: { bytes throws(FuzzFinding) in
                let json = String(decoding: bytes, as: UTF8.self)
                switch AgentPayload.fastDecoderAgrees(on: json) {
                case nil: return .refused
                case true?: return .accepted
                case false?: throw FuzzFinding(description: "the fast reader and JSONDecoder read different requests")
                }
            }
        )
    }

    /// Requests of the shapes the fast reader takes, encoded by the agent's own coder.
    private static func requestSeeds() -> [String] {
        let content = UNMutableNotificationContent()
        content.title = "Standup \"4\" \\ é 😀"
        content.subtitle = "Room\t4"
        content.body = "In 5 minutes\n"
        content.badge = 3
        content.categoryIdentifier = "meeting"
        content.relevanceScore = 0.25
        content.targetContentIdentifier = "target"
        let immediate = (try? AgentPayload.encode(UNNotificationRequest(identifier: "r", content: content, trigger: nil))) ?? ""
        let later = (try? AgentPayload.encode(UNNotificationRequest(
            identifier: "r", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))) ?? ""
        // The agent's coder writes an anchor date and a push trigger as these; their
        // initializers are the package's own.
        let anchored = later.replacingOccurrences(of: "\"_0\":60,", with: "\"_0\":60,\"anchorDate\":812345678.125,")
        let pushed = later.replacingOccurrences(of: "{\"timeInterval\":{\"_0\":60,\"repeats\":true}}", with: "{\"push\":{}}")
        return [immediate, later, anchored, pushed].filter { !$0.isEmpty }
    }
}
