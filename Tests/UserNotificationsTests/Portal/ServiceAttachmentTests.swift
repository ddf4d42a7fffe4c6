import DBus
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Portal and GNOME engines: attachments copied into the app's store, removed once nothing holds them")
struct ServiceAttachmentTests {
    let files: TemporaryDirectory
    let imageBytes: [UInt8] = FileHeader.png + (0..<2000).map { UInt8($0 % 251) }

    init() throws {
        files = try TemporaryDirectory()
    }

    /// A new image file of `imageBytes`, attached as `identifier`.
    func attachment(_ identifier: String) throws -> UNNotificationAttachment {
        let url = try files.file(named: "\(identifier)-\(UUID().uuidString).png", header: imageBytes)
        return try UNNotificationAttachment(identifier: identifier, url: url)
    }

    /// The folders of the attachment store in the app's state folder `state`, sorted.
    static func storedFolders(in state: URL) -> [String] {
        let store = state.appendingPathComponent("attachments").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []).sorted()
    }

    static func inStore(_ request: UNNotificationRequest?, of state: URL) -> Bool {
        let store = state.appendingPathComponent("attachments").path + "/"
        guard let attachments = request?.content.attachments, !attachments.isEmpty else { return false }
        return attachments.allSatisfy { $0.url.path.hasPrefix(store) && FileManager.default.fileExists(atPath: $0.url.path) }
    }

    static let inAMinute = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)

    @Test("the portal gets a scheduled request's image as attached, though the app removed its file before the trigger fired")
    func copiedAtAdd() async throws {
        let state = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: state.url)
        let attachment = try attachment("avatar")
        try await fixture.post("later", trigger: Self.inAMinute, attachments: [attachment], sound: nil)
        let pending = await fixture.center.pendingNotificationRequests()
        #expect(Self.inStore(pending.first, of: state.url), "the pending request names the store's copy")
        #expect(Self.storedFolders(in: state.url).count == 1)

        try FileManager.default.removeItem(at: attachment.url)
        fixture.clock.advance(by: 61)
        #expect(await eventually { fixture.portal.added.last?.id == "later" })
        let icon = try #require(fixture.portal.files.first { $0.key == "icon" })
        #expect(icon.bytes == imageBytes)
        #expect(await eventually { await fixture.center.deliveredNotifications().map(\.request.identifier) == ["later"] })
        #expect(Self.storedFolders(in: state.url).count == 1, "the listed notification holds the copy")

        fixture.center.removeDeliveredNotifications(withIdentifiers: ["later"])
        #expect(await eventually { Self.storedFolders(in: state.url).isEmpty })
        await fixture.stop()
    }

    @Test("a refused add keeps no copy; a replaced or removed request's copy goes; a new launch keeps what it restores and prunes the rest")
    func holdsAcrossChangesAndLaunches() async throws {
        let state = try ScratchFolder()
        let fixture = try await PortalFixture(stateDirectory: state.url)
        // A date in the past that never comes again: the add is refused after the copy was made.
        let past = UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2001, month: 1, day: 1, hour: 9), repeats: false)
        await #expect(throws: UNError.self) { try await fixture.post("never", trigger: past, attachments: [try attachment("never")]) }
        #expect(Self.storedFolders(in: state.url).isEmpty)

        try await fixture.post("a", trigger: Self.inAMinute, attachments: [try attachment("first")])
        try await fixture.post("a", trigger: Self.inAMinute, attachments: [try attachment("second")])
        try await fixture.post("b", trigger: Self.inAMinute, attachments: [try attachment("b")])
        #expect(Self.storedFolders(in: state.url).count == 2, "the replaced request's copy went")
        fixture.center.removePendingNotificationRequests(withIdentifiers: ["b"])
        #expect(await eventually { Self.storedFolders(in: state.url).count == 1 })
        let kept = try #require(Self.storedFolders(in: state.url).first)
        try await fixture.center.writeStateNow()

        // A folder no request names, as a launch that ended before its save leaves one.
        let stray = state.url.appendingPathComponent("attachments/stray")
        try FileManager.default.createDirectory(at: stray, withIntermediateDirectories: false)
        try Data(imageBytes).write(to: stray.appendingPathComponent("left.png"))
        let relaunched = fixture.relaunchedCenter(clock: TestNotificationClock(now: fixture.clock.now))
        let restored = await relaunched.pendingNotificationRequests()
        #expect(restored.map(\.identifier) == ["a"])
        #expect(restored.first?.content.attachments.first?.identifier == "second")
        #expect(Self.inStore(restored.first, of: state.url))
        #expect(Self.storedFolders(in: state.url) == [kept], "the stray folder is pruned, the restored request's stays")
        try await relaunched.writeStateNow()
        await fixture.stop()
    }

    @Test("GNOME: a shown notification holds its copy until it is replaced or withdrawn")
    func gnomeDelivered() async throws {
        let state = try ScratchFolder()
        let fixture = try await GnomeFixture(stateDirectory: state.url)
        func post(_ identifier: String, _ attachment: UNNotificationAttachment) async throws {
            let content = UNMutableNotificationContent()
            content.title = "Ada"
            content.attachments = [attachment]
            try await fixture.center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
        }
        try await post("shown", try attachment("first"))
        let delivered = await fixture.center.deliveredNotifications()
        #expect(Self.inStore(delivered.first?.request, of: state.url))
        #expect(Self.storedFolders(in: state.url).count == 1)
        try await post("shown", try attachment("second"))
        #expect(Self.storedFolders(in: state.url).count == 1, "the replaced notification's copy went")
        #expect(await fixture.center.deliveredNotifications().first?.request.content.attachments.first?.identifier == "second")
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["shown"])
        #expect(await eventually { Self.storedFolders(in: state.url).isEmpty })
        await fixture.stop()
    }
}
