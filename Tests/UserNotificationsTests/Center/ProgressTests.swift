import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The content's progress (a Linux addition): its values, its form on the wire (the `value`
/// hint), the paths that carry it, and the hold on updates that change nothing else.
@Suite("Progress: the value hint, carried and throttled")
struct ProgressTests {
    static func request(_ identifier: String, progress: Double?, body: String = "Copying") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = "Backup"
        content.body = body
        content.progress = progress
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    @Test("values are clamped to 0...1, NaN is none, and the hint is the rounded percentage")
    func values() {
        let content = UNMutableNotificationContent()
        #expect(content.progress == nil)
        content.progress = 1.7
        #expect(content.progress == 1)
        content.progress = -3
        #expect(content.progress == 0)
        content.progress = .nan
        #expect(content.progress == nil)
        content.progress = 0.426
        #expect(NotificationProgress.percent(content.progress ?? -1) == 43)
        let copy = content.copy() as? UNNotificationContent
        #expect(copy?.progress == 0.426)
        #expect(copy == content)
        let other = content.mutableCopy() as? UNMutableNotificationContent
        other?.progress = 0.5
        #expect(other != content)
    }

    @Test("the progress survives archiving and the agent's request encoding; none leaves the common shape")
    func carried() throws {
        let request = Self.request("a", progress: 0.25)
        let archived = try NSKeyedArchiver.archivedData(withRootObject: request.content, requiringSecureCoding: true)
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClass: UNNotificationContent.self, from: archived)
        #expect(unarchived?.progress == 0.25)
        let decoded = try AgentPayload.requests(from: try AgentPayload.encode([request]))
        #expect(decoded.map(\.content.progress) == [0.25])
        let single = try AgentPayload.encode(request)
        #expect(try AgentPayload.request(from: single).content.progress == 0.25)
        #expect(single["content"].flatMap { try? AgentPayload.Record.reading($0) }?["progress"] == .double(0.25))
        let plain = try AgentPayload.requests(from: try AgentPayload.encode([Self.request("b", progress: nil)]))
        #expect(plain.map(\.content.progress) == [nil])
    }

    @Test("the value hint goes out with the request; none without a progress")
    func hint() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(Self.request("copy", progress: 0.5))
        try await fixture.center.add(Self.request("plain", progress: nil))
        #expect(await fixture.server.waitForNotify(count: 2) != nil)
        let sent = fixture.server.notifications.map(\.request)
        #expect(sent.map(\.hints.value) == [50, nil])
    }

    @Test("the throttle holds progress-only updates within its interval, the last one held, and lets other changes through")
    func throttleDecisions() {
        // An interval no test run comes near: every decision below is made well within it.
        let throttle = ProgressUpdateThrottle(interval: .seconds(600))
        #expect(throttle.admit(Self.request("copy", progress: 0.1)) == .now)
        guard case .held(let delay?) = throttle.admit(Self.request("copy", progress: 0.2)) else {
            Issue.record("the first progress-only update is held with a post planned")
            return
        }
        #expect(delay > .seconds(590) && delay <= .seconds(600))
        #expect(throttle.admit(Self.request("copy", progress: 0.3)) == .held(delay: nil))
        #expect(throttle.takeHeld("copy")?.content.progress == 0.3)
        #expect(throttle.takeHeld("copy") == nil)
        // Counted from the post of the held one: the next is held again.
        #expect(throttle.admit(Self.request("copy", progress: 0.4)) != .now)
        // Another change goes now and drops what is held.
        #expect(throttle.admit(Self.request("copy", progress: 0.5, body: "Verifying")) == .now)
        #expect(throttle.takeHeld("copy") == nil)
        // A removal drops what is held; the next update after it goes now.
        #expect(throttle.admit(Self.request("copy", progress: 0.6, body: "Verifying")) != .now)
        throttle.forget(["copy"])
        #expect(throttle.takeHeld("copy") == nil)
        #expect(throttle.admit(Self.request("copy", progress: 0.7, body: "Verifying")) == .now)
        // A request without a progress replaces the one remembered: the next update goes now.
        #expect(throttle.admit(Self.request("copy", progress: 0.75, body: "Verifying")) != .now)
        #expect(throttle.admit(Self.request("copy", progress: nil, body: "Verifying")) == .now)
        #expect(throttle.takeHeld("copy") == nil)
        #expect(throttle.admit(Self.request("copy", progress: 0.76, body: "Verifying")) == .now)
        // Other identifiers, no progress, or a trigger: never held.
        #expect(throttle.admit(Self.request("other", progress: 0.1)) == .now)
        #expect(throttle.admit(Self.request("plain", progress: nil)) == .now)
        #expect(throttle.admit(Self.request("plain", progress: nil)) == .now)
        let timed = UNNotificationRequest(
            identifier: "copy", content: Self.request("copy", progress: 0.8, body: "Verifying").content,
            trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))
        #expect(throttle.admit(timed) == .now)
    }
}

/// The hold on progress-only updates through a center and a fake server. Their timing (two
/// updates within 100 ms) holds on a quiet machine only: they run in the one-at-a-time pass
/// (the Makefile's ALONE), not beside 900 other tests.
@Suite("Progress updates held through a center")
struct ProgressThrottleTests {
    typealias Base = ProgressTests

    @Test("a tight loop of 1,000 progress updates reaches the server as a few Notify calls, the last value last")
    func throttled() async throws {
        let fixture = try await CenterFixture()
        for step in 0...1_000 {
            try await fixture.center.add(Base.request("copy", progress: Double(step) / 1_000))
        }
        #expect(await eventually(timeout: .seconds(5)) { fixture.server.notifications.last?.request.hints.value == 100 })
        let values = fixture.server.notifications.map { $0.request.hints.value ?? -1 }
        #expect(values.count < 100, "\(values.count) Notify calls")
        #expect(values.first == 0 && values.last == 100)
        #expect(values == values.sorted())
        // Nothing more arrives after the last one.
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.server.notifications.count == values.count)
        #expect(await fixture.center.deliveredNotifications().first?.request.content.progress == 1)
    }

    @Test("an update that changes more than the progress goes at once, replacing what is held")
    func otherChangesGoAtOnce() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(Base.request("copy", progress: 0.1))
        try await fixture.center.add(Base.request("copy", progress: 0.2))
        try await fixture.center.add(Base.request("copy", progress: 0.3, body: "Verifying"))
        #expect(await fixture.server.waitForNotify(count: 2) != nil)
        try await Task.sleep(for: .milliseconds(300))
        let sent = fixture.server.notifications.map(\.request)
        #expect(sent.map(\.hints.value) == [10, 30])
        #expect(sent.last?.body == "Verifying")
    }

    @Test("removing the notification drops the update held for it")
    func removalDropsHeld() async throws {
        let fixture = try await CenterFixture()
        try await fixture.center.add(Base.request("copy", progress: 0.1))
        try await fixture.center.add(Base.request("copy", progress: 0.2))
        fixture.center.removeDeliveredNotifications(withIdentifiers: ["copy"])
        try await Task.sleep(for: .milliseconds(300))
        #expect(fixture.server.notifications.map(\.request.hints.value) == [10])
        #expect(await fixture.center.deliveredNotifications().isEmpty)
    }
}
