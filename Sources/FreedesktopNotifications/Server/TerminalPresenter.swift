public import DBus
public import Foundation

/// A notification server that shows notifications in a terminal and takes the person's
/// answer from the keyboard: for machines with no desktop (an SSH session, a container, CI).
///
/// Each notification is printed with its numbered actions. A line of input answers the newest
/// live notification: a number chooses that action (`ActionInvoked`), `> text` replies
/// (`NotificationReplied`, as KDE's inline reply), an empty line dismisses it. At the end of
/// the input, live notifications expire (`NotificationClosed(id, 1)`), so a program waiting
/// for an answer learns that none will come.
public final class TerminalPresenter: NotificationServerHandler, Sendable {
    private struct Live {
        var request: NotifyRequest
        var sender: String
    }

    private struct State {
        var nextID: UInt32 = 1
        var live: [(id: UInt32, notification: Live)] = []
        var server: NotificationServer?
        var inputEnded = false
        /// Lines that came before any notification, kept for the next one.
        var earlyAnswers: [String] = []
    }

    private let state = Locked(State())
    private let output: @Sendable (String) -> Void

    /// Creates a presenter that writes to `output` (standard output by default).
    public init(output: @escaping @Sendable (String) -> Void = { text in
        print(text, terminator: "")
        fflush(nil)
    }) {
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
        let id: UInt32 = state.withLock { state in
            if request.replacesID != 0, let index = state.live.firstIndex(where: { $0.id == request.replacesID }) {
                state.live[index].notification = Live(request: request, sender: sender)
                return request.replacesID
            }
            let id = state.nextID
            state.nextID += 1
            state.live.append((id, Live(request: request, sender: sender)))
            return id
        }
        reply.succeed(id)
        output(render(request, id: id))
        let (early, ended) = state.withLock { state in
            defer { state.earlyAnswers = [] }
            return (state.earlyAnswers, state.inputEnded)
        }
        for line in early { answer(line) }
        if ended && isLive(id) { close(id: id, reason: .expired) }
    }

    public func closeNotification(id: UInt32, sender: String, reply: NotificationServerReply<Void>) {
        reply.succeed()
        if isLive(id) {
            output("[notification \(id) withdrawn]\n")
            close(id: id, reason: .closedByCall)
        }
    }

    public func capabilities() -> [NotificationCapability] {
        [.actions, .body, .inlineReply]
    }

    public func serverInformation() -> NotificationServerInformation {
        NotificationServerInformation(name: "DesktopNotifications terminal presenter", vendor: "DesktopNotifications", version: "1.0", specVersion: "1.2")
    }

    // MARK: - Showing

    func render(_ request: NotifyRequest, id: UInt32) -> String {
        var lines = ["┌─ \(request.appName.isEmpty ? "notification" : request.appName) (\(id))", "│ \(request.summary)"]
        for line in request.body.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("│ \(line)") }
        if let image = request.hints.imagePath { lines.append("│ [image \(image)]") }
        let buttons = request.actions.filter { $0.key != NotificationAction.defaultKey && $0.key != NotificationAction.inlineReplyKey }
        for (index, action) in buttons.enumerated() { lines.append("│  [\(index + 1)] \(action.label)") }
        var help: [String] = []
        if request.actions.contains(where: { $0.key == NotificationAction.defaultKey }) { help.append("0 opens it") }
        if !buttons.isEmpty { help.append("a number chooses") }
        if let reply = request.actions.first(where: { $0.key == NotificationAction.inlineReplyKey }) {
            let placeholder = request.hints.replyPlaceholderText.map { " (\($0))" } ?? ""
            help.append("\"> text\" replies: \(reply.label)\(placeholder)")
        }
        help.append("an empty line dismisses")
        lines.append("└─ " + help.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Answers

    private func readAnswers(from input: FileHandle) {
        var buffer = Data()
        while true {
            let chunk = input.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                answer(line.trimmingCharacters(in: .whitespaces))
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
            if state.live.isEmpty { state.earlyAnswers.append(line) }
            return state.live.last
        }
        guard let (id, live) = newest else { return }
        let server = state.withLock { $0.server }
        let buttons = live.request.actions.filter { $0.key != NotificationAction.defaultKey && $0.key != NotificationAction.inlineReplyKey }
        if line.hasPrefix(">") {
            let text = line.dropFirst().trimmingCharacters(in: .whitespaces)
            try? server?.emitReplied(id: id, text: text, to: live.sender)
        } else if line == "0" {
            try? server?.emitActionInvoked(id: id, actionKey: NotificationAction.defaultKey, to: live.sender)
        } else if let number = Int(line), (1...buttons.count).contains(number) {
            try? server?.emitActionInvoked(id: id, actionKey: buttons[number - 1].key, to: live.sender)
        } else if !line.isEmpty {
            output("[answer with a number from 1 to \(buttons.count), \"> text\", or an empty line]\n")
            return
        }
        close(id: id, reason: .dismissed)
    }

    private func isLive(_ id: UInt32) -> Bool {
        state.withLock { state in state.live.contains { $0.id == id } }
    }

    private func close(id: UInt32, reason: NotificationCloseReason) {
        let (server, sender) = state.withLock { state -> (NotificationServer?, String?) in
            let sender = state.live.first { $0.id == id }?.notification.sender
            state.live.removeAll { $0.id == id }
            return (state.server, sender)
        }
        guard let sender else { return }
        try? server?.emitClosed(id: id, reason: reason, to: sender)
    }
}
