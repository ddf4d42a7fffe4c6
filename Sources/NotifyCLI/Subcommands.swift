import ArgumentParser
import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import UserNotifications

extension NotifyCommand {
    /// The most words a command line may have. swift-argument-parser's time grows with the
    /// square of an option's repeats (4,000 `-A` took 2 s), and no real use comes near this.
    package static let maximumArguments = 1024

    /// Runs `work` with a client of the session bus, then disconnects it, failed or not. A
    /// failure is printed and becomes exit status 1, as for every subcommand.
    static func withSessionClient<T: Sendable>(_ work: (NotificationsClient) async throws -> T) async throws -> T {
        let client = NotificationsClient(bus: .session, callTimeout: .seconds(5))
        do {
            let value = try await work(client)
            await client.disconnect()
            return value
        } catch {
            await client.disconnect()
            Terminal.error("\(error)\n")
            throw ExitCode(1)
        }
    }

    /// `notify info`: who serves notifications on the session bus and what it can do.
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.info.commandName,
            abstract: "Show the notification server's name, vendor, version, spec version, capabilities and Do Not Disturb state.",
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Print one JSON object instead of lines.")
        var json = false

        mutating func run() async throws {
            let (info, capabilities) = try await NotifyCommand.withSessionClient { client in
                (try await client.serverInformation(), try await client.capabilities().map(\.rawValue))
            }
            let doNotDisturb = await Self.doNotDisturb()
            do {
                if json {
                    let object: [String: Any] = [
                        "name": info.name, "vendor": info.vendor, "version": info.version,
                        "specVersion": info.specVersion, "capabilities": capabilities,
                        "doNotDisturb": doNotDisturb.isOn.map { $0 ? "on" : "off" } ?? "unknown",
                        "doNotDisturbSource": doNotDisturb.source.rawValue,
                    ]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                    Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
                } else {
                    Terminal.out("""
                        name: \(TerminalText.singleLine(info.name))
                        vendor: \(TerminalText.singleLine(info.vendor))
                        version: \(TerminalText.singleLine(info.version))
                        spec version: \(TerminalText.singleLine(info.specVersion))
                        capabilities: \(TerminalText.singleLine(capabilities.joined(separator: " ")))
                        do not disturb: \(doNotDisturb)

                        """)
                }
            } catch {
                Terminal.error("\(error)\n")
                throw ExitCode(1)
            }
        }

