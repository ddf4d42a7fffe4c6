import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications

/// An engine whose `add` records that it was entered and then waits until the test opens it.
private final class GatedEngine: NotificationEngine {
    private let state = Locked<(entered: [String], gates: [CheckedContinuation<Void, Never>], open: Bool)>(([], [], false))

    /// The identifiers whose `add` was entered, in order.
    var entered: [String] { state.withLock { $0.entered } }

    /// Lets every waiting and later `add` return.
    func open() {
        let gates = state.withLock { state in
            state.open = true
            defer { state.gates = [] }
            return state.gates
        }
        for gate in gates { gate.resume() }
    }

    func add(_ request: UNNotificationRequest) async throws {
        await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                state.entered.append(request.identifier)
                if !state.open { state.gates.append(gate) }
                return state.open
            }
            if open { gate.resume() }
        }
    }

    func pendingRequests() async -> [UNNotificationRequest] { [] }
    func removePendingRequests(withIdentifiers identifiers: [String]?) {}
    func deliveredNotifications() async -> [UNNotification] { [] }
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {}
    func setCategories(_ categories: Set<UNNotificationCategory>) {}
    func categories() async -> Set<UNNotificationCategory> { [] }
    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool { true }
    func authorization() async -> EngineAuthorization { EngineAuthorization(status: .authorized, options: [], capabilities: nil) }
    func setBadgeCount(_ count: Int) async throws {}
    func writeStateNow() async throws {}
    func takeActivatedResponse(_ id: String, activationToken: String?, sender: String) async -> Bool { false }
    func close() {}
    func kind() async -> NotificationEngineKind { .inProcess }
}

/// Runs each job at once, on the thread that enqueues it: a continuation resumed by the
/// choosing engine's drain runs its caller's next step before the drain takes another step.
private final class InlineExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}

@Suite("The choosing engine: once the choice is answered, later calls go straight to the engine")
struct ChoosingEngineDrainTests {
    static func request(_ identifier: String) -> UNNotificationRequest {
        UNNotificationRequest(identifier: identifier, content: UNMutableNotificationContent(), trigger: nil)
    }

    /// The caller of `kind()` runs on ``InlineExecutor``: its next calls are made from inside
    /// the drain's resumption of it, the earliest moment they can be made. A drain that resumed
    /// its last caller before it ended would take those calls itself, one at a time.
    @Test("calls made after kind() answered run side by side, not one at a time behind the drain", arguments: 0..<3)
    func afterTheChoice(round: Int) async throws {
        try await withTaskExecutorPreference(InlineExecutor()) {
            let engine = GatedEngine()
            let (chosen, choose) = AsyncStream<Void>.makeStream()
            let choosing = ChoosingEngine {
                for await _ in chosen { break }
                return (engine, .inProcess, nil)
            }
            // A call made before the choice waits in the queue; the choice is made meanwhile.
            async let kind = choosing.kind()
            try await Task.sleep(for: .milliseconds(5))
            choose.yield()
            #expect(await kind == .inProcess)
            // Two adds now: each reaches the engine at once, though the first has not returned.
            // Run behind the drain, the second would wait for the first, which waits for the gate.
            async let first: Void = choosing.add(Self.request("a\(round)"))
            async let second: Void = choosing.add(Self.request("b\(round)"))
            let deadline = ContinuousClock.now + .seconds(5)
            while engine.entered.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
            #expect(engine.entered.count == 2, "entered: \(engine.entered)")
            engine.open()
            try await first
            try await second
        }
    }

    @Test("whenSettled is told once the calls made before the choice reached the engine, before the last caller resumes; later at once")
    func settled() async throws {
        let engine = GatedEngine()
        let order = Locked<[String]>([])
        let (chosen, choose) = AsyncStream<Void>.makeStream()
        let choosing = ChoosingEngine {
            for await _ in chosen { break }
            return (engine, .inProcess, nil)
        }
        choosing.whenSettled { told in order.withLock { $0.append(told === engine ? "settled" : "another engine") } }
        async let first: Void = choosing.add(Self.request("queued"))
        try await Task.sleep(for: .milliseconds(5))
        choose.yield()
        let deadline = ContinuousClock.now + .seconds(5)
        while engine.entered.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(engine.entered == ["queued"])
        #expect(order.withLock { $0 }.isEmpty, "the queued add has not returned yet")
        engine.open()
        try await first
        order.withLock { $0.append("returned") }
        #expect(order.withLock { $0 } == ["settled", "returned"])
        let toldAtOnce = Locked(false)
        choosing.whenSettled { told in toldAtOnce.withLock { $0 = told === engine } }
        #expect(toldAtOnce.withLock { $0 })
    }

    @Test("a center whose engine was chosen calls the chosen engine itself once its kind is answered")
    func centerCallsTheChosenEngine() async throws {
        let fixture = try await PortalFixture()
        #expect(fixture.center.madeEngine is ChoosingEngine)
        #expect(await fixture.center.engineKind == .portal)
        #expect(fixture.center.engine is EngineCore)
        try await fixture.post("a")
        #expect(fixture.portal.added.map(\.id) == ["a"])
        await fixture.stop()
    }
}
