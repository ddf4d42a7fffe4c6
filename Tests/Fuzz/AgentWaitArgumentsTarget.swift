import ArgumentParser
import NotifyCLI

extension FuzzTarget {
    /// `AgentWaitArguments.parse`: the agent's waiter command line (words split at NUL), read
    /// in `main.swift` before anything else. Whatever it accepts, swift-argument-parser must read
    /// to the same `--idle-exit` and `--wait-until` (it is the reference for every other order),
    /// and the command line the agent writes back must read to the same value.
    static let agentWaitArguments = FuzzTarget(
        name: "agent-wait-arguments",
        seeds: [
            ["agent", "--foreground", "--wait-until", "1800000000000000000"],
            ["agent", "--foreground", "--idle-exit", "60", "--wait-until", "0"],
            ["agent", "--foreground", "--idle-exit", "86400", "--wait-until", "9223372036854775807"],
        ].map(\.joinedInput),
        tokens: [
            "agent", "--foreground", "--idle-exit", "--wait-until", "--stay", "--wake-unit", "x.service", "status", "0", "60", "86400", "86401", "-1", "+5", " 5",
            "9223372036854775807", "9223372036854775808", "00000000000000000001", "1e9", "0x10", "--", "=",
        ].map { Array($0.utf8) },
        nesting: [[0]],
        run: { bytes throws(FuzzFinding) in
            let words = bytes.words
            guard let quick = AgentWaitArguments.parse(words) else { return .refused }
            guard AgentWaitArguments.parse(quick.commandLine) == quick else {
                throw FuzzFinding(description: "\(quick.commandLine) does not read back to \(quick)")
            }
            let reference: NotifyCommand.Agent
            do {
                reference = try NotifyCommand.Agent.parse(Array(words.dropFirst()))
            } catch {
                throw FuzzFinding(description: "the waiter's reader accepted \(words), swift-argument-parser refused it: \(error)")
            }
            guard reference.foreground, reference.idleExit == quick.idleExit, reference.waitUntil == quick.until, !reference.stay,
                  reference.action == nil else {
                throw FuzzFinding(description: "the readers disagree on \(words): \(quick) against \(reference)")
            }
            return .accepted
        }
    )
}
