import ArgumentParser
import Foundation
import FreedesktopNotifications
import UserNotifications

extension NotifyCommand {
    /// `notify pending`: the scheduled notifications (`--in`, `--at`, `--every`) whose
    /// processes still wait, from every `notify` of this user.
    struct Pending: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.pending.commandName,
            abstract: "List the scheduled notifications (notify --in, --at, --every) still waiting.",
            discussion: """
                Prints one line per scheduled notification, earliest first: the id that notify \
                cancel takes, the next time it fires (local time), how often it repeats ("-" \
                for once), the PID of the notify process that waits to show it or "agent" for \
                one the notification agent holds, and its summary, separated by tabs. Records \
                left by a notify that was killed are removed. With --json, prints one JSON \
                array of objects with the keys id, nextFire (ISO 8601 with the UTC offset), \
                every, pid, summary, appName, identifier, created (pid, identifier and created \
                are null for the agent's) and heldBy ("process" or "agent").

                With --app ID, lists instead the requests the notification agent holds for \
                the app ID, whichever program scheduled them (an app's own \
                UNUserNotificationCenter too); their appName is ID. notify asks the agent as \
                that app: from a shell of the same user it may ask for any app that is not \
                running, but while the app's own center is connected the agent lets no other \
                process act for it, and a notify that runs in a Flatpak, or in an app's systemd \
                unit (app-ID-....scope), is only that app; either refusal exits 1. Asking keeps \
                the app's kept responses and its name and icon in the agent as they were. Requests whose \
                trigger is not a time (a location) are not listed; their number is said on \
                standard error.
                """,
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Print one JSON array instead of lines.")
        var json = false

        @Option(help: ArgumentHelp("List the requests the notification agent holds for this app id instead.", valueName: "ID"))
        var app: String?

        mutating func run() async throws {
            let entries: [ScheduledRecords.Entry]
            do {
                if let app { try ApplicationIdentity.validate(id: app) }
                // With --app, only the agent's requests of that app.
                entries = app == nil ? try ScheduledRecords.scan() : []
            } catch {
                Terminal.error("notify pending: \(error)\n")
                throw ExitCode(1)
            }
            let now = Date()
            var live: [(record: ScheduledRecord, next: Date)] = []
            for entry in entries {
                switch entry {
                case .live(let record):
                    guard let next = record.schedule.upcoming(at: now) else {
                        skip("\(record.id).json", "no time matches its schedule")
                        continue
                    }
                    live.append((record, next))
                case .unreadable(let name, let reason):
                    skip(name, reason)
                }
            }
            var rows = live.map { PendingRow(record: $0.record, next: $0.next) }
            do {
                var timeless = 0
                for entry in try await AgentScheduled.list(app: app, now: now) {
                    guard let next = entry.schedule.upcoming(at: now) else {
                        timeless += 1
                        continue
                    }
                    rows.append(PendingRow(agent: entry, next: next))
                }
                if timeless > 0 {
                    Terminal.error("notify pending: \(timeless) of the agent's requests fire at no time (a location trigger) and are not listed.\n")
                }
            } catch {
                if let app {
                    // The agent's are all --app asks for.
                    Terminal.error("notify pending --app \(app): \(error)\n")
                    throw ExitCode(1)
                }
                Terminal.error("notify pending: the agent's notifications are left out: \(error)\n")
            }
            rows.sort { ($0.next, $0.id) < ($1.next, $1.id) }
            if json {
                do {
                    let data = try JSONSerialization.data(withJSONObject: rows.map(\.object), options: [.sortedKeys, .withoutEscapingSlashes])
                    Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
                } catch {
                    Terminal.error("\(error)\n")
                    throw ExitCode(1)
                }
                return
            }
            for row in rows { Terminal.out(row.line) }
        }

        /// Reports a file of the records folder that is left out.
        private func skip(_ name: String, _ reason: String) {
            Terminal.error("notify pending: skipping \(TerminalText.singleLine(name)) in \(ScheduledRecords.directory.path): \(reason)\n")
        }

