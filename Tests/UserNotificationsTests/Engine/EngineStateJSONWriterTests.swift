import Foundation
import Testing
@testable import UserNotifications

@Suite("State files: the pending and delivered lists written by hand are the bytes JSONEncoder writes")
struct EngineStateJSONWriterTests {
    static let savedAt = Date(timeIntervalSinceReferenceDate: 812_345_678.5)

    /// `count` pending entries of random requests (``RandomRequests``),
    /// with random anchors and fire dates.
    static func pending(_ count: Int, seed: UInt64) throws -> [EngineState.Pending] {
        var generator = RandomRequests.Generator(state: seed)
        return try (0..<count).map { _ in
            EngineState.Pending(
                request: try NotificationRequestSnapshot(RandomRequests.request(&generator)),
                anchor: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)),
                nextFire: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...1_000_000_000, using: &generator))))
        }
    }

    /// `count` delivered entries of random requests, dates, servers and ids, half with a nonce.
    static func delivered(_ count: Int, seed: UInt64) throws -> [EngineState.Delivered] {
        var generator = RandomRequests.Generator(state: seed)
        return try (0..<count).map { _ in
            let date = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator))
            return EngineState.Delivered(
                notification: try NotificationSnapshot(UNNotification(date: date, request: RandomRequests.request(&generator))),
                server: RandomRequests.text(&generator), id: UInt32.random(in: 0...UInt32.max, using: &generator),
                nonce: Bool.random(using: &generator) ? RandomRequests.text(&generator) : nil)
        }
    }

    @Test("1,000 random pending and 500 delivered entries of the common shape: byte for byte JSONEncoder's file, read back equal")
    func randomEntries() throws {
        var state = EngineState()
        state.pending = try Self.pending(1_000, seed: 7)
        state.delivered = try Self.delivered(500, seed: 8)
        state.authorizationStatus = 2
        state.categories = [NotificationCategorySnapshot(UNNotificationCategory(
            identifier: "pending", actions: [UNNotificationAction(identifier: "ok", title: "OK")], intentIdentifiers: []))]
        let fast = try EngineStateJSONWriter.envelope(state, formatVersion: 3, savedAt: Self.savedAt)
        let whole = try StateFileEnvelope<EngineState>.encodeWhole(state, formatVersion: 3, savedAt: Self.savedAt)
        #expect(fast == whole)
        #expect(try StateFileEnvelope<EngineState>.decode(fast, understanding: 3).get().pending == state.pending)
        #expect(try StateFileEnvelope<EngineState>.decode(fast, understanding: 3).get().delivered == state.delivered)
        for entry in state.pending {
            var out: [UInt8] = []
            #expect(EngineStateJSONWriter.write(entry, into: &out), "the common shape is written by hand")
        }
        for entry in state.delivered {
            var out: [UInt8] = []
            #expect(EngineStateJSONWriter.write(entry, into: &out), "the common shape is written by hand")
        }
    }

    @Test("entries of other shapes are written by JSONEncoder among the hand-written ones, and the file reads back equal")
    func otherShapes() throws {
        var state = EngineState()
        state.pending = try Self.pending(20, seed: 9)
        let content = UNMutableNotificationContent()
        content.title = "rich"
        content.userInfo = ["k": [1, "two"]]
        content.sound = .default
        for (index, trigger) in [
            UNCalendarNotificationTrigger(dateComponents: DateComponents(hour: 9, minute: 30), repeats: true),
            nil, UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false),
        ].enumerated() {
            let request = UNNotificationRequest(identifier: "rich-\(index)", content: content, trigger: trigger)
            state.pending.insert(
                EngineState.Pending(
                    request: try NotificationRequestSnapshot(request), anchor: Self.savedAt, nextFire: Self.savedAt.addingTimeInterval(60)),
                at: index * 7)
        }
        state.delivered = try Self.delivered(5, seed: 10)
        let richRequest = UNNotificationRequest(identifier: "rich-shown", content: content, trigger: nil)
        state.delivered.insert(
            EngineState.Delivered(notification: try NotificationSnapshot(UNNotification(date: Self.savedAt, request: richRequest)), server: ":1.7", id: 9),
            at: 2)
        var out: [UInt8] = []
        #expect(!EngineStateJSONWriter.write(state.pending[0], into: &out) && out.isEmpty)
        #expect(!EngineStateJSONWriter.write(state.delivered[2], into: &out) && out.isEmpty)
        let fast = try EngineStateJSONWriter.envelope(state, formatVersion: 3, savedAt: Self.savedAt)
        #expect(fast == (try StateFileEnvelope<EngineState>.encodeWhole(state, formatVersion: 3, savedAt: Self.savedAt)))
        #expect(try StateFileEnvelope<EngineState>.decode(fast, understanding: 3).get().pending == state.pending)
        #expect(try StateFileEnvelope<EngineState>.decode(fast, understanding: 3).get().delivered == state.delivered)
    }

    @Test("an empty state, and numbers at the edges of their forms, as JSONEncoder writes them")
    func edges() throws {
        #expect(try EngineStateJSONWriter.envelope(EngineState(), formatVersion: 1, savedAt: Self.savedAt)
            == StateFileEnvelope<EngineState>.encodeWhole(EngineState(), formatVersion: 1, savedAt: Self.savedAt))
        for value in [0, -0.0, 1, 0.1, 1e-7, 1e16, 123_456_789.125, -1e300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude] {
            let encoder = JSONEncoder()
            let text = String(decoding: try encoder.encode([value]), as: UTF8.self)
            #expect(text == "[\(EngineStateJSONWriter.number(value))]")
        }
    }
}
