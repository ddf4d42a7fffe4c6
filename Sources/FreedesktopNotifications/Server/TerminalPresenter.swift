public import DBus
import DesktopNotificationsSupport
public import Foundation

/// A notification server that shows notifications in a terminal and takes the person's
/// answer from the keyboard: for machines with no desktop (an SSH session, a container, CI).
///
/// Each notification is printed with its numbered actions. A line of input answers the newest
/// live notification: a number chooses that action (`ActionInvoked`), `> text` replies
/// (`NotificationReplied`, as KDE's inline reply), an empty line dismisses it. At the end of
/// the input, live notifications expire (`NotificationClosed(id, 1)`), so a program waiting
/// for an answer learns that none will come.
///
/// Every program on the bus may post, so each `Notify` is treated as hostile:
///
/// - it is checked as ``NotificationsClient`` checks its own (``NotifyRequest/validate(limits:)``
///   with the default ``NotificationLimits``) and refused with `InvalidArgs` when it fails;
/// - its text is printed through ``TerminalText``, so no escape sequence reaches the terminal;
/// - a `replaces_id` names only the caller's own notifications: another program's id gets a
///   new notification, as GNOME Shell does, so nobody can take over a notification (and the
///   answer meant for it);
/// - `expire_timeout` is honoured (`NotificationClosed(id, 1)` when it passes); -1, the
///   server's default, keeps it until answered, as 0 does;
/// - at most `maximumLive` notifications are kept: a new one past that closes the oldest
///   (`NotificationClosed(id, 1)`).
public final class TerminalPresenter: NotificationServerHandler, Sendable {
    /// How many notifications are kept live by default.
    public static let defaultMaximumLive = 64

    private struct Live {
        var request: NotifyRequest
        var sender: String
        /// Tells this showing from a later replacement, whose expiry starts afresh.
        var showing: UInt64
        /// The wait for `expire_timeout`, cancelled when the notification goes or is
        /// replaced, so replacements cannot pile up sleeping tasks.
        var expiry: Task<Void, Never>?
    }

    private struct State {
        var nextID: UInt32 = 1
        var nextShowing: UInt64 = 0
        var live: [(id: UInt32, notification: Live)] = []
        var server: NotificationServer?
        var inputEnded = false
        /// Lines that came before any notification, kept for the next one.
        var earlyAnswers: [String] = []
    }

    private let state = Locked(State())
    private let maximumLive: Int
    private let output: @Sendable (String) -> Void
    private let rings: Bool

    /// Creates a presenter that keeps at most `maximumLive` notifications (at least 1) and
    /// writes to `output` (standard output by default).
    ///
    /// - Parameters:
    ///   - maximumLive: how many notifications it keeps at most (at least 1).
    ///   - bell: ring the terminal's bell (BEL) for a notification with a sound (a
    ///     `sound-name` or `sound-file` hint and no `suppress-sound`); by default when standard
    ///     output is a terminal. The presenter advertises the `sound` capability either way:
    ///     the bell is its sound, so the poster does not play one of its own.
    ///   - output: where it writes what it shows.
    public init(
        maximumLive: Int = defaultMaximumLive, bell: Bool = isatty(STDOUT_FILENO) != 0,
        output: @escaping @Sendable (String) -> Void = { text in
            print(text, terminator: "")
            fflush(nil)
        }
    ) {
        self.maximumLive = max(1, maximumLive)
        self.rings = bell
        self.output = output
    }

    /// Starts serving on `connection` and reading answers from `input` (standard input by
    /// default), one line at a time, on a thread of its own.
    public func start(
        on connection: DBusConnection, input: FileHandle = .standardInput
    ) async throws(NotificationsError) -> NotificationServer {
        let server = try await NotificationServer.start(on: connection, handler: self, replaceExisting: true)
        state.withLock { $0.server = server }
        let thread = Thread { [self] in readAnswers(from: input) }
        thread.name = "TerminalPresenter input"
        thread.start()
        return server
    }

    // MARK: - NotificationServerHandler

