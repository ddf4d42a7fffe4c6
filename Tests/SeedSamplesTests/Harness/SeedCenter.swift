import Foundation
import Synchronization
import Testing
import UserNotifications
import UserNotificationsTesting

/// The private bus, fake notification server (KDE personality) and virtual clock that
/// `UNUserNotificationCenter.current()` is configured with, once, for this whole test target.
///
/// `current()` is a process-wide singleton, so every suite of this target shares it: the suites
/// are nested in the `.serialized` ``SeedSamplesTests`` suite, and each test starts with
/// ``reset()``.
final class SeedCenter: Sendable {
    let bus: TestBus
    let server: FakeNotificationServer
    let clock: TestNotificationClock
    /// GeoClue2 on the same private bus, which the center looks for location there.
    let geoClue: FakeGeoClue

    static let identity = ApplicationIdentity(id: "org.example.SeedSamples", displayName: "Seed Samples")

    /// The center the samples use.
    var center: UNUserNotificationCenter { .current() }

    private init(bus: TestBus, server: FakeNotificationServer, clock: TestNotificationClock, geoClue: FakeGeoClue) {
        self.bus = bus
        self.server = server
        self.clock = clock
        self.geoClue = geoClue
    }

    // MARK: - The shared instance

    private static let starting = Mutex<Task<SeedCenter, any Error>?>(nil)
    /// The bus to kill when the process exits (a static instance is never deinitialized).
    private static let busToKill = Mutex<TestBus?>(nil)

    /// Starts the bus and server and configures `current()` the first time; the same instance
    /// afterwards.
    static func shared() async throws -> SeedCenter {
        let task = starting.withLock { task in
            if let task { return task }
            let started = Task { try await start() }
            task = started
            return started
        }
        return try await task.value
    }

    private static func start() async throws -> SeedCenter {
        let bus = try await TestBus()
        busToKill.withLock { $0 = bus }
        atexit {
            SeedCenter.busToKill.withLock { bus in
                guard let bus else { return }
                bus.process.send(SIGKILL)
                try? FileManager.default.removeItem(at: bus.directory)
            }
        }
        let server = try await FakeNotificationServer.start(on: bus.bus, personality: .kde)
        // 2023-11-14 22:13:20 UTC. Time moves only when a test moves it.
        let clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        let geoClue = try await FakeGeoClue.start(on: bus.bus)
        guard UNUserNotificationCenter.configure(
            identity: identity, bus: .address(bus.address), clock: clock, persistent: false, locationBus: bus.bus)
        else { throw SeedCenterError.currentAlreadyCreated }
        return SeedCenter(bus: bus, server: server, clock: clock, geoClue: geoClue)
    }

    // MARK: - Between tests

    /// Empties the center (no delegate, nothing pending or delivered, no categories), waits
    /// until the server shows nothing, and forgets what the samples printed, alerted or
    /// delayed. Returns the point from which the server's calls belong to the calling test.
    func reset() async throws -> Baseline {
        center.delegate = nil
        center.removeAllPendingNotificationRequests()
        center.removeAllDeliveredNotifications()
        center.setNotificationCategories([])
        // The center runs its operations in order: these see the removals above.
        guard await center.pendingNotificationRequests().isEmpty, await center.deliveredNotifications().isEmpty,
              await center.notificationCategories().isEmpty
        else { throw SeedCenterError.resetFailed("the center still lists requests, notifications or categories") }
        guard await waitUntil({ server.liveIDs.isEmpty }) else {
            // Close what is left so that the next test starts clean, and fail this one.
            let left = server.liveIDs.sorted()
            for id in left { server.close(id: id, reason: .closedByCall) }
            throw SeedCenterError.resetFailed("the server still showed \(left) that the center did not withdraw")
        }
        guard clock.alarmDeadlines.isEmpty else {
            throw SeedCenterError.resetFailed("alarms still set for \(clock.alarmDeadlines)")
        }
        Console.clear()
        Alerts.clear()
        DelayedBlocks.shared.clear()
        return Baseline(calls: server.calls.count)
    }

    /// Waits until the center lists exactly `identifiers` as delivered (the server's reply to
    /// Notify reaches the center a moment after the server records the call), at most `timeout`.
    func waitForDelivered(_ identifiers: Set<String>, timeout: Duration = .seconds(5)) async -> Bool {
        await waitUntil(timeout: timeout) {
            Set(await center.deliveredNotifications().map(\.request.identifier)) == identifiers
        }
    }

    // MARK: - What the server saw

    /// The answered Notify calls since `baseline`.
    func posted(since baseline: Baseline) -> [Posted] {
        Self.posted(in: server.calls, since: baseline)
    }

    /// The ids of the CloseNotification calls since `baseline`.
    func closed(since baseline: Baseline) -> [UInt32] {
        server.calls.dropFirst(baseline.calls).compactMap { call in
            if case .closeNotification(let id, _) = call { id } else { nil }
        }
    }

    /// Waits until `count` Notify calls since `baseline` are answered, at most `timeout`;
    /// returns the answered ones (fewer at the deadline).
    func waitForPosted(count: Int, since baseline: Baseline, timeout: Duration = .seconds(5)) async -> [Posted] {
        let calls = await server.waitForCalls(timeout: timeout) { calls in
            Self.posted(in: calls, since: baseline).count >= count
        }
        return Self.posted(in: calls, since: baseline)
    }

    /// Waits until the server was asked to close `id` since `baseline`, at most `timeout`.
    func waitForClose(of id: UInt32, since baseline: Baseline, timeout: Duration = .seconds(5)) async -> Bool {
        let calls = await server.waitForCalls(timeout: timeout) { calls in
            Self.closes(in: calls, since: baseline).contains(id)
        }
        return Self.closes(in: calls, since: baseline).contains(id)
    }

    private static func posted(in calls: [FakeNotificationServer.Call], since baseline: Baseline) -> [Posted] {
        calls.dropFirst(baseline.calls).compactMap { call in
            guard case .notify(let request, _, let id?) = call else { return nil }
            return Posted(
                id: id, replacesID: request.replacesID, summary: request.summary, body: request.body,
                actionKeys: request.actions.map(\.key), actionLabels: request.actions.map(\.label),
                soundName: request.hints.soundName, suppressSound: request.hints.suppressSound,
                transient: request.hints.transient, replyPlaceholder: request.hints.replyPlaceholderText,
                replyButton: request.hints.replySubmitButtonText)
        }
    }

    private static func closes(in calls: [FakeNotificationServer.Call], since baseline: Baseline) -> [UInt32] {
        calls.dropFirst(baseline.calls).compactMap { call in
            if case .closeNotification(let id, _) = call { id } else { nil }
        }
    }
}

/// Where a test's server calls begin.
struct Baseline: Sendable {
    let calls: Int
}

/// A Notify call as the fake server answered it.
struct Posted: Sendable, Equatable {
    let id: UInt32
    let replacesID: UInt32
    let summary: String
    let body: String
    let actionKeys: [String]
    let actionLabels: [String]
    let soundName: String?
    let suppressSound: Bool?
    let transient: Bool?
    let replyPlaceholder: String?
    let replyButton: String?
}

enum SeedCenterError: Error, CustomStringConvertible {
    case currentAlreadyCreated
    case resetFailed(String)

    var description: String {
        switch self {
        case .currentAlreadyCreated:
            "UNUserNotificationCenter.current() existed before SeedCenter configured it"
        case .resetFailed(let reason):
            "could not empty the shared center: \(reason)"
        }
    }
}
