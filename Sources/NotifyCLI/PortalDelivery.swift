import DBus
import Foundation
import FreedesktopNotifications
import UserNotifications

/// Shows one notification through the notification portal (`org.freedesktop.portal.Notification`),
/// as libnotify's `notify-send` does in a sandbox or with `NOTIFY_FORCE_PORTAL` (``PortalMode``).
///
/// What goes to `AddNotification` is libnotify's dictionary: the id
/// `libnotify-APP-NAME-N` (N is `-r`'s id, else 1: libnotify counts per process, so each
/// notify-send's first notification has the same id, and replaces the one before), `title`,
/// `body`, `priority` from the urgency (`low`, `normal`, `urgent`), `buttons` for the actions,
/// `default-action` when one is named `default`, and the `-i` icon: a file (a path or a `file:`
/// URI) as its bytes, else an icon name as a themed icon with its symbolic twin. The portal has
/// no field for the app name, the app icon, the category or the hints; like libnotify, notify
/// drops them, and says so for each given.
///
/// The wait ends on the portal's `ActionInvoked` for this id: a known action is printed and
/// written to its descriptors and the notification removed; another is said on standard error
/// ("Received unknown action") and ends the wait as a dismissal, as libnotify does. Control-C
/// and `--timeout` remove it; an `-t` above 0 ends the wait and removes it when it runs out
/// (the portal has no expiry of its own; libnotify keeps the time itself).
struct PortalDelivery: Sendable {
    /// The portal frontend's bus name.
    static let busName = "org.freedesktop.portal.Desktop"
    /// Its object.
    static let objectPath = "/org/freedesktop/portal/desktop"
    /// The notification portal's interface.
    static let interface = PortalNotificationSpec.name
    /// The largest icon file sent as bytes.
    static let maximumIconBytes = 16 << 20

    /// What to show and how to wait.
    let plan: Delivery.Plan
    /// How libnotify names this process's notifications to the portal.
    let mode: PortalMode

    /// Delivers through the portal on `bus`; `nil` when the portal does not answer its
    /// `version` (libnotify then uses the notification server).
    func run(bus: DBusBus, signals: SignalWatcher) async -> Int32? {
        guard let connection = try? await DBusConnection.connect(to: bus) else { return nil }
        guard let path = try? DBusObjectPath(Self.objectPath), await Self.version(on: connection, path: path) != nil else {
            await connection.close()
            return nil
        }
        let code = await deliver(on: connection, path: path, signals: signals)
        await connection.close()
        return code
    }

    /// The portal's `version`, or `nil` when it does not answer.
    static func version(on connection: DBusConnection, path: DBusObjectPath) async -> UInt32? {
        do {
            let message = try PropertiesSpec.Call.get(.init(interfaceName: interface, propertyName: PortalNotificationSpec.Property.version.rawValue))
                .message(to: busName, path: path)
            let version = try PropertiesSpec.GetReply(try await connection.call(message, timeout: .seconds(5)).body).value.uint32Value
            return version.flatMap { $0 > 0 ? $0 : nil }
        } catch {
            return nil
        }
    }

    private enum Input: Sendable {
        case event(DBusSignalEvent)
        case signal
        case timeout
        case expired
    }

