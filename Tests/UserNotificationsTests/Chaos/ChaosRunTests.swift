@testable import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// A bounded run that drives notifications through the center while the server and the bus
/// misbehave. Every fault below is really injected, and counted only when it took effect; the
/// summary line prints the counts:
///
/// - the server restarts (its id counter starts again at 1), another app's notification takes
///   our old id on the new server and is clicked (broadcast, KDE);
/// - the server crashes right after answering Notify (its reply, then its disconnection);
/// - the bus daemon is killed and another started at the same address;
/// - signals are duplicated, reordered (the close before the action; the whole sequence
///   reversed, activation token last; an action before the Notify reply), sent twice with
///   different action keys;
/// - actions broadcast for ids the center never posted;
/// - `ActionInvoked` and `NotificationClosed` spoofed from a rogue connection for live ids;
/// - closes that never come (after an action; after `CloseNotification`);
/// - slow Notify replies: within the center's 5 s call deadline (awaited, or in the background
///   while the run goes on), and past it: the add fails with `serverFailed` ("no reply to
///   Notify within 5 seconds"), the server shows the notification anyway, an orphan whose id
///   the center never learns; a click on it must not reach the delegate, and the center cannot
///   withdraw it.
///
/// At the end: every action the server reported for a notification the center posted reached
/// the delegate exactly once and nothing else did; the delivered list is exactly the server's
/// live notifications of ours minus the orphans; the pending list is what was scheduled and not
/// removed; after withdrawing everything the center's bookkeeping and its connection's tables
/// are back to their sizes after a warm-up, exactly, and resident memory is within a bound
/// (64 MiB for the default run). The test has a time limit, so a hang fails it.
///
/// `CHAOS_NOTIFICATIONS` sets the size (default 300, about 10 s, in `make test`; 3000, about
/// 30 s, for the long run).
@Suite("Chaos run", .serialized)
struct ChaosRunTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
    }

    /// How an add in the background ended.
    enum SlowKind: Sendable { case withinDeadline, pastDeadline }
    struct SlowAdd: Sendable {
        let identifier: String
        let kind: SlowKind
        let error: NotificationDeliveryError?
        let unexpectedError: String?
    }

    /// The app name of notifications posted by "another app" (the rogue connection).
    static let otherApp = "Another App"

    /// The identifiers (summaries) of the notifications of ours that `server` shows now.
    static func ourLive(on server: FakeNotificationServer) -> Set<String> {
        let ours = server.notifications.filter { $0.request.appName != otherApp }
        return Set(server.liveIDs.compactMap { id in ours.last { $0.id == id }?.request.summary })
    }

    @Test("responses arrive exactly once, for live notifications only, whatever the server does", .timeLimit(.minutes(5)))
    func chaos() async throws {
        let total = Int(ProcessInfo.processInfo.environment["CHAOS_NOTIFICATIONS"] ?? "") ?? 300
        let started = ContinuousClock.now
        var random = Generator(state: 0xC0FFEE)
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: socket) }

        // Faults chosen per Notify call, by summary (= identifier); they survive server restarts.
        let notifyFaults = Locked<[String: FakeNotificationServer.NotifyFaults]>([:])
        var base = FakeNotificationServer.Script()
        base.faultsForNotify = { request in notifyFaults.withLock { $0[request.summary] } ?? .init() }
        let baseScript = base

        var testBus = try await TestBus(socketPath: socket)
        var server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: baseScript)
        let center = UNUserNotificationCenter(
            identity: CenterFixture.identity, bus: .address("unix:path=\(socket)"), persistent: false)
        let delegate = await IdentifierRecordingDelegate()
        center.delegate = delegate
        var rogue = try await DBusConnection.connect(to: testBus.bus)

        @Sendable func post(_ identifier: String, trigger: UNNotificationTrigger? = nil) async throws {
            let content = UNMutableNotificationContent()
            content.title = identifier
            try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
        }
        func serverID(_ identifier: String, on server: FakeNotificationServer) -> UInt32? {
            server.notifications.last { $0.request.summary == identifier }?.id
        }

        // Warm-up: the same kinds of work, then everything withdrawn; the baseline is taken after.
        let warmUp = 60
        for index in 0..<warmUp {
            try await post("w\(index)")
            if index % 2 == 0, let id = serverID("w\(index)", on: server) { server.invokeAction(id: id) }
        }
        #expect(await delegate.responses.next(warmUp / 2, timeout: .seconds(10)).count == warmUp / 2)
        center.removeAllDeliveredNotifications()
        #expect(await eventually { await center.deliveredNotifications().isEmpty })
        try await Task.sleep(for: EngineCore.closeGracePeriod * 2)
        let baseline = await Bookkeeping.of(center)
        let baselineMemory = MemoryFigures.now()
        #expect(baseline.engine == .empty, "the warm-up left bookkeeping behind: \(baseline.engine)")

        var expected: [String: Int] = [:]
        var faults: [String: Int] = [:]
        // What was done to each notification, for the message when a check fails.
        var current = ""
        var story: [String: [String]] = [:]
        func fault(_ name: String) {
            faults[name, default: 0] += 1
            story[current, default: []].append(name)
        }
        /// Posts `identifier` and clicks it on the server, expecting one response; `false`
        /// (recorded as an issue) when the server never got it.
        func postAndClick(_ identifier: String) async throws -> Bool {
            try await post(identifier)
            guard let id = serverID(identifier, on: server) else {
                Issue.record("no id for \(identifier)")
                return false
            }
            server.invokeAction(id: id)
            expected[identifier, default: 0] += 1
            return true
        }
        var expectedPending = Set<String>()
        var background: [Task<SlowAdd, Never>] = []
        let completed = Locked<[SlowAdd]>([])
        var pastDeadline = Set<String>()

        /// Acts on slow adds that have finished: a live one gets a click, which must arrive.
        func drainCompleted() {
            let finished = completed.withLock { list in
                defer { list.removeAll() }
                return list
            }
            server.script = baseScript
            for slow in finished where slow.kind == .withinDeadline && slow.error == nil {
                guard let id = serverID(slow.identifier, on: server), server.liveIDs.contains(id) else { continue }
                server.invokeAction(id: id)
                expected[slow.identifier, default: 0] += 1
                fault("click on a notification whose Notify reply was slow")
                story[slow.identifier, default: []].append("clicked while \(current) was under way")
            }
        }

        /// Starts an add whose Notify the server answers after `delay`.
        func slowAdd(_ identifier: String, kind: SlowKind, delay: Duration) -> Task<SlowAdd, Never> {
            notifyFaults.withLock { $0[identifier] = .init(replyDelay: delay) }
            if kind == .pastDeadline { pastDeadline.insert(identifier) }
            return Task {
                var outcome = SlowAdd(identifier: identifier, kind: kind, error: nil, unexpectedError: nil)
                do {
                    try await post(identifier)
                } catch let error as NotificationDeliveryError {
                    outcome = SlowAdd(identifier: identifier, kind: kind, error: error, unexpectedError: nil)
                } catch {
                    outcome = SlowAdd(identifier: identifier, kind: kind, error: nil, unexpectedError: "\(error)")
                }
                completed.withLock { $0.append(outcome) }
                return outcome
            }
        }

        for index in 0..<total {
            let identifier = "n\(index)"
            current = identifier
            drainCompleted()

            if index % 10 == 0 {
                let pendingIdentifier = "p\(index)"
                try await post(pendingIdentifier, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))
                expectedPending.insert(pendingIdentifier)
                if Int.random(in: 0..<3, using: &random) == 0, let victim = expectedPending.randomElement(using: &random) {
                    center.removePendingNotificationRequests(withIdentifiers: [victim])
                    expectedPending.remove(victim)
                }
            }

            // Slow replies. Within the deadline, half the time the run waits for the add and
            // clicks at once; otherwise the add runs in the background while the run goes on (and
            // a restart or a bus kill may fail it), and a live one is clicked later.
            let slowRoll = Int.random(in: 0..<100, using: &random)
            if slowRoll < 4 {
                let delay = Duration.milliseconds(Int.random(in: 20...300, using: &random))
                notifyFaults.withLock { $0[identifier] = .init(replyDelay: delay) }
                server.script = baseScript
                guard try await postAndClick(identifier) else { continue }
                fault("slow reply within the deadline, awaited")
                continue
            }
            if slowRoll < 10 {
                let kind: SlowKind = slowRoll < 5 ? .pastDeadline : .withinDeadline
                let delay: Duration = kind == .pastDeadline
                    ? .milliseconds(Int.random(in: 5_400...6_500, using: &random))
                    : .milliseconds(Int.random(in: 20...800, using: &random))
                background.append(slowAdd(identifier, kind: kind, delay: delay))
                fault(kind == .pastDeadline ? "slow reply past the deadline, in the background" : "slow reply within the deadline, in the background")
                continue
            }
            if slowRoll < 12 {
                // The server dies right after answering; another takes its place. The center got
                // its id, then lost its server: the notification must leave the delivered list.
                notifyFaults.withLock { $0[identifier] = .init(crashAfterReply: true) }
                server.script = baseScript
                let dying = server
                try await post(identifier)
                #expect(await eventually { !dying.isServing }, "the server did not die after answering \(identifier)")
                server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: baseScript)
                fault("server crashed right after answering")
                continue
            }
            if slowRoll < 15 {
                // The server clicks before it answers Notify: the center must hold the signal.
                notifyFaults.withLock { $0[identifier] = .init(actionBeforeReply: NotificationAction.defaultKey) }
                server.script = baseScript
                try await post(identifier)
                expected[identifier, default: 0] += 1
                fault("action before the Notify reply")
                continue
            }

            server.script = baseScript
            try await post(identifier)
            guard let id = serverID(identifier, on: server) else {
                Issue.record("no id for \(identifier)")
                continue
            }
            if Int.random(in: 0..<75, using: &random) == 0 {
                // The bus daemon dies and another starts at the same address: the center sees
                // the disconnect, forgets what it had shown, and connects again on its next add.
                // Every signal sent so far came before the reply to the add above, so none is lost.
                await testBus.kill()
                #expect(await eventually { await center.deliveredNotifications().isEmpty })
                try? FileManager.default.removeItem(atPath: socket)
                testBus = try await TestBus(socketPath: socket)
                server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: baseScript)
                rogue = try await DBusConnection.connect(to: testBus.bus)
                fault("bus killed and restarted")
                continue
            }
            switch Int.random(in: 0..<13, using: &random) {
            case 0...5:
                var script = baseScript
                var token: String?
                var again = false
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    script.duplicateSignals = true
                    fault("duplicated signals")
                case 1:
                    script.closeBeforeAction = true
                    fault("reordered: close before action")
                case 2:
                    script.reverseSignals = true
                    token = "token-\(index)"
                    fault("reordered: close, action, then activation token")
                case 3:
                    script.neverClose = true
                    fault("close never comes after an action")
                case 4:
                    again = true
                    fault("a second action for the same notification")
                default:
                    break
                }
                server.script = script
                server.invokeAction(id: id, activationToken: token)
                if again { server.invokeAction(id: id, key: "another") }
                expected[identifier, default: 0] += 1
            case 6:
                server.broadcastForeignAction(id: id &+ 1000)
                fault("action broadcast for a foreign id")
            case 7:
                try rogue.send(.signal(
                    path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "ActionInvoked",
                    body: [.uint32(id), .string("default")]))
                fault("spoofed ActionInvoked from a rogue connection")
            case 8:
                try rogue.send(.signal(
                    path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "NotificationClosed",
                    body: [.uint32(id), .uint32(2)]))
                fault("spoofed NotificationClosed from a rogue connection")
            case 9:
                await server.stop()
                server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: baseScript)
                // The new server's counter starts again, and another app's notifications take
                // ids 1...id on it. The person clicks the one with our old id; the server
                // broadcasts it. It must reach nobody here: not the old request (its server is
                // gone), not a new one.
                for _ in 0..<id {
                    _ = try await rogue.call(.methodCall(
                        destination: NotificationsInterface.busName, path: NotificationsInterface.path,
                        interface: NotificationsInterface.name, member: "Notify",
                        body: NotifyRequest(appName: Self.otherApp, summary: "another app's").arguments()))
                }
                server.invokeAction(id: id)
                fault("server restart, our old id clicked in another app")
            case 10:
                server.close(id: id, reason: .dismissed)
                server.close(id: id, reason: .dismissed)
                fault("double close")
            case 11:
                // The app withdraws it; the server forgets it but never says so.
                var script = baseScript
                script.neverClose = true
                server.script = script
                center.removeDeliveredNotifications(withIdentifiers: [identifier])
                let closed: @Sendable ([FakeNotificationServer.Call]) -> Bool = { calls in
                    calls.contains { if case .closeNotification(id, _) = $0 { true } else { false } }
                }
                #expect(closed(await server.waitForCalls(until: closed)), "no CloseNotification for \(identifier)")
                #expect(!server.liveIDs.contains(id))
                fault("withdrawn, its close never comes")
            default:
                fault("nothing (left shown)")
            }
        }

        let loopEnd = ContinuousClock.now
        let loopDone = loopEnd - started
        // The tail: two Notify calls the server answers only after the center's 5 s deadline,
        // with no restart or bus kill to fail them sooner, while other notifications come and
        // are clicked: a hanging Notify holds up nobody else.
        server.script = baseScript
        let late = ["late-0", "late-1"]
        for identifier in late {
            background.append(slowAdd(identifier, kind: .pastDeadline, delay: .milliseconds(Int.random(in: 5_400...6_000, using: &random))))
            fault("slow reply past the deadline, at the end")
        }
        for index in 0..<20 {
            let identifier = "tail-\(index)"
            _ = try await postAndClick(identifier)
        }
        let tailDone = ContinuousClock.now

        // Every background add finishes (the slowest after its deadline), then the late ones land.
        var slowOutcomes: [SlowAdd] = []
        for task in background { slowOutcomes.append(await task.value) }
        drainCompleted()
        let answeredHere: @Sendable ([FakeNotificationServer.Call]) -> Bool = { [pastDeadline] calls in
            !calls.contains { call in
                if case .notify(let request, _, nil) = call { pastDeadline.contains(request.summary) } else { false }
            }
        }
        #expect(answeredHere(await server.waitForCalls(timeout: .seconds(5), until: answeredHere)))

        // Orphans: Notify timed out for the center, but the server showed them. A click on one
        // names an id the center never learnt; it must not reach the delegate.
        var clickOrphan = baseScript
        clickOrphan.neverClose = true
        server.script = clickOrphan
        let failedAdds = Set(slowOutcomes.filter { $0.error != nil || $0.unexpectedError != nil }.map(\.identifier))
        var orphans = Set<String>()
        for identifier in failedAdds {
            guard let id = serverID(identifier, on: server), server.liveIDs.contains(id) else { continue }
            orphans.insert(identifier)
            server.invokeAction(id: id)
            fault("click on an orphan (Notify timed out, shown anyway)")
        }
        server.script = baseScript

        var timedOut = Set<String>()
        for slow in slowOutcomes {
            #expect(slow.unexpectedError == nil, "\(slow.identifier): add failed with an untyped error: \(slow.unexpectedError ?? "")")
            if slow.kind == .pastDeadline {
                // Timed out, or failed sooner when its server went away first.
                guard case .serverFailed(let detail)? = slow.error else {
                    Issue.record("\(slow.identifier): a Notify answered after the deadline gave \(String(describing: slow.error))")
                    continue
                }
                if detail.contains("no reply to Notify within") { timedOut.insert(slow.identifier) }
            }
        }
        #expect(Set(late).isSubset(of: timedOut), "the tail's late Notify calls did not time out: \(timedOut)")
        #expect(Set(late).isSubset(of: orphans), "the server did not show the tail's late notifications: \(orphans)")
        #expect(tailDone - loopEnd < .seconds(4), "the tail's posts waited for the hanging Notify calls: \(tailDone - loopEnd)")
        let lostToFaults = slowOutcomes.filter { $0.error != nil && !timedOut.contains($0.identifier) }.count
        #expect(orphans.isSubset(of: timedOut), "only a Notify that timed out can leave an orphan: \(orphans.subtracting(timedOut))")

        let expectedCount = expected.values.reduce(0, +)
        let responses = await delegate.responses.next(expectedCount, timeout: .seconds(30))
        let extra = await delegate.responses.extra(after: .milliseconds(500))
        var seen: [String: Int] = [:]
        for identifier in responses + extra { seen[identifier, default: 0] += 1 }
        let differing = Set(seen.keys).union(expected.keys).filter { seen[$0] != expected[$0] }.sorted()
        let told = differing.map { identifier in
            let neighbours = Int(identifier.dropFirst()).map { index in (max(0, index - 2)...index).map { "n\($0)" } } ?? [identifier]
            return "\(identifier): \(seen[identifier] ?? 0) responses, \(expected[identifier] ?? 0) expected; "
                + neighbours.map { "\($0): \(story[$0] ?? ["a plain click or nothing"])" }.joined(separator: "; ")
        }
        #expect(differing.isEmpty, "responses per notification differ from the actions the server reported: \(told)")
        #expect(extra.isEmpty)
        #expect(seen.keys.allSatisfy { !failedAdds.contains($0) }, "a response for a notification whose add failed")

        // The delivered list is the server's truth, less the orphans it cannot know of.
        let liveHere = Self.ourLive(on: server)
        let delivered = Set(await center.deliveredNotifications().map(\.request.identifier))
        #expect(delivered == liveHere.subtracting(orphans), "the delivered list and the server's live notifications differ")
        #expect(delivered.isDisjoint(with: failedAdds))
        let pending = Set(await center.pendingNotificationRequests().map(\.identifier))
        #expect(pending == expectedPending, "the pending list differs from what was scheduled and not removed")

        // Withdraw everything: the bookkeeping goes back to its baseline, exactly, and the
        // notifications the center held are freed (nothing in this test keeps one).
        for index in 0..<50 { try await post("shown-\(index)") }
        var watched: [WeakNotification] = []
        for notification in await center.deliveredNotifications() { watched.append(WeakNotification(notification)) }
        center.removeAllPendingNotificationRequests()
        center.removeAllDeliveredNotifications()
        #expect(await eventually { await center.deliveredNotifications().isEmpty })
        let owner = center.engineCore?.transport.serverOwner
        #expect(await eventually {
            Self.ourLive(on: server) == orphans
        }, "after withdrawing everything the server should show only the orphans; it shows \(Self.ourLive(on: server).sorted()), orphans \(orphans.sorted()), owner \(owner ?? "none"), server \(server.uniqueName)")
        try await Task.sleep(for: EngineCore.closeGracePeriod * 2)
        var after = await Bookkeeping.of(center)
        if after != baseline {
            // CloseNotification replies still on their way: give them a moment.
            _ = await eventually(timeout: .seconds(5)) {
                after = await Bookkeeping.of(center)
                return after == baseline
            }
        }
        #expect(after.engine == .empty, "engine bookkeeping after withdrawing everything: \(after.engine)")
        let alive = watched.filter { $0.object != nil }.count
        #expect(alive == 0, "\(alive) of \(watched.count) withdrawn notifications are still alive")
        #expect(after.connection == baseline.connection, "connection tables: baseline \(baseline.connection), after \(after.connection)")
        let afterMemory = MemoryFigures.now()
        let allowance = MemoryFigures.allowance(notifications: total)
        let growth = afterMemory.residentBytes - baselineMemory.residentBytes
        #expect(growth <= allowance, "resident memory grew by \(growth >> 20) MiB, more than \(allowance >> 20) MiB")

        let elapsed = ContinuousClock.now - started
        let tally = faults.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("chaos: \(total) notifications in \(String(format: "%.1f", seconds)) s, "
            + "\(expectedCount) responses checked, \(pending.count) pending checked, \(orphans.count) orphans, "
            + "\(timedOut.count) adds timed out, \(lostToFaults) slow adds failed sooner by a restart or a bus kill; loop done after \(loopDone); faults: \(tally)")
        print("chaos memory: RSS baseline \(baselineMemory.residentBytes >> 10) KiB, after \(afterMemory.residentBytes >> 10) KiB "
            + "(\(growth >= 0 ? "+" : "")\(growth >> 10) KiB, allowed \(allowance >> 20) MiB); anonymous "
            + "\(baselineMemory.anonymousBytes >> 10) -> \(afterMemory.anonymousBytes >> 10) KiB; "
            + "\(watched.count) withdrawn notifications, \(alive) still alive; bookkeeping baseline \(baseline), after \(after)")

        // Every kind of fault was injected at least once (in runs of the default size or more).
        for kind in total < 300 ? [] : [
            "slow reply past the deadline, in the background", "slow reply within the deadline, in the background",
            "slow reply within the deadline, awaited", "action before the Notify reply",
            "click on an orphan (Notify timed out, shown anyway)",
            "bus killed and restarted", "duplicated signals", "reordered: close before action",
            "reordered: close, action, then activation token", "close never comes after an action",
            "a second action for the same notification", "action broadcast for a foreign id",
            "spoofed ActionInvoked from a rogue connection", "spoofed NotificationClosed from a rogue connection",
            "server restart, our old id clicked in another app", "server crashed right after answering", "double close", "withdrawn, its close never comes",
        ] {
            #expect(faults[kind, default: 0] > 0, "no \(kind) was injected")
        }
        withExtendedLifetime(rogue) {}
    }
}

