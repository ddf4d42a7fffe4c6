import ArgumentParser
import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import UserNotifications

extension NotifyCommand {
    /// `notify agent`: the per-user notification agent, or its status.
    struct Agent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.agent.commandName,
            abstract: "Run the per-user notification agent, or show what it holds.",
            discussion: """
                With --foreground, owns org.desktopnotifications.Agent on the session bus and \
                keeps apps' notifications for them: pending requests fire while the app is not \
                running, notifications are posted with the app's own name and icon and stay \
                after it exits, and a click after it exits is kept for its next start. The bus \
                starts it on demand through its service file. SIGTERM or Control-C stops it. \
                It exits by itself (status 0) after --idle-exit seconds holding nothing: no \
                pending request, no shown notification with buttons, no response waiting for \
                its app, no app connected; the bus starts it again when it is next needed.

                "notify agent status" prints each app the agent holds, with its pending, shown \
                and queued-response counts.
                """,
            helpNames: [.customShort("?"), .long])

        @Argument(help: "status: print what the running agent holds.")
        var action: String?

        @Flag(help: "Run the agent in this process until SIGTERM or Control-C.")
        var foreground = false

        @Option(name: .customLong("idle-exit"), help: ArgumentHelp(
            "With --foreground, exit after this many seconds holding nothing (0: never).", valueName: "SECONDS"))
        var idleExit = 60

        /// The longest --idle-exit: a day.
        static let maximumIdleExit = 86_400

        func validate() throws {
            guard (0...Self.maximumIdleExit).contains(idleExit) else {
                throw ValidationError("--idle-exit takes 0 to \(Self.maximumIdleExit) seconds, not \(idleExit)")
            }
            switch (action, foreground) {
            case (nil, true), ("status", false): return
            default: throw ValidationError("use 'notify agent --foreground' or 'notify agent status'")
            }
        }

        mutating func run() async throws {
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
            let (ends, end) = AsyncStream.makeStream(of: Void.self)
            service.connection.onDisconnect { end.yield() }
            if idleExit > 0 {
                do {
                    try await service.exitWhenIdle(after: .seconds(idleExit)) { end.yield() }
                } catch {
                    Terminal.error("notify agent: \(error)\n")
                    await service.stop()
                    throw ExitCode(1)
                }
            }
            let watcher = Task {
                for await _ in signals.signals { end.yield(); return }
            }
            for await _ in ends { break }
            watcher.cancel()
            if service.connection.isConnected { await service.stop() }
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
