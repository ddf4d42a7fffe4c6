import CoreLocation
import DBus
import Foundation
import UserNotifications

/// The kinds of record the agent's interface carries, each with its reader and writer in
/// ``AgentPayload``.
enum AgentRecordKind: Int, CaseIterable, Sendable {
    case request, requests, content, notification, notifications, categories, response

    /// Whether the kind is a list (`aa{sv}`) rather than one record (`a{sv}`).
    var isList: Bool { self == .requests || self == .notifications || self == .categories }
}

/// Valid records of every kind, made by `AgentPayload.encode` from values that set every
/// field the interface has: the corpus that ``FuzzTarget/agentPayload()`` mutates.
/// Notifications, responses and push triggers have no public initialisers, so they are read
/// from records built from encoded requests (then encoded again).
enum AgentRecordCorpus {
    /// The corpus, by kind; each entry is one record or one list of records.
    static let entries: [AgentRecordKind: [[AgentPayload.Record]]] = make()

    private static func make() -> [AgentRecordKind: [[AgentPayload.Record]]] {
        let requests = self.requests()
        let requestRecords = requests.compactMap { try? AgentPayload.encode($0) }
        var entries: [AgentRecordKind: [[AgentPayload.Record]]] = [:]
        entries[.request] = requestRecords.map { [$0] }
        entries[.requests] = [[], requestRecords, Array(requestRecords.prefix(2))]
        entries[.content] = requests.compactMap { try? AgentPayload.encode($0.content) }.map { [$0] }
        let notifications = requestRecords.enumerated().compactMap { index, record in
            try? AgentPayload.notification(from: ["date": .double(Double(index) * 86_400.5 - 1e9), "request": record.dbusValue])
        }
        let notificationRecords = notifications.compactMap { try? AgentPayload.encode($0) }
        entries[.notification] = notificationRecords.map { [$0] }
        entries[.notifications] = [[], (try? AgentPayload.encode(notifications)) ?? []]
        entries[.categories] = [(try? AgentPayload.encode(categories())) ?? [], [], (try? AgentPayload.encode(Set(categories().prefix(1)))) ?? []]
        var responses: [AgentPayload.Record] = []
        for (index, notification) in notificationRecords.prefix(4).enumerated() {
            var plain: AgentPayload.Record = ["notification": notification.dbusValue, "actionIdentifier": .string(UNNotificationDefaultActionIdentifier)]
            if index.isMultiple(of: 2) { plain["activationToken"] = .string("token-\(index)") }
            var text: AgentPayload.Record = ["notification": notification.dbusValue, "actionIdentifier": .string("reply")]
            text["userText"] = .string(index == 0 ? "" : "Sure — 5 minutes 👍")
            for record in [plain, text] {
                if let response = try? AgentPayload.response(from: record), let encoded = try? AgentPayload.encode(response) {
                    responses.append(encoded)
                }
            }
        }
        entries[.response] = responses.map { [$0] }
        return entries
    }

