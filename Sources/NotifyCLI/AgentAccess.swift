import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import NotificationAgent
import UserNotifications

/// How `notify` reaches the per-user agent (`org.desktopnotifications.Agent`): whether it is
/// there, what it holds, and a center for one of notify's app ids in it.
enum AgentAccess {
    /// Why the agent could not be asked.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A connection to the session bus when the agent's name has an owner there or the bus
    /// can start it; `nil` without a bus or an agent.
    static func reachableConnection() async -> DBusConnection? {
        guard let connection = try? await DBusConnection.connect(to: .session, timeout: .seconds(5)) else { return nil }
        if (try? await connection.nameOwner(of: AgentInterface.busName)) != nil { return connection }
        if (try? await connection.listActivatableNames())?.contains(AgentInterface.busName) == true { return connection }
        await connection.close()
        return nil
    }

    /// What the agent holds, per app; with `start` false, only a running agent is asked.
    static func status(on connection: DBusConnection, start: Bool) async throws(Failure) -> AgentStatus {
        do {
            let call = try Agent1Spec.Call.status.message(to: AgentInterface.busName, path: AgentInterface.path, flags: start ? [] : [.noAutoStart])
            let json = try Agent1Spec.StatusReply(await connection.call(call).body).statusJSON
            guard json.utf8.count <= AgentInterface.maximumArgumentBytes else { throw Failure(description: "its status is too long") }
            return try OutsideJSON.decode(AgentStatus.self, from: Data(json.utf8))
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(description: "no agent answers: \(TerminalText.singleLine(String(describing: error)))")
        }
    }

    /// A center of `appID` (shown as `appID`) whose requests live in the agent; `nil` when the
    /// agent does not take it (it is not there, does not answer, or refuses notify this id).
    static func center(appID: String) async -> UNUserNotificationCenter? {
        let center = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: appID, displayName: appID), bus: .session, persistent: false, engine: .agent)
        guard await center.engineKind == .agent else { return nil }
        return center
    }
}