        /// `2026-12-24T18:30:00+01:00`, in the local time zone.
        static func iso8601(_ date: Date) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = .current
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: date)
        }

        /// `2026-12-24 18:30:00`, in the local time zone.
        static func localTime(_ date: Date) -> String {
            let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
            return "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        }
    }

    /// `notify cancel ID...|--all`: stops scheduled notifications before they fire (or fire
    /// again).
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: NotifySubcommand.cancel.commandName,
            abstract: "Cancel scheduled notifications by the id notify pending shows, or all of them.",
            discussion: """
                The notify process waiting to show each one ends, with status 0, without \
                showing anything more; one the notification agent holds is removed from it. One that is being shown and waited on (-w, -A, \
                --reply) has its notification closed. Exit status: 0 when every id was \
                cancelled, 1 when one was not pending (it never was, or it has already been \
                shown).

                With --app ID, cancels requests the notification agent holds for the app ID \
                (notify pending --app ID lists them): the ids given, or with --all every one of \
                that app's. The agent decides, as for notify pending --app, whether this notify \
                may act for that app.
                """,
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Cancel every scheduled notification of this user, in waiting processes and in the agent.")
        var all = false

        @Option(help: ArgumentHelp("Cancel requests the notification agent holds for this app id instead.", valueName: "ID"))
        var app: String?

        @Argument(help: ArgumentHelp("The ids that notify pending shows.", valueName: "ID"))
        var ids: [String] = []

        mutating func run() async throws {
            if all == !ids.isEmpty {
                Terminal.error(all ? "notify cancel: give ids or --all, not both.\n"
                                   : "notify cancel needs the id of a scheduled notification (notify pending lists them), or --all.\n")
                throw ExitCode(1)
            }
            if let app {
                try await cancel(app: app)
                return
            }
            var targets = ids
            if all {
                do {
                    targets = try ScheduledRecords.scan().compactMap { entry in
                        if case .live(let record) = entry { record.id } else { nil }
                    }
                } catch {
                    Terminal.error("\(error)\n")
                    throw ExitCode(1)
                }
            }
            var failed = false
            var missing: [String] = []
            for id in targets {
                do {
                    // With --all, one that fired meanwhile is no failure.
                    if try ScheduledRecords.cancel(id: id) == .notPending, !all { missing.append(id) }
                } catch {
                    Terminal.error("\(error)\n")
                    failed = true
                }
            }
            if all || !missing.isEmpty {
                do {
                    let cancelled = try await AgentScheduled.cancel(all ? nil : Set(missing))
                    missing.removeAll { cancelled.contains($0) }
                } catch {
                    Terminal.error("notify cancel: \(error)\n")
                    failed = true
                }
            }
            for id in missing {
                Terminal.error("No scheduled notification \"\(TerminalText.singleLine(id))\" is waiting (notify pending lists them).\n")
                failed = true
            }
            if failed { throw ExitCode(1) }
        }

        /// `--app ID`: the ids (or with `--all` every request) of that app in the agent.
        private func cancel(app: String) async throws {
            do {
                try ApplicationIdentity.validate(id: app)
            } catch {
                Terminal.error("notify cancel: \(error)\n")
                throw ExitCode(1)
            }
            let cancelled: Set<String>
            do {
                cancelled = try await AgentScheduled.cancel(all ? nil : Set(ids), app: app)
            } catch {
                Terminal.error("notify cancel --app \(app): \(error)\n")
                throw ExitCode(1)
            }
            let missing = ids.filter { !cancelled.contains($0) }
            for id in missing {
                Terminal.error("The notification agent holds no pending request \"\(TerminalText.singleLine(id))\" for \(app) (notify pending --app \(app) lists them).\n")
            }
            if !missing.isEmpty { throw ExitCode(1) }
        }
    }
}