    /// A PNG file for attachments (the file is read when the attachment is made, not after).
    private static func attachmentFile() -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("notify-fuzz-record-\(getpid()).png")
        try? Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 64)).write(to: url)
        return url
    }

    private static func requests() -> [UNNotificationRequest] {
        let plain = UNMutableNotificationContent()
        plain.title = "Standup"

        let full = UNMutableNotificationContent()
        full.title = "Game request"
        full.subtitle = "Five card draw"
        full.body = "Bob wants to play poker — %@ 100%"
        full.badge = 42
        full.sound = UNNotificationSound.defaultCriticalSound(withAudioVolume: 0.25)
        let file = attachmentFile()
        full.attachments = [
            try? UNNotificationAttachment(identifier: "picture", url: file, options: [
                UNNotificationAttachmentOptionsThumbnailClippingRectKey: ["X": 0.25, "Y": 0.125, "Width": 0.5, "Height": 0.75],
                UNNotificationAttachmentOptionsThumbnailHiddenKey: true,
            ]),
            try? UNNotificationAttachment(identifier: "", url: file, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.png"]),
        ].compactMap { $0 }
        try? FileManager.default.removeItem(at: file)
        full.userInfo = [
            "string": "text ✓", "integer": -7, "big": Int.max, "double": 2.5, "flag": true, "date": Date(timeIntervalSinceReferenceDate: 1234.5),
            "data": Data([0, 1, 0xFF]), "empty": "",
            "list": [1, "two", 3.5, false, Date(timeIntervalSinceReferenceDate: -1), Data(), [["deep": [1, [2, [3]]]]]] as [Any],
            "nested": ["a": ["b": ["c": "d"]], "numbers": [Int.min, 0]] as [String: Any],
        ]
        full.categoryIdentifier = "game"
        full.threadIdentifier = "game-1"
        full.launchImageName = "start.png"
        full.targetContentIdentifier = "chat/7"
        full.interruptionLevel = .timeSensitive
        full.relevanceScore = 0.5
        full.filterCriteria = "work"
        full.summaryArgument = "Bob"
        full.summaryArgumentCount = 3

        let localized = UNMutableNotificationContent()
        localized.title = String.localizedUserNotificationString(forKey: "%@ invited you", arguments: ["Bob"])
        localized.subtitle = String.localizedUserNotificationString(forKey: "plain key", arguments: nil)
        localized.body = String.localizedUserNotificationString(forKey: "%1$@ scored %2$d of %3$u in %4$f", arguments: ["Ann", -42, UInt.max, 1.5])
        localized.sound = UNNotificationSound(named: UNNotificationSoundName("bell.oga"))
        localized.interruptionLevel = .passive

        let critical = UNMutableNotificationContent()
        critical.body = "Fire"
        critical.sound = .defaultCritical
        critical.interruptionLevel = .critical
        critical.badge = 0

        var components = DateComponents()
        components.hour = 9
        components.minute = 30
        components.weekday = 2
        var zoned = DateComponents()
        zoned.calendar = {
            var calendar = Calendar(identifier: .hebrew)
            calendar.timeZone = TimeZone(identifier: "Asia/Jerusalem") ?? .gmt
            calendar.locale = Locale(identifier: "he_IL")
            calendar.firstWeekday = 1
            calendar.minimumDaysInFirstWeek = 4
            return calendar
        }()
        zoned.timeZone = TimeZone(identifier: "America/St_Johns")
        zoned.month = 7
        zoned.day = 14
        zoned.isLeapMonth = false
        var week = DateComponents()
        week.yearForWeekOfYear = 2030
        week.weekOfYear = 12
        week.nanosecond = 5
        week.era = 1
        week.calendar = Calendar(identifier: .iso8601)

        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405), radius: 150, identifier: "office")
        region.notifyOnExit = false

        return [
            UNNotificationRequest(identifier: "plain", content: plain, trigger: nil),
            UNNotificationRequest(identifier: "full", content: full, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true)),
            UNNotificationRequest(identifier: "localized", content: localized, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 0.5, repeats: false)),
            UNNotificationRequest(identifier: "daily", content: critical, trigger: UNCalendarNotificationTrigger(dateMatching: components, repeats: true)),
            UNNotificationRequest(identifier: "zoned", content: plain, trigger: UNCalendarNotificationTrigger(dateMatching: zoned, repeats: false)),
            UNNotificationRequest(identifier: "week", content: full, trigger: UNCalendarNotificationTrigger(dateMatching: week, repeats: false)),
            UNNotificationRequest(identifier: "office", content: localized, trigger: UNLocationNotificationTrigger(region: region, repeats: true)),
            UNNotificationRequest(identifier: "", content: UNNotificationContent(), trigger: nil),
        ] + pushRequest()
    }

    /// A request with a push trigger, which only a record can make.
    private static func pushRequest() -> [UNNotificationRequest] {
        let record: AgentPayload.Record = [
            "identifier": .string("push"), "content": ["body": DBusValue.string("From the server")].dbusValue,
            "trigger": ["kind": DBusValue.string("push")].dbusValue,
        ]
        return (try? AgentPayload.request(from: record)).map { [$0] } ?? []
    }

    private static func categories() -> Set<UNNotificationCategory> {
        [
            UNNotificationCategory(
                identifier: "message",
                actions: [
                    UNTextInputNotificationAction(
                        identifier: "reply", title: "Reply", options: [.authenticationRequired], icon: UNNotificationActionIcon(systemImageName: "mail-reply"),
                        textInputButtonTitle: "Send", textInputPlaceholder: "Message"),
                    UNTextInputNotificationAction(identifier: "quick", title: "", textInputButtonTitle: "", textInputPlaceholder: ""),
                    UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive, .foreground], icon: UNNotificationActionIcon(templateImageName: "trash")),
                ],
                intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "%u new messages",
                categorySummaryFormat: "%u more from %@", options: [.customDismissAction, .hiddenPreviewsShowTitle]),
            UNNotificationCategory(identifier: "meeting", actions: [UNNotificationAction(identifier: "join", title: "Join")], intentIdentifiers: []),
            UNNotificationCategory(identifier: "", actions: [], intentIdentifiers: [], options: []),
        ]
    }
}
