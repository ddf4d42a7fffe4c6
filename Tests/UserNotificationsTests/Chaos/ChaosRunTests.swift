import DBus
import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// A bounded run that drives notifications through the center while the server misbehaves:
/// restarts with its id counter reset, duplicated and reordered signals, actions for other
/// apps' ids, spoofed signals from a rogue connection, closes that never come. At the end:
/// every action the server reported for a live notification reached the delegate exactly
/// once, nothing else did, and the delivered list matches the server's live notifications.
///
/// `CHAOS_NOTIFICATIONS` sets the size (default 300: a few seconds, in `make test`).
@Suite("Chaos run", .serialized)
struct ChaosRunTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
    }

    @Test("responses arrive exactly once, for live notifications only, whatever the server does")
    func chaos() async throws {
        let total = Int(ProcessInfo.processInfo.environment["CHAOS_NOTIFICATIONS"] ?? "") ?? 300
        var random = Generator(state: 0xC0FFEE)
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(UUID().uuidString.prefix(8))").path
        var testBus = try await TestBus(socketPath: socket)
        var server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let center = UNUserNotificationCenter(
            identity: CenterFixture.identity, bus: .address("unix:path=\(socket)"), persistent: false)
        let delegate = await RecordingDelegate()
        center.delegate = delegate
        var rogue = try await DBusConnection.connect(to: testBus.bus)

        var expected: [String: Int] = [:]
        var faults: [String: Int] = [:]
        func fault(_ name: String) { faults[name, default: 0] += 1 }

        for index in 0..<total {
            let identifier = "n\(index)"
            let content = UNMutableNotificationContent()
            content.title = identifier
            try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
            guard let id = server.notifications.last(where: { $0.request.summary == identifier })?.id else {
                Issue.record("no id for \(identifier)")
                continue
            }
            var script = FakeNotificationServer.Script()
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                script.duplicateSignals = true
                fault("duplicated signals")
            case 1:
                script.closeBeforeAction = true
                fault("close before action")
            default:
                break
            }
            server.script = script
            if Int.random(in: 0..<75, using: &random) == 0 {
                // The bus daemon dies and another starts at the same address: the center sees
                // the disconnect, forgets what it had shown, and connects again on its next add.
                await testBus.kill()
                #expect(await eventually { await center.deliveredNotifications().isEmpty })
                try? FileManager.default.removeItem(atPath: socket)
                testBus = try await TestBus(socketPath: socket)
                server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
                rogue = try await DBusConnection.connect(to: testBus.bus)
                fault("bus killed and restarted")
                continue
            }
            switch Int.random(in: 0..<12, using: &random) {
            case 0...5:
                server.invokeAction(id: id, key: "default")
                expected[identifier, default: 0] += 1
            case 6:
                server.broadcastForeignAction(id: id &+ 1000)
                fault("foreign id")
            case 7:
                try rogue.send(.signal(
                    path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "ActionInvoked",
                    body: [.uint32(id), .string("default")]))
                fault("spoofed signal")
            case 8:
                await server.stop()
                server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
                // The new server's counter starts again: its ActionInvoked(id) names nobody of ours.
                server.broadcastForeignAction(id: id)
                fault("server restart")
            case 9:
                server.close(id: id, reason: .dismissed)
                server.close(id: id, reason: .dismissed)
                fault("double close")
            default:
                fault("close never comes")
            }
        }

        let expectedCount = expected.values.reduce(0, +)
        let responses = await delegate.responses.next(expectedCount, timeout: .seconds(30))
        let extra = await delegate.responses.extra(after: .milliseconds(500))
        var seen: [String: Int] = [:]
        for response in responses + extra { seen[response.notification.request.identifier, default: 0] += 1 }
        #expect(seen == expected, "responses per notification differ from the actions the server reported")
        #expect(extra.isEmpty)

        let live = server.liveIDs
        let delivered = await center.deliveredNotifications()
        let deliveredHere = delivered.compactMap { notification in
            server.notifications.last { $0.request.summary == notification.request.identifier }?.id
        }
        #expect(Set(deliveredHere) == live, "the delivered list and the server's live notifications differ")
        print("chaos: \(total) notifications, \(expectedCount) responses checked, faults: \(faults.sorted { $0.key < $1.key })")
    }
}
