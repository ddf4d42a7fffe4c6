import Foundation
import DesktopNotificationsSupport
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("The agent's engine asks its app how to present, one question at a time, in order")
struct PresentationQuestionsTests {
    /// An answerer whose answer for `slow` takes a while; it records when each question starts and ends.
    final class SlowAnswers: Sendable {
        let events = Locked<[String]>([])

        func presentationOptions(for notification: UNNotification) async -> UNNotificationPresentationOptions {
            let identifier = notification.request.identifier
            events.withLock { $0.append("asked \(identifier)") }
            if identifier == "slow" { try? await Task.sleep(for: .milliseconds(300)) }
            events.withLock { $0.append("answered \(identifier)") }
            return [.banner]
        }
    }

    static func notification(_ identifier: String) -> UNNotification {
        UNNotification(date: Date(), request: UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil))
    }

    @Test("a slow answer to the first question is told before a quick one to the second, which is asked only after it")
    func inOrder() async throws {
        let host = SlowAnswers()
        let questions = PresentationQuestions()
        let told = Locked<[String]>([])
        for identifier in ["slow", "fast"] {
            questions.ask({ await host.presentationOptions(for: Self.notification(identifier)) }) { options in
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
