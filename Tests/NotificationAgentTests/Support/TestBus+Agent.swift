import Foundation
import UserNotifications
import UserNotificationsTesting

extension TestBus {
    /// Starts the built `notify agent --foreground` on this bus with `environment` added, and
    /// waits until it owns the agent's name.
    func startAgent(arguments: [String] = [], environment: [String: String?]) async throws -> ChildProcess {
        let agent = try spawn(
            try BuiltProduct.url(named: "notify").path, ["agent", "--foreground"] + arguments, environment: environment)
        try await waitForName(AgentInterface.busName, ownedBy: agent)
        return agent
    }

    /// Serves the built agent through this bus's service folder: the first call to the agent's
    /// name starts `notify agent --foreground` with `arguments` and `environment` added, so
    /// the call that starts it is its first work (an idle period counts from it, whatever the
    /// machine's load between starting the agent and calling it).
    ///
    /// - Returns: The file its standard error goes to (every agent the bus starts appends to it).
    @discardableResult
    func serveAgent(arguments: [String] = [], environment: [String: String]) async throws -> URL {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let notify = try BuiltProduct.url(named: "notify").path
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
        let name = "agent-\(UUID().uuidString.prefix(8))"
        let log = directory.appendingPathComponent("\(name).log")
        let command = (assignments + ["exec", quoted(notify), "agent", "--foreground"] + arguments.map(quoted) + ["2>>\(quoted(log.path))"])
            .joined(separator: " ")
        let wrapper = directory.appendingPathComponent("\(name).sh")
        try "#!/bin/sh\n\(command)\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try await BuiltProduct.makeExecutable(atPath: wrapper.path)
        try writeService(name: AgentInterface.busName, exec: wrapper.path)
        return log
    }
}
