/// How a notification looks in the terminal, and the help printed with it.
extension TerminalPresenter {
    /// The notification as printed: app name and id, summary, body, image, numbered buttons
    /// and what a line typed can do, every text from the request neutralised.
    func render(_ request: NotifyRequest, id: UInt32) -> String {
        let appName = request.appName.isEmpty ? "notification" : TerminalText.singleLine(request.appName)
        var lines = ["┌─ \(appName) (\(id))", "│ \(TerminalText.singleLine(request.summary))"]
        for line in TerminalText.lines(of: request.body) { lines.append("│ \(line)") }
        if let image = request.hints.imagePath { lines.append("│ [image \(TerminalText.singleLine(image))]") }
        for (index, action) in Self.buttons(of: request).enumerated() {
            lines.append("│  [\(index + 1)] \(TerminalText.singleLine(action.label))")
        }
        lines.append("└─ " + Self.choices(for: request).joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The actions shown as numbered buttons: all but the default action and the reply.
    static func buttons(of request: NotifyRequest) -> [NotificationAction] {
        request.actions.filter { $0.key != NotificationAction.defaultKey && $0.key != NotificationAction.inlineReplyKey }
    }

    /// What a line typed can do with `request`, as the help under it says.
    static func choices(for request: NotifyRequest) -> [String] {
        var help: [String] = []
        if request.actions.contains(where: { $0.key == NotificationAction.defaultKey }) { help.append("0 opens it") }
        if !buttons(of: request).isEmpty { help.append("a number chooses") }
        if let reply = request.actions.first(where: { $0.key == NotificationAction.inlineReplyKey }) {
            let placeholder = request.hints.replyPlaceholderText.map { " (\(TerminalText.singleLine($0)))" } ?? ""
            help.append("\"> text\" replies: \(TerminalText.singleLine(reply.label))\(placeholder)")
        }
        help.append("an empty line dismisses")
        return help
    }

    /// The reminder printed after a line that does nothing for `request`.
    static func reminder(for request: NotifyRequest) -> String {
        var answers: [String] = []
        if request.actions.contains(where: { $0.key == NotificationAction.defaultKey }) { answers.append("0") }
        let count = buttons(of: request).count
        if count > 0 { answers.append(count == 1 ? "1" : "a number from 1 to \(count)") }
        if request.actions.contains(where: { $0.key == NotificationAction.inlineReplyKey }) { answers.append("\"> text\"") }
        answers.append(answers.isEmpty ? "an empty line" : "or an empty line")
        return "[answer with \(answers.joined(separator: ", "))]\n"
    }
}
