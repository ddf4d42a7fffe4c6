import CoreLocation
@testable import DBus
import Foundation
import Testing
@testable import UserNotifications

@Suite("The agent's records: requests, notifications, categories and responses as typed a{sv} fields")
struct AgentRecordTests {
    /// `record` read back as a request's snapshot.
    static func request(_ record: AgentPayload.Record) throws -> NotificationRequestSnapshot {
        try NotificationRequestSnapshot(record: AgentRecordReader(record, path: "request", keys: NotificationRequestSnapshot.recordKeys))
    }

    /// `record` after a trip through the wire codec, as the agent receives it.
    static func sent(_ record: AgentPayload.Record) throws -> AgentPayload.Record {
        let message = try DBusMessage.methodCall(
            destination: "org.example.Peer", path: DBusObjectPath("/x"), interface: "org.example.X", member: "Y", body: [record.dbusValue])
        let bytes = try message.marshal(serial: 1)
        let read = try DBusMessage(wire: bytes)
        return try AgentPayload.Record.reading(try #require(read.body.first))
    }

    @Test("userInfo as deep as a center takes travels to the agent; one level more is refused before D-Bus would refuse it")
    func userInfoDepthTravels() throws {
        func request(levels: Int) -> UNNotificationRequest {
            var value: [AnyHashable: Any] = ["leaf": [1]]
            for _ in 2..<levels { value = ["k": value] }
            let content = UNMutableNotificationContent()
            content.userInfo = value
            return UNNotificationRequest(identifier: "deep", content: content, trigger: nil)
        }
        let deepest = request(levels: PropertyListValue.maximumDepth)
        #expect(try Self.request(try Self.sent(try AgentPayload.encode(deepest))).content == (try NotificationContentSnapshot(deepest.content)))
        #expect(throws: UserInfoStorageError.self) { try AgentPayload.encode(request(levels: PropertyListValue.maximumDepth + 1)) }
    }

    /// Content with every field set, user info of every property-list type, nested.
    static func fullContent() throws -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Title \"quoted\" \u{0}\n😀"
        content.subtitle = "Subtitle"
        content.body = "Body"
        content.badge = 7
        content.sound = UNNotificationSound.criticalSoundNamed(UNNotificationSoundName("bell.ogg"), withAudioVolume: 0.25)
        content.categoryIdentifier = "category"
        content.threadIdentifier = "thread"
        content.launchImageName = "launch"
        content.targetContentIdentifier = "target"
        content.interruptionLevel = .timeSensitive
        content.relevanceScore = 0.75
        content.filterCriteria = "work"
        content.summaryArgument = "Ann"
        content.summaryArgumentCount = 3
        content.progress = 0.5
        content.userInfo = [
            "text": "x", "int": 42, "negative": -9_000_000_000, "double": 2.5, "flag": true,
            "date": Date(timeIntervalSinceReferenceDate: 812_345_678.25), "data": Data([0, 1, 254, 255]),
            "list": [1, "two", [3.5, false]] as [Any], "nested": ["deeper": ["deepest": "yes"]] as [String: Any],
        ]
        return content
    }

    @Test("1,000 random requests of the common shape read back equal after a trip through the wire codec")
    func randomRequests() throws {
        var generator = RandomRequests.Generator(state: 29)
        for _ in 0..<1_000 {
            let snapshot = try NotificationRequestSnapshot(RandomRequests.request(&generator))
            #expect(try Self.request(try Self.sent(snapshot.record.fields)) == snapshot)
        }
    }

