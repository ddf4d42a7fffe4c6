import DBus
import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// A delegate that holds its answer to the first `willPresent` until released, and counts the
/// questions under way per identifier. Its record is read without the main actor.
final class GatedDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    struct Record: Sendable {
        var asked: [String] = []
        var mostAtOnce: [String: Int] = [:]
        var underWay: [String: Int] = [:]
        var gate: CheckedContinuation<Void, Never>?
        var holding = true
    }

    let record = Locked(Record())

    var asked: [String] { record.withLock { $0.asked } }
    var mostAtOnce: [String: Int] { record.withLock { $0.mostAtOnce } }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        let identifier = notification.request.identifier
        let hold = record.withLock { record in
            record.asked.append(notification.request.content.title)
            record.underWay[identifier, default: 0] += 1
            record.mostAtOnce[identifier] = max(record.mostAtOnce[identifier] ?? 0, record.underWay[identifier] ?? 0)
            defer { record.holding = false }
            return record.holding
        }
        if hold {
            await withCheckedContinuation { continuation in record.withLock { $0.gate = continuation } }
        }
        record.withLock { $0.underWay[identifier, default: 0] -= 1 }
        return [.banner, .list]
    }

    func release() {
        record.withLock { record in
            record.gate?.resume()
            record.gate = nil
        }
    }
}

@Suite("Portal engine: one delivery at a time per identifier")
struct PortalDeliveryOrderTests {
    static func request(_ identifier: String, title: String) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("two adds of one identifier in a burst do not interleave and the later wins; another identifier does not wait")
    func burst() async throws {
        let fixture = try await PortalFixture()
        let delegate = GatedDelegate()
        fixture.center.delegate = delegate
        let center = fixture.center
        // Calls made while the engine is being chosen reach it one after the other; this test
        // is about the portal engine's own order, once chosen.
        #expect(await center.engineKind == .portal)
        let first = Task { try await center.add(Self.request("same", title: "First")) }
        #expect(await eventually { delegate.asked == ["First"] })
        let second = Task { try await center.add(Self.request("same", title: "Second")) }
        // The other identifier goes through while "same" is held.
        try await center.add(Self.request("other", title: "Other"))
        #expect(fixture.portal.added.map(\.id) == ["other"])
        // Give the second add of "same" time to overtake, which it must not.
        try await Task.sleep(for: .milliseconds(200))
        let askedSoFar = delegate.asked
        #expect(askedSoFar == ["First", "Other"])
        delegate.release()
        try await first.value
        try await second.value
        #expect(delegate.mostAtOnce["same"] == 1)
        #expect(delegate.asked == ["First", "Other", "Second"])
        let same = fixture.portal.added.filter { $0.id == "same" }.map { $0.notification["title"] }
        #expect(same == [.string("First"), .string("Second")])
        let shown = await center.deliveredNotifications().first { $0.request.identifier == "same" }
        #expect(shown?.request.content.title == "Second")
        await fixture.stop()
    }
}
