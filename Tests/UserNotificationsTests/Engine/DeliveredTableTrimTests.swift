import Foundation
import Testing
@testable import UserNotifications

@Suite("Delivered list: a service's bound drops the oldest by date")
struct DeliveredTableTrimTests {
    static func entry(_ identifier: String, at seconds: TimeInterval, id: UInt32) -> DeliveredEntry {
        let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)
        return DeliveredEntry(
            notification: UNNotification(date: Date(timeIntervalSince1970: seconds), request: request),
            key: ServerKey(server: "org.freedesktop.portal.Desktop", id: id))
    }

    /// A table with `entries` (identifier, date in seconds, id) recorded in order.
    static func table(_ entries: [(String, TimeInterval, UInt32)]) -> DeliveredTable {
        var table = DeliveredTable()
        for (identifier, seconds, id) in entries { table.record(entry(identifier, at: seconds, id: id)) }
        return table
    }

    @Test("trimming drops the oldest by date, not by the order recorded; a tie goes to the one recorded first")
    func oldestByDate() {
        var table = Self.table([("late", 30, 1), ("early", 10, 2), ("tieA", 20, 3), ("tieB", 20, 4)])
        #expect(table.trim(to: 4).isEmpty)
        #expect(table.trim(to: 2).map(\.identifier) == ["early", "tieA"])
        #expect(Set(table.live.keys) == ["tieB", "late"])
        #expect(table.indexCount == 2)
    }

    @Test("an entry replaced or removed leaves the order by date with it")
    func replacedAndRemoved() {
        var table = Self.table([("a", 10, 1), ("b", 20, 2), ("c", 30, 3)])
        // "a" is shown again, later: it is now the newest.
        table.record(Self.entry("a", at: 40, id: 1))
        #expect(table.live.count == 3)
        #expect(table["a"]?.notification.date == Date(timeIntervalSince1970: 40))
        #expect(table.remove("b")?.identifier == "b")
        #expect(table.remove("b") == nil)
        #expect(!table.knows(ServerKey(server: "org.freedesktop.portal.Desktop", id: 2)))
        #expect(table.trim(to: 1).map(\.identifier) == ["c"])
        #expect(Array(table.live.keys) == ["a"])
        #expect(table.trim(to: 0).map(\.identifier) == ["a"])
        #expect(table.isEmpty)
    }
}
