import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("Center: how the delegate is called (thread, deadlines, the response queue)")
struct DelegateCallTests {
    // The test runner drains the main queue (the main actor's executor) from a thread other
    // than the process's first, so "main" is checked as the main queue here; the Swift 5 seed
    // program checks Thread.isMainThread in a real process.
    @Test("a plain NSObject delegate, made from nonisolated code, has its completion-handler forms called on the main queue")
    func plainDelegateOnMainThread() async throws {
        let fixture = try await CenterFixture()
        let delegate = PlainDelegate()
        fixture.center.delegate = delegate
        let id = try await fixture.post("a")
        fixture.server.invokeAction(id: id)
        #expect(await eventually { delegate.calls.withLock { $0.count } == 2 })
        let calls = delegate.calls.withLock { $0 }
        #expect(calls.map(\.method) == ["willPresent", "didReceive"])
        #expect(calls.map(\.onMainThread) == [true, true])
        #expect(fixture.server.notifications.count == 1)
    }

    @Test("a didReceive that never calls its completion handler holds up the next response only until the response deadline")
    func stalledDidReceive() async throws {
        let fixture = try await CenterFixture(responseDeadline: .milliseconds(300))
        let delegate = StallingDelegate()
        fixture.center.delegate = delegate
        let first = try await fixture.post("first")
        let second = try await fixture.post("second")
        fixture.server.invokeAction(id: first)
        #expect(await eventually { delegate.received.withLock { $0 } == ["first"] })
        fixture.server.invokeAction(id: second)
        #expect(await eventually { delegate.received.withLock { $0 } == ["first", "second"] })
        #expect(delegate.kept.withLock { $0.count } == 2)
    }

    @Test("responses beyond the queue's bound are dropped, counted and logged, not buffered without end")
    func responseQueueIsBounded() async throws {
        let fixture = try await CenterFixture(responseDeadline: .seconds(60))
        let delegate = StallingDelegate()
        fixture.center.delegate = delegate
        let id = try await fixture.post("a")
        let notification = try #require(await fixture.center.deliveredNotifications().first)
        fixture.server.invokeAction(id: id)
        #expect(await eventually { delegate.received.withLock { $0.count } == 1 })
        let extra = 3
        for _ in 0..<(ResponseQueue.limit + extra) {
            fixture.center.responses.enqueue(UNNotificationResponse(notification: notification, actionIdentifier: "again"))
        }
        #expect(fixture.center.responses.droppedCount == extra)
        #expect(delegate.received.withLock { $0.count } == 1)
    }
}

/// A delegate as a Swift 5 program writes one: no actor, completion-handler forms only.
final class PlainDelegate: NSObject, UNUserNotificationCenterDelegate {
    struct Call: Sendable {
        let method: String
        let onMainThread: Bool
    }

    let calls = Locked<[Call]>([])

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        calls.withLock { $0.append(Call(method: "willPresent", onMainThread: MainQueue.isCurrent)) }
        completionHandler([.banner, .list])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        calls.withLock { $0.append(Call(method: "didReceive", onMainThread: MainQueue.isCurrent)) }
        completionHandler()
    }
}

/// Tells whether code runs on the main dispatch queue, the main actor's executor.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// Records each response and keeps its completion handler without ever calling it.
final class StallingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    let received = Locked<[String]>([])
    let kept = Locked<[() -> Void]>([])

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        received.withLock { $0.append(response.notification.request.identifier) }
        kept.withLock { $0.append(completionHandler) }
    }
}