        /// The server's Do Not Disturb switch, read on a connection of its own.
        private static func doNotDisturb() async -> DoNotDisturbStatus {
            do {
                let connection = try await DBusConnection.connect(to: .session)
                let status = await DoNotDisturbReader.read(on: connection)
                await connection.close()
                return status
            } catch {
                Terminal.error("notify: no bus to read Do Not Disturb on: \(error)\n")
                return DoNotDisturbStatus(isOn: nil, source: .noServer)
            }
        }
    }

    /// `notify close ID|IDENTIFIER`: CloseNotification for an id that `notify -p` printed, or
    /// for the notification last shown with `--id IDENTIFIER`.
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.close.commandName,
            abstract: "Close a notification by the id that notify -p (or notify-send -p) printed, or by its --id name.",
            discussion: """
                A number is an id. Anything else is a name given with notify --id; it closes \
                the notification only while the server that showed it still serves, and is \
                forgotten afterwards.
                """,
            helpNames: [.customShort("?"), .long])

        @Argument(help: ArgumentHelp("The notification's id, or the name it was given with --id.", valueName: "ID|IDENTIFIER"))
        var target: String

        private enum Closing: Sendable {
            case number(UInt32)
            case name(String, RememberedNotification)
        }

        mutating func run() async throws {
            let closing: Closing
            if let number = UInt32(target) {
                closing = .number(number)
            } else {
                let known: RememberedNotification?
                do {
                    known = try IdentifierStore.entries()[target]
                } catch {
                    Terminal.error("\(error)\n")
                    throw ExitCode(1)
                }
                guard let known else {
                    Terminal.error("No notification is known as \"\(target)\" (notify list shows the names known).\n")
                    throw ExitCode(1)
                }
                closing = .name(target, known)
            }
            let (id, owner) = try await NotifyCommand.withSessionClient { client in
                switch closing {
                case .number(let id):
                    try await client.closeNotification(id: id)
                    return (id, client.serverOwner)
                case .name(let name, let known):
                    _ = try await client.connect()
                    guard known.server == client.serverOwner else {
                        _ = try? IdentifierStore.update { entries in
                            if entries[name] == known { entries[name] = nil }
                        }
                        throw ServerGone(name: name)
                    }
                    try await client.closeNotification(id: known.id)
                    return (known.id, client.serverOwner)
                }
            }
            let forget: String? = if case .name(let name, _) = closing { name } else { nil }
            // Closed by name or by number, the notification is gone: forget every name for it.
            _ = try? IdentifierStore.update { entries in
                if let forget { entries[forget] = nil }
                entries = entries.filter { !($0.value.server == owner && $0.value.id == id) }
            }
        }
    }

    /// A name whose notification server has gone: nothing to close.
    struct ServerGone: Error, CustomStringConvertible {
        let name: String
        var description: String { "\"\(name)\" was shown by a notification server that has gone; there is nothing to close." }
    }

    /// `notify list`: the notifications given an `--id` whose server still serves.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.list.commandName,
            abstract: "List the notifications shown with --id that notify still knows.",
            discussion: """
                Prints one line per notification: its --id name, its id and its summary, \
                separated by tabs. Names whose notification server has gone since are \
                forgotten. A notification the person dismissed stays listed until its name \
                is reused or closed: servers tell only the program that is still waiting.
                """,
            helpNames: [.customShort("?"), .long])

        mutating func run() async throws {
            let owner = try await NotifyCommand.withSessionClient { client in
                _ = try await client.connect()
                return client.serverOwner
            }
            let live: [String: RememberedNotification]
            do {
                live = try IdentifierStore.update { entries in
                    entries = entries.filter { $0.value.server == owner }
                    return entries
                }
            } catch {
                Terminal.error("\(error)\n")
                throw ExitCode(1)
            }
            for (name, entry) in live.sorted(by: { $0.key < $1.key }) {
                Terminal.out("\(TerminalText.singleLine(name))\t\(entry.id)\t\(TerminalText.singleLine(entry.summary))\n")
            }
        }
    }

    /// `notify server`: a notification server that prints each notification, for sessions
    /// without a desktop.
    struct Server: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.server.commandName,
            abstract: "Serve notifications in this terminal, for sessions without a desktop.",
            discussion: """
                Owns org.freedesktop.Notifications on the session bus (taking it over from a \
                server that allows it) and prints every notification any program sends, \
                notify-send included. A line typed answers the newest notification: a number \
                chooses an action, "> text" replies, an empty line dismisses it. When standard \
                input ends, notifications expire as soon as they are shown. Control-C stops.

                Every program may post, so what they send is checked as notify checks its own \
                (sizes included), printed with control characters made visible (^[ for ESC), \
                closed when its expire time passes, and a program can replace only its own \
                notifications. At most 64 stay shown; a new one closes the oldest.

                With --private, a bus of its own is started and its address printed as \
                DBUS_SESSION_BUS_ADDRESS=... on the first line, for clients to use.
                """,
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Start a private bus and print its address instead of using the session bus.")
        var `private` = false

        mutating func run() async throws {
            let signals = SignalWatcher([SIGINT, SIGTERM])
            defer { signals.cancel() }
            var privateBus: PrivateBus?
            defer { privateBus?.stop() }
            let bus: DBusBus
            if `private` {
                do {
                    privateBus = try PrivateBus()
                } catch {
                    Terminal.error("\(error)\n")
                    throw ExitCode(1)
                }
                bus = .address(privateBus!.address)
                Terminal.out("DBUS_SESSION_BUS_ADDRESS=\(privateBus!.address)\n")
            } else {
                bus = .session
            }
            let connection: DBusConnection
            let server: NotificationServer
            do {
                connection = try await DBusConnection.connect(to: bus)
                server = try await TerminalPresenter { text in Terminal.out(text) }.start(on: connection)
            } catch {
                Terminal.error("notify server: \(error)\n")
                throw ExitCode(1)
            }
            Terminal.error("notify server: serving org.freedesktop.Notifications as \(connection.uniqueName); Control-C stops.\n")
            let (ends, end) = AsyncStream.makeStream(of: Void.self)
            connection.onDisconnect { end.yield() }
            let watcher = Task {
                for await _ in signals.signals { end.yield(); return }
            }
            for await _ in ends { break }
            watcher.cancel()
            if connection.isConnected {
                await server.stop()
                await connection.close()
            }
            Terminal.error("notify server: stopped.\n")
        }
    }
}