    private func deliver(on connection: DBusConnection, path: DBusObjectPath, signals: SignalWatcher) async -> Int32 {
        var failed = false
        for feature in plan.portalNotes {
            Terminal.error("\(feature) is not available when using Portal Notifications\n")
        }
        if plan.replyPlaceholder != nil {
            Terminal.error("Inline replies are not supported by this notifications server. Displaying without a reply field.\n")
            failed = true
        }
        if plan.identifier != nil {
            Terminal.error("--id is not available when using Portal Notifications.\n")
            failed = true
        }
        let number = plan.request.replacesID != 0 ? plan.request.replacesID : 1
        let id = mode.notificationID(appName: Invocation.defaultAppName, number: number)
        let entries: [(String, DBusValue)]
        do {
            entries = try dictionary()
        } catch {
            Terminal.error("\(error)\n")
            return 1
        }
        func call(_ call: PortalNotificationSpec.Call) async throws {
            _ = try await connection.call(try call.message(to: Self.busName, path: path), timeout: .seconds(10))
        }
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        let handle: DBusSignalHandle
        do {
            let rule = DBusMatchRule(sender: Self.busName, interface: Self.interface, member: PortalNotificationSpec.Signal.actionInvoked.rawValue, path: path,
                signature: PortalNotificationSpec.Signal.actionInvoked.signature)
            handle = try await connection.subscribe(to: [rule], senderMustOwn: Self.busName) { feed.yield(.event($0)) }
        } catch {
            Terminal.error("The notification portal's actions cannot be heard: \(error)\n")
            return 1
        }
        defer { handle.cancel() }
        if plan.request.replacesID != 0 {
            // libnotify removes the notification it replaces first; there may be none by that
            // id (the portal then answers an error, which changes nothing).
            try? await call(.removeNotification(.init(id: id)))
        }
        do {
            try await call(.addNotification(.init(id: id, notification: Dictionary(entries) { _, later in later })))
        } catch {
            Terminal.error("\(error)\n")
            return 1
        }
        var outcome = Delivery.Outcome(id: number, server: handle.initialOwner)
        if plan.printID && !plan.json { Terminal.out("\(number)\n") }
        if let descriptor = plan.idDescriptor, !descriptor.write(line: "\(number)") { failed = true }
        if plan.wait || !plan.actions.isEmpty {
            let tasks = [
                Task {
                    for await _ in signals.signals { feed.yield(.signal) }
                },
                Task { [timeout = plan.timeout] in
                    guard let timeout else { return }
                    do { try await Task.sleep(for: timeout) } catch { return }
                    feed.yield(.timeout)
                },
                Task { [expiry = plan.request.expiry.rawValue] in
                    guard expiry > 0 else { return }
                    do { try await Task.sleep(for: .milliseconds(Int64(expiry))) } catch { return }
                    feed.yield(.expired)
                },
            ]
            defer { tasks.forEach { $0.cancel() } }
            let keys = Set(plan.actions.map(\.key))
            var removeIt = false
            loop: for await input in inputs {
                switch input {
                case .event(.signal(let message)):
                    guard let signal = try? PortalNotificationSpec.ActionInvokedSignal(message.body), signal.id == id else { continue }
                    let action = signal.action
                    if keys.contains(action) {
                        outcome.action = action
                        outcome.ending = .action
                        outcome.activationToken = Self.activationToken(in: signal.parameter)
                        if !plan.json { Terminal.out("\(action)\n") }
                        if !Delivery(plan: plan).writeChoice(action: action, activationToken: outcome.activationToken) { failed = true }
                        removeIt = true
                    } else {
                        if action != "default-action" { Terminal.error("Received unknown action \(action)\n") }
                        outcome.closeReason = .dismissed
                        outcome.ending = .closed
                    }
                    break loop
                case .event(.ownerChanged(_, _, let newOwner)) where newOwner != outcome.server:
                    Terminal.error("The notification server went away while waiting.\n")
                    outcome.ending = .serverGone
                    break loop
                case .event(.disconnected):
                    Terminal.error("The notification server went away while waiting.\n")
                    outcome.ending = .serverGone
                    break loop
                case .event:
                    continue
                case .signal:
                    Terminal.error("Wait cancelled, closing notification\n")
                    outcome.ending = .interrupted
                    removeIt = true
                    break loop
                case .timeout:
                    Terminal.error("Wait timeout expired, closing notification\n")
                    outcome.ending = .timeout
                    removeIt = true
                    break loop
                case .expired:
                    // As in the server mode the wait ends; the portal has no expiry of its
                    // own, so the notification is removed (libnotify's portal timeout).
                    Terminal.error("Wait timeout expired\n")
                    outcome.closeReason = .expired
                    outcome.ending = .timeout
                    removeIt = true
                    break loop
                }
            }
            if removeIt {
                do {
                    try await call(.removeNotification(.init(id: id)))
                } catch {
                    Terminal.error("Could not remove notification \(id): \(error)\n")
                }
            }
        }
        if plan.json { Terminal.out(Delivery.json(outcome) + "\n") }
        if outcome.ending == .serverGone { return 1 }
        return failed ? 1 : 0
    }