/// A delegate that shows everything and records the identifiers of the responses only, so
/// that it keeps no notification alive.
@MainActor
final class IdentifierRecordingDelegate: NSObject, UNUserNotificationCenterDelegate {
    private let continuation: AsyncStream<String>.Continuation
    nonisolated let responses: EventRecorder<String>

    override init() {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        self.continuation = continuation
        responses = EventRecorder(stream)
        super.init()
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list, .sound]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        continuation.yield(response.notification.request.identifier)
    }
}

/// Watches a notification without keeping it alive.
final class WeakNotification {
    weak var object: UNNotification?
    init(_ object: UNNotification) { self.object = object }
}

/// The sizes of the center's internal tables and of its bus connection's.
struct Bookkeeping: Equatable, CustomStringConvertible {
    struct Engine: Equatable, CustomStringConvertible {
        var pending = 0, delivered = 0, closing = 0, serverIndex = 0, early = 0, postsInFlight = 0
        var deliveries = 0, attachmentFolders = 0, scheduled = 0
        static let empty = Engine()
        var description: String {
            "pending \(pending), delivered \(delivered), closing \(closing), serverIndex \(serverIndex), "
                + "early \(early), postsInFlight \(postsInFlight), deliveries \(deliveries), "
                + "attachmentFolders \(attachmentFolders), scheduled \(scheduled)"
        }
    }

