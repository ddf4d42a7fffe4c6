import Foundation
import UserNotifications

extension FuzzTarget {
    /// The center's state file, `notifications.json`, read as a center reads it at start-up:
    /// `EngineState.file(in:).load()` (which sets a damaged file aside), then the requests,
    /// notifications and categories rebuilt from what loaded, without the entries that cannot
    /// be honoured (an interval over 100 years, a date out of range), as the engine leaves them
    /// out. One temporary folder, in memory
    /// when /dev/shm exists, holds the file; each case writes the input there first.
    static func stateFile() -> FuzzTarget {
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = URL(fileURLWithPath: parent).appendingPathComponent("notify-fuzz-\(getpid())", isDirectory: true)
        let file = EngineState.file(in: folder)
        return FuzzTarget(
            name: "state",
            seeds: stateSeeds.map { Array($0.utf8) },
            tokens: [
                "{", "}", "[", "]", ",", ":", "null", "true", "1e999", "-1", "\"formatVersion\"", "\"value\"", "\"pending\"",
                "\"delivered\"", "\"categories\"", "\"request\"", "\"content\"", "\"trigger\"", "\"localizations\"",
                "\"circular\":false", "\"radius\":-1", "\"latitude\":1e308",
                "\"arguments\"", "\"bundlePath\":\"/\"", "\"bundlePath\":\"/proc/self\"", "{\"string\":{\"_0\":\"%999999999$@\"}}",
                "{\"integer\":{\"_0\":9223372036854775807}}", "{\"double\":{\"_0\":1e308}}", "\"key\":\"%1$@%2$d%3$f\"",
                "9223372036854775807", "-9223372036854775808", "18446744073709551615", "\"\\u0000\"", "\"\\ud800\"",
            ].map { Array($0.utf8) },
            nesting: ["[", "{\"a\":", "{\"array\":{\"_0\":[", "{\"dictionary\":{\"_0\":{\"k\":"].map { Array($0.utf8) },
            run: { bytes throws(FuzzFinding) in
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(bytes).write(to: file.url)
                    switch try file.load() {
                    case .loaded(let state):
                        let objects = state.makeObjects()
                        _ = objects.pending.map(\.content.body) + objects.delivered.map(\.request.content.title)
                        // What was kept can be scheduled: its next date is computed without a trap.
                        for trigger in objects.pending.compactMap({ $0.trigger as? UNTimeIntervalNotificationTrigger }) {
                            _ = trigger.nextTriggerDate()
                        }
                        // A location request's region is checked as the engine checks it at
                        // restore; one that passes is classified against a fix.
                        for trigger in objects.pending.compactMap({ $0.trigger as? UNLocationNotificationTrigger }) {
                            let record = trigger.regionRecord
                            guard record.problem == nil else { continue }
                            _ = trigger.region
                            if let fix = LocationFix(latitude: 0, longitude: 0, accuracy: 10) {
                                _ = RegionMonitor<String>.classify(fix, in: record)
                            }
                        }
                        return .accepted
                    case .setAside(_, let movedTo):
                        try FileManager.default.removeItem(at: movedTo)
                        return .refused
                    case .fresh:
                        throw FuzzFinding(description: "the file just written was not found")
                    }
                } catch let finding as FuzzFinding {
                    throw finding
                } catch {
                    throw FuzzFinding(description: "the state folder failed (not the input's fault): \(error)")
                }
            },
            cleanUp: { try? FileManager.default.removeItem(at: folder) }
        )
    }

    private static let content = #"""
        {"title":"Standup","subtitle":"Room 4","body":"In %d minutes","badge":3,\#
        "sound":{"kind":"critical","name":"alarm.caf","audioVolume":0.5},"attachments":[],\#
        "userInfo":{"k":{"string":{"_0":"v"}},"n":{"integer":{"_0":5}},"list":{"array":{"_0":[{"bool":{"_0":true}},{"double":{"_0":1.5}}]}},\#
        "when":{"date":{"_0":790000000}},"blob":{"data":{"_0":"AAEC"}},"map":{"dictionary":{"_0":{"x":{"string":{"_0":"y"}}}}}},\#
        "categoryIdentifier":"meeting","threadIdentifier":"work","launchImageName":"","targetContentIdentifier":"room/4",\#
        "interruptionLevel":2,"relevanceScore":0.25,"filterCriteria":"work","summaryArgument":"Ann","summaryArgumentCount":2,\#
        "localizations":{"body":{"key":"%1$@ has %2$d minutes","arguments":[{"string":{"_0":"Ann"}},{"integer":{"_0":5}}]},\#
        "title":{"key":"%@ %u %f","arguments":[{"unsignedInteger":{"_0":7}},{"double":{"_0":2.5}}],"bundlePath":"/nonexistent"}}}
        """#

    private static let stateSeeds: [String] = [
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[],"delivered":[],"categories":[]}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[],"delivered":[],"categories":[],"authorizationStatus":2,"authorizationOptions":7}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[{"request":{"identifier":"r1","content":"#
            + content
            + #","trigger":{"timeInterval":{"_0":60,"repeats":true,"anchorDate":790000000}}},"anchor":790000000,"nextFire":790000060}],"delivered":[],"categories":[]}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[{"request":{"identifier":"r2","content":"#
            + content
            + #","trigger":{"calendar":{"_0":{"hour":9,"minute":30},"repeats":true}}},"anchor":790000000,"nextFire":790040000}],"delivered":[{"notification":{"date":790000000,"request":{"identifier":"d1","content":"#
            + content
            + #","trigger":{"push":{}}}},"server":":1.5","id":7}],"categories":[]}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[],"delivered":[],"categories":[{"identifier":"meeting","actions":[{"identifier":"accept","title":"Accept","options":4,"icon":{"system":{"imageName":"checkmark"}}},{"identifier":"reply","title":"Reply","options":0,"textInput":{"buttonTitle":"Send","placeholder":"Message"}}],"intentIdentifiers":["INSendMessageIntent"],"options":1,"hiddenPreviewsBodyPlaceholder":"%u new","categorySummaryFormat":"%u more from %@"}]}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[{"request":{"identifier":"loc","content":"#
            + content
            + #","trigger":{"location":{"_0":{"identifier":"home","latitude":52.5,"longitude":13.4,"radius":100,"notifyOnEntry":true,"notifyOnExit":false},"repeats":false}}},"anchor":790000000,"nextFire":790000000}],"delivered":[],"categories":[]}}"#,
        #"{"formatVersion":1,"savedAt":"2026-03-14T12:05:01.123Z","value":{"pending":[{"request":{"identifier":"loc2","content":"#
            + content
            + #","trigger":{"location":{"_0":{"identifier":"any","latitude":0,"longitude":0,"radius":0,"notifyOnEntry":true,"notifyOnExit":true,"circular":false},"repeats":true}}},"anchor":790000000,"nextFire":790000000}],"delivered":[],"categories":[]}}"#,
    ]
}
