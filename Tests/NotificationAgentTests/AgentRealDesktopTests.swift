import DBus
import Foundation
import Testing
import UserNotifications
import UserNotificationsTesting

/// The agent's idle exit against headless GNOME Shell 43: a click on the body of a buttonless
/// notification, made after the app left and after the agent's idle period, still reaches
/// the app. (Its `default` action is on every notification the agent shows.)
@Suite("The agent on real GNOME Shell: idle with a notification on screen")
struct AgentRealDesktopTests {
    static let appID = "org.example.AgentGnomeIdle"

    @Test("the agent stays past its idle period while a buttonless notification is shown; a body click is queued for the app")
    func bodyClickAfterIdle() async throws {
        let scratch = try TemporaryFolder(prefix: "agent-gnome-idle", create: false)
        try await GnomeDesktop.run { desktop in
            try await desktop.testBus.serveAgent(arguments: ["--idle-exit", "2"], environment: ["XDG_STATE_HOME": scratch.path])
            let app = try await AgentTestClient.connect(desktop.testBus.bus)
            try await app.connectApp(Self.appID)
            try await app.add(AgentTestClient.request("body-click"), for: Self.appID)
            let shown = try #require(try await desktop.shell.waitForList(count: 1).first)
            #expect(shown.actions.isEmpty)
            let agent = try #require(try await desktop.testBus.ownerPID(of: AgentInterface.busName))
            await app.close()
            // Twice the idle period, with nothing else going on.
            try await Task.sleep(for: .seconds(5))
            #expect(try await desktop.testBus.ownerPID(of: AgentInterface.busName) == agent)
            try await desktop.shell.activate(id: shown.id)
            let again = try await AgentTestClient.connect(desktop.testBus.bus)
            try await again.connectApp(Self.appID)
            var responses: [String] = []
            #expect(await eventually(timeout: .seconds(10)) {
                guard case .array(_, let items)? = try? await again.call("TakeResponses", [.string(Self.appID)]).first else { return false }
                responses = items.compactMap { item in
                    guard case .structure(let pair) = item, let record = pair.last.flatMap({ try? AgentPayload.Record.reading($0) }) else {
                        return nil
                    }
                    return (try? AgentPayload.response(from: record)).map { "\($0.notification.request.identifier) \($0.actionIdentifier)" }
                }
                return !responses.isEmpty
            })
            #expect(responses == ["body-click \(UNNotificationDefaultActionIdentifier)"])
            await again.close()
        }
    }
}
