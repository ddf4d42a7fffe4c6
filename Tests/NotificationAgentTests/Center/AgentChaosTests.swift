import Foundation
import FreedesktopNotifications
import Testing
import UserNotifications
import UserNotificationsTesting

/// The chaos run's agent variant: random traffic (notifications shown and clicked, requests
/// scheduled and cancelled) from a center whose engine is the built agent, which is killed
/// with SIGKILL and restarted once mid-run while adds and clicks are in flight.
///
/// What was committed is read from the agent's state files with the agent stopped (SIGSTOP)
/// just before the kill: the pending requests of its engine state, the responses queued in
/// `agent.json`. After the restart the pending list is exactly what was committed plus what
/// came after; every response the delegate had, or the agent had queued, is told exactly once
/// in the end, a click in flight at the kill at most once, and nothing else is told.
///
/// `CHAOS_NOTIFICATIONS` sets the size (default 120).
@Suite("Chaos run through the agent")
struct AgentChaosTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
    }

    static let appID = "org.example.AgentChaos"

    @Test("the agent killed with SIGKILL and restarted mid-run: nothing committed is lost, no response is told twice", .timeLimit(.minutes(3)))
    func killAndRestart() async throws {
        let total = Int(ProcessInfo.processInfo.environment["CHAOS_NOTIFICATIONS"] ?? "") ?? 120
        let started = ContinuousClock.now
        var random = Generator(state: 0xA6E_4711)
        let testBus = try await TestBus()
        let stateHome = FileManager.default.temporaryDirectory.appendingPathComponent("agent-chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: stateHome) }
        let appFolder = stateHome.appendingPathComponent("desktopnotifications-agent/\(Self.appID)")
        let server = try await FakeNotificationServer.start(on: testBus.bus)
        func spawnAgent() async throws -> ChildProcess {
            try await testBus.startAgent(environment: ["XDG_STATE_HOME": stateHome.path])
        }
        var agent = try await spawnAgent()
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: Self.appID, displayName: "Chaos"), bus: .address(testBus.address), engine: .agent)
        let recorder = ResponseRecorder()
        center.delegate = recorder
        #expect(await center.engineKind == .agent)

        func request(_ identifier: String, after delay: TimeInterval? = nil) -> UNNotificationRequest {
            AgentTestClient.request(identifier, after: delay)
        }
        func click(_ identifier: String) -> Bool {
            guard let id = server.notifications.last(where: { $0.request.summary == "Title of \(identifier)" })?.id,
                server.liveIDs.contains(id)
            else { return false }
            server.invokeAction(id: id)
            return true
        }
        func toldIdentifiers() -> [String] { recorder.received.map { String($0.split(separator: " ")[0]) } }

        var exactlyOnce = Set<String>()
        var atMostOnce = Set<String>()
        var pending = Set<String>()
        var committedPending = Set<String>()
        var failedAdds = 0
        let killAt = total / 2

        for index in 0..<total {
            if index == killAt {
                // Everything before is told and saved; then traffic in flight: adds and clicks
                // nobody waits for, and the agent stopped in the middle of them.
                #expect(await eventually(timeout: .seconds(10)) { Set(toldIdentifiers()) == exactlyOnce })
                try await Task.sleep(for: .milliseconds(300))
                let quiet = pending
                var burst: [Task<Void, Never>] = []
                for extra in 0..<6 {
                    let identifier = extra.isMultiple(of: 2) ? "f\(extra)" : "q\(extra)"
                    let delay: TimeInterval? = extra.isMultiple(of: 2) ? nil : 3600
                    burst.append(Task { _ = try? await center.add(request(identifier, after: delay)) })
                }
                let recent = server.notifications.suffix(6).map { String($0.request.summary.dropFirst("Title of ".count)) }
                for identifier in recent where !exactlyOnce.contains(identifier) && click(identifier) {
                    atMostOnce.insert(identifier)
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...30, using: &random)))
                #expect(kill(agent.pid, SIGSTOP) == 0)
                let stateText = (try? String(contentsOf: appFolder.appendingPathComponent("notifications.json"), encoding: .utf8)) ?? ""
                let recordText = (try? String(contentsOf: appFolder.appendingPathComponent("agent.json"), encoding: .utf8)) ?? ""
                _ = await agent.kill()
                committedPending = Self.identifiers(in: stateText, prefixes: ["p", "q"], escaped: false)
                #expect(committedPending.isSuperset(of: quiet), "committed before the burst but lost: \(quiet.subtracting(committedPending).sorted())")
                // A click the agent had queued was committed: it must be told, once.
                for identifier in Self.identifiers(in: recordText, prefixes: ["n", "f"], escaped: true) where atMostOnce.contains(identifier) {
                    atMostOnce.remove(identifier)
                    exactlyOnce.insert(identifier)
                }
                for task in burst { await task.value }
                pending = committedPending
                agent = try await spawnAgent()
            }

            let identifier = "n\(index)"
            do {
                try await center.add(request(identifier))
            } catch {
                failedAdds += 1
                Issue.record("add \(identifier) failed: \(error)")
                continue
            }
            if Int.random(in: 0..<2, using: &random) == 0, click(identifier) {
                exactlyOnce.insert(identifier)
            }
            if index.isMultiple(of: 5) {
                try await center.add(request("p\(index)", after: 3600))
                pending.insert("p\(index)")
                if Int.random(in: 0..<3, using: &random) == 0, let victim = pending.randomElement(using: &random) {
                    center.removePendingNotificationRequests(withIdentifiers: [victim])
                    pending.remove(victim)
                }
            }
        }

        #expect(await eventually(timeout: .seconds(15)) { exactlyOnce.isSubset(of: Set(toldIdentifiers())) },
            "never told: \(exactlyOnce.subtracting(toldIdentifiers()).sorted())")
        try await Task.sleep(for: .milliseconds(500))
        let told = toldIdentifiers()
        let counts = Dictionary(told.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.filter { $0.value > 1 }.isEmpty, "told twice: \(counts.filter { $0.value > 1 }.keys.sorted())")
        let unexpected = Set(told).subtracting(exactlyOnce).subtracting(atMostOnce)
        #expect(unexpected.isEmpty, "told without a click: \(unexpected.sorted())")
        #expect(Set(await center.pendingNotificationRequests().map(\.identifier)) == pending)
        #expect(failedAdds == 0)
        let elapsed = ContinuousClock.now - started
        print("agent chaos: \(total) notifications in \(elapsed), \(exactlyOnce.count) responses told once, "
            + "\(atMostOnce.count) clicks in flight at the kill (\(atMostOnce.intersection(told).count) told), "
            + "\(committedPending.count) pending committed at the kill, \(pending.count) pending at the end")
        _ = await agent.kill()
    }

    /// The identifiers starting with one of `prefixes` and a digit in a state file's text (in a
    /// JSON string inside the JSON when `escaped`).
    static func identifiers(in text: String, prefixes: [String], escaped: Bool) -> Set<String> {
        let quote = escaped ? "\\\\\"" : "\""
        let alternatives = prefixes.joined(separator: "|")
        guard let pattern = try? Regex("\(quote)identifier\(quote):\(quote)((?:\(alternatives))[0-9]+)\(quote)") else { return [] }
        return Set(text.matches(of: pattern).compactMap { match in match.output[1].substring.map(String.init) })
    }
}