    struct Connection: Equatable, CustomStringConvertible {
        var pendingCalls = 0, subscriptions = 0, trackedNames = 0, exports = 0, disconnectHandlers = 0
        var description: String {
            "pendingCalls \(pendingCalls), subscriptions \(subscriptions), trackedNames \(trackedNames), "
                + "exports \(exports), disconnectHandlers \(disconnectHandlers)"
        }
    }

    var engine: Engine
    var connection: Connection
    var description: String { "{engine: \(engine); connection: \(connection)}" }

    static func of(_ center: UNUserNotificationCenter) async -> Bookkeeping {
        let engine = await center.engineCore?.bookkeeping() ?? .empty
        var connection = Connection()
        if let link = try? await (center.engineCore?.transport as? FreedesktopTransport)?.client.connect() {
            let core = link.core
            core.performNow {
                connection = Connection(
                    pendingCalls: core.pendingCalls.count, subscriptions: core.subscriptions.count,
                    trackedNames: core.trackedNames.count, exports: core.exports.count,
                    disconnectHandlers: core.disconnectHandlers.count)
            }
        }
        return Bookkeeping(engine: engine, connection: connection)
    }
}

extension EngineCore {
    func bookkeeping() -> Bookkeeping.Engine {
        Bookkeeping.Engine(
            pending: pending.count, delivered: delivered.live.count, closing: delivered.closing.count,
            serverIndex: delivered.indexCount, early: deliveries.early.count, postsInFlight: deliveries.postsInFlight,
            deliveries: deliveries.count, attachmentFolders: ledger.counts.count, scheduled: scheduler?.count ?? 0)
    }
}

/// Resident memory, from `/proc/self/status`: all of it (`VmRSS`) and the anonymous part
/// (`RssAnon`: the heap and stacks, without mapped files).
struct MemoryFigures {
    var residentBytes: Int
    var anonymousBytes: Int

    static func now() -> MemoryFigures {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kibibytes(_ field: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) << 10
        }
        return MemoryFigures(residentBytes: kibibytes("VmRSS"), anonymousBytes: kibibytes("RssAnon"))
    }

    /// A generous bound on RSS growth: 64 MiB for the short run, more for longer ones, and
    /// much more under ThreadSanitizer, whose shadow memory grows with every address touched.
    static func allowance(notifications: Int) -> Int {
        let base = max(64, notifications / 20) << 20
        return underThreadSanitizer ? base * 8 : base
    }

    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil
}
