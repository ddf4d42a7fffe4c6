import ArgumentParser
import Foundation
import FreedesktopNotifications

/// The options of a plain `notify [OPTIONS] SUMMARY [BODY]`, as values.
///
/// Both parsers fill it, both from ``NotifyOption``'s table: swift-argument-parser
/// (``NotifyCommand``, whose definition help, the manual and the completion scripts come
/// from) and ``QuickArguments`` (the start-up fast path). A test holds them equal on every
/// command line the fast path accepts.
package struct NotifyOptions: Equatable, Sendable {
    var urgency: String?
    var expireTime: Int32?
    var appName: String?
    var icon: String?
    var appIcon: String?
    var category: String?
    var transient = false
    var hint: [String] = []
    var printID = false
    var idFD: Int32?
    var replaceID: Int32?
    var wait = false
    var action: [String] = []
    var selectedActionFD: Int32?
    var activationTokenFD: Int32?
    var version = false
    var reply: String?
    var timeout: Double?
    var image: String?
    var sound: String?
    var progress: Int32?
    var identifier: String?
    var json = false
    var noFallback = false
    var text: [String] = []
}

extension NotifyOptions {
    /// Everything the options ask for, checked, in notify-send's order of checks.
    func makePlan() throws -> Delivery.Plan {
        guard let summary = text.first else { return try fail("No summary specified.") }
        var body = ""
        if text.count > 1 {
            guard let decoded = String(validating: compressEscapes(text[1]), as: UTF8.self) else {
                return try fail("Invalid UTF-8 provided for parameter: Body")
            }
            body = decoded
            if text.count > 2 { return try fail("Invalid number of options.") }
        }
        var level = NotificationUrgency.normal
        if let urgency {
            switch urgency.lowercased() {
            case "low": level = .low
            case "normal": level = .normal
            case "critical": level = .critical
            default: return try fail("Unknown urgency \(urgency) specified. Known urgency levels: low, normal, critical.")
            }
        }
        if let timeout, !(timeout > 0 && timeout.isFinite) {
            return try fail("--timeout needs a number of seconds above 0, not \(timeout).")
        }
        if let timeout, timeout > ScheduleDuration.maximumSeconds {
            return try fail("--timeout accepts at most \(Int(ScheduleDuration.maximumSeconds)) seconds (ten years), not \(timeout).")
        }
        if let identifier, !IdentifierStore.isValidName(identifier) {
            return try fail("--id needs a name that is not empty and not a number (numbers are ids), not \"\(identifier)\".")
        }
        let descriptors: (id: InheritedDescriptor?, action: InheritedDescriptor?, token: InheritedDescriptor?)
        do {
            descriptors = (
                try InheritedDescriptor.checked(idFD, option: "--id-fd"),
                try InheritedDescriptor.checked(selectedActionFD, option: "--selected-action-fd"),
                try InheritedDescriptor.checked(activationTokenFD, option: "--activation-token-fd"))
        } catch {
            return try fail(error.message)
        }
        // -i goes as the image-path hint (under the name the server's specification version
        // knows, see Delivery), as libnotify 0.8.4 and later send it; -n is the app icon.
        var request = NotifyRequest(
            appName: appName ?? Invocation.defaultAppName, replacesID: UInt32(max(replaceID ?? 0, 0)), appIcon: appIcon ?? "",
            summary: summary, body: body, expiry: NotificationExpiry(rawValue: expireTime ?? -1))
        request.hints.category = category
        request.hints.urgency = level
        if transient { request.hints.transient = true }
        // libnotify names the sending process; servers use it to find the application.
        try? request.hints.setVendorHint("sender-pid", .int64(Int64(getpid())))
        // --image, --sound and --progress come before -h, so that an explicit hint wins.
        if let progress {
            guard (0...100).contains(progress) else { return try fail("--progress takes a percentage from 0 to 100, not \(progress).") }
            request.hints.value = progress
        }
        if let image { request.hints.imagePath = try imageURI(image) }
        if let sound {
            var isFolder: ObjCBool = false
            if sound.hasPrefix("/") && FileManager.default.fileExists(atPath: sound, isDirectory: &isFolder) && !isFolder.boolValue {
                request.hints.soundFile = sound
            } else {
                request.hints.soundName = sound
            }
        }
        for argument in hint {
            do {
                let (name, value) = try HintParser.parse(argument)
                try request.hints.setVendorHint(name, value)
            } catch {
                return try fail("\(error)")
            }
        }
        let actions = Self.actions(action)
        do {
            try request.validate()
        } catch {
            return try fail("\(error)")
        }
        return Delivery.Plan(
            request: request, actions: actions, replyPlaceholder: reply, wait: wait, printID: printID,
            json: json, timeout: timeout.map { Duration.milliseconds(Int64($0 * 1000)) }, identifier: identifier,
            icon: icon.flatMap { $0.isEmpty ? nil : $0 }, idDescriptor: descriptors.id, actionDescriptor: descriptors.action,
            tokenDescriptor: descriptors.token,
            portalNotes: portalNotes)
    }

    /// The actions of `-A [NAME=]Text` arguments, as notify-send makes them: the name and the
    /// label trimmed of spaces; without a name, the argument's position (from 0) is the name;
    /// an empty name or label is skipped; a name given again replaces the earlier action, and
    /// the action takes the later one's place (libnotify's `notify_notification_add_action`).
    static func actions(_ arguments: [String]) -> [NotificationAction] {
        var actions: [NotificationAction] = []
        for (position, argument) in arguments.enumerated() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts.count == 1 ? "\(position)" : parts[0].trimmingCharacters(in: .whitespaces)
            let label = parts[parts.count - 1].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty && !label.isEmpty else { continue }
            actions.removeAll { $0.key == key }
            actions.append(NotificationAction(key: key, label: label))
        }
        return actions
    }

    /// The options given that the notification portal has no field for, one each, with the
    /// name of the feature as libnotify names it when it drops it ("App Icon", "Category").
    private var portalNotes: [String] {
        var notes: [String] = []
        if appName != nil { notes.append("-a (App Name)") }
        if appIcon != nil { notes.append("-n (App Icon)") }
        if category != nil { notes.append("-c (Category)") }
        if !hint.isEmpty { notes.append("-h (Hints)") }
        if transient { notes.append("-e (Transient)") }
        // libnotify keeps the time itself, so it only counts while notify waits.
        if expireTime != nil && !wait && action.isEmpty { notes.append("-t without --wait (Expire Time)") }
        if image != nil { notes.append("--image") }
        if sound != nil { notes.append("--sound") }
        return notes
    }

    /// `--image PATH` as a `file://` URI: the path made absolute (the server runs elsewhere),
    /// and checked to be a readable file.
    private func imageURI(_ path: String) throws -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute.path, isDirectory: &isFolder) else {
            return try fail("--image: no such file: \(path)")
        }
        guard !isFolder.boolValue else { return try fail("--image: \(path) is a folder, not an image file") }
        guard access(absolute.path, R_OK) == 0 else { return try fail("--image: cannot read \(path): permission denied") }
        return absolute.absoluteString
    }

    private func fail<T>(_ message: String) throws -> T {
        Terminal.error(message + "\n")
        throw ExitCode(1)
    }
}