    /// The activation token a version 2 portal puts in the action's platform data (an `a{sv}`
    /// with `activation-token` among the parameters), or `nil`.
    static func activationToken(in parameter: [DBusValue]) -> String? {
        for value in parameter {
            if let token = value.variantDictionaryValue?["activation-token"]?.stringValue { return token }
        }
        return nil
    }

    /// libnotify's `AddNotification` dictionary for the plan.
    func dictionary() throws(PortalIconError) -> [(String, DBusValue)] {
        let request = plan.request
        var entries: [(String, DBusValue)] = [("title", .string(request.summary)), ("body", .string(request.body))]
        if plan.actions.contains(where: { $0.key == "default" }) {
            entries.append(("default-action", .string("default")))
        }
        if plan.actions.contains(where: { $0.key.lowercased() != "default" }) {
            let buttons = plan.actions.map { action in
                DBusValue.variantDictionary([("action", .string(action.key)), ("label", .string(action.label))])
            }
            entries.append(("buttons", .array(element: .dictionary(key: .string, value: .variant), buttons)))
        }
        switch request.hints.urgency {
        case .low: entries.append(("priority", .string("low")))
        case .normal: entries.append(("priority", .string("normal")))
        case .critical: entries.append(("priority", .string("urgent")))
        case nil: break
        }
        if let icon = plan.icon, let value = try Self.icon(icon) {
            entries.append(("icon", value))
        }
        return entries
    }

    /// A serialized `GIcon` for `-i`, as libnotify makes it: a file (a path that exists, or a
    /// `file:` URI) as `("bytes", <ay>)` (nothing for an empty file), anything else as
    /// `("themed", <as>)`: the name and its `-symbolic` twin, as GLib's themed icon lists them.
    static func icon(_ icon: String) throws(PortalIconError) -> DBusValue? {
        if let scheme = uriScheme(of: icon) {
            guard scheme.lowercased() == "file", let url = URL(string: icon), url.isFileURL else {
                throw PortalIconError(message: "Cannot read the icon \(icon): only file: URIs and paths can be read.")
            }
            return try bytesIcon(path: url.path, named: icon)
        }
        if FileManager.default.fileExists(atPath: icon) {
            return try bytesIcon(path: icon, named: icon)
        }
        let names: [String]
        if icon.hasSuffix("-symbolic") {
            names = [icon, String(icon.dropLast("-symbolic".count))]
        } else {
            names = [icon, icon + "-symbolic"]
        }
        return .structure([.string("themed"), .variant(.stringArray(names))])
    }

    /// The scheme of `text` when it reads as a URI (`scheme:` with a scheme of RFC 3986's
    /// characters), else `nil`.
    static func uriScheme(of text: String) -> Substring? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let allowed = scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
        return allowed ? scheme : nil
    }

    private static func bytesIcon(path: String, named icon: String) throws(PortalIconError) -> DBusValue? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw PortalIconError(message: "Cannot read the icon \(icon): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PortalIconError(message: "Cannot read the icon \(icon): not a regular file.")
        }
        guard status.st_size <= maximumIconBytes else {
            throw PortalIconError(message: "Cannot send the icon \(icon): larger than \(maximumIconBytes >> 20) MiB.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PortalIconError(message: "Cannot read the icon \(icon): \(error.localizedDescription)")
        }
        guard !data.isEmpty, data.count <= maximumIconBytes else { return nil }
        return .structure([.string("bytes"), .variant(.byteArray(Array(data)))])
    }
}

/// The `-i` icon could not be sent through the portal.
struct PortalIconError: Error, CustomStringConvertible {
    /// What to print.
    let message: String
    var description: String { message }
}
