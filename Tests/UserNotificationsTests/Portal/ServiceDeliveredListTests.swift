import Foundation
import Testing
@testable import UserNotifications

@Suite("Service engine: the delivered list finds its oldest records by date")
struct ServiceDeliveredListTests {
    static func record(_ identifier: String, at seconds: TimeInterval) -> ServiceDelivered {
        let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)
        return ServiceDelivered(notification: UNNotification(date: Date(timeIntervalSince1970: seconds), request: request), actions: [], nonce: nil)
    }

    @Test("trimming drops the oldest by date, not by the order recorded; a tie goes to the one recorded first")
    func oldestByDate() {
        var list = ServiceDeliveredList()
        list.record(Self.record("late", at: 30))
        list.record(Self.record("early", at: 10))
        list.record(Self.record("tieA", at: 20))
        list.record(Self.record("tieB", at: 20))
        #expect(list.trim(to: 4).isEmpty)
        #expect(list.trim(to: 2).map(\.identifier) == ["early", "tieA"])
        #expect(Set(list.identifiers) == ["tieB", "late"])
    }

    @Test("a record replaced or removed leaves the order by date with it")
    func replacedAndRemoved() {
        var list = ServiceDeliveredList()
        list.record(Self.record("a", at: 10))
        list.record(Self.record("b", at: 20))
        list.record(Self.record("c", at: 30))
        // "a" is shown again, later: it is now the newest.
        list.record(Self.record("a", at: 40))
        #expect(list.count == 3)
        #expect(list["a"]?.notification.date == Date(timeIntervalSince1970: 40))
        #expect(list.remove("b")?.identifier == "b")
        #expect(list.remove("b") == nil)
        #expect(list.trim(to: 1).map(\.identifier) == ["c"])
        #expect(list.identifiers == ["a"])
        #expect(list.trim(to: 0).map(\.identifier) == ["a"])
        #expect(list.isEmpty)
    }
}
