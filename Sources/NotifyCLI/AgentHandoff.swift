import Foundation
import UserNotifications

/// A scheduled `notify` (`--in`, `--at`, `--every`) handed to the per-user agent, which shows
/// it when it is due while no notify process waits.
///
/// The request goes through a `UNUserNotificationCenter` in the agent for the app id `-a`
/// names (by default `notify`), shown under that name: the summary as its title, the body,
/// `-u low` and `-u critical` as the passive and critical interruption levels, `--sound` as its
/// sound (without `--sound` it plays none), and the schedule as the library trigger
/// (``Schedule/agentTrigger(now:)``). Its identifier, `agent-` and eight hexadecimal digits, is
/// what `notify cancel` takes.
///
/// Whatever the agent cannot do for notify keeps the waiting process (``make(options:schedule:now:)``
/// returns `nil`): waiting for the person (`-w`, `-A`, `--reply`, `--timeout`), what only the
/// process that shows it can print or remember (`-p`, `--json`, `--id`, `-r`, `--id-fd`,
/// `--selected-action-fd`, `--activation-token-fd`), hints and options the library has no
/// field for (`-i`, `-n`, `-c`, `-e`, `-h`, `-t`, `--image`), an app
/// name that is not an app id, and a schedule no single trigger counted from now fires.
struct AgentHandoff: Sendable {
    /// How the handoff ended.
    enum Outcome: Sendable, Equatable {
        /// The agent holds the request under this identifier.
        case handed(String)
        /// No agent takes it: the waiting process shows it.
        case unavailable
        /// The agent refused it or failed; the message says why.
        case failed(String)
    }

    let appID: String
    let title: String
    let body: String
    let level: UNNotificationInterruptionLevel
    let sound: String?
    let trigger: NotificationTriggerSnapshot

    /// The handoff of `options` on `schedule` made at `now`, or `nil` when the waiting
    /// process must show it.
    static func make(options: NotifyOptions, schedule: Schedule, now: Date) -> AgentHandoff? {
        let live = options.wait || !options.action.isEmpty || options.reply != nil || options.timeout != nil
        let printed = options.printID || options.json || options.identifier != nil || options.replaceID != nil
            || options.idFD != nil || options.selectedActionFD != nil || options.activationTokenFD != nil
        let unmapped = options.icon != nil || options.appIcon != nil || options.category != nil || options.transient || !options.hint.isEmpty
            || options.expireTime != nil || options.image != nil
        guard !live, !printed, !unmapped, let summary = options.text.first else { return nil }
        let appID = options.appName ?? Invocation.defaultAppName
        guard (try? ApplicationIdentity.validate(id: appID)) != nil, let trigger = schedule.agentTrigger(now: now) else { return nil }
        let body = options.text.count > 1 ? String(decoding: compressEscapes(options.text[1]), as: UTF8.self) : ""
        let level: UNNotificationInterruptionLevel =
            switch options.urgency?.lowercased() {
            case "low": .passive
            case "critical": .critical
            default: .active
            }
        return AgentHandoff(
            appID: appID, title: summary, body: body, level: level, sound: options.sound, trigger: NotificationTriggerSnapshot(trigger))
    }

    /// Hands the request to the agent when one is reachable.
    func run() async -> Outcome {
        guard let connection = await AgentAccess.reachableConnection() else { return .unavailable }
        await connection.close()
        do {
            guard try AgentApps.record(appID) else { return .unavailable }
        } catch {
            return .failed("Cannot record the app id \(appID) for notify pending: \(error)")
        }
        guard let center = await AgentAccess.center(appID: appID) else { return .unavailable }
        let identifier = "agent-" + String(format: "%08x", UInt32.random(in: .min ... .max))
        do {
            try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger.makeTrigger()))
        } catch {
            return .failed("The notification agent did not take the notification: \(error)")
        }
        _ = try? AgentApps.record(appID)
        return .handed(identifier)
    }

    private var content: UNNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.interruptionLevel = level
        if let sound { content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: sound)) }
        return content
    }
}
