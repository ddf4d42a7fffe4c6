import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The center's state file when it cannot be read for a while, and when two centers of one
/// app write it.
@Suite("Center state: unreadable, and shared")
struct StateSharingTests {
    static func later(_ identifier: String, attachment: URL? = nil) throws -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        if let attachment {
            content.attachments = [try UNNotificationAttachment(identifier: "img", url: attachment, options: nil)]
        }
        return UNNotificationRequest(
            identifier: identifier, content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))
    }

    static func attachmentFiles(in home: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: home.appendingPathComponent("attachments").path)
        return (walker?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test("a state file that cannot be read is kept with its attachments, saves wait, and it is taken in once readable")
    func unreadableStateIsKept() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let home = fixture.stateHome
        let image = try AttachmentStoreTests.png()
        defer { try? FileManager.default.removeItem(at: image) }
        try await fixture.center.add(try Self.later("kept", attachment: image))
        try await fixture.center.writeStateNow()
        let file = home.appendingPathComponent("notifications.json")
        let original = try Data(contentsOf: file)
        let attachments = Self.attachmentFiles(in: home)
        try #require(attachments.count == 1)

        // A folder where the lock file should be: the lock cannot be opened (EISDIR), as
        // root too, and the state cannot be read.
        let lock = home.appendingPathComponent("notifications.lock")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: false)
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: home)
        #expect(await relaunched.pendingNotificationRequests().isEmpty)
        #expect(Self.attachmentFiles(in: home) == attachments, "attachments of an unread state were pruned")
        try await relaunched.add(try Self.later("added"))
        await #expect(throws: StateStoreError.self) { try await relaunched.writeStateNow() }
        #expect(try Data(contentsOf: file) == original, "an unread state file was overwritten")

        // Readable again: the next save takes the file's requests in first.
        try FileManager.default.removeItem(at: lock)
        try await relaunched.add(try Self.later("after"))
        try await relaunched.writeStateNow()
        let saved = try #require(await savedState(in: home))
        #expect(Set(saved.pending.map(\.request.identifier)) == ["kept", "added", "after"])
        #expect(Set(await relaunched.pendingNotificationRequests().map(\.identifier)) == ["kept", "added", "after"])
        #expect(Self.attachmentFiles(in: home) == attachments)
    }

    @Test("two centers of one app on one state file keep each other's requests; a removal by one stays removed")
    func twoCentersMerge() async throws {
        let (fixture, second) = try await Self.twoCenters()
        let first = fixture.center
        try await first.add(try Self.later("from-first"))
        try await first.add(try Self.later("removed-by-first"))
        try await first.writeStateNow()
        try await second.add(try Self.later("from-second"))
        try await second.writeStateNow()
        first.removePendingNotificationRequests(withIdentifiers: ["removed-by-first"])
        try await first.writeStateNow()

        let saved = try #require(await savedState(in: fixture.stateHome))
        #expect(Set(saved.pending.map(\.request.identifier)) == ["from-first", "from-second"])
    }

    @Test("when both centers change one request, the one saved last wins")
    func lastWriterWinsPerRequest() async throws {
        let (fixture, second) = try await Self.twoCenters()
        let first = fixture.center
        try await first.add(try Self.request("same", body: "first"))
        try await first.writeStateNow()
        try await second.add(try Self.request("same", body: "second"))
        try await second.writeStateNow()

        let saved = try #require(await savedState(in: fixture.stateHome))
        #expect(saved.pending.map(\.request.content.body) == ["second"])
    }

    /// A fixture and a second center of the same app on its state folder; both have read the
    /// (empty) state, so neither has seen what the other writes next.
    static func twoCenters() async throws -> (CenterFixture, UNUserNotificationCenter) {
        let fixture = try await CenterFixture(persistent: true)
        let second = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
        #expect(await fixture.center.pendingNotificationRequests().isEmpty)
        #expect(await second.pendingNotificationRequests().isEmpty)
        return (fixture, second)
    }

    static func request(_ identifier: String, body: String) throws -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        content.body = body
        return UNNotificationRequest(
            identifier: identifier, content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))
    }
}