    @Test("every field of content, sound, attachments, user info and each trigger kind reads back equal")
    func everyField() throws {
        let content = try Self.fullContent()
        let attachment = UNNotificationAttachment(
            identifier: "image", url: URL(fileURLWithPath: "/tmp/picture one.png"), type: "public.png", isThumbnailHidden: true,
            thumbnailClippingRect: ThumbnailClippingRect(x: 0.1, y: 0.2, width: 0.5, height: 0.25))
        content.attachments = [attachment]
        var components = DateComponents()
        components.hour = 8
        components.minute = 30
        components.weekday = 2
        components.timeZone = TimeZone(identifier: "Europe/Berlin")
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        components.calendar = calendar
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 52.5, longitude: 13.4), radius: 250, identifier: "berlin")
        region.notifyOnExit = false
        let triggers: [UNNotificationTrigger?] = [
            nil, UNPushNotificationTrigger(),
            UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true, anchorDate: Date(timeIntervalSinceReferenceDate: 1.5)),
            UNCalendarNotificationTrigger(dateComponents: components, repeats: true),
            UNLocationNotificationTrigger(region: region, repeats: false),
        ]
        for trigger in triggers {
            let snapshot = try NotificationRequestSnapshot(UNNotificationRequest(identifier: "full", content: content, trigger: trigger))
            let read = try Self.request(try Self.sent(snapshot.record.fields))
            #expect(read == snapshot, "\(String(describing: trigger))")
        }
        // The values an app reads back.
        let request = try AgentPayload.request(from: try Self.sent(try AgentPayload.encode(
            UNNotificationRequest(identifier: "full", content: content, trigger: UNCalendarNotificationTrigger(dateComponents: components, repeats: true)))))
        #expect(request.content.userInfo["date"] as? Date == Date(timeIntervalSinceReferenceDate: 812_345_678.25))
        #expect(request.content.userInfo["data"] as? Data == Data([0, 1, 254, 255]))
        #expect(request.content.userInfo["negative"] as? Int == -9_000_000_000)
        #expect(((request.content.userInfo["nested"] as? [String: Any])?["deeper"] as? [String: Any])?["deepest"] as? String == "yes")
        let trigger = try #require(request.trigger as? UNCalendarNotificationTrigger)
        #expect(trigger.dateComponents.calendar?.identifier == .iso8601)
        // The trigger's own calendar, as the app's trigger holds it (it takes the components' zone).
        let sent = UNCalendarNotificationTrigger(dateComponents: components, repeats: true)
        #expect(trigger.dateComponents.calendar?.timeZone == sent.dateComponents.calendar?.timeZone)
        #expect(trigger.dateComponents.calendar?.firstWeekday == 2)
        #expect(trigger.dateComponents.timeZone?.identifier == "Europe/Berlin")
        #expect(request.content.sound?.audioVolume == 0.25)
        #expect(request.content.attachments.first?.url.path == "/tmp/picture one.png")
    }

    @Test("a string holding NUL, which a D-Bus string cannot carry, travels as its bytes and reads back; a user info key holding NUL is refused")
    func nulStrings() throws {
        let content = UNMutableNotificationContent()
        content.title = "a\u{0}b"
        content.userInfo = ["text": "c\u{0}d", "list": ["e\u{0}"]]
        let request = UNNotificationRequest(identifier: "id\u{0}1", content: content, trigger: nil)
        let record = try AgentPayload.encode(request)
        #expect(record["identifier"] == .byteArray(Array("id\u{0}1".utf8)))
        let read = try AgentPayload.request(from: try Self.sent(record))
        #expect(read.identifier == "id\u{0}1" && read.content.title == "a\u{0}b")
        #expect(read.content.userInfo["text"] as? String == "c\u{0}d")
        #expect(read.content.userInfo["list"] as? [String] == ["e\u{0}"])
        let category = UNNotificationCategory(identifier: "c", actions: [], intentIdentifiers: ["i\u{0}", "plain"], options: [])
        let categories = try AgentPayload.categories(from: try AgentPayload.encode(Set([category])).map(Self.sent))
        #expect(categories.first?.intentIdentifiers == ["i\u{0}", "plain"])
        content.userInfo = ["outer": ["k\u{0}": 1]]
        #expect(throws: UserInfoStorageError.self) {
            try AgentPayload.encode(UNNotificationRequest(identifier: "k", content: content, trigger: nil))
        }
        #expect(Self.refusal(["identifier": .byteArray([0xFF, 0xFE])]) == "request.identifier is not UTF-8")
    }

    @Test("deferred localizations keep their key, typed arguments and bundle")
    func localizations() throws {
        let content = UNMutableNotificationContent()
        content.title = NSString.localizedUserNotificationString(forKey: "GREETING %@ %d %f", arguments: ["Ann", 3, 2.5])
        let snapshot = try NotificationContentSnapshot(content)
        #expect(snapshot.localizations?.title != nil)
        let read = try NotificationContentSnapshot(record: AgentRecordReader(
            try Self.sent(snapshot.record.fields), path: "content", keys: NotificationContentSnapshot.recordKeys))
        #expect(read == snapshot)
        #expect(read.localizations?.title?.arguments == [.string("Ann"), .integer(3), .double(2.5)])
    }

    @Test("a lookup's bundle path is kept when read, opened only when the text is looked up, and named for the agent's check")
    func bundlePathOpenedAtLookup() throws {
        let folder = try TemporaryDirectory()
        let bundle = folder.url.appendingPathComponent("Later.bundle")
        let lookup: AgentPayload.Record = ["key": .string("greeting"), "bundlePath": .string(bundle.path)]
        let localizations: AgentPayload.Record = ["title": lookup.dbusValue]
        let content: AgentPayload.Record = ["title": .string("greeting"), "localizations": localizations.dbusValue]
        let request = try AgentPayload.request(from: try Self.sent(["identifier": .string("b"), "content": content.dbusValue]))
        #expect(AgentPayload.bundlePathField(in: request.content) == "content.localizations.title.bundlePath")
        // The bundle is made once the record is read: a reader that had opened the path would
        // have found nothing there, and looked the key up in the main bundle.
        let strings = bundle.appendingPathComponent("en.lproj")
        try FileManager.default.createDirectory(at: strings, withIntermediateDirectories: true)
        try #""greeting" = "Hello from the bundle";"#.write(to: strings.appendingPathComponent("Localizable.strings"), atomically: true, encoding: .utf8)
        #expect(request.resolvingDeferredLocalizations().content.title == "Hello from the bundle")
        // Written again, it names the same path.
        let written = try AgentPayload.request(from: try AgentPayload.encode(request))
        #expect(AgentPayload.bundlePathField(in: written.content) == "content.localizations.title.bundlePath")
        #expect(try NotificationContentSnapshot(written.content) == NotificationContentSnapshot(request.content))
        #expect(AgentPayload.bundlePathField(in: try AgentPayload.request(from: ["identifier": .string("plain")]).content) == nil)
    }

    @Test("a field with its default value is left out, so a plain request is a few fields")
    func defaultsLeftOut() throws {
        let content = UNMutableNotificationContent()
        content.title = "Hello"
        let record = try AgentPayload.encode(UNNotificationRequest(identifier: "plain", content: content, trigger: nil))
        #expect(record.keys.sorted() == ["content", "identifier"])
        #expect(try AgentPayload.Record.reading(try #require(record["content"])) == ["title": .string("Hello")])
        let empty = try AgentPayload.request(from: ["identifier": .string("bare")])
        #expect(empty.content.title.isEmpty && empty.content.interruptionLevel == .active && empty.trigger == nil)
    }

    @Test("categories with text-input actions and icons, notifications and text responses read back equal")
    func categoriesNotificationsResponses() throws {
        let category = UNNotificationCategory(
            identifier: "message",
            actions: [
                UNTextInputNotificationAction(
                    identifier: "reply", title: "Reply", options: [.authenticationRequired], icon: UNNotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
                    textInputButtonTitle: "Send", textInputPlaceholder: "Message"),
                UNTextInputNotificationAction(identifier: "quiet", title: "Quiet", options: [], textInputButtonTitle: "", textInputPlaceholder: ""),
                UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive], icon: UNNotificationActionIcon(templateImageName: "bin")),
            ],
            intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "%u messages", categorySummaryFormat: "%u more",
            options: [.customDismissAction])
        let categories = try AgentPayload.categories(from: try AgentPayload.encode(Set([category])).map(Self.sent))
        #expect(categories.map(NotificationCategorySnapshot.init) == [NotificationCategorySnapshot(category)])
        #expect((categories.first?.actions.first { $0.identifier == "quiet" }) is UNTextInputNotificationAction)

        let notification = UNNotification(
            date: Date(timeIntervalSinceReferenceDate: 800_000_000.125),
            request: UNNotificationRequest(identifier: "n", content: try Self.fullContent(), trigger: nil))
        let read = try AgentPayload.notification(from: try Self.sent(try AgentPayload.encode(notification)))
        #expect(try NotificationSnapshot(read) == NotificationSnapshot(notification))

        let response = UNTextInputNotificationResponse(notification: notification, actionIdentifier: "reply", userText: "On my way", activationToken: "token-1")
        let back = try AgentPayload.response(from: try Self.sent(try AgentPayload.encode(response)))
        #expect((back as? UNTextInputNotificationResponse)?.userText == "On my way")
        #expect(back.activationToken == "token-1" && back.actionIdentifier == "reply")
        let plain = UNNotificationResponse(notification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier)
        let fallback = try AgentPayload.response(from: try AgentPayload.encode(plain), activationToken: "given")
        #expect(!(fallback is UNTextInputNotificationResponse) && fallback.activationToken == "given")
    }

    @Test("categories sharing an identifier travel as one, the same one whatever order the set or the list has")
    func categoriesSharingAnIdentifier() throws {
        let reply = UNNotificationCategory(
            identifier: "message", actions: [UNNotificationAction(identifier: "reply", title: "Reply")], intentIdentifiers: [])
        let delete = UNNotificationCategory(
            identifier: "message", actions: [UNNotificationAction(identifier: "delete", title: "Delete", options: [.destructive])], intentIdentifiers: [])
        let other = UNNotificationCategory(identifier: "other", actions: [], intentIdentifiers: [])
        #expect(Set([reply, delete, other]).count == 3)
        let written = try AgentPayload.encode(Set([reply, delete, other]))
        #expect(written.map { $0["identifier"]?.stringValue } == ["message", "other"])
        // The same records from sets whose order differs (their storage's size changes it).
        for capacity in [0, 3, 17, 64, 1_000] {
            var categories = Set<UNNotificationCategory>(minimumCapacity: capacity)
            for category in capacity.isMultiple(of: 2) ? [other, delete, reply] : [reply, other, delete] { categories.insert(category) }
            #expect(try AgentPayload.encode(categories) == written, "capacity \(capacity)")
        }
        // Read from a list naming both, in either order: the one the writer keeps.
        let kept = try #require(written.first)
        let records = [reply, delete].map { NotificationCategorySnapshot($0).record.fields }
        for list in [records, records.reversed()] {
            let read = try AgentPayload.categories(from: try list.map(Self.sent))
            #expect(read.map(NotificationCategorySnapshot.init) == [try NotificationCategorySnapshot(record: AgentRecordReader(kept, path: "c", keys: NotificationCategorySnapshot.recordKeys))])
        }
    }

    /// The message of the error reading `record` as a request throws.
    static func refusal(_ record: AgentPayload.Record) -> String {
        do {
            _ = try AgentPayload.request(from: record)
            return "read"
        } catch {
            guard case .invalidArgument(let message) = error else { return "\(error)" }
            return message
        }
    }

    @Test("a field the record does not have, of another type, or missing is refused, naming where it is")
    func refusals() {
        let content = { (fields: AgentPayload.Record) -> DBusValue in fields.dbusValue }
        #expect(Self.refusal([:]) == "request lacks the field identifier")
        #expect(Self.refusal(["identifier": .uint32(1)]).hasPrefix("request.identifier:"))
        #expect(Self.refusal(["identifier": .string("x"), "titel": .string("t")]) == "request has no field \"titel\"")
        #expect(Self.refusal(["identifier": .string("x"), "content": content(["badge": .string("7")])]).hasPrefix("request.content.badge:"))
        #expect(Self.refusal(["identifier": .string("x"), "content": .string("{}")]).hasPrefix("request.content:"))
        #expect(Self.refusal(["identifier": .string("x"), "content": content(["userInfo": content(["n": .double(.nan)])])])
            == "request.content.userInfo.n is not a finite number")
        #expect(Self.refusal(["identifier": .string("x"), "content": content(["userInfo": content(["d": .structure([.string("x")])])])])
            .contains("a date is a (d)"))
        #expect(Self.refusal(["identifier": .string("x"), "content": content(["sound": content(["kind": .string("loud")])])])
            == "request.content.sound.kind is not a sound kind: \"loud\"")
        let trigger = { (fields: AgentPayload.Record) -> AgentPayload.Record in ["identifier": .string("x"), "trigger": fields.dbusValue] }
        #expect(Self.refusal(trigger(["kind": .string("never")])) == "request.trigger.kind is not a trigger kind: \"never\"")
        #expect(Self.refusal(trigger(["kind": .string("timeInterval")])) == "request.trigger lacks the field interval")
        #expect(Self.refusal(trigger(["kind": .string("push"), "interval": .double(60)])) == "request.trigger has no field \"interval\"")
        #expect(Self.refusal(trigger(["kind": .string("timeInterval"), "interval": .double(60), "anchorDate": .double(.infinity)]))
            == "request.trigger.anchorDate is not a finite date")
        #expect(Self.refusal(trigger(["kind": .string("timeInterval"), "interval": .double(-1)])).hasPrefix("the request's trigger cannot be honoured"))
        #expect(Self.refusal(trigger(["kind": .string("calendar"), "dateComponents": content(["timeZone": .string("Mars/Olympus")])]))
            == "request.trigger.dateComponents.timeZone is not a time zone: \"Mars/Olympus\"")
        #expect(Self.refusal(trigger(["kind": .string("calendar"), "dateComponents": content(["calendar": content(["identifier": .string("martian")])])]))
            == "request.trigger.dateComponents.calendar.identifier is not a calendar: \"martian\"")
        #expect(Self.refusal(trigger(["kind": .string("location")])) == "request.trigger lacks the field region")
        let huge = String(repeating: "x", count: AgentInterface.maximumArgumentBytes)
        #expect(Self.refusal(["identifier": .string(huge)]).hasPrefix("the record is"))
    }

    /// A request record with a calendar trigger of `components`.
    static func calendar(_ components: AgentPayload.Record) -> AgentPayload.Record {
        let trigger: AgentPayload.Record = ["kind": .string("calendar"), "dateComponents": components.dbusValue]
        return ["identifier": .string("c"), "trigger": trigger.dbusValue]
    }

    /// Calendar components at and past the ends of the range a date can have.
    static let outOfRangeComponents: [(String, Int64)] = [
        ("year", .max), ("year", .min), ("year", -Int64.max), ("year", 1_000_000_000_000), ("year", 0), ("year", 100_001),
        ("era", .max), ("era", -1), ("month", .max), ("month", .min), ("month", 0), ("month", 14), ("day", .max), ("day", 0), ("day", 32),
        ("hour", .max), ("hour", .min), ("hour", 24), ("minute", -1), ("minute", 60), ("second", 61), ("nanosecond", .max),
        ("nanosecond", .min), ("nanosecond", -1), ("nanosecond", 1_000_000_000), ("weekday", 0), ("weekday", 8),
        ("weekdayOrdinal", 6), ("quarter", 5), ("weekOfMonth", 0), ("weekOfYear", 54), ("yearForWeekOfYear", .max),
        ("dayOfYear", 367),
    ]

    @Test("a calendar component out of the range a date can have, Int64.max and Int64.min too, is refused naming it; a far year is taken")
    func calendarComponentBounds() throws {
        for (key, value) in Self.outOfRangeComponents {
            #expect(
                Self.refusal(Self.calendar([key: .int64(value)])) == "request.trigger.dateComponents.\(key) is \(value), out of the range a date can have",
                "\(key) = \(value)")
        }
        let far = try AgentPayload.request(from: try Self.sent(Self.calendar([
            "year": .int64(100_000), "month": .int64(12), "day": .int64(31), "hour": .int64(23), "minute": .int64(59),
            "nanosecond": .int64(999_999_999),
        ])))
        let trigger = try #require(far.trigger as? UNCalendarNotificationTrigger)
        #expect(trigger.dateComponents.year == 100_000 && trigger.dateComponents.nanosecond == 999_999_999)
        #expect(trigger.nextTriggerDate() != nil)
    }

    @Test("a list of requests holding one whose trigger cannot be honoured is refused whole when read, naming it, and not written")
    func listsCheckTriggers() throws {
        let good = UNNotificationRequest(
            identifier: "good", content: UNNotificationContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))
        let goodRecord = try AgentPayload.encode(good)
        let interval = { (seconds: Double, repeats: Bool) -> AgentPayload.Record in
            let trigger: AgentPayload.Record = ["kind": .string("timeInterval"), "interval": .double(seconds), "repeats": .boolean(repeats)]
            return ["identifier": .string("bad"), "trigger": trigger.dbusValue]
        }
        let region: AgentPayload.Record = ["latitude": .double(91), "longitude": .double(0), "radius": .double(100)]
        let unhonoured: [AgentPayload.Record] = [
            interval(-1, false), interval(1e300, false), interval(.infinity, false), interval(59, true),
            ["identifier": .string("bad"), "trigger": (["kind": .string("location"), "region": region.dbusValue] as AgentPayload.Record).dbusValue],
        ]
        for bad in unhonoured {
            #expect(throws: NotificationAgentError.self, "\(bad)") { try AgentPayload.request(from: bad) }
            do {
                _ = try AgentPayload.requests(from: try [goodRecord, bad].map(Self.sent))
                Issue.record("a list holding \(bad) was read")
            } catch {
                guard case .invalidArgument(let message)? = error as? NotificationAgentError else { throw error }
                #expect(message.hasPrefix("requests[1].trigger cannot be honoured"), "\(message)")
            }
        }
        #expect(try AgentPayload.requests(from: [goodRecord]).map(\.identifier) == ["good"])
        let refusedInterval = UNNotificationRequest(
            identifier: "bad", content: UNNotificationContent(), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 1e300, repeats: false))
        #expect(throws: NotificationTriggerError.timeIntervalAboveMaximum(1e300)) { try AgentPayload.encode([good, refusedInterval]) }
        let refusedDate = UNNotificationRequest(
            identifier: "bad", content: UNNotificationContent(),
            trigger: UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 100_001), repeats: false))
        #expect { try AgentPayload.encode([good, refusedDate]) } throws: { ($0 as? UNError)?.code == .notificationInvalidNoDate }
        #expect(try AgentPayload.encode([good]) == [goodRecord])
    }

    @Test("a clipping rectangle that is not finite, has no size or leaves the unit square is refused, in a record and in a file")
    func clippingRects() throws {
        func attachment(_ rect: [Double]) -> AgentPayload.Record {
            let fields: AgentPayload.Record = [
                "url": .string("file:///tmp/a.png"), "thumbnailClippingRect": .structure(rect.map(DBusValue.double)),
            ]
            let content: AgentPayload.Record = ["attachments": [fields].dbusValue]
            return ["identifier": .string("r"), "content": content.dbusValue]
        }
        for rect in [[.nan, 0, 1, 1], [0, 0, .infinity, 1], [1e300, 0, 1, 1], [-0.1, 0, 0.5, 0.5], [0, 0, 0, 1], [0.5, 0, 0.6, 1]] as [[Double]] {
            #expect(Self.refusal(attachment(rect)).hasSuffix("thumbnailClippingRect is not finite, of positive size and within the unit square"), "\(rect)")
        }
        #expect(try AgentPayload.request(from: attachment([0.25, 0.25, 0.5, 0.75])).content.attachments.first?.thumbnailClippingRect
            == ThumbnailClippingRect(x: 0.25, y: 0.25, width: 0.5, height: 0.75))
        // A state file is outside input too.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ThumbnailClippingRect.self, from: Data(#"{"x":1e300,"y":0,"width":1,"height":1}"#.utf8))
        }
        #expect(try JSONDecoder().decode(ThumbnailClippingRect.self, from: Data(#"{"x":0,"y":0,"width":1,"height":1}"#.utf8)).isWholeImage)
    }

    @Test("a response stored by the agent reads back, and one stored as JSON by an earlier agent still reads")
    func storedResponses() throws {
        let notification = UNNotification(
            date: Date(timeIntervalSinceReferenceDate: 1_000), request: UNNotificationRequest(identifier: "s", content: try Self.fullContent(), trigger: nil))
        let response = UNTextInputNotificationResponse(notification: notification, actionIdentifier: "reply", userText: "ok", activationToken: nil)
        let stored = try AgentStoredResponse(response)
        let file = try JSONEncoder().encode(stored)
        #expect(try JSONDecoder().decode(AgentStoredResponse.self, from: file) == stored)
        #expect(stored.record == (try AgentPayload.encode(response)))
        let earlier = String(decoding: try JSONEncoder().encode(try NotificationResponseSnapshot(response)), as: UTF8.self)
        #expect(try AgentStoredResponse(json: earlier) == stored)
        #expect(throws: NotificationAgentError.self) { try AgentStoredResponse(json: "{not json") }
    }
}
