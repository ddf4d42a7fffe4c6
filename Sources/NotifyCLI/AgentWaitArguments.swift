/// The command line of the agent's waiter, `notify agent --foreground [--idle-exit SECONDS]
/// --wait-until NANOSECONDS`: what an agent that holds only requests due later replaces itself
/// with (``AgentWaiter``), and what the waiter starts again when they are due.
///
/// `main.swift` reads this exact form before anything else runs, so that the waiter never
/// starts the concurrency runtime (whose thread pool wakes the process every second); the
/// same options in another order reach swift-argument-parser and wait all the same.
package struct AgentWaitArguments: Sendable, Hashable {
    /// The agent's `--idle-exit`, given back to the agent the waiter starts.
    package var idleExit: Int
    /// When to start the agent: nanoseconds since 1970-01-01 00:00 UTC on the wall clock.
    package var until: Int64

    /// The longest text of `--wait-until` read: 19 digits hold every `Int64`.
    static let maximumDigits = 19

    package init(idleExit: Int, until: Int64) {
        self.idleExit = idleExit
        self.until = until
    }

    /// Waits until `seconds` since 1970 (`Date.timeIntervalSince1970`), rounded up to the next
    /// nanosecond; a time before 1970 is 1970, one past 2262 (`Int64`'s last nanosecond) is that
    /// nanosecond, where the agent starts, finds nothing due and waits again.
    package init(idleExit: Int, untilSecondsSince1970 seconds: Double) {
        let nanoseconds = (seconds * 1_000_000_000).rounded(.up)
        let until: Int64 = if nanoseconds.isNaN || nanoseconds <= 0 { 0 } else if nanoseconds >= 0x1p63 { .max } else { Int64(nanoseconds) }
        self.init(idleExit: idleExit, until: until)
    }

    /// Reads `agent --foreground [--idle-exit SECONDS] --wait-until NANOSECONDS` exactly (the
    /// words after the program's name); nil for any other command line, and for values out
    /// of range (swift-argument-parser then reads it and reports what is wrong).
    package static func parse(_ arguments: [String]) -> AgentWaitArguments? {
        var words = arguments[...]
        guard words.popFirst() == NotifySubcommand.agent.rawValue, words.popFirst() == "--foreground" else { return nil }
        var idleExit = NotifyCommand.Agent.defaultIdleExit
        if words.first == "--idle-exit" {
            words.removeFirst()
            guard let text = words.popFirst(), let seconds = decimal(text),
                  seconds <= Int64(NotifyCommand.Agent.maximumIdleExit) else { return nil }
            idleExit = Int(seconds)
        }
        guard words.popFirst() == "--wait-until", let text = words.popFirst(), words.isEmpty, let until = decimal(text) else { return nil }
        return AgentWaitArguments(idleExit: idleExit, until: until)
    }

    /// A non-negative decimal of ASCII digits only (no sign, no white space), within `Int64`.
    static func decimal(_ text: String) -> Int64? {
        let digits = text.utf8
        guard (1...maximumDigits).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }

    /// The waiter's own command line (after the program's name).
    package var commandLine: [String] {
        agentCommandLine + ["--wait-until", String(until)]
    }

    /// The agent's command line (after the program's name), which the waiter runs when due.
    package var agentCommandLine: [String] {
        [NotifySubcommand.agent.rawValue, "--foreground", "--idle-exit", String(idleExit)]
    }
}
