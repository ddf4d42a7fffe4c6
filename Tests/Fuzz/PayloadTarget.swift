import Foundation
import UserNotifications

extension FuzzTarget {
    /// `RemoteNotificationPayload(json:)`: APNs-style JSON, as a program receives it from its
    /// own channel; its localized keys also go through `LocalizedFormat`.
    static let payload = FuzzTarget(
        name: "payload",
        seeds: [
            #"{"aps":{"alert":"Hello"}}"#,
            #"{"aps":{"alert":{"title":"Game Request","subtitle":"Five Card Draw","body":"Bob wants to play poker"},"badge":5,"sound":"default","category":"GAME_INVITATION","thread-id":"game-1"},"gameID":"12345678"}"#,
            #"{"aps":{"alert":{"title-loc-key":"%@ invited you","title-loc-args":["Bob"],"loc-key":"%1$@ and %2$@ scored %3$d","loc-args":["Ann","Bob",42],"launch-image":"start.png"},"sound":{"critical":1,"name":"alarm.caf","volume":0.75},"interruption-level":"time-sensitive","relevance-score":0.5,"mutable-content":1}}"#,
            #"{"aps":{"content-available":1},"update":{"ids":[1,2,3],"nested":{"deep":[true,false,null,1.5e10]}}}"#,
            #"{"aps":{"alert":{"subtitle-loc-key":"%d%%","subtitle-loc-args":[99]},"target-content-id":"chat/7","interruption-level":"passive","badge":0}}"#,
        ].map { Array($0.utf8) },
        tokens: [
            "{", "}", "[", "]", ",", ":", "\"aps\"", "\"alert\"", "\"loc-key\"", "\"loc-args\"", "\"title-loc-args\"",
            "\"sound\"", "\"badge\"", "\"critical\"", "\"volume\"", "\"content-available\"", "\"mutable-content\"",
            "null", "true", "false", "1e999", "-1e999", "\"\\u0000\"", "\"\\ud800\"", "\"%999999999$@\"", "[\"%@\"]",
        ].map { Array($0.utf8) },
        nesting: ["[", "{\"a\":", "{\"aps\":{\"alert\":", "[{\"a\":["].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            do {
                let payload = try RemoteNotificationPayload(json: Data(bytes))
                _ = (payload.content.title, payload.content.body, payload.isSilent)
                return .accepted
            } catch {
                return .refused
            }
        }
    )
}
