import Foundation

extension UNUserNotificationCenter {
    /// Registers the service extension that changes mutable remote notifications (payloads
    /// with `mutable-content: 1`) before they are shown, with its deadline. A Linux addition:
    /// Apple finds the extension in the app's bundle, and starts it for a push while the app
    /// is not running. Here it runs in the app's process: for pushes the center takes itself,
    /// and for pushes the agent takes while this center is connected to it (the agent waits
    /// at most 35 s, so a longer deadline is cut off there); a push the agent takes while the
    /// app is not running is shown as sent.
    public func setServiceExtension(_ serviceExtension: UNNotificationServiceExtension?, deadline: Duration = .seconds(30)) {
        serviceExtensionSlot.withLock { $0 = serviceExtension.map { ServiceExtensionRegistration(object: $0, deadline: deadline) } }
    }

    /// The content a mutable payload is shown with: the extension's answer, else (at its
    /// deadline, after `serviceExtensionTimeWillExpire`) the original.
    package func serviceExtensionContent(for request: UNNotificationRequest) async -> UNNotificationContent {
        guard let registration = serviceExtensionSlot.withLock({ $0 }) else { return request.content }
        let clock = self.clock
        let answer: ContentBox = await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let original = ContentBox(request.content)
            let seconds = Double(registration.deadline.components.seconds)
                + Double(registration.deadline.components.attoseconds) / 1e18
            let alarm = clock.setAlarm(for: clock.now.addingTimeInterval(seconds)) { _ in
                Task { @MainActor in
                    registration.object.serviceExtensionTimeWillExpire()
                    once.resume(returning: original)
                }
            }
            Task { @MainActor in
                registration.object.didReceive(request) { content in
                    alarm.cancel()
                    once.resume(returning: ContentBox(content.copy() as! UNNotificationContent))
                }
            }
        }
        return answer.content
    }
}

/// A registered service extension and its deadline.
struct ServiceExtensionRegistration: @unchecked Sendable {
    let object: UNNotificationServiceExtension
    let deadline: Duration
}

/// Carries an immutable content copy across tasks.
struct ContentBox: @unchecked Sendable {
    let content: UNNotificationContent
    init(_ content: UNNotificationContent) { self.content = content }
}
