import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

@Suite("Attachment store")
struct AttachmentStoreTests {
    static func png(_ name: String = "pic", extra: Int = 64) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).png")
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        try Data(header + [UInt8](repeating: 0, count: extra)).write(to: url)
        return url
    }

    func request(_ identifier: String, image: URL, trigger: UNNotificationTrigger? = nil) throws -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = identifier
        content.attachments = [try UNNotificationAttachment(identifier: "img", url: image, options: nil)]
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    func storedFiles(_ fixture: CenterFixture) -> [String] {
        let root = fixture.stateHome.appendingPathComponent("attachments")
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "png" }.map(\.path)
    }

    @Test("the file is copied into the store, the copy is shown, the original stays")
    func copied() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try Self.png()
        defer { try? FileManager.default.removeItem(at: image) }
        try await fixture.center.add(try request("photo", image: image))
        let stored = storedFiles(fixture)
        #expect(stored.count == 1)
        #expect(fixture.server.notifications.first?.request.hints.imagePath == URL(fileURLWithPath: stored[0]).absoluteString)
        #expect(FileManager.default.fileExists(atPath: image.path))
        let delivered = try #require(await fixture.center.deliveredNotifications().first)
        #expect(delivered.request.content.attachments.first?.url.path == stored[0])
    }

    @Test("the copy is removed when the notification is withdrawn")
    func removedOnWithdrawal() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try Self.png()
        defer { try? FileManager.default.removeItem(at: image) }
        try await fixture.center.add(try request("photo", image: image))
        #expect(storedFiles(fixture).count == 1)
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["photo"])
        #expect(await eventually { storedFiles(fixture).isEmpty })
    }

    @Test("the copy is removed when the person dismisses the notification, and when a pending request is cancelled")
    func removedOnDismissAndCancel() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try Self.png()
        defer { try? FileManager.default.removeItem(at: image) }
        try await fixture.center.add(try request("shown", image: image))
        try await fixture.center.add(try request("later", image: image, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)))
        #expect(storedFiles(fixture).count == 2)
        let id = try requireID(fixture.server.notifications.first?.id)
        fixture.server.close(id: id, reason: .dismissed)
        fixture.center.removePendingNotificationRequests(withIdentifiers: ["later"])
        #expect(await eventually { storedFiles(fixture).isEmpty })
    }

    @Test("at the next launch, files no restored request uses are removed")
    func prunedAtLaunch() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try Self.png()
        defer { try? FileManager.default.removeItem(at: image) }
        try await fixture.center.add(try request("kept", image: image, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)))
        let orphan = fixture.stateHome.appendingPathComponent("attachments/orphan")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data([1]).write(to: orphan.appendingPathComponent("left.png"))
        let saved = fixture.stateHome.appendingPathComponent("notifications.json")
        #expect(await eventually { ((try? String(contentsOf: saved, encoding: .utf8)) ?? "").contains("kept") })
        let relaunched = CenterFixture.makeCenter(bus: fixture.testBus, clock: fixture.clock, persistent: true, stateHome: fixture.stateHome)
        #expect(await relaunched.pendingNotificationRequests().map(\.identifier) == ["kept"])
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(storedFiles(fixture).count == 1)
    }

    @Test("pruning removes a link in the store, never what it points to")
    func pruneDoesNotFollowLinks() throws {
        let scratch = try ScratchFolder()
        let root = scratch.url.appendingPathComponent("attachments")
        let victim = scratch.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: victim.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try Data([1]).write(to: victim.appendingPathComponent("precious.png"))
        try Data([2]).write(to: victim.appendingPathComponent("inner/deeper.png"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("linked"), withDestinationURL: victim)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("real/inner-link"), withDestinationURL: victim.appendingPathComponent("inner"))

        AttachmentStore(root: root).prune(keeping: [])

        #expect(try scratch.names(in: root).isEmpty)
        #expect(try scratch.names(in: victim) == ["inner", "precious.png"])
        #expect(try scratch.names(in: victim.appendingPathComponent("inner")) == ["deeper.png"])
    }

    @Test("an add refused after the copy was made (a trigger that never fires) leaves no copy")
    func refusedAfterCopy() async throws {
        let fixture = try await CenterFixture(persistent: true)
        let image = try Self.png()
        defer { try? FileManager.default.removeItem(at: image) }
        let past = UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2001, month: 1, day: 1, hour: 9), repeats: false)
        await #expect(throws: UNError.self) { try await fixture.center.add(try request("never", image: image, trigger: past)) }
        #expect(storedFiles(fixture).isEmpty)
        try await fixture.center.add(try request("later", image: image, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        #expect(storedFiles(fixture).count == 1)
    }

    @Test("past the quota, add fails with attachmentMoveIntoDataStoreFailed and stores nothing")
    func quota() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = AttachmentStore(root: folder, quota: 100)
        let image = try Self.png(extra: 200)
        defer { try? FileManager.default.removeItem(at: image) }
        let attachment = try UNNotificationAttachment(identifier: "big", url: image, options: nil)
        #expect(throws: UNError.self) { try store.store([attachment]) }
        do {
            _ = try store.store([attachment])
        } catch let error as UNError {
            #expect(error.code == .attachmentMoveIntoDataStoreFailed)
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty ?? true)
    }
}

@Suite("Attachment store: requests that are not shown")
struct AttachmentStoreNotShownTests {
    @Test("when the delegate shows nothing, the stored copy goes at once")
    func notPresented() async throws {
        let fixture = try await CenterFixture(persistent: true)
        await MainActor.run { fixture.delegate.options = [] }
        let image = try AttachmentStoreTests.png()
        defer { try? FileManager.default.removeItem(at: image) }
        let content = UNMutableNotificationContent()
        content.title = "hidden"
        content.attachments = [try UNNotificationAttachment(identifier: "img", url: image, options: nil)]
        try await fixture.center.add(UNNotificationRequest(identifier: "hidden", content: content, trigger: nil))
        let root = fixture.stateHome.appendingPathComponent("attachments")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        #expect(left.isEmpty)
    }
}
