import CoreLocation
import DBus
import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

// The bad-input battery: every kind of bad input the issue lists, each through the center on a
// private bus with the fake server, each followed by a good request that must be delivered
// (nothing lost, nothing stuck). What other tests already cover is referenced, not repeated:
//
// - NUL in the title, through the center: CenterMappingTests "a NUL in the content is a typed
//   error and nothing is sent". NUL in every Notify field at the wire (app_name, app_icon,
//   summary, body, action key and label, a string hint): HintsAndRequestTests "a NUL in any
//   field is refused with the field's name"; in the client: ClientTests; in the marshaller:
//   WireCodecTests "a NUL inside a string is refused before anything is sent".
// - Invalid UTF-8: a Swift `String` cannot hold it, so it reaches us only as bytes: in `notify`
//   arguments (NotifyCommandTests "invalid UTF-8 in an argument is an error (exit 1), not a
//   crash"), in payload JSON and in the state file (here). From the bus it cannot come:
//   dbus-daemon validates every message and disconnects a peer that sends invalid UTF-8.
// - Oversized fields at the wire (a 1 MB body, a 200 MB image-data): HintsAndRequestTests
//   "oversized fields are refused before sending". Through the center (here): body, title,
//   subtitle and body together, too many actions. Image attachments over 10 MB (and audio over
//   5 MB, movies over 50 MB): NotificationAttachmentTests (`big.png` ...); the attachment
//   store's quota: AttachmentStoreTests "past the quota, add fails with
//   attachmentMoveIntoDataStoreFailed and stores nothing". The center never sends image-data.
// - Wrong hint types: HintsAndRequestTests "a known hint with the wrong type is refused; vendor
//   hints pass" (urgency only); every other well-known hint, and hints built raw (here).
// - Impossible triggers: TimeIntervalTriggerTests (0, -1, 59.9 repeating, infinity, NaN, at
//   the model); CenterSchedulingTests "bad time intervals are typed errors from add, not traps"
//   (0, and 30 s repeating, through the center); CalendarTriggerTests
//   "impossibleComponentsNeverFire" (hour 25, at the model); TriggerKindTests (location).
//   Through the center (here): negative, NaN, infinite, 59.9 s repeating, absurdly far, Feb 30,
//   month 13, a past year, a location trigger.
// - Attachment failures: NotificationAttachmentTests (attachmentInvalidURL: remote URL,
//   missing file, directory; attachmentUnrecognizedType; attachmentInvalidFileSize: empty, too
//   big; attachmentCorrupt); AttachmentStoreTests (attachmentMoveIntoDataStoreFailed: quota).
//   Here: attachmentNotInDataStore (the file went between attachment and add) and
//   attachmentMoveIntoDataStoreFailed (the store cannot be created).
// - Malformed payload JSON: RemotePayloadTests "malformed payloads are typed errors" (not
//   JSON, an array, no aps, alert/badge/title/sound of the wrong type). Here: truncated,
//   empty, invalid UTF-8, aps not a dictionary, deep nesting, numbers out of range, NUL.
// - Corrupt state file at start-up: StateFileTests (truncated, empty, newer format, wrong
//   shape, at the store); CenterSchedulingTests "a corrupt state file is set aside at start-up
//   and the center starts empty" (truncated, through the center). Here, through the center:
//   garbage, invalid UTF-8, empty, newer format, wrong shape, a folder or a FIFO in its place.
// - kill -9 during a store write: StateFileCrashSafetyTests (each step, in-process) and
//   StateFileTortureTests (a real process, SIGKILL at random moments).
@Suite("Bad-input battery")
struct BadInputBatteryTests {
    static let nul = "a\u{0}b"

    // MARK: - Helpers

    static func request(
        _ identifier: String, title: String? = nil, category: String = "", trigger: UNNotificationTrigger? = nil,
        configure: (UNMutableNotificationContent) -> Void = { _ in }
    ) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title ?? identifier
        content.body = "body"
        content.categoryIdentifier = category
        configure(content)
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    /// Adds `request` and returns what it threw (`nil` when it was accepted).
    static func outcome(of request: UNNotificationRequest, on center: UNUserNotificationCenter) async -> (any Error)? {
        do {
            try await center.add(request)
            return nil
        } catch {
            return error
        }
    }

