import Foundation
import DesktopNotificationsSupport
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("The agent's engine asks its app how to present, one question at a time, in order")
struct HostedEngineHostAdapterTests {
    /// A host whose answer for `slow` takes a while; it records when each question starts and ends.
    final class SlowHost: HostedEngineHost {
        let events = Locked<[String]>([])

        func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
            let identifier = notification.request.identifier
            events.withLock { $0.append("asked \(identifier)") }
            if identifier == "slow" { try? await Task.sleep(for: .milliseconds(300)) }
            events.withLock { $0.append("answered \(identifier)") }
            return [.banner]
        }

        func receive(_ response: UNNotificationResponse) {}

        func hasContentExtension(forCategory category: String) -> Bool { false }

        func contentExtensionShown(_ notification: UNNotification) async {}

        func contentExtensionAnswer(for response: UNNotificationResponse) async -> UNNotificationContentExtensionResponseOption? { nil }
    }

    static func notification(_ identifier: String) -> UNNotification {
        UNNotification(date: Date(), request: UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil))
    }

    @Test("a slow answer to the first question is told before a quick one to the second, which is asked only after it")
    func inOrder() async throws {
        let host = SlowHost()
        let adapter = HostedEngineHostAdapter(host)
        let told = Locked<[String]>([])
        for identifier in ["slow", "fast"] {
            adapter.askPresentationOptions(for: Self.notification(identifier)) { options in
                #expect(options == [.banner])
                told.withLock { $0.append(identifier) }
            }
        }
        #expect(await eventually { told.withLock { $0.count } == 2 })
        #expect(told.withLock { $0 } == ["slow", "fast"])
        #expect(host.events.withLock { $0 } == ["asked slow", "answered slow", "asked fast", "answered fast"])
        withExtendedLifetime(host) {}
    }
}
