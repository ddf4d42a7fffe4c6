import CoreLocation
import Foundation
import Testing
@testable import UserNotifications

/// The center stores pending and delivered notifications and the registered categories as
/// these records; what comes back must equal what went in.
@Suite("Snapshot records for the store")
struct SnapshotRoundTripTests {
    @Test func contentRoundTripsWithEveryField() throws {
        let directory = try TemporaryDirectory()
        let content = fullySetContent()
        content.attachments = [try UNNotificationAttachment(
            identifier: "image",
            url: directory.file(named: "photo.png", header: FileHeader.png),
            options: [UNNotificationAttachmentOptionsThumbnailHiddenKey: true]
        )]

        let restored = try jsonRoundTrip(NotificationContentSnapshot(content)).makeContent()

        #expect(restored == content)
        #expect(restored.attachments.first?.isThumbnailHidden == true)
    }

    @Test func userInfoKeepsNumbersBooleansDatesAndDataApart() throws {
        let content = UNMutableNotificationContent()
        let date = Date(timeIntervalSince1970: 1_234_567)
        content.userInfo = [
            "int": 7, "int32": Int32(8), "double": 2.5, "bool": true,
            "nsTrue": NSNumber(value: true), "nsInt": NSNumber(value: 9), "nsDouble": NSNumber(value: 0.5),
            "date": date, "data": Data([1, 2, 3]), "string": "s" as NSString,
        ]

        let userInfo = try jsonRoundTrip(NotificationContentSnapshot(content)).makeContent().userInfo

        #expect(userInfo["int"] as? Int == 7 && userInfo["int32"] as? Int == 8)
        #expect(userInfo["double"] as? Double == 2.5 && userInfo["nsDouble"] as? Double == 0.5)
        #expect(userInfo["bool"] as? Bool == true && userInfo["nsTrue"] as? Bool == true)
        #expect(userInfo["nsInt"] as? Int == 9)
        #expect(userInfo["date"] as? Date == date && userInfo["data"] as? Data == Data([1, 2, 3]))
        #expect(userInfo["string"] as? String == "s")
    }

    @Test func unstorableUserInfoValueIsNamedByItsKeyPath() {
        let content = UNMutableNotificationContent()
        content.userInfo = ["payload": ["items": ["fine", NSObject()]]]
        #expect(throws: UserInfoStorageError.valueNotStorable(keyPath: "userInfo.payload.items[1]", typeName: "NSObject")) {
            try NotificationContentSnapshot(content)
        }
    }

    /// `userInfo` whose dictionaries nest `levels` deep, the `userInfo` itself the first.
    private static func nestedUserInfo(levels: Int) -> [AnyHashable: Any] {
        var value: [AnyHashable: Any] = ["leaf": 1]
        for _ in 1..<levels { value = ["k": value] }
        return value
    }

    @Test("userInfo nested as deep as it may be is stored and its state file reads back; one level more is refused, naming where")
    func userInfoDepthIsBounded() throws {
        let content = UNMutableNotificationContent()
        content.userInfo = Self.nestedUserInfo(levels: PropertyListValue.maximumDepth)
        let snapshot = try NotificationContentSnapshot(content)
        // Through a state file as the center writes and reads one (the envelope, the nesting
        // check): it reads back whole, not set aside.
        let scratch = try ScratchFolder()
        let file = StateFile<[String: [NotificationContentSnapshot]]>(folder: scratch.url.appendingPathComponent("app"), name: "deep")
        try file.save(["pending": [snapshot]])
        guard case .loaded(let read) = try file.load() else {
            Issue.record("the state file holding userInfo \(PropertyListValue.maximumDepth) deep was not read back")
            return
        }
        #expect(read["pending"]?.first == snapshot)

        content.userInfo = Self.nestedUserInfo(levels: PropertyListValue.maximumDepth + 1)
        let keyPath = "userInfo" + String(repeating: ".k", count: PropertyListValue.maximumDepth)
        #expect(throws: UserInfoStorageError.valueNotStorable(
            keyPath: keyPath, typeName: "dictionary or array nested more than \(PropertyListValue.maximumDepth) deep")) {
            try NotificationContentSnapshot(content)
        }
        content.userInfo = ["list": [[[["deep"]]]]]
        #expect(throws: Never.self) { try NotificationContentSnapshot(content) }
    }

    @Test func nonStringKeysCannotBeStored() {
        let content = UNMutableNotificationContent()
        content.userInfo = [1: "one"]
        #expect(throws: UserInfoStorageError.keyNotString(keyPath: "userInfo", key: "1")) {
            try NotificationContentSnapshot(content)
        }
    }

    @Test func nonFiniteNumbersCannotBeStored() {
        let content = UNMutableNotificationContent()
        content.userInfo = ["ratio": Double.nan]
        #expect(throws: UserInfoStorageError.self) { try NotificationContentSnapshot(content) }
    }

    @Test(arguments: [
        UNPushNotificationTrigger(),
        UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true, anchorDate: Date(timeIntervalSince1970: 5)),
        UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: TimeZone(identifier: "America/Los_Angeles"), hour: 2, minute: 30), repeats: true),
        UNLocationNotificationTrigger(region: CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.85, longitude: 2.35), radius: 500, identifier: "paris"), repeats: false),
    ] as [UNNotificationTrigger])
    func everyTriggerKindRoundTrips(trigger: UNNotificationTrigger) throws {
        let restored = try jsonRoundTrip(NotificationTriggerSnapshot(trigger)).makeTrigger()
        #expect(type(of: restored) == type(of: trigger))
        #expect(restored == trigger)
    }

    @Test func scheduledIntervalTriggerKeepsItsAnchor() throws {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true).anchored(at: Date(timeIntervalSince1970: 100))
        let restored = try jsonRoundTrip(NotificationTriggerSnapshot(trigger)).makeTrigger() as? UNTimeIntervalNotificationTrigger
        #expect(restored?.anchorDate == Date(timeIntervalSince1970: 100))
    }

    @Test func requestAndDeliveredNotificationRoundTrip() throws {
        let request = UNNotificationRequest(identifier: "r", content: fullySetContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true))
        #expect(try jsonRoundTrip(NotificationRequestSnapshot(request)).makeRequest() == request)

        let notification = UNNotification(date: Date(timeIntervalSince1970: 77), request: request)
        #expect(try jsonRoundTrip(NotificationSnapshot(notification)).makeNotification() == notification)
    }

    @Test func categoryWithAllKindsOfActionsRoundTrips() throws {
        let category = UNNotificationCategory(
            identifier: "saySomethingCategory",
            actions: [
                UNTextInputNotificationAction(identifier: "action.input", title: "Input", options: [.foreground], textInputButtonTitle: "Send", textInputPlaceholder: "What do you want to say..."),
                UNNotificationAction(identifier: "action.goodbye", title: "Goodbye", options: [.foreground], icon: UNNotificationActionIcon(templateImageName: "wave")),
                UNNotificationAction(identifier: "action.cancel", title: "Cancel", options: [.destructive]),
            ],
            intentIdentifiers: ["intent"],
            hiddenPreviewsBodyPlaceholder: "hidden",
            categorySummaryFormat: "%u messages",
            options: [.customDismissAction, .allowInCarPlay]
        )
        let restored = try jsonRoundTrip(NotificationCategorySnapshot(category)).makeCategory()
        #expect(restored == category)
        #expect((restored.actions.first as? UNTextInputNotificationAction)?.textInputPlaceholder == "What do you want to say...")
    }
}