    public func notify(_ request: NotifyRequest, sender: String, reply: NotificationServerReply<UInt32>) {
        do {
            try request.validate()
        } catch {
            reply.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: error.description)
            return
        }
        let (id, showing, evicted) = show(request, sender: sender)
        reply.succeed(id)
        for old in evicted {
            output("[notification \(old) closed: more than \(maximumLive) shown]\n")
            close(id: old, reason: .expired)
        }
        output(render(request, id: id))
        if rings, request.hints.suppressSound != true, request.hints.soundName != nil || request.hints.soundFile != nil {
            output("\u{07}")
        }
        if case .milliseconds(let milliseconds) = request.expiry { startExpiry(id: id, showing: showing, after: milliseconds) }
        let (early, ended) = state.withLock { state in
            defer { state.earlyAnswers = [] }
            return (state.earlyAnswers, state.inputEnded)
        }
        for line in early { answer(line) }
        if ended && isLive(id) { close(id: id, reason: .expired) }
    }

    /// Records `request` as a new notification, or in place of the caller's own that it
    /// replaces; returns its id, its showing, and the oldest ones that no longer fit.
    private func show(_ request: NotifyRequest, sender: String) -> (UInt32, UInt64, [UInt32]) {
        state.withLock { state in
            state.nextShowing &+= 1
            let live = Live(request: request, sender: sender, showing: state.nextShowing)
            if request.replacesID != 0,
               let index = state.live.firstIndex(where: { $0.id == request.replacesID && $0.notification.sender == sender }) {
                state.live[index].notification.expiry?.cancel()
                state.live[index].notification = live
                return (request.replacesID, live.showing, [])
            }
            let evicted = state.live.prefix(max(0, state.live.count - maximumLive + 1)).map(\.id)
            let id = state.nextID
            repeat {
                state.nextID = state.nextID == UInt32.max ? 1 : state.nextID + 1
            } while state.live.contains { $0.id == state.nextID }
            state.live.append((id, live))
            return (id, live.showing, evicted)
        }
    }

    /// Closes `id` after `milliseconds`, unless it goes or is replaced before.
    private func startExpiry(id: UInt32, showing: UInt64, after milliseconds: Int32) {
        let timer = Task { [self] in
            do {
                try await Task.sleep(for: .milliseconds(milliseconds))
            } catch {
                return
            }
            expire(id: id, showing: showing)
        }
        state.withLock { state in
            if let index = state.live.firstIndex(where: { $0.id == id && $0.notification.showing == showing }) {
                state.live[index].notification.expiry = timer
            } else {
                timer.cancel()
            }
        }
    }

    /// Closes `id` as expired, unless it was answered or replaced since `showing`.
    private func expire(id: UInt32, showing: UInt64) {
        let current = state.withLock { state in
            state.live.contains { $0.id == id && $0.notification.showing == showing }
        }
        guard current else { return }
        output("[notification \(id) expired]\n")
        close(id: id, reason: .expired)
    }

    public func closeNotification(id: UInt32, sender: String, reply: NotificationServerReply<Void>) {
        reply.succeed()
        if isLive(id) {
            output("[notification \(id) withdrawn]\n")
            close(id: id, reason: .closedByCall)
        }
    }

    public func capabilities() -> [NotificationCapability] {
        [.actions, .body, .inlineReply, .sound]
    }

    public func serverInformation() -> NotificationServerInformation {
        NotificationServerInformation(name: "DesktopNotifications terminal presenter", vendor: "DesktopNotifications", version: "1.0", specVersion: "1.2")
    }

    // MARK: - Answers

    /// The longest line of input taken as an answer (a reply's text included), in bytes; a
    /// longer one is dropped whole, with a note, so that input with no line break cannot grow
    /// without bound.
    public static let maximumAnswerBytes = 65_536

    /// Answers typed before any notification is shown that are kept for the first one.
    static let maximumEarlyAnswers = 16

    private func readAnswers(from input: FileHandle) {
        var buffer = Data()
        var discarding = false
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if discarding {
                    discarding = false
                } else {
                    answer(line.trimmingCharacters(in: .whitespaces))
                }
            }
            if buffer.count > Self.maximumAnswerBytes {
                if !discarding { output("[input line longer than \(Self.maximumAnswerBytes) bytes: ignored]\n") }
                discarding = true
                buffer.removeAll()
            }
        }
        let remaining = state.withLock { state -> [UInt32] in
            state.inputEnded = true
            return state.earlyAnswers.isEmpty ? state.live.map(\.id) : []
        }
        for id in remaining { close(id: id, reason: .expired) }
    }

    /// Applies one line of input to the newest live notification.
    func answer(_ line: String) {
        let newest: (id: UInt32, notification: Live)? = state.withLock { state in
            if state.live.isEmpty && state.earlyAnswers.count < Self.maximumEarlyAnswers { state.earlyAnswers.append(line) }
            return state.live.last
        }
        guard let (id, live) = newest else { return }
        let server = state.withLock { $0.server }
        let buttons = Self.buttons(of: live.request)
        if line.hasPrefix(">") {
            let text = line.dropFirst().trimmingCharacters(in: .whitespaces)
            try? server?.emitReplied(id: id, text: text, to: live.sender)
        } else if line == "0" {
            try? server?.emitActionInvoked(id: id, actionKey: NotificationAction.defaultKey, to: live.sender)
        } else if let number = Int(line), number >= 1, number <= buttons.count {
            try? server?.emitActionInvoked(id: id, actionKey: buttons[number - 1].key, to: live.sender)
        } else if !line.isEmpty {
            output(Self.reminder(for: live.request))
            return
        }
        close(id: id, reason: .dismissed)
    }

    private func isLive(_ id: UInt32) -> Bool {
        state.withLock { state in state.live.contains { $0.id == id } }
    }

    private func close(id: UInt32, reason: NotificationCloseReason) {
        let (server, sender) = state.withLock { state -> (NotificationServer?, String?) in
            let closing = state.live.first { $0.id == id }?.notification
            closing?.expiry?.cancel()
            let sender = closing?.sender
            state.live.removeAll { $0.id == id }
            return (state.server, sender)
        }
        guard let sender else { return }
        try? server?.emitClosed(id: id, reason: reason, to: sender)
    }
}
