import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import UserNotifications

extension NotifyCommand {
    /// `notify agent`: the per-user notification agent, or its status.
    package struct Agent: AsyncParsableCommand {
        /// Its name, help and discussion.
        package static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.agent.commandName,
            abstract: "Run the per-user notification agent, or show what it holds.",
            discussion: """
                With --foreground, owns org.desktopnotifications.Agent on the session bus and \
                keeps apps' notifications for them: pending requests fire while the app is not \
                running, notifications are posted with the app's own name and icon and stay \
                after it exits, and a click after it exits is kept for its next start. The bus \
                starts it on demand through its service file. SIGTERM or Control-C stops it. \
                It exits by itself (status 0) after --idle-exit seconds holding nothing: no \
                pending request, no shown notification with buttons, no app connected; the bus \
                starts it again when it is next needed (responses waiting for their app are \
                kept on disk). When all it holds is pending requests due later than that, it \
                replaces itself with a waiter (notify agent --wait-until, the same process) that \
                owns no bus name and does nothing until the soonest is due, then starts the \
                agent again; a call to the agent meanwhile starts a new one and ends the waiter. \
                --stay keeps the agent itself running instead. Under systemd a waiter cannot stay \
                behind its unit: with --wake-unit UNIT (the systemd unit uses it), the agent arms a \
                transient systemd timer (systemd-run --user --on-calendar) that starts UNIT when \
                the soonest request is due, and exits; when the timer cannot be armed it stays, \
                and tries again the next time it is idle.

                "notify agent status" prints each app the agent holds, with its pending, shown \
                and queued-response counts.
                """,
            helpNames: [.customShort("?"), .long])

        /// `status`, or nothing with `--foreground`.
        @Argument(help: "status: print what the running agent holds.")
        package var action: String?

        /// `--foreground`: serve in this process.
        @Flag(help: "Run the agent in this process until SIGTERM or Control-C.")
        package var foreground = false

        /// `--idle-exit`: seconds holding nothing before the agent exits (0: never).
        @Option(name: .customLong("idle-exit"), help: ArgumentHelp(
            "With --foreground, exit after this many seconds holding nothing (0: never).", valueName: "SECONDS"))
        package var idleExit = Agent.defaultIdleExit

        /// `--stay`: pending requests keep the agent itself running (no waiter).
        @Flag(help: "With --foreground, keep running while holding pending requests, instead of waiting for them as a waiter.")
        package var stay = false

        /// `--wake-unit`: under systemd, a timer that starts this unit takes the waiter's place.
        @Option(name: .customLong("wake-unit"), help: ArgumentHelp(
            "With --foreground, when holding only requests due later, arm a systemd user timer that starts this service unit when the soonest is due, and exit.",
            valueName: "UNIT"))
        package var wakeUnit: String?

        /// `--wait-until`: run as the agent's waiter (``AgentWaiter``) until this instant.
        @Option(name: .customLong("wait-until"), help: ArgumentHelp(
            "With --foreground, wait as the agent's waiter until this wall-clock time (nanoseconds since 1970), then run the agent.",
            valueName: "NANOSECONDS"))
        package var waitUntil: Int64?

        /// The options' defaults, as swift-argument-parser needs.
        package init() {}

        /// --idle-exit's default: a minute.
        static let defaultIdleExit = 60

        /// The longest --idle-exit: a day.
        static let maximumIdleExit = 86_400

        /// Refuses an --idle-exit out of range, a --wait-until without --foreground, and a
        /// command line that neither serves nor asks for the status.
        package func validate() throws {
            guard (0...Self.maximumIdleExit).contains(idleExit) else {
                throw ValidationError("--idle-exit takes 0 to \(Self.maximumIdleExit) seconds, not \(idleExit)")
            }
            if let wakeUnit {
                guard foreground, !stay, waitUntil == nil else {
                    throw ValidationError("--wake-unit goes with --foreground, and neither with --stay nor with --wait-until")
                }
                guard SystemdWakeTimer(unit: wakeUnit) != nil else {
                    throw ValidationError("--wake-unit takes a systemd service unit name (NAME.service), not \(TerminalText.singleLine(wakeUnit))")
                }
            }
            if let waitUntil, waitUntil < 0 || !foreground {
                throw ValidationError("--wait-until takes nanoseconds since 1970 (not negative), with --foreground")
            }
            switch (action, foreground) {
            case (nil, true), ("status", false): return
            default: throw ValidationError("use 'notify agent --foreground' or 'notify agent status'")
            }
        }

