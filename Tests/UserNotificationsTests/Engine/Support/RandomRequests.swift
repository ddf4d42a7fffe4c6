import Foundation
@testable import UserNotifications

/// Random requests of the common shape (text with quotes, control characters and emoji, every
/// scalar field, no trigger or a time-interval or push trigger), from a fixed seed so that a
/// failure repeats: the state file writer's and the agent records' tests read them.
enum RandomRequests {
    /// A generator with a fixed seed, so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\n", "\t", "\u{1F}", "\u{7F}", "é", "😀", "\u{2028}", "{", "}", "[", "\\u",
    ]

    static func text(_ generator: inout Generator) -> String {
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func request(_ generator: inout Generator) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = text(&generator)
        content.subtitle = text(&generator)
        content.body = text(&generator)
        content.categoryIdentifier = text(&generator)
        content.threadIdentifier = text(&generator)
        content.summaryArgument = text(&generator)
        content.summaryArgumentCount = Int.random(in: -5...Int.max, using: &generator)
        content.relevanceScore = Double.random(in: 0...1, using: &generator)
        content.interruptionLevel = [.passive, .active, .timeSensitive, .critical].randomElement(using: &generator)!
        if Bool.random(using: &generator) { content.badge = NSNumber(value: Int.random(in: Int.min...Int.max, using: &generator)) }
        if Bool.random(using: &generator) { content.targetContentIdentifier = text(&generator) }
        if Bool.random(using: &generator) { content.filterCriteria = text(&generator) }
        let interval = Double.random(in: 1...1e9, using: &generator)
        let trigger: UNNotificationTrigger? = switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: Bool.random(using: &generator))
        case 2: UNTimeIntervalNotificationTrigger(
            timeInterval: max(interval, 60), repeats: true,
            anchorDate: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)))
        default: UNPushNotificationTrigger()
        }
        return UNNotificationRequest(identifier: text(&generator), content: content, trigger: trigger)
    }
}
