import ArgumentParser
import Foundation
import FreedesktopNotifications

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
                """,
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Print one JSON array instead of lines.")
        var json = false

        mutating func run() async throws {
            let entries: [ScheduledRecords.Entry]
            do {
                entries = try ScheduledRecords.scan()
            } catch {
                Terminal.error("\(error)\n")
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
                for entry in try await AgentScheduled.list(now: now) {
                    guard let next = entry.schedule.upcoming(at: now) else { continue }
                    rows.append(PendingRow(agent: entry, next: next))
                }
            } catch {
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
                """,
            helpNames: [.customShort("?"), .long])

        @Flag(help: "Cancel every scheduled notification of this user, in waiting processes and in the agent.")
        var all = false

        @Argument(help: ArgumentHelp("The ids that notify pending shows.", valueName: "ID"))
        var ids: [String] = []

        mutating func run() async throws {
            if all == !ids.isEmpty {
                Terminal.error(all ? "notify cancel: give ids or --all, not both.\n"
                                   : "notify cancel needs the id of a scheduled notification (notify pending lists them), or --all.\n")
                throw ExitCode(1)
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
    }
}