        /// Waits, serves, or prints the status.
        package mutating func run() async throws {
            if let waitUntil {
                // main.swift runs the usual form before the runtime starts; this is any other order.
                throw ExitCode(AgentWaiter.run(AgentWaitArguments(idleExit: idleExit, until: waitUntil)))
            }
            if foreground { try await serve() } else { try await printStatus() }
        }

        private func serve() async throws {
            let signals = SignalWatcher([SIGINT, SIGTERM])
            defer { signals.cancel() }
            let service: AgentService
            do {
                let launching = try await DBusConnection.connect(to: .session)
                service = try await AgentService.start(
                    launcher: ApplicationLauncher(environment: ProcessInfo.processInfo.environment, connection: launching),
                    identifying: CallerIdentityResolver())
            } catch {
                Terminal.error("notify agent: \(error)\n")
                throw ExitCode(1)
            }
            // nil: stop (a signal, the bus closed); otherwise why the agent was idle long enough.
            let (ends, end) = AsyncStream.makeStream(of: AgentIdleEnd?.self)
            service.connection.onDisconnect { end.yield(nil) }
            if idleExit > 0 {
                do {
                    try await service.exitWhenIdle(after: .seconds(idleExit), waiting: !stay) { end.yield($0) }
                } catch {
                    Terminal.error("notify agent: \(error)\n")
                    await service.stop()
                    throw ExitCode(1)
                }
            }
            let watcher = Task {
                for await _ in signals.signals { end.yield(nil); return }
            }
            var ending: AgentIdleEnd?
            for await reason in ends {
                if case .waitsUntil(let date)? = reason, let timer = wakeUnit.flatMap(SystemdWakeTimer.init(unit:)) {
                    do throws(SystemdWakeTimer.Failure) {
                        try await timer.arm(at: date)
                    } catch {
                        // Its pending requests need a running process: it stays, and tries again
                        // when next idle (after a sign of work; nothing wakes it meanwhile).
                        Terminal.error("notify agent: no systemd timer to start \(timer.unit) when a request is due (\(error)); the agent stays\n")
                        continue
                    }
                }
                ending = reason
                break
            }
            watcher.cancel()
            if service.connection.isConnected { await service.stop() }
            // Under systemd (--wake-unit) its timer takes the waiter's place.
            guard case .waitsUntil(let date)? = ending, wakeUnit == nil else { return }
            // The state is saved and the name released: the same process waits in its place.
            let waiting = AgentWaitArguments(idleExit: idleExit, untilSecondsSince1970: date.timeIntervalSince1970)
            guard let program = AgentWaiter.ownExecutable() else {
                Terminal.error("notify agent: cannot tell its own executable to wait; pending requests fire when the agent next starts\n")
                throw ExitCode(1)
            }
            throw ExitCode(AgentWaiter.execute(program, waiting.commandLine))
        }

        private func printStatus() async throws {
            let status: AgentStatus
            do {
                let connection = try await DBusConnection.connect(to: .session)
                status = try await AgentAccess.status(on: connection, start: false)
            } catch {
                Terminal.error("notify agent status: \(TerminalText.singleLine(String(describing: error)))\n")
                throw ExitCode(1)
            }
            Terminal.out("app\tpending\tdelivered\tqueued\tconnected\n")
            for app in status.apps {
                Terminal.out("\(TerminalText.singleLine(app.appID))\t\(app.pending)\t\(app.delivered)\t\(app.queued)\t\(app.connected ? "yes" : "no")\n")
            }
        }
    }
}