    /// A good request added after a bad one reaches the server and the delivered list.
    static func expectStillWorks(_ fixture: CenterFixture, after label: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let identifier = "good after \(label)"
        do {
            try await fixture.center.add(request(identifier))
        } catch {
            Issue.record("a good request after \(label) failed: \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(fixture.server.notifications.contains { $0.request.summary == identifier && $0.id != nil },
                "the server did not get the good request after \(label)", sourceLocation: sourceLocation)
        #expect(await fixture.center.deliveredNotifications().contains { $0.request.identifier == identifier },
                "the good request after \(label) is not in the delivered list", sourceLocation: sourceLocation)
    }

    /// Adds `bad`: it must fail with `expected` and send nothing; then a good one is delivered.
    static func expectRefused(
        _ bad: UNNotificationRequest, on fixture: CenterFixture, as expected: NotificationDeliveryError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let sentBefore = fixture.server.notifications.count
        let error = await outcome(of: bad, on: fixture.center)
        #expect(error as? NotificationDeliveryError == expected, "\(bad.identifier.debugDescription): \(String(describing: error))",
                sourceLocation: sourceLocation)
        #expect(fixture.server.notifications.count == sentBefore, "something was sent", sourceLocation: sourceLocation)
        #expect(!(await fixture.center.deliveredNotifications().contains { $0.request.identifier == bad.identifier }),
                sourceLocation: sourceLocation)
        await expectStillWorks(fixture, after: bad.identifier.debugDescription, sourceLocation: sourceLocation)
    }

    static func nulRefused(_ field: String) -> NotificationDeliveryError {
        .invalidContent(field: field, reason: "contains a NUL character")
    }

    // MARK: - NUL characters

    @Test("a NUL in a sent string of the content is a typed error naming the field; nothing is sent", arguments: [
        "identifier", "subtitle", "body", "categoryIdentifier", "threadIdentifier",
    ])
    func nulInSentContent(_ field: String) async throws {
        let fixture = try await CenterFixture()
        let bad = Self.request(field == "identifier" ? Self.nul : "nul-\(field)", title: "nul-\(field)") { content in
            switch field {
            case "subtitle": content.subtitle = Self.nul
            case "body": content.body = Self.nul
            case "categoryIdentifier": content.categoryIdentifier = Self.nul
            case "threadIdentifier": content.threadIdentifier = Self.nul
            default: break
            }
        }
        await Self.expectRefused(bad, on: fixture, as: Self.nulRefused(field))
    }

    @Test("a NUL in a sound name is refused as the sound-name hint", arguments: [false, true])
    func nulInSoundName(critical: Bool) async throws {
        let fixture = try await CenterFixture()
        let name = UNNotificationSoundName(rawValue: "/tmp/\(Self.nul).wav")
        let bad = Self.request("nul-sound") { content in
            content.sound = critical ? .criticalSoundNamed(name) : UNNotificationSound(named: name)
        }
        await Self.expectRefused(bad, on: fixture, as: Self.nulRefused("hint sound-name"))
    }

    @Test("a NUL in the app's display name or icon is refused as app_name or app_icon", arguments: ["app_name", "app_icon"])
    func nulInIdentity(_ field: String) async throws {
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let identity = field == "app_name"
            ? ApplicationIdentity(id: "org.example.Battery", displayName: Self.nul)
            : ApplicationIdentity(id: "org.example.Battery", displayName: "Battery", icon: Self.nul)
        let center = UNUserNotificationCenter(identity: identity, bus: .address(testBus.address), persistent: false)
        let error = await Self.outcome(of: Self.request("nul-identity"), on: center)
        #expect(error as? NotificationDeliveryError == Self.nulRefused(field))
        #expect(server.notifications.isEmpty)
    }

    /// Fields that never travel on the bus keep their NUL: delivered as given, saved, and
    /// restored whole at the next launch.
    @Test("a NUL in fields that are not sent is kept, delivered and restored exactly")
    func nulInUnsentFields() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let userInfo: [AnyHashable: Any] = [Self.nul: Self.nul, "nested": ["k\u{0}": ["v\u{0}", 1]]]
        let accepted = Self.request("nul-unsent") { content in
            content.targetContentIdentifier = Self.nul
            content.launchImageName = Self.nul
            content.userInfo = userInfo
        }
        try await fixture.center.add(accepted)
        try await fixture.center.add(Self.request("nul-pending", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)) {
            $0.userInfo = userInfo
            $0.launchImageName = Self.nul
        })
        #expect(fixture.server.notifications.contains { $0.request.summary == "nul-unsent" })
        let delivered = try #require(await fixture.center.deliveredNotifications().first { $0.request.identifier == "nul-unsent" })
        #expect(delivered.request.content == accepted.content)

        // The saved state holds them whole (restoring delivered notifications at the next launch
        // is checked by `deliveredNotificationsComeBack`), and the pending request comes back.
        var saved: EngineState?
        #expect(await eventually {
            guard let state = await savedState(in: fixture.stateHome), state.delivered.count == 1, state.pending.count == 1 else { return false }
            saved = state
            return true
        })
        let savedDelivered = try #require(saved?.delivered.first?.notification.makeNotification())
        #expect(savedDelivered.request.content == accepted.content)
        #expect(savedDelivered.request.content.userInfo[Self.nul] as? String == Self.nul)
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
        let pending = try #require(await relaunched.pendingNotificationRequests().first)
        #expect(pending.content.launchImageName == Self.nul)
        #expect(pending.content.userInfo[Self.nul] as? String == Self.nul)
        await Self.expectStillWorks(fixture, after: "NULs in unsent fields")
    }

    enum CategoryDefect: String, CaseIterable, Sendable {
        case actionIdentifier, actionTitle, textInputPlaceholder, textInputButtonTitle, textActionTitleWithoutInlineReply
        case unsentCategoryFields
    }

    @Test("a NUL in a category's actions is refused when a notification uses it; unsent category fields are kept",
          arguments: CategoryDefect.allCases)
    func nulInCategories(_ defect: CategoryDefect) async throws {
        let personality: ServerPersonality = defect == .textActionTitleWithoutInlineReply ? .dunst : .kde
        let fixture = try await CenterFixture(personality: personality, persistent: true)
        var actions: [UNNotificationAction] = []
        var expected: NotificationDeliveryError?
        var intents: [String] = []
        var placeholder: String?
        var summaryFormat: String?
        switch defect {
        case .actionIdentifier:
            actions = [UNNotificationAction(identifier: Self.nul, title: "Go")]
            expected = Self.nulRefused("action key")
        case .actionTitle:
            actions = [UNNotificationAction(identifier: "go", title: Self.nul)]
            expected = Self.nulRefused("action label")
        case .textInputPlaceholder:
            actions = [UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: Self.nul)]
            expected = Self.nulRefused("hint x-kde-reply-placeholder-text")
        case .textInputButtonTitle:
            actions = [UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: Self.nul, textInputPlaceholder: "Say")]
            expected = Self.nulRefused("hint x-kde-reply-submit-button-text")
        case .textActionTitleWithoutInlineReply:
            // dunst has no inline reply: the text action is a button, its placeholder unsent.
            actions = [UNTextInputNotificationAction(identifier: "reply", title: Self.nul, textInputButtonTitle: "Send", textInputPlaceholder: Self.nul)]
            expected = Self.nulRefused("action label")
        case .unsentCategoryFields:
            actions = [UNTextInputNotificationAction(identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: "Say")]
            intents = [Self.nul]
            placeholder = Self.nul
            summaryFormat = Self.nul
        }
        let category = UNNotificationCategory(
            identifier: "battery", actions: actions, intentIdentifiers: intents,
            hiddenPreviewsBodyPlaceholder: placeholder, categorySummaryFormat: summaryFormat)
        fixture.center.setNotificationCategories([category])
        #expect(await fixture.center.notificationCategories() == [category])
        let bad = Self.request("uses-\(defect.rawValue)", category: "battery")
        if let expected {
            await Self.expectRefused(bad, on: fixture, as: expected)
        } else {
            try await fixture.center.add(bad)
            #expect(fixture.server.notifications.last?.request.summary == bad.identifier)
            // The categories come back whole at the next launch.
            #expect(await eventually { await savedState(in: fixture.stateHome)?.categories.count == 1 })
            let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
            #expect(await relaunched.notificationCategories() == [category])
            await Self.expectStillWorks(fixture, after: "NULs in unsent category fields")
        }
    }

    // MARK: - Oversized content

    @Test("oversized content is refused before sending, with the field, its size and the limit")
    func oversized() async throws {
        let fixture = try await CenterFixture()
        let megabyte = String(repeating: "x", count: 1_000_000)
        await Self.expectRefused(Self.request("huge-body") { $0.body = megabyte }, on: fixture,
                                 as: .invalidContent(field: "body", reason: "1000000 bytes, over the limit of 65536"))
        await Self.expectRefused(Self.request("huge-title", title: String(repeating: "t", count: 20_000)), on: fixture,
                                 as: .invalidContent(field: "summary", reason: "20000 bytes, over the limit of 16384"))
        // Subtitle and body travel together in the body: each alone fits, together they do not
        // (KDE parses markup: "<b>" + subtitle + "</b>\n" + body, 40000 + 8 + 40000 bytes).
        let half = String(repeating: "h", count: 40_000)
        await Self.expectRefused(Self.request("huge-together") { $0.subtitle = half; $0.body = half }, on: fixture,
                                 as: .invalidContent(field: "body", reason: "80008 bytes, over the limit of 65536"))
        // Exactly at the limit passes.
        try await fixture.center.add(Self.request("at-the-limit") { $0.body = String(repeating: "b", count: 64 * 1024) })
        #expect(fixture.server.notifications.last?.request.body.utf8.count == 64 * 1024)
        // 40 actions (41 with the click) for a limit of 32.
        let many = (0..<40).map { UNNotificationAction(identifier: "a\($0)", title: "A \($0)") }
        fixture.center.setNotificationCategories([UNNotificationCategory(identifier: "many", actions: many, intentIdentifiers: [])])
        let sentBefore = fixture.server.notifications.count
        let error = await Self.outcome(of: Self.request("many-actions", category: "many"), on: fixture.center)
        #expect(error as? NotificationDeliveryError == .invalidContent(field: "actions", reason: "41 actions, over the limit of 32"))
        #expect(fixture.server.notifications.count == sentBefore)
        await Self.expectStillWorks(fixture, after: "41 actions")
    }

    // MARK: - Hint types

    static let wrongValues: [DBusType: DBusValue] = [
        .byte: .int32(2), .string: .int32(7), .boolean: .byte(1), .int32: .uint32(3),
        NotificationHints.knownTypes["image-data"]!: .string("not an image"),
    ]

    @Test("every well-known hint refuses a value of another type, whichever way the hints are built",
          arguments: NotificationHints.knownTypes.keys.sorted())
    func wrongHintTypes(_ name: String) async throws {
        let type = try #require(NotificationHints.knownTypes[name])
        let wrong = try #require(Self.wrongValues[type])
        let expected = NotificationsError.invalidArgument(field: "hint \(name)", reason: "must be of type \(type.signature), not \(wrong.type.signature)")
        var hints = NotificationHints()
        #expect(throws: expected) { try hints.setVendorHint(name, wrong) }
        #expect(hints.raw.isEmpty)

        // Hints built raw (the initializer meant for received hints) must not slip through
        // either: a strict server (mako) fails the whole Notify on them.
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .mako)
        let client = NotificationsClient(bus: testBus.bus)
        await #expect(throws: expected) {
            try await client.notify(NotifyRequest(summary: "raw", hints: NotificationHints(raw: [name: wrong])))
        }
        #expect(server.notifications.isEmpty, "a \(name) hint of type \(wrong.type.signature) was sent")
        _ = try await client.notify(NotifyRequest(summary: "good"))
        #expect(server.notifications.map(\.request.summary) == ["good"])
    }

    // MARK: - Impossible triggers

    static let impossibleTriggers: [(String, UNNotificationTrigger, String)] = [
        ("negative interval", UNTimeIntervalNotificationTrigger(timeInterval: -5, repeats: false), "NotificationTriggerError"),
        ("NaN interval", UNTimeIntervalNotificationTrigger(timeInterval: .nan, repeats: false), "NotificationTriggerError"),
        ("infinite interval", UNTimeIntervalNotificationTrigger(timeInterval: .infinity, repeats: true), "NotificationTriggerError"),
        ("59.9 s repeating", UNTimeIntervalNotificationTrigger(timeInterval: 59.9, repeats: true), "NotificationTriggerError"),
        ("February 30", UNCalendarNotificationTrigger(dateMatching: DateComponents(month: 2, day: 30, hour: 9), repeats: true), "UNError"),
        ("February 30, once", UNCalendarNotificationTrigger(dateMatching: DateComponents(month: 2, day: 30), repeats: false), "UNError"),
        ("month 13", UNCalendarNotificationTrigger(dateMatching: DateComponents(month: 13, day: 1), repeats: true), "UNError"),
        ("minute 61", UNCalendarNotificationTrigger(dateMatching: DateComponents(minute: 61), repeats: true), "UNError"),
        ("a past year", UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2001, month: 1, day: 1), repeats: false), "UNError"),
        ("location, not a circle", UNLocationNotificationTrigger(region: CLRegion(), repeats: false), "NotificationTriggerError"),
        ("location, latitude 200", UNLocationNotificationTrigger(
            region: CLCircularRegion(center: CLLocationCoordinate2D(latitude: 200, longitude: 2.35), radius: 100, identifier: "paris"), repeats: false),
         "NotificationTriggerError"),
        ("location, radius NaN", UNLocationNotificationTrigger(
            region: CLCircularRegion(center: CLLocationCoordinate2D(latitude: 48.85, longitude: 2.35), radius: .nan, identifier: "paris"), repeats: false),
         "NotificationTriggerError"),
    ]

    @Test("impossible triggers are typed errors from add; nothing is scheduled", arguments: impossibleTriggers.indices)
    func impossibleTrigger(_ index: Int) async throws {
        let (label, trigger, kind) = Self.impossibleTriggers[index]
        let fixture = try await CenterFixture()
        let error = await Self.outcome(of: Self.request(label, trigger: trigger), on: fixture.center)
        switch kind {
        case "UNError":
            #expect((error as? UNError)?.code == .notificationInvalidNoDate, "\(label): \(String(describing: error))")
        default:
            #expect(error is NotificationTriggerError, "\(label): \(String(describing: error))")
        }
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        await Self.expectStillWorks(fixture, after: label)
    }

    /// An interval far beyond any clock, on the real clock (whose timer must not overflow).
    @Test("an absurdly long interval on the system clock neither traps nor arms a timer that fires", arguments: [1e12, 1e18, 1e300])
    func absurdInterval(_ seconds: TimeInterval) async throws {
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        let center = UNUserNotificationCenter(identity: CenterFixture.identity, bus: .address(testBus.address), persistent: false)
        let error = await Self.outcome(of: Self.request("far", trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)), on: center)
        if error == nil {
            #expect(await center.pendingNotificationRequests().map(\.identifier) == ["far"])
        } else {
            #expect(error is NotificationTriggerError || (error as? UNError)?.code == .notificationInvalidNoDate, "\(String(describing: error))")
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.notifications.isEmpty, "a request \(seconds) s away was shown now")
        try await center.add(Self.request("good after far"))
        #expect(server.notifications.map(\.request.summary) == ["good after far"])
    }

    // MARK: - Attachment failures

    @Test("an attachment whose file went away before add: attachmentNotInDataStore; nothing stored, nothing sent")
    func attachmentGone() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try AttachmentStoreTests.png("gone")
        let attachment = try UNNotificationAttachment(identifier: "img", url: image, options: nil)
        try FileManager.default.removeItem(at: image)
        let error = await Self.outcome(of: Self.request("gone") { $0.attachments = [attachment] }, on: fixture.center)
        #expect((error as? UNError)?.code == .attachmentNotInDataStore, "\(String(describing: error))")
        #expect(fixture.server.notifications.isEmpty)
        await Self.expectStillWorks(fixture, after: "a vanished attachment")
    }

    @Test("an attachment store that cannot be created: attachmentMoveIntoDataStoreFailed; the next add without one works")
    func attachmentStoreBlocked() async throws {
        let fixture = try await CenterFixture(persistent: true)
        try FileManager.default.createDirectory(at: fixture.stateHome, withIntermediateDirectories: true)
        // A file where the store's folder should be.
        try Data("in the way".utf8).write(to: fixture.stateHome.appendingPathComponent("attachments"))
        let image = try AttachmentStoreTests.png("blocked")
        defer { try? FileManager.default.removeItem(at: image) }
        let attachment = try UNNotificationAttachment(identifier: "img", url: image, options: nil)
        let request = Self.request("blocked") { $0.attachments = [attachment] }
        let error = await Self.outcome(of: request, on: fixture.center)
        #expect((error as? UNError)?.code == .attachmentMoveIntoDataStoreFailed, "\(String(describing: error))")
        #expect(fixture.server.notifications.isEmpty)
        #expect(FileManager.default.fileExists(atPath: image.path), "the caller's file must stay")
        await Self.expectStillWorks(fixture, after: "a blocked attachment store")
    }

    // MARK: - Payload JSON

    static let malformedPayloads: [(String, Data)] = {
        var cases: [(String, Data)] = [
            ("empty", Data()),
            ("truncated", Data(#"{"aps":{"alert":{"title":"Hi","bo"#.utf8)),
            ("invalid UTF-8 in a string", Data(#"{"aps":{"alert":""#.utf8) + Data([0xFF, 0xFE, 0xC0]) + Data(#""}}"#.utf8)),
            ("a lone surrogate escape", Data(#"{"aps":{"alert":"\uD800"}}"#.utf8)),
            ("aps a string", Data(#"{"aps":"alert"}"#.utf8)),
            ("aps an array", Data(#"{"aps":[{"alert":"x"}]}"#.utf8)),
            ("aps null", Data(#"{"aps":null}"#.utf8)),
            ("aps a number", Data(#"{"aps":1}"#.utf8)),
            ("a bare string", Data(#""aps""#.utf8)),
            ("a bare number", Data("42".utf8)),
            ("trailing garbage", Data(#"{"aps":{"alert":"x"}} }"#.utf8)),
            ("title-loc-key a number", Data(#"{"aps":{"alert":{"title-loc-key":5}}}"#.utf8)),
            ("category a number", Data(#"{"aps":{"alert":"x","category":5}}"#.utf8)),
            ("interruption-level an array", Data(#"{"aps":{"alert":"x","interruption-level":[]}}"#.utf8)),
        ]
        let depth = 100_000
        cases.append(("nested \(depth) deep", Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)))
        cases.append(("aps nested \(depth) deep", Data((#"{"aps":{"alert":"x"},"deep":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}").utf8)))
        return cases
    }()

    @Test("malformed payload JSON is a typed error, never a crash", arguments: malformedPayloads.indices)
    func malformedPayloadJSON(_ index: Int) async throws {
        let (label, json) = Self.malformedPayloads[index]
        #expect(throws: RemoteNotificationPayload.Failure.self, "\(label)") { try RemoteNotificationPayload(json: json) }
    }

    @Test("payloads at the edges: deep but parseable nesting, out-of-range numbers, NUL; each is shown or refused with a typed error")
    func payloadEdges() async throws {
        let fixture = try await CenterFixture(persistent: true)
        // With .badge, a payload's badge goes to the launcher entry.
        await MainActor.run { fixture.delegate.options = [.banner, .list, .badge] }
        func deliver(_ json: String, _ identifier: String) async -> (any Error)? {
            do {
                let payload = try RemoteNotificationPayload(json: Data(json.utf8))
                try await fixture.center.deliverRemoteNotification(payload, collapseIdentifier: identifier)
                return nil
            } catch {
                return error
            }
        }
        // Custom data as deep as userInfo may nest (the payload's dictionary the first of 30
        // levels): shown, and kept in userInfo.
        func nested(_ levels: Int) -> String {
            String(repeating: #"{"k":"#, count: levels) + "1" + String(repeating: "}", count: levels)
        }
        #expect(await deliver(#"{"aps":{"alert":"deep"},"custom":"# + nested(29) + "}", "deep") == nil)
        let deep = await fixture.center.deliveredNotifications().first { $0.request.identifier == "deep" }
        #expect(deep?.request.content.userInfo["custom"] != nil)
        // 200 levels: refused with a typed error (a state file holding it would nest past what
        // JSON is read to, and the whole state would be set aside at the next start).
        let refused = await deliver(#"{"aps":{"alert":"deeper"},"custom":"# + nested(200) + "}", "deeper")
        #expect(refused is UserInfoStorageError, "\(String(describing: refused))")
        #expect(await !fixture.center.deliveredNotifications().contains { $0.request.identifier == "deeper" })

        // Badges out of Int's range, fractional, negative, a boolean: no trap, on the way to the
        // launcher entry either (NSNumber's intValue of 1e300 must not trap).
        for (index, badge) in ["1e300", "-1e300", "2.5", "-3", "true", "9223372036854775808"].enumerated() {
            let error = await deliver(#"{"aps":{"alert":"badge \#(badge)","badge":\#(badge)}}"#, "badge-\(index)")
            if let error {
                #expect(error is RemoteNotificationPayload.Failure || error is UNError, "badge \(badge): \(error)")
            } else {
                #expect(await fixture.center.deliveredNotifications().contains { $0.request.identifier == "badge-\(index)" }, "badge \(badge)")
            }
        }
        let relevance = await deliver(#"{"aps":{"alert":"score","relevance-score":1e400}}"#, "relevance")
        #expect(relevance == nil || relevance is RemoteNotificationPayload.Failure, "\(String(describing: relevance))")

        // A NUL that JSON carries as \u0000 is refused where it would be sent.
        let error = await deliver(#"{"aps":{"alert":{"title":"a\u0000b","body":"x"}}}"#, "nul-title")
        #expect(error as? NotificationDeliveryError == Self.nulRefused("title"))
        let unsent = await deliver(#"{"aps":{"alert":"x","target-content-id":"t\u0000"},"k\u0000":"v\u0000"}"#, "nul-unsent")
        #expect(unsent == nil)
        await Self.expectStillWorks(fixture, after: "edge payloads")
    }

    // MARK: - A damaged state file at start-up

    enum StateDamage: String, CaseIterable, Sendable {
        case garbage, invalidUTF8, emptyFile, newerFormat, wrongShape, folder, fifo
    }

    @Test("a damaged state file at start-up: the center starts, sets it aside, works, and saves again",
          arguments: StateDamage.allCases)
    func damagedStateFile(_ damage: StateDamage) async throws {
        let fixture = try await CenterFixture(persistent: true)
        let home = fixture.stateHome
        let file = home.appendingPathComponent("notifications.json")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var random = SeededGenerator(seed: 0xBAD_F11E)
        switch damage {
        case .garbage:
            try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: file)
        case .invalidUTF8:
            try (Data(#"{"formatVersion":1,"savedAt":""#.utf8) + Data([0xC3, 0x28, 0xFF]) + Data(#"","value":{}}"#.utf8)).write(to: file)
        case .emptyFile:
            try Data().write(to: file)
        case .newerFormat:
            try Data(#"{"formatVersion":99,"savedAt":"2030-01-01T00:00:00.000Z","value":{"pending":[]}}"#.utf8).write(to: file)
        case .wrongShape:
            try Data(#"{"formatVersion":1,"savedAt":"2026-01-01T00:00:00.000Z","value":{"pending":"many"}}"#.utf8).write(to: file)
        case .folder:
            try FileManager.default.createDirectory(at: file.appendingPathComponent("inside"), withIntermediateDirectories: true)
        case .fifo:
            #expect(mkfifo(file.path, 0o600) == 0)
        }

        let center = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: home)
        // Start-up must not hang: a FIFO with no writer blocks a plain open for reading. A
        // watchdog opens it for writing after 5 s, which ends such an open with an empty read.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(5))
            if Task.isCancelled { return false }
            let writer = open(file.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            return true
        }
        let pendingAtStart = await center.pendingNotificationRequests()
        watchdog.cancel()
        #expect(await watchdog.value == false, "the center hung at start-up on a \(damage.rawValue) state file")
        #expect(pendingAtStart.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(names.contains { $0.hasPrefix("notifications.corrupt-") }, "not set aside: \(names.sorted())")

        // It works, and what it is given now survives the next launch.
        try await center.add(Self.request("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        try await center.add(Self.request("now"))
        #expect(fixture.server.notifications.contains { $0.request.summary == "now" })
        let saved = await eventually {
            guard let state = await savedState(in: home) else { return false }
            return state.pending.count == 1 && state.delivered.count == 1
        }
        #expect(saved, "the state was not saved after a \(damage.rawValue) state file")
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: home)
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier) == ["later"], "lost at the next launch")
    }
}
