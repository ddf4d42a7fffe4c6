import DBus
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// What the engine sends follows what the portal says it takes: its `version` property and,
/// from version 2, the `category` and `button-purpose` lists of `SupportedOptions`. Both come
/// from a bus peer, so values of the wrong type or size count as absent.
@Suite("Portal engine: version and SupportedOptions negotiation")
struct PortalNegotiationTests {
    static let purposes = ("button-purpose", DBusValue.stringArray([PortalInterface.replyPurpose]))

    @Test("version 2 that advertises no reply purpose: the reply action is a plain button, no category is guessed")
    func noReplyPurpose() async throws {
        let fixture = try await PortalFixture(
            version: 2, supportedOptions: .variantDictionary([("category", .stringArray(["im.received"]))]))
        try await fixture.post("a")
        let notification = try #require(fixture.portal.added.last?.notification)
        #expect(notification["buttons"] == .array(element: .dictionary(key: .string, value: .variant), [
            .variantDictionary([("label", .string("Later")), ("action", .string("action.0"))]),
            .variantDictionary([("label", .string("Reply")), ("action", .string("action.1"))]),
        ]))
        // im.received is sent for a notification that offers a reply; here none is offered.
        #expect(notification["category"] == nil)
        // The other version 2 keys still go: the portal is version 2.
        #expect(notification["markup-body"] != nil)
        await fixture.stop()
    }

    @Test("a portal restarted as version 1 is read again: the next posts carry no version 2 key, and the buttons are plain")
    func restarted() async throws {
        let fixture = try await PortalFixture(version: 2)
        try await fixture.post("before")
        #expect(fixture.portal.added.last?.notification["markup-body"] != nil)
        await fixture.portal.stop()
        let restarted = try await FakeNotificationPortal.start(on: fixture.testBus.bus, version: 1)
        // The restart reaches the engine as a signal of the bus; posts made before it was
        // taken may still use version 2's keys, so the post is repeated (an update in place)
        // until one arrives as version 1's, which without the re-read never happens.
        let readAgain = await eventually(timeout: .seconds(10)) {
            try? await fixture.post("after")
            guard let notification = restarted.added.last?.notification else { return false }
            return Set(notification.keys).isDisjoint(with: ["markup-body", "sound", "display-hint", "category"])
        }
        #expect(readAgain, "\(restarted.added.last?.notification ?? [:])")
        let buttons = restarted.added.last?.notification["buttons"]
        #expect(buttons == .array(element: .dictionary(key: .string, value: .variant), [
            .variantDictionary([("label", .string("Later")), ("action", .string("action.0"))]),
            .variantDictionary([("label", .string("Reply")), ("action", .string("action.1"))]),
        ]))
        await restarted.stop()
        await fixture.stop()
    }

    @Test("version 2 that advertises no category: the reply purpose goes, no category does")
    func noCategories() async throws {
        let fixture = try await PortalFixture(version: 2, supportedOptions: .variantDictionary([Self.purposes]))
        try await fixture.post("a")
        let notification = try #require(fixture.portal.added.last?.notification)
        #expect("\(notification["buttons"] ?? .string(""))".contains(PortalInterface.replyPurpose))
        #expect(notification["category"] == nil)
        await fixture.stop()
    }

    @Test("an advertised category that names the app's category is sent as it is")
    func ownCategory() async throws {
        let fixture = try await PortalFixture(
            version: 2, supportedOptions: .variantDictionary([("category", .stringArray(["message", "im.received"])), Self.purposes]))
        try await fixture.post("a")
        #expect(fixture.portal.added.last?.notification["category"] == .string("message"))
        await fixture.stop()
    }

    @Test("a portal's properties: absent, zero or of the wrong type count as version 1; lists are bounded")
    func features() {
        #expect(PortalFeatures(version: nil, supportedOptions: nil) == .version1)
        #expect(PortalFeatures(version: .uint32(0), supportedOptions: nil).version == 1)
        #expect(PortalFeatures(version: .string("2"), supportedOptions: nil).version == 1)
        #expect(PortalFeatures(version: .uint32(2), supportedOptions: nil).hasVersion2Keys)
        #expect(!PortalFeatures(version: .uint32(1), supportedOptions: nil).hasVersion2Keys)

        let wrongTypes = PortalFeatures(
            version: .uint32(2),
            supportedOptions: .variantDictionary([("category", .string("im.received")), ("button-purpose", .int32(1))]))
        #expect(wrongTypes.categories.isEmpty)
        #expect(wrongTypes.buttonPurposes.isEmpty)
        #expect(PortalFeatures(version: .uint32(2), supportedOptions: .string("not a dictionary")).categories.isEmpty)

        let many = (0..<1_000).map { "category.\($0)" }
        let long = String(repeating: "x", count: 257)
        let flooded = PortalFeatures(
            version: .uint32(2), supportedOptions: .variantDictionary([("category", .stringArray(many + [long]))]))
        #expect(flooded.categories.count == PortalFeatures.maximumAdvertised)
        #expect(!flooded.categories.contains(long))
    }
}
