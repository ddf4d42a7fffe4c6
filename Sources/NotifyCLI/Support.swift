import DesktopNotificationsSupport
import Dispatch
import Foundation
import FreedesktopNotifications

/// Unbuffered writes to standard output and standard error, so that what `notify` prints
/// reaches a pipe at once (a script may read the id while `notify` still waits).
///
/// Standard error is for people, and its messages can carry text from outside (a D-Bus
/// error's message, a file name, a payload's words): its control characters are always made
/// visible. Standard output is data for scripts when it is a pipe or a file, and is written as
/// it is; on a terminal it is made visible too.
package enum Terminal {
    /// Writes `text` to standard output (neutralised when it is a terminal).
    package static func out(_ text: String) { write(1, outputIsTerminal ? visible(text) : text) }
    /// Writes `text` to standard error, neutralised.
    package static func error(_ text: String) { write(2, visible(text)) }

    private static let outputIsTerminal = isatty(1) == 1

    /// `text` with its line breaks kept and every other control character made visible
    /// (``TerminalText``).
    static func visible(_ text: String) -> String {
        TerminalText.lines(of: text).joined(separator: "\n")
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Turns `SIGINT` and `SIGTERM` into an async stream through Dispatch signal sources, so a
/// wait can end on Control-C without a handler running in signal context.
///
/// While a watcher lives, the signals it watches are ignored by the process's default
/// action (the sources still see them); ``cancel()`` restores the defaults. Watchers nest:
/// every live watcher of a signal sees it, and the default action comes back only when the
/// last of them is cancelled (a scheduled `notify` watches for its whole life while each
/// delivery watches for its own wait).
final class SignalWatcher: @unchecked Sendable {
    // @unchecked: the sources are created in init and only cancelled afterwards; Dispatch
    // sources are thread-safe but not marked Sendable in corelibs-libdispatch.
    private let sources: [any DispatchSourceSignal]
    private let watched: [Int32]
    private let cancelled = Locked(false)
    /// How many live watchers watch each signal.
    private static let watchers = Locked<[Int32: Int]>([:])
    /// The signal numbers, in the order they arrive.
    let signals: AsyncStream<Int32>

    /// Starts watching `signals`.
    init(_ signals: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.signals = stream
        watched = signals
        sources = signals.map { number in
            Self.watchers.withLock { counts in
                // Only the first watcher sets the disposition: Dispatch installs its own when
                // the first source of a signal is registered, and setting SIG_IGN again over
                // it would make the kernel drop the signal for every watcher.
                if counts[number, default: 0] == 0 { Glibc.signal(number, SIG_IGN) }
                counts[number, default: 0] += 1
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Stops watching; the signals that no other watcher watches get their default actions
    /// back. Calling it again does nothing.
    func cancel() {
        let first = cancelled.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        for source in sources { source.cancel() }
        Self.watchers.withLock { counts in
            for number in watched {
                counts[number, default: 1] -= 1
                if counts[number] == 0 {
                    counts[number] = nil
                    Glibc.signal(number, SIG_DFL)
                }
            }
        }
    }
}
