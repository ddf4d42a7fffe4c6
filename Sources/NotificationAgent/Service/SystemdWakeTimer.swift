import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A transient systemd user timer that starts the agent's unit when its soonest pending
/// request is due, so that an agent run by systemd exits when it holds only requests due later
/// instead of staying (`notify agent --wake-unit`).
///
/// Under systemd the agent cannot leave a waiter behind (`notify agent --wait-until`): once
/// its unit's main process exits, systemd stops the unit and ends every process left in it.
/// So before it exits, the agent asks the user's service manager for a timer instead:
/// `systemd-run --user --unit=UNIT --on-calendar=WHEN` with no command creates only the timer
/// (`UNIT` with `.timer` for `.service`), which starts the existing unit when it elapses.
/// `WHEN` is the due time in UTC, rounded up to the second; the timer's accuracy is one second
/// (systemd's default is a minute) and it is unloaded once elapsed. A timer of that name left
/// from before is stopped first (`systemctl --user stop`), as a second one of the same name
/// cannot be created.
///
/// The agent started by the timer fires what is due (a request missed while it was not running
/// fires once at its start), so a timer that elapses late, or twice, shows nothing twice.
package struct SystemdWakeTimer: Sendable {
    /// Why a timer was not armed.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// `systemd-run` is not on `PATH`.
        case programMissing(String)
        /// It could not be started (`errno`'s description).
        case startFailed(String)
        /// It exited with this status, printing this on its standard error (its first 512
        /// bytes, control characters removed).
        case failed(status: Int32, message: String)
        /// It was ended by this signal, printing this on its standard error (as for
        /// ``failed(status:message:)``).
        case killed(signal: Int32, message: String)
        /// It did not exit within the timeout (it was ended).
        case timedOut

        package var description: String {
            switch self {
            case .programMissing(let program): "\(program) is not on PATH"
            case .startFailed(let reason): "systemd-run could not be started: \(reason)"
            case .failed(let status, let message): "systemd-run exited with status \(status)\(message.isEmpty ? "" : ": \(message)")"
            case .killed(let signal, let message): "systemd-run was ended by signal \(signal)\(message.isEmpty ? "" : ": \(message)")"
            case .timedOut: "systemd-run did not finish in time"
            }
        }
    }

    /// The service unit the timer starts.
    package let unit: String
    /// The longest wait for each of `systemctl` and `systemd-run`.
    package var timeout: Duration = .seconds(10)

    /// The longest unit name systemd takes.
    static let maximumUnitName = 255

    /// A timer for `unit`, a `.service` unit name, or `nil` when `unit` is not one.
    package init?(unit: String) {
        guard Self.isServiceUnitName(unit) else { return nil }
        self.unit = unit
    }

    /// Whether `name` is a plain systemd service unit name: at most 255 bytes of ASCII letters,
    /// digits and `:-_.\@`, not starting with `-` or `.`, ending in `.service` after a stem.
    package static func isServiceUnitName(_ name: String) -> Bool {
        guard name.utf8.count <= maximumUnitName, name.hasSuffix(".service"), name.utf8.count > ".service".utf8.count,
              let first = name.unicodeScalars.first, first != "-", first != "."
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ":-_.\\@".unicodeScalars.contains(scalar))
        }
    }

    /// The timer's unit name: the service's with `.timer` for `.service`.
    package var timerUnit: String { String(unit.dropLast(".service".count)) + ".timer" }

    /// The latest time a systemd calendar event can name: 2199-12-31 23:59:59 UTC (systemd
    /// takes the years 1970 to 2199), in seconds since 1970.
    static let latestCalendarEvent: Int64 = 7_258_118_399

    /// `date` as a systemd calendar event in UTC, rounded up to the second
    /// (`2026-11-27 15:04:05 UTC`).
    ///
    /// A date systemd cannot name is brought within its years, so that no date traps (the
    /// dates come from the apps' saved requests): one after 2199 (up to infinity) is
    /// 2199-12-31 23:59:59 UTC, where the agent the timer starts finds nothing due and arms a
    /// timer again; one before 1970, or not a number, is 1970-01-01 00:00:00 UTC (the agent
    /// asks for a timer only for a time ahead of it).
    package static func calendarEvent(for date: Date) -> String {
        let rounded = date.timeIntervalSince1970.rounded(.up)
        let seconds: Int64 = if rounded.isNaN || rounded <= 0 {
            0
        } else if rounded >= Double(latestCalendarEvent) {
            latestCalendarEvent
        } else {
            Int64(rounded)
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d UTC",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec))
    }

    /// The arguments of the `systemd-run` call that arms the timer for `date`.
    package func arguments(for date: Date) -> [String] {
        [
            "--user", "--unit=\(unit)", "--on-calendar=\(Self.calendarEvent(for: date))",
            "--timer-property=AccuracySec=1s", "--timer-property=RemainAfterElapse=no",
        ]
    }

    /// Arms the timer for `date`, replacing one of its name armed before.
    ///
    /// - Throws: ``Failure`` when `systemd-run` is missing, fails or hangs; the agent then
    ///   stays (its pending requests need a running process).
    package func arm(at date: Date, environment: [String: String] = ProcessInfo.processInfo.environment) async throws(Failure) {
        if let systemctl = ExecutableSearch.find("systemctl", in: environment) {
            do {
                try await Self.run(systemctl, ["--user", "stop", timerUnit], timeout: timeout)
            } catch {
                // Most often there is no such timer: nothing to stop. A timer still there makes
                // systemd-run fail below, which is reported.
                SubsystemLog.agent.logger.debug("no earlier wake-up timer was stopped", metadata: ["timer": "\(timerUnit)", "error": "\(error)"])
            }
        }
        guard let program = ExecutableSearch.find("systemd-run", in: environment) else { throw .programMissing("systemd-run") }
        try await Self.run(program, arguments(for: date), timeout: timeout)
    }

    /// Runs `program` with `arguments`, standard input and output on `/dev/null`, and waits for
    /// it at most `timeout` (then ends it, by force if it must).
    static func run(_ program: String, _ arguments: [String], timeout: Duration) async throws(Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let (exits, exited) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in
            exited.yield()
            exited.finish()
        }
        do {
            try process.run()
        } catch {
            throw .startFailed(String(describing: error))
        }
        try? errors.fileHandleForWriting.close()
        // Ended after the timeout: asked first (SIGTERM), then, two seconds on, made to (SIGKILL).
        let pid = process.processIdentifier
        let deadline = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
            try? await Task.sleep(for: .seconds(2))
            // Not once it exited (the wait below cancels this): its PID may be another's by then.
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
        for await _ in exits { break }
        deadline.cancel()
        let timedOut: Bool
        do {
            try await deadline.value
            timedOut = true
        } catch {
            timedOut = false
        }
        // Its last line's end would be left as a space.
        let message = TerminalText.singleLine(String(decoding: readAvailable(errors.fileHandleForReading.fileDescriptor), as: UTF8.self))
            .trimmingCharacters(in: .whitespaces)
        try? errors.fileHandleForReading.close()
        if timedOut { throw .timedOut }
        // For a process ended by a signal, Foundation gives the signal's number as its status.
        guard process.terminationReason == .exit else { throw .killed(signal: process.terminationStatus, message: message) }
        guard process.terminationStatus == 0 else { throw .failed(status: process.terminationStatus, message: message) }
    }

    /// What can be read from `descriptor` without waiting, at most 512 bytes.
    private static func readAvailable(_ descriptor: Int32) -> [UInt8] {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 512) }
        return count > 0 ? Array(buffer[..<count]) : []
    }
}
