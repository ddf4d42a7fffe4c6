import CoreLocation
import DBus
import Foundation
import UserNotifications

extension FuzzTarget {
    /// The records a bus peer hands the agent (`Add`, `AddRequests`, `SetCategories`) or the
    /// agent hands a center (`WillPresent`, `Response`, the lists) or a center answers
    /// (`ServiceExtension`'s content): each input is read as a message (`DBusMessage(wire:)`,
    /// the reader the connection uses), and its first body value goes to every `AgentPayload`
    /// reader of its shape (`a{sv}`: request, content, notification, response; `aa{sv}`:
    /// requests, notifications, categories). Whatever a reader takes must be written again by
    /// `AgentPayload.encode` to a record that reads back to the same record once more: a
    /// reader that takes what its writer cannot make, loses a field on the way, or reads its own
    /// record differently, is a finding. No reader may trap on anything.
    static func agentPayload() -> FuzzTarget {
        FuzzTarget(
            name: "agent-payload",
            seeds: agentPayloadSeeds(),
            tokens: [
                [0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0xF0, 0x7F], Array("a{sv}".utf8), Array("aa{sv}".utf8), Array("(d)".utf8),
                Array("(ay)".utf8), Array("ay".utf8), Array("av".utf8), Array("x".utf8), Array("t".utf8), Array("identifier".utf8),
                Array("content".utf8), Array("trigger".utf8), Array("kind".utf8), Array("interval".utf8), Array("calendar".utf8),
                Array("location".utf8), Array("userInfo".utf8), Array("dateComponents".utf8), Array("timeZone".utf8),
                Array("Mars/Olympus".utf8), Array("textInput".utf8), [0xC3, 0x28],
            ],
            nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8), Array("a{sv}".utf8)],
            run: { bytes throws(FuzzFinding) in
                guard let message = try? DBusMessage(wire: bytes), let value = message.body.first else { return .refused }
                var taken = false
                if let record = try? AgentPayload.Record.reading(value) {
                    taken = try checkRecord(record) || taken
                }
                if let records = try? [AgentPayload.Record].reading(value) {
                    taken = try checkRecords(records) || taken
                }
                return taken ? .accepted : .refused
            }
        )
    }

    /// Runs the `a{sv}` readers on `record`; `true` when one took it.
    private static func checkRecord(_ record: AgentPayload.Record) throws(FuzzFinding) -> Bool {
        var taken = false
        if let request = try? AgentPayload.request(from: record) {
            try again("request", request, encode: AgentPayload.encode) { record throws(NotificationAgentError) in try AgentPayload.request(from: record) }
            taken = true
        }
        if let content = try? AgentPayload.content(from: record) {
            try again("content", content, encode: AgentPayload.encode) { record throws(NotificationAgentError) in try AgentPayload.content(from: record) }
            taken = true
        }
        if let notification = try? AgentPayload.notification(from: record) {
            try again("notification", notification, encode: AgentPayload.encode) { record throws(NotificationAgentError) in
                try AgentPayload.notification(from: record)
            }
            taken = true
        }
        if let response = try? AgentPayload.response(from: record) {
            try again("response", response, encode: AgentPayload.encode) { record throws(NotificationAgentError) in try AgentPayload.response(from: record) }
            taken = true
        }
        return taken
    }

    /// Runs the `aa{sv}` readers on `records`; `true` when one took them.
    private static func checkRecords(_ records: [AgentPayload.Record]) throws(FuzzFinding) -> Bool {
        var taken = false
        if let requests = try? AgentPayload.requests(from: records) {
            try again("requests", requests, encode: AgentPayload.encode) { records throws(NotificationAgentError) in try AgentPayload.requests(from: records) }
            taken = true
        }
        if let notifications = try? AgentPayload.notifications(from: records) {
            try again("notifications", notifications, encode: AgentPayload.encode) { records throws(NotificationAgentError) in
                try AgentPayload.notifications(from: records)
            }
            taken = true
        }
        if let categories = try? AgentPayload.categories(from: records) {
            try again("categories", categories, encode: AgentPayload.encode) { records throws(NotificationAgentError) in
                try AgentPayload.categories(from: records)
            }
            taken = true
        }
        return taken
    }

    /// Writes `value` (which a reader took), reads the record back and writes it once more:
    /// the two records must be the same, so nothing is lost or changed on the way.
    private static func again<Value, Encoded: Equatable>(
        _ name: String, _ value: Value, encode: (Value) throws -> Encoded, read: (Encoded) throws(NotificationAgentError) -> Value
    ) throws(FuzzFinding) {
        let first: Encoded
        do {
            first = try encode(value)
        } catch {
            // A value can be taken and still not travel back: over the argument limit once
            // written with its defaults, or a trigger the writer refuses as `add` would.
            return
        }
        let second: Encoded
        do {
            second = try encode(try read(first))
        } catch {
            throw FuzzFinding(description: "\(name): its own record does not read back: \(error)")
        }
        guard first == second else { throw FuzzFinding(description: "\(name): the record changes when read back and written again") }
    }

    /// Valid records of each kind, written by the agent's own writer, each as the first value
    /// of a message marshalled by libdbus: every field and trigger kind, user info of every
    /// type, text-input actions and responses.
    private static func agentPayloadSeeds() -> [[UInt8]] {
        let content = UNMutableNotificationContent()
        content.title = "Standup \u{0}"
        content.subtitle = "Room 4"
        content.body = "In 5 minutes"
        content.badge = 3
        content.sound = UNNotificationSound.criticalSoundNamed(UNNotificationSoundName("bell.ogg"), withAudioVolume: 0.5)
        content.categoryIdentifier = "meeting"
        content.threadIdentifier = "team"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.5
        content.filterCriteria = "work"
        content.summaryArgument = "Ann"
        content.summaryArgumentCount = 2
        content.userInfo = [
            "k": "v", "n": 5, "list": [true, 1.5, "x\u{0}"] as [Any], "date": Date(timeIntervalSinceReferenceDate: 3),
            "data": Data([0, 255]), "nested": ["deeper": [1, 2]] as [String: Any],
        ]
        var components = DateComponents()
        components.hour = 9
        components.minute = 30
        components.timeZone = TimeZone(identifier: "Europe/Paris")
        components.calendar = Calendar(identifier: .gregorian)
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.85, longitude: 2.35), radius: 100, identifier: "paris")
        let triggers: [UNNotificationTrigger?] = [
            nil, UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true),
            UNCalendarNotificationTrigger(dateMatching: components, repeats: true), UNLocationNotificationTrigger(region: region, repeats: false),
        ]
        let requests = triggers.enumerated().map { UNNotificationRequest(identifier: "r\($0.offset)", content: content, trigger: $0.element) }
        let category = UNNotificationCategory(
            identifier: "meeting",
            actions: [
                UNNotificationAction(identifier: "ok", title: "OK", options: [.foreground], icon: UNNotificationActionIcon(systemImageName: "checkmark")),
                UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "…"),
            ],
            intentIdentifiers: ["intent"], options: [.customDismissAction])
        var values: [DBusValue] = requests.compactMap { try? AgentPayload.encode($0).dbusValue }
        // A delivered notification and a text response, as the agent writes them around a request.
        let notification: AgentPayload.Record = ["date": .double(7), "request": ((try? AgentPayload.encode(requests[0])) ?? [:]).dbusValue]
        let response: AgentPayload.Record = [
            "notification": notification.dbusValue, "actionIdentifier": .string("reply"), "userText": .string("yes"), "activationToken": .string("t"),
        ]
        // A pushed request (its trigger has no public initializer).
        let pushed: AgentPayload.Record = ["identifier": .string("pushed"), "trigger": (["kind": .string("push")] as AgentPayload.Record).dbusValue]
        values.append(contentsOf: [
            pushed.dbusValue, (try? AgentPayload.encode(requests))?.dbusValue, (try? AgentPayload.encode(content as UNNotificationContent))?.dbusValue,
            notification.dbusValue, [notification].dbusValue, (try? AgentPayload.encode(Set([category])))?.dbusValue, response.dbusValue,
        ].compactMap { $0 })
        return values.enumerated().compactMap { index, value in
            LibDBusMarshal.marshal(
                .call(destination: "org.desktopnotifications.Agent", path: "/org/desktopnotifications/Agent", interface: "org.desktopnotifications.Agent1", member: "Add"),
                body: [value], serial: UInt32(index + 1))
        }
    }
}
